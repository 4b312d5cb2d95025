"""The Carousel games' house edge by seeded simulation: sessions of games with bettors, the
rake per chip staked on each pool, and the living-win bet."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from tables.engines.base import (
    EdgeRow,
)
from tables.engines.money import Rounding
from tables.engines.triangle import DECK_SIZE, HIGH_CARD, LIVING_WIN, PONY, TOP_RANK, carry_rake, split_pot


class CarouselRules(Protocol):
    """What the simulation asks of a Carousel engine: which pools and side bets its game has."""

    @property
    def has_pony(self) -> bool: ...
    @property
    def has_living_win(self) -> bool: ...
    @property
    def has_high_card(self) -> bool: ...


SIM_GAMES = 10_000  # games for the pool rows
LIVING_WIN_GAMES = 100_000  # games for the living-win row (a cheaper loop: no bettors)
SIM_BETTORS = 5  # as in the rule book's example game
SIM_BATCHES = 100


def survivor_distribution(die: Sequence[float]) -> list[float]:
    """P(k hands survive the next deal), k = 0..len(die), from each hand's chance to pair.

    Each chance is exact (a hand's next card is uniform over what is left of the deck);
    treating the hands as independent is the approximation.

    >>> survivor_distribution([0.5, 0.5])
    [0.25, 0.5, 0.25]
    """
    dist = [1.0]
    for p_die in die:
        new = [0.0] * (len(dist) + 1)
        for k, p in enumerate(dist):
            new[k] += p * p_die
            new[k + 1] += p * (1 - p_die)
        dist = new
    return dist


@dataclass(slots=True)
class SimPool:
    """A pool's carry and totals across a simulated session, by batch of games."""

    carry: int = 0
    batch_stakes: list[int] = field(default_factory=lambda: [0] * SIM_BATCHES)
    batch_rake: list[int] = field(default_factory=lambda: [0] * SIM_BATCHES)

    def round(self, batch: int, stakes: int, winners: int, money: tuple[int, Rounding, int]) -> None:
        bp, rounding, chip = money
        pot = self.carry + stakes
        left = split_pot(pot, winners, chip)[1] if winners else pot
        rake = carry_rake(left, bp, rounding, chip)
        self.carry = left - rake
        self.batch_stakes[batch] += stakes
        self.batch_rake[batch] += rake


def _draw(deck: list[int], left: int, rnd: Any) -> int:
    """Take a random card from the first ``left`` of ``deck`` (moving the last one into its place)."""
    j = int(rnd() * left)
    card = deck[j]
    deck[j] = deck[left - 1]
    return card


def simulate(engine: CarouselRules, cfg: Mapping[str, Any], *, games: int, rng: random.Random) -> dict[str, SimPool]:
    """Deal ``games`` games in a row (carries pass from game to game) with ``SIM_BETTORS`` bettors.

    Count pool, twice on the same cards: "uniform" bettors each pick a count from 0 to the
    running hands at random; "likely" bettors all take the most likely count by the deck's
    composition (``survivor_distribution``). Pony and high card bettors pick a hand at random.
    """
    n, stake_all = cfg["foundations"], SIM_BETTORS * cfg["limit"]
    money = (cfg["rake_bp"], Rounding(cfg["rake_rounding"]), cfg["chip"])
    pools = {"uniform": SimPool(), "likely": SimPool()}
    if engine.has_pony:
        pools[PONY] = SimPool()
    if engine.has_high_card:
        pools[HIGH_CARD] = SimPool()
    rnd = rng.random
    deck0 = [r for r in range(1, TOP_RANK + 1) for _ in range(r)]
    for g in range(games):
        batch = g * SIM_BATCHES // games
        deck, left, counts = deck0[:], DECK_SIZE, list(range(TOP_RANK + 1))
        stacks: list[list[int]] = []
        for _ in range(n):
            card = _draw(deck, left, rnd)
            left -= 1
            counts[card] -= 1
            stacks.append([card])
        alive = list(range(n))
        pony_picks = [int(rnd() * n) for _ in range(SIM_BETTORS)] if engine.has_pony else []
        while True:
            k = len(alive)
            uniform_picks = [int(rnd() * (k + 1)) for _ in range(SIM_BETTORS)]
            dist = survivor_distribution([sum(counts[r] for r in stacks[h]) / left for h in alive])
            likely = dist.index(max(dist))
            hc_picks = [alive[int(rnd() * k)] for _ in range(SIM_BETTORS)] if engine.has_high_card else []
            survivors, drawn = [], []
            for h in alive:
                card = _draw(deck, left, rnd)
                left -= 1
                counts[card] -= 1
                drawn.append(card)
                if card not in stacks[h]:
                    survivors.append(h)
                stacks[h].append(card)
            s = len(survivors)
            pools["uniform"].round(batch, stake_all, uniform_picks.count(s), money)
            pools["likely"].round(batch, stake_all, SIM_BETTORS if likely == s else 0, money)
            if engine.has_high_card:
                top = max(drawn)
                winner = alive[drawn.index(top)] if drawn.count(top) == 1 else -1
                pools[HIGH_CARD].round(batch, stake_all, hc_picks.count(winner), money)
            last_round, alive = alive, survivors
            if len(alive) <= 1 or left < len(alive):
                break
        if engine.has_pony:
            winners = _sim_pony_winners(stacks, alive or last_round)
            pools[PONY].round(batch, stake_all, sum(p in winners for p in pony_picks), money)
    return pools


def _sim_pony_winners(stacks: Sequence[Sequence[int]], candidates: Sequence[int]) -> list[int]:
    best = max(tuple(reversed(stacks[h])) for h in candidates)
    return [h for h in candidates if tuple(reversed(stacks[h])) == best]


def living_win_games(n: int, *, games: int, rng: random.Random) -> int:
    """How many of ``games`` simulated games end with one horse winning alone, alive."""
    rnd = rng.random
    deck0 = [r for r in range(1, TOP_RANK + 1) for _ in range(r)]
    wins = 0
    for _ in range(games):
        deck, left = deck0[:], DECK_SIZE
        stacks = []
        for _ in range(n):
            stacks.append([_draw(deck, left, rnd)])
            left -= 1
        alive = list(range(n))
        while len(alive) > 1 and left >= len(alive):
            survivors = []
            for h in alive:
                card = _draw(deck, left, rnd)
                left -= 1
                if card not in stacks[h]:
                    survivors.append(h)
                stacks[h].append(card)
            alive = survivors
        # the deck can run dry with 7 or 8 hands: then the race goes to the better stack
        if len(alive) == 1 or (alive and len(_sim_pony_winners(stacks, alive)) == 1):
            wins += 1
    return wins


def _ratio_ci(rake: Sequence[int], stakes: Sequence[int]) -> tuple[float, float]:
    """95 % interval of Σrake/Σstakes from batch totals (the delta method over batches)."""
    b = len(stakes)
    total = sum(rake) / sum(stakes)
    mean_s = sum(stakes) / b
    resid = [(r - total * s) / mean_s for r, s in zip(rake, stakes)]
    var = sum(x * x for x in resid) / (b - 1)
    half = 1.96 * math.sqrt(var / b)
    return total - half, total + half


def edge_rows(
    engine: CarouselRules,
    cfg: Mapping[str, Any],
    *,
    seed: int,
    games: int = SIM_GAMES,
    living_games: int = LIVING_WIN_GAMES,
) -> list[EdgeRow]:
    """The house's take per chip staked on each pool (and the living-win bet's edge), simulated."""
    pools = simulate(engine, cfg, games=games, rng=random.Random(seed))
    method = (
        f"simulation: {games} games in a row, {SIM_BETTORS} bettors, {cfg['foundations']} hands, "
        f"95 % CI over {SIM_BATCHES} batches"
    )
    labels = {
        "uniform": ("count (uniform bettors)", "count bettors each pick a count from 0 to the running hands at random"),
        "likely": (
            "count (most-likely bettors)",
            "count bettors all take the most likely count by the deck's composition",
        ),
        PONY: ("pony (uniform bettors)", "pony bettors pick a hand at random"),
        HIGH_CARD: ("high_card (uniform bettors)", "high card bettors pick a running hand at random"),
    }
    rows = []
    for key, pool in pools.items():
        bet, note = labels[key]
        rake, stakes = sum(pool.batch_rake), sum(pool.batch_stakes)
        rows.append(
            EdgeRow(bet, Fraction(rake, stakes), method, ci95=_ratio_ci(pool.batch_rake, pool.batch_stakes), note=note)
        )
    if engine.has_living_win:
        n, pays = cfg["foundations"], cfg["living_win_pays"]
        wins = living_win_games(n, games=living_games, rng=random.Random(seed))
        q = wins / living_games  # chance that some horse wins alone, alive; the hands are exchangeable
        edge = 1 - (pays + 1) * q / n
        half = 1.96 * (pays + 1) / n * math.sqrt(q * (1 - q) / living_games)
        rows.append(
            EdgeRow(
                LIVING_WIN,
                edge,
                f"simulation: {living_games} games, {n} hands, binomial 95 % CI",
                ci95=(edge - half, edge + half),
                note=f"one horse is left standing in {q:.2%} of games; it wins {pays}:1 on 1/{n} of them",
            )
        )
    return rows
