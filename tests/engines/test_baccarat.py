"""Punto Banco: every cell of the tableau, settlement to the chip, refusals, and properties."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engines.baccarat import ENGINE, banker_draws, coup_probabilities
from tables.engines.cards import RANKS, SUITS
from tables.engines.errors import EngineError
from tables.engines.registry import play

# a card worth each baccarat value, in spades; value 0 is a king
CARD = {0: "KS", 1: "AS", **{v: f"{v}S" for v in range(2, 10)}}


def coup(cards, bets=(), **config):
    return play({"game": "baccarat", "config": config, "bets": list(bets), "events": [{"card": c} for c in cards]})


# -- the tableau (docs/games.md), cell by cell --------------------------------------------------------
# banker total 0–7 × the player's third card 0–9 (None: the player stood)
EXPECTED_BANKER_DRAWS = {
    0: set(range(10)) | {None},
    1: set(range(10)) | {None},
    2: set(range(10)) | {None},
    3: {0, 1, 2, 3, 4, 5, 6, 7, 9, None},
    4: {2, 3, 4, 5, 6, 7, None},
    5: {4, 5, 6, 7, None},
    6: {6, 7},
    7: set(),
}


@pytest.mark.parametrize("banker_total", range(8))
@pytest.mark.parametrize("third", [None, *range(10)])
def test_banker_tableau_cell(banker_total, third):
    assert banker_draws(banker_total, third) is (third in EXPECTED_BANKER_DRAWS[banker_total])


@pytest.mark.parametrize("banker_total", range(8))
@pytest.mark.parametrize("third", [None, *range(10)])
def test_banker_tableau_cell_through_a_whole_coup(banker_total, third):
    # given a player hand that draws (total 0: KS KH) or stands (total 6: 3S 3H), no naturals
    if third is None:
        p1, p2 = "3S", "3H"  # player 6 stands
        if banker_total == 6 or banker_total == 7:
            b1, b2 = CARD[banker_total], "KD"
        else:
            b1, b2 = CARD[banker_total], "KD"
    else:
        p1, p2 = "KS", "KH"  # player 0 draws
        b1, b2 = CARD[banker_total], "KD"
    cards = [p1, b1, p2, b2]
    if third is not None:
        cards.append(CARD[third].replace("S", "C"))
    # when the coup is dealt to the point where the banker may draw
    out = coup(cards)
    # then the engine asks for a banker card exactly when the tableau says so
    draws = third in EXPECTED_BANKER_DRAWS[banker_total]
    if draws:
        assert out["status"] == "awaiting"
        assert out["next"]["to"] == "banker"
    else:
        assert out["status"] == "settled"


@pytest.mark.parametrize("player_total", range(10))
def test_player_draws_on_0_to_5_and_stands_on_6_7(player_total):
    # banker KD KC (0), player hand of the given total without a natural for 8/9
    p1, p2 = CARD[player_total], "KH"
    out = coup([p1, "KD", p2, "KC"])
    if player_total >= 8:
        assert out["status"] == "settled"
        assert out["outcome"]["natural"] is True
    elif player_total >= 6:
        assert out["next"]["to"] == "banker"
        assert out["next"]["say"] == f"Player stands on {player_total}. Banker draws on 0"
    else:
        assert out["next"]["to"] == "player"
        assert out["next"]["say"] == f"Player draws on {player_total}"


def test_naturals_stand_both_hands():
    out = coup(["9S", "2H", "KD", "3C"])  # player 9 natural, banker 5 would draw
    assert out["status"] == "settled"
    assert out["outcome"] == {
        "winner": "player",
        "player": 9,
        "banker": 5,
        "natural": True,
        "player_pair": False,
        "banker_pair": False,
    }


# -- settlement -----------------------------------------------------------------------------
BETS = [
    {"id": "pl", "seat": 1, "type": "player", "amount": 1000},
    {"id": "bk", "seat": 2, "type": "banker", "amount": 2500},
    {"id": "ti", "seat": 3, "type": "tie", "amount": 500},
    {"id": "pp", "seat": 4, "type": "player_pair", "amount": 300},
    {"id": "bp", "seat": 5, "type": "banker_pair", "amount": 200},
]


def nets(out):
    return {b["id"]: (b["result"], b["net"], b["commission"]) for b in out["bets"]}


def test_banker_win_pays_less_five_percent_commission():
    out = coup(["9S", "KH", "5D", "3C", "2H", "4S"], BETS)  # player 6, banker 7
    assert nets(out) == {
        "pl": ("lose", -1000, 0),
        "bk": ("win", 2375, 125),
        "ti": ("lose", -500, 0),
        "pp": ("lose", -300, 0),
        "bp": ("lose", -200, 0),
    }
    assert out["house"] == {"net": 1000 - 2375 + 500 + 300 + 200, "commission": 125, "rake": 0}


def test_player_win_and_pairs():
    out = coup(["4S", "8H", "4D", "8C"], BETS)  # player 4-4 (8, natural), banker 8-8 (6): pairs both
    assert out["outcome"]["winner"] == "player"
    assert nets(out) == {
        "pl": ("win", 1000, 0),
        "bk": ("lose", -2500, 0),
        "ti": ("lose", -500, 0),
        "pp": ("win", 3300, 0),
        "bp": ("win", 2200, 0),
    }


def test_tie_pushes_player_and_banker_and_pays_8_to_1():
    out = coup(["9S", "9H", "KD", "KC"], BETS)  # 9 and 9
    assert out["outcome"]["winner"] == "tie"
    assert nets(out)["pl"] == ("push", 0, 0)
    assert nets(out)["bk"] == ("push", 0, 0)
    assert nets(out)["ti"] == ("win", 4000, 0)


@pytest.mark.parametrize(
    ("amount", "rounding", "commission"),
    [
        (2500, "down", 125),
        (2510, "down", 125),
        (2510, "up", 126),
        (2510, "half_up", 126),
        (2530, "half_up", 127),
        (2530, "half_even", 126),
        (2550, "half_even", 128),
        (1, "down", 0),
        (1, "up", 1),
        (19, "half_up", 1),
    ],
)
def test_commission_rounding_rules(amount, rounding, commission):
    out = coup(
        ["9S", "KH", "5D", "3C", "2H", "4S"],
        [{"id": "b", "seat": 1, "type": "banker", "amount": amount}],
        commission_rounding=rounding,
    )
    assert nets(out)["b"] == ("win", amount - commission, commission)


def test_config_changes_pays():
    out = coup(["9S", "9H", "KD", "KC"], [{"id": "t", "seat": 1, "type": "tie", "amount": 100}], tie_pays=9)
    assert nets(out)["t"] == ("win", 900, 0)
    out = coup(
        ["9S", "KH", "5D", "3C", "2H", "4S"],
        [{"id": "b", "seat": 1, "type": "banker", "amount": 1000}],
        commission_bp=400,
    )
    assert nets(out)["b"] == ("win", 960, 40)


# -- refusals ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "config", "code", "event"),
    [
        (["ZZ"], {}, "bad_card", 0),
        (["9S", "JK"], {}, "bad_card", 1),
        (["KS", "KS"], {"decks": 1}, "card_exhausted", 1),
        (["9S", "9H", "KD", "KC", "2S"], {}, "out_of_turn", 4),
    ],
)
def test_bad_cards_are_refused_naming_the_event(cards, config, code, event):
    with pytest.raises(EngineError) as caught:
        coup(cards, **config)
    assert (caught.value.code, caught.value.event) == (code, event)


def test_card_to_the_wrong_hand_and_an_action_are_refused():
    with pytest.raises(EngineError) as caught:
        play({"game": "baccarat", "events": [{"card": "9S", "to": "banker"}]})
    assert (caught.value.code, caught.value.event) == ("out_of_turn", 0)
    with pytest.raises(EngineError) as caught:
        play({"game": "baccarat", "events": [{"seat": 1, "action": "hit"}]})
    assert (caught.value.code, caught.value.event) == ("out_of_turn", 0)


@pytest.mark.parametrize(
    ("bet", "code"),
    [
        ({"id": "x", "seat": 1, "type": "dragon", "amount": 100}, "bad_bet_type"),
        ({"id": "x", "seat": 1, "type": "player", "amount": -5}, "bad_amount"),
        ({"id": "x", "seat": 1, "type": "player", "amount": 2.5}, "bad_amount"),
        ({"id": "x", "seat": 1, "type": "player", "amount": 99}, "under_table_min"),
        ({"id": "x", "seat": 1, "type": "player", "amount": 10_001}, "over_table_max"),
    ],
)
def test_bad_bets(bet, code):
    with pytest.raises(EngineError) as caught:
        coup([], [bet], min_bet=100, max_bet=10_000)
    assert caught.value.code == code


def test_pair_bets_refused_where_the_table_does_not_offer_them():
    with pytest.raises(EngineError) as caught:
        coup([], [{"id": "p", "seat": 1, "type": "player_pair", "amount": 100}], pair_bets=False)
    assert caught.value.code == "bad_bet_type"


# -- house edge: exact, and it moves with the config -----------------------------------------
def test_published_8_deck_edges():
    edges = {r.bet: float(r.edge) * 100 for r in ENGINE.house_edge({})}
    assert round(edges["banker"], 2) == 1.06
    assert round(edges["player"], 2) == 1.24
    assert round(edges["tie"], 2) == 14.36


def test_probabilities_are_exact_and_sum_to_one():
    probs = coup_probabilities(8)
    assert sum(probs.values()) == 1
    assert isinstance(probs["tie"], Fraction)


def test_edges_move_with_the_config():
    base = {r.bet: r.edge for r in ENGINE.house_edge({})}
    nine = {r.bet: r.edge for r in ENGINE.house_edge({"tie_pays": 9})}
    six = {r.bet: r.edge for r in ENGINE.house_edge({"decks": 6})}
    four = {r.bet: r.edge for r in ENGINE.house_edge({"commission_bp": 400})}
    assert nine["tie"] < base["tie"] - Fraction(9, 100)  # ≈ 4.84 %
    assert six["banker"] < base["banker"]
    assert Fraction(5, 1000) < four["banker"] < Fraction(7, 1000)  # 4 %: about 0.6 % instead of 1.06 %
    assert nine["banker"] == base["banker"]


# -- properties -------------------------------------------------------------------------------
def shoe(rng, decks=8):
    cards = [r + s for r in RANKS for s in SUITS] * decks
    rng.shuffle(cards)
    return cards


bet_lists = st.lists(
    st.fixed_dictionaries(
        {
            "seat": st.integers(1, 7),
            "type": st.sampled_from(["player", "banker", "tie", "player_pair", "banker_pair"]),
            "amount": st.integers(1, 10**7),
        }
    ),
    max_size=6,
)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), bets=bet_lists, rounding=st.sampled_from(["down", "up", "half_up", "half_even"]))
def test_every_coup_from_a_random_shoe_conserves_money(seed, bets, rounding):
    cards = shoe(random.Random(seed))
    bets = [{"id": f"b{i}", **b} for i, b in enumerate(bets)]
    dealt = []
    out = coup([], bets, commission_rounding=rounding)
    while out["status"] != "settled":
        dealt.append(cards.pop())
        out = coup(dealt, bets, commission_rounding=rounding)
    assert 4 <= len(dealt) <= 6
    assert sum(b["net"] for b in out["bets"]) + out["house"]["net"] == 0
    assert out["house"]["commission"] == sum(b["commission"] for b in out["bets"])
    assert all(b["commission"] >= 0 for b in out["bets"])


@settings(max_examples=150, deadline=None)
@given(
    events=st.lists(
        st.one_of(
            st.fixed_dictionaries({"card": st.text(max_size=4)}),
            st.fixed_dictionaries({"card": st.sampled_from(["AS", "10h", "kd", "JK"])}),
            st.dictionaries(
                st.sampled_from(["card", "to", "seat", "action"]),
                st.one_of(st.none(), st.integers(), st.text(max_size=3)),
            ),
        ),
        max_size=8,
    ),
    decks=st.integers(1, 8),
)
def test_arbitrary_events_raise_nothing_but_engine_errors(events, decks):
    try:
        out = play({"game": "baccarat", "config": {"decks": decks}, "events": events})
    except EngineError as error:
        assert error.event is None or 0 <= error.event < len(events)
    else:
        assert out["status"] in ("awaiting", "settled")


# -- the shoe path agrees with the document path -----------------------------------------------
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), bets=bet_lists, rounding=st.sampled_from(["down", "up", "half_up", "half_even"]))
def test_shoe_settler_agrees_with_play_coup_by_coup(seed, bets, rounding):
    from tables.simulation.baccarat import ShoeSettler

    cards = shoe(random.Random(seed), decks=1)
    settler = ShoeSettler({"decks": 1, "commission_rounding": rounding})
    bets = [{"id": f"b{i}", **b} for i, b in enumerate(bets)]
    used: list[str] = []
    while len(cards) >= 6:
        dealt = []
        out = coup([], bets, commission_rounding=rounding, decks=1)
        while out["status"] != "settled":
            dealt.append(cards.pop())
            # the document path checks the shoe too: give it every card dealt before this coup
            out = coup(dealt, bets, commission_rounding=rounding, decks=1)
        winner, nets, commission = settler.coup(dealt, [(b["type"], b["amount"]) for b in bets])
        assert winner == out["outcome"]["winner"]
        assert nets == [b["net"] for b in out["bets"]]
        assert commission == out["house"]["commission"]
        used += dealt
    # a card the 1-deck shoe no longer holds is refused
    with pytest.raises(EngineError) as caught:
        settler.coup([used[0], "KH", "KD", "KC"], [])
    assert caught.value.code in ("card_exhausted", "out_of_turn", "incomplete_coup")


def test_shoe_settler_refuses_wrong_card_counts():
    from tables.simulation.baccarat import ShoeSettler

    with pytest.raises(EngineError) as caught:
        ShoeSettler().coup(["9S", "9H", "KD", "KC", "2S"], [])  # naturals: no fifth card
    assert caught.value.code == "out_of_turn"
    with pytest.raises(EngineError) as caught:
        ShoeSettler().coup(["2S", "5H", "KD", "KC"], [])  # player 2 must draw
    assert caught.value.code == "incomplete_coup"
    with pytest.raises(EngineError) as caught:
        ShoeSettler().coup(["2S", "9H", "KD", "10C"], [])  # canonical notation only
    assert (caught.value.code, caught.value.event) == ("bad_card", 3)
