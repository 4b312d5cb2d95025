"""Exports of the players area, written by accounting's report writers (CSV streamed, XLSX, PDF).

ratings and comps are for accountants (and compliance); the cash transaction log and the cash
transaction report lines are for compliance only. Filters: ``date_from``, ``date_to`` (gaming
dates), ``table`` (id), ``pit`` (code); each report says which it takes (``filters_used``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

from django.db.models import Count, QuerySet, Sum
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounting.reports import labels
from accounting.reports.base import DATE, DATETIME, INT, MONEY, PERCENT, Column, Filters, Report, filter_day
from casino.core.roles import Role
from players import labels as player_labels
from players.advantage import chance_words as chance
from players.advantage import pit_advantage, watched_games
from players.models import CashTransaction, CashTransactionReport, SlipRating
from players.selectors import player_day_total
from tables.models import Pit, Table
from tables.protection.betting import DEFAULT_ALPHA
from tables.protection.dealers import DealerProfile, dealer_profiles
from tables.protection.side_bets import SideBetClustering
from tables.protection.stats import mean
from tables.selectors import dealer_activity
from tables.wording import game_name

ITERATOR_CHUNK = 2_000


def _dates(qs: QuerySet, f: Filters, path: str) -> QuerySet:
    if f.date_from:
        qs = qs.filter(**{f"{path}__gte": f.date_from})
    if f.date_to:
        qs = qs.filter(**{f"{path}__lte": f.date_to})
    return qs


class RatingsReport(Report):
    """Every closed, rated slip: who, where, how long, how much, the theoretical and actual win, comps."""

    name = "ratings"
    title = _("Player ratings")
    filters_used = ("date_from", "date_to", "table", "pit")
    columns = (
        Column("slip", _("Slip"), INT, identifier=True),
        Column("gaming_date", _("Gaming date"), DATE),
        Column("player", _("Player")),
        Column("card", _("Card")),
        Column("table", _("Table")),
        Column("seat", _("Seat"), INT, identifier=True),
        Column("opened_at", _("Opened"), DATETIME),
        Column("closed_at", _("Closed"), DATETIME),
        Column("minutes", _("Minutes played"), INT, total=True),
        Column("decisions", _("Decisions"), INT, total=True),
        Column("per_hour", _("Decisions per hour")),
        Column("handle", _("Handle"), MONEY, total=True),
        Column("average_bet", _("Average bet"), MONEY),
        Column("source", _("Average bet from")),
        Column("estimate", _("Floor estimate"), MONEY),
        Column("edge", _("House edge %"), PERCENT, places=4),
        Column("assumed_edge", _("Assumed edge %"), PERCENT, places=4),
        Column("measured_edge", _("Measured edge %"), PERCENT, places=4),
        Column("measured_decisions", _("Measured decisions"), INT),
        Column("edge_used", _("Theo from")),
        Column("theo", _("Theoretical win"), MONEY, total=True),
        Column("actual", _("Actual win"), MONEY, total=True),
        Column("buy_in_cash", _("Cash buy-in"), MONEY, total=True),
        Column("buy_in_markers", _("Marker buy-in"), MONEY, total=True),
        Column("comp_value", _("Comp value"), MONEY, total=True),
        Column("comp_points", _("Comp points"), INT, total=True),
        Column("flags", _("Flags")),
    )

    def queryset(self) -> QuerySet[SlipRating]:
        f = self.filters
        qs = SlipRating.objects.select_related("slip__player", "slip__table", "slip__shift")
        qs = _dates(qs, f, "slip__shift__gaming_date")
        if f.table is not None:
            qs = qs.filter(slip__table_id=f.table)
        if f.pit:
            qs = qs.filter(slip__table__pit__code=f.pit)
        return qs.order_by("slip__shift__gaming_date", "slip__opened_at", "slip_id")

    def rows(self) -> Iterator[tuple[Any, ...]]:
        for r in self.queryset().iterator(chunk_size=ITERATOR_CHUNK):
            slip = r.slip
            edge = _fraction(r.house_edge)
            skill = r.data.get("skill") or {}
            yield (
                slip.pk,
                slip.shift.gaming_date,
                slip.player_label,
                slip.player.card_number if slip.player else "",
                slip.table.code,
                slip.seat,
                slip.opened_at,
                slip.closed_at,
                r.active_seconds // 60,
                r.decisions,
                None if r.decisions_per_hour is None else str(r.decisions_per_hour),
                r.handle,
                r.average_bet,
                player_labels.average_bet_source(r.average_bet_source),
                r.estimated_average_bet,
                edge,
                _fraction(skill["assumed_edge"]) if skill else edge,
                _fraction(skill["measured_edge"]) if skill else None,
                skill.get("decisions"),
                str(EDGE_USED_WORDS[skill.get("used", "assumed")]),
                r.theoretical_win,
                r.actual_win,
                r.buy_in_cash,
                r.buy_in_markers,
                r.comp_value,
                r.comp_points,
                player_labels.flags(r.flags),
            )


EDGE_USED_WORDS = {"measured": _("measured edge"), "assumed": _("assumed edge")}


def _fraction(text: str) -> Any:
    from fractions import Fraction

    return Fraction(text) if text else None


class CompsReport(Report):
    """Per player and gaming day: slips, time, theoretical win and the comps it earned."""

    name = "comps"
    title = _("Comps by player and gaming day")
    filters_used = ("date_from", "date_to", "table", "pit")
    columns = (
        Column("gaming_date", _("Gaming date"), DATE),
        Column("player", _("Player")),
        Column("card", _("Card")),
        Column("slips", _("Slips"), INT, total=True),
        Column("minutes", _("Minutes played"), INT, total=True),
        Column("handle", _("Handle"), MONEY, total=True),
        Column("theo", _("Theoretical win"), MONEY, total=True),
        Column("actual", _("Actual win"), MONEY, total=True),
        Column("comp_value", _("Comp value"), MONEY, total=True),
        Column("comp_points", _("Comp points"), INT, total=True),
    )

    def rows(self) -> Iterator[tuple[Any, ...]]:
        f = self.filters
        qs = SlipRating.objects.filter(slip__player__isnull=False)
        qs = _dates(qs, f, "slip__shift__gaming_date")
        if f.table is not None:
            qs = qs.filter(slip__table_id=f.table)
        if f.pit:
            qs = qs.filter(slip__table__pit__code=f.pit)
        groups = (
            qs.values(
                "slip__shift__gaming_date",
                "slip__player_id",
                "slip__player__first_name",
                "slip__player__last_name",
                "slip__player__card_number",
            )
            .annotate(
                slips=Count("id"),
                seconds=Sum("active_seconds"),
                handle=Sum("handle"),
                theo=Sum("theoretical_win"),
                actual=Sum("actual_win"),
                comp=Sum("comp_value"),
                points=Sum("comp_points"),
            )
            .order_by(
                "slip__shift__gaming_date", "slip__player__last_name", "slip__player__first_name", "slip__player_id"
            )
        )
        for g in groups:
            name = " ".join(p for p in (g["slip__player__first_name"], g["slip__player__last_name"]) if p)
            yield (
                g["slip__shift__gaming_date"],
                name,
                g["slip__player__card_number"] or "",
                g["slips"],
                int(g["seconds"] or 0) // 60,
                int(g["handle"] or 0),
                int(g["theo"] or 0),
                None if g["actual"] is None else int(g["actual"]),
                int(g["comp"] or 0),
                int(g["points"] or 0),
            )


class CashTransactionLogReport(Report):
    """The multiple transaction log: every cash in and out, in order, with who, where and the gaming day."""

    name = "cash_transactions"
    title = _("Multiple transaction log")
    filters_used = ("date_from", "date_to", "table")
    columns = (
        Column("id", _("Id"), INT, identifier=True),
        Column("gaming_date", _("Gaming date"), DATE),
        Column("recorded_at", _("Time"), DATETIME),
        Column("player", _("Player")),
        Column("card", _("Card")),
        Column("description", _("Description")),
        Column("direction", _("Direction")),
        Column("kind", _("Kind")),
        Column("amount", _("Amount"), MONEY),
        Column("location", _("Location")),
        Column("slip", _("Slip"), INT, identifier=True),
        Column("recorded_by", _("Recorded by")),
    )

    def rows(self) -> Iterator[tuple[Any, ...]]:
        f = self.filters
        qs = CashTransaction.objects.select_related("player", "slip__player", "recorded_by")
        qs = _dates(qs, f, "gaming_date")
        if f.table is not None:
            qs = qs.filter(table_id=f.table)
        names = labels.Names()
        for t in qs.order_by("gaming_date", "recorded_at", "id").iterator(chunk_size=ITERATOR_CHUNK):
            player = t.player or (t.slip.player if t.slip is not None else None)
            yield (
                t.pk,
                t.gaming_date,
                t.recorded_at,
                player.name if player else "",
                (player.card_number or "") if player else "",
                t.description,
                gettext(t.get_direction_display()),
                gettext(t.get_kind_display()),
                t.amount,
                t.location,
                t.slip_id,
                names.person(t.recorded_by.get_username()),
            )


class CashReportLinesReport(Report):
    """Cash transaction report lines: a player's cash in or out above the threshold in a gaming day."""

    name = "cash_reports"
    title = _("Cash transaction report")
    filters_used = ("date_from", "date_to")
    columns = (
        Column("gaming_date", _("Gaming date"), DATE),
        Column("player", _("Player")),
        Column("card", _("Card")),
        Column("documents", _("Identity documents")),
        Column("direction", _("Direction")),
        Column("total", _("Total at crossing"), MONEY),
        Column("day_total", _("Day total"), MONEY),
        Column("transactions", _("Transactions"), INT),
        Column("threshold", _("Threshold"), MONEY),
        Column("created_at", _("Reported"), DATETIME),
    )

    def rows(self) -> Iterator[tuple[Any, ...]]:

        qs = CashTransactionReport.objects.select_related("player").prefetch_related("player__documents")
        qs = _dates(qs, self.filters, "gaming_date")
        for line in qs.order_by("gaming_date", "id"):
            docs = "; ".join(f"{d.get_kind_display()} {d.number} ({d.issuer})" for d in line.player.documents.all())
            day_total, count = player_day_total(
                player_id=line.player_id, gaming_date=line.gaming_date, direction=line.direction
            )
            yield (
                line.gaming_date,
                line.player.name,
                line.player.card_number or "",
                docs,
                gettext(line.get_direction_display()),
                line.total,
                day_total,
                count,
                line.threshold,
                line.created_at,
            )


