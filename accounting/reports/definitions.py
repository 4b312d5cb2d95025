"""The accountants' reports. Each yields raw rows; ``accounting.reports.base`` writes them.

Every figure (handle, rounds win, count win, hold, statistical hold, pool change, variance) is
:mod:`accounting.figures`': read from the table closes that stored it, or computed by its functions.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Abs
from django.utils.text import format_lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounting import figures
from accounting.conf import int_knob
from accounting.hold import statistical_hold
from accounting.models import (
    Marker,
    MarkerPayment,
    MarkerWriteOff,
    Reconciliation,
    Slip,
    SlipKind,
    SlipStatus,
    TableFigures,
    TableShiftClose,
)
from accounting.money import digits
from accounting.reports import labels
from accounting.reports.base import DATE, DATETIME, INT, MONEY, PERCENT, TEXT, Column, Filters, Report
from accounting.selectors import corrections_by_table_shift
from casino.cells import FORMULA_STARTS
from casino.core.models import StaffProfile
from casino.errors import InvalidInput
from tables.engines.registry import available_games
from tables.models import Bet, Pit, Round, Settlement, SettlementLine, Shift, Table

ITERATOR_CHUNK = 5_000


def _filter(
    qs: QuerySet, f: Filters, *, shift: str, table: str, game: str | None = None, dealer: str | None = None
) -> QuerySet:
    """Apply the common filters; ``shift``/``table``/``game``/``dealer`` are the lookups' paths."""
    if f.date_from:
        qs = qs.filter(**{f"{shift}__gaming_date__gte": f.date_from})
    if f.date_to:
        qs = qs.filter(**{f"{shift}__gaming_date__lte": f.date_to})
    if f.shift is not None:
        qs = qs.filter(**{f"{shift}_id": f.shift})
    if f.table is not None:
        qs = qs.filter(**{f"{table}_id": f.table})
    if f.pit:
        qs = qs.filter(**{f"{table}__pit__code": f.pit})
    if f.game:
        qs = qs.filter(**{game or f"{table}__game": f.game})
    if f.dealer and dealer:
        qs = qs.filter(**{f"{dealer}__username": f.dealer})
    return qs


# -- revenue ------------------------------------------------------------------------------------

GROUPS = {  # the grouping keys; a title of None groups without a column (the shift's id keeps two days apart)
    "shift": (
        ("shift__gaming_date", _("Gaming date"), DATE),
        ("shift__shift_type__code", _("Shift"), TEXT),
        ("shift_id", None, INT),
    ),
    "day": (("shift__gaming_date", _("Gaming date"), DATE),),
    "table": (("table__code", _("Table"), TEXT), ("table__pit__code", _("Pit"), TEXT), ("table__game", _("Game"), TEXT)),
    "pit": (("table__pit__code", _("Pit"), TEXT),),
    "game": (("table__game", _("Game"), TEXT),),
}
# the closed table shifts' figures, fixed at the close by accounting.figures (docs/accounting.md)
FIGURES = (
    Column("tables", _("Table shifts"), INT, total=True, extra=True),
    Column("drop", _("Drop"), MONEY, total=True),
    Column("count_win", _("Count win"), MONEY, total=True),
    Column("hold", _("Hold % (count win ÷ drop)"), PERCENT),
    Column("marker_payments", _("Marker payments at the table (out of count win)"), MONEY, total=True, extra=True),
    Column("rounds_win", _("Rounds win"), MONEY, total=True),
    Column("commission", _("Commission (in rounds win)"), MONEY, total=True, extra=True),
    Column("rake", _("Rake (in rounds win)"), MONEY, total=True, extra=True),
    Column("pool_change", _("Pool change"), MONEY, total=True, extra=True),
    Column("variance", _("Variance (count win − rounds win − pool change)"), MONEY, total=True),
    Column("handle", _("Handle"), MONEY, total=True),
    Column("statistical_hold", _("Statistical hold % (rounds win ÷ handle)"), PERCENT),
)


