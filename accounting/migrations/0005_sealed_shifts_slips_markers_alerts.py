"""What is closed stays closed, and records move only forward, by the database's own rules:

* a table's closed shift (a close recorded, or the casino's shift closed) and everything under it is
  sealed: no new count, soft count, slip, marker, payment at the table or round in it, no new bet, event
  or settlement in its rounds, and no change to its slips or rounds;
* a posted ledger transaction takes no new entry (its entries are written in the transaction that
  posts it, and balance there);
* a slip moves forward only (requested → issued → received, any of them → voided), each step's
  signature and time written once at that step, its void request written once; its number, chips,
  total and first signature never change;
* a marker's terms never change, and what it shows paid is the sum of its payments;
* an alert changes only by being acknowledged, once;
* none of them is ever deleted; a count is an opener or a closer, a slip a fill or a credit.
"""

from django.db import migrations, models

from casino.core.dbtriggers import changed, drop_guard_sql, drop_never_deleted_sql, guard_sql, never_deleted_sql, run

PG_FUNCTIONS = [
    """CREATE OR REPLACE FUNCTION croupier_table_shift_sealed(p_table bigint, p_shift bigint) RETURNS boolean
       LANGUAGE plpgsql STABLE AS $$
       BEGIN
         IF p_table IS NULL OR p_shift IS NULL THEN RETURN false; END IF;
         RETURN EXISTS (SELECT 1 FROM accounting_tableshiftclose WHERE table_id = p_table AND shift_id = p_shift)
             OR EXISTS (SELECT 1 FROM tables_shift WHERE id = p_shift AND status = 'closed');
       END $$;""",
    """CREATE OR REPLACE FUNCTION croupier_round_sealed(p_round bigint) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
       DECLARE t bigint; s bigint;
       BEGIN
         SELECT table_id, shift_id INTO t, s FROM tables_round WHERE id = p_round;
         RETURN croupier_table_shift_sealed(t, s);
       END $$;""",
]


def sealed(vendor, table, shift):
    if vendor == "postgresql":
        return f"croupier_table_shift_sealed({table}, {shift})"
    return (f"(EXISTS (SELECT 1 FROM accounting_tableshiftclose c WHERE c.table_id = {table} AND c.shift_id = {shift})"
            f" OR EXISTS (SELECT 1 FROM tables_shift s WHERE s.id = {shift} AND s.status = 'closed'))")


def round_sealed(vendor, round_id):
    if vendor == "postgresql":
        return f"croupier_round_sealed({round_id})"
    return (f"EXISTS (SELECT 1 FROM tables_round r WHERE r.id = {round_id} AND "
            f"{sealed(vendor, 'r.table_id', 'r.shift_id')})")


SLIP_IDENTITY = ("kind", "year", "number", "table_id", "shift_id", "chips", "total", "requested_by_id",
                 "request_signer_id", "requested_at")
MARKER_TERMS = ("year", "number", "table_id", "shift_id", "player", "amount", "supervisor_signer_id", "dealer_signer_id",
                "issued_by_id", "issued_at")
ALERT_CAUSE = ("kind", "severity", "table_id", "shift_id", "message", "data", "dedupe_key", "created_at")
CLOSED = "a closed table shift is sealed"


