"""Pai Gow Poker: dice and dealing order, setting, settlement, commission, refusals, house edge."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engines import registry
from tables.engines.cards import JOKER_CARD, full_deck
from tables.engines.errors import EngineError
from tables.engines.house_way import STANDARD
from tables.engines.pai_gow import ENGINE, dealing_order, first_position, simulate_edge
from tests.engines.helpers import play, refusal, without_input

# the dealer's hand sets by the standard house way as one pair: KK-5-4-2 behind, 9-7 in front
DEALER = "KS KD 9H 7C 5S 4D 2C"


def make_doc(
    hands: dict[str, str],
    actions: Sequence[dict[str, Any]] = (),
    *,
    dice: Sequence[int] = (3, 2, 3),
    bets: Sequence[tuple[int, int]] | None = None,
    config: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A round: dice, then each hand's seven cards in dealing order, then the actions."""
    seats = sorted(int(p.split(":")[1]) for p in hands if p != "dealer")
    if bets is None:
        bets = [(s, 1000) for s in seats]
    events: list[dict[str, Any]] = [{"dice": list(dice)}]
    for position in dealing_order(sum(dice), seats):
        events += [{"card": c, "to": position} for c in hands[position].split()]
    events += list(actions)
    return {
        "game": "pai_gow_poker",
        "config": config or {},
        "bets": [{"id": f"b{s}", "seat": s, "type": "wager", "amount": a} for s, a in bets],
        "events": events,
    }


def set_action(seat: int, back: str, front: str) -> dict[str, Any]:
    return {"seat": seat, "action": "set", "back": back.split(), "front": front.split()}




# -- dice and the order of the hands (rule book) --------------------------------------------


@pytest.mark.parametrize(
    ("totals", "position"),
    [((1, 8, 15), 1), ((2, 9, 16), 2), ((3, 10, 17), 3), ((4, 11, 18), 4), ((5, 12), 5), ((6, 13), 6),
     ((7, 14), 7)],
)  # fmt: skip
def test_dice_total_picks_the_first_hand(totals: tuple[int, ...], position: int) -> None:
    # given / when / then: the dealer is position 1, seat n is position n + 1
    for total in totals:
        assert first_position(total) == position


def test_dealing_order_runs_counter_clockwise_and_skips_empty_seats() -> None:
    # given: seats 1, 3 and 6 play; dice 10 → position 3 (seat 2, empty) takes the first hand
    # when
    order = dealing_order(10, [1, 3, 6])
    # then
    assert order == ["seat:3", "seat:6", "dealer", "seat:1"]
    assert dealing_order(8, [1, 3, 6]) == ["dealer", "seat:1", "seat:3", "seat:6"]
    assert dealing_order(18, []) == ["dealer"]


def test_round_starts_with_the_dice() -> None:
    # given
    doc = make_doc({"dealer": DEALER, "seat:1": "AS AH QS QD JC 8D 3H"})
    doc["events"] = []
    # when
    out = play(doc)
    # then
    assert out["status"] == "awaiting"
    assert without_input(out["next"]) == {"expect": "dice", "say": "Throw the three dice"}


def test_after_the_dice_the_first_hand_is_called() -> None:
    # given: dice 4+5+1 = 10 → position 3, seat 2
    doc = make_doc({"dealer": DEALER, "seat:2": "AS AH QS QD JC 8D 3H"}, dice=(4, 5, 1))
    doc["events"] = doc["events"][:1]
    # when
    out = play(doc)
    # then
    assert without_input(out["next"]) == {
        "expect": "card",
        "to": "seat:2",
        "say": "Dice 10: first hand to seat 2. Seat 2: card 1 of 7",
    }
    assert out["dealing_order"] == ["seat:2", "dealer"]


