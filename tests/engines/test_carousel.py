"""Carousel, Pony and Merry-Go-Round engines (tables/engines/carousel.py)."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engines import registry
from tables.engines.carousel import ENGINES
from tables.engines.carousel_edge import edge_rows
from tables.engines.errors import EngineError
from tables.engines.money import Rounding
from tables.engines.triangle import TOP_RANK, TriangleShoe, carry_rake, parse_triangle_card, split_pot
from tables.simulation.autoplay import autoplay
from tests.engines.helpers import refusal_of, without_input

TRIANGLE = [str(r) for r in range(1, TOP_RANK + 1) for _ in range(r)]

# The rule book's example game: (count bets by seat, cards of the deal round), seats bet in order from seat 1.
SEED_FOUNDATIONS = "3 4 6 7 8 9"
SEED_ROUNDS = [
    ({1: 4, 2: 4, 3: 5, 4: 6, 5: 0}, "10 10 10 6 8 7"),
    ({1: 2, 2: 2, 3: 3, 4: 1, 5: 0}, "2 8 7 9 10"),
    ({1: 2, 2: 2, 3: 1, 4: 1, 5: 3}, "6 10 1 3 10"),
    ({1: 0, 2: 0, 3: 1, 4: 1, 5: 3}, "9 8 8"),
    ({1: 0, 2: 0, 3: 1, 4: 1, 5: 2}, "7 5 7"),
    ({1: 0, 2: 0, 3: 0, 4: 1}, "7 9"),  # the big winner (seat 5) has withdrawn
]


def cards(text: str) -> list[dict[str, Any]]:
    return [{"card": c} for c in text.split()]


def count_bets(round_no: int, numbers: dict[int, int], amount: int) -> list[dict[str, Any]]:
    return [
        {"bet": {"id": f"r{round_no}s{seat}", "seat": seat, "type": "count", "number": n, "amount": amount}}
        for seat, n in numbers.items()
    ]


def seed_events(amount: int, rounds: int = len(SEED_ROUNDS)) -> list[dict[str, Any]]:
    events = cards(SEED_FOUNDATIONS)
    for r, (numbers, deal) in enumerate(SEED_ROUNDS[:rounds], 1):
        events += count_bets(r, numbers, amount) + cards(deal)
    return events


def play(events: list[dict[str, Any]], game: str = "carousel", **config: Any) -> dict[str, Any]:
    return registry.play({"game": game, "config": config, "events": events})


def refused(events: list[dict[str, Any]], game: str = "carousel", **config: Any) -> EngineError:
    return refusal_of(play, events, game, **config)


def rows_by_id(out: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["id"]: row for row in out["bets"]}


# -- the triangle deck ----------------------------------------------------------------------


@pytest.mark.parametrize(("text", "rank"), [("1", 1), ("10", 10), (" 7 ", 7)])
def test_parse_triangle_card_reads_ranks_1_to_10(text, rank):
    # given / when / then
    assert parse_triangle_card(text) == rank


@pytest.mark.parametrize("text", ["0", "11", "A", "7S", "07", "", 7, None, "1.0"])
def test_parse_triangle_card_refuses_anything_else(text):
    # given / when
    with pytest.raises(EngineError) as info:
        parse_triangle_card(text)
    # then
    assert info.value.code == "bad_card"


def test_triangle_shoe_holds_rank_n_n_times():
    # given
    shoe = TriangleShoe()
    # when
    for _ in range(3):
        shoe.take(3)
    # then
    assert shoe.remaining() == 52
    with pytest.raises(EngineError) as info:
        shoe.take(3)
    assert info.value.code == "card_exhausted"


# -- pool arithmetic --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pot", "winners", "chip", "expected"),
    [(9, 1, 1, (9, 0)), (9, 2, 1, (4, 1)), (10, 3, 1, (3, 1)), (500, 3, 100, (100, 200)), (7, 7, 1, (1, 0))],
)
def test_split_pot_pays_whole_chips_and_leaves_the_odd_ones(pot, winners, chip, expected):
    # given / when / then
    assert split_pot(pot, winners, chip) == expected


@pytest.mark.parametrize(
    ("carry", "bp", "rounding", "chip", "rake"),
    [
        (0, 1000, Rounding.UP, 1, 0),
        (1, 1000, Rounding.UP, 1, 1),  # a lone odd chip goes whole to the house
        (5, 1000, Rounding.UP, 1, 1),
        (10, 1000, Rounding.UP, 1, 1),
        (11, 1000, Rounding.UP, 1, 2),
        (5, 1000, Rounding.DOWN, 1, 0),
        (15, 1000, Rounding.HALF_UP, 1, 2),
        (15, 1000, Rounding.HALF_EVEN, 1, 2),
        (25, 1000, Rounding.HALF_EVEN, 1, 2),
        (2500, 1000, Rounding.UP, 100, 300),  # 10 % of 25 chips of 100, rounded up to 3 chips
        (7, 0, Rounding.UP, 1, 0),
        (7, 10_000, Rounding.UP, 1, 7),
    ],
)
def test_carry_rake_is_a_share_of_the_carry_in_whole_chips(carry, bp, rounding, chip, rake):
    # given / when / then
    assert carry_rake(carry, bp, rounding, chip) == rake


# -- the rule book's example game ----------------------------------------------------------------


@pytest.mark.parametrize("limit", [1, 2])
def test_seed_example_game_round_by_round(limit):
    # given the rule book's game at a table limit of 1 or 2 chips (so 10 % of the carry rounds up to one chip)
    events = seed_events(limit)
    # when
    out = play(events, limit=limit)
    # then
    rounds = out["outcome"]["rounds"]
    assert [r["survivors"] for r in rounds] == [5, 5, 3, 3, 2, 1]
    assert [r["died"] for r in rounds] == [[5], [], [2, 6], [], [4], [1]]
    assert [r["count"]["winning_bets"] for r in rounds] == [["r1s3"], [], ["r3s5"], ["r4s5"], ["r5s5"], ["r6s4"]]
    pot = 5 * limit
    assert [r["count"]["pot"] for r in rounds] == [pot, pot, 2 * pot - 1, pot, pot, 4 * limit]
    assert [r["count"]["rake"] for r in rounds] == [0, 1, 0, 0, 0, 0]  # the dealer's one chip
    assert [r["count"]["carry"] for r in rounds] == [0, pot - 1, 0, 0, 0, 0]
    nets = {row["id"]: row["net"] for row in out["bets"] if row["result"] == "win"}
    assert nets == {"r1s3": 4 * limit, "r3s5": 2 * pot - 1 - limit, "r4s5": 4 * limit, "r5s5": 4 * limit,
                    "r6s4": 3 * limit}  # fmt: skip
    assert out["outcome"]["end"] == "one_left"
    assert out["outcome"]["survivors"] == [3]
    assert out["pool"] == {"carry_in": 0, "stakes": 29 * limit, "paid": 29 * limit - 1, "rake": 1, "carry_out": 0}
    assert out["house"] == {"net": 1, "commission": 0, "rake": 1}
    assert sum(row["net"] for row in out["bets"]) == -1


def test_seed_example_game_next_steps_and_decided_bets():
    # given
    events = seed_events(1)
    # when
    start = play([], limit=1)
    mid_foundations = play(events[:3], limit=1)
    betting = play(events[:6], limit=1)
    mid_round3 = play(seed_events(1, rounds=2) + count_bets(3, SEED_ROUNDS[2][0], 1) + cards("6 10 1"), limit=1)
    betting3 = play(seed_events(1, rounds=2), limit=1)
    # then
    assert start["status"] == "awaiting"
    assert without_input(start["next"]) == {"expect": "card", "to": "hand:1", "say": "Deal to hand 1", "round": 0}
    assert mid_foundations["next"]["to"] == "hand:4"
    assert betting["next"]["expect"] == "card"  # bets may come first; the card closes the betting
    assert betting["next"]["say"] == "Betting round 1: take bets"
    assert betting["next"]["betting"]["seats"] is None  # no carry: anyone may join
    assert betting["next"]["to"] == "hand:1"
    assert betting["next"]["round"] == 1
    assert mid_round3["next"]["to"] == "hand:4"
    assert mid_round3["next"]["say"] == "Deal to hand 4"
    assert betting3["next"]["say"] == "Betting round 3: take bets"
    assert betting3["next"]["betting"]["carry"] == 4
    assert betting3["next"]["betting"]["seats"] == [1, 2, 3, 4, 5]
    assert betting3["next"]["betting"]["running"] == [1, 2, 3, 4, 6]
    assert [row["id"] for row in betting3["bets"]] == [f"r{r}s{s}" for r in (1, 2) for s in range(1, 6)]
    assert betting3["pool"]["carry_out"] == 4


def test_seed_example_game_reports_the_next_game():
    # given / when
    out = play(seed_events(1), limit=1)
    # then
    assert out["outcome"]["next_game"] == {"config": {"button": 2, "carry_in": 0}, "players": [2, 3, 4, 1]}
    assert out["say"] == "Hand 3 is the last horse standing: game over. Carry 0 to the next game"
    assert out["hands"]["hand:3"] == {"cards": ["6", "10", "7", "1", "8", "5", "9"], "alive": True,
                                      "died_in_round": None}  # fmt: skip
    assert out["hands"]["hand:5"]["died_in_round"] == 1


def test_more_events_after_the_game_is_over_are_refused():
    # given
    events = seed_events(1) + [{"card": "5"}]
    # when
    err = refused(events, limit=1)
    # then
    assert (err.code, err.event) == ("out_of_turn", len(events) - 1)


# -- rule cells -----------------------------------------------------------------------------


def test_a_hand_holding_a_pair_dies_and_zero_survivors_end_the_game():
    # given two hands that both pair on the first deal
    events = cards("5 6") + count_bets(1, {1: 0, 2: 2}, 1) + cards("5 6")
    # when
    out = play(events, foundations=2, limit=1)
    # then
    assert out["outcome"]["end"] == "none_left"
    assert out["outcome"]["survivors"] == []
    assert rows_by_id(out)["r1s1"]["net"] == 1
    assert out["say"] == "No hand is left: game over. Carry 0 to the next game"


def test_winners_split_the_whole_pot_and_odd_chips_carry_with_rake():
    # given a carry of 4 and three bets, two of them right: pot 7, shares of 3, one odd chip
    events = [{"players": [1, 2, 3]}] + cards("1 2 3") + count_bets(1, {1: 3, 2: 3, 3: 2}, 1) + cards("4 5 6")
    # when
    out = play(events, foundations=3, limit=1, carry_in=4)
    # then the round is decided while the game goes on (three hands still run)
    assert out["status"] == "awaiting"
    assert out["pool"] == {"carry_in": 4, "stakes": 3, "paid": 6, "rake": 1, "carry_out": 0}
    assert rows_by_id(out)["r1s1"] == {"id": "r1s1", "seat": 1, "type": "count", "amount": 1, "result": "win",
                                       "net": 2, "commission": 0, "round": 1, "paid": 3, "number": 3,
                                       "handover": {"at_bet": 1, "pay": 3, "take": 0, "when": "deal"}}  # fmt: skip
    assert rows_by_id(out)["r1s3"]["net"] == -1
    assert out["next"]["betting"]["seats"] is None  # the carry is back to zero: anyone may join


def test_an_unwon_pot_carries_and_the_house_rakes_each_carry_again():
    # given three hands, nobody on the right count twice in a row (limit 10: carries of 20 then 38)
    events = cards("1 2 3") + count_bets(1, {1: 0, 2: 1}, 10) + cards("4 5 6")
    events += count_bets(2, {1: 0, 2: 1}, 10) + cards("7 8 9")
    # when
    out = play(events, foundations=3, limit=10)
    # then the carry of 20 loses 2, then 18 + 20 = 38 loses 4 (3.8 rounded up)
    assert out["pool"] == {"carry_in": 0, "stakes": 40, "paid": 0, "rake": 6, "carry_out": 34}
    assert out["next"]["betting"]["carry"] == 34


def test_rake_rounding_and_rate_are_settings():
    # given the same unwon round of 5 chips
    events = cards("1 2 3") + count_bets(1, {1: 0, 2: 1, 3: 1, 4: 2, 5: 0}, 1) + cards("4 5 6")
    # when
    up = play(events, foundations=3, limit=1)
    down = play(events, foundations=3, limit=1, rake_rounding="down")
    none = play(events, foundations=3, limit=1, rake_bp=0)
    half = play(events, foundations=3, limit=1, rake_bp=5000, rake_rounding="half_even")
    # then
    assert [o["pool"]["rake"] for o in (up, down, none, half)] == [1, 0, 0, 2]
    assert [o["pool"]["carry_out"] for o in (up, down, none, half)] == [4, 5, 5, 3]


def test_chip_setting_pays_and_rakes_whole_chips():
    # given $5 bets in cents at a table whose smallest chip is $1, two winners of 3 bets
    events = cards("1 2 3") + count_bets(1, {1: 3, 2: 3, 3: 2}, 500) + cards("4 5 6")
    # when
    out = play(events, foundations=3, limit=500, chip=100)
    # then 1500 / 2 = 750 → 700 each in whole chips; 100 carries; 10 % rounded up to a chip is 100
    assert out["pool"] == {"carry_in": 0, "stakes": 1500, "paid": 1400, "rake": 100, "carry_out": 0}


def test_chip_setting_refuses_a_limit_or_carry_not_in_whole_chips():
    # given / when
    with pytest.raises(EngineError) as limit_err:
        play([], limit=550, chip=100)
    with pytest.raises(EngineError) as carry_err:
        play([], limit=500, chip=100, carry_in=50)
    # then
    assert (limit_err.value.code, limit_err.value.field) == ("bad_config", "config.limit")
    assert (carry_err.value.code, carry_err.value.field) == ("bad_config", "config.carry_in")


def test_eight_foundations_take_counts_up_to_eight():
    # given
    events = cards("1 2 3 4 5 6 7 8") + count_bets(1, {1: 8}, 1) + cards("9 9 10 10 10 10 10 10")
    # when
    out = play(events, foundations=8, limit=1)
    # then
    assert out["status"] == "awaiting"
    assert rows_by_id(out)["r1s1"]["result"] == "win"


def test_eight_hands_can_run_the_deck_dry_and_the_game_ends_before_betting():
    # given eight hands that all survive six cards each: 48 dealt, 7 left for 8 hands
    triples = [(7, 6, 5)] * 5 + [(7, 6, 4), (7, 4, 3), (4, 3, 2)]
    stacks = [[7, 6, 5, 8, 9, 10]] + [[10, 9, 8, *t] for t in triples[1:]]
    events = [{"card": str(stacks[h][0])} for h in range(8)]
    for r in range(1, 6):
        events += count_bets(r, {1: 8}, 1) + [{"card": str(stacks[h][r])} for h in range(8)]
    # when
    out = play(events, foundations=8, limit=1)
    # then
    assert out["status"] == "settled"
    assert out["outcome"]["end"] == "shoe_exhausted"
    assert out["outcome"]["survivors"] == list(range(1, 9))
    assert out["pool"]["paid"] == 5


# -- joins, order, the button -----------------------------------------------------------------


def test_new_players_join_only_when_the_carry_is_zero():
    # given round 1 unwon (carry 4), then a newcomer at seat 7 in round 2
    base = cards("1 2 3") + count_bets(1, {1: 0, 2: 1, 3: 1, 4: 2, 5: 0}, 1) + cards("4 5 6")
    events = base + count_bets(2, {1: 0, 7: 1}, 1)
    # when
    err = refused(events, foundations=3, limit=1)
    # then
    assert (err.code, err.event) == ("join_refused", len(events) - 1)
    assert "carry is 4" in err.message
    assert "1, 2, 3, 4, 5" in err.message


def test_a_withdrawn_player_may_not_rejoin_while_there_is_a_carry():
    # given seat 5 sits out round 2 while round 1 left a carry; round 2 is also unwon
    r1 = count_bets(1, {1: 0, 2: 1, 3: 1, 4: 2, 5: 0}, 1)
    r2 = count_bets(2, {1: 0, 2: 1, 3: 1, 4: 2}, 1)
    events = cards("1 2 3") + r1 + cards("4 5 6") + r2 + cards("7 8 9") + count_bets(3, {5: 3}, 1)
    # when
    err = refused(events, foundations=3, limit=1)
    # then
    assert (err.code, err.event) == ("join_refused", len(events) - 1)


def test_anyone_may_join_or_rejoin_when_the_carry_is_zero():
    # given round 1 won in full; seat 5 sat out, seat 9 is new
    events = cards("1 2 3") + count_bets(1, {1: 3, 2: 3}, 1) + cards("4 5 6") + count_bets(2, {5: 3, 9: 3}, 1)
    # when
    out = play(events, foundations=3, limit=1)
    # then
    assert out["status"] == "awaiting"
    assert [p["seat"] for p in out["next"]["betting"]["placed"]] == [5, 9]


def test_a_game_starting_with_a_carry_admits_only_the_listed_players():
    # given a carry from the last game and its players listed first
    events = [{"players": [2, 4]}] + cards("1 2 3") + count_bets(1, {2: 3, 4: 3}, 1)
    # when
    ok = play(events, foundations=3, limit=1, carry_in=9)
    err = refused(events + count_bets(1, {6: 1}, 1)[:1], foundations=3, limit=1, carry_in=9)
    unlisted = refused(cards("1 2 3") + count_bets(1, {2: 3}, 1), foundations=3, limit=1, carry_in=9)
    # then
    assert ok["next"]["betting"]["seats"] == [2, 4]
    assert (err.code, err.event) == ("join_refused", len(events))
    assert (unlisted.code, unlisted.event) == ("join_refused", 3)
    assert '{"players": [...]}' in unlisted.message


def test_the_players_list_comes_once_before_the_first_card():
    # given / when
    late = refused(cards("1") + [{"players": [1]}], foundations=3)
    twice = refused([{"players": [1]}, {"players": [2]}], foundations=3)
    bad = refused([{"players": [1, 1]}], foundations=3)
    # then
    assert (late.code, late.event) == ("out_of_turn", 1)
    assert (twice.code, twice.event) == ("out_of_turn", 1)
    assert (bad.code, bad.event) == ("bad_event", 0)


def test_count_bets_go_in_seat_order_from_the_button():
    # given the button at seat 4: order 4, 5, …, 99, 1, 2, 3
    ok = cards("1 2 3") + count_bets(1, {4: 1, 6: 1, 1: 2, 3: 0}, 1)
    wrong = cards("1 2 3") + count_bets(1, {4: 1, 1: 2, 6: 1}, 1)
    # when
    out = play(ok, foundations=3, limit=1, button=4)
    err = refused(wrong, foundations=3, limit=1, button=4)
    # then
    assert [p["seat"] for p in out["next"]["betting"]["placed"]] == [4, 6, 1, 3]
    assert (err.code, err.event) == ("out_of_turn", 5)
    assert "seat 6 bets after seat 1" in err.message


def test_the_button_moves_to_the_next_player_to_the_left():
    # given players at seats 2, 5 and 8, the button on seat 5 (or 8)
    from_5 = cards("2 3") + count_bets(1, {5: 0, 8: 0, 2: 0}, 1) + cards("2 3")
    from_8 = cards("2 3") + count_bets(1, {8: 0, 2: 0, 5: 0}, 1) + cards("2 3")
    # when
    out = play(from_5, foundations=2, limit=1, button=5)
    wrap = play(from_8, foundations=2, limit=1, button=8)
    # then
    assert out["outcome"]["next_game"]["config"]["button"] == 8
    assert wrap["outcome"]["next_game"]["config"]["button"] == 2


# -- refusals -----------------------------------------------------------------------------


def _betting_round_1(**overrides: Any) -> list[dict[str, Any]]:
    bet = {"id": "x", "seat": 1, "type": "count", "number": 2, "amount": 1} | overrides
    return cards("1 2 3") + [{"bet": bet}]


@pytest.mark.parametrize(
    ("events", "code", "event"),
    [
        (_betting_round_1(amount=2), "bad_amount", 3),
        (_betting_round_1(number=4), "bad_bet", 3),
        (_betting_round_1(number=-1), "bad_bet", 3),
        (_betting_round_1(number="2"), "bad_bet", 3),
        (_betting_round_1(number=True), "bad_bet", 3),
        (_betting_round_1(type="pony", hand=1), "bad_bet_type", 3),
        (_betting_round_1(seat=0), "bad_bet", 3),
        (_betting_round_1(extra=1), "bad_bet", 3),
        (cards("1 2 3") + [{"bet": {"id": "x", "seat": 1, "type": "count", "amount": 1}}], "bad_bet", 3),
        (_betting_round_1() + [{"bet": {"id": "x", "seat": 2, "type": "count", "number": 1, "amount": 1}}],
         "duplicate_bet", 4),
        (_betting_round_1() + [{"bet": {"id": "y", "seat": 1, "type": "count", "number": 1, "amount": 1}}],
         "bad_bet", 4),
        (cards("1") + [{"bet": {"id": "x", "seat": 1, "type": "count", "number": 1, "amount": 1}}],
         "out_of_turn", 1),
        (_betting_round_1() + cards("4") + [{"bet": {"id": "y", "seat": 2, "type": "count", "number": 1,
                                                     "amount": 1}}], "out_of_turn", 5),
        (cards("1 2 11"), "bad_card", 2),
        (cards("1 1"), "card_exhausted", 1),
        (cards("2 2 2"), "card_exhausted", 2),
        ([{"card": "1", "to": "hand:2"}], "out_of_turn", 0),
        ([{"card": "1", "to": "seat:1"}], "bad_event", 0),
        ([{"card": "1", "face": "up"}], "bad_event", 0),
        ([{"card": "1", "bet": {}}], "bad_event", 0),
        ([{"action": "hit"}], "bad_event", 0),
        ([{"bet": "nope"}], "bad_bet", 0),
    ],
)  # fmt: skip
def test_refusals_name_the_code_and_the_event(events, code, event):
    # given / when
    err = refused(events, foundations=3, limit=1)
    # then
    assert (err.code, err.event) == (code, event)


def test_top_level_bets_and_unknown_settings_are_refused():
    # given / when
    with pytest.raises(EngineError) as bets:
        registry.play({"game": "carousel", "bets": [{"id": "a", "seat": 1, "type": "count", "number": 1,
                                                     "amount": 500}]})  # fmt: skip
    with pytest.raises(EngineError) as setting:
        play([], decks=1)
    with pytest.raises(EngineError) as foundations:
        play([], foundations=9)
    # then
    assert bets.value.code == "bad_bet"
    assert setting.value.code == "unknown_setting"
    assert foundations.value.code == "bad_config"


# -- Pony ------------------------------------------------------------------------------------


def pony_bet(bet_id: str, seat: int, hand: int, amount: int = 1, kind: str = "pony") -> dict[str, Any]:
    return {"bet": {"id": bet_id, "seat": seat, "type": kind, "hand": hand, "amount": amount}}


def test_pony_pool_goes_to_the_last_horse_standing():
    # given the rule book's game with pony bets on hands 3 (twice) and 1, and living-win bets
    events = cards(SEED_FOUNDATIONS) + count_bets(1, SEED_ROUNDS[0][0], 1)
    events += [pony_bet("p1", 1, 3), pony_bet("p2", 2, 1), pony_bet("p3", 6, 3),
               pony_bet("w1", 1, 3, 10, "living_win"), pony_bet("w2", 2, 1, 10, "living_win")]  # fmt: skip
    events += cards(SEED_ROUNDS[0][1])
    for r, (numbers, deal) in enumerate(SEED_ROUNDS[1:], 2):
        events += count_bets(r, numbers, 1) + cards(deal)
    # when
    out = play(events, "pony", limit=1)
    # then
    rows = rows_by_id(out)
    assert out["outcome"]["pony"]["winners"] == [3]
    assert (rows["p1"]["net"], rows["p3"]["net"], rows["p2"]["net"]) == (0, 0, -1)
    assert out["outcome"]["pony"]["left"] == 1  # pot 3 over 2 winners: 1 each and an odd chip, raked whole
    assert out["pools"]["pony"] == {"carry_in": 0, "stakes": 3, "paid": 2, "rake": 1, "carry_out": 0}
    assert (rows["w1"]["result"], rows["w1"]["net"], rows["w1"]["paid"]) == ("win", 60, 70)
    assert (rows["w2"]["result"], rows["w2"]["net"]) == ("lose", -10)
    assert out["house"] == {"net": 2 - 50, "commission": 0, "rake": 2}
    assert out["pool"]["rake"] == 2
    assert out["outcome"]["next_game"]["config"] == {"button": 2, "carry_in": 0, "pony_carry_in": 0}


def test_pony_tiebreak_when_all_die_at_once_goes_to_the_higher_recent_card():
    # given hands 1 and 2 die together on pairs of 5 and 7: hand 2's most recent card is higher
    events = cards("5 7 9") + count_bets(1, {1: 0}, 1) + [pony_bet("p1", 1, 1), pony_bet("p2", 2, 2),
                                                           pony_bet("lw", 3, 2, 5, "living_win")]  # fmt: skip
    events += cards("1 2 9")
    events += count_bets(2, {1: 0}, 1) + cards("5 7")
    # when
    out = play(events, "pony", foundations=3, limit=1)
    # then
    assert out["outcome"]["end"] == "none_left"
    assert out["outcome"]["pony"]["winners"] == [2]
    assert out["outcome"]["pony"]["tiebreak"] is True
    assert rows_by_id(out)["p2"]["net"] == 1
    assert rows_by_id(out)["lw"]["result"] == "lose"  # eliminated on the last round: no living win


def test_pony_full_tie_splits_and_an_unbacked_winner_carries_the_pool():
    # given two hands with identical stacks dying together; nobody backed hand 2 in the second game
    tie = cards("5 5") + count_bets(1, {1: 0}, 1) + [pony_bet("p1", 1, 1), pony_bet("p2", 2, 2)] + cards("5 5")
    nobody = cards("5 6") + count_bets(1, {1: 1}, 1) + [pony_bet("p1", 1, 1)] + cards("5 7")
    # when
    split = play(tie, "pony", foundations=2, limit=1, pony_carry_in=1)
    carried = play(nobody, "pony", foundations=2, limit=1, pony_carry_in=10)
    # then
    assert split["outcome"]["pony"]["winners"] == [1, 2]
    assert [split["bets"][i]["net"] for i in (1, 2)] == [0, 0]
    assert split["pools"]["pony"] == {"carry_in": 1, "stakes": 2, "paid": 2, "rake": 1, "carry_out": 0}
    assert carried["outcome"]["pony"]["winners"] == [2]
    assert carried["pools"]["pony"] == {"carry_in": 10, "stakes": 1, "paid": 0, "rake": 2, "carry_out": 9}
    assert carried["outcome"]["next_game"]["config"]["pony_carry_in"] == 9


def test_pony_and_living_win_bets_are_first_round_only_and_living_win_has_table_limits():
    # given
    first = cards("1 2 3") + count_bets(1, {1: 3}, 1)
    second = first + cards("4 5 6") + [pony_bet("late", 2, 1)]
    # when
    late = refused(second, "pony", foundations=3, limit=1)
    low = refused(first + [pony_bet("w", 1, 1, 5, "living_win")], "pony", foundations=3, limit=1, min_bet=10)
    high = refused(first + [pony_bet("w", 1, 1, 50, "living_win")], "pony", foundations=3, limit=1, max_bet=20)
    wrong_hand = refused(first + [pony_bet("p", 1, 4)], "pony", foundations=3, limit=1)
    twice = refused(first + [pony_bet("p", 1, 1), pony_bet("q", 1, 2)], "pony", foundations=3, limit=1)
    # then
    assert (late.code, late.event) == ("out_of_turn", 7)
    assert (low.code, low.event) == ("under_table_min", 4)
    assert (high.code, high.event) == ("over_table_max", 4)
    assert (wrong_hand.code, wrong_hand.event) == ("bad_bet", 4)
    assert (twice.code, twice.event) == ("bad_bet", 5)


def test_living_win_pays_the_setting():
    # given
    events = cards("2 3") + count_bets(1, {1: 1}, 1) + [pony_bet("w", 1, 2, 10, "living_win")] + cards("2 4")
    # when
    out = play(events, "pony", foundations=2, limit=1, living_win_pays=5)
    # then
    assert rows_by_id(out)["w"]["net"] == 50
    assert out["house"]["net"] == -50


# -- Merry-Go-Round ----------------------------------------------------------------------------


def test_high_card_pool_pays_the_hand_drawing_the_highest_card_and_ties_carry():
    # given round 1: hands draw 9, 9, 2 (a tie: the pool carries); round 2: 10 to hand 2 alone
    round1 = (
        cards("1 2 3")
        + count_bets(1, {1: 3}, 10)
        + [pony_bet("h1", 1, 1, 10, "high_card"), pony_bet("h2", 2, 3, 10, "high_card")]
        + cards("9 9 2")
    )
    round2 = count_bets(2, {1: 3}, 10) + [pony_bet("h3", 4, 2, 10, "high_card")] + cards("4 10 5")
    # when
    first = play(round1, "merry_go_round", foundations=3, limit=10)
    out = play(round1 + round2, "merry_go_round", foundations=3, limit=10)
    # then
    assert first["pools"]["high_card"] == {"carry_in": 0, "stakes": 20, "paid": 0, "rake": 2, "carry_out": 18}
    assert out["pools"]["high_card"] == {"carry_in": 0, "stakes": 30, "paid": 28, "rake": 2, "carry_out": 0}
    rows = rows_by_id(out)
    assert (rows["h1"]["net"], rows["h2"]["net"], rows["h3"]["net"]) == (-10, -10, 18)


def test_high_card_round_summary_and_bets_only_on_running_hands():
    # given hand 2 dies in round 1 (its 2 pairs)
    events = cards("1 2 3") + count_bets(1, {1: 2}, 1) + cards("4 2 7")
    # when
    out = play(events, "merry_go_round", foundations=3, limit=1)
    err = refused(events + [pony_bet("h", 1, 2, kind="high_card")], "merry_go_round", foundations=3, limit=1)
    # then
    assert out["status"] == "awaiting"
    assert out["next"]["betting"]["running"] == [1, 3]
    assert out["next"]["betting"]["bet_types"] == ["count", "high_card"]
    assert (err.code, err.event) == ("bad_bet", 7)


def test_merry_go_round_reports_every_carry_for_the_next_game():
    # given / when
    events = [{"players": [1]}] + cards("2 3") + count_bets(1, {1: 0}, 1) + [pony_bet("h", 1, 1, kind="high_card")]
    events += cards("4 5")
    events += count_bets(2, {1: 1}, 1) + cards("2 6")
    out = play(events, "merry_go_round", foundations=2, limit=1, carry_in=2, high_card_carry_in=3,
               pony_carry_in=4)  # fmt: skip
    # then
    assert out["status"] == "settled"
    cfg = out["outcome"]["next_game"]["config"]
    assert set(cfg) == {"button", "carry_in", "pony_carry_in", "high_card_carry_in"}
    total = out["pool"]
    assert total["carry_in"] == 9
    assert total["carry_in"] + total["stakes"] == total["paid"] + total["rake"] + total["carry_out"]


# -- properties over random games ------------------------------------------------------------


def drive_game(
    game: str, deck: list[str], rng: random.Random, config: dict[str, Any], players: list[int] | None = None
) -> list[dict[str, Any]]:
    """Play a whole game with random legal bets from ``rng``, the cards coming from ``deck``."""
    engine = ENGINES[game]
    limit = config.get("limit", 500)
    seats = players if players is not None else rng.sample(range(1, 10), rng.randint(0, 6))
    events: list[dict[str, Any]] = []
    if config.get("carry_in"):
        events.append({"players": seats})
    cards_iter = iter(deck)
    events += [{"card": next(cards_iter)} for _ in range(config.get("foundations", 6))]
    n = 0
    while True:
        out = engine.play(engine.load({"game": game, "config": config, "events": events})).to_json()
        if out["status"] == "settled":
            return events
        nxt = out["next"]["betting"]
        allowed = nxt["seats"] if nxt["seats"] is not None else seats + [rng.randint(1, 99)]
        allowed = sorted(set(allowed), key=lambda s: (s - config.get("button", 1)) % 99)
        betting = [seat for seat in allowed if rng.random() < 0.8]
        for seat in allowed:
            if seat in betting:
                n += 1
                bet = {"id": f"b{n}", "seat": seat, "type": "count", "number": rng.randint(*nxt["numbers"]),
                       "amount": limit}  # fmt: skip
                events.append({"bet": bet})
            elif "turn" in nxt and betting and allowed.index(seat) < allowed.index(betting[-1]):
                events.append({"seat": seat, "action": "pass"})  # a seat sitting out passes before a later seat bets
        used: set[tuple[str, int]] = set()  # pony and high card: one bet per seat and round
        for kind in nxt["bet_types"]:
            for _ in range(rng.randint(0, 3) if kind != "count" else 0):
                seat = rng.randint(1, 99)
                if kind != "living_win" and (kind, seat) in used:
                    continue
                used.add((kind, seat))
                n += 1
                amount = rng.randint(1, 50) if kind == "living_win" else limit
                bet = {"id": f"b{n}", "seat": seat, "type": kind, "hand": rng.choice(nxt["running"]), "amount": amount}
                events.append({"bet": bet})
        events += [{"card": next(cards_iter)} for _ in nxt["running"]]


@st.composite
def configs(draw: Any) -> dict[str, Any]:
    chip = draw(st.sampled_from([1, 1, 5]))
    return {"foundations": draw(st.integers(2, 8)), "chip": chip, "limit": chip * draw(st.sampled_from([1, 2, 5, 100])),
            "rake_bp": draw(st.sampled_from([0, 1000, 1000, 2500])), "carry_in": chip * draw(st.sampled_from([0, 0, 7, 100])),
            "button": draw(st.integers(1, 99)), "rake_rounding": draw(st.sampled_from(["up", "up", "down", "half_up", "half_even"]))}  # fmt: skip


def expected_rake(left: int, bp: int, rounding: str, chip: int) -> int:
    """The rake on a carry, worked out independently of the engine's money helpers."""
    exact = Fraction(left * bp, 10_000 * chip)  # in chips
    chips = {"up": math.ceil(exact), "down": math.floor(exact), "half_up": math.floor(exact + Fraction(1, 2)),
             "half_even": round(exact)}[rounding]  # fmt: skip
    return min(left, chips * chip)


