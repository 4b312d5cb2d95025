from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from accounting.demo import play_day
from slots.demo import build_slot_floor
from tables.demo import DEMO_PASSWORD, DEMO_PIN, build_demo_floor
from tables.models import Round


class Command(BaseCommand):
    help = (
        "Build the demo floor (idempotent); with --rounds, play a whole gaming day through the services: "
        "the earlier shifts played, counted, closed and reconciled with their paperwork, then the open one."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--rounds",
            type=int,
            default=0,
            help="rounds to play in each shift, spread over every table in turn (each game's players, "
            "bets and choices; pots, pools and the bank carry from round to round)",
        )
        parser.add_argument(
            "--shifts", type=int, default=2, help="earlier shifts of the day to play and close before the open one"
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--quiet", action="store_true")
        parser.add_argument("--if-empty", action="store_true", help="simulate only if no round was ever played")

    def handle(self, *args: Any, **options: Any) -> None:
        demo = build_demo_floor()
        build_slot_floor(actor=demo.users["pitboss"])
        rounds = options["rounds"]
        if options["if_empty"] and Round.objects.exists():
            rounds = 0
        started = time.perf_counter()
        day = None
        if rounds > 0:
            day = play_day(demo, rounds_per_shift=rounds, earlier_shifts=max(options["shifts"], 0), seed=options["seed"])
        took = time.perf_counter() - started
        if options["quiet"]:
            return
        self.stdout.write(f"Demo floor: {len(demo.tables)} tables, shift {demo.shift}")
        if day is not None and day.played:
            self.stdout.write(
                f"Played {sum(day.played.values())} rounds over {len(day.shifts)} shifts in {took:.1f} s: "
                + ", ".join(f"{g} {n}" for g, n in sorted(day.played.items()))
            )
            self.stdout.write(
                f"Paperwork: openers and closers, {day.slips} fills and credits, {day.markers} markers, "
                f"{day.voids} voided rounds; {len(day.shifts) - 1} shifts closed and reconciled; "
                f"{day.checkpoints} audit checkpoints signed"
            )
        self.stdout.write(f"Demo logins (password for all: {DEMO_PASSWORD}; signing PIN for all: {DEMO_PIN}):")
        for username, user in demo.users.items():
            roles = ", ".join(user.groups.values_list("name", flat=True))
            table = user.assignments.filter(shift=demo.shift).select_related("table").first()
            where = f" at {table.table.code}" if table else ""
            self.stdout.write(f"  {username:<12} {roles}{where}")
