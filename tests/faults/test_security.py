"""Under attack: guessed passwords are locked out and audited; sessions, CSRF and headers hold."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from casino.audit.models import AuditRecord
from casino.core.models import LoginThrottle
from tables.models import Round
from tests.client import APIClient

TOKEN_URL = "/api/auth/token/"


def _token(client: APIClient, username: str, password: str, addr: str = "10.9.8.7"):
    return client.post(TOKEN_URL, {"username": username, "password": password}, format="json", REMOTE_ADDR=addr)


def _actions(*names: str) -> list[str]:
    return list(AuditRecord.objects.filter(action__in=names).order_by("id").values_list("action", flat=True))


def test_token_for_the_right_password_is_issued_and_the_login_audited(floor):
    # when the dealer asks for a token with the right password
    answer = _token(APIClient(), "dealer", "pass")
    # then a token that works, and an audited login
    assert answer.status_code == 200, answer.json()
    token = answer.json()["token"]
    assert len(token) == 40
    me = APIClient(HTTP_AUTHORIZATION=f"Token {token}").get("/api/rounds/")
    assert me.status_code == 200
    assert _actions("auth.login") == ["auth.login"]


def test_a_wrong_password_is_a_clear_400_and_audited(floor):
    answer = _token(APIClient(), "dealer", "wrong")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "invalid_credentials"
    assert _actions("auth.login_failed") == ["auth.login_failed"]
    assert LoginThrottle.objects.get(key="user:dealer|10.9.8.7").failures == 1


def test_repeated_failures_lock_the_username_out_even_for_the_right_password(floor, settings):
    # given the limit of five failures per username
    settings.LOGIN_FAILURE_LIMIT = 5
    client = APIClient()
    # when someone guesses five wrong passwords
    statuses = [_token(client, "dealer", f"guess{i}").status_code for i in range(5)]
    # then the fifth answer says the account is now locked, and the right password is refused too:
    # 429 with a clear body and Retry-After
    locked = _token(client, "dealer", "pass")
    assert statuses == [400] * 4 + [429]
    assert locked.status_code == 429
    assert locked.json()["error"]["code"] == "locked_out"
    assert 1 <= int(locked["Retry-After"]) <= settings.LOGIN_LOCKOUT_SECONDS
    # and every attempt is audited, the lockout once, naming the username
    assert _actions("auth.login_failed", "auth.lockout") == ["auth.login_failed"] * 4 + ["auth.lockout"] + \
        ["auth.login_failed"] * 2
    lockout = AuditRecord.objects.get(action="auth.lockout")
    assert (lockout.object_id, lockout.after["scope"], lockout.after["failures"], lockout.after["address"]) == (
        "dealer", "username_at_address", 5, "10.9.8.7")
    # and another account is not affected
    assert _token(client, "pm", "pass").status_code == 200


def test_the_lockout_ends_and_a_success_clears_the_count(floor, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    client = APIClient()
    for i in range(3):
        _token(client, "dealer", f"guess{i}")
    assert _token(client, "dealer", "pass").status_code == 429
    # when the lockout time has passed
    LoginThrottle.objects.filter(key="user:dealer|10.9.8.7").update(
        locked_until=timezone.now() - dt.timedelta(hours=1), window_started_at=timezone.now() - dt.timedelta(hours=2),
        last_failure_at=timezone.now() - dt.timedelta(hours=2))
    # then the right password works and the count starts again
    assert _token(client, "dealer", "pass").status_code == 200
    assert not LoginThrottle.objects.filter(key="user:dealer|10.9.8.7").exists()


def test_one_address_spraying_many_usernames_is_locked_out(floor, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 4
    client = APIClient()
    statuses = [_token(client, name, "123456", addr="10.0.0.66").status_code for name in ("ann", "bob", "cat", "dan")]
    assert statuses == [400, 400, 400, 429]
    # the address is now locked, even for a real account with its password; another address is not
    assert _token(client, "pm", "pass", addr="10.0.0.66").status_code == 429
    assert _token(client, "pm", "pass", addr="10.0.0.67").status_code == 200
    assert AuditRecord.objects.get(action="auth.lockout").after["scope"] == "address"


def test_the_web_sign_in_form_says_when_it_is_locked_out(floor, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    client = Client()
    for _ in range(2):
        client.post("/login/", {"username": "pm", "password": "nope"})
    page = client.post("/login/", {"username": "pm", "password": "pass"})
    assert page.status_code == 200  # the form again, not a redirect into the site
    assert "Too many failed sign-ins" in page.content.decode()
    assert "_auth_user_id" not in client.session


def test_signing_in_rotates_the_session_and_signing_out_ends_it(floor):
    # given a visitor with a session before signing in (a fixation attempt)
    client = Client()
    client.get("/login/")
    session = client.session
    session["planted"] = "x"
    session.save()
    before = session.session_key
    # when they sign in
    answer = client.post("/login/", {"username": "pm", "password": "pass"})
    # then the session key changed and the cookie is HttpOnly, SameSite=Lax
    assert answer.status_code == 302
    after = client.cookies["sessionid"]
    assert after.value != before
    assert after["httponly"] is True
    assert after["samesite"] == "Lax"
    # and signing out ends the session server-side: the API asks for credentials again
    client.post("/logout/")
    assert client.get("/api/rounds/").status_code == 401


def test_a_session_write_without_the_csrf_token_is_refused(floor):
    # given a pit manager signed in with a browser session, CSRF checks on (as in a browser)
    client = APIClient(enforce_csrf_checks=True)
    client.login(username="dealer", password="pass")
    # when a cross-site form posts to the API with the session cookie only
    answer = client.post("/api/rounds/", {"table": floor.table.pk}, format="json")
    # then refused, nothing written
    assert answer.status_code == 403
    assert "CSRF" in answer.json()["error"]["message"]
    assert Round.objects.count() == 0
    # and a web form post without the token is refused too
    web = Client(enforce_csrf_checks=True)
    assert web.post("/login/", {"username": "pm", "password": "pass"}).status_code == 403


def test_token_clients_need_no_csrf_token(floor):
    token = _token(APIClient(), "dealer", "pass").json()["token"]
    client = APIClient(enforce_csrf_checks=True, HTTP_AUTHORIZATION=f"Token {token}")
    assert client.post("/api/rounds/", {"table": floor.table.pk}, format="json").status_code == 201


@pytest.mark.parametrize("path", ["/login/", "/api/rounds/", "/api/docs/"])
def test_security_headers_on_every_response(floor, path):
    client = Client()
    if path != "/login/":
        client.force_login(floor.manager)
    answer = client.get(path)
    assert answer.status_code == 200
    csp = dict(part.strip().split(" ", 1) for part in answer["Content-Security-Policy"].split(";"))
    assert csp["default-src"] == "'self'"
    assert csp["script-src"] == "'self'"  # no inline script anywhere
    assert csp["frame-ancestors"] == "'none'"
    assert csp["object-src"] == "'none'"
    assert "camera=()" in answer["Permissions-Policy"]
    assert answer["X-Content-Type-Options"] == "nosniff"
    assert answer["Referrer-Policy"] == "same-origin"
    assert answer["X-Frame-Options"] == "DENY"
    assert answer["Cross-Origin-Opener-Policy"] == "same-origin"
    if path.startswith("/api/rounds"):
        assert answer["Cache-Control"] == "no-store"


def test_the_api_docs_have_no_inline_script(floor):
    client = Client()
    client.force_login(floor.manager)
    page = client.get("/api/docs/").content.decode()
    assert "<script>" not in page  # the split view serves its script from a URL, as the CSP requires
