"""Pusoy: the deal, setting, scoring 2/1/−1/−2, fouls, surrender, royalties, refusals, house edge."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engines import registry
from tables.engines.cards import full_deck, parse_card
from tables.engines.errors import EngineError
from tables.engines.pusoy import ENGINE, house_set, royalty_of, simulate_edge, strongest_five, units_for
from tests.engines.helpers import play, refusal, without_input

# the dealer's thirteen cards and the setting used throughout: two pair / two pair / jack high
DEALER = "TS TH 9S 9H 8D 8C 6S 6H 5C 4D 3S 2H JS"
DEALER_SET = {"seat": "dealer", "action": "set", "back": "TS TH 9S 9H 2H".split(),
              "middle": "8D 8C 6S 6H 3S".split(), "front": "JS 5C 4D".split()}  # fmt: skip


def make_doc(
    hands: dict[str, str],
    actions: Sequence[dict[str, Any]] = (),
    *,
    bets: Sequence[tuple[int, int]] | None = None,
    config: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A round: each hand's thirteen cards (seats in order, then the dealer), then the actions."""
    seats = sorted(int(p.split(":")[1]) for p in hands if p != "dealer")
    if bets is None:
        bets = [(s, 500) for s in seats]
    events: list[dict[str, Any]] = []
    for position in [f"seat:{s}" for s in seats] + ["dealer"]:
        events += [{"card": c, "to": position} for c in hands[position].split()]
    events += list(actions)
    return {
        "game": "pusoy",
        "config": config or {},
        "bets": [{"id": f"b{s}", "seat": s, "type": "wager", "amount": a} for s, a in bets],
        "events": events,
    }


def set_action(seat: int | str, back: str, middle: str, front: str) -> dict[str, Any]:
    return {"seat": seat, "action": "set", "back": back.split(), "middle": middle.split(), "front": front.split()}




def cards(text: str) -> list:
    return [parse_card(c) for c in text.split()]


# -- the flow ------------------------------------------------------------------------------


def test_cards_come_seat_by_seat_then_the_dealer() -> None:
    # given
    doc = make_doc({"seat:1": "KS KH KD 2S 2D QS QH QD 3H 3D AS AH 4S", "dealer": DEALER})
    doc["events"] = doc["events"][:13]
    # when
    out = play(doc)
    # then
    assert without_input(out["next"]) == {"expect": "card", "to": "dealer", "say": "Dealer: card 1 of 13"}
    assert out["dealing_order"] == ["seat:1", "dealer"]


def test_seats_act_then_the_dealer() -> None:
    # given
    doc = make_doc({"seat:1": "KS KH KD 2S 2D QS QH QD 3H 3D AS AH 4S", "dealer": DEALER})
    # when
    first = play(doc)
    doc["events"].append(set_action(1, "KS KH KD 2S 2D", "QS QH QD 3H 3D", "AS AH 4S"))
    second = play(doc)
    # then
    assert without_input(first["next"]) == {"expect": "action", "seat": 1, "allowed": ["set", "house_way"],
                             "say": "Seat 1: set three hands or house way?", "position": "seat:1",
                             "hand": "KS KH KD 2S 2D QS QH QD 3H 3D AS AH 4S".split()}  # fmt: skip
    assert second["next"]["seat"] is None
    assert second["next"]["position"] == "dealer"
    assert second["next"]["allowed"] == ["set", "house_way"]
    assert second["next"]["say"] == "Dealer: set three hands or house way?"


# -- scoring -------------------------------------------------------------------------------

