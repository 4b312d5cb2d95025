"""Rounds, shifts and round events change only as the services change them, and a finished one never:

* a settled or voided round is sealed: its state and document (what reconciliation replays) and every
  other column are fixed; a live round keeps its table, shift, number, game, config, dealer and opening
  time, and its void request, once made, is never rewritten;
* a closed shift is sealed: it is never re-opened, its times never moved;
* a round event keeps its card or choice; it can only be marked undone (once), while its round is live;
* bets and events join a live round only (a stake a choice took joins it as it settles, before its
  settlement is written); a settlement is written for a settled round; settlement lines join a
  settlement only in the transaction that wrote it;
* none of them is ever deleted.

A closed table shift (accounting) seals what is under it: accounting/migrations/0005."""

from django.db import migrations

from casino.core.dbtriggers import changed, drop_guard_sql, drop_never_deleted_sql, guard_sql, never_deleted_sql, run

ROUND_IDENTITY = ("table_id", "shift_id", "number", "game", "config", "dealer_id", "opened_at")
VOID_REQUEST = ("void_reason", "void_requested_by_id", "void_requested_at")
EVENT_IDENTITY = ("round_id", "seq", "payload", "posted_by_id", "posted_at")
UNDO = ("undone_at", "undone_by_id", "undo_approved_by_id")
SHIFT_IDENTITY = ("shift_type_id", "gaming_date", "opened_by_id")


# Whether a transaction id is the current transaction's (or one of its subtransactions'): a row whose xmin
# is ours was written by this transaction, so it is not yet committed (posted). The row's 32-bit xmin is
# widened to 64 bits next to the current transaction's id (subtransactions come a little after it, older
# transactions before); ids below 3 are special (frozen, bootstrap): long committed.
PG_FUNCTIONS = [
    """CREATE OR REPLACE FUNCTION croupier_xid_current(x xid) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
       DECLARE cur bigint; d bigint; wide bigint;
       BEGIN
         IF x IS NULL OR x::text::bigint < 3 THEN RETURN false; END IF;
         cur := pg_current_xact_id()::text::bigint;
         d := x::text::bigint - (cur & 4294967295);
         IF d >= 2147483648 THEN d := d - 4294967296; ELSIF d < -2147483648 THEN d := d + 4294967296; END IF;
         wide := cur + d;
         IF wide < 3 THEN RETURN false; END IF;
         RETURN pg_xact_status(wide::text::xid8) IS NOT DISTINCT FROM 'in progress';
       END $$;""",
]


def guards(vendor):
    live = "('open', 'betting_closed', 'dealing')"
    event_round_live = f"(SELECT status FROM tables_round WHERE id = NEW.round_id) IN {live}"
    round_status = "(SELECT status FROM tables_round WHERE id = NEW.round_id)"
    inserts = [
        ("tables_bet", "round_live", f"NOT ({round_status} IN {live} OR ({round_status} = 'settled' AND NOT EXISTS "
         "(SELECT 1 FROM tables_settlement t WHERE t.round_id = NEW.round_id)))",
         "a bet joins a live round only", "INSERT"),
        ("tables_roundevent", "round_live", f"NOT ({event_round_live})", "an event joins a live round only",
         "INSERT"),
        ("tables_settlement", "round_settled", f"{round_status} IS DISTINCT FROM 'settled'"
         if vendor == "postgresql" else f"{round_status} IS NOT 'settled'", "a settlement is of a settled round",
         "INSERT"),
    ]
    if vendor == "postgresql":
        inserts.append(("tables_settlementline", "settlement_open",
                        "NOT croupier_xid_current((SELECT xmin FROM tables_settlement WHERE id = NEW.settlement_id))",
                        "a written settlement takes no new line", "INSERT"))
    return inserts + [
        ("tables_round", "finished_sealed", f"OLD.status NOT IN {live}", "a settled or voided round is sealed"),
        ("tables_round", "identity_fixed", changed(vendor, *ROUND_IDENTITY), "a round keeps its table, shift, "
         "number, game, rules, dealer and opening time"),
        ("tables_round", "void_request_once", f"OLD.void_requested_by_id IS NOT NULL AND {changed(vendor, *VOID_REQUEST)}",
         "a round void request is made once and never rewritten"),
        ("tables_round", "betting_close_once", f"OLD.betting_closed_at IS NOT NULL AND "
         f"{changed(vendor, 'betting_closed_at')}", "a round closes its betting once"),
        ("tables_shift", "closed_sealed", "OLD.status = 'closed'", "a closed shift is sealed"),
        ("tables_shift", "identity_fixed", changed(vendor, *SHIFT_IDENTITY), "a shift keeps its type, gaming "
         "date and who opened it"),
        ("tables_roundevent", "payload_fixed", changed(vendor, *EVENT_IDENTITY), "a round event keeps its card "
         "or choice"),
        ("tables_roundevent", "undo_once", f"OLD.undone_at IS NOT NULL OR NOT ({event_round_live})",
         "a round event is undone once, while its round is live"),
    ]


NEVER_DELETED = [("tables_round", "rounds"), ("tables_shift", "shifts"), ("tables_roundevent", "round events")]


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        run(schema_editor, PG_FUNCTIONS)
    for table, name, condition, message, *events in guards(vendor):
        run(schema_editor, guard_sql(table, vendor, name=name, condition=condition, message=message,
                                     events=events[0] if events else "UPDATE"))
    for table, what in NEVER_DELETED:
        run(schema_editor, never_deleted_sql(table, vendor, what=what))


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for table, name, _, _, *events in guards(vendor):
        run(schema_editor, drop_guard_sql(table, vendor, name=name, events=events[0] if events else "UPDATE"))
    for table, _ in NEVER_DELETED:
        run(schema_editor, drop_never_deleted_sql(table, vendor))
    if vendor == "postgresql":
        run(schema_editor, ["DROP FUNCTION IF EXISTS croupier_xid_current(xid);"])


class Migration(migrations.Migration):
    dependencies = [("tables", "0004_round_document")]
    operations = [migrations.RunPython(forwards, backwards)]
