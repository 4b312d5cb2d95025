"""Reads: a table's figures for a shift (win, hold, variance), balances, slips in transit."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from accounting import figures
from accounting.models import (
    Account,
    Alert,
    CountKind,
    CreditLine,
    DropCount,
    Entry,
    InventoryCount,
    LedgerTransaction,
    Marker,
    MarkerPayment,
    MarkerWriteOff,
    ReconciliationStatus,
    Slip,
    SlipKind,
    SlipStatus,
    TableCloseReopening,
    TableFigures,
    TableShiftClose,
)
from accounting.money import money_text
from casino.core.roles import Role, has_role, roles_of
from tables.models import LIVE_STATUSES, Bet, Pit, Round, RoundStatus, Settlement, Shift, Table

# a slip in transit (not received yet) as the close refusal words it
SLIP_STATUS_WORDS = {"requested": gettext_lazy("requested"), "issued": gettext_lazy("issued")}


@dataclass
class TableShiftFigures:
    """Everything that goes into a table's win for a shift (docs/accounting.md, "The figures");
    every formula is :mod:`accounting.figures`'. Read from the table's running figures
    (:class:`TableFigures`) or recomputed from the records (``recompute=True``): the same figures."""

    table: Table
    shift: Shift
    opener: InventoryCount | None
    closer: InventoryCount | None
    drop_count: DropCount | None
    opener_total: int | None = None
    closer_total: int | None = None
    drop: int | None = None  # the soft count's total
    fills: int = 0
    credits: int = 0
    marker_payments: int = 0  # paid in chips at this table during the shift
    markers_issued: int = 0
    rounds: int = 0
    handle: int = 0
    rounds_win: int = 0  # Σ settlement house_net
    commission: int = 0
    rake: int = 0
    pool_change: int = 0  # Σ (carry_out − carry_in)
    big_bets: int = 0  # bets at or above the large-bet threshold, not taken back
    live_rounds: list[Round] = field(default_factory=list)
    slips_in_transit: list[Slip] = field(default_factory=list)

    @property
    def count_win(self) -> int | None:
        """closer + credits + drop − opener − fills − marker payments at the table; None if a count is missing."""
        if self.opener_total is None or self.closer_total is None or self.drop is None:
            return None
        return figures.count_win(
            opener=self.opener_total,
            closer=self.closer_total,
            fills=self.fills,
            credits=self.credits,
            drop=self.drop,
            marker_payments=self.marker_payments,
        )

    @property
    def variance(self) -> int | None:
        """count win − rounds win − pool change: what the counts found that the rounds do not explain."""
        return figures.variance(self.count_win, self.rounds_win, self.pool_change)

    @property
    def hold(self) -> Fraction | None:
        return figures.hold(self.count_win, self.drop)

    @property
    def statistical_hold(self) -> Fraction | None:
        return figures.statistical_hold(self.rounds_win, self.handle)

    def running(self) -> dict[str, int | None]:
        """The figures a running row keeps (:data:`accounting.figures.RUNNING`), by name."""
        return {**{name: getattr(self, name) for name in figures.RUNNING_SUMS},
                "opener": self.opener_total, "closer": self.closer_total, "drop": self.drop}

    def missing(self) -> list[str]:
        """What keeps the table's shift from closing, in words a pit manager acts on."""
        what = []
        if self.opener_total is None:
            what.append("opening inventory count")
        if self.closer_total is None:
            what.append("closing inventory count")
        if self.drop is None:
            what.append("soft count of the drop")
        what += [f"round #{r.number} is {r.status.replace('_', ' ')}" for r in self.live_rounds]
        what += [f"{s.kind} slip {s.reference} is {s.status}, not received" for s in self.slips_in_transit]
        return what

    def missing_words(self) -> list[str]:
        """What :meth:`missing` names (the API's codes-as-words, stored and matched), in the reader's language:
        a round's state and a slip's kind and status by their labels."""
        what = []
        if self.opener_total is None:
            what.append(gettext("opening inventory count"))
        if self.closer_total is None:
            what.append(gettext("closing inventory count"))
        if self.drop is None:
            what.append(gettext("soft count of the drop"))
        what += [gettext("round #%(number)s is %(status)s") % {"number": r.number,
                                                                "status": str(RoundStatus(r.status).label).lower()}
                 for r in self.live_rounds]
        what += [(gettext("fill slip %(reference)s is %(status)s, not received") if s.kind == SlipKind.FILL
                  else gettext("credit slip %(reference)s is %(status)s, not received"))
                 % {"reference": s.reference, "status": str(SLIP_STATUS_WORDS.get(s.status, s.status))}
                 for s in self.slips_in_transit]
        return what

    def as_dict(self) -> dict[str, Any]:
        return {
            "table": self.table.code,
            "shift": self.shift.pk,
            "opener": self.opener_total,
            "closer": self.closer_total,
            "fills": self.fills,
            "credits": self.credits,
            "drop": self.drop,
            "drop_cash": self.drop_count.cash if self.drop_count else None,
            "drop_chips": self.drop_count.chips if self.drop_count else None,
            "drop_markers": self.drop_count.markers if self.drop_count else None,
            "marker_payments": self.marker_payments,
            "markers_issued": self.markers_issued,
            "count_win": self.count_win,
            "rounds": self.rounds,
            "handle": self.handle,
            "rounds_win": self.rounds_win,
            "commission": self.commission,
            "rake": self.rake,
            "pool_change": self.pool_change,
            "big_bets": self.big_bets,
            "variance": self.variance,
            "hold": figures.ratio_text(self.hold),
            "statistical_hold": figures.ratio_text(self.statistical_hold),
            "missing": self.missing(),
        }