class RevenueReport(Report):
    """Table-games revenue from the closed table shifts, grouped by shift, day, table, pit or game:
    the count win and its hold of the drop beside the rounds win, the pool change and the variance,
    read from the table shifts' running figures."""

    name = "revenue"
    title = _("Table games revenue")
    scope = _("Closed table shifts only: a table's shift is counted here once it is closed; play on a table "
              "still open is not yet counted.")
    filters_used = ("date_from", "date_to", "shift", "table", "pit", "game", "group")

    def scope_text(self, *, machine: bool = False) -> str:
        """The scope, with the table shifts the filters match that are still open (not yet counted)."""
        closed = TableShiftClose.objects.filter(table_id=OuterRef("table_id"), shift_id=OuterRef("shift_id"))
        still_open = _filter(TableFigures.objects.exclude(Exists(closed)), self.filters, shift="shift", table="table")
        count = still_open.count()
        if not count:
            return str(self.scope)
        return str(self.scope) + " " + ngettext(
            "Not yet counted: {count} table shift still open.",
            "Not yet counted: {count} table shifts still open.", count).format(count=count)

    def validate(self) -> None:
        self.group = self.filters.group or "shift"
        if self.group not in GROUPS:
            raise InvalidInput(gettext("group must be one of %(groups)s") % {"groups": ", ".join(GROUPS)},
                               code="bad_filter", field="group")
        self.keys = GROUPS[self.group]
        self.columns = tuple(Column(k, t, kind) for k, t, kind in self.keys if t is not None) + FIGURES
        self.names = labels.Names()

    def queryset(self) -> QuerySet:
        # the closed table shifts' running rows: one row per table and shift, equal to what each close fixed
        # (the close holds its running row to the records before sealing both), so the report reads as many
        # rows as table shifts, never the rounds (docs/accounting.md, "Running figures")
        closed = TableShiftClose.objects.standing().filter(table_id=OuterRef("table_id"), shift_id=OuterRef("shift_id"))
        qs = _filter(TableFigures.objects.filter(Exists(closed)), self.filters, shift="shift", table="table")
        keys = [k for k, _t, _k in self.keys]
        return (
            qs.values(*keys)
            .annotate(
                tables=Count("id"),
                drop_sum=Sum("drop"),
                win=Sum(figures.COUNT_WIN),
                payments=Sum("marker_payments"),
                commission_sum=Sum("commission"),
                rake_sum=Sum("rake"),
                rounds_win_sum=Sum("rounds_win"),
                pool=Sum("pool_change"),
                variance_sum=Sum(figures.VARIANCE),
                handle_sum=Sum("handle"),
            )
            .order_by(*keys)
        )

    def key_cell(self, key: str, value: Any) -> Any:
        if key == "table__pit__code":
            return self.names.pit(value)
        if key == "table__game":
            return labels.game(value)
        if key == "shift__shift_type__code":
            return self.names.shift(value)
        return value

    def rows(self) -> Iterator[tuple[Any, ...]]:
        keys = [k for k, t, _ in self.keys if t is not None]
        for g in self.queryset().iterator(chunk_size=ITERATOR_CHUNK):
            yield (
                *(self.key_cell(k, g[k]) for k in keys),
                g["tables"],
                g["drop_sum"],
                g["win"],
                figures.hold(g["win"], g["drop_sum"]),
                g["payments"],
                g["rounds_win_sum"],
                g["commission_sum"],
                g["rake_sum"],
                g["pool"],
                g["variance_sum"],
                g["handle_sum"],
                figures.statistical_hold(g["rounds_win_sum"], g["handle_sum"]),
            )

    def ratio_totals(self, sums: dict[str, int]) -> dict[str, Fraction | None]:
        return {
            "hold": figures.hold(sums.get("count_win"), sums.get("drop")),
            "statistical_hold": figures.statistical_hold(sums.get("rounds_win"), sums.get("handle")),
        }


# -- fills and credits ----------------------------------------------------------------------------


def chips_text(chips: dict[str, int]) -> str:
    return labels.chips(chips)


