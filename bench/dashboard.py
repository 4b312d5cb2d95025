"""Reads as history grows: the pit dashboard and the month's revenue report at 1, 5 and 20 million bets.

Run from the repository root: ``python bench/dashboard.py [--sizes 1000000,5000000,20000000]
[--repeat 30] [--rounds-per-shift 320]``. It creates a PostgreSQL database of its own
(``croupier_bench_dashboard_<random>``, dropped at the end unless ``--keep``; ``BENCH_DATABASE_URL``
for another), migrates it and seeds the floor through the ORM: 24 baccarat tables in two pits, a
dealer each, the three shift types and the shift open now. The floor's volume is the same at every
size: ``--rounds-per-shift`` rounds per table and shift, five bets each (a busy 40 rounds an hour).
History then grows backwards, shift by shift, with bulk SQL (``generate_series``, no ORM): settled
rounds, their bets and settlements, and for every past table shift its opening and closing counts,
soft count and table close, and its running figures, by shift and by hour, and its big bets
(``accounting.figures``' ``*_from_records_sql``, the migrations' backfills). At each size it times, ``--repeat`` times each:

* the **pit dashboard**: everything the pit manager's floor screen asks the database for
  (``floor.views._floor``: the current shift, the tables, each table's running figures, the counts,
  win by hour, big bets, open alerts, the players);
* the **month's revenue report**: ``get_report("revenue", group=day)`` over the last 30 gaming days,
  every row read;
* the **baseline**: a bare ``SELECT count(*) FROM tables_bet`` (``--baseline-repeat`` times).

At each size it also counts the SQL statements (``CaptureQueriesContext``) of the whole pit dashboard page
(``GET /pit/``: the session, the user, the screen), of a live refresh that brings the floor
(``GET /pit/live/``) and of a refresh with nothing changed (its ETag sent back: a 304 with no body), and times
those refreshes through Django's test client (the views, the middleware and the templates, without a socket).

Targets: dashboard p95 < 50 ms at the largest size and p95(largest) ÷ p95(smallest) ≤ 1.3; month report
p95 < 200 ms. The last line is one JSON object. ``--keep`` leaves the database for inspection.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import create_database, migrate, password_hash, percentile, service_env  # noqa: E402

DASHBOARD_TARGET_MS = 50.0
RATIO_TARGET = 1.3
REPORT_TARGET_MS = 200.0
TABLES = 24
BETS_PER_ROUND = 5
SHIFTS = (("day", 6), ("swing", 14), ("grave", 22))  # code, start hour (8 hours each)
# a bet's amount, from its round and place alone, so that settlements and counts are summed without reading
# the bets back: 5.00–200.00 in steps of 1.00, one in 5,000 a big bet of 5,000.00
# (``%%``: a literal ``%`` in a statement with parameters)
AMOUNT = ("(CASE WHEN ({r} * 31 + {b}) %% 5000 = 0 THEN 500000 "
          "ELSE 500 + (({r} * 7919 + {b} * 104729) %% 196) * 100 END)")
LOSES = "(({r} * 13 + {b} * 7) %% 2 = 0)"  # the player's bet loses: the house takes it
KIND = "(ARRAY['banker', 'player', 'banker', 'player', 'tie'])[{b}]"


def seed() -> dict[str, Any]:
    """The floor, its people and the shift open now (the ORM: a few dozen rows)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db import transaction
    from django.utils import timezone

    from casino.core.models import StaffProfile
    from casino.core.roles import Role
    from tables.models import Pit, Shift, ShiftType, Table

    def user(name: str, role: Role) -> Any:
        u = get_user_model().objects.create(username=name, password=password_hash("bench-pass"))
        u.groups.add(Group.objects.get_or_create(name=role.value)[0])
        StaffProfile.objects.create(user=u, employee_id=f"E-{name}", display_name=name)
        return u

    now = timezone.now()
    with transaction.atomic():
        pitboss = user("pitboss", Role.PIT_MANAGER)
        counters = [user("counter1", Role.ACCOUNTANT), user("counter2", Role.ACCOUNTANT)]
        pits = [Pit.objects.create(code="main", name="Main pit"), Pit.objects.create(code="salon", name="Salon")]
        for pit in pits:
            pit.managers.add(pitboss)
        tables = [Table.objects.create(code=f"BAC{i + 1:02d}", name=f"Baccarat {i + 1}", pit=pits[i % 2],
                                       game="baccarat", config={}, min_bet=500, max_bet=500_000, seats=7,
                                       status="open") for i in range(TABLES)]
        dealers = [user(f"dealer{i + 1:02d}", Role.DEALER) for i in range(TABLES)]
        types = [ShiftType.objects.create(code=code, name=code.title(), starts=dt.time(hour),
                                          ends=dt.time((hour + 8) % 24)) for code, hour in SHIFTS]
        starts = now.replace(minute=0, second=0, microsecond=0) - dt.timedelta(hours=4)  # half-way through
        current = Shift.objects.create(shift_type=types[0], gaming_date=(starts - dt.timedelta(hours=6)).date(),
                                       starts_at=starts, ends_at=starts + dt.timedelta(hours=8), opened_by=pitboss)
    staff = dict(StaffProfile.objects.values_list("user_id", "pk"))
    return {"pitboss": pitboss.pk, "pitboss_staff": staff[pitboss.pk], "counters": [staff[c.pk] for c in counters],
            "tables": [(t.pk, d.pk, staff[d.pk]) for t, d in zip(tables, dealers)], "types": [t.pk for t in types],
            "current": current.pk, "starts": starts, "now": now}


