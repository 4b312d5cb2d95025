"""The typed step (tables/engines/result.py, ``Step``): every step every game asks for reads as typed
attributes of their declared types, and writes back the engine's JSON key for key, in the same order."""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import types
import typing
from collections.abc import Mapping
from typing import Any, ForwardRef, get_args, get_origin, get_type_hints

import pytest

from tables.engines import step as step_module
from tables.engines.registry import available_games, get_engine
from tables.engines.result import RoundResult
from tables.engines.step import Betting, HandSlot, HighBid, MessagePart, Option, Step, StepInput
from tables.simulation.autoplay import play_round
from tests.engines.helpers import table_config

ROUNDS = 6  # rounds in a row of each game, each one's every step (one per event)
PARTS = (Step, StepInput, MessagePart, Option, HandSlot, HighBid, Betting)


class StepRecorder:
    """An engine that keeps the JSON of every step it answers while autoplay plays rounds through it."""

    def __init__(self, engine: Any) -> None:
        self.engine, self.steps = engine, []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def play(self, rnd: Any) -> Any:
        answer = self.engine.play(rnd)
        step = answer.to_json()["next"]
        if step is not None:
            self.steps.append(step)
        return answer


def steps_of(game: str) -> list[dict[str, Any]]:
    """The steps of a few rounds in a row of ``game``, each round starting with what the last handed on."""
    engine = get_engine(game)
    recorder = StepRecorder(engine)
    config, events = table_config(game), []
    rng = random.Random(f"steps:{game}")
    for _ in range(ROUNDS):
        doc = play_round(recorder, config, rng, events=events)  # type: ignore[arg-type]
        carry, players = engine.carry_over(engine.result(doc).to_json())
        config, events = {**config, **carry}, ([{"players": players}] if players else [])
    return recorder.steps


def conforms(value: object, hint: Any) -> bool:
    """Whether ``value`` is of the declared type ``hint`` (the types tables/engines/result.py uses)."""
    if isinstance(hint, ForwardRef | str):  # JsonValue's own members name it
        hint = getattr(step_module, hint.__forward_arg__ if isinstance(hint, ForwardRef) else hint)
    origin, args = get_origin(hint), get_args(hint)
    if hint is None or hint is type(None):
        return value is None
    if origin in (typing.Union, types.UnionType):
        return any(conforms(value, arg) for arg in args)
    if origin is tuple:
        assert args[1] is Ellipsis, hint
        return isinstance(value, tuple) and all(conforms(v, args[0]) for v in value)
    if origin is list:
        return isinstance(value, list) and all(conforms(v, args[0]) for v in value)
    if origin in (dict, Mapping):
        return isinstance(value, Mapping) and all(isinstance(k, str) and conforms(v, args[1]) for k, v in value.items())
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    assert isinstance(hint, type), hint
    if hint in PARTS:
        return isinstance(value, hint) and typed(value)
    return isinstance(value, hint)


@functools.cache
def hints_of(part_type: type) -> dict[str, Any]:
    return get_type_hints(part_type)


def typed(part: object) -> bool:
    """Whether every attribute of a typed part of a step is of its declared type, and it holds no extras
    (a key an engine writes is a typed attribute, not a leftover)."""
    hints = hints_of(type(part))
    for f in dataclasses.fields(part):  # type: ignore[arg-type]
        value = getattr(part, f.name)
        assert conforms(value, hints[f.name]), (type(part).__name__, f.name, value)
    assert not part.extras, (type(part).__name__, part.extras)  # type: ignore[attr-defined]
    return True


@pytest.mark.parametrize("game", available_games())
def test_every_step_of_every_game_reads_typed_and_writes_the_engine_s_json_in_order(game):
    # given every step of a few rounds in a row of the game (as the API returns them: JSON)
    steps = steps_of(game)
    assert steps, game
    for step_json in steps:
        stored = json.loads(json.dumps(step_json))
        # when it is read as a typed step
        step = Step.of(stored)
        # then it writes back the engine's JSON, key for key and in the same order (nested objects too)
        again = step.to_json()
        assert again == step_json
        assert list(again) == list(step_json)
        assert json.dumps(again) == json.dumps(step_json)
        if step.input is not None:
            assert list(step.input.to_json()) == list(step_json["input"])
        # and every attribute is of its declared type, with nothing left over as an extra
        assert typed(step)
        assert step.expect in {"card", "action", "dice", "bid"}
        # and the step as the dealer is told it is the same without the screen's input
        assert step.said() == {k: v for k, v in step_json.items() if k != "input"}