class FillsCreditsReport(Report):
    """Every fill and credit slip in number order, with its signatures, status and void reason."""

    name = "fills_credits"
    title = _("Fills and credits log")
    scope = _("Every fill and credit slip of the filtered shifts, open and closed, whatever its status; the "
              "fills and credits posted are the received slips only.")
    filters_used = ("date_from", "date_to", "shift", "table", "pit", "game", "kind")
    columns = (
        Column("reference", _("Slip")),
        Column("kind", _("Kind")),
        Column("status", _("Status")),
        Column("table", _("Table")),
        Column("gaming_date", _("Gaming date"), DATE, extra=True),
        Column("shift", _("Shift"), extra=True),
        Column("chips", _("Chips")),
        Column("amount", _("Amount"), MONEY),
        Column("fills", _("Fills posted"), MONEY, total=True),
        Column("credits", _("Credits posted"), MONEY, total=True),
        Column("requested_at", _("Requested"), DATETIME, extra=True),
        Column("requester", _("Requested by"), extra=True),
        Column("issued_at", _("Issued"), DATETIME, extra=True),
        Column("issuer", _("Issued by"), extra=True),
        Column("received_at", _("Received"), DATETIME, extra=True),
        Column("receiver", _("Received by"), extra=True),
        Column("void_reason", _("Void reason"), extra=True),
    )

    def validate(self) -> None:
        if self.filters.kind and self.filters.kind not in SlipKind.values:
            raise InvalidInput(gettext("kind must be fill or credit"), code="bad_filter", field="kind")

    def rows(self) -> Iterator[tuple[Any, ...]]:
        qs = _filter(Slip.objects.all(), self.filters, shift="shift", table="table")
        names = labels.Names()
        if self.filters.kind:
            qs = qs.filter(kind=self.filters.kind)
        qs = qs.order_by("kind", "year", "number").values_list(
            "kind",
            "year",
            "number",
            "status",
            "table__code",
            "shift__gaming_date",
            "shift__shift_type__code",
            "chips",
            "total",
            "requested_at",
            "request_signer__employee_id",
            "issued_at",
            "issue_signer__employee_id",
            "received_at",
            "receive_signer__employee_id",
            "void_reason",
        )
        for (
            kind,
            year,
            number,
            status,
            table,
            date,
            shift,
            chips,
            total,
            req_at,
            req,
            iss_at,
            iss,
            rec_at,
            rec,
            reason,
        ) in qs.iterator(chunk_size=ITERATOR_CHUNK):
            posted = status == SlipStatus.RECEIVED
            if reason and status != SlipStatus.VOIDED:
                reason = gettext("void asked, not approved: {reason}").format(reason=reason)
            yield (
                f"{kind[0].upper()}{year}-{number:06d}",
                labels.label(labels.SLIP_KINDS, kind),
                labels.label(labels.SLIP_STATUSES, status),
                table,
                date,
                names.shift(shift),
                chips_text(chips),
                total,
                total if posted and kind == SlipKind.FILL else None,
                total if posted and kind == SlipKind.CREDIT else None,
                req_at,
                names.employee(req),
                iss_at,
                names.employee(iss),
                rec_at,
                names.employee(rec),
                reason or None,
            )


# -- variance -----------------------------------------------------------------------------------


