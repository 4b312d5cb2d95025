"""Verification finds exactly the record an attacker with database access altered, removed or cut off."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction

from casino.audit.chain import walk
from casino.audit.models import AuditAlert, AuditCheckpoint, AuditRecord, AuditVerification, VerificationStatus
from casino.audit.services import audit_log
from casino.audit.signing import key_id, sign
from casino.audit.tasks import audit_checkpoint, verify_audit
from casino.audit.verification import (
    audit_checkpoint_create,
    audit_digest,
    audit_verification_request,
    audit_verification_run,
    audit_verify,
)
from tests.tamper import as_owner


def write(n: int, *, table: str = "", start: int = 0) -> list[AuditRecord]:
    with transaction.atomic():
        return [audit_log(actor=None, action="test.change", object_type="thing", object_id=start + i, table_code=table,
                          before={"n": start + i}, after={"n": start + i + 1, "note": "déjà vu"}) for i in range(n)]


def as_attacker(sql: str, params: list | None = None) -> None:
    """What someone with the tables' owner's credentials can do (the service cannot): switch the append-only
    trigger off. A connection of its own: the tests that use it keep their records committed."""
    as_owner((sql, params or []), triggers_off=["audit_auditrecord"])


@pytest.fixture
def trail(db):
    """Two chains: 6 records on casino, 4 on table:BAC9."""
    return {"casino": write(6), "table:BAC9": write(4, table="BAC9")}


@pytest.fixture
def committed_trail(transactional_db):
    """The same trail, committed, for an attacker's own connection to see."""
    return {"casino": write(6), "table:BAC9": write(4, table="BAC9")}


def test_an_intact_trail_verifies(trail):
    # when
    result = audit_verify(trigger="command")
    # then the result is stored: every record, every chain, no break
    stored = AuditVerification.objects.get(pk=result.pk)
    assert (stored.status, stored.ok, stored.records, stored.chains, stored.breaks) == ("done", True, 10, 2, [])
    assert (stored.first_broken_record_id, stored.first_broken_chain, stored.trigger) == (None, "", "command")
    assert stored.finished_at >= stored.started_at
    assert AuditAlert.objects.count() == 0


def test_a_modified_record_is_reported_exactly(committed_trail):
    # given an attacker who rewrites the amount in the middle record of the casino chain
    victim = committed_trail["casino"][2]
    as_attacker("UPDATE audit_auditrecord SET after = %s WHERE id = %s", [json.dumps({"n": 999}), victim.pk])
    # when
    result = audit_verify(trigger="command")
    # then that record, and only that one, is the break
    assert result.ok is False
    assert (result.first_broken_record_id, result.first_broken_chain, result.first_broken_seq,
            result.first_broken_reason) == (victim.pk, "casino", 3, "hash")
    assert [(b["chain"], b["seq"], b["record_id"], b["reason"]) for b in result.breaks] == [
        ("casino", 3, victim.pk, "hash")]
    assert result.records == 10
    # and an alert is raised, naming it
    alert, = AuditAlert.objects.all()
    assert (alert.kind, alert.chain, alert.seq, alert.record_id, alert.verification_id) == (
        "chain_broken", "casino", 3, victim.pk, result.pk)
    assert f"record {victim.pk}" in alert.message


def test_a_modified_record_whose_hash_was_recomputed_breaks_the_next_link(committed_trail):
    from casino.audit.services import compute_hash

    victim = committed_trail["table:BAC9"][1]
    victim.after = {"n": 999}
    forged = compute_hash(victim)
    as_attacker("UPDATE audit_auditrecord SET after = %s, hash = %s WHERE id = %s",
                [json.dumps({"n": 999}), forged, victim.pk])
    result = audit_verify()
    nxt = committed_trail["table:BAC9"][2]
    assert [(b["chain"], b["seq"], b["record_id"], b["reason"]) for b in result.breaks] == [
        ("table:BAC9", 3, nxt.pk, "link")]