def check_money(out: dict[str, Any], config: dict[str, Any]) -> None:
    pools = out["pools"]
    for pool in [*pools.values(), out["pool"]]:
        assert pool["carry_in"] + pool["stakes"] == pool["paid"] + pool["rake"] + pool["carry_out"]
        assert min(pool.values()) >= 0
    pool_nets = sum(r["net"] for r in out["bets"] if r["type"] != "living_win")
    total = out["pool"]
    assert pool_nets == total["carry_in"] - total["rake"] - total["carry_out"]
    banked = sum(r["net"] for r in out["bets"] if r["type"] == "living_win")
    assert out["house"]["net"] == total["rake"] - banked
    bp, rounding, chip = config.get("rake_bp", 1000), config.get("rake_rounding", "up"), config.get("chip", 1)
    for summary in out["outcome"]["rounds"]:
        for key in ("count", "high_card"):
            if key in summary:
                s = summary[key]
                assert s["rake"] == expected_rake(s["left"], bp, rounding, chip)
                if rounding == "up" and chip == 1 and bp == 1000:
                    assert s["rake"] == math.ceil(s["left"] / 10)  # the rule book's "10 % rounding up"
                assert s["carry"] == s["left"] - s["rake"]
                assert s["pot"] == s["paid"] + s["left"]
                assert s["shares"] == 0 or s["left"] < s["shares"] * chip
                assert s["share"] % chip == 0


