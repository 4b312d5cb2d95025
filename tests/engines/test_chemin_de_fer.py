"""Chemin de fer: the three-situations chart cell by cell, options, bank and cover, settlement, edges."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engines import baccarat, registry
from tables.engines.cards import full_deck
from tables.engines.chemin_de_fer import ENGINE, OptionStrategy, coup_probabilities
from tables.engines.errors import EngineError
from tests.engines.helpers import refusal_of, without_input

BANK_SEAT, PUNTER_SEAT = 1, 4
RANK_OF = {0: "K", 1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9"}


def bets(bank: int = 10_000, *puntos: tuple[int, int]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [{"id": "bank", "seat": BANK_SEAT, "type": "bank", "amount": bank}]
    for i, (seat, amount) in enumerate(puntos or ((PUNTER_SEAT, bank),)):
        rows.append({"id": f"p{i + 1}", "seat": seat, "type": "punto", "amount": amount})
    return rows


def play(
    events: list[dict[str, Any]], bet_rows: list[dict[str, Any]] | None = None, config: dict[str, Any] | None = None
) -> dict[str, Any]:
    return registry.play(
        {
            "game": "chemin_de_fer",
            "config": config or {},
            "bets": bet_rows if bet_rows is not None else bets(),
            "events": events,
        }
    )


def refusal(
    events: list[dict[str, Any]], bet_rows: list[dict[str, Any]] | None = None, config: dict[str, Any] | None = None
) -> EngineError:
    return refusal_of(play, events, bet_rows, config)


def two_cards(total: int, suit: str) -> tuple[str, str]:
    """Two cards making ``total``: the total's rank (K for 0) and a queen."""
    return RANK_OF[total] + suit, "Q" + suit


def deal(punter: int, banker: int) -> list[dict[str, Any]]:
    """The first four cards for the given two-card totals, in dealing order P, B, P, B."""
    p1, p2 = two_cards(punter, "S")
    b1, b2 = two_cards(banker, "H")
    return [{"card": p1}, {"card": b1}, {"card": p2}, {"card": b2}]


def card(value: int, suit: str = "D") -> dict[str, Any]:
    return {"card": RANK_OF[value] + suit}


def action(seat: int, what: str) -> dict[str, Any]:
    return {"seat": seat, "action": what}


def what_next(out: dict[str, Any]) -> str:
    """D: a card is due to the banker; S: the coup is settled (banker stood); O: the banker must choose."""
    if out["status"] == "settled":
        return "S"
    nxt = out["next"]
    if nxt["expect"] == "card":
        assert nxt["to"] == "banker"
        return "D"
    assert without_input(nxt) == {
        "expect": "action",
        "seat": BANK_SEAT,
        "allowed": ["draw", "stand"],
        "say": nxt["say"],
        "hand": "banker",
    }
    return "O"


# -- the chart, every cell ------------------------------------------------------------------------

# banker's two-card total → column "-" (punter stood) then punter's third card 0..9 (docs/games.md)
CHART = {
    0: "D DDDDDDDDDD",
    1: "D DDDDDDDDDD",
    2: "D DDDDDDDDDD",
    3: "D DDDDDDDDSO",
    4: "D SSDDDDDDSS",
    5: "D SSSSODDDSS",
    6: "S SSSSSSDDSS",
    7: "S SSSSSSSSSS",
}
CELLS = [(b, None if col == 0 else col - 1, row.replace(" ", "")[col]) for b, row in CHART.items() for col in range(11)]


@pytest.mark.parametrize(("banker_total", "punter_third", "expected"), CELLS)
def test_banker_chart_cell(banker_total: int, punter_third: int | None, expected: str) -> None:
    # given: the punter stood on 6, or drew a card worth p from 2
    if punter_third is None:
        events = deal(6, banker_total)
    else:
        events = [*deal(2, banker_total), card(punter_third)]

    # when
    out = play(events)

    # then
    assert what_next(out) == expected
    if expected == "S":
        assert out["outcome"]["banker_choice"] is None
        assert len(out["hands"]["banker"]["cards"]) == 2