def test_the_typed_step_reads_what_the_code_outside_the_engines_asks_of_it():
    # given a blackjack round dealt to its first choice
    engine = get_engine("blackjack")
    doc = {"game": "blackjack", "config": table_config("blackjack"),
           "bets": [{"id": "b1", "seat": 2, "type": "bet", "amount": 1000}],
           "events": [{"card": c} for c in ("9S", "6D", "7H")]}
    step = engine.result(doc).next
    # then its keys are typed attributes: whose turn, what may be done, the screen's choice
    assert step is not None
    assert step.input is not None
    assert (step.expect, step.seat, step.hand) == ("action", 2, 0)
    assert "hit" in step.allowed
    assert isinstance(step.allowed, tuple)
    assert step.input.kind == "choice"
    assert [o.value for o in step.input.options] == list(step.allowed)
    assert step.message[0].id
    assert step.message_json == step.to_json()["message"]


@pytest.mark.parametrize(("doc", "refused", "named"), [
    ({"say": "Deal"}, TypeError, "expect"),
    ({"expect": 3}, TypeError, "expect"),
    ({"expect": "action", "seat": "2"}, TypeError, "seat"),
    ({"expect": "action", "seat": True}, TypeError, "seat"),
    ({"expect": "action", "allowed": "hit"}, TypeError, "allowed"),
    ({"expect": "action", "allowed": ["hit", 2]}, TypeError, r"allowed\[1\]"),
    ({"expect": "action", "pot_empty": 1}, TypeError, "pot_empty"),
    ({"expect": "card", "message": [{"id": "deal", "params": []}]}, TypeError, r"message\[0\]\.params"),
    ({"expect": "card", "input": {"kind": "cards"}}, ValueError, r"input\.kind"),
    ({"expect": "card", "input": {"kind": "card", "to": "player", "deck": "tarot"}}, ValueError, r"input\.deck"),
    ({"expect": "card", "input": {"to": "player"}}, TypeError, r"input\.kind"),
    ({"expect": "card", "input": {"kind": "amount", "min": "1"}}, TypeError, r"input\.min"),
    ({"expect": "card", "betting": {"turn": "3"}}, TypeError, r"betting\.turn"),
    ({"expect": "bid", "high_bid": {"seat": 1}}, TypeError, r"high_bid\.amount"),
])
def test_a_step_of_the_wrong_shape_is_refused_naming_the_key(doc, refused, named):
    with pytest.raises(refused, match=named):
        Step.of(doc)


def test_a_key_no_engine_writes_is_kept_as_written_in_its_place():
    # given a stored step with a key no engine writes now (between two it does)
    doc = {"expect": "card", "legacy": {"a": [1]}, "to": "player", "say": "Deal"}
    step = Step.of(doc)
    # then it is kept as an extra, and written back where it was
    assert step.extras == {"legacy": {"a": [1]}}
    assert list(step.to_json()) == list(doc)
    assert step.to_json() == doc


def test_a_stored_answer_reads_its_step_typed():
    # given a stored answer awaiting a card
    doc = {"status": "awaiting", "next": {"expect": "card", "to": "banker", "say": "Deal", "message": [],
                                          "input": {"kind": "card", "to": "banker", "deck": "standard"}},
           "hands": {}, "outcome": None, "bets": [], "house": None}
    answer = RoundResult.of_json(doc)
    assert answer.next is not None
    assert answer.next.input is not None
    assert (answer.next.to, answer.next.input.deck, answer.say) == ("banker", "standard", "Deal")
    assert answer.to_json() == doc