def table_shift_figures(table: Table, shift: Shift, *, recompute: bool = False) -> TableShiftFigures:
    return table_shift_figures_many([table], shift, recompute=recompute)[table.pk]


def table_shift_figures_many(
    tables: list[Table], shift: Shift, *, recompute: bool = False, live_rounds: Iterable[Round] | None = None
) -> dict[int, TableShiftFigures]:
    """A table's figures for a shift, for many tables at once in a fixed number of queries whatever the
    number of tables (the pit dashboard's floor, the reconciliation).

    By default the figures are the tables' running rows (:class:`TableFigures`): one row per table, so
    the cost does not grow with the shift's rounds or the history. ``recompute=True`` sums the records
    instead (settlements, bets, slips, markers, counts), one query per kind of record: what a close
    fixes and what the nightly check and the reconciliation compare the running rows with."""
    ids = [t.pk for t in tables]
    counts: dict[int, dict[str, InventoryCount]] = {}
    # a count recounted is superseded: the figures read the latest of each chain only
    for c in InventoryCount.objects.filter(table_id__in=ids, shift=shift, superseded_by__isnull=True):
        counts.setdefault(c.table_id, {})[c.kind] = c
    drops = {d.table_id: d
             for d in DropCount.objects.filter(table_id__in=ids, shift=shift, superseded_by__isnull=True)}
    found = _recomputed(ids, shift, counts, drops) if recompute else _running(ids, shift)
    live: dict[int, list[Round]] = {}
    if live_rounds is None:
        live_rounds = Round.objects.filter(table_id__in=ids, shift=shift, status__in=LIVE_STATUSES).order_by("number")
    else:  # the caller has just read the tables' rounds in play, by number (the floor's tiles): this shift's
        wanted = set(ids)
        live_rounds = [r for r in live_rounds if r.shift_id == shift.pk and r.table_id in wanted
                       and r.status in LIVE_STATUSES]
    for rnd in live_rounds:
        live.setdefault(rnd.table_id, []).append(rnd)
    transit: dict[int, list[Slip]] = {}
    for slip in Slip.objects.filter(
        table_id__in=ids, shift=shift, status__in=[SlipStatus.REQUESTED, SlipStatus.ISSUED]
    ).order_by("id"):
        transit.setdefault(slip.table_id, []).append(slip)
    out = {}
    for table in tables:
        values = found.get(table.pk, {})
        out[table.pk] = TableShiftFigures(
            table=table,
            shift=shift,
            opener=counts.get(table.pk, {}).get(CountKind.OPENER),
            closer=counts.get(table.pk, {}).get(CountKind.CLOSER),
            drop_count=drops.get(table.pk),
            opener_total=values.get("opener"),
            closer_total=values.get("closer"),
            drop=values.get("drop"),
            **{name: int(values.get(name) or 0) for name in figures.RUNNING_SUMS},
            live_rounds=live.get(table.pk, []),
            slips_in_transit=transit.get(table.pk, []),
        )
    return out


