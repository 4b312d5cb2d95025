"""Which module plays which game. Modules are imported on first use.

A game is added by its engine module alone: a line in :data:`GAME_MODULES` and the module's
``ENGINE`` (or ``ENGINES``), whose ``profile`` tells the services, accounting, the floor and the
screens everything else (docs/extending.md). :func:`register` plays an engine defined elsewhere (a
test's toy game) under its name until :func:`unregister`.
"""

from __future__ import annotations

import importlib
from typing import Any

from tables.engines.base import Engine, Json
from tables.engines.errors import EngineError
from tables.engines.result import RoundResult

# game name (as in the round document) → module under tables.engines that defines ENGINE
# (or ENGINES, a dict of name → engine, for modules that play several related games)
GAME_MODULES: dict[str, str] = {
    "baccarat": "baccarat",
    "chemin_de_fer": "chemin_de_fer",
    "blackjack": "blackjack",
    "pontoon": "blackjack",
    "pai_gow_poker": "pai_gow",
    "pusoy": "pusoy",
    "caribbean_stud": "caribbean_stud",
    "let_it_ride": "let_it_ride",
    "red_dog": "pot_games",
    "in_between": "pot_games",
    "faro": "faro",
    "stuss": "faro",
    "trente_et_quarante": "trente_et_quarante",
    "carousel": "carousel",
    "pony": "carousel",
    "merry_go_round": "carousel",
    "horse_race": "horse_race",
    "calcutta_horse_race": "horse_race",
}

_cache: dict[str, Engine] = {}
_registered: dict[str, Engine] = {}


def register(engine: Engine) -> None:
    """Play ``engine`` under ``engine.name`` (which no module plays) until :func:`unregister`."""
    if engine.name in GAME_MODULES:
        raise ValueError(f"{engine.name} is played by tables.engines.{GAME_MODULES[engine.name]}")
    _registered[engine.name] = _cache[engine.name] = engine


def unregister(name: str) -> None:
    _registered.pop(name, None)
    _cache.pop(name, None)


def _load(game: str) -> Engine | None:
    module_name = GAME_MODULES.get(game)
    if module_name is None:
        return None
    try:
        module = importlib.import_module(f"tables.engines.{module_name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"tables.engines.{module_name}":
            return None
        raise
    engines = getattr(module, "ENGINES", None)
    if engines is not None:
        found: Engine | None = engines.get(game)
        return found
    engine = getattr(module, "ENGINE", None)
    return engine if engine is not None and engine.name == game else None


def get_engine(game: Any) -> Engine:
    if not isinstance(game, str):
        raise EngineError("unknown_game", "game must be the name of a game, e.g. 'baccarat'", field="game")
    engine = _cache.get(game)
    if engine is None:
        engine = _load(game)
        if engine is None:
            raise EngineError("unknown_game", f"no engine plays '{game}' (games: {', '.join(available_games())})",
                              field="game", params={"game": game, "games": available_games()})
        _cache[game] = engine
    return engine


def available_games() -> list[str]:
    return [g for g in [*GAME_MODULES, *_registered] if _cache.get(g) is not None or _load(g) is not None]


def result(doc: Any) -> RoundResult:
    """Validate and play a whole round document: the engine's typed answer (services read this)."""
    if not isinstance(doc, dict):
        raise EngineError("bad_document", "a round document must be a JSON object")
    unknown = set(doc) - {"game", "config", "bets", "events"}
    if unknown:
        raise EngineError("bad_document", f"unknown field(s) in the round document: {', '.join(sorted(unknown))}",
                          params={"fields": sorted(unknown)})
    engine = get_engine(doc.get("game"))
    return engine.answer(engine.load(doc))


def play(doc: Any) -> Json:
    """Validate and play a whole round document: its answer as JSON (the API and ``settle_round``)."""
    return result(doc).to_json()
