"""Which module keeps which card-room game's score. Modules export ``GAMES`` (name → ScoredGame)."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import tables.scoring
from tables.scoring.base import ScoredGame
from tables.scoring.refusals import N_, ScoringError

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
        raise ScoringError("unknown_game", N_("no score sheet for %(value)s (games: %(games)s)"), field="game",
                           value=name, games=sorted(all_games()))
    return game