ADVANTAGE_DEFAULT_DAYS = 7


def _period(f: Filters) -> tuple[dt.datetime, dt.datetime]:
    """The game protection reports' period: the dates chosen, else the last week to today, in the casino's zone."""
    today = timezone.localdate()
    start = f.date_from or (f.date_to or today) - dt.timedelta(days=ADVANTAGE_DEFAULT_DAYS)
    end = (f.date_to or today) + dt.timedelta(days=1)
    zone = timezone.get_current_timezone()
    return (dt.datetime.combine(start, dt.time(), tzinfo=zone), dt.datetime.combine(end, dt.time(), tzinfo=zone))


def _p(value: float) -> str:
    return f"{value:.2g}" if value < 0.001 else f"{value:.4f}"


class AdvantageReport(Report):
    """Advantage play at blackjack and baccarat shoe tables (docs/game_protection.md): per rated player, the bets
    against the count, entering and leaving with it, the measured skill, and baccarat's pair and tie bets against
    their expected value from the cards left; flags are for the pit to watch."""

    name = "advantage"
    title = _("Advantage play")
    filters_used = ("date_from", "date_to", "pit")
    columns = (
        Column("player", _("Player")),
        Column("card", _("Card")),
        Column("tables", _("Tables")),
        Column("rounds", _("Rounds"), INT, total=True),
        Column("min_bet", _("Smallest bet"), MONEY),
        Column("max_bet", _("Largest bet"), MONEY),
        Column("spread", _("Bet spread")),
        Column("rho", _("Rank correlation bet/true count")),
        Column("changes", _("Bet changes"), INT),
        Column("bets_p", _("Bets follow the count: p")),
        Column("gain", _("Betting pattern vs flat, share of the amount wagered")),
        Column("entries", _("Mid-shoe entries"), INT),
        Column("exits", _("Mid-shoe exits"), INT),
        Column("entry_tc", _("Mean true count at entry")),
        Column("exit_tc", _("Mean true count at exit")),
        Column("back_p", _("Back-counting: p")),
        Column("decisions", _("Decisions"), INT, total=True),
        Column("deviations", _("Not basic strategy"), INT, total=True),
        Column("measured", _("Measured house edge %")),
        Column("basic", _("Basic-strategy house edge %")),
        Column("baccarat_rounds", _("Baccarat rounds"), INT, total=True),
        Column("pair_bets", _("Pair bets"), INT, total=True),
        Column("pair_rounds", _("Rounds the cards left favoured the pair bet"), INT),
        Column("pair_hits", _("Pair bets in those rounds"), INT),
        Column("pair_p", _("Pair bets where the cards favour them: p")),
        Column("tie_bets", _("Tie bets"), INT, total=True),
        Column("tie_rounds", _("Rounds the cards left favoured the tie bet"), INT),
        Column("tie_hits", _("Tie bets in those rounds"), INT),
        Column("tie_p", _("Tie bets where the cards favour them: p")),
        Column("flags", _("Flags")),
    )

    def period(self) -> tuple[dt.datetime, dt.datetime]:
        return _period(self.filters)

    def rows(self) -> Iterator[tuple[Any, ...]]:
        tables = Table.objects.filter(game__in=watched_games()).select_related("pit")
        if self.filters.pit:
            tables = tables.filter(pit__code=self.filters.pit)
        since, until = self.period()
        for a in pit_advantage(list(tables), since=since, until=until):
            p, b, s = a.pattern, a.backcount, a.skill
            count: tuple[Any, ...] = (None,) * 16  # a baccarat player only: the count's columns stay empty
            if p is not None and b is not None and s is not None:  # a player with blackjack rounds has all three
                count = (
                    p.min_bet,
                    p.max_bet,
                    f"{p.spread:.1f}",
                    "" if p.rho is None else f"{p.rho:.3f}",
                    p.changes,
                    _p(p.p_value),
                    f"{100 * p.ev_gain:.2f}",
                    b.entries,
                    b.exits,
                    f"{b.mean_entry_tc:.2f}",
                    f"{b.mean_exit_tc:.2f}",
                    _p(b.p_value),
                    s.decisions,
                    s.deviations,
                    f"{100 * s.measured_house_edge:.3f}",
                    f"{100 * s.basic_house_edge:.3f}",
                )
            yield (
                a.player.name,
                a.player.card_number or "",
                ", ".join(a.tables),
                a.rounds,
                *count,
                a.baccarat_rounds,
                *_side_bet_cells(a.side_bets),
                *_side_bet_cells(a.tie_bets),
                player_labels.flags(a.flags),
            )


