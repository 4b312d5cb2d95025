"""What holding the records and the ledger to the trail costs an hourly and a full verification, as history grows.

Run from the repository root: ``python bench/record_checks.py [--history N] [--rounds R]`` (defaults 2,000
and 20). It creates a database of its own (``croupier_bench_records_<random>``, dropped at the end unless
``--keep``; ``BENCH_DATABASE_URL`` to use another) on the PostgreSQL of the tests, migrates it, and works
one shift at BAC1 through the services: the opener, a fill, a credit, a marker paid in part, ``R`` settled
baccarat rounds, the closer, the soft count, the table's and the casino's close and the reconciliation.
It then copies that shift's records ``N`` times into closed shifts of the past (rounds, bets, events,
settlements and their lines, slips, counts, soft counts, markers and payments, closes, reconciliations,
ledger transactions and lines, and their audit records, each copy on audit chains of its own; the ids
shifted, the references between them kept), as the history of a floor; the worked shift itself, an
hour old, is the recent play.

It times the record checks (``AUDIT_RECORD_CHECKS``: rounds, accounting records and the ledger held to the
trail) as the hourly verification runs them (the shifts not closed or started within
``AUDIT_RECORD_CHECK_WINDOW``) and as the full one does (everything, and the ledger's sum), each the best
of three, and fails if either finds a difference (the copies are faithful). Then it changes one ledger
line of the recent shift by the owner's hand, and checks that the hourly run names it.

The copies are written with the triggers off (``session_replication_role = replica``: the server's
superuser, as the shared test server's ``postgres`` is). The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

OFFSET = 100_000  # each copy's ids: the original's plus k × OFFSET (int4 ids: up to 21,000 copies)

# The tables copied, and which of their rows belong to the template shift (%(shift)s).
COPIED = {
    "tables_round": "shift_id = %(shift)s",
    "tables_bet": "round_id IN (SELECT id FROM tables_round WHERE shift_id = %(shift)s)",
    "tables_roundevent": "round_id IN (SELECT id FROM tables_round WHERE shift_id = %(shift)s)",
    "tables_settlement": "round_id IN (SELECT id FROM tables_round WHERE shift_id = %(shift)s)",
    "tables_settlementline": "settlement_id IN (SELECT s.id FROM tables_settlement s JOIN tables_round r "
                             "ON r.id = s.round_id WHERE r.shift_id = %(shift)s)",
    "accounting_slip": "shift_id = %(shift)s",
    "accounting_inventorycount": "shift_id = %(shift)s",
    "accounting_dropcount": "shift_id = %(shift)s",
    "accounting_marker": "shift_id = %(shift)s",
    "accounting_markerpayment": "shift_id = %(shift)s",
    "accounting_tableshiftclose": "shift_id = %(shift)s",
    "accounting_reconciliation": "shift_id = %(shift)s",
    "accounting_shiftreconciliation": "shift_id = %(shift)s",
    "accounting_ledgertransaction": "shift_id = %(shift)s",
    "accounting_entry": "transaction_id IN (SELECT id FROM accounting_ledgertransaction WHERE shift_id = %(shift)s)",
    "audit_auditrecord": "id > %(first_record)s AND id <= %(last_record)s",
}
# audit records' objects whose id is a copied row's
OBJECTS = ("round", "bet", "slip", "inventory_count", "drop_count", "marker", "table_shift_close")
# ids inside an audit record's ``after`` that point at copied rows
AFTER_IDS = ("payment", "reconciliation", "round", "ledger_transaction")


def work_shift(floor: Any, rounds: int) -> None:
    """The worked shift of tests/accounting/test_worked_shift.py, with ``rounds`` more rounds, closed and
    reconciled."""
    from accounting.services import reconcile, shifts
    from tests.accounting.helpers import BANKER_WINS, play_round
    from tests.accounting.test_worked_shift import work_the_shift

    work_the_shift(floor)
    for i in range(rounds):
        play_round(floor.table, floor.dealer, [(1 + i % 7, "player", 1000 + 100 * (i % 5))], BANKER_WINS)
    shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)
    shifts.shift_close(actor=floor.manager, shift_id=floor.shift.pk)
    reconcile.reconcile_shift(shift_id=floor.shift.pk)


def _columns(cursor: Any, table: str) -> list[tuple[str, str | None]]:
    """(column, the table its foreign key points at) of ``table``."""
    cursor.execute("""
        SELECT a.attname, (SELECT c.confrelid::regclass::text FROM pg_constraint c WHERE c.conrelid = a.attrelid
                           AND c.contype = 'f' AND c.conkey = ARRAY[a.attnum])
        FROM pg_attribute a WHERE a.attrelid = %s::regclass AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY a.attnum""", [table])
    return cursor.fetchall()


def _expression(table: str, column: str, target: str | None) -> str:
    """What a copy writes in ``column`` (``k`` and ``shift`` are the copy's number and its shift)."""
    if column == "id" or (target in COPIED and target is not None):
        return f"{column} + %(k)s * {OFFSET}"
    if column == "shift_id":
        return "%(new_shift)s"
    if table in ("accounting_slip", "accounting_marker") and column == "year":
        return "year + %(k)s"
    if table == "accounting_ledgertransaction" and column == "source_id":
        return f"CASE WHEN source_type IN ('round', 'fill', 'credit', 'count', 'drop', 'marker', 'marker_payment', " \
               f"'table_close') THEN (source_id::bigint + %(k)s * {OFFSET})::text ELSE source_id END"
    if table == "tables_round" and column == "number":
        return "number + %(k)s * 1000"
    if table == "audit_auditrecord":
        if column == "chain":
            return "'copy' || %(k)s || ':' || chain"
        if column == "object_id":
            return (f"CASE WHEN object_type IN ({', '.join(repr(o) for o in OBJECTS)}) "
                    f"THEN (object_id::bigint + %(k)s * {OFFSET})::text "
                    f"WHEN object_type = 'shift' THEN %(new_shift)s::text ELSE object_id END")
        if column == "after":
            out = "after"
            for key in AFTER_IDS:
                out = (f"CASE WHEN jsonb_typeof(after->'{key}') = 'number' THEN jsonb_set({out}, '{{{key}}}', "
                       f"to_jsonb((after->>'{key}')::bigint + %(k)s * {OFFSET})) ELSE {out} END")
            out = (f"CASE WHEN after ? 'shift' THEN jsonb_set({out}, '{{shift}}', to_jsonb(%(new_shift)s::bigint)) "
                   f"ELSE {out} END")
            # a slip's or marker's reference carries its year
            return (f"CASE WHEN after ? 'reference' THEN jsonb_set({out}, '{{reference}}', to_jsonb("
                    f"left(after->>'reference', 1) || (substr(after->>'reference', 2, 4)::int + %(k)s) "
                    f"|| substr(after->>'reference', 6))) ELSE {out} END")
    return column


def copy_history(template_shift: int, copies: int, first_record: int, last_record: int) -> None:
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        statements = []
        for table, where in COPIED.items():
            columns = _columns(cursor, table)
            names = ", ".join(c for c, _ in columns)
            values = ", ".join(_expression(table, c, target) for c, target in columns)
            statements.append(f"INSERT INTO {table} ({names}) SELECT {values} FROM {table} WHERE {where}")
        start = dt.datetime.now(dt.UTC) - dt.timedelta(days=30)
        for k in range(1, copies + 1):
            when = start - dt.timedelta(hours=8 * k)
            cursor.execute("""
                INSERT INTO tables_shift (shift_type_id, gaming_date, starts_at, ends_at, status, opened_by_id,
                                          closed_at, closed_by_id)
                SELECT shift_type_id, %s, %s, %s, 'closed', opened_by_id, %s, opened_by_id FROM tables_shift
                WHERE id = %s RETURNING id""", [when.date() - dt.timedelta(days=k), when, when + dt.timedelta(hours=8),
                                               when + dt.timedelta(hours=8), template_shift])
            (new_shift,) = cursor.fetchone()
            params = {"k": k, "new_shift": new_shift, "shift": template_shift, "first_record": first_record,
                      "last_record": last_record}
            for statement in statements:
                cursor.execute(statement, params)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def timed(since: dt.datetime | None, repeat: int = 3) -> tuple[float, int]:
    """The best time of the record checks (all of AUDIT_RECORD_CHECKS) over ``repeat`` runs, and what they found."""
    from django.conf import settings
    from django.utils.module_loading import import_string

    checks = [import_string(path) for path in settings.AUDIT_RECORD_CHECKS]
    best, found = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        breaks = [b for check in checks for b in check(since=since)]
        best = min(best, time.perf_counter() - start)
        found = len(breaks)
    if found:
        raise SystemExit(f"the record checks found {found} difference(s) on faithful data: {breaks[:3]}")
    return best, found


def main() -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--history", type=int, default=2_000, help="copies of the worked shift in the past")
    parser.add_argument("--rounds", type=int, default=20, help="rounds played in the worked shift besides its two")
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    if not 0 <= args.history <= 7_000:  # a copy's slips and markers carry the year plus its number (4 digits)
        parser.error("--history is at most 7000")

    from bench.common import create_database

    os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL") or create_database("croupier_bench_records",
                                                                                          keep=args.keep)
    os.environ["AUDIT_ANCHOR_DIR"] = tempfile.mkdtemp(prefix="croupier-bench-anchors-")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from accounting.models import Entry, LedgerTransaction
    from casino.audit.models import AuditRecord
    from tables.models import Round
    from tests.factories import build_floor

    call_command("migrate", verbosity=0)
    floor = build_floor()
    first_record = AuditRecord.objects.order_by("-id").values_list("id", flat=True).first() or 0
    work_shift(floor, args.rounds)
    last_record = AuditRecord.objects.order_by("-id").values_list("id", flat=True).first()
    started = time.perf_counter()
    copy_history(floor.shift.pk, args.history, first_record, last_record)
    copy_seconds = time.perf_counter() - started
    # the recent play: the worked shift itself (it started an hour ago); the copies are the history
    since = timezone.now() - dt.timedelta(seconds=settings.AUDIT_RECORD_CHECK_WINDOW)
    out: dict[str, Any] = {"bench": "record_checks", "history_shifts": args.history,
                           "rounds": Round.objects.count(), "ledger_transactions": LedgerTransaction.objects.count(),
                           "ledger_lines": Entry.objects.count(), "audit_records": AuditRecord.objects.count(),
                           "copy_seconds": round(copy_seconds, 2)}
    out["hourly_seconds"], _ = timed(since)
    out["full_seconds"], _ = timed(None)
    # one line of the recent shift changed by the owner: the hourly run names it
    line = Entry.objects.filter(transaction__shift=floor.shift, transaction__source_type="round").first()
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
        cursor.execute("UPDATE accounting_entry SET amount = amount + 100000 WHERE id = %s", [line.pk])
        cursor.execute("SET session_replication_role = DEFAULT")
    from django.utils.module_loading import import_string

    found = [b for path in settings.AUDIT_RECORD_CHECKS for b in import_string(path)(since=since)]
    out["hourly_finds_a_changed_line"] = any(f"ledger transaction {line.transaction_id} " in b.message for b in found)
    if not out["hourly_finds_a_changed_line"]:
        raise SystemExit(f"the hourly record checks missed a changed ledger line: {found[:3]}")
    out["hourly_seconds"], out["full_seconds"] = round(out["hourly_seconds"], 4), round(out["full_seconds"], 4)
    return out


if __name__ == "__main__":
    res = main()
    print(f"record checks: {res['history_shifts']:,} past shifts, {res['rounds']:,} rounds, "
          f"{res['ledger_transactions']:,} ledger transactions ({res['ledger_lines']:,} lines), "
          f"{res['audit_records']:,} audit records (history copied in {res['copy_seconds']:.1f} s)")
    print(f"  hourly (recent shifts)   {res['hourly_seconds']:>8.3f} s")
    print(f"  full (everything)        {res['full_seconds']:>8.3f} s")
    print(f"  a ledger line changed in the recent shift named by the hourly run: {res['hourly_finds_a_changed_line']}")
    print(json.dumps(res, sort_keys=True))