def test_the_chart_has_88_cells_and_exactly_two_banker_options() -> None:
    # then
    assert len(CELLS) == 88
    assert [(b, p) for b, p, cell in CELLS if cell == "O"] == [(3, 9), (5, 4)]


@pytest.mark.parametrize(
    ("punter_total", "expected"),
    [(0, "card"), (1, "card"), (2, "card"), (3, "card"), (4, "card"), (5, "action"), (6, "settled"), (7, "settled")],
)
def test_punter_chart_cell(punter_total: int, expected: str) -> None:
    # given: the banker holds 7, so a punter who stands ends the coup
    events = deal(punter_total, 7)

    # when
    out = play(events)

    # then
    if expected == "card":
        assert out["next"]["expect"] == "card"
        assert out["next"]["to"] == "player"
        assert out["next"]["say"] == f"Punter draws on {punter_total}"
    elif expected == "action":
        assert without_input(out["next"]) == {
            "expect": "action",
            "seat": PUNTER_SEAT,
            "allowed": ["draw", "stand"],
            "say": "Punter (seat 4) has 5: draw or stand?",
            "hand": "player",
        }
    else:
        assert out["status"] == "settled"
        assert out["hands"]["player"]["cards"] == list(two_cards(punter_total, "S"))


@pytest.mark.parametrize(
    ("punter", "banker", "winner"),
    [
        (8, 0, "player"),
        (9, 7, "player"),
        (9, 8, "player"),
        (0, 8, "banker"),
        (5, 9, "banker"),
        (8, 9, "banker"),
        (8, 8, "tie"),
        (9, 9, "tie"),
    ],
)
def test_a_natural_ends_the_coup_after_four_cards(punter: int, banker: int, winner: str) -> None:
    # when
    out = play(deal(punter, banker))

    # then
    assert out["status"] == "settled"
    assert out["outcome"]["winner"] == winner
    assert out["outcome"]["natural"] is True


# -- the three option cells, both ways ------------------------------------------------------------


def test_punter_stands_on_5_then_banker_draws_on_0_to_5() -> None:
    # given
    events = [*deal(5, 5), action(PUNTER_SEAT, "stand")]

    # when
    out = play(events)

    # then
    assert without_input(out["next"]) == {"expect": "card", "to": "banker", "say": "Punter stands on 5. Banker draws on 5"}
    assert out["hands"]["player"]["choice"] == "stand"


def test_punter_stands_on_5_and_banker_stands_on_6() -> None:
    # when
    out = play([*deal(5, 6), action(PUNTER_SEAT, "stand")])

    # then
    assert out["status"] == "settled"
    assert out["outcome"]["winner"] == "banker"
    assert out["outcome"]["punter_choice"] == "stand"


def test_punter_draws_on_5() -> None:
    # given
    events = [*deal(5, 6), action(PUNTER_SEAT, "draw"), card(2)]

    # when
    out = play(events)

    # then: 5 + 2 = 7; banker 6 against a 2 stands
    assert out["status"] == "settled"
    assert out["outcome"]["winner"] == "player"
    assert out["hands"]["player"]["total"] == 7


@pytest.mark.parametrize(("banker_total", "third"), [(3, 9), (5, 4)])
def test_banker_option_cell_draw(banker_total: int, third: int) -> None:
    # given
    events = [*deal(0, banker_total), card(third)]

    # when
    before = play(events)
    out = play([*events, action(BANK_SEAT, "draw"), card(4)])

    # then
    assert before["next"]["say"] == (
        f"Banker (seat 1) has {banker_total}, punter's third card counts {third}: draw or stand?"
    )
    assert out["status"] == "settled"
    assert out["outcome"]["banker_choice"] == "draw"
    assert out["hands"]["banker"]["total"] == (banker_total + 4) % 10