def _side_bet_cells(found: SideBetClustering | None) -> tuple[Any, ...]:
    """A side bet's columns: bets, rounds where the cards left favoured it, bets there, the chance."""
    if found is None:
        return (None, None, None, "")
    return (found.side_bets, found.positive_rounds, found.side_bets_positive,
            _p(found.p_value) if found.side_bets_positive else "")


DEALER_COUNTS = (  # each count the dealers' report shows, in its words
    ("undos", _("Undos")),
    ("voids", _("Voids")),
    ("corrections", _("Corrected bets")),
    ("withdrawn", _("Bets taken back")),
    ("pay_corrected", _("Pay lists corrected")),
)


def _dealer_columns() -> tuple[Column, ...]:
    out = [
        Column("pit", _("Pit")),
        Column("game", _("Game")),
        Column("dealer", _("Dealer")),
        Column("rounds", _("Rounds"), INT, total=True),
        Column("hours", _("Hours at the tables"), extra=True),
        Column("pace", _("Rounds per hour")),
        Column("others_pace", _("The other dealers' rounds per hour"), extra=True),
        Column("pace_chance", _("Pace: chance of a gap this wide")),
    ]
    for key, title in DEALER_COUNTS:
        out += [
            Column(key, title, INT, total=True, extra=True),
            Column(f"{key}_rate", format_lazy("{title}: {per}", title=title, per=_("per 100 rounds"))),
            Column(f"{key}_others", format_lazy("{title}: {per}", title=title, per=_("the others, per 100 rounds")),
                   extra=True),
            Column(f"{key}_chance", format_lazy("{title}: {per}", title=title, per=_("chance of this many"))),
        ]
    out.append(Column("stands_out", _("Stands out")))
    return tuple(out)


