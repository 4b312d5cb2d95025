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


# -- issue 28: "Lockouts": an address is slowed, never locked; every lockout on the screen can be lifted by
# someone else; a requester's wrong PINs stay counted across victims and lifts

SHARED = "10.20.0.1"  # tablets behind one address, or a proxy not in TRUSTED_PROXIES


def _wait_over(addr: str) -> None:
    """The address's wait has passed (as it would after Retry-After seconds)."""
    LoginThrottle.objects.filter(key=f"addr:{addr}").update(locked_until=timezone.now() - dt.timedelta(seconds=1))


def test_random_usernames_from_one_address_slow_it_but_never_stop_a_correct_sign_in(floor, settings):
    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT == 30
    # given the dealer signed in from the shared address earlier in the shift: a terminal of their own
    assert _token("dealer", "pass", SHARED).status_code == 200
    # when someone behind that address fails 31 sign-ins with random usernames (each let through its wait)
    codes = []
    for i in range(31):
        _wait_over(SHARED)
        codes.append(_token(f"nobody{i:02d}", "123456", SHARED).status_code)
    # (the 30th and 31st failures set a wait, said with the answer)
    assert codes == [400] * 29 + [429] * 2
    assert LoginThrottle.objects.get(key=f"addr:{SHARED}").failures == 31
    # then the address is slowed: a short wait, never a lockout
    row = LoginThrottle.objects.get(key=f"addr:{SHARED}")
    wait = (row.locked_until - row.last_failure_at).total_seconds()
    assert 0 < wait <= settings.LOGIN_ADDRESS_MAX_DELAY_SECONDS
    # the dealer, at a terminal of their own, signs in at once
    assert _token("dealer", "pass", SHARED).status_code == 200
    # the pit manager, never seen at that address, is asked to wait, with the delay in words and in Retry-After
    slowed = _token("pm", "pass", SHARED)
    assert (slowed.status_code, slowed.json()["error"]["code"]) == (429, "slowed")
    assert 1 <= int(slowed["Retry-After"]) <= settings.LOGIN_ADDRESS_MAX_DELAY_SECONDS
    assert "too many failed sign-ins from this address: wait" in slowed.json()["error"]["message"]
    page = Client(REMOTE_ADDR=SHARED).post("/login/", {"username": "pm", "password": "pass"})
    assert page.status_code == 200  # the form again, saying to wait
    assert "Too many failed sign-ins from this terminal: wait" in page.content.decode()
    # and once the wait has passed, signs in with the right password: no supervisor needed
    _wait_over(SHARED)
    assert _token("pm", "pass", SHARED).status_code == 200
    # each further failure doubles the wait, up to the cap and never past it
    for i in range(12):
        _wait_over(SHARED)
        assert _token(f"again{i}", "123456", SHARED).status_code in (400, 429)
    row.refresh_from_db()
    assert (row.locked_until - row.last_failure_at).total_seconds() == settings.LOGIN_ADDRESS_MAX_DELAY_SECONDS
    # while a try inside the wait is not even checked: it adds nothing
    failures = row.failures
    assert _token("nobody99", "123456", SHARED).status_code == 429
    row.refresh_from_db()
    assert row.failures == failures
    # the address's slowdown is audited as such
    assert AuditRecord.objects.filter(action="auth.lockout", after__scope="address").exists()


def test_the_cap_per_username_and_address_still_holds_behind_a_shared_address(floor, settings):
    settings.LOGIN_FAILURE_LIMIT = 5
    assert _token("pm", "pass", SHARED).status_code == 200  # a terminal of the pit manager's own
    # when someone there guesses the pit manager's password
    assert [_token("pm", f"guess{i}", SHARED).status_code for i in range(6)] == [400] * 4 + [429] * 2
    # then that pair is locked (not the address: the dealer beside them signs in)
    locked = _token("pm", "pass", SHARED)
    assert (locked.status_code, locked.json()["error"]["code"]) == (429, "locked_out")
    assert _token("dealer", "pass", SHARED).status_code == 200