class VarianceReport(Report):
    """Each closed table shift: the count win beside the rounds win, with the pool change and the marker
    payments that explain part of the difference, the variance and its reconciliation."""

    name = "variance"
    title = _("Variance report")
    scope = _("Closed table shifts only: each table's shift appears once it is closed; a table still open is "
              "not yet counted.")
    columns = (
        Column("gaming_date", _("Gaming date"), DATE),
        Column("table", _("Table")),
        Column("shift", _("Shift")),
        Column("pit", _("Pit"), extra=True),
        Column("game", _("Game"), extra=True),
        Column("opener", _("Opener"), MONEY, extra=True),
        Column("closer", _("Closer"), MONEY, extra=True),
        Column("fills", _("Fills"), MONEY, total=True, extra=True),
        Column("credits", _("Credits"), MONEY, total=True, extra=True),
        Column("drop", _("Drop"), MONEY, total=True, extra=True),
        Column("marker_payments", _("Marker payments at the table (out of count win)"), MONEY, total=True, extra=True),
        Column("count_win", _("Count win"), MONEY, total=True),
        Column("rounds_win", _("Rounds win"), MONEY, total=True),
        Column("pool_change", _("Pool change"), MONEY, total=True, extra=True),
        Column("variance", _("Variance (count win − rounds win − pool change)"), MONEY, total=True),
        Column("reconciliation", _("Reconciliation")),
        Column("causes", _("Causes")),
        Column("corrections", _("Corrections (recounts, reopened closes)"), extra=True),
    )

    def rows(self) -> Iterator[tuple[Any, ...]]:
        corrections = corrections_by_table_shift(lambda qs: _filter(qs, self.filters, shift="shift", table="table"))
        rec = Reconciliation.objects.filter(shift=OuterRef("shift"), table=OuterRef("table"))
        qs = (
            _filter(TableShiftClose.objects.standing(), self.filters, shift="shift", table="table")
            .annotate(rec_status=Subquery(rec.values("status")[:1]), rec_causes=Subquery(rec.values("causes")[:1]))
            .order_by("shift__gaming_date", "shift_id", "table__code")
            .values_list(
                "shift__gaming_date",
                "table__code",
                "shift__shift_type__code",
                "table__pit__code",
                "table__game",
                "opener_total",
                "closer_total",
                "fills",
                "credits",
                "drop",
                "marker_payments",
                "count_win",
                "rounds_win",
                "pool_change",
                "variance",
                "rec_status",
                "rec_causes",
                "shift_id",
            )
        )
        names = labels.Names()
        for row in qs.iterator(chunk_size=ITERATOR_CHUNK):
            date, table, shift, pit, game, *amounts, status, causes, shift_id = row
            found = sorted({labels.label(labels.CAUSES, c["cause"]) for c in causes or []})
            fixed = corrections.get((shift_id, table), [])
            yield (date, table, names.shift(shift), names.pit(pit), labels.game(game), *amounts,
                   labels.label(labels.RECONCILIATION, status), "; ".join(found) or None, "; ".join(fixed) or None)


# -- large transactions -------------------------------------------------------------------------


class LargeTransactionsReport(Report):
    """Bets staked or won, markers and received slips at or above the threshold; each kind of amount
    in its own column, so every TOTAL adds like with like."""

    name = "large_transactions"
    title = _("Large transactions")
    scope = _("Bets settled, markers issued and slips received at or above the threshold, on open and closed "
              "shifts alike.")
    filters_used = ("date_from", "date_to", "shift", "table", "pit", "game", "threshold")
    columns = (
        Column("at", _("Time"), DATETIME),
        Column("kind", _("Kind")),
        Column("table", _("Table")),
        Column("gaming_date", _("Gaming date"), DATE, extra=True),
        Column("reference", _("Reference")),
        Column("seat", _("Seat"), INT, identifier=True, extra=True),
        Column("detail", _("Bet or player")),
        Column("stake", _("Stake"), MONEY, total=True),
        Column("net", _("Player net"), MONEY, total=True),
        Column("marker", _("Marker"), MONEY, total=True),
        Column("fill", _("Fill"), MONEY, total=True),
        Column("credit", _("Credit"), MONEY, total=True),
    )

    def threshold(self) -> int:
        return self.filters.threshold if self.filters.threshold is not None else int_knob("LARGE_TRANSACTION")

    def rows(self) -> Iterator[tuple[Any, ...]]:
        t = self.threshold()
        lines = (
            _filter(
                SettlementLine.objects.all(),
                self.filters,
                shift="settlement__round__shift",
                table="settlement__round__table",
                game="settlement__round__game",
            )
            .annotate(abs_net=Abs("net"))
            .filter(Q(bet__amount__gte=t) | Q(abs_net__gte=t))
            .order_by("settlement__settled_at", "id")
            .values_list(
                "settlement__settled_at",
                "settlement__round__table__code",
                "settlement__round__shift__gaming_date",
                "settlement__round__number",
                "bet__client_id",
                "bet__seat",
                "bet__type",
                "bet__amount",
                "net",
                "settlement__round__game",
            )
        )
        kinds = labels.TRANSACTION_KINDS
        for at, table, date, number, _bet, seat, bet_type, amount, net, game in lines.iterator(
                chunk_size=ITERATOR_CHUNK):
            yield (at, str(kinds["bet"]), table, date, gettext("round {number}").format(number=number), seat,
                   labels.bet_type(game, bet_type), amount, net, None, None, None)
        markers = (
            _filter(Marker.objects.filter(amount__gte=t), self.filters, shift="shift", table="table")
            .order_by("issued_at", "id")
            .values_list("issued_at", "table__code", "shift__gaming_date", "year", "number", "player", "amount")
        )
        for at, table, date, year, number, player, amount in markers.iterator(chunk_size=ITERATOR_CHUNK):
            yield at, str(kinds["marker"]), table, date, f"M{year}-{number:06d}", None, player, None, None, amount, None, None
        slips = (
            _filter(
                Slip.objects.filter(status=SlipStatus.RECEIVED, total__gte=t),
                self.filters,
                shift="shift",
                table="table",
            )
            .order_by("received_at", "id")
            .values_list("received_at", "kind", "table__code", "shift__gaming_date", "year", "number", "total")
        )
        for at, kind, table, date, year, number, total in slips.iterator(chunk_size=ITERATOR_CHUNK):
            fill, credit = (total, None) if kind == SlipKind.FILL else (None, total)
            reference = f"{kind[0].upper()}{year}-{number:06d}"
            yield at, labels.label(kinds, kind), table, date, reference, None, None, None, None, None, fill, credit


