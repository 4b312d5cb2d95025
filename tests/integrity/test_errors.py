"""No 500 and no debug page: nested JSON, DEBUG, secrets in error reports, page sizes, numbers in query
strings, and the Idempotency-Key every write requires (issue: "Errors", "Smaller")."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import path

from casino.core.models import IdempotencyRecord
from casino.parsers import json_depth
from tables.models import Round
from tests.client import APIClient
from tests.fixtures import as_user

ROOT = Path(__file__).resolve().parents[2]
NESTED = "[" * 5000
SECRET_URL = "postgres://owner:s3cret-pass@db.internal:5432/croupier"
WRITE_METHODS = {"post", "put", "patch", "delete"}
# POSTs that write nothing a retry could repeat: signing in (no user to key a record to), a game's validity
# check and a score sheet's preview of a deal.
NOT_WRITES = {("/api/auth/token/", "post"), ("/api/cardroom/games/{game}/checks/{check}/", "post"),
              ("/api/cardroom/sheets/{id}/preview/", "post")}


def _crash(request):
    connection_url = SECRET_URL  # noqa: F841 — a local variable the debug page would print
    raise RuntimeError("boom")


urlpatterns = [path("crash/", _crash)]
handler500 = "casino.exceptions.json_500"


def test_deeply_nested_json_to_the_anonymous_token_endpoint_is_a_400(db):
    # when `[` × 5,000 is the body of the anonymous sign-in endpoint
    answer = APIClient().post("/api/auth/token/", NESTED, content_type="application/json")
    # then a clear 400, not a RecursionError
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "malformed_json"
    assert "nested more than 32 levels" in answer.json()["error"]["message"]


def test_deeply_nested_json_from_a_signed_in_dealer_is_a_400_and_writes_nothing(floor, dealer_api):
    answer = dealer_api.post("/api/rounds/", NESTED, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "malformed_json"
    assert Round.objects.count() == 0
    # nested objects too, and brackets inside strings do not count
    deep = '{"a":' * 40 + "1" + "}" * 40
    assert dealer_api.post("/api/rounds/", deep, content_type="application/json").status_code == 400
    fine = {"table": floor.table.pk, "note": "[" * 100}
    assert dealer_api.post("/api/rounds/", fine, format="json").status_code == 201


def test_json_depth_counts_brackets_outside_strings_only():
    assert json_depth(b'{"a": [1, {"b": "[[[{{{"}]}', limit=2) == 3
    assert json_depth(b'["\\"[[[[[[", 1]', limit=1) == 1
    assert json_depth(b"[" * 100, limit=32) == 33  # stops counting past the limit


def _settings_in_a_fresh_process(env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "CROUPIER_MODE", "SECRET_KEY",
                                                               "DJANGO_SETTINGS_MODULE")}
    clean.update({"PYTHONPATH": str(ROOT), "DJANGO_SETTINGS_MODULE": "casino.settings", **env})
    code = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True,
                          timeout=120)


def test_debug_is_off_unless_asked_for_by_name():
    # `make run` sets nothing: DEBUG is off in development as in production
    assert _settings_in_a_fresh_process({}).stdout.strip() == "False"
    assert _settings_in_a_fresh_process({"DEBUG": "true"}).stdout.strip() == "True"


@pytest.mark.parametrize("key", ["short-key", "django-insecure-" + "x1y2z3" * 10,
                                 "django-insecure-croupier-development-only-key-never-use-in-production-0123456789",
                                 "a" * 60])
def test_production_refuses_a_short_or_development_secret_key(key):
    done = _settings_in_a_fresh_process({"CROUPIER_MODE": "production", "SECRET_KEY": key,
                                         "ALLOWED_HOSTS": "croupier.example"})
    assert done.returncode != 0
    assert "SECRET_KEY is too short or a development key" in done.stderr


def test_production_starts_with_a_real_secret_key():
    done = _settings_in_a_fresh_process({"CROUPIER_MODE": "production", "SECRET_KEY": "k9" + "Zq-7_xP3" * 7,
                                         "ALLOWED_HOSTS": "croupier.example"})
    assert (done.returncode, done.stdout.strip()) == (0, "False"), done.stderr[-2000:]


def test_an_unexpected_error_is_a_json_500_with_nothing_of_the_server_in_it(db, settings):
    settings.ROOT_URLCONF = __name__
    client = Client(raise_request_exception=False)
    answer = client.get("/crash/")
    assert answer.status_code == 500
    error = answer.json()["error"]
    # the request id is the only thing of the request in it: what a user reads out to find the log line
    assert error == {"code": "server_error", "message": "unexpected error; it has been logged",
                     "request_id": answer["X-Request-ID"]}


def test_even_with_debug_on_the_error_page_shows_no_secret_and_no_connection_url(db, settings, monkeypatch):
    settings.ROOT_URLCONF, settings.DEBUG = __name__, True
    # given connection URLs and a secret in the environment and the settings, as `make run` has them
    monkeypatch.setenv("DATABASE_URL", SECRET_URL)
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://:broker-pass@cache.internal:6379/4")
    settings.CELERY_BROKER_URL = "redis://:broker-pass@cache.internal:6379/4"
    settings.DATABASE_URL = SECRET_URL
    environ = {"DATABASE_URL": SECRET_URL, "CELERY_BROKER_URL": settings.CELERY_BROKER_URL}
    # when a view fails with DEBUG explicitly on
    page = Client(raise_request_exception=False).get("/crash/", **environ).content.decode()
    # then Django's page, but no secret, no connection URL and no password anywhere in it
    assert "RuntimeError" in page
    for leak in ("s3cret-pass", "db.internal", "broker-pass", "cache.internal", settings.SECRET_KEY):
        assert leak not in page, leak
    assert not re.search(r"postgres://|redis://", page)


def test_a_page_holds_at_most_the_maximum_and_bigger_asks_are_refused(floor, settings):
    client = as_user(floor.accountant)
    settings.API_MAX_PAGE_SIZE = 2
    for n in range(3):
        Round.objects.create(table=floor.table, shift=floor.shift, number=n + 1, game="baccarat", config={},
                             dealer=floor.dealer, opened_at=floor.shift.starts_at, status="voided",
                             void_reason="test", voided_by=floor.manager, voided_at=floor.shift.starts_at)
    # the default page is bounded too, and a bigger page is refused with the field named
    assert len(client.get("/api/rounds/").json()["results"]) == 2
    assert len(client.get("/api/rounds/?limit=2").json()["results"]) == 2
    for query in ("limit=100000", "limit=99999999999999999999", "limit=0", "limit=-1", "limit=x",
                  "offset=99999999999999999999", "offset=-3"):
        answer = client.get(f"/api/rounds/?{query}")
        assert answer.status_code == 400, query
        assert answer.json()["error"]["field"] == query.split("=")[0]


@pytest.mark.parametrize("url", ["/api/rounds/?shift=99999999999999999999", "/api/accounting/slips/?shift=99999999999999999999",
                                 "/api/accounting/table-closes/figures/?table=99999999999999999999&shift=1",
                                 "/api/players/?limit=5&offset=99999999999999999999"])
def test_out_of_range_numbers_in_query_strings_are_400_not_a_database_error(floor, url):
    answer = as_user(floor.admin).get(url)
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["code"] in ("out_of_range", "bad_parameter", "invalid")


def test_a_write_without_an_idempotency_key_is_refused_naming_the_header(floor):
    client = APIClient(idempotency_keys=False)
    client.force_authenticate(floor.dealer)
    answer = client.post("/api/rounds/", {"table": floor.table.pk}, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"] == {
        "code": "idempotency_key_required", "field": "Idempotency-Key",
        "message": "the Idempotency-Key header is required on every write: a fresh key per action, the same key "
                   "when retrying it", "request_id": answer["X-Request-ID"]}
    assert Round.objects.count() == 0
    assert IdempotencyRecord.objects.count() == 0


def test_every_write_of_the_api_requires_the_key_and_the_schema_says_so(floor):
    # given the published schema
    schema = as_user(floor.admin).get("/api/schema/?format=json").json()
    client = APIClient(idempotency_keys=False)
    client.force_authenticate(floor.admin)
    writes = [(p, m) for p, methods in schema["paths"].items() for m in methods if m in WRITE_METHODS]
    assert len(writes) > 40
    for p, m in writes:
        documented = [x for x in schema["paths"][p][m].get("parameters", []) if x["name"] == "Idempotency-Key"]
        if (p, m) in NOT_WRITES:
            assert not documented, p
            continue
        # then each documents the header as required, and refuses a write without it (as an admin, whom no
        # role check stops first)
        assert [x["required"] for x in documented] == [True], (p, m)
        url = re.sub(r"\{[^}]+\}", "1", p)
        answer = getattr(client, m)(url, {}, format="json")
        assert (answer.status_code, answer.json()["error"]["code"]) == (400, "idempotency_key_required"), (p, m)