def test_a_deleted_record_in_the_middle_is_detected(committed_trail):
    # given an attacker who deletes the fourth record of the casino chain
    as_attacker("DELETE FROM audit_auditrecord WHERE id = %s", [committed_trail["casino"][3].pk])
    # when
    result = audit_verify()
    # then the gap is reported at the record after it
    after_gap = committed_trail["casino"][4]
    assert (result.ok, result.first_broken_record_id, result.first_broken_seq, result.first_broken_reason) == (
        False, after_gap.pk, 5, "missing")
    assert result.breaks[0]["message"] == f"casino: seq 4 missing (deleted) before casino#5 (record {after_gap.pk})"
    assert result.records == 9


def test_the_first_record_deleted_is_detected(committed_trail):
    as_attacker("DELETE FROM audit_auditrecord WHERE id = %s", [committed_trail["table:BAC9"][0].pk])
    result = audit_verify()
    assert [(b["seq"], b["reason"]) for b in result.breaks] == [(2, "missing")]


def test_each_broken_chain_reports_its_own_first_break(committed_trail):
    as_attacker("UPDATE audit_auditrecord SET actor_username = 'someone' WHERE id IN (%s, %s, %s)",
                [committed_trail["casino"][1].pk, committed_trail["casino"][4].pk, committed_trail["table:BAC9"][3].pk])
    result = audit_verify()
    assert [(b["chain"], b["seq"]) for b in result.breaks] == [("casino", 2), ("table:BAC9", 4)]
    assert result.first_broken_record_id == committed_trail["casino"][1].pk  # the earliest written
    assert AuditAlert.objects.count() == 2


def test_the_same_break_raises_one_alert_however_often_it_is_found(committed_trail):
    as_attacker("UPDATE audit_auditrecord SET action = 'x' WHERE id = %s", [committed_trail["casino"][0].pk])
    audit_verify()
    audit_verify()
    assert AuditAlert.objects.count() == 1
    assert AuditVerification.objects.filter(ok=False).count() == 2


def test_the_database_refuses_update_and_delete_of_records_for_the_application(trail):
    # given the application's own connection (the service role: no UPDATE or DELETE granted, and the trigger)
    victim = trail["casino"][0]
    for sql in ("UPDATE audit_auditrecord SET action = 'x' WHERE id = %s", "DELETE FROM audit_auditrecord WHERE id = %s"):
        # when it tries to change or remove a record
        with pytest.raises(DatabaseError, match="append-only|permission denied"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [victim.pk])
    # then the record is unchanged, and so is the ORM's way
    with pytest.raises(DatabaseError, match="append-only|permission denied"), transaction.atomic():
        AuditRecord.objects.filter(pk=victim.pk).update(action="x")
    with pytest.raises(DatabaseError, match="append-only|permission denied"), transaction.atomic():
        AuditRecord.objects.filter(pk=victim.pk).delete()
    assert AuditRecord.objects.get(pk=victim.pk).action == "test.change"
    assert audit_verify().ok is True


def test_checkpoints_and_alerts_are_append_only_too(trail):
    audit_checkpoint_create()
    cp = AuditCheckpoint.objects.first()
    with pytest.raises(DatabaseError, match="append-only|permission denied"), transaction.atomic():
        AuditCheckpoint.objects.filter(pk=cp.pk).update(seq=1)
    with pytest.raises(DatabaseError, match="append-only|permission denied"), transaction.atomic():
        AuditCheckpoint.objects.filter(pk=cp.pk).delete()


# -- signed checkpoints ------------------------------------------------------------------------

def test_checkpoints_sign_each_chain_head_once(trail):
    # when checkpoints are taken twice with nothing written between
    first = audit_checkpoint_create()
    second = audit_checkpoint_create()
    # then each chain's head is signed once
    assert sorted((cp.chain, cp.seq, cp.record_hash) for cp in first) == [
        ("casino", 6, trail["casino"][-1].hash), ("table:BAC9", 4, trail["table:BAC9"][-1].hash)]
    assert second == []
    cp = first[0]
    assert cp.key_id == key_id()
    assert cp.signature == sign(cp.chain, cp.seq, cp.record_hash, cp.created_at)
    # and after more records, only the chain that grew gets a new one
    write(2, start=100)
    assert [(cp.chain, cp.seq) for cp in audit_checkpoint_create()] == [("casino", 8)]


