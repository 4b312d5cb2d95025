"""Trente et Quarante: the two rows, every settlement case, insurance, refusals, the exact edge."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engines import registry
from tables.engines.cards import full_deck
from tables.engines.errors import EngineError
from tables.engines.trente_et_quarante import ENGINE, double_hit_probability, refait_31_probability
from tests.engines.helpers import refusal_of

BET_TYPES = ("rouge", "noir", "couleur", "inverse")


def all_bets(amount: int = 1_000, **extra: Any) -> list[dict[str, Any]]:
    return [{"id": t, "seat": i + 1, "type": t, "amount": amount, **extra} for i, t in enumerate(BET_TYPES)]


def cards(*names: str) -> list[dict[str, Any]]:
    return [{"card": n} for n in names]


def play(
    events: list[dict[str, Any]], bets: list[dict[str, Any]] | None = None, config: dict[str, Any] | None = None
) -> dict[str, Any]:
    return registry.play(
        {
            "game": "trente_et_quarante",
            "config": config or {},
            "bets": bets if bets is not None else all_bets(),
            "events": events,
        }
    )


def refusal(
    events: list[dict[str, Any]], bets: list[dict[str, Any]] | None = None, config: dict[str, Any] | None = None
) -> EngineError:
    return refusal_of(play, events, bets, config)


def results(out: dict[str, Any]) -> dict[str, tuple[str, int]]:
    return {b["id"]: (b["result"], b["net"]) for b in out["bets"]}


# coups by what they decide: (noir row, rouge row)
NOIR_32_BLACK_FIRST = (("KS", "9C", "5H", "8D"), ("QH", "TD", "3S", "2C", "KD"))  # noir 32, rouge 35
ROUGE_31_BLACK_FIRST = (("KS", "QS", "JS", "9S"), ("KH", "QH", "TH", "AH"))  # noir 39, rouge 31
NOIR_32_RED_FIRST = (("KH", "QS", "JS", "2S"), ("KD", "QD", "TD", "5D"))  # noir 32, rouge 35
ROUGE_31_RED_FIRST = (("KD", "QS", "JS", "9S"), ("KH", "QH", "TH", "AH"))  # noir 39, rouge 31
REFAIT_35 = (("KS", "QS", "JS", "5S"), ("KH", "QH", "5H", "KD"))
REFAIT_31 = (("KS", "QS", "JS", "AS"), ("KH", "QH", "JH", "AH"))


def coup(rows: tuple[tuple[str, ...], tuple[str, ...]]) -> list[dict[str, Any]]:
    return cards(*rows[0], *rows[1])


# -- the rule book's worked example and every settlement case -------------------------------------------


def test_seed_example_a_red_first_card_and_rouge_winning_is_couleur() -> None:
    # given: the rule book's "a diamond is dealt first"; the first card of the noir row decides (docs/games.md)
    events = coup(ROUGE_31_RED_FIRST)

    # when
    out = play(events)

    # then
    assert out["outcome"] == {
        "winner": "rouge",
        "noir": 39,
        "rouge": 31,
        "refait": False,
        "refait_31": False,
        "first_card": "KD",
        "first_colour": "red",
        "colour_winner": "couleur",
    }
    assert out["say"] == "Noir 39, rouge 31: rouge wins; couleur wins"


@pytest.mark.parametrize(("rows", "expected"), [
    (NOIR_32_BLACK_FIRST, {"noir": "win", "rouge": "lose", "couleur": "win", "inverse": "lose"}),
    (ROUGE_31_BLACK_FIRST, {"noir": "lose", "rouge": "win", "couleur": "lose", "inverse": "win"}),
    (NOIR_32_RED_FIRST, {"noir": "win", "rouge": "lose", "couleur": "lose", "inverse": "win"}),
    (ROUGE_31_RED_FIRST, {"noir": "lose", "rouge": "win", "couleur": "win", "inverse": "lose"}),
    (REFAIT_35, {"noir": "push", "rouge": "push", "couleur": "push", "inverse": "push"}),
    (REFAIT_31, {"noir": "half", "rouge": "half", "couleur": "half", "inverse": "half"}),
])  # fmt: skip
def test_every_bet_in_every_case(rows: tuple[tuple[str, ...], tuple[str, ...]], expected: dict[str, str]) -> None:
    # when
    out = play(coup(rows))

    # then
    net = {"win": 1_000, "lose": -1_000, "push": 0, "half": -500}
    assert results(out) == {t: (r, net[r]) for t, r in expected.items()}
    assert out["house"] == {"net": -sum(net[r] for r in expected.values()), "commission": 0, "rake": 0}


def test_refait_outcomes_and_words() -> None:
    # when
    plain, at_31 = play(coup(REFAIT_35)), play(coup(REFAIT_31))

    # then
    assert (plain["outcome"]["winner"], plain["outcome"]["refait"], plain["outcome"]["refait_31"]) == (
        None,
        True,
        False,
    )
    assert plain["outcome"]["colour_winner"] is None
    assert plain["say"] == "Refait at 35: stand-off"
    assert (at_31["outcome"]["refait"], at_31["outcome"]["refait_31"]) == (True, True)
    assert at_31["say"] == "Refait at 31: the house takes half of every bet"


@pytest.mark.parametrize(("rounding", "taken"), [("down", 500), ("up", 501), ("half_up", 501), ("half_even", 500)])
def test_refait_31_half_of_an_odd_stake_is_rounded_as_configured(rounding: str, taken: int) -> None:
    # when
    out = play(coup(REFAIT_31), all_bets(1_001), {"refait_rounding": rounding})

    # then
    assert {b["net"] for b in out["bets"]} == {-taken}
    assert out["house"]["net"] == 4 * taken


@pytest.mark.parametrize(("rows", "bet", "result", "net"), [
    (NOIR_32_BLACK_FIRST, "noir", "win", 990),
    (NOIR_32_BLACK_FIRST, "rouge", "lose", -1_010),
    (REFAIT_35, "couleur", "push", -10),
    (REFAIT_31, "inverse", "push", -10),
])  # fmt: skip
def test_insured_bets_pay_the_premium_and_keep_the_stake_at_refait_31(
    rows: Any, bet: str, result: str, net: int
) -> None:
    # given
    bets = [{"id": "b", "seat": 3, "type": bet, "amount": 1_000, "insured": True}]

    # when
    out = play(coup(rows), bets, {"insurance": True})

    # then
    assert out["bets"] == [
        {
            "id": "b",
            "seat": 3,
            "type": bet,
            "amount": 1_000,
            "result": result,
            "net": net,
            "commission": 0,
            "insured": True,
            "premium": 10,
        }
    ]
    assert out["house"]["net"] == -net


@pytest.mark.parametrize(("rounding", "premium"), [("up", 2), ("down", 1), ("half_even", 2)])
def test_insurance_premium_rounding(rounding: str, premium: int) -> None:
    # given: 1 % of 150 is 1.5
    bets = [{"id": "b", "seat": 3, "type": "noir", "amount": 150, "insured": True}]

    # when
    out = play(coup(REFAIT_31), bets, {"insurance": True, "insurance_rounding": rounding})

    # then
    assert out["bets"][0]["premium"] == premium
    assert out["bets"][0]["net"] == -premium


def test_an_uninsured_bet_at_an_insurance_table_loses_half_at_refait_31() -> None:
    # given
    bets = [
        {"id": "a", "seat": 3, "type": "noir", "amount": 1_000, "insured": False},
        {"id": "b", "seat": 4, "type": "rouge", "amount": 1_000},
    ]

    # when
    out = play(coup(REFAIT_31), bets, {"insurance": True})

    # then
    assert results(out) == {"a": ("half", -500), "b": ("half", -500)}
    assert "premium" not in out["bets"][0]


# -- the deal ----------------------------------------------------------------------------------------


def test_noir_is_dealt_to_31_or_more_then_rouge() -> None:
    # given
    events = coup(NOIR_32_BLACK_FIRST)

    # when
    steps = [play(events[:i])["next"] for i in range(len(events))]

    # then
    assert [(s["to"], s["say"]) for s in steps] == [
        ("noir", "Deal the noir row"),
        ("noir", "Noir 10: deal to noir"),
        ("noir", "Noir 19: deal to noir"),
        ("noir", "Noir 24: deal to noir"),
        ("rouge", "Noir 32. Deal the rouge row"),
        ("rouge", "Rouge 10: deal to rouge"),
        ("rouge", "Rouge 20: deal to rouge"),
        ("rouge", "Rouge 23: deal to rouge"),
        ("rouge", "Rouge 25: deal to rouge"),
    ]


def test_hands_show_both_rows() -> None:
    # when
    out = play(cards("KS", "9C", "5H", "8D", "AH"))

    # then
    assert out["status"] == "awaiting"
    assert out["hands"] == {
        "noir": {"cards": ["KS", "9C", "5H", "8D"], "total": 32, "complete": True},
        "rouge": {"cards": ["AH"], "total": 1, "complete": False},
    }
    assert out["bets"] == []


def test_to_is_optional_and_checked() -> None:
    # given
    events = [
        {"card": "KS", "to": "noir"},
        {"card": "10C", "to": "noir"},
        {"card": "js"},
        {"card": "AS"},
        {"card": "KH", "to": "rouge"},
    ]

    # when
    out = play(events)

    # then
    assert out["hands"]["noir"]["cards"] == ["KS", "TC", "JS", "AS"]
    assert out["hands"]["rouge"]["cards"] == ["KH"]


def test_a_thirty_of_aces_and_small_cards_still_needs_a_card() -> None:
    # given: noir at exactly 30
    events = cards("KS", "KC", "KD")

    # when
    out = play(events)

    # then
    assert out["next"]["to"] == "noir"
    assert out["next"]["say"] == "Noir 30: deal to noir"


# -- refusals ---------------------------------------------------------------------------------------


def test_cards_to_the_wrong_row_are_refused() -> None:
    # when
    errors = [
        refusal([{"card": "KS", "to": "rouge"}]),
        refusal([{"card": "KS", "to": "red"}]),
        refusal([*cards("KS", "KC", "KD", "AS"), {"card": "2H", "to": "noir"}]),
    ]

    # then
    assert [(e.code, e.event) for e in errors] == [("out_of_turn", 0), ("bad_event", 0), ("out_of_turn", 4)]


def test_no_card_after_the_coup_and_no_actions() -> None:
    # when
    errors = [
        refusal([*coup(REFAIT_35), {"card": "2C"}]),
        refusal([{"card": "KS"}, {"seat": 1, "action": "draw"}]),
        refusal([{"bet": {"id": "x", "seat": 1, "type": "noir", "amount": 5}}]),
        refusal([{"card": "KS", "seat": 2}]),
    ]

    # then
    assert [(e.code, e.event) for e in errors] == [
        ("out_of_turn", 8),
        ("out_of_turn", 1),
        ("out_of_turn", 0),
        ("bad_event", 0),
    ]


def test_bad_and_exhausted_cards_name_their_event() -> None:
    # when
    errors = [
        refusal(cards("KS", "JK")),
        refusal(cards("KS", "11S")),
        refusal(cards("KS", "QS", "KS"), config={"decks": 1}),
        refusal([{"card": "KS"} for _ in range(7)]),
    ]

    # then
    assert [(e.code, e.event) for e in errors] == [
        ("bad_card", 1),
        ("bad_card", 1),
        ("card_exhausted", 2),
        ("card_exhausted", 6),
    ]


def test_bad_bets_are_refused() -> None:
    # given
    cases = [
        ([{"id": "b", "seat": 1, "type": "red", "amount": 5}], {}, "bad_bet_type"),
        ([{"id": "b", "seat": 1, "type": "noir", "amount": 0}], {}, "bad_amount"),
        ([{"id": "b", "seat": 1, "type": "noir", "amount": 5, "insured": True}], {}, "bad_bet"),
        ([{"id": "b", "seat": 1, "type": "noir", "amount": 5, "insured": "yes"}], {"insurance": True}, "bad_bet"),
        ([{"id": "b", "seat": 1, "type": "noir", "amount": 5, "number": 3}], {}, "bad_bet"),
        ([{"id": "b", "seat": 1, "type": "noir", "amount": 5}], {"min_bet": 10}, "under_table_min"),
        ([{"id": "b", "seat": 1, "type": "noir", "amount": 50}], {"max_bet": 10}, "over_table_max"),
    ]

    # when
    errors = [refusal([], bets, config) for bets, config, _ in cases]

    # then
    assert [(e.code, e.event) for e in errors] == [(code, None) for _, _, code in cases]


def test_bad_config_is_refused() -> None:
    # when
    errors = [
        refusal([], config={"refait_31": "prison"}),
        refusal([], config={"decks": 0}),
        refusal([], config={"insurance": "yes"}),
        refusal([], config={"commission_bp": 500}),
    ]

    # then
    assert [e.code for e in errors] == ["bad_config", "bad_config", "bad_config", "unknown_setting"]


# -- the exact edge -----------------------------------------------------------------------------------


def test_house_edge_matches_the_seed_and_is_half_the_chance_of_refait_31() -> None:
    # when
    rows = ENGINE.house_edge({})
    p31 = refait_31_probability(6)

    # then: the rule book's "a little more than one per cent", refait at 31 "about once in 40 coups"
    assert [r.bet for r in rows] == list(BET_TYPES)
    assert {r.edge for r in rows} == {p31 / 2}
    assert round(float(p31) * 100, 3) == 2.189
    assert round(float(rows[0].edge) * 100, 3) == 1.095
    assert Fraction(1, 50) < p31 < Fraction(1, 40)
    assert "6-deck shoe (312 cards)" in rows[0].method


def test_house_edge_moves_with_the_shoe_and_insurance() -> None:
    # when
    one_deck = ENGINE.house_edge({"decks": 1})
    insured = {r.bet: r.edge for r in ENGINE.house_edge({"insurance": True, "insurance_bp": 150})}

    # then
    assert round(float(one_deck[0].edge) * 100, 3) == 1.087
    assert one_deck[0].edge < ENGINE.house_edge({"decks": 8})[0].edge
    assert insured["noir+insured"] == Fraction(15, 1000)
    assert len(insured) == 8


def naive_rows(counts: dict[int, int], target: int) -> dict[tuple[int, int], Fraction]:
    """The exact joint law of the two row totals, by brute force over every deal order."""
    values = sorted(counts)

    @cache
    def deal(left: tuple[int, ...], row: int, running: int, first: int) -> dict[tuple[int, int], Fraction]:
        law: dict[tuple[int, int], Fraction] = {}
        n = sum(left)
        for i, value in enumerate(values):
            if not left[i]:
                continue
            p = Fraction(left[i], n)
            after = left[:i] + (left[i] - 1,) + left[i + 1 :]
            total = running + value
            if total < target:
                sub = deal(after, row, total, first)
            elif row == 0:
                sub = deal(after, 1, 0, total)
            else:
                sub = {(first, total): Fraction(1)}
            for key, q in sub.items():
                law[key] = law.get(key, Fraction(0)) + p * q
        return law

    return deal(tuple(counts[v] for v in values), 0, 0, 0)


@pytest.mark.parametrize(("counts", "target"), [
    ({1: 3, 2: 2, 3: 2, 5: 1, 10: 4}, 7),
    ({1: 3, 2: 2, 3: 2, 5: 1, 10: 4}, 12),
    ({1: 2, 2: 2, 3: 2, 4: 2, 10: 3}, 9),
    ({2: 4, 3: 1, 10: 2}, 10),
])  # fmt: skip
def test_dp_matches_brute_force_and_the_rows_are_exchangeable(counts: dict[int, int], target: int) -> None:
    # when
    law = naive_rows(counts, target)

    # then
    assert sum(law.values()) == 1
    assert double_hit_probability(counts, target) == law.get((target, target), 0)
    noir_wins = sum(p for (noir, rouge), p in law.items() if noir < rouge)
    rouge_wins = sum(p for (noir, rouge), p in law.items() if rouge < noir)
    assert noir_wins == rouge_wins


# -- properties ---------------------------------------------------------------------------------------


def deal_out(shoe: list[str]) -> list[dict[str, Any]]:
    """Deal both rows from the top of ``shoe`` (docs/games.md), as the dealer would."""
    events, i = [], 0
    for _ in range(2):
        running = 0
        while running < 31:
            rank = shoe[i][0]
            running += 1 if rank == "A" else 10 if rank in "TJQK" else int(rank)
            events.append({"card": shoe[i]})
            i += 1
    return events


@st.composite
def bet_lists(draw: st.DrawFn) -> list[dict[str, Any]]:
    n = draw(st.integers(0, 8))
    return [
        {
            "id": f"b{i}",
            "seat": draw(st.integers(1, 20)),
            "type": draw(st.sampled_from(BET_TYPES)),
            "amount": draw(st.integers(1, 100_000)),
            "insured": draw(st.booleans()),
        }
        for i in range(n)
    ]


@settings(max_examples=150, deadline=None)
@given(
    bets=bet_lists(),
    seed=st.integers(0, 2**32),
    decks=st.sampled_from([1, 6]),
    rounding=st.sampled_from(["down", "up", "half_even"]),
)
def test_random_coups_conserve_money(bets: list[dict[str, Any]], seed: int, decks: int, rounding: str) -> None:
    # given
    shoe = [str(c) for c in full_deck()] * decks
    random.Random(seed).shuffle(shoe)
    events = deal_out(shoe)
    config = {"decks": decks, "insurance": True, "refait_rounding": rounding, "insurance_rounding": rounding}

    # when
    partial = play(events[:-1], bets, config)
    out = play(events, bets, config)

    # then
    assert partial["status"] == "awaiting"
    assert out["status"] == "settled"
    assert sum(b["net"] for b in out["bets"]) + out["house"]["net"] == 0
    for row in out["bets"]:
        assert -row["amount"] - row.get("premium", 0) <= row["net"] <= row["amount"]
    winner = out["outcome"]["winner"]
    if winner is not None:
        assert out["outcome"][winner] < out["outcome"]["rouge" if winner == "noir" else "noir"]


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**32), position=st.integers(0, 30), corruption=st.sampled_from(["unknown", "copy", "action"])
)
def test_corrupted_sequences_are_refused(seed: int, position: int, corruption: str) -> None:
    # given: a valid one-deck coup
    shoe = [str(c) for c in full_deck()]
    random.Random(seed).shuffle(shoe)
    events = deal_out(shoe)
    index = 1 + position % (len(events) - 1)
    bad = list(events)
    bad[index] = {
        "unknown": {"card": "XX"},
        "copy": {"card": events[0]["card"]},
        "action": {"seat": 1, "action": "draw"},
    }[corruption]

    # when
    error = refusal(bad, config={"decks": 1})

    # then
    assert play(events, config={"decks": 1})["status"] == "settled"
    expected = {"unknown": "bad_card", "copy": "card_exhausted", "action": "out_of_turn"}[corruption]
    assert (error.code, error.event) == (expected, index)


@settings(max_examples=100, deadline=None)
@given(
    events=st.lists(
        st.dictionaries(
            st.sampled_from(["card", "to", "seat", "action", "bet"]),
            st.one_of(
                st.none(), st.integers(-1, 12), st.sampled_from(["KS", "AH", "9D", "noir", "rouge", "10C", "ZZ", ""])
            ),
            max_size=3,
        ),
        max_size=14,
    )
)
def test_garbage_raises_only_engine_errors(events: list[dict[str, Any]]) -> None:
    # when
    result: dict[str, Any] | EngineError
    try:
        result = play(events, config={"decks": 1})
    except EngineError as error:
        result = error

    # then
    if isinstance(result, EngineError):
        assert result.event is None or 0 <= result.event < len(events)
    else:
        assert result["status"] in ("awaiting", "settled")
