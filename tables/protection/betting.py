"""How a seat bets against the count: the initial bet against the true count before each round (a counter's
bet spread), and entering or leaving the table at extreme counts (back-counting, "wonging").

>>> edges = EdgeTable.linear(house_edge=0.005)
>>> pattern = bet_pattern([(-1.0, 100), (0.2, 100), (1.5, 200), (3.1, 800)] * 10, edges)
>>> pattern.spread, round(pattern.rho, 3), pattern.p_value < 0.001, round(pattern.ev_gain * 100, 2)
(8.0, 0.949, True, 0.67)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tables.protection.stats import mean, normal_sf, spearman_p_greater, stdev

# a flag is raised at this one-sided p-value or below unless the casino sets its own
DEFAULT_ALPHA = 0.01
# each true count point is worth about half a percent of the player's expectation at a multi-deck shoe
# (Wong, *Professional Blackjack*; Snyder, *Blackbelt in Blackjack*; Griffin, *The Theory of Blackjack*)
EDGE_PER_TRUE_COUNT = 0.005


@dataclass(frozen=True)
class EdgeTable:
    """The player's expected value per unit bet at each whole true count (the count rounded toward zero,
    clamped to the table's ends)."""

    edges: Mapping[int, float]

    @classmethod
    def linear(cls, *, house_edge: float, per_count: float = EDGE_PER_TRUE_COUNT, span: int = 10) -> EdgeTable:
        """The common approximation: the off-the-top player edge (−``house_edge``) plus ``per_count`` a point."""
        return cls({tc: -house_edge + per_count * tc for tc in range(-span, span + 1)})

    def at(self, true_count: float) -> float:
        tc = int(true_count)  # toward zero: a counter's "+2" means at least 2
        low, high = min(self.edges), max(self.edges)
        return self.edges[max(low, min(high, tc))]


@dataclass(frozen=True)
class BetPattern:
    """One seat-session's (or player's) initial bets against the true count before each round."""

    rounds: int
    min_bet: int
    max_bet: int
    spread: float  # the largest bet over the smallest
    rho: float | None  # Spearman's rank correlation of bet and true count; None when the bet never moved
    rho_p: float  # its p-value as if the rounds were independent (they are not: a descriptive figure only)
    changes: int  # rounds where the bet changed from the seat's previous round
    z: float  # bet changes against count changes, self-normalised (see bet_pattern)
    p_value: float  # one-sided: bet changes following count changes this closely by chance
    ev_pattern: float  # the player's expected value per unit wagered with these bets at these counts
    ev_flat: float  # the same rounds bet flat
    ev_gain: float  # ev_pattern − ev_flat: what the betting pattern itself is worth, per unit wagered
    mean_bet_high: float  # mean bet at true counts of +2 and over
    mean_bet_low: float  # mean bet below +1

    def flagged(self, alpha: float = DEFAULT_ALPHA) -> bool:
        return self.rho is not None and self.rho > 0 and self.p_value <= alpha and self.ev_gain > 0


def _changes_test(counts: Sequence[float], bets: Sequence[float]) -> tuple[int, float]:
    """The number of bet changes and z = Σ xᵢyᵢ / √(Σ xᵢ²yᵢ²), xᵢ the change of log bet from the previous round
    played (centred), yᵢ the change of the true count.

    Both the bet and the count drift slowly, so their levels correlate by chance far more often than an
    independent-rounds test admits (a count-blind player who raised the bet for a while in a rich shoe). Their
    changes do not: the true count is close to a martingale (its next change averages zero whatever came
    before), so a bet that moves without looking at the count is uncorrelated with the count's moves, however
    the bets and counts drift; the self-normalised sum is then approximately standard normal (a martingale
    central limit theorem), heteroscedastic count changes included.
    """
    if len(bets) < 3 or min(bets) <= 0:
        return 0, 0.0
    logs = [math.log(b) for b in bets]
    x = [logs[i] - logs[i - 1] for i in range(1, len(logs))]
    y = [counts[i] - counts[i - 1] for i in range(1, len(counts))]
    changes = sum(1 for v in x if v)
    mx = mean(x)
    xc = [v - mx for v in x]
    s = sum(a * b for a, b in zip(xc, y))
    v = sum((a * b) ** 2 for a, b in zip(xc, y))
    return changes, (s / math.sqrt(v) if v > 0 else 0.0)