def _running(ids: list[int], shift: Shift) -> dict[int, dict[str, Any]]:
    """The running rows of the tables' shift: one row per table (none where nothing happened yet)."""
    return {
        row["table_id"]: row
        for row in TableFigures.objects.filter(shift=shift, table_id__in=ids).values("table_id", *figures.RUNNING)
    }


def _recomputed(
    ids: list[int], shift: Shift, counts: dict[int, dict[str, InventoryCount]], drops: dict[int, DropCount]
) -> dict[int, dict[str, Any]]:
    """The same figures summed from the records, one query per kind of record."""
    out: dict[int, dict[str, Any]] = {pk: {} for pk in ids}
    for pk in ids:
        mine = counts.get(pk, {})
        out[pk].update(
            opener=mine[CountKind.OPENER].total if CountKind.OPENER in mine else None,
            closer=mine[CountKind.CLOSER].total if CountKind.CLOSER in mine else None,
            drop=drops[pk].total if pk in drops else None,
        )
    slip_figure = {SlipKind.FILL.value: "fills", SlipKind.CREDIT.value: "credits"}
    for table_id, kind, total in (
        Slip.objects.filter(table_id__in=ids, shift=shift, status=SlipStatus.RECEIVED)
        .values("table_id", "kind")
        .annotate(s=Sum("total"))
        .order_by()
        .values_list("table_id", "kind", "s")
    ):
        out[table_id][slip_figure[kind]] = int(total or 0)
    for table_id, total in (
        MarkerPayment.objects.filter(at_table=True, table_id__in=ids, shift=shift)
        .values("table_id")
        .annotate(s=Sum("amount"))
        .order_by()
        .values_list("table_id", "s")
    ):
        out[table_id]["marker_payments"] = int(total or 0)
    for table_id, total in (
        Marker.objects.filter(table_id__in=ids, shift=shift)
        .values("table_id")
        .annotate(s=Sum("amount"))
        .order_by()
        .values_list("table_id", "s")
    ):
        out[table_id]["markers_issued"] = int(total or 0)
    rounds = figures.round_figures(
        Settlement.objects.filter(round__table_id__in=ids, round__shift=shift), by=["round__table_id"]
    )
    for (table_id,), found in rounds.items():
        out[table_id].update(rounds=found.rounds, handle=found.handle, rounds_win=found.rounds_win,
                             commission=found.commission, rake=found.rake, pool_change=found.pool_change)
    big = figures.big_bets_of(Bet.objects.filter(round__table_id__in=ids, round__shift=shift))
    for table_id, n in big.values("round__table_id").annotate(n=Count("id")).order_by().values_list(
        "round__table_id", "n"
    ):
        out[table_id]["big_bets"] = int(n)
    return out


def _sum(qs: QuerySet, name: str = "total") -> int:
    return int(qs.aggregate(s=Sum(name))["s"] or 0)


def tables_active_in(shift: Shift) -> QuerySet[Table]:
    """Tables with anything in the shift: a round, a count, a slip, a marker, a soft count or a close."""
    return (
        Table.objects.filter(
            Q(rounds__shift=shift)
            | Q(inventory_counts__shift=shift)
            | Q(slips__shift=shift)
            | Q(markers__shift=shift)
            | Q(drop_counts__shift=shift)
            | Q(shift_closes__shift=shift)
        )
        .distinct()
        .select_related("pit")
        .order_by("code")
    )


def account_balances(*, table: Table | None = None) -> list[dict[str, Any]]:

    accounts = Account.objects.all() if table is None else Account.objects.filter(table=table)
    rows = accounts.annotate(balance=Sum("entries__amount"), entries_count=Count("entries")).order_by("code")
    return [
        {
            "code": a.code,
            "name": a.name,
            "kind": a.kind,
            "table": a.table_id,
            "denomination": a.denomination,
            "balance": int(a.balance or 0),
            "entries": a.entries_count,
        }
        for a in rows
    ]


