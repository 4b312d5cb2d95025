"""Accounting's codes as a person reads them: the one place each is worded (screens, reports, exports).

A stored code (``balanced``, ``count_variance``) never reaches a screen; its label does, through the
active language's catalog."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy as _

from accounting.models import ReconciliationStatus

RECONCILIATION = {
    ReconciliationStatus.BALANCED: _("Balanced"),
    ReconciliationStatus.VARIANCE: _("Differences found"),
}

# each cause a reconciliation finds (accounting.services.reconcile), in the casino's words; ``{number}``
# is the round's number, ``{amount}`` money in the one format, ``{detail}`` what was missing
CAUSES = {
    "missing_count": _("A count was missing: {detail}."),
    "unposted_round": _("Round {number} is not in the ledger as it was settled."),
    "mismatch": _("Round {number}: playing its cards again gives another result than the one paid."),
    "live_round": _("Round {number} was still in play."),
    "round_after_close": _("Round {number} was settled after the table closed: {amount}, not in the close's figures."),
    "count_variance": _("The counts and the rounds differ by {amount}."),
    "hold_outside_interval": _("The hold is outside what the games' odds allow for (95 % interval)."),
    "running_figures": _("A running figure differs from its records."),
}
OTHER_CAUSE = _("Something else was found.")
MISSING_COUNTS = {
    "opening inventory count": _("the opening chip count"),
    "closing inventory count": _("the closing chip count"),
    "soft count of the drop": _("the soft count of the drop"),
}


def reconciliation_label(code: str) -> str:
    """A reconciliation's result (``balanced``) as read (``Balanced``); empty for none."""
    if not code:
        return ""
    found = RECONCILIATION.get(code)  # type: ignore[call-overload]
    return str(found) if found is not None else str(code)


# how an alert reads in the reader's language (the API's ``text``): the floor words every area's alerts
# (floor.labels.alert_text, plugged in by floor.apps); without it, the English record
alert_wording: list[Callable[[Any], str]] = []


def alert_words(alert: Any) -> str:
    """An alert's sentence in the active language, as the pit's screens word it."""
    return alert_wording[0](alert) if alert_wording else str(alert.message)
