from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from tables.demo import DEMO_PASSWORD, DEMO_PIN, build_demo_floor, simulate
from tables.models import Round


class Command(BaseCommand):
    help = "Build the demo floor (idempotent) and optionally simulate N rounds through the services."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--rounds",
            type=int,
            default=0,
            help="rounds to play, spread over every table in turn (each game's players, "
            "bets and choices; pots, pools and the bank carry from round to round)",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--quiet", action="store_true")
        parser.add_argument("--if-empty", action="store_true", help="simulate only if no round was ever played")

    def handle(self, *args: Any, **options: Any) -> None:
        demo = build_demo_floor()
        rounds = options["rounds"]
        if options["if_empty"] and Round.objects.exists():
            rounds = 0
        started = time.perf_counter()
        played = simulate(demo, rounds, seed=options["seed"]) if rounds > 0 else {}
        took = time.perf_counter() - started
        if options["quiet"]:
            return
        self.stdout.write(f"Demo floor: {len(demo.tables)} tables, shift {demo.shift}")
        if played:
            self.stdout.write(
                f"Simulated {sum(played.values())} rounds in {took:.1f} s: "
                + ", ".join(f"{g} {n}" for g, n in sorted(played.items()))
            )
        self.stdout.write(f"Demo logins (password for all: {DEMO_PASSWORD}; signing PIN for all: {DEMO_PIN}):")
        for username, user in demo.users.items():
            roles = ", ".join(user.groups.values_list("name", flat=True))
            table = user.assignments.filter(shift=demo.shift).select_related("table").first()
            where = f" at {table.table.code}" if table else ""
            self.stdout.write(f"  {username:<12} {roles}{where}")