@pytest.mark.parametrize("game", ["carousel", "pony", "merry_go_round"])
@settings(max_examples=100, deadline=None)
@given(deck=st.permutations(TRIANGLE), seed=st.integers(0, 2**32), config=configs())
def test_random_games_conserve_every_chip(game, deck, seed, config):
    # given
    events = drive_game(game, deck, random.Random(seed), config)
    # when
    out = registry.play({"game": game, "config": config, "events": events})
    # then
    assert out["status"] == "settled"
    assert len(out["bets"]) == sum("bet" in e for e in events)
    check_money(out, config)
    assert len({r["id"] for r in out["bets"]}) == len(out["bets"])


@pytest.mark.parametrize("game", ["carousel", "merry_go_round"])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_session_of_games_loses_no_chip_between_games(game, seed):
    # given four games in a row, each configured from the last one's outcome.next_game
    rng = random.Random(seed)
    config: dict[str, Any] = {"limit": 10}
    staked = paid = raked = 0
    out: dict[str, Any] = {}
    players = [1, 2, 3, 4, 5]
    for _ in range(4):
        deck = list(TRIANGLE)
        rng.shuffle(deck)
        events = drive_game(game, deck, rng, config, players)
        # when
        out = registry.play({"game": game, "config": config, "events": events})
        # then each game's money adds up, and the next game starts from what this one carried out
        check_money(out, config)
        staked += out["pool"]["stakes"]
        paid += out["pool"]["paid"]
        raked += out["pool"]["rake"]
        config = {"limit": 10, **out["outcome"]["next_game"]["config"]}
        players = out["outcome"]["next_game"]["players"] or [1, 2, 3]
    carried = out["pool"]["carry_out"]
    assert staked == paid + raked + carried