def test_cards_then_the_seat_is_asked_to_set() -> None:
    # given
    doc = make_doc({"dealer": DEALER, "seat:1": "AS AH QS QD JC 8D 3H"})
    # when
    out = play(doc)
    # then
    assert without_input(out["next"]) == {
        "expect": "action",
        "seat": 1,
        "allowed": ["set", "house_way"],
        "say": "Seat 1: set the hand (five back, two front) or ask for the house way",
        "hand": ["AS", "AH", "QS", "QD", "JC", "8D", "3H"],
    }
    assert out["hands"]["dealer"] == {"cards": DEALER.split()}  # the dealer sets only after the players


def test_to_may_be_left_out() -> None:
    # given
    doc = make_doc({"dealer": DEALER, "seat:1": "AS AH QS QD JC 8D 3H"},
                   [set_action(1, "AS AH JC 8D 3H", "QS QD")])  # fmt: skip
    for event in doc["events"]:
        event.pop("to", None)
    # when
    out = play(doc)
    # then
    assert out["status"] == "settled"


# -- settlement ----------------------------------------------------------------------------

SETTLE_CASES = [
    # seat's seven cards, its back, its front → back call, front call, result, net
    ("AS AH QS QD JC 8D 3H", "AS AH JC 8D 3H", "QS QD", "win", "win", "win", 950),
    ("AS AH 8S 6D 3C 2H 4S", "AS AH 8S 6D 4S", "3C 2H", "win", "lose", "push", 0),
    ("QS QH 8S 6D 3C 2H 4S", "QS QH 8S 6D 4S", "3C 2H", "lose", "lose", "lose", -1000),
    ("AS AH 9D 7S 3C JH 4S", "AS AH JH 4S 3C", "9D 7S", "win", "copy", "push", 0),
    ("KH KC 5D 4S 2H AS QS", "KH KC 5D 4S 2H", "AS QS", "copy", "win", "push", 0),
    ("KH KC 5D 4S 2H 9D 7S", "KH KC 5D 4S 2H", "9D 7S", "copy", "copy", "lose", -1000),
]


@pytest.mark.parametrize(("seven", "back", "front", "back_call", "front_call", "result", "net"), SETTLE_CASES)
def test_settlement(seven: str, back: str, front: str, back_call: str, front_call: str, result: str, net: int) -> None:
    # given
    doc = make_doc({"dealer": DEALER, "seat:1": seven}, [set_action(1, back, front)])
    # when
    out = play(doc)
    # then
    row = out["bets"][0]
    assert (row["back"], row["front"], row["result"], row["net"]) == (back_call, front_call, result, net)
    assert row["commission"] == (50 if result == "win" else 0)
    assert out["house"] == {"net": -net, "commission": row["commission"], "rake": 0}


def test_dealer_hand_and_outcome() -> None:
    # given
    doc = make_doc({"dealer": DEALER, "seat:1": "AS AH QS QD JC 8D 3H"}, [set_action(1, "AS AH JC 8D 3H", "QS QD")])
    # when
    out = play(doc)
    # then
    assert out["hands"]["dealer"] == {
        "cards": DEALER.split(),
        "back": ["KS", "KD", "5S", "4D", "2C"],
        "front": ["9H", "7C"],
        "back_hand": "pair of kings",
        "front_hand": "nine-seven high",
        "set_by": "house_way",
        "rule": "one_pair",
    }
    assert out["hands"]["seat:1"]["set_by"] == "player"
    assert out["hands"]["seat:1"]["back_hand"] == "pair of aces"
    assert out["outcome"] == {
        "dice": [3, 2, 3],
        "dice_total": 8,
        "first_hand": "dealer",
        "dealing_order": ["dealer", "seat:1"],
        "dealer": {"back": "pair of kings", "front": "nine-seven high", "house_way_rule": "one_pair"},
    }
    assert out["say"] == "Dealer: pair of kings behind; nine-seven high in front. Seat 1 wins"