def bet_pattern(rounds: Sequence[tuple[float, int]], edges: EdgeTable, *, seed: int = 0) -> BetPattern:
    """``rounds``: (true count before the round, the seat's initial bet in minor units) of each round played, in
    the order played.

    The flag's significance is from the bet's changes against the count's changes (:func:`_changes_test`); the
    rank correlation of the levels, the spread and the expected value of the pattern say how strongly and how
    profitably the bet follows the count."""
    if not rounds:
        return BetPattern(0, 0, 0, 1.0, None, 1.0, 0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    counts = [float(tc) for tc, _ in rounds]
    bets = [float(b) for _, b in rounds]
    rho, rho_p = spearman_p_greater(counts, bets, seed=seed)
    changes, z = _changes_test(counts, bets)
    wagered = sum(bets)
    ev_pattern = sum(b * edges.at(tc) for tc, b in zip(counts, bets)) / wagered if wagered else 0.0
    ev_flat = mean([edges.at(tc) for tc in counts])
    high = [b for tc, b in zip(counts, bets) if tc >= 2]
    low = [b for tc, b in zip(counts, bets) if tc < 1]
    smallest, largest = int(min(bets)), int(max(bets))
    return BetPattern(
        rounds=len(rounds),
        min_bet=smallest,
        max_bet=largest,
        spread=largest / smallest if smallest > 0 else math.inf,
        rho=rho,
        rho_p=rho_p,
        changes=changes,
        z=z,
        p_value=normal_sf(z) if changes else 1.0,
        ev_pattern=ev_pattern,
        ev_flat=ev_flat,
        ev_gain=ev_pattern - ev_flat,
        mean_bet_high=mean(high),
        mean_bet_low=mean(low),
    )


@dataclass(frozen=True)
class TableRound:
    """One round dealt at a shoe table: its shoe, the true count before it, and whether the player sat in."""

    shoe: int | str
    true_count: float
    played: bool


@dataclass(frozen=True)
class BackCounting:
    """Entries into and exits from the game in the middle of a shoe, against the counts of the table's rounds."""

    rounds_seen: int  # the table's rounds in the shoes the player played in
    rounds_played: int
    entries: int  # sat in after a round of the same shoe they did not play
    exits: int  # left while the same shoe went on
    mean_entry_tc: float
    mean_exit_tc: float
    table_mean_tc: float  # the table's rounds after a shoe's first
    table_sd_tc: float
    played_high_share: float  # the share of the rounds played at a true count of +1 or more
    table_high_share: float  # the same share of all the table's rounds
    z: float
    p_value: float  # one-sided: entries this high and exits this low by chance

    def flagged(self, alpha: float = DEFAULT_ALPHA) -> bool:
        return self.entries + self.exits >= 2 and self.p_value <= alpha and self.mean_entry_tc > self.mean_exit_tc


def back_counting(rounds: Sequence[TableRound]) -> BackCounting:
    """Entering high and leaving low, from every round of the table in the order dealt (each with its shoe)
    and whether the player played it.

    Under chance (a player who comes and goes whatever the count), the true count when they enter mid-shoe and
    when they leave mid-shoe are draws from the table's mid-shoe counts; the statistic is the entries' counts
    minus the exits', standardised by the table's spread: z = (Σ entry − Σ exit − (e − x)·μ) / (σ·√(e + x)).
    Entries at a shoe's first round (a count of 0 by definition) and leaving when the shoe ends say nothing
    and are not counted.
    """
    played_shoes = {r.shoe for r in rounds if r.played}
    seen = [r for r in rounds if r.shoe in played_shoes]
    mid: list[float] = []
    entries: list[float] = []
    exits: list[float] = []
    previous: TableRound | None = None
    for r in seen:
        same_shoe = previous is not None and previous.shoe == r.shoe
        if same_shoe:
            mid.append(r.true_count)
            assert previous is not None
            if r.played and not previous.played:
                entries.append(r.true_count)
            elif previous.played and not r.played:
                exits.append(r.true_count)
        previous = r
    played = [r for r in seen if r.played]
    mu, sigma = mean(mid), stdev(mid)
    k = len(entries) + len(exits)
    if k and sigma > 0:
        z = (sum(entries) - sum(exits) - (len(entries) - len(exits)) * mu) / (sigma * math.sqrt(k))
    else:
        z = 0.0
    return BackCounting(
        rounds_seen=len(seen),
        rounds_played=len(played),
        entries=len(entries),
        exits=len(exits),
        mean_entry_tc=mean(entries),
        mean_exit_tc=mean(exits),
        table_mean_tc=mu,
        table_sd_tc=sigma,
        played_high_share=mean([1.0 if r.true_count >= 1 else 0.0 for r in played]),
        table_high_share=mean([1.0 if r.true_count >= 1 else 0.0 for r in seen]),
        z=z,
        p_value=normal_sf(z) if k else 1.0,
    )
