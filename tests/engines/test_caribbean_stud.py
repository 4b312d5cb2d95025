"""Caribbean Stud: dealing order, fold/raise, qualification, the raise chart, refusals, exact house edge."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engines.cards import full_deck, parse_card
from tables.engines.caribbean_stud import ENGINE, RAISE_CHART, deal_classes, deal_counts, optimal_return
from tables.engines.errors import EngineError
from tables.engines.poker import chart_line, rank5
from tests.engines.helpers import play, refusal


def ante(seat: int, amount: int = 100, bet_id: str | None = None) -> dict[str, Any]:
    return {"id": bet_id or f"a{seat}", "seat": seat, "type": "ante", "amount": amount}


def round_doc(seats: dict[int, str], up: str, actions: dict[int, str], hole: str = "",
              config: dict | None = None, amounts: dict[int, int] | None = None) -> dict[str, Any]:  # fmt: skip
    """Seat cards seat by seat, the up card, actions in seat order, then the hole cards."""
    amounts = amounts or {}
    events: list[dict[str, Any]] = []
    for seat in sorted(seats):
        events += [{"card": c} for c in seats[seat].split()]
    events.append({"card": up})
    events += [{"seat": s, "action": actions[s]} for s in sorted(actions)]
    events += [{"card": c} for c in hole.split()]
    return {
        "game": "caribbean_stud",
        "config": config or {},
        "bets": [ante(s, amounts.get(s, 100)) for s in sorted(seats)],
        "events": events,
    }




# -- settlement ---------------------------------------------------------------------------------


def test_dealer_without_ace_king_pays_the_ante_and_pushes_the_raise() -> None:
    # given: the dealer's best is ace-queen high
    doc = round_doc({1: "2S 2D 9C 7H 4S"}, "AH", {1: "raise"}, "QD 8S 6C 3D")

    # when
    out = play(doc)

    # then
    row = out["bets"][0]
    assert out["status"] == "settled"
    assert out["outcome"]["dealer_qualifies"] is False
    assert out["say"] == "Dealer does not qualify (ace-queen high): antes win, raises push"
    assert (row["result"], row["net"], row["ante_net"], row["raise_net"], row["staked"]) == ("win", 100, 100, 0, 300)
    assert out["house"] == {"net": -100, "commission": 0, "rake": 0}


def test_dealer_with_ace_king_qualifies_and_a_better_ace_king_wins_one_to_one() -> None:
    # given: dealer A-K-8-5-3, player A-K-9-4-2
    doc = round_doc({1: "AS KD 9C 4H 2S"}, "AH", {1: "raise"}, "KC 8S 5C 3D")

    # when
    out = play(doc)

    # then
    row = out["bets"][0]
    assert out["outcome"]["dealer_qualifies"] is True
    assert (row["result"], row["net"], row["line"]) == ("win", 100 + 200, "high_card")


@pytest.mark.parametrize(
    ("player", "line", "pays"),
    [
        ("AS KS QS JS TS", "royal_flush", 100),
        ("9S 8S 7S 6S 5S", "straight_flush", 50),
        ("QS QD QH QC 5S", "four_of_a_kind", 20),
        ("JS JD JH 5C 5S", "full_house", 7),
        ("AS TS 8S 6S 2S", "flush", 5),
        ("9C 8D 7H 6S 5C", "straight", 4),
        ("7C 7D 7H QS 5C", "three_of_a_kind", 3),
        ("TC TD 6H 6S 5C", "two_pair", 2),
        ("AC AD 6H 4S 2D", "pair", 1),
    ],
)
def test_a_winning_raise_pays_by_the_chart(player: str, line: str, pays: int) -> None:
    # given: the dealer qualifies with ace-king
    doc = round_doc({1: player}, "KH", {1: "raise"}, "AH 9D 3C 2H")

    # when
    out = play(doc)

    # then
    row = out["bets"][0]
    assert chart_line(rank5([parse_card(c) for c in player.split()])) == line
    assert (row["result"], row["line"], row["raise_net"], row["ante_net"]) == ("win", line, 200 * pays, 100)
    assert row["net"] == 100 + 200 * pays


def test_a_better_dealer_hand_takes_ante_and_raise() -> None:
    doc = round_doc({1: "AS AD 9C 7H 2S"}, "KH", {1: "raise"}, "KD KC 8C 3D")
    row = play(doc)["bets"][0]
    assert (row["result"], row["net"], row["ante_net"], row["raise_net"]) == ("lose", -300, -100, -200)


def test_an_exact_tie_pushes_both_bets() -> None:
    doc = round_doc({1: "AS KD 9C 7H 2S"}, "AH", {1: "raise"}, "KC 9D 7C 2D")
    row = play(doc)["bets"][0]
    assert (row["result"], row["net"], row["staked"]) == ("push", 0, 300)


def test_a_fold_loses_the_ante_whatever_the_dealer_holds() -> None:
    # given: seat 1 folds, seat 2 raises
    doc = round_doc({1: "AS KD 9C 7H 2S", 2: "3S 3D 8C 7C 2D"}, "QH", {1: "fold", 2: "raise"}, "QD 6S 5C 4D")

    # when
    out = play(doc)

    # then
    rows = {r["seat"]: r for r in out["bets"]}
    assert (rows[1]["result"], rows[1]["net"], rows[1]["staked"]) == ("fold", -100, 100)
    assert (rows[2]["result"], rows[2]["net"]) == ("lose", -300)
    assert out["house"]["net"] == 400
    assert out["outcome"]["raised"] == [2]
    assert out["outcome"]["folded"] == [1]


def test_when_every_seat_folds_the_round_settles_without_the_hole_cards() -> None:
    # given
    doc = round_doc({1: "AS KD 9C 7H 2S", 3: "3S 4D 8C 7C 2D"}, "QH", {1: "fold", 3: "fold"})

    # when
    out = play(doc)

    # then
    assert out["status"] == "settled"
    assert out["say"] == "Every seat folded"
    assert [r["net"] for r in out["bets"]] == [-100, -100]
    assert out["hands"]["dealer"]["cards"] == ["QH"]


@pytest.mark.parametrize(("multiple", "net"), [(1, 100 + 100 * 2), (2, 100 + 200 * 2), (3, 100 + 300 * 2)])
def test_the_raise_is_raise_multiple_times_the_ante(multiple: int, net: int) -> None:
    doc = round_doc({1: "TC TD 6H 6S 5C"}, "KH", {1: "raise"}, "AH 9D 3C 2H", config={"raise_multiple": multiple})
    row = play(doc)["bets"][0]
    assert row["net"] == net
    assert row["staked"] == 100 * (1 + multiple)


def test_the_chart_is_a_setting() -> None:
    doc = round_doc({1: "TC TD 6H 6S 5C"}, "KH", {1: "raise"}, "AH 9D 3C 2H", config={"raise_pays": {"two_pair": 3}})
    assert play(doc)["bets"][0]["net"] == 100 + 200 * 3


# -- the flow of a round ------------------------------------------------------------------------


def test_next_says_what_the_dealer_does_at_every_stage() -> None:
    # given
    full = round_doc({2: "AS KD 9C 7H 2S", 5: "3S 3D 8C 7C 2D"}, "QH", {2: "raise", 5: "fold"}, "QD 6S 5C 4D")
    events = full["events"]
    expected = (
        [("card", "seat:2", f"Seat 2: card {i} of 5") for i in range(1, 6)]
        + [("card", "seat:5", f"Seat 5: card {i} of 5") for i in range(1, 6)]
        + [("card", "dealer", "Dealer's up card")]
        + [("action", 2, "Seat 2: fold or raise 200?"), ("action", 5, "Seat 5: fold or raise 200?")]
        + [("card", "dealer", f"Turn the dealer's hole card {i} of 4") for i in range(1, 5)]
    )

    # when / then
    for n, (kind, where, say) in enumerate(expected):
        out = play({**full, "events": events[:n]})
        assert out["status"] == "awaiting"
        nxt = out["next"]
        assert (nxt["expect"], nxt.get("to", nxt.get("seat")), nxt["say"]) == (kind, where, say)
        if kind == "action":
            assert nxt["allowed"] == ["fold", "raise"]
            assert nxt["raise_amount"] == 200
    assert play(full)["status"] == "settled"


def test_cards_may_name_where_they_go() -> None:
    # given
    doc = round_doc({1: "AS KD 9C 7H 2S"}, "AH", {1: "raise"}, "KC 8S 5C 3D")
    for i, ev in enumerate(doc["events"]):
        if "card" in ev:
            ev["to"] = "seat:1" if i < 5 else "dealer"

    # then
    assert play(doc)["status"] == "settled"


def test_a_folded_seat_shows_its_result_while_the_round_goes_on() -> None:
    doc = round_doc({1: "AS KD 9C 7H 2S", 2: "3S 3D 8C 7C 2D"}, "QH", {1: "fold"})
    out = play(doc)
    assert out["status"] == "awaiting"
    assert [(r["id"], r["result"], r["net"]) for r in out["bets"]] == [("a1", "fold", -100)]


def test_a_table_without_antes_has_nothing_to_deal() -> None:
    out = play({"game": "caribbean_stud", "bets": [], "events": []})
    assert out["status"] == "settled"
    assert out["bets"] == []


# -- refusals -----------------------------------------------------------------------------------


def base_doc() -> dict[str, Any]:
    return round_doc({1: "AS KD 9C 7H 2S", 2: "3S 3D 8C 7C 2D"}, "QH", {1: "raise", 2: "raise"}, "QD 6S 5C 4D")


@pytest.mark.parametrize(
    ("index", "event", "code"),
    [
        (3, {"card": "ZZ"}, "bad_card"),
        (3, {"card": "JK"}, "bad_card"),
        (3, {"card": "AS"}, "card_exhausted"),  # AS is already seat 1's first card
        (3, {"card": "5H", "to": "seat:2"}, "out_of_turn"),
        (3, {"card": "5H", "to": "player"}, "bad_event"),
        (3, {"card": "5H", "face": "up"}, "bad_event"),
        (3, {"seat": 1, "action": "raise"}, "out_of_turn"),  # a card is due
        (10, {"seat": 1, "action": "raise"}, "out_of_turn"),  # the up card is due
        (11, {"card": "5H"}, "out_of_turn"),  # seat 1's action is due
        (11, {"seat": 2, "action": "raise"}, "out_of_turn"),  # seat 1 acts first
        (11, {"seat": 1, "action": "hit"}, "illegal_action"),
        (11, {"seat": 1, "action": "raise", "hand": 0}, "bad_event"),
        (13, {"card": "5H", "to": "seat:1"}, "out_of_turn"),
        (13, {"seat": 1, "action": "fold"}, "out_of_turn"),  # hole cards now
        (13, {"bet": ante(3)}, "out_of_turn"),
    ],
)
def test_bad_events_are_refused_at_their_index(index: int, event: dict[str, Any], code: str) -> None:
    # given
    doc = base_doc()
    doc["events"][index] = event

    # when
    error = refusal(doc)

    # then
    assert (error.code, error.event) == (code, index)


def test_an_event_after_the_round_is_complete_is_refused() -> None:
    doc = base_doc()
    doc["events"].append({"card": "9D"})
    error = refusal(doc)
    assert (error.code, error.event) == ("out_of_turn", 17)


@pytest.mark.parametrize(
    ("bets", "config", "code"),
    [
        ([ante(1), ante(1, bet_id="again")], {}, "bad_bet"),
        ([{"id": "x", "seat": 1, "type": "raise", "amount": 100}], {}, "bad_bet_type"),
        ([ante(1, amount=0)], {}, "bad_amount"),
        ([ante(1, amount=600)], {"max_bet": 500}, "over_table_max"),
        ([ante(1, amount=5)], {"min_bet": 10}, "under_table_min"),
        ([ante(1)], {"raise_multiple": 0}, "bad_config"),
        ([ante(1)], {"raise_pays": {"pair_of_aces": 2}}, "bad_config"),
        ([ante(1)], {"decks": 2}, "unknown_setting"),
    ],
)
def test_bad_bets_and_config_are_refused(bets: list, config: dict, code: str) -> None:
    error = refusal({"game": "caribbean_stud", "config": config, "bets": bets, "events": []})
    assert error.code == code
    assert error.event is None


# -- properties ---------------------------------------------------------------------------------

DECK = [str(c) for c in full_deck()]


@st.composite
def rounds(draw: st.DrawFn) -> dict[str, Any]:
    deck = draw(st.permutations(DECK))
    seats = draw(st.lists(st.integers(1, 7), min_size=1, max_size=7, unique=True))
    amounts = {s: draw(st.integers(1, 10_000)) for s in seats}
    cards = iter(deck)
    hands = {s: " ".join(next(cards) for _ in range(5)) for s in seats}
    up = next(cards)
    actions = {s: draw(st.sampled_from(["fold", "raise"])) for s in seats}
    hole = " ".join(next(cards) for _ in range(4))
    config = {"raise_multiple": draw(st.integers(1, 5))}
    return round_doc(hands, up, actions, hole if "raise" in actions.values() else "", config, amounts)


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_any_round_settles_and_conserves_money(doc: dict[str, Any]) -> None:
    # when
    out = play(doc)

    # then
    assert out["status"] == "settled"
    assert sum(r["net"] for r in out["bets"]) + out["house"]["net"] == 0
    assert len(out["bets"]) == len(doc["bets"])
    for row in out["bets"]:
        assert row["net"] == row["ante_net"] + row["raise_net"]
        assert row["net"] >= -row["staked"]


@settings(max_examples=150, deadline=None)
@given(rounds(), st.data())
def test_any_prefix_awaits_and_any_corruption_is_refused(doc: dict[str, Any], data: st.DataObject) -> None:
    # given
    events = doc["events"]
    cut = data.draw(st.integers(0, len(events) - 1))

    # when: a prefix
    out = play({**doc, "events": events[:cut]})

    # then
    assert out["status"] == "awaiting"
    assert sum(r["net"] for r in out["bets"]) <= 0

    # given: the next event corrupted
    used = [e["card"] for e in events[:cut] if "card" in e]
    if "card" in events[cut]:
        corrupt = data.draw(st.sampled_from([{"card": "1X"}, {"card": used[0]} if used else {"card": "1X"},
                                             {"seat": 1, "action": "raise"}]))  # fmt: skip
    else:
        corrupt = data.draw(st.sampled_from([{"card": "2H"}, {"seat": events[cut]["seat"], "action": "stand"}]))

    # when / then
    with pytest.raises(EngineError) as info:
        play({**doc, "events": [*events[:cut], corrupt]})
    assert info.value.event == cut


# -- house edge ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_house_edge_is_the_published_5_22_percent_exactly() -> None:
    # given: Wizard of Odds' exact total loss over all 19,933,230,517,200 deals under perfect strategy

    # when
    (row,) = ENGINE.house_edge({})

    # then
    assert row.bet == "ante"
    assert row.edge == Fraction(1_041_372_912_372, 19_933_230_517_200)
    assert round(float(row.edge) * 100, 2) == 5.22
    assert row.method.startswith("exact enumeration")


@pytest.mark.slow
def test_house_edge_moves_with_the_raise_and_the_chart() -> None:
    # given
    standard = ENGINE.house_edge({})[0].edge

    # when
    raise_as_seed = ENGINE.house_edge({"raise_multiple": 1})[0].edge
    poorer_chart = ENGINE.house_edge({"raise_pays": {"two_pair": 1, "three_of_a_kind": 2}})[0].edge
    richer_chart = ENGINE.house_edge({"raise_pays": {"full_house": 8}})[0].edge

    # then
    assert raise_as_seed < 0 < standard  # raising just the ante gives the player the edge
    assert poorer_chart > standard > richer_chart


@pytest.mark.slow
def test_the_counting_agrees_with_brute_force_on_sampled_hands() -> None:
    # given
    classes, per_pair = deal_classes()
    rng = random.Random(4)
    deck = full_deck()

    for _ in range(6):
        cards = rng.sample(deck, 6)
        player, up = cards[:5], cards[5]

        # when
        no_qualify, wins, ties, losses = deal_counts(player, up)

        # then
        rank = rank5(player)
        line = chart_line(rank) if rank >= rank5([parse_card(c) for c in "AS KD 4C 3H 2S".split()]) else None
        assert no_qualify + wins + ties + losses == per_pair
        assert classes.get((line, no_qualify, wins, ties), 0) > 0


@pytest.mark.slow
def test_totals_of_the_counting() -> None:
    # given
    classes, per_pair = deal_classes()

    # then: every (hand, up card) pair once; each non-qualifying dealer hand D meets every five of the
    # other 47 cards, once for each of its five cards as the up card
    below_ace_king = 1_302_540 - 164 * 1_020  # high-card hands less the A-K-x-x-x ones
    assert sum(classes.values()) == 2_598_960 * 47
    assert per_pair == comb(46, 4)
    assert sum(w * key[1] for key, w in classes.items()) == below_ace_king * 5 * comb(47, 5)
    total, _, deals = optimal_return(2, tuple(sorted(RAISE_CHART.items())))
    assert deals == 19_933_230_517_200
    assert total == -1_041_372_912_372