def test_foul_loses() -> None:
    # given: queens behind, aces in front
    doc = make_doc({"dealer": DEALER, "seat:1": "AS AH QS QD JC 8D 3H"}, [set_action(1, "QS QD JC 8D 3H", "AS AH")])
    # when
    out = play(doc)
    # then
    assert out["bets"][0] == {"id": "b1", "seat": 1, "type": "wager", "amount": 1000, "result": "lose",
                              "net": -1000, "commission": 0, "foul": True, "back": None, "front": None}  # fmt: skip
    assert out["hands"]["seat:1"]["foul"] is True


def test_foul_is_decided_while_other_seats_still_set() -> None:
    # given
    hands = {"dealer": DEALER, "seat:1": "AS AH QS QD JC 8D 3H", "seat:2": "TS TH 6C 6D 8C 3S 2D"}
    doc = make_doc(hands, [set_action(1, "QS QD JC 8D 3H", "AS AH")])
    # when
    out = play(doc)
    # then
    assert out["next"]["seat"] == 2
    assert [(b["id"], b["result"], b["net"]) for b in out["bets"]] == [("b1", "lose", -1000)]


def test_equal_back_and_front_is_a_foul() -> None:
    # given: ace-king-x-x-x behind outranks ace-king in front; a pair behind equal to... a lower pair fouls
    doc = make_doc({"dealer": DEALER, "seat:1": "AS KH 8S 6D 3C 2H 4S"}, [set_action(1, "AS KH 8S 6D 3C", "4S 2H")])
    low = make_doc({"dealer": DEALER, "seat:1": "AS KH 8S 6D 3C 2H 4S"}, [set_action(1, "8S 6D 4S 3C 2H", "AS KH")])
    # when / then
    assert play(doc)["bets"][0]["foul"] is False
    assert play(low)["bets"][0]["foul"] is True


def test_foul_rule_house_way_resets_the_hand() -> None:
    # given
    doc = make_doc({"dealer": DEALER, "seat:1": "AS AH QS QD JC 8D 3H"}, [set_action(1, "QS QD JC 8D 3H", "AS AH")],
                   config={"foul_rule": "house_way"})  # fmt: skip
    # when
    out = play(doc)
    # then: two pair, aces and queens, splits: aces behind, queens in front, and wins both
    assert out["hands"]["seat:1"]["back"] == ["AS", "AH", "JC", "8D", "3H"]
    assert out["hands"]["seat:1"]["front"] == ["QS", "QD"]
    assert out["hands"]["seat:1"]["set_by"] == "house_way"
    assert out["hands"]["seat:1"]["foul"] is True
    row = out["bets"][0]
    assert (row["result"], row["net"], row["foul"]) == ("win", 950, True)


def test_player_asks_for_the_house_way() -> None:
    # given
    doc = make_doc({"dealer": DEALER, "seat:1": "9S 9D 4H 4C AS QD 3C"}, [{"seat": 1, "action": "house_way"}])
    # when
    out = play(doc)
    # then
    seat = out["hands"]["seat:1"]
    assert (seat["back"], seat["front"], seat["rule"], seat["set_by"]) == (
        ["9S", "9D", "4H", "4C", "3C"], ["AS", "QD"], "two_pair_keep", "house_way")  # fmt: skip
    assert (out["bets"][0]["back"], out["bets"][0]["front"], out["bets"][0]["result"]) == ("win", "win", "win")


@pytest.mark.parametrize(
    ("config", "front"),
    [({}, ["KS", "9D"]), ({"house_way": "always_split"}, ["3H", "3C"]),
     ({"house_way": "custom", "house_way_rules": {"two_pair_keep_low_low": 15}}, ["3H", "3C"]),
     ({"house_way": "custom", "house_way_rules": STANDARD.as_chart()}, ["KS", "9D"])],
)  # fmt: skip
def test_the_configured_house_way_sets_the_dealer(config: dict[str, Any], front: list[str]) -> None:
    # given
    doc = make_doc({"dealer": "5S 5D 3H 3C KS 9D 7C", "seat:1": "AS AH QS QD JC 8D 3D"},
                   [set_action(1, "AS AH JC 8D 3D", "QS QD")], config=config)  # fmt: skip
    # when / then
    assert play(doc)["hands"]["dealer"]["front"] == front


