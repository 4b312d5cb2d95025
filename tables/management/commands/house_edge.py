"""Print the house edge of every bet of a game and how it was obtained.

    python manage.py house_edge baccarat
    python manage.py house_edge baccarat --config '{"decks": 6, "tie_pays": 9}'
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand

from tables.engines.errors import EngineError
from tables.engines.registry import available_games, get_engine


class Command(BaseCommand):
    help = "House edge per bet type: exact enumeration where feasible, else a seeded simulation with its 95 % CI."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("game", help=f"one of: {', '.join(available_games())}")
        parser.add_argument("--config", default="{}", help="rule settings as a JSON object")
        parser.add_argument("--seed", type=int, default=1, help="seed of any simulation")
        parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            config = json.loads(options["config"])
            engine = get_engine(options["game"])
            rows = engine.house_edge(config, seed=options["seed"])
        except json.JSONDecodeError as exc:
            self._fail({"code": "malformed_json", "message": f"--config is not valid JSON: {exc}"})
        except EngineError as exc:
            self._fail(exc.as_dict())
        resolved = engine.resolve_config(config)
        if options["json"]:
            self.stdout.write(json.dumps({"game": engine.name, "config": resolved,
                                          "edges": [r.as_dict() for r in rows]}, indent=2))
            return
        self.stdout.write(f"{engine.title} — house edge per bet")
        changed = {k: v for k, v in resolved.items() if k in config}
        self.stdout.write(f"config: {json.dumps(changed) if changed else 'defaults (docs/games.md)'}")
        width = max(len(r.bet) for r in rows)
        for row in rows:
            d = row.as_dict()
            ci = f"  95% CI [{d['ci95_pct'][0]:.4f} %, {d['ci95_pct'][1]:.4f} %]" if "ci95_pct" in d else ""
            note = f"  ({d['note']})" if "note" in d else ""
            self.stdout.write(f"  {row.bet:<{width}}  {d['edge_pct']:8.4f} %{ci}  — {row.method}{note}")

    def _fail(self, error: dict[str, Any]) -> None:
        self.stderr.write(json.dumps({"error": error}))
        sys.exit(2)