# -- per dealer ----------------------------------------------------------------------------------


class DealerReport(Report):
    """Rounds settled per dealer (who opened them): handle, rounds win, statistical hold, commission
    and rake, as :mod:`accounting.figures` defines them."""

    name = "dealers"
    title = _("Results per dealer")
    scope = _("Every settled round, on open and closed shifts alike: the open shift's rounds count as they stand.")
    filters_used = ("date_from", "date_to", "shift", "table", "pit", "game", "dealer")
    columns = (
        Column("dealer", _("Dealer")),
        Column("rounds", _("Rounds"), INT, total=True),
        Column("handle", _("Handle"), MONEY, total=True),
        Column("win", _("Rounds win (house net)"), MONEY, total=True),
        Column("hold", _("Statistical hold % (rounds win ÷ handle)"), PERCENT),
        Column("commission", _("Commission (in rounds win)"), MONEY, total=True, extra=True),
        Column("rake", _("Rake (in rounds win)"), MONEY, total=True, extra=True),
    )

    def rows(self) -> Iterator[tuple[Any, ...]]:
        settlements = _filter(
            Settlement.objects.all(),
            self.filters,
            shift="round__shift",
            table="round__table",
            game="round__game",
            dealer="round__dealer",
        )
        groups = figures.round_figures(settlements, by=["round__dealer__username", "round__dealer__staff__employee_id"])
        names = labels.Names()
        for (username, _credential), r in sorted(groups.items(), key=lambda item: item[0][0]):
            # by name: the credential (an employee id) groups, but is no word for a reader
            yield (names.person(username), r.rounds, r.handle, r.rounds_win, r.statistical_hold, r.commission, r.rake)

    def ratio_totals(self, sums: dict[str, int]) -> dict[str, Fraction | None]:
        return {"hold": figures.statistical_hold(sums.get("win"), sums.get("handle"))}


# -- settled bets (the large export) ---------------------------------------------------------------


