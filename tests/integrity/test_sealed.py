"""Every SQL tamper of the issue ("An escape hatch", "Sealed records that are not sealed"), run as the service's
own database role, and now refused; the guards hold against the tables' owner too."""

from __future__ import annotations

import json

import psycopg
import pytest
from django.db import DatabaseError, connection, transaction

from accounting.models import Alert, Entry, InventoryCount, LedgerTransaction, Marker, Slip
from accounting.services import alerts, ledger, shifts
from casino.audit.models import AuditRecord
from tables.models import Round, Settlement, Shift
from tables.services import rounds
from tests.accounting.helpers import BANKER_WINS, play_round
from tests.accounting.test_worked_shift import work_the_shift
from tests.factories import build_floor
from tests.tamper import as_owner

REFUSED = "refused on|permission denied|violates check constraint|must be owner"


def refused(sql: str, params: list | None = None, match: str = REFUSED) -> None:
    """``sql`` run on the application's own connection (the service role) fails, and nothing changes."""
    with pytest.raises(DatabaseError, match=match), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params or [])


def test_the_service_is_not_a_superuser_and_owns_nothing(db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = current_user")
        assert cursor.fetchone() == (False, False, False)
        cursor.execute("SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                       "WHERE n.nspname = 'public' AND pg_get_userbyid(c.relowner) = current_user")
        assert cursor.fetchone() == (0,)


def test_the_escape_hatch_is_gone_truncate_is_refused_to_everyone(floor):
    # given an audit trail
    play_round(floor.table, floor.dealer, [(1, "player", 1000)], BANKER_WINS)
    before = AuditRecord.objects.count()
    # when the service sets the old switch and empties the trail, or turns triggers off for its session
    for sql in ("SET croupier.test_teardown = 'on'; TRUNCATE audit_auditrecord CASCADE",
                "TRUNCATE accounting_entry CASCADE", "SET session_replication_role = replica",
                "ALTER TABLE audit_auditrecord DISABLE TRIGGER USER", "DROP TRIGGER audit_auditrecord_append_only_row "
                "ON audit_auditrecord"):
        refused(sql)
    # then everything is still there
    assert AuditRecord.objects.count() == before
    # and no function in the database knows the old switch any more
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_proc WHERE prosrc LIKE %s", ["%croupier.test_teardown%"])
        assert cursor.fetchone() == (0,)


def test_the_owner_setting_the_old_switch_cannot_truncate_either(transactional_db):
    floor = build_floor()
    play_round(floor.table, floor.dealer, [(1, "player", 1000)], BANKER_WINS)
    before = AuditRecord.objects.count()
    for table in ("audit_auditrecord", "accounting_entry", "tables_round", "tables_shift", "accounting_slip"):
        with pytest.raises(psycopg.Error, match="TRUNCATE refused"):
            as_owner("SET croupier.test_teardown = 'on'", f"TRUNCATE {table} CASCADE")
    assert AuditRecord.objects.count() == before


def test_a_balanced_pair_added_to_a_posted_transaction_is_refused(transactional_db):
    # given a fill posted long ago (committed)
    floor = build_floor()
    cage, tray = ledger.casino_accounts()["cage"], ledger.tray_account(floor.table, 2500)
    txn = ledger.ledger_post(kind="fill", source_type="t", source_id=1, lines=[(tray, 2500), (cage, -2500)])
    # when two entries that balance each other are inserted into it by SQL, as the service or as the owner
    pair = ("INSERT INTO accounting_entry (transaction_id, account_id, amount) VALUES (%s, %s, 100000), "
            "(%s, %s, -100000)", [txn.pk, tray.pk, txn.pk, cage.pk])
    with pytest.raises(DatabaseError, match="a posted ledger transaction takes no new entry"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(*pair)
    with pytest.raises(psycopg.Error, match="a posted ledger transaction takes no new entry"):
        as_owner(pair)
    # then it has its two entries, and a new posting still works
    assert Entry.objects.filter(transaction=txn).count() == 2
    ledger.ledger_post(kind="fill", source_type="t", source_id=2, lines=[(tray, 500), (cage, -500)])
    assert LedgerTransaction.objects.count() == 2


@pytest.fixture
def closed(floor):
    """The worked shift at BAC1, its table closed and the casino's shift closed."""
    work_the_shift(floor)
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    shifts.shift_close(actor=floor.manager, shift_id=floor.shift.pk)
    return floor


def test_a_closed_shift_cannot_be_reopened_moved_or_added_to(closed):
    shift = closed.shift
    refused("UPDATE tables_shift SET status = 'open', closed_at = NULL, closed_by_id = NULL WHERE id = %s", [shift.pk])
    refused("UPDATE tables_shift SET ends_at = ends_at + interval '1 day' WHERE id = %s", [shift.pk])
    refused("DELETE FROM tables_shift WHERE id = %s", [shift.pk])
    opener = InventoryCount.objects.get(kind="opener")
    for kind in ("bogus", "closer"):
        refused("INSERT INTO accounting_inventorycount (table_id, shift_id, kind, chips, total, dealer_signer_id, "
                "supervisor_signer_id, rolled, recorded_by_id, recorded_at) SELECT table_id, shift_id, %s, chips, total,"
                " dealer_signer_id, supervisor_signer_id, false, recorded_by_id, now() FROM accounting_inventorycount "
                "WHERE id = %s", [kind, opener.pk])
    stored = Shift.objects.get(pk=shift.pk)
    assert (stored.status, stored.ends_at) == ("closed", shift.ends_at)
    assert InventoryCount.objects.count() == 2


def test_a_received_slip_cannot_be_rewritten_and_a_voided_slip_not_deleted(floor):
    # given the worked shift (a fill and a credit received) and a voided fill, the table still open
    people = work_the_shift(floor)
    fill = Slip.objects.get(kind="fill")
    for sql in ("UPDATE accounting_slip SET total = total * 10 WHERE id = %s",
                "UPDATE accounting_slip SET status = 'issued' WHERE id = %s",
                "UPDATE accounting_slip SET receive_signer_id = request_signer_id WHERE id = %s",
                "UPDATE accounting_slip SET chips = '{\"2500\": 200}' WHERE id = %s",
                "DELETE FROM accounting_slip WHERE id = %s"):
        refused(sql, [fill.pk])
    stored = Slip.objects.get(pk=fill.pk)
    assert (stored.total, stored.status, stored.receive_signer.user) == (50_000, "received", floor.dealer)
    del people


def test_everything_under_a_closed_table_shift_is_sealed(closed):
    floor = closed
    fill = Slip.objects.get(kind="fill")
    settled = Round.objects.filter(table=floor.table).first()
    marker = Marker.objects.get()
    # the slips, markers and rounds of the closed shift, by SQL as the service
    refused("UPDATE accounting_slip SET void_reason = 'x', void_requested_by_id = requested_by_id, "
            "void_requested_at = now() WHERE id = %s", [fill.pk])
    refused("UPDATE accounting_marker SET amount = 1 WHERE id = %s", [marker.pk])
    refused("UPDATE accounting_marker SET paid = 0 WHERE id = %s", [marker.pk])
    refused("UPDATE tables_round SET state = jsonb_set(state, '{house,net}', '0') WHERE id = %s", [settled.pk])
    refused("UPDATE tables_round SET document = jsonb_set(document, '{bets,0,amount}', '250000') WHERE id = %s",
            [settled.pk])
    refused("INSERT INTO tables_round (table_id, shift_id, number, game, config, status, dealer_id, opened_at, "
            "void_reason) VALUES (%s, %s, 99, 'baccarat', '{}', 'open', %s, now(), '')",
            [floor.table.pk, floor.shift.pk, floor.dealer.pk])
    refused("INSERT INTO tables_bet (round_id, client_id, seat, type, amount, extra, placed_by_id, placed_at) "
            "VALUES (%s, 'b9', 1, 'player', 250000, '{}', %s, now())", [settled.pk, floor.dealer.pk])
    assert Slip.objects.get(pk=fill.pk).void_reason == ""
    assert Marker.objects.get(pk=marker.pk).amount == 20_000
    assert Round.objects.get(pk=settled.pk).state == settled.state
    assert Round.objects.filter(table=floor.table).count() == 2


def test_a_settled_rounds_state_and_document_are_sealed_even_before_the_close(floor):
    settlement = play_round(floor.table, floor.dealer, [(1, "player", 1000)], BANKER_WINS)
    rnd = Round.objects.get(pk=settlement.round_id)
    refused("UPDATE tables_round SET state = jsonb_set(state, '{house,net}', '0'), "
            "document = jsonb_set(document, '{bets,0,amount}', '250000') WHERE id = %s", [rnd.pk])
    refused("UPDATE tables_round SET status = 'dealing' WHERE id = %s", [rnd.pk])
    refused("UPDATE tables_roundevent SET payload = '{\"card\": \"AS\"}' WHERE round_id = %s", [rnd.pk])
    assert Round.objects.get(pk=rnd.pk).state == rnd.state
    assert Round.objects.get(pk=rnd.pk).document == rnd.document
    # the pool change a settlement stored when the round settled is sealed with it
    refused("UPDATE tables_settlement SET pool_change = pool_change + 1 WHERE id = %s", [settlement.pk])
    assert Settlement.objects.get(pk=settlement.pk).pool_change == settlement.pool_change == 0


def test_a_live_rounds_void_request_cannot_be_overwritten_by_sql(floor):
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    rounds.round_void_request(round_id=rnd.pk, actor=floor.dealer, reason="misdeal")
    refused("UPDATE tables_round SET void_requested_by_id = %s, void_reason = 'mine' WHERE id = %s",
            [floor.manager.pk, rnd.pk])
    refused("UPDATE tables_round SET number = 7 WHERE id = %s", [rnd.pk])
    assert Round.objects.get(pk=rnd.pk).void_requested_by == floor.dealer


def test_alerts_change_only_by_one_acknowledgement(floor):
    alert = alerts.alert_raise(kind="variance", severity="warning", message="short 125", dedupe_key="k",
                               table=floor.table)
    refused("UPDATE accounting_alert SET message = 'nothing to see', severity = 'info' WHERE id = %s", [alert.pk])
    refused("DELETE FROM accounting_alert WHERE id = %s", [alert.pk])
    alerts.alert_acknowledge(alert_id=alert.pk, actor=floor.manager, note="recounted")
    refused("UPDATE accounting_alert SET ack_note = 'other', acknowledged_by_id = %s WHERE id = %s",
            [floor.other_manager.pk, alert.pk])
    stored = Alert.objects.get(pk=alert.pk)
    assert (stored.message, stored.severity, stored.ack_note, stored.acknowledged_by) == (
        "short 125", "warning", "recounted", floor.manager)


def test_the_owner_meets_the_same_guards(transactional_db):
    # given a settled round and a received fill, committed
    floor = build_floor()
    people = work_the_shift(floor)
    settled = Round.objects.filter(table=floor.table).first()
    fill = Slip.objects.get(kind="fill")
    # when the tables' owner (the migrations' role) tries the same rewrites without switching triggers off
    for sql, params in (("UPDATE tables_round SET state = '{}' WHERE id = %s", [settled.pk]),
                        ("UPDATE accounting_slip SET total = 1 WHERE id = %s", [fill.pk]),
                        ("DELETE FROM accounting_slip WHERE id = %s", [fill.pk])):
        with pytest.raises(psycopg.Error, match="refused on"):
            as_owner((sql, params))
    assert Slip.objects.get(pk=fill.pk).total == 50_000
    assert json.dumps(Round.objects.get(pk=settled.pk).state, sort_keys=True) == json.dumps(settled.state,
                                                                                            sort_keys=True)
    del people