def grow(floor: dict[str, Any], *, first: int, last: int, rounds_per_shift: int, round_base: int) -> int:
    """Write shifts ``first``..``last`` back from the current one (0: the current shift itself) with their
    rounds, bets, settlements, counts, closes and running figures, in bulk SQL. Returns the rounds written."""
    from django.conf import settings
    from django.db import connection

    from accounting import figures

    R, T = rounds_per_shift, len(floor["tables"])  # noqa: N806
    with connection.cursor() as django_cursor:
        cursor = django_cursor.cursor  # psycopg's own
        cursor.execute("SET session_replication_role = replica")  # bulk load: no per-row FK or guard triggers
        cursor.execute("CREATE TEMP TABLE IF NOT EXISTS bench_floor (table_id bigint, idx int, dealer_id bigint, "
                       "dealer_staff bigint)")
        cursor.execute("TRUNCATE bench_floor")
        cursor.executemany("INSERT INTO bench_floor VALUES (%s, %s, %s, %s)",
                           [(t, i, d, s) for i, (t, d, s) in enumerate(floor["tables"])])
        # the shifts: k back from the current one (its type steps back through the three, 8 hours each)
        if first == 0:
            shift_ids = {0: floor["current"]}
            first_past = 1
        else:
            shift_ids, first_past = {}, first
        if last >= first_past:
            cursor.execute(
                "INSERT INTO tables_shift (shift_type_id, gaming_date, starts_at, ends_at, status, opened_by_id, "
                "closed_at, closed_by_id) "
                "SELECT (%(types)s::bigint[])[1 + ((3 - k %% 3) %% 3)], "
                "(%(starts)s::timestamptz - k * interval '8 hours' - interval '6 hours')::date, "
                "%(starts)s::timestamptz - k * interval '8 hours', %(starts)s::timestamptz - (k - 1) * interval '8 hours',"
                " 'closed', %(pitboss)s, %(starts)s::timestamptz - (k - 1) * interval '8 hours', %(pitboss)s "
                "FROM generate_series(%(first)s, %(last)s) k ORDER BY k RETURNING id",
                {"types": floor["types"], "starts": floor["starts"], "pitboss": floor["pitboss"],
                 "first": first_past, "last": last})
            for k, (shift_id,) in zip(range(first_past, last + 1), cursor.fetchall()):
                shift_ids[k] = shift_id
        cursor.execute("CREATE TEMP TABLE IF NOT EXISTS bench_shifts (k int, shift_id bigint)")
        cursor.execute("TRUNCATE bench_shifts")
        cursor.executemany("INSERT INTO bench_shifts VALUES (%s, %s)", list(shift_ids.items()))
        # the rounds: R per table and shift, spread over the shift (the current one: over its hours so far)
        cursor.execute(
            "INSERT INTO tables_round (id, number, game, config, status, opened_at, betting_closed_at, settled_at, "
            "state, document, void_reason, void_refusal_reason, dealer_id, shift_id, table_id) "
            "SELECT id, id, 'baccarat', '{}', 'settled', opened, opened, opened + interval '40 seconds', NULL, NULL, "
            "'', '', dealer_id, shift_id, table_id FROM ("
            "  SELECT %(base)s + ((b.k - %(first)s) * %(T)s + f.idx) * %(R)s + n AS id, s.id AS shift_id, "
            "         f.table_id, f.dealer_id, "
            "         s.starts_at + (LEAST(s.ends_at, %(now)s) - s.starts_at) * ((n - 0.9) / %(R)s) AS opened "
            "  FROM bench_shifts b JOIN tables_shift s ON s.id = b.shift_id CROSS JOIN bench_floor f "
            "  CROSS JOIN generate_series(1, %(R)s) n) g",
            {"base": round_base, "first": first, "T": T, "R": R, "now": floor["now"]})
        lo, hi = round_base + 1, round_base + (last - first + 1) * T * R
        amount, loses, kind = (AMOUNT.format(r="r.id", b="b"), LOSES.format(r="r.id", b="b"),
                               KIND.format(b="b"))
        cursor.execute(
            "INSERT INTO tables_bet (id, client_id, seat, type, amount, extra, limit_min, limit_max, event_index, "
            "placed_at, placed_by_id, round_id) "
            f"SELECT (r.id - 1) * {BETS_PER_ROUND} + b, 'b' || b, b, {kind}, {amount}, '{{}}', 500, 500000, NULL, "
            f"r.opened_at, r.dealer_id, r.id FROM tables_round r CROSS JOIN generate_series(1, {BETS_PER_ROUND}) b "
            "WHERE r.id BETWEEN %s AND %s", [lo, hi])
        # each round's settlement: the player's bets lose or win even money, the banker's pay 5 % commission
        fee = f"(CASE WHEN {kind} = 'banker' AND NOT {loses} THEN {amount} * 5 / 100 ELSE 0 END)"
        cursor.execute(
            "INSERT INTO tables_settlement (id, house_net, commission, rake, handle, pool_change, document, settled_at, "
            "round_id, settled_by_id) "
            f"SELECT r.id, sum(CASE WHEN {loses} THEN {amount} ELSE -{amount} END + {fee}), sum({fee}), 0, "
            f"sum({amount}), 0, '{{}}', r.settled_at, r.id, r.dealer_id "
            f"FROM tables_round r CROSS JOIN generate_series(1, {BETS_PER_ROUND}) b WHERE r.id BETWEEN %s AND %s "
            "GROUP BY r.id", [lo, hi])
        # every past table shift counted and closed: no fills, credits or markers, so
        # count win = closer + drop − opener, and the tray never goes negative
        cursor.execute(
            "CREATE TEMP TABLE bench_won AS SELECT r.table_id, r.shift_id, count(*) AS rounds, sum(s.handle) AS handle,"
            " sum(s.house_net) AS win, sum(s.commission) AS commission FROM tables_settlement s "
            "JOIN tables_round r ON r.id = s.round_id WHERE r.id BETWEEN %s AND %s AND r.shift_id <> %s "
            "GROUP BY r.table_id, r.shift_id", [lo, hi, floor["current"]])
        cursor.execute("ALTER TABLE bench_won ADD COLUMN drop_total bigint, ADD COLUMN opener bigint, "
                       "ADD COLUMN closer bigint, ADD COLUMN opener_id bigint, ADD COLUMN closer_id bigint, "
                       "ADD COLUMN drop_id bigint")
        cursor.execute("UPDATE bench_won SET drop_total = handle / 4, opener = 250000 + GREATEST(0, handle / 4 - win)")
        cursor.execute("UPDATE bench_won SET closer = opener + win - drop_total, "
                       "opener_id = nextval(pg_get_serial_sequence('accounting_inventorycount', 'id')), "
                       "closer_id = nextval(pg_get_serial_sequence('accounting_inventorycount', 'id')), "
                       "drop_id = nextval(pg_get_serial_sequence('accounting_dropcount', 'id'))")
        signers = {"pitboss": floor["pitboss"], "boss_staff": floor["pitboss_staff"], "c1": floor["counters"][0],
                   "c2": floor["counters"][1]}
        cursor.execute(
            "INSERT INTO accounting_inventorycount (id, kind, chips, total, rolled, discrepancy_net, "
            "discrepancy_gross, recorded_at, dealer_signer_id, previous_closer_id, recorded_by_id, shift_id, "
            "supervisor_signer_id, table_id, reason) "
            "SELECT x.id, x.kind, '{}', x.total, false, NULL, NULL, s.ends_at, f.dealer_staff, NULL, %(pitboss)s, "
            "w.shift_id, %(boss_staff)s, w.table_id, '' FROM bench_won w JOIN tables_shift s ON s.id = w.shift_id "
            "JOIN bench_floor f ON f.table_id = w.table_id "
            "CROSS JOIN LATERAL (VALUES (w.opener_id, 'opener', w.opener), (w.closer_id, 'closer', w.closer)) "
            "x(id, kind, total)", signers)
        cursor.execute(
            "INSERT INTO accounting_dropcount (id, cash, chips, markers, total, recorded_at, counter_one_id, "
            "counter_two_id, recorded_by_id, shift_id, table_id, reason) "
            "SELECT w.drop_id, w.drop_total, 0, 0, w.drop_total, s.ends_at, %(c1)s, %(c2)s, %(pitboss)s, w.shift_id, "
            "w.table_id, '' FROM bench_won w JOIN tables_shift s ON s.id = w.shift_id", signers)
        cursor.execute(
            'INSERT INTO accounting_tableshiftclose (opener_total, closer_total, fills, credits, "drop", '
            "marker_payments, markers_issued, count_win, rounds, handle, rounds_win, commission, rake, pool_change, "
            "variance, closed_at, closed_by_id, closer_id, drop_count_id, opener_id, shift_id, table_id) "
            "SELECT w.opener, w.closer, 0, 0, w.drop_total, 0, 0, w.closer + w.drop_total - w.opener, w.rounds, "
            "w.handle, w.win, w.commission, 0, 0, w.closer + w.drop_total - w.opener - w.win, s.ends_at, "
            "%(pitboss)s, w.closer_id, w.drop_id, w.opener_id, w.shift_id, w.table_id "
            "FROM bench_won w JOIN tables_shift s ON s.id = w.shift_id", signers)
        cursor.execute("DROP TABLE bench_won")
        # the running figures of these shifts, summed from the records as the migration's backfill does
        ids = ", ".join(str(int(v)) for v in shift_ids.values())
        selected = f"{{col}} IN ({ids})"
        cursor.execute(figures.running_from_records_sql("postgresql", shifts=selected), [figures.big_bet_threshold()])
        cursor.execute(figures.running_hours_from_records_sql(shifts=selected), [settings.TIME_ZONE] * 2)
        cursor.execute(figures.big_bets_from_records_sql(shifts=selected), [figures.big_bet_threshold()])
        cursor.execute("SET session_replication_role = origin")
        for table in ("tables_round", "tables_bet", "tables_settlement", "accounting_inventorycount",
                      "accounting_dropcount", "accounting_tableshiftclose", "accounting_tablefigures"):
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                           f"(SELECT coalesce(max(id), 1) FROM {table}))")
    return (last - first + 1) * T * R


