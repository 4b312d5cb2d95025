"""Helpers the engine tests share: the tables every game is played at, playing a document, a refusal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tables.engines import registry
from tables.engines.errors import EngineError
from tables.engines.speech import Part, Speech

LIMITS = {"min_bet": 500, "max_bet": 50_000}
# the settings a table of each game needs besides its limits (as the demo floor sets them)
CONFIGS: dict[str, dict[str, Any]] = {
    "pontoon": {"banker_seat": 1, "seats": 7},
    "red_dog": {"ante": 500, "forfeit": 500, "rake_bp": 500},
    "in_between": {"ante": 500, "pair_pays": 1_000, "rake_bp": 500},
    "carousel": {"limit": 500, "chip": 100},
    "pony": {"limit": 500, "chip": 100},
    "merry_go_round": {"limit": 500, "chip": 100},
    "calcutta_horse_race": {"min_bid": 500, "min_raise": 100},
}


def table_config(game: str) -> dict[str, Any]:
    """The config of a table of ``game`` with limits."""
    return {**LIMITS, **CONFIGS.get(game, {})}


def without_input(step: dict[str, Any] | None) -> dict[str, Any] | None:
    """A ``next`` without its ``input`` (tests/engines/test_inputs.py checks every input on its own) and
    its ``message``, checked here to be its ``say`` as message ids (tests/engines/test_speech.py)."""
    if step is None:
        return None
    assert said_as_words(step), step
    return {k: v for k, v in step.items() if k not in ("input", "message")}


def said_as_words(doc: dict[str, Any]) -> bool:
    """Whether ``doc`` (a step, a settled round) carries its ``say`` as a ``message`` that writes it."""
    if "say" not in doc:
        return "message" not in doc
    return isinstance(doc.get("message"), list) and message_text(doc["message"]) == doc["say"]


def message_text(message: list[dict[str, Any]]) -> str:
    """A step's ``message`` written in English, as the engine writes ``say``."""
    return Speech(tuple(Part(p["id"], p["params"], p.get("sep", "")) for p in message)).text()


def play(doc: dict[str, Any]) -> dict[str, Any]:
    """Validate and play a round document: the engine's answer as JSON (as the API returns it)."""
    return registry.play(doc)


def refusal_of(call: Callable[..., Any], *args: Any, **kwargs: Any) -> EngineError:
    """The engine's refusal of ``call(*args, **kwargs)`` (the test fails if it is accepted)."""
    with pytest.raises(EngineError) as refused:
        call(*args, **kwargs)
    return refused.value


def refusal(doc: dict[str, Any]) -> EngineError:
    """The engine's refusal of a round document."""
    return refusal_of(play, doc)
