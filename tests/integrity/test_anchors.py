"""Chains anchored outside the database, and rounds held to the trail (issue: "after the audit trail is wiped,
verify_audit answers OK"; "verify_audit does not look at rounds, bets or settlements")."""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from accounting.models import LedgerTransaction
from casino.audit.models import AuditCheckpoint, AuditRecord
from casino.audit.verification import audit_checkpoint_create, audit_verify
from tables.models import Round
from tests.accounting.helpers import BANKER_WINS, play_round
from tests.factories import build_floor
from tests.tamper import as_owner

AUDIT = ["audit_auditrecord", "audit_auditcheckpoint"]


def _anchors(settings) -> Path:
    return Path(settings.AUDIT_ANCHOR_DIR)


def test_each_signed_checkpoint_is_anchored_outside_the_database(db, settings):
    floor = build_floor()
    play_round(floor.table, floor.dealer, [(1, "player", 1000)], BANKER_WINS)
    signed = audit_checkpoint_create()
    heads = json.loads((_anchors(settings) / "heads.json").read_text())
    log = [json.loads(line) for line in (_anchors(settings) / "checkpoints.jsonl").read_text().splitlines()]
    assert sorted(e["chain"] for e in heads["checkpoints"]) == sorted(cp.chain for cp in signed) == \
        sorted(e["chain"] for e in log)
    assert {(e["chain"], e["seq"], e["hash"]) for e in log} == {(cp.chain, cp.seq, cp.record_hash) for cp in signed}
    # a later checkpoint moves the head on and is appended; the first stays in the log
    play_round(floor.table, floor.dealer, [(1, "player", 1000)], BANKER_WINS)
    audit_checkpoint_create()
    heads = {e["chain"]: e["seq"] for e in json.loads((_anchors(settings) / "heads.json").read_text())["checkpoints"]}
    assert heads["table:BAC1"] == AuditRecord.objects.filter(chain="table:BAC1").count()
    assert len((_anchors(settings) / "checkpoints.jsonl").read_text().splitlines()) > len(log)


def test_a_wiped_trail_is_detected(transactional_db, settings):
    # given a played round, its trail signed and anchored
    floor = build_floor()
    play_round(floor.table, floor.dealer, [(1, "player", 1000)], BANKER_WINS)
    assert {cp.chain for cp in audit_checkpoint_create()} == {"casino", "table:BAC1"}
    # when someone with the owner's credentials empties the trail and its checkpoints
    as_owner("TRUNCATE audit_auditrecord, audit_auditcheckpoint CASCADE", triggers_off=AUDIT)
    assert AuditRecord.objects.count() == AuditCheckpoint.objects.count() == 0
    # then verification fails, naming every chain it knew as gone (never "OK: 0 records in 0 chains")
    result = audit_verify()
    assert result.ok is False
    assert sorted((b["chain"], b["reason"]) for b in result.breaks) == [("casino", "chain_missing"),
                                                                        ("table:BAC1", "chain_missing")]
    out = io.StringIO()
    with pytest.raises(CommandError, match="audit trail broken"):
        call_command("verify_audit", stdout=out)
    assert "BROKEN casino" in out.getvalue()


def test_a_chain_cut_short_with_its_checkpoints_deleted_is_detected(transactional_db):
    floor = build_floor()
    play_round(floor.table, floor.dealer, [(1, "player", 1000)], BANKER_WINS)
    audit_checkpoint_create()
    last = AuditRecord.objects.filter(chain="table:BAC1").order_by("-seq").first()
    as_owner("DELETE FROM audit_auditcheckpoint", ("DELETE FROM audit_auditrecord WHERE id = %s", [last.pk]),
             triggers_off=AUDIT)
    result = audit_verify()
    assert [(b["chain"], b["seq"], b["reason"]) for b in result.breaks] == [("table:BAC1", last.seq, "truncated")]