@pytest.mark.parametrize(("banker_total", "third"), [(3, 9), (5, 4)])
def test_banker_option_cell_stand(banker_total: int, third: int) -> None:
    # when
    out = play([*deal(0, banker_total), card(third), action(BANK_SEAT, "stand")])

    # then
    assert out["status"] == "settled"
    assert out["outcome"]["banker_choice"] == "stand"
    assert out["outcome"]["banker"] == banker_total
    assert out["outcome"]["player"] == third


def test_free_drawing_lets_both_sides_choose_everywhere() -> None:
    # given: punter 3 stands by choice, banker 7 draws by choice
    config = {"drawing": "free"}
    events = [*deal(3, 7)]

    # when
    first = play(events, config=config)
    second = play([*events, action(PUNTER_SEAT, "stand")], config=config)
    out = play([*events, action(PUNTER_SEAT, "stand"), action(BANK_SEAT, "draw"), card(2)], config=config)

    # then
    assert first["next"]["seat"] == PUNTER_SEAT
    assert second["next"]["say"] == "Banker (seat 1) has 7, punter stands on 3: draw or stand?"
    assert out["outcome"]["banker"] == 9
    assert out["outcome"]["winner"] == "banker"


# -- dealing and the screen ------------------------------------------------------------------------


def test_the_deal_goes_player_banker_player_banker() -> None:
    # given
    events: list[dict[str, Any]] = []
    says = []

    # when
    for c in ["2S", "3H", "KC", "QD"]:
        out = play(events)
        says.append((out["next"]["to"], out["next"]["say"]))
        events.append({"card": c})

    # then
    assert says == [
        ("player", "Deal card 1 to the player"),
        ("banker", "Deal card 2 to the banker"),
        ("player", "Deal card 3 to the player"),
        ("banker", "Deal card 4 to the banker"),
    ]


def test_hands_show_cards_totals_seats_and_choices() -> None:
    # when
    out = play([*deal(5, 3), action(PUNTER_SEAT, "draw"), {"card": "9C", "to": "player"}])

    # then
    assert out["hands"] == {
        "player": {"cards": ["5S", "QS", "9C"], "total": 4, "seat": PUNTER_SEAT, "choice": "draw"},
        "banker": {"cards": ["3H", "QH"], "total": 3, "seat": BANK_SEAT, "choice": None},
    }
    assert out["next"]["expect"] == "action"


# -- settlement -----------------------------------------------------------------------------------


def banker_wins() -> list[dict[str, Any]]:
    return deal(6, 7)


def punter_wins() -> list[dict[str, Any]]:
    return deal(7, 6)


def test_banker_wins_against_a_banco_pays_commission_at_once() -> None:
    # when
    out = play(banker_wins(), bets(10_000, (PUNTER_SEAT, 10_000)))

    # then
    assert [(b["id"], b["result"], b["net"], b["commission"]) for b in out["bets"]] == [
        ("bank", "win", 9_500, 500),
        ("p1", "lose", -10_000, 0),
    ]
    assert out["house"] == {"net": 500, "commission": 500, "rake": 0}
    assert out["outcome"]["banco"] is True
    assert out["outcome"]["bank_passes"] is False
    assert out["outcome"]["next_bank"] == 19_500
    assert out["say"] == "Banker wins 7 over 6"


def test_punter_wins_and_the_bank_passes() -> None:
    # when
    out = play(punter_wins(), bets(10_000, (PUNTER_SEAT, 6_000), (6, 3_000)))

    # then
    assert [(b["id"], b["result"], b["net"]) for b in out["bets"]] == [
        ("bank", "lose", -9_000),
        ("p1", "win", 6_000),
        ("p2", "win", 3_000),
    ]
    assert out["bets"][0]["covered"] == 9_000
    assert out["bets"][0]["uncovered"] == 1_000
    assert out["house"] == {"net": 0, "commission": 0, "rake": 0}
    assert out["outcome"]["bank_passes"] is True
    assert out["outcome"]["next_bank"] is None
    assert out["outcome"]["banco"] is False
    assert out["say"] == "Punter wins 7 over 6; the bank passes"


