"""``python manage.py edges_table [--write]``: the engines' house edges computed ahead (accounting/edges.json).

A new database (a fresh install, the demo, each test database) would otherwise simulate the slow engines' edges the
first time a shift is reconciled or a slip rated: about a minute on two cores. The table holds the edges for the rules
of the demo's tables and each game's defaults (at the demo's and the default number of seats), under a digest of the
engines' code: once an engine changes, the table is not used (edges are computed as before) until it is written again.
Without ``--write`` it says whether the table is the current engines' (exit 1 when not) and changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from accounting.hold import TABLE, _computed_rows, _key, engines_digest, rules_of, written_table
from tables.demo import SPECS, TableSpec, with_chip
from tables.engines.errors import EngineError
from tables.engines.registry import available_games, get_engine


def rule_sets(game: str) -> list[dict[str, Any]]:
    """The rules a round of ``game`` plays with at a demo table and at a table left at the game's defaults."""
    engine = get_engine(game)
    spec = SPECS.get(game, TableSpec())
    seated = any(s.name == "seats" for s in engine.settings)
    found: dict[str, dict[str, Any]] = {}
    for config, seats in ((with_chip(game, spec.config), spec.seats), ({}, TableSpec().seats)):
        try:
            resolved = engine.resolve_config({**config, **({"seats": seats} if seated else {})})
        except EngineError:
            continue
        rules = rules_of(resolved)
        found[_key(rules)] = rules
    return list(found.values())


class Command(BaseCommand):
    help = "Write (--write) or check accounting/edges.json, the engines' house edges computed ahead."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--write", action="store_true", help="compute every edge and write the table")

    def handle(self, *args: Any, **options: Any) -> None:
        digest = engines_digest()
        if not options["write"]:
            if written_table().get("engines") != digest:
                raise CommandError(f"{TABLE.name} was computed by other engines than these: "
                                   "run `python manage.py edges_table --write`")
            self.stdout.write(f"{TABLE.name} is the current engines' edges")
            return
        edges: dict[str, dict[str, list[dict[str, str]]]] = {}
        for game in available_games():
            if not get_engine(game).banked:
                continue
            for rules in rule_sets(game):
                rows = _computed_rows(game, rules, _key(rules))
                if all("bet" in row for row in rows):
                    edges.setdefault(game, {})[_key(rules)] = rows
            self.stdout.write(f"{game}: {len(edges.get(game, {}))} rule sets")
        TABLE.write_text(json.dumps({"engines": digest, "edges": edges}, indent=1, sort_keys=True) + "\n")
        self.stdout.write(f"wrote {TABLE}")