class BetsReport(Report):
    """Every settled bet, one row each, in settlement-line order. On PostgreSQL the CSV is streamed by
    ``COPY … TO STDOUT`` from :meth:`copy_sql`, which formats exactly as :func:`text_cell` does
    (tests/accounting/test_reports.py holds the two to the same bytes)."""

    name = "bets"
    title = _("Settled bets")
    scope = _("Every settled bet, on open and closed shifts alike.")
    filters_used = ("date_from", "date_to", "shift", "table", "pit", "game", "dealer")
    columns = (
        Column("settled_at", _("Settled"), DATETIME),
        Column("gaming_date", _("Gaming date"), DATE, extra=True),
        Column("table", _("Table")),
        Column("round", _("Round"), INT, identifier=True),
        Column("bet", _("Bet"), extra=True),
        Column("seat", _("Seat"), INT, identifier=True, extra=True),
        Column("type", _("Type")),
        Column("amount", _("Stake as placed"), MONEY, total=True),
        Column("result", _("Result")),
        Column("net", _("Player net"), MONEY, total=True),
        Column("commission", _("Commission"), MONEY, total=True, extra=True),
        Column("dealer", _("Dealer"), extra=True),
    )

    def queryset(self) -> QuerySet:
        return _filter(
            SettlementLine.objects.all(),
            self.filters,
            shift="settlement__round__shift",
            table="settlement__round__table",
            game="settlement__round__game",
            dealer="settlement__round__dealer",
        ).order_by("id")

    def rows(self) -> Iterator[tuple[Any, ...]]:
        qs = self.queryset().values_list(
            "settlement__settled_at",
            "settlement__round__shift__gaming_date",
            "settlement__round__table__code",
            "settlement__round__number",
            "bet__client_id",
            "bet__seat",
            "bet__type",
            "bet__amount",
            "result",
            "net",
            "commission",
            "settlement__round__dealer__username",
            "settlement__round__game",
        )
        names = labels.Names()
        for *row, game in qs.iterator(chunk_size=ITERATOR_CHUNK):
            row[6] = labels.bet_type(game, row[6])
            row[8] = labels.result(row[8])
            row[11] = names.person(row[11])
            yield tuple(row)

    def count(self) -> int:
        return self.queryset().count()

    def _sql_parts(self) -> tuple[str, str, list[Any]]:
        t = {m: m._meta.db_table for m in (SettlementLine, Bet, Settlement, Round, Table, Shift, Pit)}
        user = get_user_model()._meta.db_table
        joins = (
            f"FROM {t[SettlementLine]} l JOIN {t[Bet]} b ON b.id = l.bet_id "
            f"JOIN {t[Settlement]} s ON s.id = l.settlement_id JOIN {t[Round]} r ON r.id = s.round_id "
            f"JOIN {t[Table]} t ON t.id = r.table_id JOIN {t[Shift]} sh ON sh.id = r.shift_id "
            f"JOIN {t[Pit]} p ON p.id = t.pit_id JOIN {user} u ON u.id = r.dealer_id"
        )
        where, params = ["TRUE"], []
        f = self.filters
        for cond, value in (
            ("sh.gaming_date >= %s", f.date_from),
            ("sh.gaming_date <= %s", f.date_to),
            ("r.shift_id = %s", f.shift),
            ("r.table_id = %s", f.table),
            ("p.code = %s", f.pit),
            ("r.game = %s", f.game),
            ("u.username = %s", f.dealer),
        ):
            if value is not None and value != "":
                where.append(cond)
                params.append(value)
        return joins, " AND ".join(where), params

    def copy_sql(self) -> tuple[str, list[Any]]:
        joins, where, params = self._sql_parts()
        scale = 10 ** digits()

        def money(col: str) -> str:
            return f"({col}::numeric / {scale})::numeric(24,{digits()})"

        starts = ", ".join(f"chr({ord(c)})" for c in FORMULA_STARTS)

        def text(col: str) -> str:  # casino.cells.neutralise, in SQL (the CSV must be the Python writer's bytes)
            return f"(CASE WHEN left({col}, 1) IN ({starts}) THEN chr(39) || {col} ELSE {col} END)"

        def words(col: str) -> str:  # labels.words, in SQL
            spaced = f"replace({col}, '_', ' ')"
            return f"(upper(left({spaced}, 1)) || substr({spaced}, 2))"

        # the labels the Python rows use (accounting.reports.labels), as parameters of the query
        select: list[Any] = [labels.zone_name()]
        named = [(g, t, lab) for g in available_games() for t, lab in labels.bet_types_named(g).items()]
        bet_type = words("b.type")
        if named:
            cases = " ".join("WHEN r.game = %s AND b.type = %s THEN %s" for _ in named)
            bet_type = f"(CASE {cases} ELSE {bet_type} END)"
            select += [x for triple in named for x in triple]
        results = list(labels.RESULTS.items())
        result = f"(CASE l.result {' '.join('WHEN %s THEN %s' for _ in results)} ELSE {words('l.result')} END)"
        select += [x for code, lab in results for x in (code, str(lab))]
        person = ("COALESCE(NULLIF(st.display_name, ''), NULLIF(btrim(u.first_name || ' ' || u.last_name), ''), "
                  "u.username)")
        staff = StaffProfile._meta.db_table
        sql = (
            f"SELECT to_char(s.settled_at AT TIME ZONE %s, 'YYYY-MM-DD HH24:MI:SS'), "
            f"to_char(sh.gaming_date, 'YYYY-MM-DD'), {text('t.code')}, r.number, {text('b.client_id')}, b.seat, "
            f"{text('lab.bet_type')}, {money('b.amount')}, {text('lab.result')}, {money('l.net')}, "
            f"{money('l.commission')}, {text('lab.person')} {joins} LEFT JOIN {staff} st ON st.user_id = u.id "
            f"CROSS JOIN LATERAL (SELECT {bet_type} AS bet_type, {result} AS result, {person} AS person) lab "
            f"WHERE {where} ORDER BY l.id"
        )
        # the time zone comes first in the text; the labels' parameters are in the lateral join, after the joins
        return sql, select[:1] + select[1:] + params

    def totals_sql(self) -> dict[str, int]:
        from django.db import connection

        joins, where, params = self._sql_parts()
        if not params:  # unfiltered: the sums need only the bets and their lines, not the other joins
            joins = f"FROM {SettlementLine._meta.db_table} l JOIN {Bet._meta.db_table} b ON b.id = l.bet_id"
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT SUM(b.amount), SUM(l.net), SUM(l.commission) {joins} WHERE {where}", params)
            sums = cursor.fetchone()
        # like the Python writer: a column with no rows has no total (empty), not 0
        return {key: int(value) for key, value in zip(("amount", "net", "commission"), sums) if value is not None}


