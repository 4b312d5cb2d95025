"""Back up the test database, restore it into a fresh one, verify the audit trail on the copy, compare the manifest."""

from __future__ import annotations

import io
import json
import uuid

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from accounting.selectors import account_balances
from casino.audit.models import AuditRecord
from casino.audit.verification import audit_checkpoint_create
from casino.ops.backup import database_url
from tests.accounting.helpers import play_round
from tests.dbbackend.base import privileged_conninfo
from tests.factories import build_floor
from tests.tables.helpers import BANKER_WIN

pytestmark = pytest.mark.django_db(transaction=True)  # pg_dump reads what is committed


def _drop(name: str) -> None:
    with psycopg.connect(**privileged_conninfo(connection.settings_dict, "postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # this test's own copy


@pytest.fixture
def copy_name(monkeypatch):
    """A new database's name; IT restores as a role that may create databases (the suite's privileged one)."""
    info = privileged_conninfo(connection.settings_dict, "postgres")
    auth = info["user"] + (f":{info['password']}" if info.get("password") else "")
    monkeypatch.setenv("DATABASE_ADMIN_URL", f"postgres://{auth}@{info.get('host', '127.0.0.1')}:{info.get('port', 5432)}/postgres")
    name = f"{connection.settings_dict['NAME']}_restore_{uuid.uuid4().hex[:8]}"
    yield name
    _drop(name)


@pytest.fixture
def played():
    floor = build_floor()
    play_round(floor.table, floor.dealer, [(1, "banker", 2500), (2, "player", 5000)], BANKER_WIN)
    play_round(floor.table, floor.dealer, [(3, "tie", 1000)], BANKER_WIN)
    audit_checkpoint_create()  # the copy is held to signed checkpoints too
    return floor


def _backup(tmp_path) -> tuple:
    out = io.StringIO()
    call_command("backup", dir=str(tmp_path), stdout=out)
    [folder] = tmp_path.glob("croupier-*")  # (the audit anchors of this test live in tmp_path too)
    return folder, json.loads((folder / "manifest.json").read_text()), out.getvalue()


def test_backup_restore_verify_and_compare(played, tmp_path, copy_name):
    # given a floor with two settled rounds (ledger postings, audit records, signed checkpoints)
    balances = {a["code"]: a["balance"] for a in account_balances()}
    heads = {r.chain: r for r in AuditRecord.objects.order_by("chain", "-seq").distinct("chain")}
    # when it is backed up
    folder, manifest, said = _backup(tmp_path)
    # then the manifest vouches for the trial balance, the chain heads and the row counts of that moment
    assert said.startswith(str(folder))
    assert manifest["format"] == "croupier-backup/1"
    assert manifest["trial_balance"]["accounts"] == balances
    assert manifest["trial_balance"]["total"] == 0
    assert manifest["audit_chain_heads"] == {c: {"seq": r.seq, "hash": r.hash} for c, r in heads.items()}
    assert manifest["row_counts"]["tables_round"] == 2
    assert manifest["row_counts"]["audit_auditrecord"] == AuditRecord.objects.count()
    assert (folder / "database.dump").stat().st_size == manifest["dump"]["bytes"]

    # when it is restored into a fresh database
    out = io.StringIO()
    call_command("restore", str(folder), database=copy_name, stdout=out)
    # then the copy matched the manifest and its audit trail verified
    said = out.getvalue()
    assert "ok  OK: matches the manifest" in said
    assert "ok  verify_audit on the copy: OK: " in said
    assert f"restored into {copy_name}" in said
    # and, read directly, the copy has the same chain heads and ledger
    with psycopg.connect(database_url(copy_name)) as conn:
        copied_heads = dict(conn.execute("SELECT DISTINCT ON (chain) chain, hash FROM audit_auditrecord "
                                         "ORDER BY chain, seq DESC").fetchall())
        total, = conn.execute("SELECT coalesce(sum(amount), 0) FROM accounting_entry").fetchone()
    assert copied_heads == {c: r.hash for c, r in heads.items()}
    assert total == 0


def test_a_database_that_moved_on_differs_from_the_manifest(played, tmp_path):
    folder, _, _ = _backup(tmp_path)
    # when a round settles after the backup
    play_round(played.table, played.dealer, [(1, "banker", 2500)], BANKER_WIN)
    out = io.StringIO()
    # then checking the live database against the manifest names what moved (and exits 1)
    with pytest.raises(CommandError, match="difference"):
        call_command("backup", check=str(folder), stdout=out)
    said = out.getvalue()
    assert "DIFFERS row_counts.tables_round: the manifest says 2, the database has 3" in said
    assert "DIFFERS trial_balance.accounts" in said
    assert "DIFFERS audit_chain_heads.table:BAC1" in said


def test_a_restore_never_overwrites_a_database(played, tmp_path):
    folder, _, _ = _backup(tmp_path)
    with pytest.raises(CommandError, match="exists: a restore goes into a new one"):
        call_command("restore", str(folder), database=connection.settings_dict["NAME"])


def test_a_damaged_dump_is_refused_before_anything_is_created(played, tmp_path, copy_name):
    folder, _, _ = _backup(tmp_path)
    with (folder / "database.dump").open("ab") as fh:
        fh.write(b"\0")
    with pytest.raises(CommandError, match="differs from the one the manifest describes"):
        call_command("restore", str(folder), database=copy_name)
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [copy_name])
        assert cursor.fetchone() is None