class DealersReport(Report):
    """Dealer game protection (docs/game_protection.md, "Dealers"): per pit, game and dealer, the pace and the
    undos, voids, corrected bets, bets taken back and pay lists a supervisor corrected, each against the pit's
    other dealers of the game with the chance of a figure this far out were the dealer like them."""

    name = "dealers"
    title = _("Dealers' game protection")
    filters_used = ("date_from", "date_to", "pit")
    columns = _dealer_columns()

    def period(self) -> tuple[dt.datetime, dt.datetime]:
        return _period(self.filters)  # the advantage report's dates, the same default week

    def scope_text(self, *, machine: bool = False) -> str:
        since, until = self.period()
        return gettext(
            "Rounds opened from {start} to {end} (the last {days} days unless dates are chosen), at every table of "
            "each pit; each dealer against the other dealers of the same pit and game. A chance is how often a "
            "dealer like the others would show a figure this far out; a figure that stands out is for the pit to "
            "look at, not a fault found."
        ).format(start=filter_day(since.date(), machine=machine),
                 end=filter_day((until - dt.timedelta(days=1)).date(), machine=machine),
                 days=ADVANTAGE_DEFAULT_DAYS)

    def rows(self) -> Iterator[tuple[Any, ...]]:
        pits = Pit.objects.order_by("name")
        if self.filters.pit:
            pits = pits.filter(code=self.filters.pit)
        since, until = self.period()
        names = labels.Names()
        for pit in pits:
            found = dealer_activity(list(Table.objects.filter(pit=pit)), since=since, until=until)
            for game, team in sorted(found.items(), key=lambda item: str(game_name(item[0]))):
                alone = len(team) < 2
                for d, profile in zip(team, dealer_profiles(team)):
                    others = [o for o in team if o is not d and o.hours > 0]
                    others_pace = mean([o.rounds / o.hours for o in others])
                    cells: list[Any] = []
                    for key, _title in DEALER_COUNTS:
                        cells += [getattr(d, key), f"{profile.rates[key]:.1f}",
                                  "" if alone else f"{profile.expected[key]:.1f}",
                                  "" if alone else chance(profile.p_values[key])]
                    yield (
                        pit.name,
                        str(game_name(game)),
                        names.person(d.dealer),
                        d.rounds,
                        f"{d.hours:.1f}",
                        f"{profile.rounds_per_hour:.0f}" if d.hours > 0 else "",
                        f"{others_pace:.0f}" if others else "",
                        chance(profile.pace_p) if profile.pace_z else "",
                        *cells,
                        gettext("no other dealer to compare") if alone else _stands_out(profile),
                    )