SCORE_CASES = [
    # seat's 13 cards, back, middle, front → calls, result, net
    ("KS KH KD 2S 2D QS QH QD 3H 3D AS AH 4S", "KS KH KD 2S 2D", "QS QH QD 3H 3D", "AS AH 4S",
     ("win", "win", "win"), "win", 1000),
    ("KS KH KD 2S 2D QS QH 7S 5S 4H AS 7H 3H", "KS KH KD 2S 2D", "QS QH 7S 5S 4H", "AS 7H 3H",
     ("win", "lose", "win"), "win", 500),
    ("AS AH AD KC KD QS QH JD 9C 7S 5H 3D 2C", "AS AH AD KC KD", "QS QH JD 9C 7S", "5H 3D 2C",
     ("win", "lose", "lose"), "lose", -500),
    ("QS QH 7S 5S 4H 7H 7D 5H 3H 2S 4S 3D 2D", "QS QH 7S 5S 4H", "7H 7D 5H 3H 2S", "4S 3D 2D",
     ("lose", "lose", "lose"), "lose", -1000),
    ("KS KH KD 2S 2D QS QH 7S 5H 4C JH 5S 4H", "KS KH KD 2S 2D", "QS QH 7S 5H 4C", "JH 5S 4H",
     ("win", "lose", "copy"), "lose", -500),
]  # fmt: skip


@pytest.mark.parametrize(("seven", "back", "middle", "front", "calls", "result", "net"), SCORE_CASES)
def test_scoring(seven: str, back: str, middle: str, front: str, calls: tuple, result: str, net: int) -> None:
    # given
    doc = make_doc({"seat:1": seven, "dealer": DEALER}, [set_action(1, back, middle, front), DEALER_SET])
    # when
    out = play(doc)
    # then
    row = out["bets"][0]
    assert (row["back"], row["middle"], row["front"]) == calls
    assert (row["result"], row["net"], row["commission"]) == (result, net, 0)
    assert row["hands_won"] == calls.count("win")
    assert row["pusoy"] == (calls.count("win") in (0, 3))
    assert out["house"] == {"net": -net, "commission": 0, "rake": 0}


@pytest.mark.parametrize(("won", "units"), [(0, -2), (1, -1), (2, 1), (3, 2)])
def test_units_for_hands_won(won: int, units: int) -> None:
    # given / when / then
    assert units_for(won) == units


def test_settled_document() -> None:
    # given
    doc = make_doc({"seat:1": "KS KH KD 2S 2D QS QH QD 3H 3D AS AH 4S", "dealer": DEALER},
                   [set_action(1, "KS KH KD 2S 2D", "QS QH QD 3H 3D", "AS AH 4S"), DEALER_SET])  # fmt: skip
    # when
    out = play(doc)
    # then
    assert out["hands"]["dealer"] == {
        "cards": DEALER.split(), "action": "set",
        "back": ["TS", "TH", "9S", "9H", "2H"], "middle": ["8D", "8C", "6S", "6H", "3S"], "front": ["JS", "5C", "4D"],
        "back_hand": "two pair, tens and nines", "middle_hand": "two pair, eights and sixes",
        "front_hand": "jack-five high", "foul": False,
    }  # fmt: skip
    assert out["outcome"] == {
        "dealing_order": ["seat:1", "dealer"],
        "dealer": {"action": "set", "foul": False, "back": "two pair, tens and nines",
                   "middle": "two pair, eights and sixes", "front": "jack-five high"},
    }  # fmt: skip
    assert out["say"] == (
        "Dealer: back two pair, tens and nines; middle two pair, eights and sixes; front jack-five high. "
        "Seat 1 wins 3 of 3 (pusoy)"
    )


def test_registry_plays_the_game() -> None:
    # given
    doc = make_doc({"seat:1": "KS KH KD 2S 2D QS QH QD 3H 3D AS AH 4S", "dealer": DEALER},
                   [set_action(1, "KS KH KD 2S 2D", "QS QH QD 3H 3D", "AS AH 4S"), DEALER_SET])  # fmt: skip
    # when / then
    assert registry.play(doc)["bets"][0]["net"] == 1000


# -- fouls ---------------------------------------------------------------------------------

