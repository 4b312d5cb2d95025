"""Dealer game protection: each dealer's pace and error counts against the other dealers of the same pit.

Each count (undos, voids, corrections, withdrawn bets, pay lists a supervisor later corrected) is compared with
the rate of the pit's other dealers over the same number of rounds: under chance the dealer's count is Poisson
with mean rounds × (the others' count / the others' rounds), and the p-value is its upper tail. The pace (rounds
per hour of the same game) is compared with the other dealers' by a z-score, two-sided.

>>> team = [DealerActivity("ann", 400, 4.0, undos=2), DealerActivity("bob", 400, 4.0, undos=3),
...         DealerActivity("cy", 400, 4.0, undos=20)]
>>> cy = dealer_profiles(team)[2]
>>> cy.rates["undos"], cy.expected["undos"], cy.p_values["undos"] < 0.001
(5.0, 0.625, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tables.protection.betting import DEFAULT_ALPHA
from tables.protection.stats import mean, normal_sf, poisson_sf, stdev

COUNTS = ("undos", "voids", "corrections", "withdrawn", "pay_corrected")


@dataclass(frozen=True)
class DealerActivity:
    dealer: str
    rounds: int
    hours: float  # time at tables of the game, from the dealers' assignments
    undos: int = 0
    voids: int = 0
    corrections: int = 0
    withdrawn: int = 0
    pay_corrected: int = 0


@dataclass(frozen=True)
class DealerProfile:
    dealer: str
    rounds: int
    rounds_per_hour: float
    pace_z: float  # against the other dealers' rounds per hour
    pace_p: float  # two-sided
    rates: dict[str, float] = field(default_factory=dict)  # per 100 rounds
    expected: dict[str, float] = field(default_factory=dict)  # per 100 rounds, at the others' rate
    p_values: dict[str, float] = field(default_factory=dict)  # one-sided, this many or more by chance

    def flags(self, alpha: float = DEFAULT_ALPHA) -> list[str]:
        """The counts (and ``pace``) that stand out at ``alpha``."""
        out = [name for name in COUNTS if self.p_values.get(name, 1.0) <= alpha]
        return [*out, "pace"] if self.pace_p <= alpha else out


def dealer_profiles(dealers: Sequence[DealerActivity]) -> list[DealerProfile]:
    """Each dealer against the others of the list (one pit, one game), in the list's order."""
    out = []
    for d in dealers:
        others = [o for o in dealers if o is not d]
        other_rounds = sum(o.rounds for o in others)
        rates, expected, p_values = {}, {}, {}
        for name in COUNTS:
            seen = getattr(d, name)
            rates[name] = 100 * seen / d.rounds if d.rounds else 0.0
            other_rate = sum(getattr(o, name) for o in others) / other_rounds if other_rounds else 0.0
            expected[name] = 100 * other_rate
            if other_rounds:
                # a count where the others had none still stands out: half an event over their rounds is the floor
                mu = d.rounds * max(other_rate, 0.5 / other_rounds)
                p_values[name] = poisson_sf(seen, mu)
            else:
                p_values[name] = 1.0
        pace = d.rounds / d.hours if d.hours > 0 else 0.0
        paces = [o.rounds / o.hours for o in others if o.hours > 0]
        sd = stdev(paces)
        z = (pace - mean(paces)) / sd if sd > 0 and d.hours > 0 else 0.0
        out.append(
            DealerProfile(d.dealer, d.rounds, pace, z, 2 * normal_sf(abs(z)) if z else 1.0, rates, expected, p_values)
        )
    return out
