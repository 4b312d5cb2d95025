"""Let It Ride: dealing order, pull-backs, the chart, refusals, exact house edge with optimal play."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engines.cards import full_deck, parse_card
from tables.engines.errors import EngineError
from tables.engines.let_it_ride import ENGINE, PAYS, optimal_value, pay_line, start_value
from tables.engines.poker import card_codes, rank5, rank_codes
from tests.engines.helpers import play


def ride(seat: int, amount: int = 100, bet_id: str | None = None) -> dict[str, Any]:
    return {"id": bet_id or f"r{seat}", "seat": seat, "type": "ride", "amount": amount}


def round_doc(seats: dict[int, str], first: dict[int, str], community1: str, second: dict[int, str],
              community2: str, config: dict | None = None, amounts: dict[int, int] | None = None) -> dict[str, Any]:  # fmt: skip
    amounts = amounts or {}
    events: list[dict[str, Any]] = []
    for seat in sorted(seats):
        events += [{"card": c} for c in seats[seat].split()]
    events += [{"seat": s, "action": first[s]} for s in sorted(first)]
    events += [{"card": community1}]
    events += [{"seat": s, "action": second[s]} for s in sorted(second)]
    events += [{"card": community2}]
    return {
        "game": "let_it_ride",
        "config": config or {},
        "bets": [ride(s, amounts.get(s, 100)) for s in sorted(seats)],
        "events": events,
    }


def one_seat(cards: str, first: str = "let_it_ride", second: str = "let_it_ride", **kw: Any) -> dict[str, Any]:
    c = cards.split()
    return round_doc({1: " ".join(c[:3])}, {1: first}, c[3], {1: second}, c[4], **kw)



# -- settlement ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "line", "pays"),
    [
        ("AH KH QH JH TH", "royal_flush", 1000),
        ("9C 8C 7C 6C 5C", "straight_flush", 200),
        ("4S 4H 4D 4C 9S", "four_of_a_kind", 50),
        ("3S 3H 3D 8C 8S", "full_house", 11),
        ("AD 9D 7D 4D 2D", "flush", 8),
        ("5S 4H 3D 2C AS", "straight", 5),
        ("QS QH QD 8C 2S", "three_of_a_kind", 3),
        ("2S 2H 3D 3C KS", "two_pair", 2),
        ("TS TH 4D 8C 2S", "tens_or_better", 1),
        ("AS AH 4D 8C 2S", "tens_or_better", 1),
    ],
)
def test_every_riding_bet_is_paid_by_the_chart(cards: str, line: str, pays: int) -> None:
    # given / when
    out = play(one_seat(cards))

    # then
    row = out["bets"][0]
    assert (row["result"], row["line"], row["net"], row["staked"]) == ("win", line, 3 * 100 * pays, 300)
    assert row["riding"] == [True, True, True]
    assert out["house"]["net"] == -row["net"]


@pytest.mark.parametrize("cards", ["9S 9H 4D 8C 2S", "AS KH 4D 8C 2S", "2S 3H 4D 5C 7S"])
def test_hands_below_a_pair_of_tens_lose_every_riding_bet(cards: str) -> None:
    row = play(one_seat(cards))["bets"][0]
    assert (row["result"], row["line"], row["net"]) == ("lose", None, -300)


@pytest.mark.parametrize(
    ("first", "second", "riding", "win_net", "lose_net"),
    [
        ("let_it_ride", "let_it_ride", [True, True, True], 300, -300),
        ("pull_back", "let_it_ride", [False, True, True], 200, -200),
        ("let_it_ride", "pull_back", [True, False, True], 200, -200),
        ("pull_back", "pull_back", [False, False, True], 100, -100),
    ],
)
def test_a_pulled_back_bet_neither_wins_nor_loses(first: str, second: str, riding: list[bool], win_net: int,
                                                  lose_net: int) -> None:  # fmt: skip
    # given
    winning = play(one_seat("TS TH 4D 8C 2S", first, second))["bets"][0]
    losing = play(one_seat("9S 9H 4D 8C 2S", first, second))["bets"][0]

    # then: the $ bet always rides
    assert (winning["riding"], winning["net"], winning["staked"]) == (riding, win_net, 100 * sum(riding))
    assert (losing["riding"], losing["net"]) == (riding, lose_net)


def test_the_chart_is_a_setting() -> None:
    row = play(one_seat("3S 3H 3D 8C 8S", config={"pays": {"full_house": 12}}))["bets"][0]
    assert row["net"] == 3 * 100 * 12


def test_several_seats_share_the_community_cards() -> None:
    # given
    doc = round_doc(
        {1: "KS KH 4D", 4: "7C 8C 2H"},
        {1: "let_it_ride", 4: "pull_back"},
        "9D",
        {1: "let_it_ride", 4: "pull_back"},
        "KD",
        amounts={4: 500},
    )

    # when
    out = play(doc)

    # then
    rows = {r["seat"]: r for r in out["bets"]}
    assert (rows[1]["hand"], rows[1]["net"]) == ("three kings", 900)
    assert (rows[4]["hand"], rows[4]["net"]) == ("king-nine high", -500)
    assert out["outcome"] == {"community": ["9D", "KD"], "paying_hands": 1}
    assert out["say"] == "Community cards 9D KD: 1 paying hand(s)"
    assert out["house"]["net"] == -400


def test_next_says_what_the_dealer_does_at_every_stage() -> None:
    # given
    full = round_doc({2: "KS KH 4D", 3: "7C 8C 2H"}, {2: "let_it_ride", 3: "pull_back"}, "9D",
                     {2: "let_it_ride", 3: "let_it_ride"}, "KD")  # fmt: skip
    expected = (
        [("card", "seat:2", f"Seat 2: card {i} of 3") for i in (1, 2, 3)]
        + [("card", "seat:3", f"Seat 3: card {i} of 3") for i in (1, 2, 3)]
        + [("action", 2, "Seat 2: pull back bet 1 or let it ride?"), ("action", 3, "Seat 3: pull back bet 1 or let it ride?")]
        + [("card", "community", "Turn the first community card")]
        + [("action", 2, "Seat 2: pull back bet 2 or let it ride?"), ("action", 3, "Seat 3: pull back bet 2 or let it ride?")]
        + [("card", "community", "Turn the second community card")]
    )  # fmt: skip

    # when / then
    for n, (kind, where, say) in enumerate(expected):
        out = play({**full, "events": full["events"][:n]})
        nxt = out["next"]
        assert out["status"] == "awaiting"
        assert (nxt["expect"], nxt.get("to", nxt.get("seat")), nxt["say"]) == (kind, where, say)
        if kind == "action":
            assert nxt["allowed"] == ["pull_back", "let_it_ride"]
    after_first = play({**full, "events": full["events"][:9]})
    assert after_first["hands"]["seat:3"]["riding"] == [False, True, True]
    assert play(full)["status"] == "settled"


def test_a_table_without_bets_has_nothing_to_deal() -> None:
    out = play({"game": "let_it_ride", "bets": [], "events": []})
    assert (out["status"], out["bets"], out["house"]["net"]) == ("settled", [], 0)


# -- refusals -----------------------------------------------------------------------------------


def base_doc() -> dict[str, Any]:
    return round_doc({1: "KS KH 4D", 2: "7C 8C 2H"}, {1: "let_it_ride", 2: "pull_back"}, "9D",
                     {1: "let_it_ride", 2: "let_it_ride"}, "KD")  # fmt: skip


@pytest.mark.parametrize(
    ("index", "event", "code"),
    [
        (1, {"card": "11H"}, "bad_card"),
        (1, {"card": "KS"}, "card_exhausted"),
        (4, {"card": "5H", "to": "seat:1"}, "out_of_turn"),
        (4, {"card": "5H", "to": "dealer"}, "bad_event"),
        (4, {"seat": 2, "action": "let_it_ride"}, "out_of_turn"),  # seat 2's cards are due
        (6, {"card": "5H"}, "out_of_turn"),  # seat 1's first choice is due
        (6, {"seat": 2, "action": "pull_back"}, "out_of_turn"),
        (6, {"seat": 1, "action": "fold"}, "illegal_action"),
        (6, {"seat": 1, "action": "pull_back", "bet": 1}, "bad_event"),
        (8, {"seat": 1, "action": "pull_back"}, "out_of_turn"),  # the community card is due
        (8, {"card": "5H", "to": "seat:1"}, "out_of_turn"),
        (8, {"card": "7C"}, "card_exhausted"),
        (11, {"card": "KS", "to": "community"}, "card_exhausted"),
    ],
)
def test_bad_events_are_refused_at_their_index(index: int, event: dict[str, Any], code: str) -> None:
    # given
    doc = base_doc()
    doc["events"][index] = event

    # when
    with pytest.raises(EngineError) as info:
        play(doc)

    # then
    assert (info.value.code, info.value.event) == (code, index)


def test_an_event_after_the_round_is_complete_is_refused() -> None:
    doc = base_doc()
    doc["events"].append({"card": "2D"})
    with pytest.raises(EngineError) as info:
        play(doc)
    assert (info.value.code, info.value.event) == ("out_of_turn", 12)


@pytest.mark.parametrize(
    ("bets", "config", "code"),
    [
        ([ride(1), ride(1, bet_id="again")], {}, "bad_bet"),
        ([{"id": "x", "seat": 1, "type": "ante", "amount": 100}], {}, "bad_bet_type"),
        ([ride(1, amount=-5)], {}, "bad_amount"),
        ([ride(1, amount=600)], {"max_bet": 500}, "over_table_max"),
        ([ride(1, amount=5)], {"min_bet": 10}, "under_table_min"),
        ([ride(1)], {"pays": {"pair": 1}}, "bad_config"),
        ([ride(1)], {"pays": {"flush": -1}}, "bad_config"),
    ],
)
def test_bad_bets_and_config_are_refused(bets: list, config: dict, code: str) -> None:
    with pytest.raises(EngineError) as info:
        play({"game": "let_it_ride", "config": config, "bets": bets, "events": []})
    assert (info.value.code, info.value.event) == (code, None)


# -- properties ---------------------------------------------------------------------------------

DECK = [str(c) for c in full_deck()]
CHOICE = st.sampled_from(["pull_back", "let_it_ride"])


@st.composite
def rounds(draw: st.DrawFn) -> dict[str, Any]:
    deck = iter(draw(st.permutations(DECK)))
    seats = draw(st.lists(st.integers(1, 7), min_size=1, max_size=7, unique=True))
    hands = {s: " ".join(next(deck) for _ in range(3)) for s in seats}
    amounts = {s: draw(st.integers(1, 10_000)) for s in seats}
    first = {s: draw(CHOICE) for s in seats}
    second = {s: draw(CHOICE) for s in seats}
    return round_doc(hands, first, next(deck), second, next(deck), amounts=amounts)


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_any_round_settles_and_conserves_money(doc: dict[str, Any]) -> None:
    out = play(doc)
    assert out["status"] == "settled"
    assert sum(r["net"] for r in out["bets"]) + out["house"]["net"] == 0
    for row in out["bets"]:
        assert row["staked"] == row["amount"] * sum(row["riding"])
        assert row["net"] == (-row["staked"] if row["line"] is None else row["staked"] * PAYS[row["line"]])


@settings(max_examples=150, deadline=None)
@given(rounds(), st.data())
def test_any_prefix_awaits_and_any_corruption_is_refused(doc: dict[str, Any], data: st.DataObject) -> None:
    events = doc["events"]
    cut = data.draw(st.integers(0, len(events) - 1))
    assert play({**doc, "events": events[:cut]})["status"] == "awaiting"
    used = [e["card"] for e in events[:cut] if "card" in e]
    if "card" in events[cut]:
        options = [{"card": "ZZ"}, {"seat": 1, "action": "let_it_ride"}] + ([{"card": used[-1]}] if used else [])
    else:
        options = [{"card": "2H"}, {"seat": events[cut]["seat"], "action": "raise"}]
    with pytest.raises(EngineError) as info:
        play({**doc, "events": [*events[:cut], data.draw(st.sampled_from(options))]})
    assert info.value.event == cut


# -- house edge ---------------------------------------------------------------------------------


def test_house_edge_is_the_published_3_51_percent() -> None:
    # when
    (row,) = ENGINE.house_edge({})

    # then
    assert row.bet == "ride"
    assert row.edge == Fraction(37_963, 1_082_900)
    assert round(float(row.edge) * 100, 2) == 3.51
    assert row.method.startswith("exact enumeration")


def test_house_edge_moves_with_the_chart() -> None:
    standard = ENGINE.house_edge({})[0].edge
    assert ENGINE.house_edge({"pays": {"full_house": 12}})[0].edge < standard
    assert ENGINE.house_edge({"pays": {"flush": 6, "straight": 4}})[0].edge > standard


def test_pay_line_starts_at_a_pair_of_tens() -> None:
    assert pay_line(rank5([parse_card(c) for c in "TS TH 2C 3D 4S".split()])) == "tens_or_better"
    assert pay_line(rank5([parse_card(c) for c in "9S 9H AC KD QS".split()])) is None


def brute_start_value(three: list[int]) -> Fraction:
    """Every fourth and fifth card by brute force, pulling back each bet when its expectation is negative."""
    rest = [c for c in range(52) if c not in three]

    def pay(five: list[int]) -> int:
        line = pay_line(rank_codes(five))
        return PAYS[line] if line is not None else -1

    total3 = 0
    bet2 = Fraction(0)
    for fourth in rest:
        s4 = sum(pay([*three, fourth, fifth]) for fifth in rest if fifth != fourth)
        total3 += s4
        bet2 += max(Fraction(s4, 48), 0)
    e3 = Fraction(total3, 49 * 48)
    return max(e3, 0) + bet2 / 49 + e3


def test_start_values_agree_with_brute_force_on_sampled_starts() -> None:
    # given: random starts and a few that ride
    rng = random.Random(9)
    starts = [rng.sample(full_deck(), 3) for _ in range(8)]
    starts += [[parse_card(c) for c in s.split()] for s in ("AS KS QS", "TH TD 4C", "JC TC 9C", "2D 3D 5D")]

    for three in starts:
        # when / then
        assert start_value(three) == brute_start_value(card_codes(three))


def test_the_house_edge_is_the_average_start_value_over_every_start() -> None:
    # given
    value, ride1, ride2 = optimal_value(tuple(sorted(PAYS.items())))

    # when
    total = sum(start_value(list(three)) for three in combinations(full_deck(), 3))

    # then
    assert total / 22_100 == value
    assert 0 < ride1 < ride2 < 1