def test_joker_plays_in_a_seat_hand() -> None:
    # given: the bug completes the seat's straight
    doc = make_doc({"dealer": DEALER, "seat:1": "JK TS JD QC AH 3S 3D"}, [set_action(1, "JK TS JD QC AH", "3S 3D")])
    # when
    out = play(doc)
    # then
    assert out["hands"]["seat:1"]["back_hand"] == "ace-high straight"
    assert out["bets"][0]["result"] == "win"


@pytest.mark.parametrize(
    ("rounding", "amount", "commission"),
    [("down", 1010, 50), ("up", 1010, 51), ("half_up", 1010, 51), ("half_even", 1010, 50), ("half_even", 1030, 52),
     ("down", 19, 0), ("up", 19, 1)],
)  # fmt: skip
def test_commission_rounding(rounding: str, amount: int, commission: int) -> None:
    # given
    doc = make_doc({"dealer": DEALER, "seat:1": "AS AH QS QD JC 8D 3H"}, [set_action(1, "AS AH JC 8D 3H", "QS QD")],
                   bets=[(1, amount)], config={"commission_rounding": rounding})  # fmt: skip
    # when
    row = play(doc)["bets"][0]
    # then
    assert (row["net"], row["commission"]) == (amount - commission, commission)


def test_commission_rate_is_a_setting() -> None:
    # given
    doc = make_doc({"dealer": DEALER, "seat:1": "AS AH QS QD JC 8D 3H"}, [set_action(1, "AS AH JC 8D 3H", "QS QD")],
                   config={"commission_bp": 0})  # fmt: skip
    # when / then
    assert play(doc)["bets"][0]["net"] == 1000


def test_several_seats_settle_in_seat_order() -> None:
    # given: dice 12 → position 5 (seat 4) first: seat 4, dealer, seat 1, seat 3
    hands = {"dealer": DEALER, "seat:1": "AS AH QS QD JC 8D 3H", "seat:3": "QH JH 8S 6D 3C 2H 4S",
             "seat:4": "TS TC 9C 6H 7D 2S 5C"}  # fmt: skip
    actions = [set_action(1, "AS AH JC 8D 3H", "QS QD"), set_action(3, "QH JH 8S 6D 4S", "3C 2H"),
               {"seat": 4, "action": "house_way"}]  # fmt: skip
    doc = make_doc(hands, actions, dice=(6, 5, 1))
    # when
    out = play(doc)
    # then
    assert out["outcome"]["dealing_order"] == ["seat:4", "dealer", "seat:1", "seat:3"]
    assert [(b["seat"], b["result"], b["net"]) for b in out["bets"]] == [(1, "win", 950), (3, "lose", -1000),
                                                                          (4, "lose", -1000)]  # fmt: skip
    assert out["house"]["net"] == 1050
    assert out["say"].endswith("Seat 1 wins, seat 3 loses, seat 4 loses")


def test_no_wagers_deals_only_the_dealer() -> None:
    # given
    doc = make_doc({"dealer": DEALER}, bets=[])
    # when
    out = play(doc)
    # then
    assert out["status"] == "settled"
    assert out["bets"] == []
    assert out["house"] == {"net": 0, "commission": 0, "rake": 0}


def test_registry_plays_the_game() -> None:
    # given
    doc = make_doc({"dealer": DEALER, "seat:1": "AS AH QS QD JC 8D 3H"}, [set_action(1, "AS AH JC 8D 3H", "QS QD")])
    # when / then
    assert registry.play(doc)["bets"][0]["net"] == 950


# -- refusals ------------------------------------------------------------------------------

BASE_HANDS = {"dealer": DEALER, "seat:1": "AS AH QS QD JC 8D 3H"}
GOOD_SET = set_action(1, "AS AH JC 8D 3H", "QS QD")


def with_event(index: int, event: Any, *, replace: bool = True) -> dict[str, Any]:
    doc = make_doc(BASE_HANDS, [GOOD_SET])
    if replace:
        doc["events"][index] = event
    else:
        doc["events"].insert(index, event)
    return doc