@pytest.mark.parametrize("game", ["carousel", "pony", "merry_go_round"])
@settings(max_examples=40, deadline=None)
@given(deck=st.permutations(TRIANGLE), seed=st.integers(0, 2**32), cut=st.integers(0, 200),
       corruption=st.sampled_from(["unknown", "second_one", "bet_while_dealing", "garbage"]))  # fmt: skip
def test_prefixes_play_and_corruptions_are_refused(game, deck, seed, cut, corruption):
    # given a valid game, a prefix of it and a corrupted prefix
    config = {"limit": 1}
    events = drive_game(game, deck, random.Random(seed), config)
    prefix = events[: cut % (len(events) + 1)]
    dealt = [e["card"] for e in prefix if "card" in e]
    bad: dict[str, Any]
    if corruption == "unknown":
        bad = {"card": "11"}
    elif corruption == "second_one":
        bad = {"card": "1"}
    elif corruption == "bet_while_dealing":
        bad = {"bet": {"id": "zz", "seat": 1, "type": "count", "number": 0, "amount": 1}}
    else:
        bad = {"card": ["1"]}
    # when
    out = registry.play({"game": game, "config": config, "events": prefix})
    corrupted = prefix + ([{"card": "1"}] if corruption == "second_one" and "1" not in dealt else []) + [bad]
    # then
    assert out["status"] in ("awaiting", "settled")
    if out["status"] == "settled":
        check_money(out, config)
    error: EngineError | None = None
    try:
        registry.play({"game": game, "config": config, "events": corrupted})
    except EngineError as exc:
        error = exc
    if error is None:
        assert corruption == "bet_while_dealing"  # a bet is legal while betting is open
    else:
        assert error.event is not None
        assert error.event >= len(prefix)