def timed(fn: Any, repeat: int) -> list[float]:
    fn()  # warm: plans cached, pages in memory
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        out.append((time.perf_counter() - started) * 1000)
    return out


def stats(values: list[float]) -> dict[str, float]:
    return {"p50": round(percentile(values, 50), 2), "p95": round(percentile(values, 95), 2),
            "max": round(max(values), 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000000,5000000,20000000", help="bets in the history, ascending")
    parser.add_argument("--rounds-per-shift", type=int, default=320, help="per table and shift")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--baseline-repeat", type=int, default=5)
    parser.add_argument("--random-page-cost", type=float, default=1.1,
                        help="the database's planner setting (default 1.1, SSD; PostgreSQL's own default is 4)")
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))

    url = os.environ.get("BENCH_DATABASE_URL") or create_database("croupier_bench_dashboard", keep=args.keep)
    os.environ.update(service_env(url))
    import django

    django.setup()
    migrate()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounting.reports import Filters, get_report
    from floor.views import _floor

    floor = seed()
    with connection.cursor() as cursor:
        # the planner's default (4) prices a random read like a spinning disk's; on SSD or a cached working set
        # 1.1 is the usual setting (docs/scaling.md)
        cursor.execute(f"ALTER DATABASE {connection.settings_dict['NAME']} SET random_page_cost = "
                       f"{args.random_page_cost}")
    pitboss = get_user_model().objects.get(pk=floor["pitboss"])
    settings.ALLOWED_HOSTS = ["*"]  # the test client's host
    web = Client()
    web.force_login(pitboss)

    def statements(path: str, **headers: str) -> dict[str, int]:
        with CaptureQueriesContext(connection) as seen:
            answer = web.get(path, headers=headers)
        return {"status": answer.status_code, "statements": len(seen.captured_queries)}

    def refresh() -> None:
        assert web.get("/pit/live/").status_code == 200

    def refresh_unchanged() -> None:
        etag = web.get("/pit/live/").headers["ETag"] if not validator else validator[0]
        answer = web.get("/pit/live/", headers={"if_none_match": etag})
        if answer.status_code == 200:  # the validator's clock moved on (every 30 s): the new one from now
            validator[:] = [answer.headers["ETag"]]
            return
        assert answer.status_code == 304
        assert not answer.content

    validator: list[str] = []

    def unchanged_statements() -> dict[str, int]:
        """A refresh with the ETag just given: a 304 (once more if the validator's 30 s clock moved in between)."""
        for _ in range(2):
            validator[:] = [web.get("/pit/live/").headers["ETag"]]
            counted = statements("/pit/live/", if_none_match=validator[0])
            if counted["status"] == 304:
                break
        return counted
    today = floor["starts"].date()
    month = Filters(date_from=today - dt.timedelta(days=29), date_to=today, group="day")
    per_shift = TABLES * args.rounds_per_shift * BETS_PER_ROUND

    def dashboard() -> None:
        pitboss.__dict__.pop("_croupier_roles", None)  # every screen refresh is a new request
        found = _floor(pitboss)
        assert len(found["rows"]) == TABLES
        assert found["rows"][0].rounds == args.rounds_per_shift

    def report() -> None:
        rows = list(get_report("revenue", month).rows())
        assert rows

    results: list[dict[str, Any]] = []
    shifts_written = rounds = 0
    for size in sizes:
        target = -(-size // per_shift)  # shifts (the current one included) to hold at least ``size`` bets
        started = time.perf_counter()
        if target > shifts_written:
            rounds += grow(floor, first=shifts_written, last=target - 1, rounds_per_shift=args.rounds_per_shift,
                           round_base=rounds)
            shifts_written = target
        connection.close()
        with connection.cursor() as cursor:  # outside a transaction block: VACUUM refuses one
            cursor.execute("VACUUM ANALYZE")
            cursor.execute("SELECT count(*) FROM tables_bet")
            bets = cursor.fetchone()[0]
        load_seconds = time.perf_counter() - started
        print(f"{bets:,} bets, {rounds:,} rounds, {shifts_written} shifts ({shifts_written / 3:.0f} days) "
              f"written in {load_seconds:.0f} s", flush=True)

        def count_bets() -> None:
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM tables_bet")
                assert cursor.fetchone()[0] == bets  # noqa: B023 (read at once)

        counted = {"page": statements("/pit/"), "refresh": statements("/pit/live/"),
                   "refresh_unchanged": unchanged_statements()}
        results.append({"bets": bets, "rounds": rounds, "shifts": shifts_written, "load_seconds": round(load_seconds),
                        "statements": {k: v["statements"] for k, v in counted.items()},
                        "statuses": {k: v["status"] for k, v in counted.items()},
                        "dashboard": stats(timed(dashboard, args.repeat)),
                        "refresh": stats(timed(refresh, args.repeat)),
                        "refresh_unchanged": stats(timed(refresh_unchanged, args.repeat)),
                        "month_report": stats(timed(report, args.repeat)),
                        "count_bets": stats(timed(count_bets, args.baseline_repeat)),
                        "load_average": round(os.getloadavg()[0], 2)})
        r = results[-1]
        print(f"  dashboard p50 {r['dashboard']['p50']:.1f} ms p95 {r['dashboard']['p95']:.1f} ms; month report p50 "
              f"{r['month_report']['p50']:.1f} ms p95 {r['month_report']['p95']:.1f} ms; count(*) p95 "
              f"{r['count_bets']['p95']:.0f} ms (load average {r['load_average']})", flush=True)
        print(f"  statements: page {r['statements']['page']}, refresh {r['statements']['refresh']}, refresh with "
              f"nothing changed {r['statements']['refresh_unchanged']} ({r['statuses']['refresh_unchanged']}); "
              f"refresh p95 {r['refresh']['p95']:.1f} ms, unchanged p95 {r['refresh_unchanged']['p95']:.1f} ms",
              flush=True)

    first, last = results[0], results[-1]
    ratio = round(last["dashboard"]["p95"] / first["dashboard"]["p95"], 3)
    report_ratio = round(last["month_report"]["p95"] / first["month_report"]["p95"], 3)
    print(f"{'bets':>12}{'dashboard p95':>16}{'month report p95':>19}{'count(*) p95':>15}")
    for r in results:
        print(f"{r['bets']:>12,}{r['dashboard']['p95']:>13.1f} ms{r['month_report']['p95']:>16.1f} ms"
              f"{r['count_bets']['p95']:>12.0f} ms")
    met = {
        "dashboard_p95": last["dashboard"]["p95"] < DASHBOARD_TARGET_MS,
        "dashboard_ratio": ratio <= RATIO_TARGET,
        "month_report_p95": all(r["month_report"]["p95"] < REPORT_TARGET_MS for r in results),
    }
    print(f"dashboard p95 at {last['bets']:,} bets {last['dashboard']['p95']:.1f} ms (target < "
          f"{DASHBOARD_TARGET_MS:.0f}): {'met' if met['dashboard_p95'] else 'MISSED'}; p95({last['bets']:,}) ÷ "
          f"p95({first['bets']:,}) = {ratio} (target ≤ {RATIO_TARGET}): {'met' if met['dashboard_ratio'] else 'MISSED'}; "
          f"month report p95 < {REPORT_TARGET_MS:.0f} ms: {'met' if met['month_report_p95'] else 'MISSED'} "
          f"({os.cpu_count()} CPUs)")
    print(json.dumps({
        "bench": "dashboard", "sizes": results, "repeat": args.repeat, "rounds_per_shift": args.rounds_per_shift,
        "tables": TABLES, "statements": last["statements"], "dashboard_p95_ratio": ratio, "month_report_p95_ratio": report_ratio,
        "targets": {"dashboard_p95_ms": DASHBOARD_TARGET_MS, "ratio": RATIO_TARGET,
                    "month_report_p95_ms": REPORT_TARGET_MS},
        "targets_met": met, "cpus": os.cpu_count(), "random_page_cost": args.random_page_cost,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