def test_stand_off_returns_every_stake_and_the_bank_stays() -> None:
    # when
    out = play(deal(6, 6), bets(10_000, (PUNTER_SEAT, 2_000)))

    # then
    assert [(b["result"], b["net"], b["commission"]) for b in out["bets"]] == [("push", 0, 0), ("push", 0, 0)]
    assert out["house"] == {"net": 0, "commission": 0, "rake": 0}
    assert out["outcome"]["next_bank"] == 10_000
    assert out["outcome"]["bank_passes"] is False
    assert out["say"] == "Stand-off at 6"


def test_only_the_covered_part_of_the_bank_is_in_action() -> None:
    # when: the punters cover 2 510 of a 10 000 bank
    out = play(banker_wins(), bets(10_000, (PUNTER_SEAT, 2_000), (7, 510)))

    # then: 5 % of 2 510 = 125.5, rounded down
    bank = out["bets"][0]
    assert (bank["net"], bank["commission"], bank["covered"], bank["uncovered"]) == (2_385, 125, 2_510, 7_490)
    assert out["outcome"]["next_bank"] == 12_385
    assert sum(b["net"] for b in out["bets"]) + out["house"]["net"] == 0


@pytest.mark.parametrize(("rounding", "commission"), [("down", 125), ("up", 126), ("half_up", 126), ("half_even", 126)])
def test_commission_rounding(rounding: str, commission: int) -> None:
    # when
    out = play(banker_wins(), bets(2_510, (PUNTER_SEAT, 2_510)), {"commission_rounding": rounding})

    # then
    assert out["bets"][0]["commission"] == commission
    assert out["bets"][0]["net"] == 2_510 - commission
    assert out["house"]["commission"] == commission


def test_commission_rate_is_a_setting() -> None:
    # when
    out = play(banker_wins(), config={"commission_bp": 0})

    # then
    assert out["bets"][0]["net"] == 10_000
    assert out["house"] == {"net": 0, "commission": 0, "rake": 0}


def test_the_largest_punter_plays_the_hand() -> None:
    # when
    out = play(deal(5, 7), bets(10_000, (3, 2_000), (6, 3_000), (3, 1_500)))

    # then: seat 3 stakes 3 500 in all, seat 6 stakes 3 000
    assert out["next"]["seat"] == 3
    assert out["hands"]["player"]["seat"] == 3


def test_among_equal_stakes_the_first_listed_punter_plays() -> None:
    # when
    out = play(deal(5, 7), bets(10_000, (6, 3_000), (3, 3_000)))

    # then
    assert out["next"]["seat"] == 6


def test_plays_names_the_punter_who_plays_the_hand() -> None:
    # given
    rows = bets(10_000, (6, 3_000), (3, 1_000))
    rows[2]["plays"] = True

    # when
    out = play(deal(5, 7), rows)

    # then
    assert out["next"]["seat"] == 3


# -- refusals ---------------------------------------------------------------------------------------


def test_a_coup_needs_one_bank() -> None:
    # given
    no_bank = bets()[1:]
    two_banks = [*bets(), {"id": "bank2", "seat": 2, "type": "bank", "amount": 500}]

    # when
    errors = [refusal([], no_bank), refusal([], two_banks)]

    # then
    assert [(e.code, e.event) for e in errors] == [("bad_bet", None), ("bad_bet", None)]


def test_a_coup_needs_a_punter() -> None:
    # when
    error = refusal([], bets()[:1])

    # then
    assert (error.code, error.event) == ("bad_bet", None)


def test_the_banker_cannot_bet_against_his_own_bank() -> None:
    # when
    error = refusal([], bets(10_000, (BANK_SEAT, 1_000)))

    # then
    assert error.code == "bad_bet"


def test_punters_may_not_cover_more_than_the_bank() -> None:
    # when
    error = refusal([], bets(10_000, (PUNTER_SEAT, 6_000), (6, 4_001)))

    # then
    assert (error.code, error.event) == ("over_bank", None)
    assert error.message == "the punters cover 10001 but the bank is only 10000"


