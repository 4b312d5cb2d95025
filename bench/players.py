"""The pit dashboard's player panels: every open rating slip rated from the rounds, on each refresh.

Run from the repository root: ``python bench/players.py [--tables 24] [--hours 4] [--repeat 30]``. It
creates a PostgreSQL database of its own (``croupier_bench_players_<random>``, dropped at the end
unless ``--keep``; ``BENCH_DATABASE_URL`` for another), migrates it and loads, through the ORM: ``--tables`` baccarat tables, each with a full
table of open slips (7 seats, one of them paused for 10 minutes), ``--hours`` of play at 60 rounds
an hour with 5 bets a round on random seats (every round settled, with its lines), and 100 closed,
rated slips of the same gaming day. The house edge is cached first (as the slip-open job does).
Then, ``--repeat`` times each, it times:

* the **panels**: ``players.selectors.pit_panels`` (who is playing, every open slip's figures measured
  from its rounds and bets, the day's top theoretical win);
* the **baseline**: ``floor.selectors.floor_rows`` — the dashboard's table tiles, in the same run.

Target: panels p95 under 200 ms. The last line is one JSON object. ``--keep`` leaves the database.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import create_database, migrate, percentile, service_env  # noqa: E402

TARGET_MS = 200.0
SEATS = 7
PER_HOUR = 60
BETS_PER_ROUND = 5
DB = "croupier_bench_players"


def load(tables_n: int, hours: int, seed: int = 11) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.utils import timezone

    from players.edges import edges_for
    from players.models import Player, RatingSlip, SlipPause, SlipRating
    from tables.models import Bet, Pit, Round, Settlement, SettlementLine, Shift, ShiftType, Table

    rng = random.Random(seed)
    user_model = get_user_model()
    boss = user_model.objects.create(username="pitboss")
    boss.groups.add(Group.objects.get_or_create(name="pit_manager")[0])
    dealer = user_model.objects.create(username="dealer")
    pit = Pit.objects.create(code="main", name="Main")
    pit.managers.add(boss)
    now = timezone.now()
    start = now - dt.timedelta(hours=hours)
    kind = ShiftType.objects.create(code="day", name="Day", starts=dt.time(6), ends=dt.time(14))
    shift = Shift.objects.create(
        shift_type=kind,
        gaming_date=now.date(),
        starts_at=start - dt.timedelta(minutes=5),
        ends_at=now + dt.timedelta(hours=4),
        opened_by=boss,
    )
    tables = Table.objects.bulk_create(
        [
            Table(
                code=f"BAC{i + 1}",
                name=f"Baccarat {i + 1}",
                pit=pit,
                game="baccarat",
                config={},
                min_bet=500,
                max_bet=500_000,
                seats=SEATS,
                status="open",
            )
            for i in range(tables_n)
        ]
    )
    config = tables[0].engine_config()
    from tables.engines.registry import get_engine

    config = get_engine("baccarat").resolve_config(config)
    edges_for("baccarat", config, compute=True)
    now_players = Player.objects.bulk_create(
        [
            Player(
                first_name=f"P{i}",
                last_name="Bench",
                card_number=f"B{i:05d}",
                created_by=boss,
                created_at=now,
                updated_at=now,
            )
            for i in range(tables_n * SEATS + 100)
        ]
    )
    slips = RatingSlip.objects.bulk_create(
        [
            RatingSlip(
                player=now_players[t * SEATS + s],
                table=table,
                seat=s + 1,
                shift=shift,
                opened_by=dealer,
                opened_at=start + dt.timedelta(minutes=rng.randint(0, 30)),
                status="open",
            )
            for t, table in enumerate(tables)
            for s in range(SEATS)
        ]
    )
    paused = [sl for sl in slips if sl.seat == 3]
    RatingSlip.objects.filter(pk__in=[sl.pk for sl in paused]).update(status="paused")
    SlipPause.objects.bulk_create(
        [SlipPause(slip=sl, started_at=now - dt.timedelta(minutes=10), started_by=dealer) for sl in paused]
    )
    rounds_n = hours * PER_HOUR
    rounds = []
    for table in tables:
        for n in range(rounds_n):
            at = start + dt.timedelta(seconds=n * 3600 // PER_HOUR + 30)
            rounds.append(
                Round(
                    table=table,
                    shift=shift,
                    number=n + 1,
                    game="baccarat",
                    config=config,
                    status="settled",
                    dealer=dealer,
                    opened_at=at,
                    betting_closed_at=at,
                    settled_at=at,
                    state={"status": "settled"},
                )
            )
    rounds = Round.objects.bulk_create(rounds, batch_size=5000)
    bets, docs = [], {}
    for rnd in rounds:
        rows = []
        for b in range(BETS_PER_ROUND):
            kind_ = rng.choice(("banker", "player", "banker", "tie"))
            amount = rng.randrange(500, 20_001, 500)
            won = rng.random() < 0.46
            net = (amount * 95 // 100 if kind_ == "banker" else amount) if won else -amount
            rows.append(
                {
                    "id": f"b{b + 1}",
                    "seat": rng.randint(1, SEATS),
                    "type": kind_,
                    "amount": amount,
                    "result": "win" if won else "lose",
                    "net": net,
                    "commission": 0,
                }
            )
            bets.append(
                Bet(
                    round=rnd,
                    client_id=f"b{b + 1}",
                    seat=rows[-1]["seat"],
                    type=kind_,
                    amount=amount,
                    placed_by=dealer,
                    placed_at=rnd.opened_at,
                )
            )
        docs[rnd.pk] = rows
    bets = Bet.objects.bulk_create(bets, batch_size=5000)
    settlements = Settlement.objects.bulk_create(
        [
            Settlement(
                round=rnd,
                house_net=-sum(r["net"] for r in docs[rnd.pk]),
                handle=sum(r["amount"] for r in docs[rnd.pk]),
                pool_change=0,  # banked games: no pool
                document={"status": "settled", "bets": docs[rnd.pk]},
                settled_by=dealer,
                settled_at=rnd.settled_at,
            )
            for rnd in rounds
        ],
        batch_size=5000,
    )
    by_round = {s.round_id: s for s in settlements}
    nets = {(rnd.pk, r["id"]): r for rnd in rounds for r in docs[rnd.pk]}
    SettlementLine.objects.bulk_create(
        [
            SettlementLine(
                settlement=by_round[b.round_id],
                bet=b,
                result=nets[(b.round_id, b.client_id)]["result"],
                net=nets[(b.round_id, b.client_id)]["net"],
            )
            for b in bets
        ],
        batch_size=5000,
    )
    closed = RatingSlip.objects.bulk_create(
        [
            RatingSlip(
                player=now_players[tables_n * SEATS + i],
                table=tables[i % tables_n],
                seat=1,
                shift=shift,
                opened_by=dealer,
                opened_at=start - dt.timedelta(hours=1),
                status="closed",
                closed_by=dealer,
                closed_at=start - dt.timedelta(minutes=1),
            )
            for i in range(100)
        ]
    )
    SlipRating.objects.bulk_create(
        [
            SlipRating(
                slip=sl,
                active_seconds=3540,
                paused_seconds=0,
                decisions=50,
                table_decisions=59,
                handle=500_000,
                average_bet=10_000,
                average_bet_source="measured",
                decisions_per_hour="50.85",
                theoretical_win=5_300,
                actual_win=rng.randint(-50_000, 50_000),
                reinvestment_percent=30,
                points_per_unit=10,
                comp_value=1590,
                comp_points=159,
                flags=[],
                data={},
                rated_at=now,
            )
            for sl in closed
        ]
    )
    return {
        "boss": boss.pk,
        "tables": tables_n,
        "open_slips": len(slips),
        "rounds": len(rounds),
        "bets": len(bets),
        "shift": shift.pk,
    }


def timed(fn: Any, repeat: int) -> list[float]:
    fn()  # warm: plans cached, pages in memory, the edge memoized
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        out.append((time.perf_counter() - started) * 1000)
    return out


def stats(values: list[float]) -> dict[str, float]:
    return {
        "p50": round(percentile(values, 50), 2),
        "p95": round(percentile(values, 95), 2),
        "max": round(max(values), 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=24)
    parser.add_argument("--hours", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()

    url = os.environ.get("BENCH_DATABASE_URL") or create_database(DB, keep=args.keep)
    os.environ.update(service_env(url))
    import django

    django.setup()
    migrate()
    from django.db import connection

    from floor.selectors import floor_rows
    from players.selectors import pit_panels
    from tables.models import Shift, Table

    started = time.perf_counter()
    from django.db import transaction

    with transaction.atomic():  # settlement lines join their settlements in the transaction that wrote them
        facts = load(args.tables, args.hours)
    load_seconds = time.perf_counter() - started
    print(
        f"loaded {facts['open_slips']} open slips, {facts['rounds']:,} rounds, {facts['bets']:,} bets in "
        f"{load_seconds:.0f} s",
        flush=True,
    )
    shift = Shift.objects.get(pk=facts["shift"])
    tables = list(Table.objects.select_related("pit").order_by("code"))
    queries: list[int] = []

    def panels() -> None:
        before = len(connection.queries)
        out = pit_panels(tables, shift)
        queries.append(len(connection.queries) - before)
        assert len(out["open_slips"]) == facts["open_slips"]
        assert all(r.figures.theoretical_win is not None for r in out["open_slips"])

    def tiles() -> None:
        assert len(floor_rows(tables, shift)) == args.tables

    connection.force_debug_cursor = True  # count the panels' queries
    results = {"panels": stats(timed(panels, args.repeat)), "floor_rows": stats(timed(tiles, args.repeat))}
    connection.force_debug_cursor = False
    base = results["floor_rows"]["p95"]
    print(f"{'read':<12}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}{'p95 / floor_rows':>18}")
    for name, s in results.items():
        print(f"{name:<12}{s['p50']:>10.1f}{s['p95']:>10.1f}{s['max']:>10.1f}{s['p95'] / base:>18.2f}")
    met = results["panels"]["p95"] < TARGET_MS
    print(
        f"target p95 < {TARGET_MS:.0f} ms for the panels: {'met' if met else 'MISSED'} "
        f"({queries[-1]} queries; load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs)"
    )
    print(
        json.dumps(
            {
                "bench": "players_panels",
                "tables": args.tables,
                "open_slips": facts["open_slips"],
                "rounds": facts["rounds"],
                "bets": facts["bets"],
                "load_seconds": round(load_seconds, 1),
                "repeat": args.repeat,
                "ms": results,
                "queries": queries[-1],
                "target_p95_ms": TARGET_MS,
                "panels_p95_ratio": round(results["panels"]["p95"] / TARGET_MS, 3),
                "panels_vs_floor_rows": round(results["panels"]["p95"] / base, 3),
                "target_met": met,
                "cpus": os.cpu_count(),
                "load_average": round(os.getloadavg()[0], 2),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