# -- statistical hold --------------------------------------------------------------------------------


class StatisticalHoldReport(Report):
    """Per table and game: handle, rounds win and the statistical hold (rounds win ÷ handle) against the
    theoretical hold from the engines' edges, with the 95 % interval and a flag."""

    name = "statistical_hold"
    title = _("Statistical hold")
    scope = _("Every settled bet, on open and closed shifts alike.")
    columns = (
        Column("table", _("Table")),
        Column("game", _("Game")),
        Column("family", _("Family"), extra=True),
        Column("bets", _("Bets"), INT, total=True, extra=True),
        Column("handle", _("Handle"), MONEY, total=True),
        Column("win", _("Rounds win"), MONEY, total=True),
        Column("statistical", _("Statistical hold % (rounds win ÷ handle)"), PERCENT, places=4),
        Column("theoretical_win", _("Theoretical win"), MONEY, extra=True),
        Column("theoretical", _("Theoretical hold % (of handle)"), PERCENT, places=4),
        Column("low", _("95 % low %"), PERCENT, places=4, extra=True),
        Column("high", _("95 % high %"), PERCENT, places=4, extra=True),
        Column("flag", _("Outside the interval")),
        Column("uncovered", _("Bet types without an edge"), extra=True),
    )

    def rows(self) -> Iterator[tuple[Any, ...]]:
        f = self.filters
        for r in statistical_hold(
            table=f.table, shift=f.shift, game=f.game, pit=f.pit, date_from=f.date_from, date_to=f.date_to
        ):
            low, high = r["ci95"] or (None, None)
            if r["ci95"]:
                flag = str(labels.YES_NO[bool(r["flag"])])
            else:
                flag = gettext("not banked") if "note" in r else gettext("no edge")
            yield (
                r["table"],
                labels.game(r["game"]),
                labels.words(r["family"]),
                r["bets"],
                r["handle"],
                r["win"],
                figures.statistical_hold(r["win"], r["handle"]),
                r["theoretical_win"],
                r["theoretical_hold"],
                low,
                high,
                flag,
                ", ".join(labels.bet_type(r["game"], t) for t in r["uncovered_bet_types"]) or None,
            )

    def ratio_totals(self, sums: dict[str, int]) -> dict[str, Fraction | None]:
        return {"statistical": figures.statistical_hold(sums.get("win"), sums.get("handle"))}




