"""Horse Race and Calcutta Horse Race engines (tables/engines/horse_race.py)."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import permutations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engines import registry
from tables.engines.cards import RANKS, SUITS
from tables.engines.errors import EngineError
from tables.engines.horse_race import ENGINES, course_rows, split_pool, win_chance, win_chance_by_row_cards
from tables.engines.money import Rounding
from tables.simulation.autoplay import autoplay
from tests.engines.helpers import refusal_of, without_input

PACK = [r + s for s in SUITS for r in RANKS if r != "A"]  # the 48 cards left once the aces are the horses


def cards(text: str, to: str | None = None) -> list[dict[str, Any]]:
    return [{"card": c} if to is None else {"card": c, "to": to} for c in text.split()]


def bet(bet_id: str, horse: str, amount: int = 100, seat: int = 1) -> dict[str, Any]:
    return {"bet": {"id": bet_id, "seat": seat, "type": "horse", "horse": horse, "amount": amount}}


def play(events: list[dict[str, Any]], game: str = "horse_race", **config: Any) -> dict[str, Any]:
    return registry.play({"game": game, "config": config, "events": events})


def refused(events: list[dict[str, Any]], game: str = "horse_race", **config: Any) -> EngineError:
    return refusal_of(play, events, game, **config)


# A course with spades k times and the other 8 - k cards spread over the other suits (≤ 4 each)
def course_with_spades(k: int) -> list[dict[str, Any]]:
    spades = ["2S", "3S", "4S", "5S"][:k]
    others = ["2H", "2D", "2C", "3H", "3D", "3C", "4H", "4D"][: 8 - k]
    return cards(" ".join(spades + others))


SPADES_HOME = "6S 7S 8S 9S TS JS QS KS"  # eight spades: enough for any course above


# -- horse_race: odds, bets and the race --------------------------------------------------


@pytest.mark.parametrize(("k", "odds"), [(0, 1), (1, 2), (2, 3), (3, 5), (4, 10)])
def test_a_winning_horse_pays_the_chart_odds_for_its_row_cards(k, odds):
    # given a course with k spades, a bet on spades and another on hearts
    events = course_with_spades(k) + [bet("s", "S", 100), bet("h", "H", 40, seat=2)] + cards(SPADES_HOME, "race")
    # when
    out = play(events)
    # then
    assert out["status"] == "settled"
    assert out["outcome"]["winner"] == "S"
    assert out["outcome"]["odds"]["S"] == odds
    assert out["outcome"]["row_cards"]["S"] == k
    assert [(b["id"], b["result"], b["net"]) for b in out["bets"]] == [("s", "win", 100 * odds), ("h", "lose", -40)]
    assert out["house"] == {"net": 40 - 100 * odds, "commission": 0, "rake": 0}


def test_the_race_ends_on_the_winners_eighth_card_and_says_so():
    # given hearts reach seven, then spades take eight
    events = course_with_spades(0) + [bet("s", "S")] + cards("5H 6H 7H 8H 9H TH JH")
    # when
    running = play(events)
    done = play(events + cards(SPADES_HOME))
    # then
    assert running["next"]["expect"] == "card"
    assert running["next"]["to"] == "race"
    assert running["next"]["say"] == "Race: turn the next card (spades 0, hearts 7, diamonds 0, clubs 0)"
    assert done["outcome"]["race_cards"] == 15
    assert done["say"] == "Spades wins at evens"
    assert done["hands"]["horses"]["H"]["moves"] == 7


def test_the_betting_stage_shows_the_odds_and_the_bets_placed():
    # given
    events = course_with_spades(2) + [bet("s", "S")]
    # when
    out = play(events)
    # then
    assert without_input(out["next"]) == {
        "expect": "card",
        "to": "race",
        "say": "Take bets: spades 3-1, hearts 3-1, diamonds 3-1, clubs 3-1",
        "betting": {
            "bet_types": ["horse"],
            "odds": {"S": 3, "H": 3, "D": 3, "C": 3},
            "odds_open": False,
            "placed": [{"id": "s", "seat": 1, "horse": "S", "amount": 100}],
        },
    }


def test_five_of_a_suit_in_the_course_voids_it_and_the_course_is_dealt_again():
    # given a fifth spade at the sixth card of the row
    void = cards("2S 3S 2H 4S 5S 6S")
    # when
    out = play(void)
    again = play(void + course_with_spades(2) + [bet("s", "S")] + cards(SPADES_HOME))
    # then
    assert out["hands"]["course"] == {"cards": [], "sorted": [], "void": [{"cards": ["2S", "3S", "2H", "4S", "5S",
                                      "6S"], "suit": "S", "count": 5}]}  # fmt: skip
    assert out["next"]["say"] == ("5 spades in the course: that horse cannot win. Shuffle and deal the course again. "
                                  "Course: deal card 1 of 8")  # fmt: skip
    assert again["outcome"]["redeals"] == 1
    assert again["bets"][0]["net"] == 300  # the same cards come back after the shuffle


def test_scarne_course_never_redeals_and_a_six_card_suit_takes_no_bets_unless_the_dealer_prices_it():
    # given Scarne's six-card course, all spades, and six more spades to come
    course = cards("2S 3S 4S 5S 6S 7S")
    # when
    err = refused(course + [bet("s", "S")], course=6, cards_to_win=6)
    priced = play(course + [{"odds": {"S": 50}}, bet("s", "S")] + cards("8S 9S TS JS QS KS"), course=6,
                  cards_to_win=6)  # fmt: skip
    # then
    assert (err.code, err.event) == ("bad_bet", 6)
    assert priced["outcome"]["winner"] == "S"
    assert priced["outcome"]["odds_by"]["S"] == "dealer"
    assert priced["bets"][0]["net"] == 5000


def test_the_dealer_may_change_the_odds_before_the_first_bet_and_the_change_is_recorded():
    # given
    events = course_with_spades(1) + [{"odds": {"s": 4, "H": 0}}, bet("s", "S")] + cards(SPADES_HOME)
    # when
    out = play(events)
    closed = refused(course_with_spades(1) + [{"odds": {"H": 0}}, bet("h", "H")])
    # then
    assert out["outcome"]["odds"] == {"S": 4, "H": 0, "D": 3, "C": 3}
    assert out["outcome"]["odds_by"] == {"S": "dealer", "H": "dealer", "D": "chart", "C": "chart"}
    assert out["bets"][0]["odds"] == 4
    assert out["bets"][0]["net"] == 400
    assert (closed.code, closed.event) == ("bad_bet", 9)


def test_the_odds_chart_is_a_setting():
    # given
    events = course_with_spades(0) + [bet("s", "S")] + cards(SPADES_HOME)
    # when
    out = play(events, odds={"0": 2})
    # then
    assert out["bets"][0]["net"] == 200


@pytest.mark.parametrize(
    ("events", "code", "event"),
    [
        (course_with_spades(1) + [bet("s", "S"), {"odds": {"S": 4}}], "out_of_turn", 9),
        (cards("2S") + [{"odds": {"S": 4}}], "out_of_turn", 1),
        (course_with_spades(1) + cards("6S") + [{"odds": {"S": 4}}], "out_of_turn", 9),
        (course_with_spades(1) + [{"odds": {"X": 4}}], "bad_event", 8),
        (course_with_spades(1) + [{"odds": {"S": -1}}], "bad_event", 8),
        (course_with_spades(1) + [{"odds": {"S": 2.5}}], "bad_event", 8),
        (course_with_spades(1) + [{"odds": {}}], "bad_event", 8),
        (cards("AS"), "bad_card", 0),
        (cards("1S"), "bad_card", 0),
        (cards("2S 2S"), "card_exhausted", 1),
        (course_with_spades(1) + cards("2S"), "card_exhausted", 8),
        ([{"card": "2S", "to": "race"}], "out_of_turn", 0),
        ([{"card": "2S", "to": "hand:1"}], "bad_event", 0),
        ([{"card": "2S", "face": "up"}], "bad_event", 0),
        (cards("2S") + [bet("s", "S")], "out_of_turn", 1),
        (course_with_spades(1) + cards("6S") + [bet("s", "S")], "out_of_turn", 9),
        (course_with_spades(1) + [bet("s", "X")], "bad_bet", 8),
        (course_with_spades(1) + [bet("s", "S"), bet("s", "H")], "duplicate_bet", 9),
        (course_with_spades(1) + [{"bet": {"id": "s", "seat": 1, "type": "win", "horse": "S", "amount": 1}}],
         "bad_bet_type", 8),
        (course_with_spades(0) + [bet("s", "S")] + cards(SPADES_HOME + " 5H"), "out_of_turn", 17),
        (course_with_spades(1) + [{"bid": {"seat": 1, "horse": "S", "amount": 1}}], "bad_event", 8),
        ([{"action": "hit"}], "bad_event", 0),
    ],
)  # fmt: skip
def test_horse_race_refusals_name_the_code_and_the_event(events, code, event):
    # given / when
    err = refused(events)
    # then
    assert (err.code, err.event) == (code, event)


def test_table_limits_apply_to_horse_bets():
    # given / when
    low = refused(course_with_spades(1) + [bet("s", "S", 5)], min_bet=10)
    high = refused(course_with_spades(1) + [bet("s", "S", 500)], max_bet=100)
    # then
    assert (low.code, low.event) == ("under_table_min", 8)
    assert (high.code, high.event) == ("over_table_max", 8)


def test_horse_race_refuses_top_level_bets_and_an_unplayable_course():
    # given / when
    with pytest.raises(EngineError) as top:
        registry.play({"game": "horse_race", "bets": [{"id": "a", "seat": 1, "type": "horse", "horse": "S",
                                                       "amount": 1}]})  # fmt: skip
    with pytest.raises(EngineError) as course:
        play([], course=10, cards_to_win=12)
    # then
    assert top.value.code == "bad_bet"
    assert (course.value.code, course.value.field) == ("bad_config", "config.course")


# -- calcutta_horse_race: the auction and the shares ------------------------------------------

CALCUTTA_COURSE = "2S 3S 4S 5H 6H 7D 8C"  # spades 3, hearts 2, diamonds 1, clubs 1


def bid(seat: int, horse: str, amount: int) -> dict[str, Any]:
    return {"bid": {"seat": seat, "horse": horse, "amount": amount}}


def sold(horse: str, seat: int, amount: int) -> dict[str, Any]:
    """The hammer falls: the purchase, as a bet at the high bid."""
    return {"bet": {"id": f"buy{horse}", "seat": seat, "type": "horse", "horse": horse, "amount": amount}}


def auction(prices: dict[str, int]) -> list[dict[str, Any]]:
    """Sell spades, hearts, clubs and diamonds (longshots first) to seats 1..4 at these prices."""
    events: list[dict[str, Any]] = []
    for seat, horse in enumerate("SHCD", 1):
        events += [bid(seat, horse, prices[horse]), sold(horse, seat, prices[horse])]
    return events


# diamonds take eight, then clubs eight
CALCUTTA_RACE = "2D 3D 4D 5D 6D 8D 9D TD 2C 3C 4C 5C 6C 7C JD 9C TC"


@pytest.mark.parametrize(
    ("prices", "pool", "first", "second"),
    [
        ({"S": 3, "H": 6, "C": 9, "D": 12}, 30, 20, 10),  # ≡ 0 mod 3
        ({"S": 4, "H": 5, "C": 10, "D": 12}, 31, 21, 10),  # ≡ 1: the odd chip to the winner
        ({"S": 4, "H": 6, "C": 10, "D": 12}, 32, 21, 11),  # ≡ 2: one each
    ],
)
def test_calcutta_pool_splits_two_thirds_and_one_third_with_the_seeds_rounding(prices, pool, first, second):
    # given
    events = cards(CALCUTTA_COURSE) + auction(prices) + cards(CALCUTTA_RACE)
    # when
    out = play(events, "calcutta_horse_race")
    # then
    assert out["status"] == "settled"
    assert (out["outcome"]["first"], out["outcome"]["second"]) == ("D", "C")
    assert out["outcome"]["shares"] == {"first": first, "second": second}
    rows = {r["id"]: r for r in out["bets"]}
    assert rows["buyD"] == {"id": "buyD", "seat": 4, "type": "horse", "amount": 12, "result": "win",
                               "net": first - 12, "commission": 0, "horse": "D", "place": 1, "paid": first,
                               "handover": {"at_bet": 12, "pay": first, "take": 0, "when": "settle"}}  # fmt: skip
    assert (rows["buyC"]["seat"], rows["buyC"]["net"], rows["buyC"]["place"]) == (3, second - prices["C"], 2)
    assert (rows["buyS"]["result"], rows["buyS"]["net"]) == ("lose", -prices["S"])
    assert out["pool"] == {"carry_in": 0, "stakes": pool, "paid": pool, "rake": 0, "carry_out": 0}
    assert out["house"] == {"net": 0, "commission": 0, "rake": 0}
    assert sum(r["net"] for r in out["bets"]) == 0


@pytest.mark.parametrize(
    ("pot", "rounding", "split", "expected"),
    [
        (30, Rounding.HALF_UP, {"first": 2, "second": 1}, (20, 10)),
        (31, Rounding.HALF_UP, {"first": 2, "second": 1}, (21, 10)),
        (32, Rounding.HALF_UP, {"first": 2, "second": 1}, (21, 11)),
        (31, Rounding.DOWN, {"first": 2, "second": 1}, (20, 11)),
        (32, Rounding.UP, {"first": 2, "second": 1}, (22, 10)),
        (7, Rounding.HALF_UP, {"first": 1, "second": 1}, (4, 3)),
        (7, Rounding.HALF_EVEN, {"first": 1, "second": 1}, (4, 3)),
        (9, Rounding.HALF_EVEN, {"first": 1, "second": 1}, (4, 5)),
        (10, Rounding.HALF_UP, {"first": 7, "second": 3}, (7, 3)),
        (1, Rounding.HALF_UP, {"first": 2, "second": 1}, (1, 0)),
        (2, Rounding.HALF_UP, {"first": 2, "second": 1}, (1, 1)),
    ],
)
def test_split_pool_table(pot, rounding, split, expected):
    # given / when / then
    assert split_pool(pot, split, rounding) == expected


def test_calcutta_split_and_rounding_are_settings_and_carry_in_joins_the_pool():
    # given
    events = cards(CALCUTTA_COURSE) + auction({"S": 4, "H": 5, "C": 10, "D": 12}) + cards(CALCUTTA_RACE)
    # when
    down = play(events, "calcutta_horse_race", split_rounding="down")
    seventy = play(events, "calcutta_horse_race", split={"first": 7, "second": 3}, carry_in=9)
    # then
    assert down["outcome"]["shares"] == {"first": 20, "second": 11}
    assert seventy["outcome"]["shares"] == {"first": 28, "second": 12}
    assert seventy["pool"] == {"carry_in": 9, "stakes": 31, "paid": 40, "rake": 0, "carry_out": 0}


def test_calcutta_auction_goes_longshot_first_and_next_says_what_is_up():
    # given
    course = cards(CALCUTTA_COURSE)
    # when
    first = play(course, "calcutta_horse_race")
    bidding = play(course + [bid(1, "S", 2), bid(2, "S", 4)], "calcutta_horse_race")
    tie = play(course + auction({"S": 1, "H": 1, "C": 1, "D": 1})[:4], "calcutta_horse_race")
    either = play(course + auction({"S": 1, "H": 1, "C": 1, "D": 1})[:4] + [bid(3, "D", 1)], "calcutta_horse_race")
    wrong = refused(course + [bid(1, "H", 2)], "calcutta_horse_race")
    # then
    assert first["hands"]["course"]["sorted"] == ["2S", "3S", "4S", "5H", "6H", "7D", "8C"]
    assert without_input(first["next"]) == {"expect": "bid", "horses": ["S"], "high_bid": None, "minimum": 1, "sell": None,
                             "say": "Auction: take bids on spades (3 in the row)"}  # fmt: skip
    assert bidding["next"]["high_bid"] == {"seat": 2, "amount": 4}
    assert bidding["next"]["minimum"] == 5
    assert bidding["next"]["say"] == "Spades: 4 bid by seat 2. Any more? Or sold"
    assert bidding["next"]["sell"] == {"type": "horse", "horse": "S", "seat": 2, "amount": 4}
    assert tie["next"]["horses"] == ["D", "C"]  # one card each: the auctioneer picks
    assert either["next"]["horses"] == ["D"]
    assert (wrong.code, wrong.event) == ("out_of_turn", 7)
    assert "spades first" in wrong.message


def test_calcutta_sorted_row_puts_the_suit_with_most_cards_on_the_left():
    # given
    course = cards("2C 3H 4C 5D 6C 7H 8S")
    # when
    out = play(course, "calcutta_horse_race")
    # then
    assert out["hands"]["course"]["sorted"] == ["2C", "4C", "6C", "3H", "7H", "8S", "5D"]


def test_calcutta_redeals_five_of_a_suit_in_the_seven_card_row():
    # given / when
    out = play(cards("2S 3S 4S 5S 6S"), "calcutta_horse_race")
    # then
    assert out["hands"]["course"]["void"][0]["count"] == 5
    assert out["next"]["to"] == "course"


C = cards(CALCUTTA_COURSE)  # events 0-6
ALL_SOLD = auction({"S": 1, "H": 1, "C": 1, "D": 1})  # events 7-14


@pytest.mark.parametrize(
    ("events", "code", "event"),
    [
        ([bid(1, "S", 1)], "out_of_turn", 0),
        ([sold("S", 1, 1)], "out_of_turn", 0),
        (C + [bid(1, "S", 0)], "bad_amount", 7),
        (C + [bid(1, "S", 3), bid(2, "S", 3)], "bad_amount", 8),
        (C + [bid(1, "S", 3), bid(1, "S", 5)], "illegal_action", 8),
        (C + [bid(1, "S", 3), bid(2, "H", 5)], "out_of_turn", 8),
        (C + [bid(1, "S", 3), sold("S", 1, 3), bid(2, "S", 5)], "out_of_turn", 9),
        (C + [sold("S", 1, 1)], "out_of_turn", 7),
        (C + [bid(1, "S", 3), sold("S", 2, 3)], "bad_bet", 8),
        (C + [bid(1, "S", 3), sold("S", 1, 4)], "bad_bet", 8),
        (C + [bid(1, "S", 3), sold("H", 1, 3)], "out_of_turn", 8),
        (C + [bid(1, "S", 3), {"bet": {"id": "x", "seat": 1, "type": "horse", "amount": 3}}], "bad_bet", 8),
        (
            C + [bid(1, "S", 3), {"bet": {"id": "x", "seat": 1, "type": "win", "horse": "S", "amount": 3}}],
            "bad_bet_type",
            8,
        ),
        (
            C
            + [
                bid(1, "S", 3),
                sold("S", 1, 3),
                bid(2, "H", 3),
                {"bet": {"id": "buyS", "seat": 2, "type": "horse", "horse": "H", "amount": 3}},
            ],
            "duplicate_bet",
            10,
        ),
        (C + [bid(1, "S", 3), {"sold": {"horse": "S"}}], "bad_event", 8),
        (C + [{"bid": {"seat": 1, "horse": "S"}}], "bad_event", 7),
        (C + [{"bid": {"seat": 0, "horse": "S", "amount": 1}}], "bad_bet", 7),
        (C + [{"bid": {"seat": 1, "horse": "Z", "amount": 1}}], "bad_bet", 7),
        (C + [{"bid": {"seat": 1, "horse": "S", "amount": 1.5}}], "bad_amount", 7),
        (C + [bid(1, "S", 3), sold("S", 1, 3)] + cards("2D"), "out_of_turn", 9),
        (C + ALL_SOLD + [bid(1, "S", 2)], "out_of_turn", 15),
        (C + ALL_SOLD + [bet("b", "S")], "out_of_turn", 15),
        (C + ALL_SOLD + [{"odds": {"S": 2}}], "bad_event", 15),
        (C + ALL_SOLD + cards(CALCUTTA_RACE + " JC"), "out_of_turn", 32),
    ],
)
def test_calcutta_refusals_name_the_code_and_the_event(events, code, event):
    # given / when
    err = refused(events, "calcutta_horse_race")
    # then
    assert (err.code, err.event) == (code, event)


# -- exact race probabilities and house edge ------------------------------------------------


def brute_win_chance(own: int, others: tuple[int, ...], target: int) -> Fraction:
    pack = [0] * own + [i + 1 for i, n in enumerate(others) for _ in range(n)]
    orders = set(permutations(pack))
    wins = 0
    for order in orders:
        seen = [0] * (len(others) + 1)
        for suit in order:
            seen[suit] += 1
            if seen[suit] == target:
                wins += suit == 0
                break
    return Fraction(wins, len(orders))


@pytest.mark.parametrize(
    ("own", "others", "target"), [(3, (2, 1), 2), (2, (3, 3), 2), (4, (2, 2, 1), 3), (1, (2,), 2), (3, (3, 1, 1), 3)]
)
def test_win_chance_matches_brute_force(own, others, target):
    # given / when / then
    assert win_chance(own, others, target) == brute_win_chance(own, others, target)


def test_win_chances_of_every_row_add_up_to_one():
    # given / when / then
    for counts, _ in course_rows(8, 4):
        left = [12 - k for k in counts]
        total = sum(win_chance(left[i], tuple(sorted(left[:i] + left[i + 1 :])), 8) for i in range(4))
        assert total == 1


def test_horse_race_house_edge_is_exact_and_shows_the_charts_favourites_lose_money():
    # given the default 8-card course and chart
    engine = ENGINES["horse_race"]
    # when
    rows = engine.house_edge({})
    # then
    assert [r.bet for r in rows] == [f"horse ({k} in row)" for k in range(5)]
    assert [round(float(r.edge) * 100, 2) for r in rows] == [-15.24, -19.93, 8.15, 41.55, 74.70]
    assert all(isinstance(r.edge, Fraction) for r in rows)
    assert rows[0].method.startswith("exact enumeration")


def test_horse_race_house_edge_moves_with_the_config():
    # given
    engine = ENGINES["horse_race"]
    # when
    shorter = engine.house_edge({"odds": {"0": 0, "1": 1}})
    scarne = engine.house_edge({"course": 6, "cards_to_win": 6})
    # then
    assert [r.bet for r in shorter][:1] == ["horse (1 in row)"]  # 0 odds: the line takes no bets
    assert round(float(shorter[0].edge) * 100, 2) == 20.05
    assert [round(float(r.edge) * 100, 2) for r in scarne] == [19.98, 11.93, 21.62, 30.97, 38.18]
    assert win_chance_by_row_cards(6, 6)[6] > 0  # six spades in a Scarne row can still win


def test_calcutta_house_edge_is_zero():
    # given / when
    rows = ENGINES["calcutta_horse_race"].house_edge({})
    # then
    assert [(r.bet, r.edge) for r in rows] == [("horse", 0)]


# -- properties over random races -------------------------------------------------------------


def deal_course(game: str, pack: list[str], rng: random.Random, config: dict[str, Any]) -> tuple[list, list[str]]:
    """Deal course rows (shuffling again after a void row) until one stands; return events and the pack left."""
    course_len = config.get("course", 8 if game == "horse_race" else 7)
    cap = 12 - config.get("cards_to_win", 8)
    events: list[dict[str, Any]] = []
    deck = list(pack)
    while True:
        counts = dict.fromkeys(SUITS, 0)
        row_ok = True
        for i in range(course_len):
            card = deck[i]
            events.append({"card": card})
            counts[card[1]] += 1
            if counts[card[1]] > cap:
                row_ok = False
                break
        if row_ok:
            return events, deck[course_len:]
        rng.shuffle(deck)


def race_until(deck: list[str], places: int, target: int) -> tuple[list[str], list[str]]:
    """The race cards up to the last finisher, and the finishing order (an oracle for the engine)."""
    moves = dict.fromkeys(SUITS, 0)
    finished: list[str] = []
    dealt = []
    for card in deck:
        dealt.append(card)
        moves[card[1]] += 1
        if moves[card[1]] == target:
            finished.append(card[1])
            if len(finished) == places:
                break
    return dealt, finished


@settings(max_examples=120, deadline=None)
@given(pack=st.permutations(PACK), seed=st.integers(0, 2**32), scarne=st.booleans())
def test_random_races_settle_and_the_house_pays_exactly_what_the_bettors_win(pack, seed, scarne):
    # given
    rng = random.Random(seed)
    config = {"course": 6, "cards_to_win": 6} if scarne else {}
    target = 6 if scarne else 8
    events, rest = deal_course("horse_race", pack, rng, config)
    odds = play(events, **config)["next"]["betting"]["odds"]
    if rng.random() < 0.3:
        change = {h: rng.randint(0, 20) for h in rng.sample(SUITS, 2)}
        events.append({"odds": change})
        odds |= change
    open_horses = [h for h in SUITS if odds[h]]  # 0 odds: the house takes no bets on that horse
    n_bets = rng.randint(0, 6) if open_horses else 0
    for i in range(n_bets):
        events.append(bet(f"b{i}", rng.choice(open_horses), rng.randint(1, 1000), rng.randint(1, 9)))
    race, finished = race_until(rest, 1, target)
    # when
    out = play(events + [{"card": c} for c in race], **config)
    # then
    assert out["status"] == "settled"
    assert out["outcome"]["winner"] == finished[0]
    assert len(out["bets"]) == n_bets
    assert sum(r["net"] for r in out["bets"]) + out["house"]["net"] == 0
    for r in out["bets"]:
        assert r["net"] == (r["amount"] * r["odds"] if r["horse"] == finished[0] else -r["amount"])


@settings(max_examples=120, deadline=None)
@given(pack=st.permutations(PACK), seed=st.integers(0, 2**32))
def test_random_calcutta_races_pay_the_whole_pool_by_the_seeds_rule(pack, seed):
    # given
    rng = random.Random(seed)
    events, rest = deal_course("calcutta_horse_race", pack, rng, {})
    while True:
        nxt = play(events, "calcutta_horse_race")["next"]
        if nxt["expect"] != "bid":
            break
        horse = rng.choice(nxt["horses"])
        high = 0
        last = None
        for _ in range(rng.randint(1, 4)):
            seat = rng.choice([s for s in range(1, 7) if s != last])
            high += rng.randint(1, 9)
            events.append(bid(seat, horse, high))
            last = seat
        events.append(sold(horse, last, high))
    race, finished = race_until(rest, 2, 8)
    # when
    out = play(events + [{"card": c} for c in race], "calcutta_horse_race")
    # then
    assert out["status"] == "settled"
    assert [out["outcome"]["first"], out["outcome"]["second"]] == finished
    pool = out["pool"]
    assert pool["carry_in"] + pool["stakes"] == pool["paid"] + pool["rake"] + pool["carry_out"]
    assert pool["paid"] == pool["stakes"]
    assert sum(r["net"] for r in out["bets"]) == 0
    first, second = out["outcome"]["shares"]["first"], out["outcome"]["shares"]["second"]
    q, r = divmod(pool["stakes"], 3)
    assert (first, second) == (2 * q + (r > 0), q + (r == 2))


@settings(max_examples=100, deadline=None)
@given(pack=st.permutations(PACK), seed=st.integers(0, 2**32), cut=st.integers(0, 60),
       corruption=st.sampled_from(["ace", "again", "garbage", "action"]),
       game=st.sampled_from(["horse_race", "calcutta_horse_race"]))  # fmt: skip
def test_prefixes_play_and_corruptions_are_refused(pack, seed, cut, corruption, game):
    # given a valid race, a prefix of it and a corrupted prefix
    rng = random.Random(seed)
    events, rest = deal_course(game, pack, rng, {})
    if game == "horse_race":
        events.append(bet("b", rng.choice(SUITS)))
    else:
        for horse in sorted(SUITS, key=lambda h: -sum(e["card"][1] == h for e in events[-7:])):
            events += [bid(1, horse, 1), sold(horse, 1, 1)]
    race, _ = race_until(rest, 1 if game == "horse_race" else 2, 8)
    events += [{"card": c} for c in race]
    prefix = events[: cut % (len(events) + 1)]
    # when
    out = play(prefix, game)
    out_of_shoe = out["hands"]["course"]["cards"] + out["hands"]["race"]["cards"]  # a void row goes back in
    bad = {"ace": {"card": "AS"}, "again": {"card": out_of_shoe[-1] if out_of_shoe else "ZZ"}, "garbage": {"card": 7},
           "action": {"seat": 1, "action": "hit"}}[corruption]  # fmt: skip
    # then
    assert out["status"] in ("awaiting", "settled")
    with pytest.raises(EngineError) as info:
        play(prefix + [bad], game)
    assert info.value.event == len(prefix)


# -- the service's view ---------------------------------------------------------------------------


def test_table_limits_from_the_service_are_accepted_and_autoplay_runs_a_race_through():
    # given the table's limits, which the service puts in every round's config
    config = {"min_bet": 500, "max_bet": 100_000}
    # when
    doc = autoplay(ENGINES["horse_race"], config, [], random.Random(5))
    out = registry.play(doc)
    calcutta = ENGINES["calcutta_horse_race"].resolve_config(config)
    # then
    assert out["status"] == "settled"
    assert out["house"]["net"] == 0
    assert calcutta["min_bet"] == 500
