"""Baccarat's pair bets from the cards left: the exact expected value before each round, and players whose
pair bets cluster in the rounds where it is positive.

The player pair wins when the player's first two cards share a rank. Those are the first and third cards out
of the shoe, and any two cards of a shuffled shoe are equally likely to be any two of the cards left, so with
n_r cards of rank r among the N left, P(pair) = Σ n_r (n_r − 1) / (N (N − 1)), exactly (the banker pair alike).

>>> full = {rank: 32 for rank in "A23456789TJQK"}
>>> round(pair_ev(full, pays=11), 5)  # an eight-deck shoe off the top: the engine's house edge, −10.36 %
-0.10361
>>> round(pair_ev({"K": 2, "Q": 2}, pays=11), 4)  # two kings and two queens left: a pair is 1 in 3
3.0
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tables.protection.betting import DEFAULT_ALPHA
from tables.protection.stats import binomial_sf, mean


def pair_probability(left: Mapping[str, int]) -> float:
    """P(the next two cards for a hand share a rank), from each rank's cards left."""
    n = sum(left.values())
    if n < 2:
        return 0.0
    return sum(k * (k - 1) for k in left.values()) / (n * (n - 1))


def pair_ev(left: Mapping[str, int], *, pays: int) -> float:
    """A pair bet's expected value per unit bet (``pays`` to 1) with these cards left."""
    p = pair_probability(left)
    return p * pays - (1 - p)


@dataclass(frozen=True)
class SideBetClustering:
    """A player's pair bets against the rounds where the pair bet's expected value was positive."""

    rounds: int  # rounds the player sat in
    side_bets: int  # of them, rounds with a pair bet
    positive_rounds: int  # rounds with a positive expected value for the pair bet
    side_bets_positive: int  # pair bets in those rounds
    mean_ev_with_bet: float
    mean_ev_without_bet: float
    p_value: float  # one-sided: this many of the pair bets in positive rounds by chance

    def flagged(self, alpha: float = DEFAULT_ALPHA) -> bool:
        return self.side_bets_positive > 0 and self.p_value <= alpha


def side_bet_clustering(rounds: Sequence[tuple[float, bool]]) -> SideBetClustering:
    """``rounds``: (the pair bet's expected value before the round, whether the player bet it) for each round
    the player sat in. Under chance the pair bets fall on the positive rounds in proportion to them: the
    p-value is the binomial tail of the bets that did."""
    with_bet = [ev for ev, bet in rounds if bet]
    without = [ev for ev, bet in rounds if not bet]
    positive = sum(1 for ev, _ in rounds if ev > 0)
    hits = sum(1 for ev in with_bet if ev > 0)
    share = positive / len(rounds) if rounds else 0.0
    return SideBetClustering(
        rounds=len(rounds),
        side_bets=len(with_bet),
        positive_rounds=positive,
        side_bets_positive=hits,
        mean_ev_with_bet=mean(with_bet),
        mean_ev_without_bet=mean(without),
        p_value=binomial_sf(hits, len(with_bet), share) if hits else 1.0,
    )