def _stands_out(profile: DealerProfile) -> str:
    """What stands out at the flag level, in words with its chance; "nothing" when nothing does."""
    words = dict(DEALER_COUNTS)
    out = []
    for flag in profile.flags(DEFAULT_ALPHA):
        if flag == "pace":
            side = gettext("faster than the others") if profile.pace_z > 0 else gettext("slower than the others")
            out.append(f"{side} ({chance(profile.pace_p)})")
        else:
            out.append(f"{words[flag]} ({chance(profile.p_values[flag])})")
    return "; ".join(out) or gettext("nothing")


REPORTS: dict[str, type[Report]] = {
    r.name: r for r in (RatingsReport, CompsReport, CashTransactionLogReport, CashReportLinesReport, AdvantageReport,
                        DealersReport)
}
# who may export each one (admins may export all)
READERS: dict[str, tuple[Role, ...]] = {
    "ratings": (Role.ACCOUNTANT, Role.COMPLIANCE),
    "comps": (Role.ACCOUNTANT, Role.COMPLIANCE),
    "cash_transactions": (Role.COMPLIANCE,),
    "cash_reports": (Role.COMPLIANCE,),
    "advantage": (Role.PIT_MANAGER, Role.COMPLIANCE, Role.AUDITOR),
    "dealers": (Role.PIT_MANAGER, Role.COMPLIANCE, Role.AUDITOR),
}