def guards(vendor):
    out = [
        (table, "shift_open", sealed(vendor, "NEW.table_id", "NEW.shift_id"), CLOSED, "INSERT")
        for table in ("accounting_inventorycount", "accounting_dropcount", "accounting_slip", "accounting_marker",
                      "accounting_markerpayment", "tables_round")
    ]
    out += [(table, "shift_open", round_sealed(vendor, "NEW.round_id"), CLOSED, "INSERT")
            for table in ("tables_bet", "tables_roundevent", "tables_settlement")]
    out += [
        ("tables_settlementline", "shift_open", round_sealed(vendor, "(SELECT round_id FROM tables_settlement WHERE "
                                                                     "id = NEW.settlement_id)"), CLOSED, "INSERT"),
        ("accounting_slip", "shift_open_update", sealed(vendor, "OLD.table_id", "OLD.shift_id"), CLOSED, "UPDATE"),
        ("tables_round", "shift_open_update", sealed(vendor, "OLD.table_id", "OLD.shift_id"), CLOSED, "UPDATE"),
        # slips: forward only, each step written once at that step
        ("accounting_slip", "identity_fixed", changed(vendor, *SLIP_IDENTITY),
         "a slip keeps its number, chips, total and request signature", "UPDATE"),
        ("accounting_slip", "forward_only",
         "NOT (NEW.status = OLD.status OR (OLD.status = 'requested' AND NEW.status IN ('issued', 'voided')) "
         "OR (OLD.status = 'issued' AND NEW.status IN ('received', 'voided')) "
         "OR (OLD.status = 'received' AND NEW.status = 'voided'))",
         "a slip moves forward only: requested, issued, received, or voided", "UPDATE"),
        ("accounting_slip", "issue_once", f"{changed(vendor, 'issue_signer_id', 'issued_at')} AND NOT "
         "(OLD.status = 'requested' AND NEW.status = 'issued' AND OLD.issue_signer_id IS NULL)",
         "a slip is issued and signed for once, at its issue", "UPDATE"),
        ("accounting_slip", "receive_once", f"{changed(vendor, 'receive_signer_id', 'received_at')} AND NOT "
         "(OLD.status = 'issued' AND NEW.status = 'received' AND OLD.receive_signer_id IS NULL)",
         "a slip is received and signed for once, at its receipt", "UPDATE"),
        ("accounting_slip", "void_request_once", f"{changed(vendor, 'void_reason', 'void_requested_by_id', 'void_requested_at')}"
         " AND (OLD.void_requested_by_id IS NOT NULL OR OLD.status = 'voided')",
         "a slip void request is made once and never rewritten", "UPDATE"),
        ("accounting_slip", "void_once", f"{changed(vendor, 'voided_by_id', 'voided_at', 'voided_from')} AND NOT "
         "(NEW.status = 'voided' AND OLD.status <> 'voided' AND NEW.voided_from = OLD.status)",
         "a slip is voided once, from the status it was in", "UPDATE"),
        # markers: terms fixed; paid is the sum of the payments
        ("accounting_marker", "terms_fixed", changed(vendor, *MARKER_TERMS), "a marker keeps its terms and signers",
         "UPDATE"),
        ("accounting_marker", "paid_is_payments", "NEW.paid <> (SELECT COALESCE(SUM(p.amount), 0) FROM "
         "accounting_markerpayment p WHERE p.marker_id = NEW.id)", "a marker shows paid what its payments add up to",
         "UPDATE"),
        # alerts: acknowledged once, nothing else changes
        ("accounting_alert", "cause_fixed", changed(vendor, *ALERT_CAUSE), "an alert keeps what it says", "UPDATE"),
        ("accounting_alert", "acknowledged_once", "OLD.acknowledged_at IS NOT NULL",
         "an alert is acknowledged once and then fixed", "UPDATE"),
    ]
    if vendor == "postgresql":
        out.append(("accounting_entry", "transaction_open",
                    "NOT croupier_xid_current((SELECT xmin FROM accounting_ledgertransaction WHERE "
                    "id = NEW.transaction_id))",
                    "a posted ledger transaction takes no new entry (post a new transaction)", "INSERT"))
    return out


NEVER_DELETED = [("accounting_slip", "slips"), ("accounting_marker", "markers"), ("accounting_alert", "alerts")]


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        run(schema_editor, PG_FUNCTIONS)
    for table, name, condition, message, events in guards(vendor):
        run(schema_editor, guard_sql(table, vendor, name=name, condition=condition, message=message, events=events))
    for table, what in NEVER_DELETED:
        run(schema_editor, never_deleted_sql(table, vendor, what=what))


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for table, name, _, _, events in guards(vendor):
        run(schema_editor, drop_guard_sql(table, vendor, name=name, events=events))
    for table, _ in NEVER_DELETED:
        run(schema_editor, drop_never_deleted_sql(table, vendor))
    if vendor == "postgresql":
        run(schema_editor, ["DROP FUNCTION IF EXISTS croupier_round_sealed(bigint);",
                            "DROP FUNCTION IF EXISTS croupier_table_shift_sealed(bigint, bigint);"])


class Migration(migrations.Migration):
    dependencies = [("accounting", "0004_shift_records_append_only"), ("tables", "0005_sealed_rounds_shifts_events")]
    operations = [
        migrations.AddConstraint(
            model_name="inventorycount",
            constraint=models.CheckConstraint(condition=models.Q(kind__in=["opener", "closer"]),
                                              name="count_kind_known"),
        ),
        migrations.AddConstraint(
            model_name="slip",
            constraint=models.CheckConstraint(condition=models.Q(kind__in=["fill", "credit"]), name="slip_kind_known"),
        ),
        migrations.AddConstraint(
            model_name="slip",
            constraint=models.CheckConstraint(condition=models.Q(status__in=["requested", "issued", "received",
                                                                             "voided"]), name="slip_status_known"),
        ),
        migrations.RunPython(forwards, backwards),
    ]