# -- house edge ------------------------------------------------------------------------------


def test_house_edge_rows_for_each_game_and_behaviour():
    # given a short session (the full one is in the slow test below)
    cfg = ENGINES["merry_go_round"].resolve_config({})
    # when
    rows = edge_rows(ENGINES["merry_go_round"], cfg, seed=1, games=1500)
    # then
    assert [r.bet for r in rows] == ["count (uniform bettors)", "count (most-likely bettors)", "pony (uniform bettors)",
                                     "high_card (uniform bettors)"]  # fmt: skip
    for row in rows:
        assert row.ci95 is not None
        assert row.ci95[0] < float(row.edge) < row.ci95[1]
        assert 0 < row.edge < 0.2


def test_house_edge_moves_with_the_rake_setting():
    # given
    engine = ENGINES["carousel"]
    # when
    none = edge_rows(engine, engine.resolve_config({"rake_bp": 0}), seed=3, games=500)
    base = edge_rows(engine, engine.resolve_config({}), seed=3, games=500)
    double = edge_rows(engine, engine.resolve_config({"rake_bp": 2000}), seed=3, games=500)
    coarse = edge_rows(engine, engine.resolve_config({"limit": 1}), seed=3, games=500)
    # then the same cards and bets (same seed): no rake → no edge; more rake → more edge;
    # 1-chip bets round 10 % of a small carry up to a whole chip
    for i in range(2):
        assert none[i].edge == 0
        assert base[i].edge < double[i].edge
        assert base[i].edge < coarse[i].edge