def test_plays_must_be_a_flag_for_one_seat() -> None:
    # given
    not_bool = bets(10_000, (3, 1_000))
    not_bool[1]["plays"] = "yes"
    two_seats = bets(10_000, (3, 1_000), (6, 1_000))
    two_seats[1]["plays"] = two_seats[2]["plays"] = True

    # when
    errors = [refusal([], not_bool), refusal([], two_seats)]

    # then
    assert [e.code for e in errors] == ["bad_bet", "bad_bet"]


def test_unknown_bet_type_and_limits() -> None:
    # given
    tie = [*bets(), {"id": "t", "seat": 5, "type": "tie", "amount": 100}]

    # when
    errors = [
        refusal([], tie),
        refusal([], bets(10_000, (4, 50)), {"min_bet": 100}),
        refusal([], bets(10_000, (4, 50)), {"max_bet": 5_000}),
    ]

    # then
    assert [e.code for e in errors] == ["bad_bet_type", "under_table_min", "over_table_max"]


def test_bad_config_is_refused() -> None:
    # when
    errors = [
        refusal([], config={"drawing": "whim"}),
        refusal([], config={"tie_pays": 8}),
        refusal([], config={"decks": 9}),
    ]

    # then
    assert [e.code for e in errors] == ["bad_config", "unknown_setting", "bad_config"]


def test_bad_and_exhausted_cards_name_their_event() -> None:
    # when
    errors = [refusal([{"card": "2S"}, {"card": "1X"}]), refusal([{"card": "KS"}, {"card": "KS"}], config={"decks": 1})]

    # then
    assert [(e.code, e.event) for e in errors] == [("bad_card", 1), ("card_exhausted", 1)]


def test_a_card_to_the_wrong_hand_is_out_of_turn() -> None:
    # when
    errors = [refusal([{"card": "2S", "to": "banker"}]), refusal([{"card": "2S", "to": "dealer"}])]

    # then
    assert [(e.code, e.event) for e in errors] == [("out_of_turn", 0), ("bad_event", 0)]


def test_an_action_outside_an_option_cell_is_out_of_turn() -> None:
    # given: punter on 3 must draw; banker 4 against a 9 must stand
    forced_draw = [*deal(3, 4), action(PUNTER_SEAT, "stand")]
    complete = [*deal(3, 4), card(9), action(BANK_SEAT, "draw")]

    # when
    errors = [refusal(forced_draw), refusal(complete)]

    # then
    assert [(e.code, e.event) for e in errors] == [("out_of_turn", 4), ("out_of_turn", 5)]


def test_a_card_where_a_choice_is_due_is_out_of_turn() -> None:
    # given
    events = [*deal(5, 4), card(2)]

    # when
    error = refusal(events)

    # then
    assert (error.code, error.event) == ("out_of_turn", 4)
    assert "punter (seat 4) must choose draw or stand" in error.message


def test_a_choice_from_the_wrong_seat_or_hand_is_out_of_turn() -> None:
    # given
    wrong_seat = [*deal(5, 4), action(BANK_SEAT, "draw")]
    wrong_hand = [*deal(5, 4), {"seat": PUNTER_SEAT, "action": "draw", "hand": "banker"}]

    # when
    errors = [refusal(wrong_seat), refusal(wrong_hand)]

    # then
    assert [(e.code, e.event) for e in errors] == [("out_of_turn", 4), ("out_of_turn", 4)]


def test_malformed_choices_are_refused() -> None:
    # given
    base = deal(5, 4)
    cases = [
        ({"seat": PUNTER_SEAT, "action": "hit"}, "illegal_action"),
        ({"seat": PUNTER_SEAT, "action": None}, "illegal_action"),
        ({"seat": "4", "action": "draw"}, "bad_event"),
        ({"seat": True, "action": "draw"}, "bad_event"),
        ({"action": "draw"}, "bad_event"),
        ({"seat": PUNTER_SEAT, "action": "draw", "amount": 5}, "bad_event"),
        ({"seat": PUNTER_SEAT, "action": "draw", "hand": 0}, "bad_event"),
        ({"bet": {"id": "x"}}, "out_of_turn"),
    ]

    # when
    errors = [refusal([*base, event]) for event, _ in cases]

    # then
    assert [(e.code, e.event) for e in errors] == [(code, 4) for _, code in cases]


