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

The tie bet wins when the two hands' final totals are equal. Its chance is summed exactly over every way the
cards left can deal the coup under the fixed tableau (the engine's drawing rules,
:data:`tables.engines.baccarat.PUNTO_BANCO_PLAYER` and ``PUNTO_BANCO_BANKER``), each way weighted by how many
ways the cards left deal it: the same enumeration as the engine's house edge, from any shoe.

>>> round(tie_ev(dict.fromkeys("A23456789TJQK", 32), pays=8), 5)  # eight decks off the top: −14.36 %
-0.1436
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from tables.engines.baccarat import PUNTO_BANCO_BANKER, PUNTO_BANCO_PLAYER
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


def baccarat_values(left: Mapping[str, int]) -> tuple[int, ...]:
    """The cards left by baccarat value (0 holds the tens and the faces), from each rank's cards left."""
    values = [0] * 10
    for rank, n in left.items():
        values[0 if rank in "TJQK" else 1 if rank == "A" else int(rank)] += n
    return tuple(values)


def tie_probability(left: Mapping[str, int]) -> Fraction:
    """P(the coup is a tie), exactly, with these cards left (each rank's count)."""
    return _tie_probability(baccarat_values(left))


def tie_ev(left: Mapping[str, int], *, pays: int) -> float:
    """The tie bet's expected value per unit bet (``pays`` to 1; the main bets push on a tie, the tie bet loses
    otherwise) with these cards left."""
    p = float(tie_probability(left))
    return p * pays - (1 - p)


_PLAYER_DRAWS = PUNTO_BANCO_PLAYER
_BANKER_DRAWS = {(b, t): d for b, t, d in PUNTO_BANCO_BANKER}


@lru_cache(maxsize=20_000)  # the pit's screens read the same shoes again; a composition is 10 small numbers
def _tie_probability(counts_in: tuple[int, ...]) -> Fraction:
    """Every deal (the player's two cards, the banker's two, then the third cards) weighted by the falling product
    of the counts it takes, over N(N−1)…(N−5): a coup that ends after four or five cards is scaled by the ways
    the rest can follow, so every weight shares the six-card denominator (as ``drawing_probabilities``). A shoe
    with fewer than six cards left deals no full coup: 0."""
    counts = list(counts_in)
    n = sum(counts)
    if n < 6:
        return Fraction(0)
    tail5, tail4 = n - 5, (n - 4) * (n - 5)
    ties = 0
    # a deal's weight is the same in whatever order its first four cards come, so each hand's two cards are taken
    # once as a set (twice the weight when they differ): a third of the loops of every order
    for p1 in range(10):
        w1 = counts[p1]
        if not w1:
            continue
        counts[p1] -= 1
        for p2 in range(p1, 10):
            w2 = w1 * counts[p2] * (2 if p2 != p1 else 1)
            if not w2:
                continue
            counts[p2] -= 1
            p = (p1 + p2) % 10
            for b1 in range(10):
                w3 = w2 * counts[b1]
                if not w3:
                    continue
                counts[b1] -= 1
                for b2 in range(b1, 10):
                    w4 = w3 * counts[b2] * (2 if b2 != b1 else 1)
                    if not w4:
                        continue
                    counts[b2] -= 1
                    b = (b1 + b2) % 10
                    if p >= 8 or b >= 8:
                        ties += w4 * tail4 if p == b else 0
                    elif not _PLAYER_DRAWS[p]:
                        if _BANKER_DRAWS[b, None]:  # the banker draws a card making its total the player's
                            ties += w4 * counts[(p - b) % 10] * tail5
                        elif p == b:
                            ties += w4 * tail4
                    else:
                        for p3 in range(10):
                            c3 = counts[p3]
                            if not c3:
                                continue
                            pt = (p + p3) % 10
                            if _BANKER_DRAWS[b, p3]:
                                need = (pt - b) % 10
                                ties += w4 * c3 * (counts[need] - (need == p3))
                            elif pt == b:
                                ties += w4 * c3 * tail5
                    counts[b2] += 1
                counts[b1] += 1
            counts[p2] += 1
        counts[p1] += 1
    return Fraction(ties, n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5))


# the baccarat side bets whose edge moves with the cards left: each bet type, its figure, and the pay setting
SIDE_BET_KINDS = {"player_pair": "pair", "banker_pair": "pair", "tie": "tie"}


def side_bet_evs(left: Mapping[str, int], config: Mapping[str, int]) -> dict[str, float]:
    """Each shoe-dependent side bet's expected value before a round: ``pair`` (player and banker pair alike, the
    same chance) and ``tie``, at the table's pays."""
    return {"pair": pair_ev(left, pays=int(config.get("pair_pays", 11))),
            "tie": tie_ev(left, pays=int(config.get("tie_pays", 8)))}


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