def ledger_sum(
    *, codes: list[str], table: Table | None = None, shift: Shift | None = None, kinds: list[str] | None = None
) -> int:
    """Σ entries on the accounts ``codes`` for transactions of the table/shift (and kinds)."""
    txns = LedgerTransaction.objects.all()
    if table is not None:
        txns = txns.filter(table=table)
    if shift is not None:
        txns = txns.filter(shift=shift)
    if kinds is not None:
        txns = txns.filter(kind__in=kinds)
    return _sum(Entry.objects.filter(account__code__in=codes, transaction__in=txns), "amount")


def recount_words(recount: Any) -> str:
    """A recount in words, for the variance report: what it superseded, why, signed by whom."""
    old = recount.supersedes
    if isinstance(recount, InventoryCount):
        what, signers = CountKind(recount.kind).label.lower(), (recount.dealer_signer, recount.supervisor_signer)
    else:
        what, signers = gettext("soft count"), (recount.counter_one, recount.counter_two)
    return gettext("%(what)s %(old)s superseded by recount %(new)s: %(reason)s, signed by %(one)s and %(two)s") % {
        "what": what, "old": money_text(old.total), "new": money_text(recount.total), "reason": recount.reason,
        "one": signers[0].user.get_username(), "two": signers[1].user.get_username()}


def reopening_words(reopening: Any) -> str:
    """A reopened close in words: who reopened it, why, and what the close it superseded had fixed."""
    close = reopening.close
    return gettext("close of %(at)s (count win %(win)s, variance %(variance)s) reopened by %(who)s: %(reason)s") % {
        "at": timezone.localtime(close.closed_at).strftime("%Y-%m-%d %H:%M"), "win": money_text(close.count_win),
        "variance": money_text(close.variance), "who": reopening.reopened_by.get_username(),
        "reason": reopening.reason}


def corrections_by_table_shift(filtered: Callable[[QuerySet], QuerySet]) -> dict[tuple[int, str], list[str]]:
    """The corrections of each (shift id, table code) in words, oldest first: the recounts and the reopened closes. ``filtered`` narrows a
    queryset of records with ``shift`` and ``table`` (the report's filters). Corrections are few: one query each."""
    out: dict[tuple[int, str], list[tuple[Any, str]]] = {}
    recounts: list[Any] = list(filtered(InventoryCount.objects.filter(supersedes__isnull=False)).select_related(
        "table", "supersedes", "dealer_signer__user", "supervisor_signer__user"))
    recounts += list(filtered(DropCount.objects.filter(supersedes__isnull=False)).select_related(
        "table", "supersedes", "counter_one__user", "counter_two__user"))
    for r in recounts:
        out.setdefault((r.shift_id, r.table.code), []).append((r.recorded_at, recount_words(r)))
    for reopening in filtered(TableCloseReopening.objects.all()).select_related("table", "close", "reopened_by"):
        out.setdefault((reopening.shift_id, reopening.table.code), []).append(
            (reopening.reopened_at, reopening_words(reopening)))
    return {key: [words for _, words in sorted(found, key=lambda x: x[0])] for key, found in out.items()}


@dataclass
class CreditStanding:
    """A player's credit line in force, what their markers use of it and what is left (never below 0)."""

    player: str
    line: CreditLine
    used: int

    @property
    def available(self) -> int:
        return max(self.line.limit - self.used, 0)


def credit_line_in_force(player: str) -> CreditLine | None:
    """The line in force: the player's latest approval (the name as on the markers, in any case)."""
    return (CreditLine.objects.select_related("approver__user").filter(player__iexact=player.strip())
            .order_by("-approved_at", "-id").first())


def owed_on_markers(player: str) -> int:
    """What the player owes on markers: issued, less paid, less written off."""
    markers = Marker.objects.filter(player__iexact=player.strip())
    issued = markers.aggregate(a=Sum("amount"), p=Sum("paid"))
    written = MarkerWriteOff.objects.filter(marker__in=markers).aggregate(w=Sum("amount"))["w"] or 0
    return int((issued["a"] or 0) - (issued["p"] or 0) - written)


