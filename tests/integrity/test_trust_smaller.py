"""Issue 28, "Smaller": a wiped trail whose anchors went with it, DEBUG in production, the anonymous schema."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from casino.audit.verification import audit_checkpoint_create, audit_verify
from tests.accounting.helpers import BANKER_WINS, play_round
from tests.client import APIClient
from tests.factories import build_floor
from tests.fixtures import as_user
from tests.tamper import as_owner

ROOT = Path(__file__).resolve().parents[2]
AUDIT = ["audit_auditrecord", "audit_auditcheckpoint"]
REAL_KEY = "k9" + "Zq-7_xP3" * 7


def test_a_wiped_trail_whose_anchor_files_were_deleted_fails_in_words(transactional_db, settings):
    # given a played round, its trail signed, anchored and verified
    floor = build_floor()
    play_round(floor.table, floor.dealer, [(1, "player", 1000)], BANKER_WINS)
    audit_checkpoint_create()
    earlier = audit_verify()
    assert earlier.ok
    assert earlier.records > 0
    # when someone with the owner's credentials empties the trail and its checkpoints, and deletes the anchor files
    as_owner("TRUNCATE audit_auditrecord, audit_auditcheckpoint", triggers_off=AUDIT)
    shutil.rmtree(settings.AUDIT_ANCHOR_DIR)
    # then the verification fails, saying the trail and its anchors were there before (never "OK: 0 records")
    result = audit_verify()
    assert result.ok is False
    reasons = {b["reason"]: b["message"] for b in result.breaks}
    assert set(reasons) == {"trail_empty", "anchors_missing"}
    assert reasons["trail_empty"].startswith(f"the audit trail is empty, but verification #{earlier.pk} of ")
    assert f"found {earlier.records + earlier.skipped} records in {earlier.chains} chains: the trail was deleted" in \
        reasons["trail_empty"]
    assert "no signed checkpoint is left, in the database or in the anchor directory" in reasons["anchors_missing"]
    out = io.StringIO()
    with pytest.raises(CommandError, match="audit trail broken"):
        call_command("verify_audit", stdout=out)
    assert "trail_empty: the audit trail is empty" in out.getvalue()


def test_checkpoints_deleted_with_their_anchor_files_fail_even_with_the_trail_intact(transactional_db, settings):
    floor = build_floor()
    play_round(floor.table, floor.dealer, [(1, "player", 1000)], BANKER_WINS)
    audit_checkpoint_create()
    assert audit_verify().checkpoints > 0
    as_owner("DELETE FROM audit_auditcheckpoint", triggers_off=["audit_auditcheckpoint"])
    shutil.rmtree(settings.AUDIT_ANCHOR_DIR)
    result = audit_verify()
    assert [b["reason"] for b in result.breaks] == ["anchors_missing"]


def test_a_new_empty_trail_verifies(db):
    # nothing was ever recorded or verified: an empty trail is no finding
    assert audit_verify().ok is True
    assert audit_verify().ok is True


def _settings_in_a_fresh_process(env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "CROUPIER_MODE", "SECRET_KEY",
                                                               "DJANGO_SETTINGS_MODULE", "API_DOCS_PUBLIC")}
    clean.update({"PYTHONPATH": str(ROOT), "DJANGO_SETTINGS_MODULE": "casino.settings", **env})
    code = ("import django; django.setup(); from django.conf import settings; "
            "print(settings.DEBUG, settings.API_DOCS_PUBLIC)")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True,
                          timeout=120)


def test_production_refuses_to_start_with_debug_on():
    production = {"CROUPIER_MODE": "production", "SECRET_KEY": REAL_KEY, "ALLOWED_HOSTS": "croupier.example"}
    for value in ("true", "1", "yes"):
        done = _settings_in_a_fresh_process({**production, "DEBUG": value})
        assert done.returncode != 0
        assert "django.core.exceptions.ImproperlyConfigured: DEBUG is on and CROUPIER_MODE=production" in done.stderr
    # and starts with it off, the schema and docs closed to anonymous users unless opened by name
    assert _settings_in_a_fresh_process({**production, "DEBUG": "false"}).stdout.split() == ["False", "False"]
    opened = _settings_in_a_fresh_process({**production, "API_DOCS_PUBLIC": "true"})
    assert opened.stdout.split() == ["False", "True"]
    # development keeps them open, and may run with DEBUG
    assert _settings_in_a_fresh_process({"DEBUG": "true"}).stdout.split() == ["True", "True"]


def test_the_schema_and_docs_need_a_signed_in_user_unless_opened(floor, settings):
    settings.API_DOCS_PUBLIC = False  # production's default
    # anonymous: the schema is the API's JSON 401, in whatever format it was asked for; the docs page sends
    # a browser to the sign-in page and back
    for query in ("", "?format=json", "?format=yaml"):
        anonymous = APIClient().get(f"/api/schema/{query}")
        assert anonymous.status_code == 401, query
        assert anonymous.json()["error"]["code"] == "not_authenticated", query
    docs = Client().get("/api/docs/")
    assert (docs.status_code, docs["Location"]) == (302, "/login/?next=/api/docs/")
    for path in ("/api/schema/", "/api/docs/"):
        assert as_user(floor.dealer).get(path).status_code == 200, path
        web = Client()
        web.force_login(floor.auditor)
        assert web.get(path).status_code == 200, path
    # the setting opens them
    settings.API_DOCS_PUBLIC = True
    assert APIClient().get("/api/schema/").status_code == 200
    assert APIClient().get("/api/docs/").status_code == 200
