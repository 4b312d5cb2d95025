"""Accounting's knobs, read from ``settings.CROUPIER`` with the documented defaults.

Every amount is in minor units of the casino's currency (cents when ``MINOR_UNIT_DIGITS`` is 2):
the default discrepancy thresholds 2 500 and 10 000 are 25.00 and 100.00. See docs/accounting.md.
"""

from __future__ import annotations

from django.conf import settings

DEFAULTS: dict[str, object] = {
    "LARGE_BET": 500_000,
    "CHIP_DENOMINATIONS": [100, 500, 2_500, 10_000, 50_000, 100_000, 500_000],
    "COUNT_DISCREPANCY_REPORT": 2_500,
    "COUNT_DISCREPANCY_ESCALATE": 10_000,
    "VARIANCE_ALERT": 10_000,
    "LARGE_LOSS": 1_000_000,
    "LARGE_TRANSACTION": 500_000,
    "RECONCILE_GRACE_HOURS": 24,
    "RUNNING_CHECK_HOURS": 48,
    "EXPORT_SYNC_MAX_ROWS": 10_000,
    "MINOR_UNIT_DIGITS": 2,
    "CURRENCY": "EUR",
    "CASINO_NAME": "Croupier",
    "DAY_RUN_BY": "pit_manager",
    # markers as credit: the largest credit line each role's signature approves (an admin's has no cap)
    "CREDIT_APPROVAL_LIMITS": {"pit_manager": 500_000, "accountant": 5_000_000},
    "MARKER_NEEDS_CREDIT_LINE": False,  # the stricter choice: no marker for a player without a credit line
}


def knob(name: str) -> object:
    return getattr(settings, "CROUPIER", {}).get(name, DEFAULTS[name])


def int_knob(name: str) -> int:
    value = knob(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"settings.CROUPIER[{name!r}] must be an integer, got {value!r}")
    return value