def test_nothing_is_due_after_the_coup() -> None:
    # when
    errors = [refusal([*banker_wins(), {"card": "2C"}]), refusal([*banker_wins(), action(BANK_SEAT, "draw")])]

    # then
    assert [(e.code, e.event) for e in errors] == [("out_of_turn", 4), ("out_of_turn", 4)]


# -- house edge -------------------------------------------------------------------------------------


def test_customary_choices_reproduce_the_punto_banco_figures() -> None:
    # when
    rows = {r.bet: r for r in ENGINE.house_edge({})}

    # then: the published 8-deck figures, banker 1.06 %, player 1.24 %
    assert round(float(rows["bank"].edge) * 100, 2) == 1.06
    assert round(float(rows["punto"].edge) * 100, 2) == 1.24
    assert "exact enumeration over the 8-deck shoe" in rows["bank"].method
    assert "punter draws on 5" in rows["bank"].method


@pytest.mark.parametrize("decks", [1, 6])
def test_customary_probabilities_equal_punto_banco_exactly(decks: int) -> None:
    # then
    assert coup_probabilities(decks) == baccarat.coup_probabilities(decks)


def test_edges_move_with_the_config() -> None:
    # when
    default = {r.bet: r.edge for r in ENGINE.house_edge({"decks": 6})}
    cheaper = {r.bet: r.edge for r in ENGINE.house_edge({"decks": 6, "commission_bp": 400})}

    # then
    assert cheaper["punto"] == default["punto"]
    assert cheaper["bank"] < default["bank"]
    assert round(float(default["bank"]) * 100, 4) == 1.0558


def test_the_option_cells_matter() -> None:
    # given
    customary = coup_probabilities(1)
    standing = coup_probabilities(1, OptionStrategy(punter_draws_on_5=False))
    banker_stands = coup_probabilities(
        1, OptionStrategy(banker_draws_3_against_9=False, banker_draws_5_against_4=False)
    )

    # then
    for probs in (customary, standing, banker_stands):
        assert sum(probs.values()) == 1
    assert standing != customary
    assert banker_stands != customary
    assert standing["player"] - standing["banker"] != customary["player"] - customary["banker"]


# -- properties ---------------------------------------------------------------------------------------