SEAT = "KS KH KD 2S 2D QS QH QD 3H 3D AS AH 4S"
SEAT_FOUL = set_action(1, "QS QH QD 3H 3D", "KS KH KD 2S 2D", "AS AH 4S")  # middle above back
DEALER_FOUL = {"seat": "dealer", "action": "set", "back": "8D 8C 6S 6H 3S".split(),
               "middle": "TS TH 9S 9H 2H".split(), "front": "JS 5C 4D".split()}  # fmt: skip


@pytest.mark.parametrize(
    ("seat_set", "dealer_set", "result", "net", "foul", "dealer_foul"),
    [
        (SEAT_FOUL, DEALER_SET, "lose", -1000, True, False),
        (set_action(1, "KS KH KD 2S 2D", "QS QH QD 3H 3D", "AS AH 4S"), DEALER_FOUL, "win", 1000, False, True),
        (SEAT_FOUL, DEALER_FOUL, "push", 0, True, True),
    ],
)
def test_fouls_lose_double(seat_set: dict, dealer_set: dict, result: str, net: int, foul: bool,
                           dealer_foul: bool) -> None:  # fmt: skip
    # given
    doc = make_doc({"seat:1": SEAT, "dealer": DEALER}, [seat_set, dealer_set])
    # when
    out = play(doc)
    # then
    row = out["bets"][0]
    assert (row["result"], row["net"], row["foul"], row["dealer_foul"]) == (result, net, foul, dealer_foul)


def test_middle_above_front_fouls_and_equal_is_allowed() -> None:
    # given: a pair of aces in front over a pair of queens in the middle
    doc = make_doc({"seat:1": SEAT, "dealer": DEALER},
                   [set_action(1, "KS KH KD 2S 2D", "QS QH 3H 3D 4S", "AS AH QD"), DEALER_SET])  # fmt: skip
    # when
    out = play(doc)
    # then: queens-and-threes two pair is above the aces' pair, no foul; swapping the pairs fouls
    assert out["bets"][0]["foul"] is False
    fouled = make_doc({"seat:1": SEAT, "dealer": DEALER},
                      [set_action(1, "KS KH KD 2S 2D", "QS QD 3H 4S 3D", "AS AH QH"), DEALER_SET])  # fmt: skip
    assert play(fouled)["bets"][0]["foul"] is False
    worse = make_doc({"seat:1": "KS KH KD 2S 2D QS 9C 8S 6C 5D AS AH 4S", "dealer": DEALER},
                     [set_action(1, "KS KH KD 2S 2D", "QS 9C 8S 6C 5D", "AS AH 4S"), DEALER_SET])  # fmt: skip
    assert play(worse)["bets"][0]["foul"] is True


# -- house way -----------------------------------------------------------------------------


def test_house_way_for_seat_and_dealer() -> None:
    # given
    doc = make_doc({"seat:1": SEAT, "dealer": DEALER},
                   [{"seat": 1, "action": "house_way"}, {"seat": "dealer", "action": "house_way"}])  # fmt: skip
    # when
    out = play(doc)
    # then: strongest five behind (trips over the lowest pair; the dealer's spade flush), then the middle
    seat = out["hands"]["seat:1"]
    assert (seat["back"], seat["middle"], seat["front"]) == (
        ["KS", "KH", "KD", "2S", "2D"], ["QS", "QH", "QD", "3H", "3D"], ["AS", "AH", "4S"])  # fmt: skip
    dealer = out["hands"]["dealer"]
    assert (dealer["back"], dealer["middle"], dealer["front"]) == (
        ["JS", "TS", "9S", "6S", "3S"], ["8D", "8C", "5C", "4D", "2H"], ["TH", "9H", "6H"])  # fmt: skip
    assert out["bets"][0]["net"] == 1000