# -- markers owed, by age ------------------------------------------------------------------------

AGING_BUCKETS = ((_("0–30 days"), 0, 30), (_("31–60 days"), 31, 60), (_("61–90 days"), 61, 90),
                 (_("over 90 days"), 91, None))


def aging_bucket(days: int) -> int:
    """The bucket of a marker ``days`` old (0–30, 31–60, 61–90, over 90), by its index."""
    for i, (_label, low, high) in enumerate(AGING_BUCKETS):
        if days >= low and (high is None or days <= high):
            return i
    return 0  # issued after the as-of date: not yet aged


class MarkerAgingReport(Report):
    """Markers still owed (issued, less paid, less written off) as of a date, by age: 0–30, 31–60, 61–90 and
    over 90 days since issue, one column each, with totals."""

    name = "marker_aging"
    title = _("Markers owed by age")
    scope = _("Markers still owed (issued, less paid, less written off) as of the end date, or today.")
    filters_used = ("date_from", "date_to", "table", "pit")  # date_from: issued on or after; date_to: as of
    columns = (
        Column("reference", _("Marker")),
        Column("player", _("Player")),
        Column("table", _("Table"), extra=True),
        Column("issued", _("Issued"), DATE),
        Column("age", _("Age (days)"), INT),
        Column("amount", _("Amount"), MONEY, total=True, extra=True),
        Column("owed", _("Owed"), MONEY, total=True),
        *(Column(f"aged_{i}", format_lazy(_("Owed {age}"), age=bucket[0]), MONEY, total=True)
          for i, bucket in enumerate(AGING_BUCKETS)),
    )

    def rows(self) -> Iterator[tuple[Any, ...]]:
        from django.utils import timezone

        as_of = self.filters.date_to or timezone.localdate()
        qs = Marker.objects.filter(issued_at__date__lte=as_of)
        if self.filters.date_from:
            qs = qs.filter(issued_at__date__gte=self.filters.date_from)
        if self.filters.table is not None:
            qs = qs.filter(table_id=self.filters.table)
        if self.filters.pit:
            qs = qs.filter(table__pit__code=self.filters.pit)
        markers = list(qs.order_by("issued_at", "year", "number").values_list(
            "pk", "year", "number", "player", "table__code", "issued_at", "amount"))
        ids = [m[0] for m in markers]
        # what was paid and written off by the as-of date (a payment made later is not yet made then)
        paid = dict(MarkerPayment.objects.filter(marker_id__in=ids, paid_at__date__lte=as_of).values("marker_id")
                    .annotate(s=Sum("amount")).values_list("marker_id", "s"))
        written = dict(MarkerWriteOff.objects.filter(marker_id__in=ids, written_off_at__date__lte=as_of)
                       .values_list("marker_id", "amount"))
        for pk, year, number, player, table, issued_at, amount in markers:
            owed = amount - paid.get(pk, 0) - written.get(pk, 0)
            if owed <= 0:
                continue
            issued = timezone.localdate(issued_at)
            age = (as_of - issued).days
            aged: list[int | None] = [None] * len(AGING_BUCKETS)
            aged[aging_bucket(age)] = owed
            yield (f"M{year}-{number:06d}", player, table, issued, age, amount, owed, *aged)


REPORTS: dict[str, type[Report]] = {
    r.name: r
    for r in (
        RevenueReport,
        FillsCreditsReport,
        VarianceReport,
        LargeTransactionsReport,
        DealerReport,
        BetsReport,
        StatisticalHoldReport,
        MarkerAgingReport,
    )
}
