from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connection

from accounting.demo import play_day
from cardroom.demo import build_card_room
from floor.templatetags.croupier import demo_day_writer
from players.demo import play_counter, play_side_bettor
from slots.demo import build_slot_floor
from tables.demo import DEMO_PASSWORD, DEMO_PIN, build_demo_floor
from tables.models import Round

# seconds: a busy request polls for the lock every 1–100 ms (SQLite's busy handler), a round holds it for tens
PAUSE_BEFORE_BEGIN = 0.02


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
        parser.add_argument("--if-empty", action="store_true",
                            help="simulate only if no round was ever played (or a day written in the background "
                                 "was stopped before its end: it is taken up again)")
        parser.add_argument("--background", action="store_true",
                            help="build the floor, then write the day in a process of its own and return at once "
                                 "(`make run` serves meanwhile; the screens say the day is still being written)")
        parser.add_argument("--beside-server", action="store_true",
                            help="(what --background starts) on SQLite, a pause before each transaction, so that "
                                 "the server's requests are not kept waiting to write")

    def handle(self, *args: Any, **options: Any) -> None:
        demo = build_demo_floor()
        build_slot_floor(actor=demo.users["pitboss"])
        rounds = options["rounds"]
        # the marker is the background writer's alone (--background starts it, --beside-server is it)
        marker = Path(settings.DEMO_DAY_MARKER) if settings.DEMO_DAY_MARKER else None
        if options["background"]:
            writer = demo_day_writer()
            interrupted = marker is not None and marker.exists() and writer is None  # a day stopped half-written
            if writer is not None:
                rounds = 0  # being written by the one started before
            elif options["if_empty"] and Round.objects.exists() and not interrupted:
                rounds = 0
        elif options["if_empty"] and Round.objects.exists():
            rounds = 0
        started = time.perf_counter()
        day = None
        counter_rounds = side_rounds = 0
        if rounds > 0 and options["background"]:
            self._write_in_background(rounds, options)
            rounds = 0
        elif rounds > 0:
            beside = marker if options["beside_server"] else None
            if beside is not None:
                beside.parent.mkdir(parents=True, exist_ok=True)
                beside.write_text(str(os.getpid()))
            try:
                with self._beside_server(options["beside_server"]):
                    side: list[int] = []

                    def side_bets(shift: Any) -> None:
                        # a baccarat player whose side bets follow the cards left, and a corrected pay list, before
                        # the void the day leaves pending at the baccarat table
                        side.append(play_side_bettor(demo.tables, shift, manager=demo.users["pitboss"],
                                                     rounds_n=min(30, max(6, rounds)), seed=options["seed"]))

                    day = play_day(demo, rounds_per_shift=rounds, earlier_shifts=max(options["shifts"], 0),
                                   seed=options["seed"], before_open_end=side_bets)
                    side_rounds = sum(side)
                    # a rated Hi-Lo counter at blackjack, so the advantage-play screens have something to show
                    if demo.shift is not None:
                        # a shoe for every 6 rounds a shift, up to 10 (make run's 60: about 290 rounds)
                        counter_rounds = play_counter(demo.tables, demo.shift, manager=demo.users["pitboss"],
                                                      shoes_n=min(10, max(1, rounds // 6)), seed=options["seed"])
            finally:
                if beside is not None:
                    beside.unlink(missing_ok=True)
            build_card_room(demo.users)  # the day's card room: sheets and a tournament, filled in
        took = time.perf_counter() - started
        if options["quiet"]:
            return
        self.stdout.write(f"Demo floor: {len(demo.tables)} tables, shift {demo.shift}")
        if options["background"] and demo_day_writer() is not None:
            self.stdout.write("The demo's day is being written in the background (a few minutes; the screens say "
                              "so until it is done)")
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
        if counter_rounds:
            self.stdout.write(f"Advantage play: a rated Hi-Lo counter dealt {counter_rounds} rounds at blackjack")
        if side_rounds:
            self.stdout.write(f"Side bets: a rated baccarat player's pair and tie bets over {side_rounds} rounds, "
                              "and one pay list corrected by the pit manager")
        self.stdout.write(f"Demo logins (password for all: {DEMO_PASSWORD}; signing PIN for all: {DEMO_PIN}):")
        for username, user in demo.users.items():
            roles = ", ".join(user.groups.values_list("name", flat=True))
            table = user.assignments.filter(shift=demo.shift).select_related("table").first()
            where = f" at {table.table.code}" if table else ""
            self.stdout.write(f"  {username:<12} {roles}{where}")

    def _write_in_background(self, rounds: int, options: dict[str, Any]) -> None:
        """The day in a process of its own (this command again, without ``--background``), its output in a log
        beside the marker; the marker names it from the start, so the first page served already says so."""
        marker = Path(settings.DEMO_DAY_MARKER or Path(settings.BASE_DIR) / "var" / "demo-day.pid")
        marker.parent.mkdir(parents=True, exist_ok=True)
        argv = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "demo", "--rounds", str(rounds),
                "--shifts", str(options["shifts"]), "--seed", str(options["seed"]), "--quiet", "--beside-server"]
        with open(marker.with_suffix(".log"), "a") as log:
            child = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     env={**os.environ, "DEMO_DAY_MARKER": str(marker)})
        marker.write_text(str(child.pid))

    @staticmethod
    @contextmanager
    def _beside_server(beside: bool) -> Iterator[None]:
        """SQLite has one writer at a time, and a writer that begins again the moment it commits can keep a
        request waiting out its busy timeout: before each transaction the day pauses long enough for a
        waiting request to take its turn."""
        if not beside:
            yield
            return

        def pause_before_begin(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            if sql.startswith("BEGIN"):
                time.sleep(PAUSE_BEFORE_BEGIN)
            return execute(sql, params, many, context)

        if connection.vendor != "sqlite":
            yield
            return
        with connection.execute_wrapper(pause_before_begin):
            yield
