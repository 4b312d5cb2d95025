"""Back up the test database, restore it into a fresh one, verify the audit trail on the copy, compare the manifest."""

from __future__ import annotations

import io
import json
import stat
import subprocess
import uuid
from pathlib import Path

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction

from accounting.models import Entry, LedgerTransaction
from accounting.selectors import account_balances
from casino.audit import signing
from casino.audit.models import AuditRecord
from casino.audit.verification import audit_checkpoint_create
from casino.ops.backup import (
    _libpq_env,
    _sha256,
    database_url,
    manifest_figures,
    manifest_signature_problem,
    manifest_signed,
)
from tests.accounting.helpers import play_round
from tests.dbbackend.base import privileged_conninfo
from tests.factories import build_floor
from tests.tables.helpers import BANKER_WIN
from tests.tamper import as_owner

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
    assert "ok  ledger: every transaction balances, the ledger sums to zero" in said
    assert "ok  verify_audit --full on the copy: OK: " in said
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
    assert "DIFFERS trial_balance.accounts.table:BAC1:tray: the manifest says " in said
    # each difference names its own figure, never two dictionaries of every account
    assert all("{" not in line for line in said.splitlines())
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


def test_the_backup_is_private_and_signed(played, tmp_path):
    folder, manifest, _ = _backup(tmp_path)
    # the folder 0700, its files 0600: they hold password and PIN hashes and player data
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for name in ("database.dump", "manifest.json"):
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600
    # the manifest signed with the audit checkpoints' key (its id public, the key not in the database)
    assert manifest["signature"]["key_id"] == signing.key_id()
    assert manifest_signature_problem(manifest) is None


def _rewrite(folder: Path, *, sign: bool = False) -> None:
    """What an insider with the owner's credentials does to a backup: dump the (edited) live database over the
    backup's dump and recompute the manifest's digest, size and figures (the trial balance), keeping its
    signature, or (``sign``) signing it again with the service's key."""
    dump = folder / "database.dump"
    dump.unlink()
    subprocess.run(["pg_dump", "--format=custom", "--no-password", f"--file={dump}"], env=_libpq_env(), check=True)
    manifest = json.loads((folder / "manifest.json").read_text())
    with transaction.atomic():
        figures = manifest_figures()
    manifest = {**manifest, **json.loads(json.dumps(figures, default=str)),
                "dump": {"file": "database.dump", "bytes": dump.stat().st_size, "sha256": _sha256(dump)}}
    (folder / "manifest.json").write_text(json.dumps(manifest_signed(manifest) if sign else manifest))


def _unbalance_a_line() -> None:
    line = Entry.objects.filter(transaction__source_type="round", amount__gt=0).first()
    as_owner(("UPDATE accounting_entry SET amount = amount + 500 WHERE id = %s", [line.pk]),
             triggers_off=["accounting_entry"])


def _created(name: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        return cursor.fetchone() is not None


def test_a_dump_rewritten_with_its_manifest_recomputed_is_refused(played, tmp_path, copy_name):
    # given a backup, then a ledger line changed and the dump and manifest rewritten to match (the case:
    # the manifest's digest and trial balance recomputed, the ledger summing to 500)
    folder, _, _ = _backup(tmp_path)
    _unbalance_a_line()
    _rewrite(folder)
    assert json.loads((folder / "manifest.json").read_text())["trial_balance"]["total"] == 500
    # when it is restored: refused on the signature, before any database is created
    with pytest.raises(CommandError, match="signature does not match its content"):
        call_command("restore", str(folder), database=copy_name)
    assert not _created(copy_name)


def test_a_rewritten_dump_signed_with_the_key_is_caught_after_loading(played, tmp_path, copy_name):
    # given the same rewrite by someone who also holds the signing key
    folder, _, _ = _backup(tmp_path)
    _unbalance_a_line()
    _rewrite(folder, sign=True)
    out = io.StringIO()
    # then the restore loads it, and its own check of the ledger in the copy names what is wrong
    with pytest.raises(CommandError, match="did not pass its checks"):
        call_command("restore", str(folder), database=copy_name, stdout=out)
    said = out.getvalue()
    assert "BAD ledger: ledger transaction" in said
    assert "does not balance" in said
    assert "BAD ledger: the ledger does not sum to zero" in said
    assert "sum to 500" in said
    assert "BAD verify_audit --full on the copy failed" in said


def test_a_balanced_change_to_round_postings_is_caught_after_loading(played, tmp_path, copy_name):
    # given a baccarat round the house won 7,500 on, its posting moved to 2,500 on the tray and the win (still
    # balanced, the ledger still at zero), then a backup taken and signed by the service
    settlement = play_round(played.table, played.dealer, [(1, "player", 7_500)], BANKER_WIN)
    txn = LedgerTransaction.objects.get(source_type="round", source_id=str(settlement.round_id))
    as_owner(("UPDATE accounting_entry SET amount = sign(amount) * 2500 WHERE transaction_id = %s", [txn.pk]),
             triggers_off=["accounting_entry"])
    folder, manifest, _ = _backup(tmp_path)
    assert manifest["trial_balance"]["total"] == 0
    out = io.StringIO()
    # when it is restored: the copy's postings are held to its rounds
    with pytest.raises(CommandError, match="did not pass its checks"):
        call_command("restore", str(folder), database=copy_name, stdout=out)
    said = out.getvalue()
    assert (f"BAD ledger: ledger transaction {txn.pk} (round, round {settlement.round_id} at BAC1) does not post "
            "what its record says: table:BAC1:tray 2500 where its record gives 7500; table:BAC1:win -2500 where its "
            "record gives -7500") in said
    assert "ok  OK: matches the manifest" in said  # the manifest vouched for the same (tampered) moment
    assert "BAD verify_audit --full on the copy failed" in said
    assert "ledger_mismatch" in said


def test_an_unsigned_manifest_is_refused(played, tmp_path, copy_name):
    folder, manifest, _ = _backup(tmp_path)
    del manifest["signature"]
    (folder / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(CommandError, match="the manifest is not signed"):
        call_command("restore", str(folder), database=copy_name)
    with pytest.raises(CommandError, match="the manifest is not signed"):
        call_command("backup", check=str(folder))
    assert not _created(copy_name)


def test_a_manifest_signed_with_another_key_is_refused(played, tmp_path, copy_name, settings):
    settings.AUDIT_CHECKPOINT_KEY = "a key that is not this service's " * 2
    folder, manifest, _ = _backup(tmp_path)
    other = manifest["signature"]["key_id"]
    settings.AUDIT_CHECKPOINT_KEY = ""
    assert other != signing.key_id()
    with pytest.raises(CommandError, match=f"signed with another key \\(key id '{other}'"):
        call_command("restore", str(folder), database=copy_name)
    assert not _created(copy_name)
