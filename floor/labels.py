"""The floor's words for what several apps raise. An alert as a person reads it, in their language: worded
from its kind and its figures (``Alert.data``), not from the English sentence stored when it was raised (which
stays the record: the API's ``message``, the audit).

Money is written in the one money format, a cash direction, a flag, a running figure, a late job or a
reconciliation's cause by its label, a day or a time in the reader's date format. Every kind the code raises
(``accounting.services.alerts.KINDS``) is worded here; only a row written by an older version without its figures
is shown as it was stored."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from accounting.money import money_words
from accounting.reports import labels as report_labels
from casino.money import number_words
from casino.ops.words import finding_words
from casino.words import day_words, shift_words
from players import labels as player_labels
from players.models import Player

# the causes a reconciliation raises an alert for, in short (the alert names the table and the shift)
CAUSE_KINDS = {
    "missing_count": gettext_lazy("a count is missing"),
    "unposted_round": gettext_lazy("a round is not in the ledger as it was settled"),
    "mismatch": gettext_lazy("a round was paid differently from its cards"),
    "live_round": gettext_lazy("a round was still in play"),
    "round_after_close": gettext_lazy("a round was settled after the table closed"),
    "hold_outside_interval": gettext_lazy("the hold is outside the interval the games' odds allow for (95 %)"),
}
DIRECTIONS = {"in": gettext_lazy("cash in"), "out": gettext_lazy("cash out")}
# the running figures a nightly check compares with the records (accounting.services.running)
RUNNING_FIGURES = {
    "rounds": gettext_lazy("rounds settled"),
    "handle": gettext_lazy("handle"),
    "rounds_win": gettext_lazy("rounds win"),
    "commission": gettext_lazy("commission"),
    "rake": gettext_lazy("rake"),
    "pool_change": gettext_lazy("pool change"),
    "fills": gettext_lazy("fills"),
    "credits": gettext_lazy("credits"),
    "marker_payments": gettext_lazy("marker payments at the table"),
    "markers_issued": gettext_lazy("markers issued"),
    "big_bets": gettext_lazy("big bets"),
    "opener": gettext_lazy("opening count"),
    "closer": gettext_lazy("closing count"),
    "drop": gettext_lazy("drop"),
}
RUNNING_COUNTS = frozenset({"rounds", "big_bets"})  # the running figures that are counts, not money


def _money(data: dict[str, Any], key: str) -> str:
    return money_words(int(data[key]))


def _player(pk: Any) -> str:
    found = Player.objects.filter(pk=pk).only("first_name", "last_name").first()
    return found.name if found is not None else "?"


def _running_value(figure: str, value: Any) -> str:
    if value is None:
        return gettext("no count")
    return number_words(int(value), 0) if figure in RUNNING_COUNTS else money_words(int(value))


def _running_text(alert: Any, data: dict[str, Any]) -> str:
    figure = str(data["figure"])
    words = {"figure": RUNNING_FIGURES[figure], "running": _running_value(figure, data["running"]),
             "records": _running_value(figure, data["records"]), "shift": shift_words(alert.shift)}
    if data.get("hour"):
        hour = timezone.localtime(dt.datetime.fromisoformat(str(data["hour"])))
        return gettext("Shift %(shift)s: the running %(figure)s of the hour from %(hour)s shows %(running)s but the "
                       "records add up to %(records)s.") % {**words, "hour": f"{hour:%H:%M}"}
    return gettext("Shift %(shift)s: the running %(figure)s shows %(running)s but the records add up to "
                   "%(records)s.") % words


def alert_text(alert: Any) -> str:
    """The alert's sentence in the reader's language (the table named where the screen does not)."""
    data: dict[str, Any] = alert.data or {}
    kind = str(alert.kind)
    table = alert.table.code if getattr(alert, "table_id", None) else ""
    try:
        if kind == "large_bet":
            return gettext("Large bet of %(amount)s on %(bet)s, seat %(seat)s (threshold %(threshold)s).") % {
                "amount": _money(data, "amount"),
                "bet": report_labels.bet_type(alert.table.game if table else "", data["type"]),
                "seat": data["seat"], "threshold": _money(data, "threshold")}
        if kind == "large_loss":
            return gettext("The house lost %(amount)s in one round (threshold %(threshold)s).") % {
                "amount": money_words(-int(data["house_net"])), "threshold": _money(data, "threshold")}
        if kind == "variance":
            return gettext("The counts and the rounds differ by %(amount)s this shift (threshold %(threshold)s).") % {
                "amount": _money(data, "variance"), "threshold": _money(data, "threshold")}
        if kind == "count_discrepancy":
            return gettext("The opener differs from the last closer by %(gross)s (net %(net)s).") % {
                "gross": _money(data, "gross"), "net": money_words(int(data.get("net") or 0))}
        if kind == "cash_threshold":
            return gettext("%(player)s: %(direction)s of %(total)s on gaming day %(date)s is above %(threshold)s; "
                           "a cash transaction report line was made.") % {
                "player": _player(data["player"]), "direction": DIRECTIONS[data["direction"]],
                "total": _money(data, "total"), "date": day_words(dt.date.fromisoformat(str(data["gaming_date"]))),
                "threshold": _money(data, "threshold")}
        if kind == "advantage_play":
            flags = player_labels.flags(data.get("flags"))
            return gettext("Advantage play to watch: %(player)s over %(rounds)s rounds: %(flags)s. A flag, not an "
                           "accusation.") % {"player": _player(data["player"]),
                                             "rounds": number_words(int(data["rounds"])
                                                                    + int(data.get("baccarat_rounds") or 0), 0),
                                             "flags": flags}
        if kind in CAUSE_KINDS:
            return gettext("Reconciliation: %(cause)s.") % {"cause": CAUSE_KINDS[kind]}
        if kind == "running_figures":
            return _running_text(alert, data)
        if kind == "stale_job" and data.get("key"):
            return finding_words(data)
    except (KeyError, TypeError, ValueError):
        pass
    text = str(alert.message)
    prefix = f"{table} " if table else ""
    return text[len(prefix):] if prefix and text.startswith(prefix) else text

