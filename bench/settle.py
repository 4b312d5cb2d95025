"""What the running figures cost a settlement: ``round_settle`` with and without them, in one process, in turns.

Run from the repository root: ``python bench/settle.py [--rounds 300]``. It creates a PostgreSQL
database of its own (``croupier_bench_settle_<random>``, dropped at the end unless ``--keep``),
migrates it, seeds a baccarat table with its dealer and an open shift, and deals ``--rounds`` rounds
(three bets each, one in ten with a big bet) up to their settlement. Then it settles them one by one,
each in its own committed transaction as the API does, in turns: one with accounting's running-figures
listeners registered (``accounting.services.running``: the table's row and its hour's), the next
without them. A machine busy with other work slows both halves alike, so their ratio holds where
``bench/api.py``'s absolute figures do not. Target: p50 with ÷ p50 without ≤ 1.10. Last line: one
JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import create_database, migrate, password_hash, percentile, service_env  # noqa: E402

TARGET = 1.10


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    url = os.environ.get("BENCH_DATABASE_URL") or create_database("croupier_bench_settle", keep=args.keep)
    os.environ.update(service_env(url))
    import django

    django.setup()
    migrate()
    import datetime as dt

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db import transaction
    from django.utils import timezone

    from accounting.services import running
    from casino.core.models import StaffProfile
    from casino.core.roles import Role
    from tables import listeners
    from tables.engines.registry import play
    from tables.models import Assignment, Pit, Shift, ShiftType, Table
    from tables.services import rounds

    def user(name: str, role: Role) -> object:
        u = get_user_model().objects.create(username=name, password=password_hash("bench-pass"))
        u.groups.add(Group.objects.get_or_create(name=role.value)[0])
        StaffProfile.objects.create(user=u, employee_id=f"E-{name}", display_name=name)
        return u

    manager, dealer = user("pm", Role.PIT_MANAGER), user("dealer", Role.DEALER)
    pit = Pit.objects.create(code="main", name="Main pit")
    pit.managers.add(manager)
    table = Table.objects.create(code="BAC1", name="Baccarat 1", pit=pit, game="baccarat", config={}, min_bet=500,
                                 max_bet=500_000, seats=7, status="open")
    now = timezone.now()
    shift = Shift.objects.create(shift_type=ShiftType.objects.create(code="day", name="Day", starts=dt.time(6),
                                                                     ends=dt.time(14)),
                                 gaming_date=now.date(), starts_at=now - dt.timedelta(hours=1),
                                 ends_at=now + dt.timedelta(hours=8), opened_by=manager)
    Assignment.objects.create(dealer=dealer, table=table, shift=shift, starts_at=shift.starts_at,
                              ends_at=shift.ends_at, assigned_by=manager)
    rng = random.Random(5)

    def deal(n: int) -> int:
        """A baccarat round dealt to its end (three bets, one round in ten with a big bet), not settled."""
        shoe = [r + s for r in "A23456789TJQK" for s in "SHDC"] * 8
        rng.shuffle(shoe)
        rnd = rounds.round_open(table_id=table.pk, actor=dealer)
        for seat, kind in ((1, "banker"), (2, "player"), (3, "tie")):
            amount = 500_000 if n % 10 == 0 and seat == 1 else rng.randrange(500, 20_001, 100)
            rounds.bet_place(round_id=rnd.pk, actor=dealer, seat=seat, type=kind, amount=amount)
        rounds.betting_close(round_id=rnd.pk, actor=dealer)
        doc = rounds.round_document(rnd)
        while play(doc)["status"] != "settled":
            event = {"card": shoe.pop()}
            rounds.event_post(round_id=rnd.pk, actor=dealer, event=event)
            doc["events"].append(event)
        return rnd.pk

    kept = list(listeners._settled)
    without = [f for f in kept if f is not running.round_settled]
    times: dict[str, list[float]] = {"with": [], "without": []}
    for n in range(args.rounds):
        round_id = deal(n)
        arm = "with" if n % 2 == 0 else "without"
        listeners._settled[:] = kept if arm == "with" else without
        try:
            started = time.perf_counter()
            with transaction.atomic():  # committed, as the API's request
                rounds.round_settle(round_id=round_id, actor=dealer)
            times[arm].append((time.perf_counter() - started) * 1000)
        finally:
            listeners._settled[:] = kept

    stats = {arm: {"n": len(v), "p50": round(percentile(v, 50), 3), "p95": round(percentile(v, 95), 3)}
             for arm, v in times.items()}
    ratio = round(stats["with"]["p50"] / stats["without"]["p50"], 3)
    for arm, s in stats.items():
        print(f"round_settle {arm:<8} running figures: n {s['n']}, p50 {s['p50']:.2f} ms, p95 {s['p95']:.2f} ms")
    print(f"p50 with ÷ without = {ratio} (target ≤ {TARGET}): {'met' if ratio <= TARGET else 'MISSED'} "
          f"(load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs)")
    print(json.dumps({"bench": "settle", "rounds": args.rounds, "ms": stats, "ratio_p50": ratio,
                      "target": TARGET, "met": ratio <= TARGET, "load_average": round(os.getloadavg()[0], 2),
                      "cpus": os.cpu_count()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