def test_an_address_slowdown_is_shown_and_lifted_by_a_supervisor_elsewhere_never_from_itself(floor, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3
    for i in range(4):
        _token(f"nobody{i}", "123456", SHARED)
    assert _token("pm2", "pass", SHARED).status_code == 429
    # a supervisor at the slowed address sees it but cannot lift it from there
    there = Client(REMOTE_ADDR=SHARED)
    there.force_login(floor.other_manager)
    page = there.get("/staff/lockouts/").content.decode()
    assert f"Unlock address {SHARED}" in page
    assert "slowed" in page
    refused = there.post("/staff/lockouts/", {"address": SHARED}, follow=True).content.decode()
    assert "never from itself" in refused
    assert LoginThrottle.objects.filter(key=f"addr:{SHARED}").exists()
    # another supervisor, at another terminal, lifts it
    desk = Client(REMOTE_ADDR=DESK)
    desk.force_login(floor.manager)
    done = desk.post("/staff/lockouts/", {"address": SHARED}, follow=True).content.decode()
    assert f"{SHARED} is unlocked (1 count cleared)." in done
    assert not LoginThrottle.objects.filter(key=f"addr:{SHARED}").exists()
    assert _token("pm2", "pass", SHARED).status_code == 200
    lift = AuditRecord.objects.get(action="auth.unlock")
    assert (lift.actor_username, lift.object_type, lift.object_id) == ("pm", "address", SHARED)
    assert lift.before["counts"][0]["key"] == f"addr:{SHARED}"


def test_a_lift_never_clears_the_lifters_own_counts(floor, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    # given the pit manager locked out from a stranger's terminal and the dealer too
    for i in range(2):
        _token("pm", f"guess{i}", STRANGER)
        _token("dealer", f"guess{i}", STRANGER)
    supervisor = Client(REMOTE_ADDR=DESK)
    supervisor.force_login(floor.manager)
    # when the pit manager lifts the dealer's lockout, and tries his own
    supervisor.post("/staff/lockouts/", {"username": "dealer"})
    own = supervisor.post("/staff/lockouts/", {"username": "PM "}, follow=True).content.decode()
    # then the dealer's is gone and his own stays
    assert "never by its owner" in own
    assert not LoginThrottle.objects.filter(key=f"user:dealer|{STRANGER}").exists()
    assert LoginThrottle.objects.filter(key=f"user:pm|{STRANGER}", locked_until__isnull=False).exists()
    # another supervisor lifts it
    other = Client(REMOTE_ADDR=DESK)
    other.force_login(floor.other_manager)
    other.post("/staff/lockouts/", {"username": "pm"})
    assert not LoginThrottle.objects.filter(key__startswith="user:pm|").exists()


def _wrong_pin(requester, signer: str) -> str:
    from casino.signatures import SignatureLocked, SignatureRefused, signed_by

    try:
        signed_by({"username": signer, "pin": "0000"}, actor=requester, field="signer")
    except SignatureRefused as refused:
        refused.after_rollback()
        return "refused"
    except SignatureLocked:
        return "locked"
    return "signed"


def test_wrong_pins_are_capped_per_requester_across_victims_and_lifts(floor, settings):
    settings.SIGNATURE_FAILURE_LIMIT, settings.SIGNATURE_REQUESTER_FAILURE_LIMIT = 5, 15
    # given the pit manager making five wrong PINs for another supervisor: locked for that supervisor
    assert [_wrong_pin(floor.manager, "pm2") for _ in range(6)] == ["refused"] * 5 + ["locked"]
    # when he lifts "that supervisor's lockout" from the screen
    screen = Client(REMOTE_ADDR=DESK)
    screen.force_login(floor.manager)
    page = screen.get("/staff/lockouts/").content.decode()
    assert "signing for pm2" in page
    screen.post("/staff/lockouts/", {"username": "pm2"})
    # then he gets no fresh guesses: his count for pm2 is his own and stays
    assert _wrong_pin(floor.manager, "pm2") == "locked"
    assert LoginThrottle.objects.get(key="sign:pm>pm2").failures == 5
    # nor by lifting his own
    assert "never by its owner" in screen.post("/staff/lockouts/", {"username": "pm"}, follow=True).content.decode()
    assert _wrong_pin(floor.manager, "pm2") == "locked"
    # moving on to other victims, the count over all of them stops him at the requester's limit
    tries = [_wrong_pin(floor.manager, victim) for victim in ("accountant", "auditor", "dealer", "dealer2")
             for _ in range(3)]
    assert tries[:10] == ["refused"] * 10
    assert tries[10:] == ["locked"] * 2
    assert LoginThrottle.objects.get(key="signby:pm").failures == 15
    # and a quiet quarter of an hour (which restarts a sign-in count) does not restart it: a day does
    LoginThrottle.objects.filter(key="signby:pm").update(
        locked_until=timezone.now() - dt.timedelta(minutes=16), last_failure_at=timezone.now() - dt.timedelta(minutes=31),
        window_started_at=timezone.now() - dt.timedelta(minutes=40))
    assert _wrong_pin(floor.manager, "accountant") in ("refused", "locked")
    assert LoginThrottle.objects.get(key="signby:pm").failures == 16
    # while the supervisor whose PIN was guessed signs in as usual
    assert _token("pm2", "pass", DESK).status_code == 200
