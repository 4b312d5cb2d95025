"""Lockout that can't be aimed (issue: "Lockout as a weapon"), lifted from a screen; API tokens that expire and
that their owner revokes (issue: "Leaks")."""

from __future__ import annotations

import datetime as dt

from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from casino.audit.models import AuditRecord
from casino.core.models import LoginThrottle
from tests.client import APIClient
from tests.fixtures import as_user

TOKEN_URL = "/api/auth/token/"
STRANGER, DESK = "10.66.0.9", "10.1.0.5"


def _token(username: str, password: str, addr: str):
    return APIClient().post(TOKEN_URL, {"username": username, "password": password}, format="json",
                            REMOTE_ADDR=addr)


def test_a_strangers_guesses_lock_the_stranger_not_the_pit_manager(floor, settings):
    settings.LOGIN_FAILURE_LIMIT = 5
    # given a stranger guessing the pit manager's password from another terminal, and the admin's
    guesses = [_token("pm", f"guess{i}", STRANGER).status_code for i in range(8)]
    admin_guesses = [_token("admin", f"guess{i}", STRANGER).status_code for i in range(5)]
    # then the stranger's terminal is refused for those accounts, even with the right password
    assert guesses == [400] * 4 + [429] * 4
    assert admin_guesses == [400] * 4 + [429]
    assert _token("pm", "pass", STRANGER).status_code == 429
    # while the pit manager and the admin sign in from their own desks as usual
    assert _token("pm", "pass", DESK).status_code == 200
    assert _token("admin", "pass", DESK).status_code == 200
    page = Client(REMOTE_ADDR=DESK).post("/login/", {"username": "pm", "password": "pass"})
    assert page.status_code == 302


def test_each_further_failure_past_the_limit_doubles_the_wait(floor, settings):
    settings.LOGIN_FAILURE_LIMIT, settings.LOGIN_LOCKOUT_SECONDS = 3, 60
    for i in range(3):
        _token("dealer", f"guess{i}", STRANGER)
    row = LoginThrottle.objects.get(key=f"user:dealer|{STRANGER}")
    first = row.locked_until - row.last_failure_at
    # when the lockout has passed and the stranger tries again, and again
    waits = []
    for _ in range(2):
        LoginThrottle.objects.filter(pk=row.pk).update(locked_until=timezone.now() - dt.timedelta(seconds=1))
        assert _token("dealer", "again", STRANGER).status_code == 429  # the failure that locks again
        row.refresh_from_db()
        waits.append(round((row.locked_until - row.last_failure_at).total_seconds()))
    # then 60 s, 120 s, 240 s
    assert [round(first.total_seconds()), *waits] == [60, 120, 240]
    assert AuditRecord.objects.filter(action="auth.lockout").count() == 3


def test_another_supervisor_lifts_a_lockout_from_the_screen_the_owner_cannot(floor, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    for i in range(2):
        _token("dealer", f"guess{i}", STRANGER)
    assert _token("dealer", "pass", STRANGER).status_code == 429
    # the dealer cannot open the screen; the pit manager sees the lockout
    dealer = Client()
    dealer.force_login(floor.dealer)
    assert dealer.get("/staff/lockouts/").status_code == 403
    supervisor = Client()
    supervisor.force_login(floor.manager)
    page = supervisor.get("/staff/lockouts/").content.decode()
    assert "Unlock dealer" in page
    assert f"signing in from {STRANGER}" in page
    # a supervisor does not unlock themselves
    own = supervisor.post("/staff/lockouts/", {"username": "pm"}, follow=True).content.decode()
    assert "never by its owner" in own
    # when the pit manager unlocks the dealer
    done = supervisor.post("/staff/lockouts/", {"username": "dealer"}, follow=True)
    # then the dealer signs in again at once, and the lift is audited with what it cleared
    assert "dealer is unlocked" in done.content.decode()
    assert _token("dealer", "pass", STRANGER).status_code == 200
    lift = AuditRecord.objects.get(action="auth.unlock")
    assert (lift.actor_username, lift.object_id, lift.after) == ("pm", "dealer", {"counts": []})
    assert lift.before["counts"][0]["key"] == f"user:dealer|{STRANGER}"


def test_only_an_admin_unlocks_an_admin(floor, settings):
    settings.LOGIN_FAILURE_LIMIT = 1
    _token("admin", "guess", STRANGER)
    supervisor = Client()
    supervisor.force_login(floor.manager)
    refused = supervisor.post("/staff/lockouts/", {"username": "admin"}, follow=True).content.decode()
    assert "only an admin may unlock an admin" in refused
    assert LoginThrottle.objects.filter(key=f"user:admin|{STRANGER}").exists()


def test_tokens_expire_and_are_replaced_at_the_next_sign_in(floor, settings):
    settings.API_TOKEN_TTL = 3600
    answer = _token("dealer", "pass", DESK).json()
    client = APIClient(HTTP_AUTHORIZATION=f"Token {answer['token']}")
    assert client.get("/api/rounds/").status_code == 200
    assert answer["expires_at"] is not None
    # when the token is older than its lifetime
    Token.objects.filter(key=answer["token"]).update(created=timezone.now() - dt.timedelta(seconds=3601))
    # then it no longer signs anyone in, and signing in again gives a new one
    expired = client.get("/api/rounds/")
    assert expired.status_code in (401, 403)
    assert "expired" in expired.json()["error"]["message"]
    fresh = _token("dealer", "pass", DESK).json()["token"]
    assert fresh != answer["token"]
    assert APIClient(HTTP_AUTHORIZATION=f"Token {fresh}").get("/api/rounds/").status_code == 200


def test_the_owner_revokes_their_token(floor):
    token = _token("dealer", "pass", DESK).json()["token"]
    client = APIClient(HTTP_AUTHORIZATION=f"Token {token}")
    answer = client.post("/api/auth/token/revoke/", format="json")
    assert answer.json() == {"revoked": True}
    assert client.get("/api/rounds/").status_code in (401, 403)
    assert not Token.objects.filter(user=floor.dealer).exists()
    assert AuditRecord.objects.filter(action="auth.token_revoke", actor_username="dealer").count() == 1
    # someone else's token is untouched by anyone's revocation
    other = _token("pm", "pass", DESK).json()["token"]
    as_user(floor.dealer).post("/api/auth/token/revoke/", format="json")
    assert Token.objects.filter(key=other).exists()


def test_admin_does_not_list_api_tokens(floor):
    floor.admin.is_staff = floor.admin.is_superuser = True
    floor.admin.save(update_fields=["is_staff", "is_superuser"])
    admin = Client()
    admin.force_login(floor.admin)
    Token.objects.create(user=floor.dealer)
    assert admin.get("/admin/authtoken/tokenproxy/").status_code == 404
    assert admin.get("/admin/authtoken/token/").status_code == 404