def test_a_truncated_tail_is_detected_by_the_checkpoint(committed_trail):
    # given a signed checkpoint at the head, then an attacker removing the last two records
    audit_checkpoint_create()
    as_attacker("DELETE FROM audit_auditrecord WHERE id IN (%s, %s)",
                [committed_trail["casino"][4].pk, committed_trail["casino"][5].pk])
    # when
    result = audit_verify()
    # then the chain is reported cut after seq 4
    assert [(b["chain"], b["seq"], b["record_id"], b["reason"]) for b in result.breaks] == [
        ("casino", 5, None, "truncated")]
    assert result.checkpoints == 2


def test_a_tail_rewritten_consistently_is_caught_by_the_checkpoint(committed_trail):
    """The attacker alters seq 5 and recomputes every hash after it: links hold, the signature does not."""
    from casino.audit.services import compute_hash

    audit_checkpoint_create()
    chain = list(AuditRecord.objects.filter(chain="casino").order_by("seq"))
    prev = chain[3].hash
    for rec in chain[4:]:
        if rec.seq == 5:
            rec.after = {"n": 0}
        rec.prev_hash = prev
        rec.hash = compute_hash(rec)
        prev = rec.hash
        as_attacker("UPDATE audit_auditrecord SET after = %s, prev_hash = %s, hash = %s WHERE id = %s",
                    [json.dumps(rec.after), rec.prev_hash, rec.hash, rec.pk])
    result = audit_verify()
    assert [(b["chain"], b["seq"], b["reason"]) for b in result.breaks] == [("casino", 6, "checkpoint")]


def test_a_forged_checkpoint_is_reported(trail):
    audit_checkpoint_create()
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO audit_auditcheckpoint (chain, seq, record_hash, created_at, key_id, signature) "
                       "VALUES ('casino', 99, %s, now(), %s, %s)", ["ab" * 32, key_id(), "00" * 32])
    result = audit_verify()
    assert [(b["chain"], b["seq"], b["reason"]) for b in result.breaks] == [("casino", 99, "checkpoint_forged")]
    assert AuditAlert.objects.get().kind == "checkpoint_invalid"


def test_a_checkpoint_is_not_signed_over_a_broken_chain(committed_trail):
    audit_checkpoint_create()
    write(3, start=50)
    as_attacker("UPDATE audit_auditrecord SET object_id = 'x' WHERE chain = 'casino' AND seq = 8")
    assert audit_checkpoint_create() == []
    assert AuditCheckpoint.objects.filter(chain="casino").count() == 1
    alert, = AuditAlert.objects.all()
    assert (alert.chain, alert.seq, alert.reason, alert.verification_id) == ("casino", 8, "hash", None)


def test_a_kept_digest_catches_what_deleting_the_checkpoints_would_hide(committed_trail, settings):
    # given the auditor keeps the digest outside the database
    audit_checkpoint_create()
    kept = audit_digest()
    assert [(e["chain"], e["seq"]) for e in kept["checkpoints"]] == [("casino", 6), ("table:BAC9", 4)]
    # when an attacker truncates the chain and wipes the checkpoints as well
    as_owner("DELETE FROM audit_auditcheckpoint", triggers_off=["audit_auditcheckpoint"])
    as_attacker("DELETE FROM audit_auditrecord WHERE chain = 'table:BAC9'")
    # then the anchors kept outside the database see it (tests/integrity/test_anchors.py); without them the
    # database alone sees only that the checkpoints earlier verifications held to are gone, the digest sees which
    assert [(b["chain"], b["reason"]) for b in audit_verify().breaks] == [("table:BAC9", "chain_missing")]
    settings.AUDIT_ANCHOR_DIR = ""
    assert [(b["chain"], b["reason"]) for b in audit_verify().breaks] == [("", "anchors_missing")]
    result = audit_verify(against=kept["checkpoints"])
    assert [(b["chain"], b["reason"]) for b in result.breaks] == [("table:BAC9", "chain_missing")]


# -- the job, the on-demand request, the command ----------------------------------------------

def test_the_scheduled_job_stores_a_result(trail):
    verification_id = verify_audit.delay().get()
    assert AuditVerification.objects.get(pk=verification_id).trigger == "beat"
    assert audit_checkpoint.delay().get() == 2