@pytest.mark.parametrize(
    ("hand", "five"),
    [
        ("5S 4S 3S 2S AS KH KD 9C 9D 7H 6H 2C 8C", "5S 4S 3S 2S AS"),  # the wheel straight flush
        ("7S 7H 7D 7C 2S KH KD 9C 9D 3H 6H 2C 8C", "7S 7H 7D 7C 3H"),  # quads, the lowest unpaired kicker
        ("7S 7H 7D KC KS 9H 9D 2C 3D 4H 5C 8C 6S", "7S 7H 7D 9H 9D"),  # trips over the lowest pair
        ("AH KH 9H 5H 2H QH 3S 4S 6D 7C 8C TD JD", "AH KH QH 9H 5H"),  # the best flush
        ("9S 8H 7D 6C 5S 4H 3D 2C KS KH AD JC QC", "9S 8H 7D 6C 5S"),  # the highest straight
        ("KS KH 9D 9C 5S 5H 2D 3C 7S 8H JD AC QC", "KS KH 9D 9C 2D"),  # the two highest pairs, an unpaired kicker
        ("KS 9D 7C 5S 3D JC 2H 8H", "KS 2H 3D 5S 7C"),  # high card: the top card and the four lowest
    ],
)
def test_strongest_five(hand: str, five: str) -> None:
    # given / when
    got = strongest_five(cards(hand))
    # then
    assert sorted(map(str, got)) == sorted(five.split())


@settings(max_examples=150, deadline=None)
@given(hand=st.lists(st.sampled_from(full_deck()), min_size=13, max_size=13, unique=True))
def test_house_set_never_fouls(hand: list) -> None:
    # given / when
    s = house_set(hand)
    # then
    assert not s.fouled
    assert sorted(map(str, s.back + s.middle + s.front)) == sorted(map(str, hand))


# -- surrender -----------------------------------------------------------------------------

TWO_SEATS = {"seat:1": SEAT, "seat:2": "JH JD 7S 7H 9D 8S 6D 5S 4H 3C 2C TC AD", "dealer": DEALER}


def test_surrender_is_off_by_default() -> None:
    # given
    doc = make_doc(TWO_SEATS, [{"seat": 1, "action": "surrender"}])
    # when
    error = refusal(doc)
    # then
    assert (error.code, error.event) == ("illegal_action", 39)


def test_player_surrender_pays_the_single_bet_at_once() -> None:
    # given
    doc = make_doc(TWO_SEATS, [{"seat": 1, "action": "surrender"}], config={"surrender": "players"})
    # when
    out = play(doc)
    # then
    assert out["next"]["seat"] == 2
    assert out["next"]["allowed"] == ["set", "house_way", "surrender"]
    assert out["bets"] == [{"id": "b1", "seat": 1, "type": "wager", "amount": 500, "result": "surrender",
                            "net": -500, "commission": 0}]  # fmt: skip


def test_when_every_player_surrenders_the_dealer_does_not_act() -> None:
    # given
    doc = make_doc(TWO_SEATS, [{"seat": 1, "action": "surrender"}, {"seat": 2, "action": "surrender"}],
                   config={"surrender": "players"})  # fmt: skip
    # when
    out = play(doc)
    # then
    assert out["status"] == "settled"
    assert [b["net"] for b in out["bets"]] == [-500, -500]
    assert out["house"]["net"] == 1000
    assert out["outcome"]["dealer"] is None


def test_dealer_surrender_pays_the_players_still_in() -> None:
    # given
    actions = [{"seat": 1, "action": "surrender"}, set_action(2, "JH JD 7S 7H 2C", "AD TC 9D 8S 6D", "5S 4H 3C"),
               {"seat": "dealer", "action": "surrender"}]  # fmt: skip
    doc = make_doc(TWO_SEATS, actions, config={"surrender": "players_and_dealer"})
    # when
    out = play(doc)
    # then
    assert [(b["result"], b["net"]) for b in out["bets"]] == [("surrender", -500), ("win", 500)]
    assert out["bets"][1]["dealer_surrender"] is True
    assert out["outcome"]["dealer"] == {"action": "surrender", "foul": False}
    assert out["say"] == "Dealer surrenders. Seat 1 surrendered, seat 2 paid"


