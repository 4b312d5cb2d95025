"""The players area's knobs, read from ``settings.CROUPIER`` with the documented defaults (docs/players.md).

Amounts are minor units: the default cash report threshold 1 000 000 is 10,000.00.
"""

from __future__ import annotations

from django.conf import settings

DEFAULTS: dict[str, int] = {
    "CASH_REPORT_THRESHOLD": 1_000_000,  # a player's cash in (or out) in one gaming day above this is reported
    "COMP_REINVESTMENT_PERCENT": 30,  # comp value = this share of theoretical win, rounded down
    "COMP_POINTS_PER_UNIT": 10,  # points per currency unit of comp value, rounded down
    "RATING_AVERAGE_BET_FACTOR_PERCENT": 200,  # estimate and measured average bet further apart than 2× are flagged
    # advantage play (docs/game_protection.md): a flag at this one-sided p-value or below, in parts per million
    # (10 000: p ≤ 0.01); an alert for the pit at this one or below (1 000: p ≤ 0.001)
    "ADVANTAGE_FLAG_P_PPM": 10_000,
    "ADVANTAGE_ALERT_P_PPM": 1_000,
    # measured skill (docs/game_protection.md): a player's measured edge replaces the assumed one in theoretical
    # win once they have this many recorded rounds at the game (blackjack, Pontoon) in the 30 days to the close
    "MEASURED_EDGE_MIN_ROUNDS": 200,
    # baccarat side bets (pair, tie) that cluster where the cards left favour them: an alert at this one or below
    "SIDE_BET_ALERT_P_PPM": 1_000,
}


def knob(name: str) -> int:
    value = getattr(settings, "CROUPIER", {}).get(name, DEFAULTS[name])
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TypeError(f"settings.CROUPIER[{name!r}] must be a non-negative integer, got {value!r}")
    return value
