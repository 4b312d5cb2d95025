"""CSV export of settled bets: rows per second against PostgreSQL's own ``COPY … TO STDOUT``.

Run from the repository root: ``python bench/export.py [--rows 1000000] [--keep]``. It creates a
database of its own (``croupier_bench_export_<random>`` on the PostgreSQL of the tests, dropped at the
end unless ``--keep``; ``BENCH_DATABASE_URL`` to reuse a kept one), migrates it, and fills it once
with settled baccarat bets generated inside PostgreSQL (INSERT … SELECT over
``generate_series``: 4 bets a round, 10 tables, 10 shifts). Then, in the same run:

* baseline: ``COPY (the report's query) TO STDOUT WITH (FORMAT csv)``, read to the end;
* export: the settled-bets report as the API streams it (``StreamingHttpResponse`` over
  ``csv_chunks``: header, the rows, the TOTAL row), read to the end;
* python: the same CSV formatted row by row in Python (the path used where COPY is not available),
  the bytes identical (tests/accounting/test_reports.py).

Peak Python memory (tracemalloc) is measured for one shift's rows and for all of them: flat means
the same peak for 10× the rows. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TABLES, SHIFTS, BETS_PER_ROUND = 10, 10, 4


def setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("DEBUG", "false")  # no query log
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def generate(rows: int) -> float:
    """Fill the bench database with ``rows`` settled bets (once); returns the seconds it took."""
    from django.db import connection, transaction

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM tables_settlementline")
        have = cursor.fetchone()[0]
    if have == rows:
        return 0.0
    if have:
        raise SystemExit(f"the database holds {have} settled bets, not {rows}: run without BENCH_DATABASE_URL")
    rounds = rows // BETS_PER_ROUND
    per_table = rounds // TABLES
    start = time.perf_counter()
    with transaction.atomic(), connection.cursor() as c:
        c.execute("""INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, is_staff,
                     is_active, date_joined) VALUES ('!', false, 'bench_dealer', '', '', '', false, true, now())
                     RETURNING id""")
        dealer = c.fetchone()[0]
        c.execute("INSERT INTO tables_pit (code, name) VALUES ('bench', 'Bench pit') RETURNING id")
        pit = c.fetchone()[0]
        c.execute(
            """INSERT INTO tables_table (code, name, pit_id, game, config, min_bet, max_bet, seats, status)
                     SELECT 'BENCH' || g, 'Bench ' || g, %s, 'baccarat', '{"decks": 8}', 100, 1000000, 7, 'open'
                     FROM generate_series(1, %s) g""",
            [pit, TABLES],
        )
        c.execute("""INSERT INTO tables_shifttype (code, name, starts, ends) VALUES ('bench', 'Bench', '06:00', '14:00')
                     RETURNING id""")
        shift_type = c.fetchone()[0]
        c.execute(
            """INSERT INTO tables_shift (shift_type_id, gaming_date, starts_at, ends_at, status, opened_by_id)
                     SELECT %s, date '2026-01-01' + g, timestamptz '2026-01-01 06:00+00' + g * interval '1 day',
                            timestamptz '2026-01-01 14:00+00' + g * interval '1 day', 'open', %s
                     FROM generate_series(0, %s) g""",
            [shift_type, dealer, SHIFTS - 1],
        )
        # round n of a table (1 … per_table) falls in shift (n − 1) * SHIFTS / per_table
        c.execute(
            """INSERT INTO tables_round (table_id, shift_id, number, game, config, status, dealer_id, opened_at,
                     betting_closed_at, settled_at, void_reason, void_refusal_reason)
                     SELECT t.id, s.id, n, 'baccarat', '{"decks": 8}', 'settled', %s,
                            s.starts_at + n * interval '1 second', s.starts_at + n * interval '1 second',
                            s.starts_at + n * interval '1 second' + interval '40 seconds', '', ''
                     FROM tables_table t CROSS JOIN generate_series(1, %s) n
                     JOIN LATERAL (SELECT id, starts_at FROM tables_shift
                                   ORDER BY gaming_date OFFSET ((n - 1) * %s / %s) LIMIT 1) s ON true
                     WHERE t.pit_id = %s""",
            [dealer, per_table, SHIFTS, per_table, pit],
        )
        c.execute(
            """INSERT INTO tables_bet (round_id, client_id, seat, type, amount, extra, placed_by_id, placed_at)
                     SELECT r.id, 'b' || k, k, (ARRAY['banker', 'player', 'tie', 'player'])[k],
                            ((r.id * 7919 + k * 104729) %% 200 + 1) * 100, '{}', %s, r.opened_at
                     FROM tables_round r CROSS JOIN generate_series(1, %s) k""",
            [dealer, BETS_PER_ROUND],
        )
        # result per bet, a pure function of its id: banker wins pay 95 % (5 % commission), ties 8:1
        outcome = """CASE WHEN (b.id * 2654435761) %% 100 < 46 THEN 'win' ELSE 'lose' END"""
        net = f"""CASE WHEN {outcome} = 'lose' THEN -b.amount WHEN b.type = 'banker' THEN b.amount - b.amount / 20
                       WHEN b.type = 'tie' THEN 8 * b.amount ELSE b.amount END"""
        commission = f"""CASE WHEN {outcome} = 'win' AND b.type = 'banker' THEN b.amount / 20 ELSE 0 END"""
        c.execute(
            f"""INSERT INTO tables_settlement (round_id, house_net, commission, rake, handle, pool_change,
                      document, settled_by_id, settled_at)
                      SELECT r.id, -SUM({net}), SUM({commission}), 0, SUM(b.amount), 0, '{{}}', %s, r.settled_at
                      FROM tables_round r JOIN tables_bet b ON b.round_id = r.id GROUP BY r.id""",
            [dealer],
        )
        c.execute(
            f"""INSERT INTO tables_settlementline (settlement_id, bet_id, result, net, commission)
                      SELECT s.id, b.id, {outcome}, {net}, {commission}
                      FROM tables_bet b JOIN tables_settlement s ON s.round_id = b.round_id ORDER BY b.id""",
            [],
        )
        # the shifts close once their rounds are in (the database takes no round into a closed shift)
        c.execute("UPDATE tables_shift SET status = 'closed', closed_at = ends_at, closed_by_id = %s", [dealer])
    with connection.cursor() as c:
        c.execute("ANALYZE")
    return time.perf_counter() - start


def drain(chunks: Iterable[bytes]) -> int:
    size = 0
    for chunk in chunks:
        size += len(chunk)
    return size


def timed(run: Callable[[], int], repeat: int) -> tuple[float, int]:
    best, size = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        size = run()
        best = min(best, time.perf_counter() - start)
    return best, size


def peak_kib(run: Callable[[], int]) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1] // 1024
    finally:
        tracemalloc.stop()


def main() -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="leave the database (reuse it with BENCH_DATABASE_URL)")
    args = parser.parse_args()
    from bench.common import create_database

    url = os.environ.get("BENCH_DATABASE_URL") or create_database("croupier_bench_export", keep=args.keep)
    setup_django(url)
    generated_s = generate(args.rows)

    from django.db import connection
    from django.http import StreamingHttpResponse

    from accounting.reports import Filters, csv_chunks, get_report
    from tables.models import Shift

    report = get_report("bets", Filters())
    one_shift = get_report(
        "bets", Filters(shift=Shift.objects.order_by("gaming_date").values_list("pk", flat=True).first())
    )
    sql, params = report.copy_sql()

    def copy_baseline() -> int:
        connection.ensure_connection()
        size = 0
        with (
            connection.connection.cursor() as cursor,
            cursor.copy(f"COPY ({sql}) TO STDOUT WITH (FORMAT csv)", params) as stream,
        ):
            for data in stream:
                size += len(data)
        return size

    def export(r=report) -> int:  # as the API answers: a StreamingHttpResponse read to the end
        return drain(StreamingHttpResponse(csv_chunks(r), content_type="text/csv"))

    def python(r=report) -> int:
        return drain(csv_chunks(r, use_copy=False))

    rows = args.rows
    copy_s, copy_bytes = timed(copy_baseline, args.repeat)
    export_s, export_bytes = timed(export, args.repeat)
    python_s, python_bytes = timed(python, 1)
    assert python_bytes == export_bytes, "the COPY stream and the Python writer must give the same CSV"
    result: dict[str, object] = {
        "rows": rows,
        "generate_s": round(generated_s, 1),
        "copy_rows_per_s": round(rows / copy_s),
        "export_rows_per_s": round(rows / export_s),
        "ratio": round(copy_s / export_s, 3),
        "python_rows_per_s": round(rows / python_s),
        "python_ratio": round(copy_s / python_s, 3),
        "target_ratio": 0.5,
        "csv_mib": round(export_bytes / 2**20, 1),
        "peak_kib_export_one_shift": peak_kib(lambda: export(one_shift)),
        "peak_kib_export_all": peak_kib(export),
        "peak_kib_python_one_shift": peak_kib(lambda: python(one_shift)),
        "peak_kib_python_all": peak_kib(python),
        "one_shift_rows": one_shift.count(),
    }
    return result


if __name__ == "__main__":
    figures = main()
    for key, value in figures.items():
        print(f"{key:>28}: {value}")
    print(json.dumps(figures))
