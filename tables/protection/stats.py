"""The significance measures the flags share. Every p-value is one-sided: the chance, were the player or the
dealer like everyone else, of a figure at least this far in the direction the flag looks for.

>>> round(normal_sf(1.6449), 4), round(binomial_sf(3, 10, 0.1), 4), round(poisson_sf(5, 1.0), 5)
(0.05, 0.0702, 0.00366)
>>> spearman([1, 2, 3, 4], [10, 20, 20, 40])
0.9486832980505138
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

# below this many pairs the rank correlation's p-value is a permutation test, above it the normal
# approximation of its null distribution (variance 1/(n-1); Kendall & Stuart, *The Advanced Theory of Statistics*)
PERMUTATION_BELOW = 30
PERMUTATIONS = 2_000


def normal_sf(z: float) -> float:
    """P(Z ≥ z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def stdev(values: Sequence[float]) -> float:
    """The sample standard deviation (n − 1); 0 for fewer than two values."""
    n = len(values)
    if n < 2:
        return 0.0
    m = mean(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))


def ranks(values: Sequence[float]) -> list[float]:
    """Ranks from 1, ties sharing their average rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        rank = (i + j) / 2 + 1
        for k in range(i, j + 1):
            out[order[k]] = rank
        i = j + 1
    return out


def _pearson(x: Sequence[float], y: Sequence[float]) -> float | None:
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's rank correlation (Pearson's on average ranks); None when either side never varies."""
    if len(x) != len(y):
        raise ValueError("x and y differ in length")
    if len(x) < 3:
        return None
    return _pearson(ranks(x), ranks(y))


def spearman_p_greater(x: Sequence[float], y: Sequence[float], *, seed: int = 0) -> tuple[float | None, float]:
    """The rank correlation and the one-sided p-value of one at least as large by chance (x and y independent).

    From :data:`PERMUTATION_BELOW` pairs on, the null distribution is taken as normal with variance 1/(n − 1);
    below, it is a seeded permutation test of :data:`PERMUTATIONS` shuffles. No correlation (a side that never
    varies) is p = 1.
    """
    rho = spearman(x, y)
    if rho is None:
        return None, 1.0
    n = len(x)
    if n >= PERMUTATION_BELOW:
        return rho, normal_sf(rho * math.sqrt(n - 1))
    rx, ry = ranks(x), ranks(y)
    rng = random.Random(seed)
    shuffled = list(ry)
    at_least = 0
    for _ in range(PERMUTATIONS):
        rng.shuffle(shuffled)
        r = _pearson(rx, shuffled)
        if r is not None and r >= rho - 1e-12:
            at_least += 1
    return rho, (at_least + 1) / (PERMUTATIONS + 1)


def binomial_sf(k: int, n: int, p: float) -> float:
    """P(X ≥ k) for X ~ Binomial(n, p)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    logs = [
        math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * math.log(p) + (n - i) * math.log1p(-p)
        for i in range(k, n + 1)
    ]
    top = max(logs)
    return min(1.0, math.exp(top) * sum(math.exp(v - top) for v in logs))


def poisson_sf(k: int, mu: float) -> float:
    """P(X ≥ k) for X ~ Poisson(mu)."""
    if k <= 0:
        return 1.0
    if mu <= 0.0:
        return 0.0
    term = math.exp(-mu)
    below = 0.0
    for i in range(k):
        below += term
        term *= mu / (i + 1)
    return max(0.0, 1.0 - below) if below < 0.999 else _poisson_upper(k, mu)


def _poisson_upper(k: int, mu: float) -> float:
    # summing the upper tail directly keeps small p-values exact where 1 − (lower sum) would round to 0
    log_term = -mu + k * math.log(mu) - math.lgamma(k + 1)
    total = 0.0
    i = k
    while True:
        value = math.exp(log_term)
        total += value
        i += 1
        log_term += math.log(mu) - math.log(i)
        if value < 1e-18 * max(total, 1e-300) or i > k + 10_000:
            return min(1.0, total)
