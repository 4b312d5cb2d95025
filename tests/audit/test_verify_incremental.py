"""Verification at a year's size (issue 20): from each chain's last signed checkpoint by default, every record
with ``full``; several walkers in one snapshot, each chain walked whole by one of them."""

from __future__ import annotations

from casino.audit.models import AuditRecord
from casino.audit.verification import audit_checkpoint_create, audit_verify
from tests.audit.test_verify import as_attacker, write


def _breaks(result):
    return [(b["chain"], b["seq"], b["reason"]) for b in result.breaks]


def test_a_verification_starts_at_each_chains_last_signed_checkpoint(transactional_db):
    # given two chains signed at their heads (casino#6, table:BAC9#4), then three more records on casino
    write(6), write(4, table="BAC9")
    audit_checkpoint_create()
    write(3, start=50)
    # when verifying as the hourly job does
    result = audit_verify()
    # then each chain is read from its checkpoint's record on: casino#6–#9 and BAC9#4, the rest vouched for
    assert result.ok is True
    assert (result.full, result.records, result.skipped, result.chains) == (False, 5, 8, 2)
    # and a full verification reads all thirteen
    full = audit_verify(full=True)
    assert (full.ok, full.full, full.records, full.skipped) == (True, True, 13, 0)


def test_a_record_altered_after_the_checkpoint_is_found_incrementally(transactional_db):
    write(6)
    audit_checkpoint_create()
    write(3, start=50)
    as_attacker("UPDATE audit_auditrecord SET object_id = 'x' WHERE chain = 'casino' AND seq = 8")
    assert _breaks(audit_verify()) == [("casino", 8, "hash")]


def test_the_checkpointed_record_itself_is_held_to_its_signature(transactional_db):
    """The walk begins at the signed record: altered, or altered and rehashed, it is found there."""
    write(6)
    audit_checkpoint_create()
    as_attacker("UPDATE audit_auditrecord SET object_id = 'x' WHERE chain = 'casino' AND seq = 6")
    assert _breaks(audit_verify()) == [("casino", 6, "hash")]
    as_attacker("UPDATE audit_auditrecord SET hash = %s WHERE chain = 'casino' AND seq = 6", ["ab" * 32])
    assert _breaks(audit_verify()) == [("casino", 6, "hash")]


def test_a_record_before_the_last_checkpoint_is_left_to_the_full_verification(transactional_db):
    """What the incremental walk does not read it cannot judge: an edit before the last checkpoint waits for
    the next full verification (weekly by default, AUDIT_FULL_VERIFY_EVERY; docs/audit.md)."""
    write(6)
    audit_checkpoint_create()
    as_attacker("UPDATE audit_auditrecord SET object_id = 'x' WHERE chain = 'casino' AND seq = 2")
    assert audit_verify().ok is True
    assert _breaks(audit_verify(full=True)) == [("casino", 2, "hash")]


def test_parallel_walkers_find_every_break_in_one_snapshot(transactional_db, settings):
    # given three chains, committed, and walkers forked for any verification however small
    settings.AUDIT_VERIFY_WORKERS, settings.AUDIT_VERIFY_PARALLEL_MIN = 3, 0
    write(6), write(4, table="BAC9"), write(5, table="RLT2")
    assert audit_verify(full=True).ok is True
    # when two chains are broken, each walked by another walker
    as_attacker("UPDATE audit_auditrecord SET object_id = 'x' WHERE chain = 'table:BAC9' AND seq = 3")
    as_attacker("DELETE FROM audit_auditrecord WHERE chain = 'table:RLT2' AND seq = 2")
    result = audit_verify(full=True)
    # then both are reported, and every record was counted once
    assert _breaks(result) == [("table:BAC9", 3, "hash"), ("table:RLT2", 3, "missing")]
    assert (result.records, result.chains) == (AuditRecord.objects.count(), 3)
    assert result.first_broken_reason == "hash"