def test_a_requested_verification_runs_once_on_commit(trail, django_capture_on_commit_callbacks, floor):
    # when an auditor asks for a verification
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        requested = audit_verification_request(actor=floor.auditor, trigger="api")
        # then it is pending until the transaction commits
        assert requested.status == VerificationStatus.PENDING
    assert len(callbacks) == 1
    done = AuditVerification.objects.get(pk=requested.pk)
    assert (done.status, done.ok, done.requested_by_id, done.records) == ("done", True, floor.auditor.pk,
                                                                         AuditRecord.objects.count())
    # and a redelivered job changes nothing
    finished_at = done.finished_at
    assert audit_verification_run(verification_id=requested.pk).finished_at == finished_at
    assert AuditVerification.objects.count() == 1


def test_the_command_prints_ok(trail):
    out = io.StringIO()
    call_command("verify_audit", stdout=out)
    assert out.getvalue().startswith("OK: 10 records in 2 chains, 0 checkpoints")


def test_the_command_fails_and_names_the_broken_record(committed_trail):
    victim = committed_trail["table:BAC9"][2]
    as_attacker("UPDATE audit_auditrecord SET before = NULL WHERE id = %s", [victim.pk])
    out = io.StringIO()
    with pytest.raises(CommandError, match=f"first broken record {victim.pk} \\(table:BAC9 #3, hash\\)"):
        call_command("verify_audit", stdout=out)
    assert f"BROKEN table:BAC9 seq 3 record {victim.pk}: hash" in out.getvalue()


def test_manage_py_verify_audit_exits_non_zero_and_prints_the_broken_record(transactional_db):
    # given a trail tampered with for real (committed), as a separate process will see it
    recs = write(3)
    as_attacker("UPDATE audit_auditrecord SET before = NULL WHERE id = %s", [recs[1].pk])
    db = connection.settings_dict
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "casino.settings_test",
           "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"}
    # when the operator runs the command
    proc = subprocess.run([sys.executable, "manage.py", "verify_audit"], cwd=Path(__file__).resolve().parents[2],
                          env=env, capture_output=True, text=True, timeout=300, check=False)
    # then it fails, naming the record
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"BROKEN casino seq 2 record {recs[1].pk}: hash" in proc.stdout
    assert f"first broken record {recs[1].pk} (casino #2, hash)" in proc.stderr


def test_the_command_checks_a_kept_digest_and_signs(trail, tmp_path):
    out = io.StringIO()
    call_command("verify_audit", "--checkpoint", stdout=out)
    assert "signed 2 checkpoint(s)" in out.getvalue()
    digest = tmp_path / "digest.json"
    call_command("verify_audit", "--digest", stdout=(buf := io.StringIO()))
    digest.write_text(buf.getvalue())
    out = io.StringIO()
    call_command("verify_audit", "--against", str(digest), "--full", stdout=out)
    assert out.getvalue().startswith("OK: 10 records in 2 chains, 4 checkpoints")
    # by default each chain is walked from its last signed checkpoint: the two signed heads are read, and the
    # eight records before them are vouched for by their checkpoints
    out = io.StringIO()
    call_command("verify_audit", "--against", str(digest), stdout=out)
    assert out.getvalue().startswith("OK: 2 records in 2 chains, 4 checkpoints")
    assert "8 earlier records vouched for by their checkpoints" in out.getvalue()


# -- the walk itself -----------------------------------------------------------------------------

def test_walk_counts_records_after_a_break_without_judging_them(trail):
    rows = list(AuditRecord.objects.order_by("chain", "seq").values_list(
        "id", "chain", "seq", "created_at", "actor_id", "actor_username", "actor_role", "client_addr", "device",
        "channel", "action", "object_type", "object_id", "table_code", "before", "after", "prev_hash", "hash",
        "request_id"))
    rows[1] = rows[1][:10] + ("forged",) + rows[1][11:]
    result = walk(rows)
    assert result.records == 10
    assert [(b.chain, b.seq, b.reason) for b in result.breaks] == [("casino", 2, "hash")]
    assert result.heads == {"casino": (6, trail["casino"][-1].hash), "table:BAC9": (4, trail["table:BAC9"][-1].hash)}
