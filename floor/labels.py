"""The floor's words for what several apps raise. An alert as a person reads it, in their language: worded
from its kind and its figures (``Alert.data``), not from the English sentence stored when it was raised (which
stays the record: the API's ``message``, the audit).

Money is written in the one money format, a cash direction, a flag or a reconciliation's cause by its label; an
alert of a kind not worded here (or whose figures are missing) is shown as it was stored."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy

from accounting.money import money_words
from accounting.reports import labels as report_labels
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
FLAGS = {
    "bets_follow_count": gettext_lazy("bets follow the count"),
    "back_counting": gettext_lazy("enters high, leaves low"),
    "pair_bets_at_positive_ev": gettext_lazy("pair bets where the cards favour them"),
}


def _money(data: dict[str, Any], key: str) -> str:
    return money_words(int(data[key]))


def _player(pk: Any) -> str:
    found = Player.objects.filter(pk=pk).only("first_name", "last_name").first()
    return found.name if found is not None else "?"


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
                "total": _money(data, "total"), "date": data["gaming_date"], "threshold": _money(data, "threshold")}
        if kind == "advantage_play":
            flags = ", ".join(str(FLAGS.get(f, report_labels.words(f))) for f in data.get("flags") or ())
            return gettext("Advantage play to watch: %(player)s over %(rounds)s rounds: %(flags)s. A flag, not an "
                           "accusation.") % {"player": _player(data["player"]), "rounds": data["rounds"],
                                             "flags": flags}
        if kind in CAUSE_KINDS:
            return gettext("Reconciliation: %(cause)s.") % {"cause": CAUSE_KINDS[kind]}
    except (KeyError, TypeError, ValueError):
        pass
    text = str(alert.message)
    prefix = f"{table} " if table else ""
    return text[len(prefix):] if prefix and text.startswith(prefix) else text

