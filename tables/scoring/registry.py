"""Which module keeps which card-room game's score. Modules export ``GAMES`` (name → ScoredGame)."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import tables.scoring
from tables.engines.errors import EngineError
from tables.scoring.base import ScoredGame

_games: dict[str, ScoredGame] | None = None


def _discover() -> dict[str, ScoredGame]:
    games: dict[str, ScoredGame] = {}
    for info in pkgutil.iter_modules(tables.scoring.__path__):
        if info.name in ("base", "registry"):
            continue
        module = importlib.import_module(f"tables.scoring.{info.name}")
        games.update(getattr(module, "GAMES", {}))
    return games


def all_games() -> dict[str, ScoredGame]:
    global _games
    if _games is None:
        _games = _discover()
    return _games


def get_game(name: Any) -> ScoredGame:
    game = all_games().get(name) if isinstance(name, str) else None
    if game is None:
        raise EngineError("unknown_game", f"no score sheet for {name!r} (games: {', '.join(sorted(all_games()))})",
                          field="game")
    return game