def test_the_forged_round_is_detected(transactional_db):
    # given a settled round (the banker won: the player's 1,000 lost, house net +1,000)
    floor = build_floor()
    settlement = play_round(floor.table, floor.dealer, [(1, "player", 1000)], BANKER_WINS)
    rnd = Round.objects.get(pk=settlement.round_id)
    assert audit_verify().ok is True
    # when its state and document are forged as in the issue (by the owner, triggers off: the service cannot)
    as_owner(("UPDATE tables_round SET state = jsonb_set(state, '{house,net}', '0'), "
              "document = jsonb_set(document, '{bets,0,amount}', '250000') WHERE id = %s", [rnd.pk]),
             triggers_off=["tables_round"])
    # then verification names the round, on its table's chain
    result = audit_verify()
    assert result.ok is False
    found = {(b["chain"], b["reason"], b["message"]) for b in result.breaks}
    assert found == {
        ("table:BAC1", "round_mismatch", f"round #1 at BAC1 (round {rnd.pk}) states another result than its settlement"),
        ("table:BAC1", "round_mismatch",
         f"round #1 at BAC1 (round {rnd.pk}) has a document whose bets are not its bet rows"),
    }


def test_a_forged_settlement_and_bet_are_held_to_the_trail(transactional_db):
    floor = build_floor()
    settlement = play_round(floor.table, floor.dealer, [(1, "player", 1000)], BANKER_WINS)
    rnd = Round.objects.get(pk=settlement.round_id)
    # the round, its settlement and its bet all rewritten consistently with each other
    as_owner(("UPDATE tables_round SET state = jsonb_set(state, '{house,net}', '0') WHERE id = %s", [rnd.pk]),
             ("UPDATE tables_settlement SET house_net = 0, document = jsonb_set(document, '{house,net}', '0') "
              "WHERE id = %s", [settlement.pk]),
             ("UPDATE tables_bet SET amount = 5000 WHERE round_id = %s", [rnd.pk]),
             ("UPDATE tables_round SET document = jsonb_set(document, '{bets,0,amount}', '5000') WHERE id = %s",
              [rnd.pk]),
             triggers_off=["tables_round", "tables_settlement", "tables_bet"])
    result = audit_verify()
    messages = sorted(b["message"] for b in result.breaks)
    txn = LedgerTransaction.objects.get(source_type="round", source_id=str(rnd.pk))
    assert messages == [f"ledger transaction {txn.pk} (round, round {rnd.pk} at BAC1) does not post what its record "
                        "says: table:BAC1:tray 1000 where its record gives 0; table:BAC1:win -1000 where its record "
                        "gives 0",
                        f"round #1 at BAC1 (round {rnd.pk}) has a bet other than its audit record says",
                        f"round #1 at BAC1 (round {rnd.pk}) was settled otherwise than its audit record says"]


def test_the_hourly_verification_compares_recent_rounds_and_the_full_one_every_round(transactional_db):
    # given two settled rounds, then the first one's shift put two weeks back and closed (as history is)
    floor = build_floor()
    old = Round.objects.get(pk=play_round(floor.table, floor.dealer, [(1, "player", 1000)], BANKER_WINS).round_id)
    recent = Round.objects.get(pk=play_round(floor.table, floor.dealer, [(1, "player", 1000)], BANKER_WINS).round_id)
    back = timezone.now() - dt.timedelta(days=14)
    as_owner(("INSERT INTO tables_shift (shift_type_id, gaming_date, starts_at, ends_at, status, opened_by_id, "
              "closed_at, closed_by_id) SELECT shift_type_id, %s, %s, %s, 'closed', opened_by_id, %s, opened_by_id "
              "FROM tables_shift WHERE id = %s", [back.date(), back, back + dt.timedelta(hours=8),
                                                  back + dt.timedelta(hours=8), floor.shift.pk]),
             ("UPDATE tables_round SET shift_id = (SELECT max(id) FROM tables_shift) WHERE id = %s", [old.pk]),
             triggers_off=["tables_round"])
    # when both rounds' results are forged
    for rnd in (old, recent):
        as_owner(("UPDATE tables_round SET state = jsonb_set(state, '{house,net}', '0') WHERE id = %s", [rnd.pk]),
                 triggers_off=["tables_round"])
    forged = {rnd.pk: f"round #{rnd.number} at BAC1 (round {rnd.pk}) states another result than its settlement"
              for rnd in (old, recent)}
    # then the hourly verification names the recent round only (its cost follows recent play, not history)
    hourly = audit_verify()
    assert sorted(b["message"] for b in hourly.breaks) == [forged[recent.pk]]
    # and the full verification names both
    full = audit_verify(full=True)
    assert sorted(b["message"] for b in full.breaks) == sorted(forged.values())
