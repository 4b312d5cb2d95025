"""The slot reports, written by accounting's report writers (CSV, XLSX, PDF; ``accounting.reports.base``).

* ``slot_liabilities`` — what the slot floor owes now: each progressive's jackpot and each credits
  bonus meter, from the ledger, with what play contributed, what the house funded and what was paid.
* ``slot_hold`` — each machine's meters over a period (by reading date): coin in, coin out, jackpots,
  win and hold = win / coin in, exact until written: as a percentage with two decimals, rounded half
  away from zero (``accounting.money.percent_text``). The TOTAL row's hold is Σ win / Σ coin in.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterator
from dataclasses import asdict, dataclass, fields
from fractions import Fraction
from typing import Any, cast

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounting.reports.base import (
    INT,
    MONEY,
    PERCENT,
    TEXT,
    Column,
    Report,
    date_param,
    date_range,
    filter_day,
    refuse_unknown,
)
from casino.errors import InvalidInput
from slots import selectors
from slots.models import Machine


@dataclass(frozen=True)
class SlotFilters:
    date_from: dt.date | None = None  # reading date, inclusive
    date_to: dt.date | None = None
    machine: str | None = None  # asset number
    game: str | None = None

    @classmethod
    def parse(cls, params: Any, *, allowed: Collection[str] | None = None, report: str = "") -> SlotFilters:
        """From query parameters; a bad, unknown or unsupported filter, or an unknown machine, is refused."""
        refuse_unknown(params, [f.name for f in fields(cls)], allowed, report)
        values: dict[str, Any] = {}
        for name in ("date_from", "date_to"):
            raw = params.get(name)
            if raw not in (None, ""):
                values[name] = date_param(name, raw)
        for name in ("machine", "game"):
            raw = params.get(name)
            if raw not in (None, ""):
                values[name] = str(raw).strip()[:80]
        date_range(values)
        if "machine" in values and not Machine.objects.filter(asset_number=values["machine"]).exists():
            raise InvalidInput(gettext("no machine %(machine)s") % {"machine": values["machine"]}, code="unknown_machine", field="machine")
        return cls(**values)

    def describe(self, *, machine: bool = False) -> str:
        """The filters in words, for a document's header (never a parameter's name); days as the reader's
        language writes them, or year-month-day for ``machine`` (the CSV's first line)."""
        out = []
        if self.date_from or self.date_to:
            out.append(gettext("reading dates {start} to {end}").format(
                start=filter_day(self.date_from, machine=machine) if self.date_from else gettext("the first"),
                end=filter_day(self.date_to, machine=machine) if self.date_to else gettext("today")))
        if self.machine:
            out.append(gettext("machine {asset}").format(asset=self.machine))
        if self.game:
            out.append(gettext("game {name}").format(name=self.game))
        return ", ".join(out) or gettext("no filter: every machine")

    def as_json(self) -> dict[str, Any]:
        return {k: (v.isoformat() if isinstance(v, dt.date) else v) for k, v in asdict(self).items() if v is not None}


class LiabilitiesReport(Report):
    """Progressive jackpots and bonus-meter credits owed: the ledger's figure against what the floor shows."""

    name = "slot_liabilities"
    title = _("Slot liabilities: progressives and bonus meters")
    filters_used = ()
    columns = (
        Column("kind", _("Kind")),
        Column("code", _("Code")),
        Column("name", _("Name")),
        Column("machines", _("Machines")),
        Column("reset_value", _("Reset value"), MONEY),
        Column("rate", _("Rate (bp of coin in)"), INT),
        Column("hits", _("Hits"), INT, total=True),
        Column("contributed", _("Contributed from play"), MONEY, total=True),
        Column("funded", _("Funded by the house"), MONEY, total=True),
        Column("paid", _("Paid out"), MONEY, total=True),
        Column("released", _("Released / other"), MONEY, total=True),
        Column("liability", _("Liability (ledger)"), MONEY, total=True),
        Column("shown", _("Shown on the floor"), MONEY, total=True),
        Column("carried", _("Carried fraction of a minor unit")),
    )

    def rows(self) -> Iterator[tuple[Any, ...]]:
        for r in selectors.progressive_liabilities():
            p = r["progressive"]
            yield (
                gettext("Progressive"), p.code, p.name, " ".join(r["machines"]), p.reset_value, p.contribution_bp, p.hits,
                r["contributed"], r["funded"], r["paid"], r["other"], r["liability"], p.amount,
                selectors.carried_text(p.remainder),
            )
        for r in selectors.bonus_liabilities():
            m = r["meter"]
            yield (
                gettext("Bonus meter"), m.machine.asset_number, m.label, m.machine.asset_number,
                m.reset_value * m.machine.denomination, None, m.hits, r["contributed"], r["funded"], r["paid"],
                r["released"], r["liability"], m.owed, None,
            )


class HoldReport(Report):
    """Each machine's meters and hold over the period."""

    name = "slot_hold"
    title = _("Slot machine hold")
    filters_used = ("date_from", "date_to", "machine", "game")
    columns = (
        Column("machine", _("Machine")),
        Column("game", _("Game")),
        Column("location", _("Location")),
        Column("denomination", _("Denomination"), MONEY),
        Column("status", _("Status"), TEXT),
        Column("readings", _("Readings"), INT, total=True),
        Column("games_played", _("Games played"), INT, total=True),
        Column("coin_in", _("Coin in"), MONEY, total=True),
        Column("coin_out", _("Coin out"), MONEY, total=True),
        Column("jackpots", _("Jackpots"), MONEY, total=True),
        Column("win", _("Win"), MONEY, total=True),
        Column("hold", _("Hold % (2 dp, half away from zero)"), PERCENT),
        Column("drop", _("Drop"), MONEY, total=True),
        Column("contributions", _("Set aside for progressives"), MONEY, total=True),
    )

    def rows(self) -> Iterator[tuple[Any, ...]]:
        f = cast(SlotFilters, self.filters)  # slot reports are built with slot filters (get_report)
        for r in selectors.machine_hold(date_from=f.date_from, date_to=f.date_to, machine=f.machine, game=f.game):
            m = r["machine"]
            yield (
                m.asset_number, m.game, m.location, m.denomination, gettext(m.get_status_display()), r["readings"], r["games_played"],
                r["coin_in"], r["coin_out"], r["jackpots"], r["win"], r["hold"], r["drop"], r["contributions"],
            )

    def ratio_totals(self, sums: dict[str, int]) -> dict[str, Fraction | None]:
        return {"hold": selectors.hold(sums.get("win", 0), sums.get("coin_in", 0))}


REPORTS: dict[str, type[Report]] = {r.name: r for r in (LiabilitiesReport, HoldReport)}