def test_living_win_edge_for_six_hands_is_about_seventeen_and_a_half_percent():
    # given the rule book's 6-horse game ("approximately 15 %" in the rule book, which calls its odds guesses)
    engine = ENGINES["pony"]
    # when
    rows = edge_rows(engine, engine.resolve_config({}), seed=1, games=100, living_games=20_000)
    rich = edge_rows(engine, engine.resolve_config({"living_win_pays": 7}), seed=1, games=100, living_games=20_000)
    # then
    living = rows[-1]
    assert living.bet == "living_win"
    assert living.ci95 is not None
    assert living.ci95[0] < 0.176 < living.ci95[1]
    assert 0.16 < living.edge < 0.19
    assert rich[-1].edge == pytest.approx(1 - (1 - living.edge) * 8 / 7)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["carousel", "pony", "merry_go_round"])
def test_house_edge_default_run(game):
    # given / when
    rows = ENGINES[game].house_edge({})
    # then the published figures of docs/games/*.md
    assert 0.045 < rows[0].edge < 0.053  # uniform count bettors
    assert 0.105 < rows[1].edge < 0.12  # most-likely count bettors
    if game == "pony":
        assert 0.17 < rows[-1].edge < 0.18


# -- the service's view ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["carousel", "pony", "merry_go_round"])
def test_table_limits_from_the_service_are_accepted_and_autoplay_deals_a_game_through(game):
    # given the table's limits, which the service puts in every round's config
    config = {"min_bet": 500, "max_bet": 100_000}
    # when
    doc = autoplay(ENGINES[game], config, [], random.Random(5))
    out = registry.play(doc)
    # then
    assert out["status"] == "settled"
    assert out["pool"]["stakes"] == 0


