"""Every refusal carries the facts its message states as plain values (``EngineError.params``), so a
screen words it itself with money in major units; amounts are whole minor units."""

from __future__ import annotations

import ast
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tables.engines.errors import ERROR_CODES, EngineError
from tables.engines.inputs import fill
from tables.engines.registry import available_games, get_engine
from tables.simulation.autoplay import play_round
from tests.engines.helpers import refusal, table_config

ROOT = Path(__file__).resolve().parents[2]
# refusals about money and limits: every number their message states is in their params
MONEY_CODES = {"bad_amount", "under_table_min", "over_table_max", "over_pot", "over_bank", "card_exhausted"}



def values(params: Any) -> Iterator[Any]:
    if isinstance(params, dict):
        for v in params.values():
            yield from values(v)
    elif isinstance(params, list | tuple):
        for v in params:
            yield from values(v)
    else:
        yield params


def test_a_bet_over_the_table_maximum_says_the_amount_and_the_limit():
    # given a baccarat table with a 10,000 maximum
    doc = {"game": "baccarat", "config": {"max_bet": 10_000},
           "bets": [{"id": "b1", "seat": 3, "type": "player", "amount": 10_001}], "events": []}
    # when the round is played, then it is refused with the numbers as params
    error = refusal(doc)
    assert (error.code, error.field) == ("over_table_max", "bets[0].amount")
    assert error.params == {"bet": "b1", "seat": 3, "type": "player", "amount": 10_001, "max": 10_000}
    assert error.as_dict()["params"] == error.params


def test_a_pot_bet_over_the_pot_says_the_pot():
    # given an In-Between pot of two antes and the ends turned
    doc = {"game": "in_between", "bets": [{"id": "a1", "seat": 1, "type": "ante", "amount": 1},
                                          {"id": "a2", "seat": 2, "type": "ante", "amount": 1}],
           "events": [{"card": "3S"}, {"card": "QH"}, {"bet": {"id": "p1", "seat": 1, "type": "pot_bet", "amount": 3}}]}
    # when seat 1 bets more than the pot, then the refusal names the bet, the amount and the pot
    error = refusal(doc)
    assert (error.code, error.event) == ("over_pot", 2)
    assert error.params == {"bet": "p1", "amount": 3, "pot": 2}


def test_insurance_over_half_the_bet_says_the_bounds():
    # given an ace up and seat 1's bet of 100
    doc = {"game": "blackjack", "bets": [{"id": "b1", "seat": 1, "type": "bet", "amount": 100}],
           "events": [{"card": "TS"}, {"card": "AH"}, {"card": "9D"}, {"seat": 1, "action": "insurance", "amount": 51}]}
    # when 51 is taken as insurance, then the bounds are in the params
    error = refusal(doc)
    assert (error.code, error.event) == ("bad_amount", 3)
    assert error.params == {"min": 1, "max": 50, "amount": 51}


def test_a_card_the_shoe_no_longer_holds_says_the_card_and_the_decks():
    # given a one-deck game where the king of spades is dealt twice
    doc = {"game": "trente_et_quarante", "config": {"decks": 1},
           "bets": [{"id": "b1", "seat": 1, "type": "noir", "amount": 100}],
           "events": [{"card": "KS"}, {"card": "KS"}]}
    # then the refusal names the card and how many decks the shoe holds
    error = refusal(doc)
    assert (error.code, error.event) == ("card_exhausted", 1)
    assert error.params == {"card": "KS", "decks": 1}


def wrong_events(step: dict[str, Any]) -> list[dict[str, Any]]:
    """Events a dealer might post wrongly at this step."""
    inp = step["input"]
    events: list[dict[str, Any]] = [
        {"card": "AS"}, {"card": "ZZ"}, {"card": "AS", "to": "nowhere"}, {"seat": 9, "action": "hit"},
        {"bet": {"id": "x1", "seat": 1, "type": "pot_bet", "amount": 10**9}}, {"dice": [7, 1, 1]},
        {"bid": {"seat": 1, "horse": "S", "amount": 1}}, {"nothing": 1},
    ]
    if inp["kind"] == "amount":
        events += [fill(inp["event"], inp["path"], inp["min"] - 1), fill(inp["event"], inp["path"], inp["max"] + 1)]
    for opt in inp.get("options", []):
        if isinstance(opt["event"].get("seat"), int):
            events.append({**opt["event"], "seat": opt["event"]["seat"] + 1})
    return events


@pytest.mark.parametrize("game", available_games())
def test_every_refusal_is_plain_json_and_money_refusals_state_their_numbers(game):
    engine = get_engine(game)
    doc = play_round(engine, table_config(game), random.Random(f"errors:{game}"))
    codes = set()
    for i in range(len(doc["events"])):
        step = engine.play(engine.load({**doc, "events": doc["events"][:i]})).to_json()["next"]
        for wrong in wrong_events(step):
            # when a wrong event is posted at this step
            try:
                engine.play(engine.load({**doc, "events": [*doc["events"][:i], wrong]}))
            except EngineError as exc:
                # then the refusal is plain JSON, and a money refusal carries every number it states
                json.dumps(exc.as_dict())
                codes.add(exc.code)
                if exc.code in MONEY_CODES:
                    message = re.sub(r"^event \d+: ", "", exc.message)
                    stated = {int(n) for n in re.findall(r"(?<![\w.])\d+(?![\w.])", message)}
                    assert stated <= set(values(exc.params)), (exc.message, exc.params)
    assert codes


def test_every_code_an_engine_raises_is_listed_with_its_meaning():
    # given every EngineError an engine module raises, by its code
    raised = set()
    for path in (ROOT / "tables" / "engines").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("EngineError", "BetSetError") and node.args
                    and isinstance(node.args[0], ast.Constant)):
                raised.add(node.args[0].value)
    # then each is in ERROR_CODES (the list a screen words for the dealer), and nothing else is
    assert raised == set(ERROR_CODES)