@pytest.mark.parametrize(
    ("index", "event", "replace", "code"),
    [
        (0, {"card": "AS"}, True, "out_of_turn"),
        (0, {"seat": 1, "action": "set"}, True, "out_of_turn"),
        (0, {"dice": [0, 1, 2]}, True, "bad_event"),
        (0, {"dice": [1, 2]}, True, "bad_event"),
        (0, {"dice": [1, 2, 7]}, True, "bad_event"),
        (0, {"dice": [True, 1, 1]}, True, "bad_event"),
        (0, {"dice": "123"}, True, "bad_event"),
        (0, {"dice": [1, 2, 3], "total": 6}, True, "bad_event"),
        (1, {"dice": [1, 2, 3]}, False, "out_of_turn"),
        (1, {"card": "ZZ"}, True, "bad_card"),
        (1, {"card": 7}, True, "bad_card"),
        (8, {"card": "KS"}, True, "card_exhausted"),
        (1, {"card": "AS", "to": "seat:1"}, True, "out_of_turn"),
        (1, {"card": "JK", "to": "seat:9"}, True, "bad_event"),
        (1, {"card": "JK", "face": "up"}, True, "bad_event"),
        (5, {"seat": 1, "action": "set"}, False, "out_of_turn"),
        (15, {"card": "2S"}, True, "out_of_turn"),
        (15, set_action(1, "AS AH JC 8D 2S", "QS QD"), True, "bad_event"),
        (15, set_action(1, "AS AH JC 8D", "QS QD 3H"), True, "bad_event"),
        (15, {"seat": 1, "action": "set", "back": "AS AH JC 8D 3H", "front": ["QS", "QD"]}, True, "bad_event"),
        (15, set_action(1, "AS AH JC 8D XX", "QS QD"), True, "bad_card"),
        (15, {"seat": 2, "action": "house_way"}, True, "out_of_turn"),
        (15, {"seat": "1", "action": "house_way"}, True, "bad_event"),
        (15, {"seat": 1, "action": "fold"}, True, "illegal_action"),
        (15, {"seat": 1, "action": "house_way", "front": ["QS", "QD"]}, True, "bad_event"),
        (16, {"seat": 1, "action": "house_way"}, False, "out_of_turn"),
        (16, {"card": "2S"}, False, "out_of_turn"),
    ],
)
def test_refusals_name_the_event(index: int, event: Any, replace: bool, code: str) -> None:
    # given
    doc = with_event(index, event, replace=replace)
    # when
    error = refusal(doc)
    # then
    assert (error.code, error.event) == (code, index)


def test_a_second_joker_is_refused() -> None:
    # given
    doc = make_doc({"dealer": "JK KD 9H 7C 5S 4D 2C", "seat:1": "JK AH QS QD JC 8D 3H"})
    # when
    error = refusal(doc)
    # then
    assert (error.code, error.event) == ("card_exhausted", 8)


@pytest.mark.parametrize(
    ("bets", "code"),
    [
        ([{"id": "a", "seat": 7, "type": "wager", "amount": 100}], "bad_bet"),
        ([{"id": "a", "seat": 1, "type": "wager", "amount": 100}, {"id": "b", "seat": 1, "type": "wager", "amount": 500}],
         "bad_bet"),
        ([{"id": "a", "seat": 1, "type": "banker", "amount": 100}], "bad_bet_type"),
        ([{"id": "a", "seat": 1, "type": "wager", "amount": 0}], "bad_amount"),
        ([{"id": "a", "seat": 1, "type": "wager", "amount": 100, "hand": 1}], "bad_bet"),
        ([{"id": "a", "seat": 1, "type": "wager", "amount": 100_001}], "over_table_max"),
        ([{"id": "a", "seat": 1, "type": "wager", "amount": 99}], "under_table_min"),
    ],
)  # fmt: skip
def test_bet_refusals(bets: list[dict[str, Any]], code: str) -> None:
    # given
    doc = {"game": "pai_gow_poker", "config": {"min_bet": 100, "max_bet": 100_000}, "bets": bets, "events": []}
    # when
    error = refusal(doc)
    # then
    assert (error.code, error.event) == (code, None)