# -- the turn: with the table's seats (or the players still in) the engine knows who bets now --------


def one_bet(seat: int, number: int = 3, bet_id: str | None = None) -> dict[str, Any]:
    return {"bet": {"id": bet_id or f"t{seat}", "seat": seat, "type": "count", "number": number, "amount": 1}}


def test_a_bet_out_of_turn_is_refused_naming_the_seat_to_bet_first_and_the_button():
    # given a table of 6 seats with the button at seat 6, the foundations dealt
    events = cards(SEED_FOUNDATIONS)
    # when seat 2 bets before seat 6 (the button) has bet or passed
    err = refused([*events, one_bet(2)], limit=1, seats=6, button=6)
    # then it is refused, the rule named: seat 6 bets first, the button is at seat 6
    assert (err.code, err.event) == ("out_of_turn", 6)
    assert err.params["reason"] == "turn_first"
    assert (err.params["seat"], err.params["turn"], err.params["button"]) == (2, 6, 6)


def test_the_seat_after_the_button_bets_next_and_a_pass_hands_the_turn_on():
    # given seat 6 (the button) has bet at a 6-seat table
    events = [*cards(SEED_FOUNDATIONS), one_bet(6)]
    assert play(events, limit=1, seats=6, button=6)["next"]["betting"]["turn"] == 1
    # when seat 3 bets before seats 1 and 2 acted
    err = refused([*events, one_bet(3)], limit=1, seats=6, button=6)
    # then it is refused: seat 1 bets next
    assert (err.code, err.params["reason"], err.params["turn"]) == ("out_of_turn", "turn_next", 1)
    # and once seats 1 and 2 pass, seat 3 may bet, and seat 4 is to act
    passed = [*events, {"seat": 1, "action": "pass"}, {"seat": 2, "action": "pass"}, one_bet(3)]
    out = play(passed, limit=1, seats=6, button=6)
    assert out["next"]["betting"]["turn"] == 4
    # a seat that passed cannot bet in this betting round
    late = refused([*passed, one_bet(1)], limit=1, seats=6, button=6)
    assert (late.code, late.params["reason"]) == ("out_of_turn", "passed")


