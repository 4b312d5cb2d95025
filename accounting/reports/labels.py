"""The words the reports' cells use in place of codes: a game's title, a pit's name, a shift's name,
a slip's kind and status, a reconciliation's result and causes, a person's name, chips as
"2 × €500.00", times in the casino's time zone.

The reports (CSV, XLSX, PDF, the screen) read their rows through these, so a code stored in the
database ("count_variance", "received", "main", "D0002") never reaches a reader. Each lookup that
needs the database is made once per report (:class:`Names`), never per row.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from accounting.money import chips_words
from casino.core.models import StaffProfile
from tables.engines.errors import EngineError
from tables.engines.registry import get_engine
from tables.models import Pit, ShiftType
from tables.wording import bet_label, game_name

SLIP_KINDS = {"fill": gettext_lazy("Fill"), "credit": gettext_lazy("Credit")}
SLIP_STATUSES = {
    "requested": gettext_lazy("Requested"),
    "issued": gettext_lazy("Issued"),
    "received": gettext_lazy("Received"),
    "voided": gettext_lazy("Voided"),
}
RECONCILIATION = {
    "balanced": gettext_lazy("Balanced"),
    "variance": gettext_lazy("Differences found"),
    None: gettext_lazy("Not run yet"),
}
CAUSES = {
    "missing_count": gettext_lazy("Count missing"),
    "unposted_round": gettext_lazy("Round not in the ledger"),
    "mismatch": gettext_lazy("Round paid differently from its cards"),
    "live_round": gettext_lazy("Round still in play"),
    "round_after_close": gettext_lazy("Round settled after the close"),
    "count_variance": gettext_lazy("Counts and rounds differ"),
    "hold_outside_interval": gettext_lazy("Hold outside the expected range"),
}
TRANSACTION_KINDS = {
    "bet": pgettext_lazy("large transaction", "Bet"),
    "marker": pgettext_lazy("large transaction", "Marker"),
    "fill": pgettext_lazy("large transaction", "Fill"),
    "credit": pgettext_lazy("large transaction", "Credit"),
}
RESULTS = {
    "win": pgettext_lazy("bet result", "Won"),
    "lose": pgettext_lazy("bet result", "Lost"),
    "loss": pgettext_lazy("bet result", "Lost"),
    "push": pgettext_lazy("bet result", "Push"),
    "tie": pgettext_lazy("bet result", "Tie"),
    "void": pgettext_lazy("bet result", "Void"),
    "returned": pgettext_lazy("bet result", "Returned"),
    "surrender": pgettext_lazy("bet result", "Surrendered"),
}
YES_NO = {True: gettext_lazy("yes"), False: gettext_lazy("no")}


def words(code: Any) -> str:
    """A code nobody has named yet, as words: "pair_plus" → "Pair plus" (never the bare code)."""
    text = str(code or "").replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def label(table: Mapping[Any, Any], code: Any) -> str:
    """``code``'s label in ``table``, else the code in words."""
    found = table.get(code)
    return str(found) if found is not None else words(code)


def game(code: Any) -> str:
    """A game's name in the reader's language: the floor's one wording of it (tables.wording.game_name)."""
    return str(game_name(str(code))) if code else ""


@functools.cache
def _bet_type_codes(code: str) -> tuple[str, ...]:
    try:
        return tuple(get_engine(code).bet_types)
    except EngineError:
        return ()


def bet_types_named(game_code: str) -> dict[str, str]:
    """The bet types of a game whose label (in the reader's language) is not simply their code in words."""
    return {k: v for k in _bet_type_codes(game_code) if (v := bet_type(game_code, k)) != words(k)}


def bet_type(game_code: Any, code: Any) -> str:
    """A bet type as the game's layout names it, in the reader's language: the floor's one wording
    (tables.wording.bet_label)."""
    return bet_label(str(game_code), str(code)) if code else ""


def result(code: Any) -> str:
    return label(RESULTS, code) if code else ""


def zone_name() -> str:
    return str(settings.TIME_ZONE)


def local_time(moment: dt.datetime | None, *, seconds: bool = True) -> str:
    """A moment in the casino's time zone, as a person reads it: ``2026-11-27 11:27:32``."""
    if moment is None:
        return ""
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")


def chips(chips: Mapping[str, int] | None) -> str:
    """Chips by denomination, largest first: ``{"50000": 2, "10000": 3}`` → ``2 × €500, 3 × €100``
    (``accounting.money.chips_words``, the one chip format)."""
    pairs = sorted(((int(d), int(q)) for d, q in (chips or {}).items()), reverse=True)
    return ", ".join(chips_words(d, q) for d, q in pairs if q)


class Names:
    """The names of pits, shift types and people, read once for one report."""

    def __init__(self) -> None:
        self._pits: dict[str, str] | None = None
        self._shifts: dict[str, str] | None = None
        self._by_id: dict[str, str] | None = None
        self._by_username: dict[str, str] | None = None

    def pit(self, code: Any) -> str:
        if self._pits is None:
            self._pits = dict(Pit.objects.values_list("code", "name"))
        return self._pits.get(str(code)) or words(code) if code else ""

    def shift(self, code: Any) -> str:
        if self._shifts is None:
            self._shifts = dict(ShiftType.objects.values_list("code", "name"))
        return self._shifts.get(str(code)) or words(code) if code else ""

    def employee(self, employee_id: Any) -> str:
        """A signer named by their employee id, by name."""
        if not employee_id:
            return ""
        if self._by_id is None:
            self._by_id = dict(StaffProfile.objects.values_list("employee_id", "display_name"))
        return self._by_id.get(str(employee_id)) or str(employee_id)

    def person(self, username: Any) -> str:
        """A user named by their username, by name (their username when they have no staff profile)."""
        if not username:
            return ""
        if self._by_username is None:
            users = get_user_model().objects.values_list("username", "staff__display_name", "first_name", "last_name")
            self._by_username = {
                u: (display or f"{first} {last}".strip() or u) for u, display, first, last in users
            }
        return self._by_username.get(str(username)) or str(username)


def not_run() -> str:
    return gettext("Not run yet")