def test_dealer_may_not_surrender_when_only_players_may() -> None:
    # given
    doc = make_doc({"seat:1": SEAT, "dealer": DEALER},
                   [set_action(1, "KS KH KD 2S 2D", "QS QH QD 3H 3D", "AS AH 4S"),
                    {"seat": "dealer", "action": "surrender"}], config={"surrender": "players"})  # fmt: skip
    # when
    error = refusal(doc)
    # then
    assert (error.code, error.event) == ("illegal_action", 27)


def test_surrender_after_setting_is_too_late() -> None:
    # given: the seat set its hands; a surrender now is a second action
    doc = make_doc({"seat:1": SEAT, "dealer": DEALER},
                   [set_action(1, "KS KH KD 2S 2D", "QS QH QD 3H 3D", "AS AH 4S"), {"seat": 1, "action": "surrender"}],
                   config={"surrender": "players_and_dealer"})  # fmt: skip
    # when
    error = refusal(doc)
    # then
    assert (error.code, error.event) == ("out_of_turn", 27)


# -- royalties -----------------------------------------------------------------------------

CHART = {"straight_flush": 1, "four_of_a_kind": 1, "six_pairs": 1}


@pytest.mark.parametrize(
    ("hand", "chart", "line"),
    [
        ("AS AH AD AC KS KH QS QH JH JD 7S 7H 2S", CHART, "four_of_a_kind"),
        ("AS AH AD AC KS KH QS QH JH JD 7S 7H 2S", CHART | {"four_of_a_kind": 0}, "six_pairs"),
        ("AS AH KD KC QS QH JS JH 9H 9D 7S 7H 2S", CHART, "six_pairs"),
        ("AS AH AD KC KS QH QS JH JD 9D 8S 7H 2S", CHART, None),  # trips count one pair: five pairs
        ("5S 4S 3S 2S AS KH QS QH JH JD 7S 9H 2D", CHART, "straight_flush"),
        ("9H TH JH QH KH 2S 3D 4C 5S 7D 8C 6S AC", CHART, "straight_flush"),
        ("9H TH JH QH KH 2S 3D 4C 5S 7D 8C 6S AC", CHART | {"straight_flush": 0}, None),
        ("AH KH QH JH 9H 8S 7D 4C 5S 2D 3C 6S TC", CHART, None),
        ("KH AH 2H 3H 4H 8S 7D 9C 5S 2D 3C 6S TC", CHART, None),  # K-A-2-3-4 does not wrap
    ],
)
def test_royalty_lines(hand: str, chart: dict, line: str | None) -> None:
    # given / when / then
    assert royalty_of(cards(hand), chart) == line


def test_royalty_wins_at_once() -> None:
    # given
    quads = "AS AH AD AC KS KH QS QH JH JD 7S 7H 2S"
    hands = {"seat:1": quads, "seat:2": "QD 5D 4S 4H 3C 9C 8S 6D 5H 3D 2D 7D 7C", "dealer": DEALER}
    doc = make_doc(hands, [{"seat": 1, "action": "royalty"}], config={"royalties": True})
    # when
    out = play(doc)
    # then
    assert out["next"]["seat"] == 2
    assert out["next"]["allowed"] == ["set", "house_way", "royalty"]
    assert out["bets"] == [{"id": "b1", "seat": 1, "type": "wager", "amount": 500, "result": "win", "net": 500,
                            "commission": 0, "royalty": "four_of_a_kind"}]  # fmt: skip
    assert out["hands"]["seat:1"]["royalty"] == "four_of_a_kind"


def test_royalty_pays_by_the_chart() -> None:
    # given
    doc = make_doc({"seat:1": "AS AH AD AC KS KH QS QH JH JD 7S 7H 2S", "dealer": DEALER},
                   [{"seat": 1, "action": "royalty"}],
                   config={"royalties": True, "royalty_pays": {"four_of_a_kind": 3}})  # fmt: skip
    # when
    out = play(doc)
    # then: nobody else plays, so the round is over without the dealer
    assert out["status"] == "settled"
    assert out["bets"][0]["net"] == 1500