def credit_standing(player: str) -> CreditStanding | None:
    line = credit_line_in_force(player) if player.strip() else None
    return None if line is None else CreditStanding(player=line.player, line=line, used=owed_on_markers(player))


def credit_standings(limit: int = 200) -> list[CreditStanding]:
    """Every player's line in force (the latest approval per player, by name in any case), by name."""
    latest: dict[str, CreditLine] = {}
    for line in CreditLine.objects.select_related("approver__user").order_by("-approved_at", "-id")[:5 * limit]:
        latest.setdefault(line.player.lower(), line)
    lines = sorted(latest.values(), key=lambda x: x.player.lower())[:limit]
    return [CreditStanding(player=line.player, line=line, used=owed_on_markers(line.player)) for line in lines]


def close_of(table: Table, shift: Shift) -> TableShiftClose | None:
    return TableShiftClose.objects.standing().filter(table=table, shift=shift).first()


def reconciliation_totals(results: Any) -> dict[str, Any]:
    """A shift's reconciliation from its tables' results: how many tables and rounds, how many causes, and
    balanced only if no table has a cause (the stored totals; a pit manager's view over their tables)."""
    results = list(results)
    return {
        "tables": len(results),
        "rounds": sum(r.rounds for r in results),
        "causes": sum(len(r.causes) for r in results),
        "status": ReconciliationStatus.VARIANCE if any(r.causes for r in results) else ReconciliationStatus.BALANCED,
    }


def visible_alerts(user: Any) -> QuerySet[Alert]:
    """Accountants, auditors and admins see every alert; pit managers those of their pits and the casino's."""
    alerts = Alert.objects.select_related("table", "shift", "acknowledged_by", "resolved_by")
    if has_role(user, Role.ACCOUNTANT, Role.AUDITOR):
        return alerts
    if Role.PIT_MANAGER in roles_of(user):
        # their pits as a subquery: no join to the pits' managers, so no DISTINCT over every column
        return alerts.filter(Q(table__isnull=True) | Q(table__pit__in=Pit.objects.filter(managers=user).values("pk")))
    return alerts.none()


@dataclass
class AccountantQueue:
    """What waits for the accountant or the cage (the queue screen, ``/accounting/queue/``)."""

    slip_voids: list[Slip] = field(default_factory=list)  # a void asked for, not yet decided
    variances: list[Alert] = field(default_factory=list)  # over the tolerance, not yet accepted
    soft_counts: list[InventoryCount] = field(default_factory=list)  # a closer in, the drop not counted yet
    reconciliations: list[Shift] = field(default_factory=list)  # due (closed, or ended past the grace) and not run

    @property
    def total(self) -> int:
        return len(self.slip_voids) + len(self.variances) + len(self.soft_counts) + len(self.reconciliations)


def accountant_queue(due_shift_ids: list[int], limit: int = 200) -> AccountantQueue:
    """Every slip void to decide, variance to accept, soft count to enter and reconciliation to run, oldest
    first (``due_shift_ids``: the shifts due for reconciliation and not reconciled, from the reconcile service)."""
    voids = (Slip.objects.filter(void_requested_by__isnull=False).exclude(status=SlipStatus.VOIDED)
             .select_related("table", "void_requested_by").order_by("void_requested_at", "id")[:limit])
    variances = (Alert.objects.filter(kind="variance", acknowledged_at__isnull=True)
                 .select_related("table", "shift__shift_type").order_by("created_at", "id")[:limit])
    counted = DropCount.objects.filter(table_id=OuterRef("table_id"), shift_id=OuterRef("shift_id"))
    soft = (InventoryCount.objects.filter(kind=CountKind.CLOSER, superseded_by__isnull=True)
            .annotate(counted=Exists(counted)).filter(counted=False).select_related("table", "shift__shift_type").order_by("recorded_at", "id")[:limit])
    shifts = Shift.objects.filter(pk__in=due_shift_ids).select_related("shift_type").order_by("starts_at")[:limit]
    return AccountantQueue(slip_voids=list(voids), variances=list(variances), soft_counts=list(soft),
                           reconciliations=list(shifts))