@pytest.mark.parametrize(
    ("config", "code"),
    [
        ({"house_way": "nevada"}, "bad_config"),
        ({"house_way_rules": {"trips_split_aces": 0}}, "bad_config"),
        ({"house_way": "custom", "house_way_rules": {"trips_split_aces": 3}}, "bad_config"),
        ({"house_way": "custom", "house_way_rules": {"medium_pair_min": 12}}, "bad_config"),
        ({"house_way": "custom", "house_way_rules": {"no_rule": 1}}, "bad_config"),
        ({"commission_bp": -1}, "bad_config"),
        ({"commission_rounding": "nearest"}, "bad_config"),
        ({"foul_rule": "push"}, "bad_config"),
        ({"decks": 2}, "unknown_setting"),
    ],
)
def test_config_refusals(config: dict[str, Any], code: str) -> None:
    # given
    doc = {"game": "pai_gow_poker", "config": config, "bets": [], "events": []}
    # when
    error = refusal(doc)
    # then
    assert error.code == code


# -- properties ----------------------------------------------------------------------------

DECK = [str(c) for c in full_deck()] + [str(JOKER_CARD)]


@st.composite
def rounds(draw: st.DrawFn) -> tuple[dict[str, Any], list[int]]:
    """A complete valid round: random shuffle, seats, wagers, dice and settings (some fouls)."""
    deck = draw(st.permutations(DECK))
    seats = sorted(draw(st.sets(st.integers(1, 6), max_size=6)))
    dice = draw(st.lists(st.integers(1, 6), min_size=3, max_size=3))
    config = {"foul_rule": draw(st.sampled_from(["lose", "house_way"])),
              "house_way": draw(st.sampled_from(["standard", "by_big_pair", "always_split"])),
              "commission_rounding": draw(st.sampled_from(["down", "up", "half_up", "half_even"]))}  # fmt: skip
    order = dealing_order(sum(dice), seats)
    hands = {p: deck[i * 7 : (i + 1) * 7] for i, p in enumerate(order)}
    events: list[dict[str, Any]] = [{"dice": dice}]
    card_indexes = []
    for p in order:
        for c in hands[p]:
            card_indexes.append(len(events))
            events.append({"card": c, "to": p} if draw(st.booleans()) else {"card": c})
    for s in seats:
        seven = hands[f"seat:{s}"]
        if draw(st.booleans()):
            events.append({"seat": s, "action": "house_way"})
        else:
            front = draw(st.lists(st.sampled_from(seven), min_size=2, max_size=2, unique=True))
            events.append({"seat": s, "action": "set", "back": [c for c in seven if c not in front], "front": front})
    bets = [{"id": f"b{s}", "seat": s, "type": "wager", "amount": draw(st.integers(1, 10_000))} for s in seats]
    return {"game": "pai_gow_poker", "config": config, "bets": bets, "events": events}, card_indexes


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
    assert out["house"]["commission"] == sum(r["commission"] for r in out["bets"])
    for row in out["bets"]:
        assert row["result"] in ("win", "push", "lose")
        assert row["net"] in (row["amount"] - row["commission"], 0, -row["amount"])