def play_out(
    bet_rows: list[dict[str, Any]], shoe: list[str], rng: random.Random, config: dict[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Deal from ``shoe`` and choose at random wherever the engine asks, until the coup settles."""
    events: list[dict[str, Any]] = []
    for _ in range(12):
        out = play(events, bet_rows, config)
        if out["status"] == "settled":
            return out, events
        nxt = out["next"]
        if nxt["expect"] == "card":
            events.append({"card": shoe.pop()})
        else:
            events.append(action(nxt["seat"], rng.choice(nxt["allowed"])))
    raise AssertionError("the coup never settled")


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[dict[str, Any]], int]:
    bank = draw(st.integers(1, 20_000))
    stakes = draw(st.lists(st.integers(1, 20_000), min_size=1, max_size=5))
    seats = draw(st.lists(st.integers(2, 9), min_size=len(stakes), max_size=len(stakes)))
    puntos, left = [], bank
    for seat, stake in zip(seats, stakes):
        amount = min(stake, left)
        if amount:
            puntos.append((seat, amount))
            left -= amount
    return bets(bank, *puntos), bank


@settings(max_examples=150, deadline=None)
@given(
    table=tables(),
    seed=st.integers(0, 2**32),
    decks=st.sampled_from([1, 8]),
    drawing=st.sampled_from(["chart", "free"]),
    rounding=st.sampled_from(["down", "up", "half_even"]),
)
def test_random_coups_conserve_money(
    table: tuple[list[dict[str, Any]], int], seed: int, decks: int, drawing: str, rounding: str
) -> None:
    # given
    bet_rows, bank = table
    rng = random.Random(seed)
    shoe = [str(c) for c in full_deck()] * decks
    rng.shuffle(shoe)
    config = {"decks": decks, "drawing": drawing, "commission_rounding": rounding}

    # when
    out, _ = play_out(bet_rows, shoe, rng, config)

    # then
    assert sum(b["net"] for b in out["bets"]) + out["house"]["net"] == 0
    assert out["house"]["net"] == out["house"]["commission"] == out["bets"][0]["commission"]
    assert len(out["bets"]) == len(bet_rows)
    outcome = out["outcome"]
    assert outcome["bank_passes"] == (outcome["winner"] == "player")
    if outcome["winner"] == "banker":
        assert outcome["next_bank"] == bank + out["bets"][0]["net"]


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), position=st.integers(0, 10), corruption=st.sampled_from(["unknown", "copy"]))
def test_corrupted_sequences_are_refused(seed: int, position: int, corruption: str) -> None:
    # given: a valid one-deck coup
    rng = random.Random(seed)
    shoe = [str(c) for c in full_deck()]
    rng.shuffle(shoe)
    out, events = play_out(bets(), shoe, rng, {"decks": 1})
    cards_at = [i for i, e in enumerate(events) if "card" in e and i > 0]
    index = cards_at[position % len(cards_at)]
    bad = list(events)
    if corruption == "unknown":
        bad[index] = {"card": "ZZ"}
        expected = "bad_card"
    else:  # a second copy of the first card dealt
        bad[index] = {"card": events[0]["card"]}
        expected = "card_exhausted"

    # when
    error = refusal(bad, config={"decks": 1})

    # then
    assert out["status"] == "settled"
    assert (error.code, error.event) == (expected, index)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_card_where_an_action_is_due_is_refused(seed: int) -> None:
    # given: a coup with at least one choice (free drawing always asks)
    rng = random.Random(seed)
    shoe = [str(c) for c in full_deck()]
    rng.shuffle(shoe)
    config = {"decks": 1, "drawing": "free"}
    _, events = play_out(bets(), shoe, rng, config)
    actions_at = [i for i, e in enumerate(events) if "action" in e]
    bad = list(events)
    if actions_at:
        index = actions_at[0]
        bad[index] = {"card": shoe.pop()}
    else:  # a natural asks nothing: a card after it is refused too
        index = len(events)
        bad.append({"card": shoe.pop()})

    # when
    error = refusal(bad, config=config)

    # then
    assert (error.code, error.event) == ("out_of_turn", index)


@settings(max_examples=100, deadline=None)
@given(
    events=st.lists(
        st.one_of(
            st.fixed_dictionaries({"card": st.sampled_from(["AS", "5H", "KD", "9C", "4S", "ZZ", "10H", 7])}),
            st.fixed_dictionaries(
                {
                    "seat": st.one_of(st.integers(0, 9), st.none(), st.text(max_size=2)),
                    "action": st.sampled_from(["draw", "stand", "hit", 3]),
                }
            ),
            st.dictionaries(
                st.sampled_from(["card", "seat", "action", "to", "hand", "bet"]),
                st.one_of(st.none(), st.integers(-1, 5), st.text(max_size=3)),
                max_size=3,
            ),
        ),
        max_size=9,
    ),
    decks=st.sampled_from([1, 8]),
)
def test_garbage_raises_only_engine_errors(events: list[dict[str, Any]], decks: int) -> None:
    # when
    result: dict[str, Any] | EngineError
    try:
        result = play(events, config={"decks": decks})
    except EngineError as error:
        result = error

    # then: either a valid partial or complete coup, or an EngineError naming an event or none
    if isinstance(result, EngineError):
        assert result.event is None or 0 <= result.event < len(events)
    else:
        assert result["status"] in ("awaiting", "settled")


def test_house_edge_is_exact_fractions() -> None:
    # then
    assert all(isinstance(r.edge, Fraction) for r in ENGINE.house_edge({"decks": 1}))