def test_royalty_without_a_royalty_hand_is_refused() -> None:
    # given
    doc = make_doc({"seat:1": SEAT, "dealer": DEALER}, [{"seat": 1, "action": "royalty"}], config={"royalties": True})
    # when
    error = refusal(doc)
    # then
    assert (error.code, error.event) == ("illegal_action", 26)


def test_royalties_are_off_by_default() -> None:
    # given
    doc = make_doc({"seat:1": "AS AH AD AC KS KH QS QH JH JD 7S 7H 2S", "dealer": DEALER},
                   [{"seat": 1, "action": "royalty"}])  # fmt: skip
    # when
    error = refusal(doc)
    # then
    assert (error.code, error.event) == ("illegal_action", 26)


# -- refusals ------------------------------------------------------------------------------

GOOD = [set_action(1, "KS KH KD 2S 2D", "QS QH QD 3H 3D", "AS AH 4S"), DEALER_SET]


def with_event(index: int, event: Any, *, replace: bool = True) -> dict[str, Any]:
    doc = make_doc({"seat:1": SEAT, "dealer": DEALER}, GOOD)
    if replace:
        doc["events"][index] = event
    else:
        doc["events"].insert(index, event)
    return doc


@pytest.mark.parametrize(
    ("index", "event", "replace", "code"),
    [
        (0, {"card": "JK"}, True, "bad_card"),
        (0, {"card": "1S"}, True, "bad_card"),
        (0, {"card": None}, True, "bad_card"),
        (13, {"card": "KS"}, True, "card_exhausted"),
        (0, {"card": "TC", "to": "dealer"}, True, "out_of_turn"),
        (0, {"card": "TC", "to": "seat:3"}, True, "bad_event"),
        (0, {"card": "TC", "hand": 1}, True, "bad_event"),
        (0, {"seat": 1, "action": "set"}, True, "out_of_turn"),
        (26, {"card": "TC"}, True, "out_of_turn"),
        (26, {"seat": "dealer", "action": "house_way"}, True, "out_of_turn"),
        (26, {"seat": 2, "action": "house_way"}, True, "out_of_turn"),
        (26, {"seat": [1], "action": "house_way"}, True, "bad_event"),
        (26, {"seat": True, "action": "house_way"}, True, "bad_event"),
        (26, {"seat": 1, "action": "hit"}, True, "illegal_action"),
        (26, {"seat": 1, "action": "house_way", "back": []}, True, "bad_event"),
        (26, set_action(1, "KS KH KD 2S 2D", "QS QH QD 3H 3D", "AS AH 5S"), True, "bad_event"),
        (26, set_action(1, "KS KH KD 2S 2D 3D", "QS QH QD 3H", "AS AH 4S"), True, "bad_event"),
        (26, set_action(1, "KS KH KD 2S 2D", "QS QH QD 3H 3D", "AS AH 4S") | {"middle": "QS"}, True, "bad_event"),
        (26, set_action(1, "KS KH KD 2S 2D", "QS QH QD 3H 3D", "AS AH JK"), True, "bad_card"),
        (27, {"seat": 1, "action": "house_way"}, True, "out_of_turn"),
        (28, {"seat": "dealer", "action": "house_way"}, False, "out_of_turn"),
        (28, {"card": "TC"}, False, "out_of_turn"),
    ],
)
def test_refusals_name_the_event(index: int, event: Any, replace: bool, code: str) -> None:
    # given
    doc = with_event(index, event, replace=replace)
    # when
    error = refusal(doc)
    # then
    assert (error.code, error.event) == (code, index)


