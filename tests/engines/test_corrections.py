"""A bet placed between stages corrected or withdrawn before the next card (tables/engines/base.py
fold_corrections): the engine replays the correction, and refuses it once a card has followed."""

from __future__ import annotations

from typing import Any

import pytest

from tables.engines import registry
from tables.engines.errors import EngineError

FOUNDATIONS = [{"card": c} for c in "3 4 6 7 8 9".split()]


def count(bet_id: str, seat: int, number: int, **more: Any) -> dict[str, Any]:
    return {"bet": {"id": bet_id, "seat": seat, "type": "count", "number": number, "amount": 1, **more}}


def play(events: list[dict[str, Any]], **config: Any) -> dict[str, Any]:
    return registry.play({"game": "carousel", "config": {"limit": 1, **config}, "events": events})


def refusal(events: list[dict[str, Any]], **config: Any) -> EngineError:
    with pytest.raises(EngineError) as caught:
        play(events, **config)
    return caught.value


def test_a_count_bet_corrected_before_the_next_card_plays_as_corrected_in_its_place():
    # given seat 1 bet on 4, then seat 2 on 4, and seat 1's bet corrected to 5 before the deal
    events = [*FOUNDATIONS, count("a", 1, 4), count("b", 2, 4), count("a2", 1, 5, replaces="a")]
    deal = [{"card": c} for c in "10 10 10 6 8 7".split()]  # five hands survive
    # when the deal round is dealt
    out = play([*events, *deal], seats=2)
    # then the corrected bet wins (5 survivors), the first bet no longer plays, and the turn order held
    rows = {r["id"]: (r["seat"], r["number"], r["result"]) for r in out["bets"]}
    assert rows == {"a2": (1, 5, "win"), "b": (2, 4, "lose")}


def test_a_bet_withdrawn_before_the_next_card_no_longer_plays():
    events = [*FOUNDATIONS, count("a", 1, 4), {"withdraw": {"bet": "a", "reason": "Entered by mistake"}}]
    out = play(events)
    assert out["next"]["betting"]["placed"] == []
    assert out["bets"] == []


def test_a_correction_after_a_card_is_refused_and_names_the_bet():
    # given a faro bet placed, then a turn dealt
    doc = {"game": "faro", "config": {}, "bets": [], "events": [{"card": "KS"}]}
    bet = {"bet": {"id": "f1", "seat": 1, "type": "rank", "rank": "5", "amount": 500}}
    later = {"bet": {"id": "f2", "seat": 1, "type": "rank", "rank": "5", "amount": 700, "replaces": "f1"}}
    # the correction is taken before the next card
    ok = {**doc, "events": [*doc["events"], bet, later]}
    assert registry.play(ok)["status"] == "awaiting"
    rnd = registry.get_engine("faro").load(ok)
    assert (rnd.events[-1]["bet"]["id"], rnd.events[-1]["bet"]["amount"], rnd.origins) == ("f2", 700, (0, 2))
    # when a card came between / then refused
    with pytest.raises(EngineError) as caught:
        registry.play({**doc, "events": [*doc["events"], bet, {"card": "2H"}, {"card": "7C"}, later]})
    err = caught.value
    assert (err.code, err.event, err.params["bet"], err.params["reason"]) == ("correction_too_late", 4, "f1", "card_since")


def test_a_correction_of_no_bet_in_play_or_of_another_seat_is_refused():
    events = [*FOUNDATIONS, count("a", 1, 4)]
    assert refusal([*events, count("z", 1, 5, replaces="nope")]).code == "no_such_bet"
    assert refusal([*events, {"withdraw": {"bet": "a"}}, {"withdraw": {"bet": "a"}}]).code == "no_such_bet"
    assert refusal([*events, count("a2", 2, 5, replaces="a")]).code == "bad_event"


def test_a_refusal_after_a_correction_names_the_event_by_its_place_in_the_document():
    # given a corrected bet, then a bet from seat 1 again (one count bet a seat a round)
    events = [*FOUNDATIONS, count("a", 1, 4), count("a2", 1, 5, replaces="a"), count("c", 1, 3)]
    err = refusal(events)
    assert (err.code, err.event) == ("bad_bet", 8)