def test_the_step_offers_only_the_seat_to_act_and_its_pass():
    # given the foundations dealt at a 5-seat table, button at seat 3
    out = play(cards(SEED_FOUNDATIONS), limit=1, seats=5, button=3)
    inp = out["next"]["input"]
    # then the count bet is open to seat 3 only, and seat 3 may pass instead
    count = next(b for b in inp["bets_open"] if b["type"] == "count")
    assert count["seats"] == [3]
    assert count["order"]["turn"] == 3
    assert [o["event"] for o in inp["options"]] == [{"seat": 3, "action": "pass"}]
    # and the table's state names the turn, and the rule for any other seat
    now = ENGINES["carousel"].table_now({"game": "carousel", "config": {"limit": 1, "seats": 5, "button": 3},
                                         "events": cards(SEED_FOUNDATIONS)}, betting_open=False)
    assert now.turn == 3
    assert now.seat(3).bets == ("count",)
    assert now.seat(5).why == "Seat 3 bets first: the button is at seat 3"


def test_with_every_seat_acted_no_count_bet_is_open_and_the_card_closes_betting():
    # given both seats of a 2-seat table have bet
    events = [*cards(SEED_FOUNDATIONS), one_bet(1), one_bet(2)]
    out = play(events, limit=1, seats=2)
    # then nobody is to act, no count bet is open, and the next card opens the deal
    assert out["next"]["betting"]["turn"] is None
    assert not [b for b in out["next"]["input"].get("bets_open", []) if b["type"] == "count"]
    again = refused([*events, one_bet(1, bet_id="again")], limit=1, seats=2)
    assert again.code == "bad_bet"  # one count bet per seat a round


def test_a_pass_out_of_turn_or_outside_betting_is_refused():
    # given the foundations dealt, button at seat 1
    events = cards(SEED_FOUNDATIONS)
    # then seat 2 cannot pass before seat 1 acted, nor anybody pass while the foundations are dealt
    assert refused([*events, {"seat": 2, "action": "pass"}], limit=1, seats=4).params["reason"] == "turn_first"
    assert refused([{"card": "3"}, {"seat": 1, "action": "pass"}], limit=1, seats=4).code == "out_of_turn"
    # and an unknown choice is a bad event
    assert refused([*events, {"seat": 1, "action": "fold"}], limit=1, seats=4).code == "bad_event"


def test_without_the_table_seats_a_game_with_no_carry_keeps_the_seat_order_rule():
    # given no seats setting (a document from before the turn was known), the rule book's order only
    events = [*cards(SEED_FOUNDATIONS), one_bet(3)]
    out = play(events, limit=1)
    assert "turn" not in out["next"]["betting"]
    assert refused([*events, one_bet(2)], limit=1).params["reason"] == "button_order"