@pytest.mark.parametrize(
    ("bets", "code"),
    [
        ([{"id": "a", "seat": 4, "type": "wager", "amount": 100}], "bad_bet"),
        ([{"id": "a", "seat": 2, "type": "wager", "amount": 100}, {"id": "b", "seat": 2, "type": "wager", "amount": 100}],
         "bad_bet"),
        ([{"id": "a", "seat": 1, "type": "ante", "amount": 100}], "bad_bet_type"),
        ([{"id": "a", "seat": 1, "type": "wager", "amount": -5}], "bad_amount"),
        ([{"id": "a", "seat": 1, "type": "wager", "amount": 100_001}], "over_table_max"),
        ([{"id": "a", "seat": 1, "type": "wager", "amount": 99}], "under_table_min"),
    ],
)  # fmt: skip
def test_bet_refusals(bets: list[dict[str, Any]], code: str) -> None:
    # given
    doc = {"game": "pusoy", "config": {"min_bet": 100, "max_bet": 100_000}, "bets": bets, "events": []}
    # when
    error = refusal(doc)
    # then
    assert (error.code, error.event) == (code, None)


@pytest.mark.parametrize(
    ("config", "code"),
    [
        ({"surrender": True}, "bad_config"),
        ({"royalties": "yes"}, "bad_config"),
        ({"royalty_pays": {"royal_flush": 5}}, "bad_config"),
        ({"royalty_pays": {"six_pairs": -1}}, "bad_config"),
        ({"jokers": 1}, "unknown_setting"),
    ],
)
def test_config_refusals(config: dict[str, Any], code: str) -> None:
    # given
    doc = {"game": "pusoy", "config": config, "bets": [], "events": []}
    # when
    error = refusal(doc)
    # then
    assert error.code == code


# -- properties ----------------------------------------------------------------------------

DECK = [str(c) for c in full_deck()]


@st.composite
def rounds(draw: st.DrawFn) -> tuple[dict[str, Any], list[int]]:
    """A complete valid round: a shuffle, seats, wagers, options and random legal decisions (some fouls)."""
    deck = draw(st.permutations(DECK))
    seats = sorted(draw(st.sets(st.integers(1, 3), max_size=3)))
    config = {"surrender": draw(st.sampled_from(["off", "players", "players_and_dealer"])),
              "royalties": draw(st.booleans())}  # fmt: skip
    order = [f"seat:{s}" for s in seats] + ["dealer"]
    hands = {p: deck[i * 13 : (i + 1) * 13] for i, p in enumerate(order)}
    events: list[dict[str, Any]] = []
    card_indexes = []
    for p in order:
        for c in hands[p]:
            card_indexes.append(len(events))
            events.append({"card": c, "to": p} if draw(st.booleans()) else {"card": c})
    still_in = 0
    for who in [*seats, "dealer"]:
        if who == "dealer" and not still_in:
            break
        thirteen = hands["dealer" if who == "dealer" else f"seat:{who}"]
        choices = ["set", "house_way"]
        if config["surrender"] == "players_and_dealer" or (config["surrender"] == "players" and who != "dealer"):
            choices.append("surrender")
        if config["royalties"] and who != "dealer" and royalty_of([parse_card(c) for c in thirteen], CHART):
            choices.append("royalty")
        action = draw(st.sampled_from(choices))
        if action == "set":
            order13 = draw(st.permutations(thirteen))
            events.append({"seat": who, "action": "set", "back": list(order13[:5]), "middle": list(order13[5:10]),
                           "front": list(order13[10:])})  # fmt: skip
        else:
            events.append({"seat": who, "action": action})
        if who != "dealer" and action in ("set", "house_way"):
            still_in += 1
    bets = [{"id": f"b{s}", "seat": s, "type": "wager", "amount": draw(st.integers(1, 10_000))} for s in seats]
    return {"game": "pusoy", "config": config, "bets": bets, "events": events}, card_indexes


@settings(max_examples=60, deadline=None)
@given(case=rounds())
def test_any_round_settles_and_conserves_money(case: tuple[dict[str, Any], list[int]]) -> None:
    # given
    doc, _ = case
    # when
    out = play(doc)
    # then
    assert out["status"] == "settled"
    assert sorted(r["id"] for r in out["bets"]) == sorted(b["id"] for b in doc["bets"])
    assert sum(r["net"] for r in out["bets"]) + out["house"]["net"] == 0
    for row in out["bets"]:
        assert row["net"] in {u * row["amount"] for u in (-2, -1, 0, 1, 2)}
        assert row["result"] in ("win", "lose", "push", "surrender")


