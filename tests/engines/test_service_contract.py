"""What the round service asks an engine without knowing the game: the checks of a bet at placement,
what a round hands on to the next, the stakes a choice put down, a row's handle."""

from __future__ import annotations

import pytest

from tables.engines import registry
from tables.engines.base import Bet
from tables.engines.errors import EngineError
from tables.engines.registry import get_engine


def refused(engine, config, bets, raw) -> EngineError:
    with pytest.raises(EngineError) as refusal:
        engine.check_new_bet(config, bets, raw)
    return refusal.value


def test_a_bet_is_checked_at_placement_as_closing_the_betting_would():
    # given a baccarat table with limits and one bet down
    engine = get_engine("baccarat")
    config = {"min_bet": 100, "max_bet": 1_000}
    down = [{"id": "b1", "seat": 1, "type": "player", "amount": 500}]
    # when a good bet is placed, then it comes back parsed
    assert engine.check_new_bet(config, down, {"id": "b2", "seat": 2, "type": "tie", "amount": 100}) == (
        Bet("b2", 2, "tie", 100, {})
    )
    # and a bet over the maximum or of a kind the table doesn't offer is refused, naming the bet's own field
    over = refused(engine, config, down, {"id": "b2", "seat": 2, "type": "banker", "amount": 1_001})
    assert (over.code, over.field, over.params["max"]) == ("over_table_max", "amount", 1_000)
    kind = refused(engine, config, down, {"id": "b2", "seat": 2, "type": "dragon", "amount": 100})
    assert (kind.code, kind.field) == ("bad_bet_type", "type")


def test_a_chemin_de_fer_set_is_built_bet_by_bet_but_never_over_the_bank():
    engine = get_engine("chemin_de_fer")
    # given no bet yet: a punto alone does not make a coup, but it is a good bet in itself
    punto = {"id": "p1", "seat": 2, "type": "punto", "amount": 300}
    assert engine.check_new_bet({}, [], punto) == Bet("p1", 2, "punto", 300, {})
    # when the bank comes, the set is complete; then a punto over what the bank covers is refused
    bank = {"id": "k1", "seat": 1, "type": "bank", "amount": 500}
    assert engine.check_new_bet({}, [punto], bank).type == "bank"
    over = refused(engine, {}, [punto, bank], {"id": "p2", "seat": 3, "type": "punto", "amount": 201})
    assert (over.code, over.field, over.params) == ("over_bank", "bets", {"covered": 501, "bank": 500})
    # and a bet wrong in itself is refused even while the set is incomplete
    wrong = refused(engine, {}, [], {"id": "p1", "seat": 2, "type": "punto", "amount": 300, "plays": "yes"})
    assert (wrong.code, wrong.field) == ("bad_bet", "plays")


def test_what_a_round_hands_on_to_the_next():
    # pontoon: the bank passes to the seat the outcome names
    assert get_engine("pontoon").carry_over({"outcome": {"next_banker": 4}, "pool": None}) == ({"banker_seat": 4}, None)
    # a pot game: what is left in the pot
    assert get_engine("red_dog").carry_over({"outcome": {}, "pool": {"carry_out": 1_500}}) == ({"carry_in": 1_500}, None)
    # a Carousel game: the button and the carry, and while a carry is left the players still in
    carousel = get_engine("carousel")
    settled = {"outcome": {"next_game": {"config": {"button": 3, "carry_in": 400, "unknown": 1}, "players": [3, 5]}}}
    assert carousel.carry_over(settled) == ({"button": 3, "carry_in": 400}, [3, 5])
    # a banked game hands nothing on, nor does a table with no settled round
    assert get_engine("baccarat").carry_over({"outcome": {}, "pool": None}) == ({}, None)
    assert carousel.carry_over(None) == ({}, None)


def test_insurance_taken_by_a_choice_becomes_a_bet_of_that_event():
    # given seat 1 insured for 50 against an ace and the round settled
    doc = {"game": "blackjack", "bets": [{"id": "b1", "seat": 1, "type": "bet", "amount": 100}],
           "events": [{"card": "TS"}, {"card": "AH"}, {"card": "9D"}, {"seat": 1, "action": "insurance", "amount": 50},
                      {"action": "peek", "result": "no_blackjack"}, {"seat": 1, "action": "stand"}, {"card": "7C"}]}
    result = registry.result(doc)
    engine = get_engine("blackjack")
    # when the service asks which settled lines no bet placed
    taken = engine.stakes_taken_by_choices(result.lines, doc["events"], {"b1"})
    # then the insurance line is a bet of event 3, and handles count every stake
    assert taken == [(Bet("b1:insurance", 1, "insurance", 50, {"insures": "b1"}), 3)]
    assert [line.staked for line in result.lines] == [100, 50]
    assert result.handle() == 150
