"""Baccarat's tie bet from the cards left (tables/protection/side_bets.py), without Django: the exact chance
against the engine's own house-edge enumeration off the top, against a brute force over every deal of a small
shoe, and where it turns positive."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from tables.engines.baccarat import ENGINE as BACCARAT
from tables.engines.baccarat import banker_draws, coup_probabilities, player_draws
from tables.protection.side_bets import baccarat_values, side_bet_evs, tie_ev, tie_probability

RANKS = "A23456789TJQK"


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_the_tie_off_the_top_is_the_engines_exactly(decks):
    full = dict.fromkeys(RANKS, 4 * decks)
    assert tie_probability(full) == coup_probabilities(decks)["tie"]


def test_the_tie_ev_off_the_top_is_the_engines_house_edge():
    rows = {r.bet: r for r in BACCARAT.house_edge({}, seed=1)}
    decks = BACCARAT.resolve_config({})["decks"]
    assert tie_ev(dict.fromkeys(RANKS, 4 * decks), pays=8) == pytest.approx(-float(rows["tie"].edge))


def _brute_tie(cards: list[int]) -> Fraction:
    """Every ordered deal of six cards from ``cards`` (values), played by the tableau: the share that ties."""
    ties = total = 0
    for deal in itertools.permutations(range(len(cards)), 6):
        v = [cards[i] for i in deal]
        p, b = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
        nxt = 4
        if p < 8 and b < 8:
            third = None
            if player_draws(p):
                third = v[nxt]
                p = (p + third) % 10
                nxt += 1
            if banker_draws(b, third):
                b = (b + v[nxt]) % 10
        ties += p == b
        total += 1
    return Fraction(ties, total)


def test_the_tie_from_any_cards_left_is_exact_against_every_deal():
    # given a shoe of eight cards left: two tens, a king, an ace, two sixes, a seven, a three
    left = {"T": 2, "K": 1, "A": 1, "6": 2, "7": 1, "3": 1}
    values = [v for rank, n in left.items() for v in [baccarat_values({rank: 1}).index(1)] * n]
    # then the enumeration matches the brute force over all 20,160 ordered deals
    assert tie_probability(left) == _brute_tie(values)


def test_a_shoe_of_tens_left_makes_the_tie_a_certainty_and_too_few_cards_nothing():
    assert tie_probability(dict.fromkeys("TJQK", 4)) == 1
    assert tie_ev(dict.fromkeys("TJQK", 4), pays=8) == 8.0
    assert tie_probability({"T": 3, "5": 2}) == 0
    assert baccarat_values({"T": 2, "K": 1, "A": 3, "9": 1}) == (3, 3, 0, 0, 0, 0, 0, 0, 0, 1)


def test_each_side_bet_is_valued_at_the_tables_pays():
    full = dict.fromkeys(RANKS, 32)
    evs = side_bet_evs(full, {"pair_pays": 11, "tie_pays": 9})
    assert evs["pair"] == pytest.approx(-0.10361, abs=1e-5)
    assert evs["tie"] == pytest.approx(float(coup_probabilities(8)["tie"]) * 10 - 1)