@settings(max_examples=60, deadline=None)
@given(case=rounds(), data=st.data())
def test_every_prefix_awaits_and_corruptions_are_refused(case: tuple[dict[str, Any], list[int]], data: Any) -> None:
    # given
    doc, card_indexes = case
    cut = data.draw(st.integers(0, len(doc["events"]) - 1))
    # when / then: a prefix always awaits a card or an action
    out = play({**doc, "events": doc["events"][:cut]})
    assert out["status"] == "awaiting"
    assert out["next"]["expect"] in ("card", "action")
    # and a corrupted card is refused at its event
    i = data.draw(st.sampled_from(card_indexes[1:]))
    for bad, code in (("QQ", "bad_card"), ("JK", "bad_card"), (doc["events"][0]["card"], "card_exhausted")):
        events = [dict(e) for e in doc["events"]]
        events[i]["card"] = bad
        with pytest.raises(EngineError) as info:
            play({**doc, "events": events})
        assert (info.value.code, info.value.event) == (code, i)
    # and an action where a card is due is out of turn
    events = doc["events"][:i] + [{"seat": 1, "action": "house_way"}] + doc["events"][i:]
    with pytest.raises(EngineError) as info:
        play({**doc, "events": events})
    assert (info.value.code, info.value.event) == ("out_of_turn", i)


@settings(max_examples=100, deadline=None)
@given(events=st.lists(st.one_of(
    st.fixed_dictionaries({"card": st.sampled_from([*DECK, "JK", "", 5]), "to": st.sampled_from(["dealer", "seat:1", "x"])}),
    st.fixed_dictionaries({"seat": st.sampled_from([1, 2, "dealer", None]),
                           "action": st.sampled_from(["set", "house_way", "surrender", "royalty", "x"]),
                           "back": st.lists(st.sampled_from(DECK), max_size=6),
                           "middle": st.lists(st.sampled_from(DECK), max_size=6),
                           "front": st.lists(st.sampled_from(DECK), max_size=4)}),
    st.dictionaries(st.sampled_from(["card", "seat", "action"]), st.integers()),
), max_size=30), config=st.fixed_dictionaries({"surrender": st.sampled_from(["off", "players_and_dealer"]),
                                               "royalties": st.booleans()}))  # fmt: skip
def test_garbage_is_refused_with_an_engine_error(events: list[Any], config: dict[str, Any]) -> None:
    # given
    doc = {"game": "pusoy", "config": config, "bets": [{"id": "b", "seat": 1, "type": "wager", "amount": 10}],
           "events": events}  # fmt: skip
    # when / then: only EngineError ever escapes
    try:
        play(doc)
    except EngineError:
        pass


# -- house edge ----------------------------------------------------------------------------


@pytest.mark.slow
def test_house_edge_comes_from_the_ties() -> None:
    # given / when
    (row,) = ENGINE.house_edge({})
    # then: both sides set alike, so the dealer's edge is the exact ties (copies) alone: about 0.9 %
    assert row.bet == "wager"
    assert 0.006 < row.edge < 0.013
    assert row.ci95 is not None
    assert row.ci95[0] < row.edge < row.ci95[1]
    assert row.method.startswith("simulation: 4000 seeded deals (seed 1)")
    assert row.note == "nobody surrenders"


def test_house_edge_moves_with_royalties() -> None:
    # given / when
    plain, _ = simulate_edge(300, 5, None)
    royalties, _ = simulate_edge(300, 5, CHART)
    richer, _ = simulate_edge(300, 5, {"straight_flush": 5, "four_of_a_kind": 5, "six_pairs": 5})
    # then: claiming a royalty at once is worth more than playing those hands out, more so the more it pays
    assert royalties < plain
    assert richer < royalties