@settings(max_examples=60, deadline=None)
@given(case=rounds(), data=st.data())
def test_every_prefix_awaits_and_corruptions_are_refused(case: tuple[dict[str, Any], list[int]], data: Any) -> None:
    # given
    doc, card_indexes = case
    cut = data.draw(st.integers(0, len(doc["events"]) - 1))
    prefix = {**doc, "events": doc["events"][:cut]}
    # when / then: a prefix is never settled, and says what comes next
    out = play(prefix)
    assert out["status"] == "awaiting"
    assert out["next"]["expect"] in ("dice", "card", "action")
    # and corrupting a card is refused at that event
    i = data.draw(st.sampled_from(card_indexes))
    for bad, code in (("1Z", "bad_card"), (None, "card_exhausted")):
        events = [dict(e) for e in doc["events"]]
        if bad is None:
            j = card_indexes[card_indexes.index(i) - 1] if card_indexes.index(i) else card_indexes[1]
            lo, hi = sorted((i, j))
            events[hi]["card"] = events[lo]["card"]
            i_bad = hi
        else:
            events[i]["card"] = bad
            i_bad = i
        with pytest.raises(EngineError) as info:
            play({**doc, "events": events})
        assert (info.value.code, info.value.event) == (code, i_bad)
    # and an action where a card is due is out of turn
    events = doc["events"][:i] + [{"seat": 1, "action": "house_way"}] + doc["events"][i:]
    with pytest.raises(EngineError) as info:
        play({**doc, "events": events})
    assert (info.value.code, info.value.event) == ("out_of_turn", i)


@settings(max_examples=100, deadline=None)
@given(events=st.lists(st.one_of(
    st.fixed_dictionaries({"dice": st.lists(st.integers(-1, 8), max_size=4)}),
    st.fixed_dictionaries({"card": st.sampled_from([*DECK, "ZZ", "", 5]), "to": st.sampled_from(["dealer", "seat:1", "x"])}),
    st.fixed_dictionaries({"seat": st.sampled_from([1, 2, "dealer", None]), "action": st.sampled_from(["set", "house_way", "x"]),
                           "back": st.lists(st.sampled_from(DECK), max_size=6), "front": st.lists(st.sampled_from(DECK), max_size=3)}),
    st.dictionaries(st.sampled_from(["card", "seat", "x"]), st.integers()),
), max_size=25))  # fmt: skip
def test_garbage_is_refused_with_an_engine_error(events: list[Any]) -> None:
    # given
    doc = {"game": "pai_gow_poker", "bets": [{"id": "b", "seat": 1, "type": "wager", "amount": 10}], "events": events}
    # when / then: only EngineError ever escapes
    try:
        play(doc)
    except EngineError:
        pass


# -- house edge ----------------------------------------------------------------------------


@pytest.mark.slow
def test_house_edge_matches_the_published_figure() -> None:
    # given / when
    (row,) = ENGINE.house_edge({})
    # then: published about 2.5-2.7 % for a player who follows the house way
    assert row.bet == "wager"
    assert 0.024 < row.edge < 0.029
    assert row.ci95 is not None
    assert row.ci95[0] < row.edge < row.ci95[1]
    assert row.ci95[1] - row.ci95[0] < 0.002
    assert row.method.startswith("simulation: 5000 seeded deals (seed 1)")


def test_house_edge_moves_with_the_commission() -> None:
    # given / when
    none, _ = simulate_edge(STANDARD, Fraction(0), 500, seed=3)
    five, _ = simulate_edge(STANDARD, Fraction(5, 100), 500, seed=3)
    ten, _ = simulate_edge(STANDARD, Fraction(10, 100), 500, seed=3)
    # then: without commission the dealer keeps only the copies
    assert 0 < none < 0.02
    assert none < five < ten
    assert ten - five == pytest.approx(five - none)


def test_rows_follow_the_order_of_the_bets() -> None:
    # given: seat 3's wager placed before seat 1's
    hands = {"dealer": DEALER, "seat:1": "AS AH QS QD JC 8D 3H", "seat:3": "QH JH 8S 6D 3C 2H 4S"}
    doc = make_doc(hands, [set_action(1, "AS AH JC 8D 3H", "QS QD"), set_action(3, "QH JH 8S 6D 4S", "3C 2H")],
                   bets=[(3, 500), (1, 1000)])  # fmt: skip
    # when
    out = play(doc)
    # then
    assert [b["id"] for b in out["bets"]] == ["b3", "b1"]
    assert out["say"].endswith("Seat 1 wins, seat 3 loses")
