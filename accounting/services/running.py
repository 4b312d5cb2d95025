"""The running figures: each record's part added to its table's shift in the record's own transaction,
and the check that recomputes them from the records (docs/accounting.md, "Running figures").

A settlement, a bet, a fill or credit received or voided, a marker issued or paid at a table, an
inventory count or a soft count adds its part (:mod:`accounting.figures`: ``settlement_part``,
``slip_part``…) to the :class:`~accounting.models.TableFigures` row of its table and shift with one
statement, ``INSERT … ON CONFLICT (table, shift) DO UPDATE SET x = x + delta``. It runs in the caller's
transaction, so the figures change exactly when the record is written and a rollback leaves them as
they were; it locks that one row until the commit, so settlements at two tables never wait for each
other, and two at one table (already serialized by the table's lock) add up.

:func:`differences` recomputes a shift's figures from the records and names every figure of every
table that differs from its running row; :func:`check_recent` (the nightly job) and the reconciliation
raise one alert per difference (:func:`alert_differences`), naming the table, the shift and the figure.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.db.models.functions import TruncHour
from django.utils import timezone

from accounting import figures
from accounting.conf import int_knob
from accounting.models import AlertSeverity, BigBet, TableFigures, TableHourFigures
from accounting.money import money_text
from accounting.selectors import TableShiftFigures, table_shift_figures_many, tables_active_in
from accounting.services.alerts import alert_raise
from casino.audit.services import audit_log
from tables.models import Settlement, Shift, ShiftStatus, Table

ALERT_KIND = "running_figures"
LABELS = {  # how the alerts name each figure
    "rounds": "rounds settled",
    "handle": "handle",
    "rounds_win": "rounds win",
    "commission": "commission",
    "rake": "rake",
    "pool_change": "pool change",
    "fills": "fills",
    "credits": "credits",
    "marker_payments": "marker payments at the table",
    "markers_issued": "markers issued",
    "big_bets": "big bets",
    "opener": "opening count",
    "closer": "closing count",
    "drop": "drop",
}
NOT_MONEY = frozenset({"rounds", "big_bets"})


# -- adding a record's part ------------------------------------------------------------------------------


@functools.cache
def _upsert_sql(vendor: str) -> str:
    """One statement for every part (PostgreSQL and SQLite alike): the sums add, a count sets its total."""
    q = connection.ops.quote_name
    name = q(TableFigures._meta.db_table)
    cols = ["table_id", "shift_id", *figures.RUNNING]
    sets = [f"{q(c)} = {name}.{q(c)} + excluded.{q(c)}" for c in figures.RUNNING_SUMS]
    sets += [f"{q(c)} = COALESCE(excluded.{q(c)}, {name}.{q(c)})" for c in figures.RUNNING_COUNTS]
    return (f"INSERT INTO {name} ({', '.join(q(c) for c in cols)}) VALUES ({', '.join(['%s'] * len(cols))}) "
            f"ON CONFLICT ({q('table_id')}, {q('shift_id')}) DO UPDATE SET {', '.join(sets)}")


def add(*, table_id: int, shift_id: int, part: Mapping[str, int]) -> None:
    """Add ``part`` (figure → delta; a count → its total) to the table's shift, in the caller's transaction."""
    if not part:
        return
    unknown = set(part) - set(figures.RUNNING)
    if unknown:
        raise KeyError(f"not a running figure: {', '.join(sorted(unknown))}")
    values = [int(part.get(c, 0)) for c in figures.RUNNING_SUMS] + [part.get(c) for c in figures.RUNNING_COUNTS]
    with connection.cursor() as cursor:
        cursor.execute(_upsert_sql(connection.vendor), [table_id, shift_id, *values])


@functools.cache
def _hour_sql(vendor: str) -> str:
    q = connection.ops.quote_name
    name = q(TableHourFigures._meta.db_table)
    cols = ["table_id", "shift_id", "hour", *figures.HOUR_SUMS]
    sets = [f"{q(c)} = {name}.{q(c)} + excluded.{q(c)}" for c in figures.HOUR_SUMS]
    return (f"INSERT INTO {name} ({', '.join(q(c) for c in cols)}) VALUES ({', '.join(['%s'] * len(cols))}) "
            f"ON CONFLICT ({q('table_id')}, {q('shift_id')}, {q('hour')}) DO UPDATE SET {', '.join(sets)}")


def round_settled(*, settlement: Any) -> None:
    """A settled round (registered in ``tables.listeners`` by ``accounting/apps.py``): its part of the
    table's shift and of the hour it settled in, in one statement on PostgreSQL (a writable CTE)."""
    rnd = settlement.round
    part = figures.settlement_part(settlement)
    values = [rnd.table_id, rnd.shift_id, *(part.get(c, 0) for c in figures.RUNNING_SUMS),
              *(None for _ in figures.RUNNING_COUNTS)]
    hourly = [rnd.table_id, rnd.shift_id, figures.hour_of(settlement.settled_at), *(part[c] for c in figures.HOUR_SUMS)]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"WITH shift_row AS ({_upsert_sql(connection.vendor)}) {_hour_sql(connection.vendor)}",
                           [*values, *hourly])
        else:
            cursor.execute(_upsert_sql(connection.vendor), values)
            cursor.execute(_hour_sql(connection.vendor), hourly)


def bets_recorded(*, bets: Iterable[Any]) -> None:
    """Bet rows written (placed, placed during the deal, or stakes a choice put down): the big ones count,
    and join the shift's list of big bets."""
    threshold = figures.big_bet_threshold()
    big = [bet for bet in bets if figures.is_big_bet(bet.amount, threshold)]
    if not big:
        return
    by_table_shift: dict[tuple[int, int], list[int]] = {}
    for bet in big:
        by_table_shift.setdefault((bet.round.table_id, bet.round.shift_id), []).append(bet.amount)
    for (table_id, shift_id), amounts in by_table_shift.items():
        add(table_id=table_id, shift_id=shift_id, part=figures.bets_part(amounts))
    BigBet.objects.bulk_create([BigBet(bet=bet, table_id=bet.round.table_id, shift_id=bet.round.shift_id,
                                       placed_at=bet.placed_at) for bet in big])


def bet_withdrawn(*, bet: Any) -> None:
    """A bet taken back before betting closed no longer counts."""
    add(table_id=bet.round.table_id, shift_id=bet.round.shift_id, part=figures.bets_part([bet.amount],
                                                                                        taken_back=True))


def slip_received(slip: Any) -> None:
    add(table_id=slip.table_id, shift_id=slip.shift_id, part=figures.slip_part(slip.kind, slip.total))


def slip_voided(slip: Any, *, was: str) -> None:
    """A slip voided: only one that was received (and so counted) is taken off again."""
    if was == "received":
        add(table_id=slip.table_id, shift_id=slip.shift_id, part=figures.slip_part(slip.kind, slip.total,
                                                                                   voided=True))


def count_recorded(count: Any) -> None:
    """An opening or closing inventory count (counted or rolled)."""
    add(table_id=count.table_id, shift_id=count.shift_id, part=figures.count_part(count.kind, count.total))


def drop_recorded(drop: Any) -> None:
    add(table_id=drop.table_id, shift_id=drop.shift_id, part=figures.count_part("drop", drop.total))


def marker_issued(marker: Any) -> None:
    add(table_id=marker.table_id, shift_id=marker.shift_id, part=figures.marker_part(issued=marker.amount))


def marker_paid(payment: Any) -> None:
    if payment.at_table:
        add(table_id=payment.table_id, shift_id=payment.shift_id,
            part=figures.marker_part(paid_at_table=payment.amount))


# -- checking them against the records -------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """A figure of a table's shift whose running row differs from the records' sum."""

    table: Table
    shift: Shift
    figure: str
    running: int | None
    records: int | None
    hour: dt.datetime | None = None  # a figure of the hourly rows (win by hour): the hour's start

    def text(self, value: int | None) -> str:
        if value is None:
            return "no count"
        return str(value) if self.figure in NOT_MONEY else money_text(value)

    @property
    def message(self) -> str:
        at = "" if self.hour is None else f" of the hour from {timezone.localtime(self.hour):%H:%M}"
        return (f"{self.table.code}, shift {self.shift}: the running {LABELS[self.figure]}{at} shows "
                f"{self.text(self.running)} but the records add up to {self.text(self.records)}")

    @property
    def key(self) -> str:
        at = "" if self.hour is None else f"@{self.hour:%Y%m%d%H}"
        return f"{ALERT_KIND}:{self.shift.pk}:{self.table.pk}:{self.figure}{at}:{self.running}:{self.records}"

    def as_dict(self) -> dict[str, Any]:
        out = {"table": self.table.code, "shift": self.shift.pk, "figure": self.figure, "running": self.running,
               "records": self.records}
        return out if self.hour is None else {**out, "hour": self.hour.isoformat()}


def lock_rows(shift: Shift, table_ids: Collection[int] | None = None) -> None:
    """Take the shift's running rows (of ``table_ids``, or all) ``FOR SHARE`` until the caller's transaction
    ends: nothing that adds to them commits meanwhile, so the records read next are the rows' records."""
    if connection.vendor != "postgresql":  # SQLite runs one writer at a time anyway
        return
    sql = (f"SELECT 1 FROM {connection.ops.quote_name(TableFigures._meta.db_table)} WHERE shift_id = %s"
           + (" AND table_id = ANY(%s)" if table_ids is not None else "") + " ORDER BY table_id FOR SHARE")
    with connection.cursor() as cursor:
        cursor.execute(sql, [shift.pk] + ([list(table_ids)] if table_ids is not None else []))


def differences(shift: Shift, *, recomputed: Mapping[int, TableShiftFigures] | None = None,
                only: Collection[int] | None = None) -> list[Difference]:
    """Every figure of every table of ``shift`` (or of the tables ``only``) whose running row differs from
    the records, recomputed through :mod:`accounting.figures` (or taken from ``recomputed``, the caller's
    recomputation). Read in one snapshot (:func:`check_shift`) or under :func:`lock_rows`, or a record
    committing in between shows as a difference."""
    rows = TableFigures.objects.filter(shift=shift)
    if only is not None:
        rows = rows.filter(table_id__in=list(only))
    running = {row["table_id"]: row for row in rows.values("table_id", *figures.RUNNING)}
    found = {pk: f for pk, f in (recomputed or {}).items() if only is None or pk in only}
    tables = {pk: f.table for pk, f in found.items()}
    if recomputed is None:
        active = tables_active_in(shift)
        tables.update((t.pk, t) for t in (active if only is None else active.filter(pk__in=list(only))))
    missing = set(running) - set(tables)
    if missing:
        tables.update((t.pk, t) for t in Table.objects.filter(pk__in=missing))
    todo = [t for pk, t in tables.items() if pk not in found]
    if todo:
        found.update(table_shift_figures_many(todo, shift, recompute=True))
    out = []
    for table_id in sorted(tables):
        records = found[table_id].running()
        kept = running.get(table_id) or {**dict.fromkeys(figures.RUNNING_SUMS, 0),
                                         **dict.fromkeys(figures.RUNNING_COUNTS)}
        out += [Difference(tables[table_id], shift, name, kept[name], records[name])
                for name in figures.RUNNING if kept[name] != records[name]]
    return out + _hour_differences(shift, tables)


def _hour_differences(shift: Shift, tables: Mapping[int, Table]) -> list[Difference]:
    """The hourly rows against the settlements grouped by the hour they settled in (:func:`figures.hour_of`)."""
    zero = dict.fromkeys(figures.HOUR_SUMS, 0)
    kept = {(r["table_id"], r["hour"]): r for r in TableHourFigures.objects.filter(shift=shift, table_id__in=list(tables))
            .values("table_id", "hour", *figures.HOUR_SUMS)}
    settled = Settlement.objects.filter(round__shift=shift, round__table_id__in=list(tables)).annotate(
        hour=TruncHour("settled_at", tzinfo=timezone.get_default_timezone()))
    records = {key: {"rounds": f.rounds, "handle": f.handle, "rounds_win": f.rounds_win}
               for key, f in figures.round_figures(settled, by=["round__table_id", "hour"], pools=False).items()}
    out = []
    for table_id, hour in sorted(set(kept) | set(records)):
        mine, theirs = kept.get((table_id, hour), zero), records.get((table_id, hour), zero)
        out += [Difference(tables[table_id], shift, name, mine[name], theirs[name], hour=hour)
                for name in figures.HOUR_SUMS if mine[name] != theirs[name]]
    return out


def alert_differences(found: Iterable[Difference]) -> list[Any]:
    """One alert per difference, naming the table, the shift and the figure (raised once per values)."""
    alerts = []
    for d in found:
        alerts.append(alert_raise(kind=ALERT_KIND, severity=AlertSeverity.CRITICAL, dedupe_key=d.key[:120],
                                  table=d.table, shift=d.shift, message=d.message, data=d.as_dict()))
    return alerts


def check_shift(shift: Shift) -> list[Difference]:
    """A shift's differences, read in one snapshot (REPEATABLE READ when this is the outermost
    transaction): a settlement committing meanwhile is either in both the row and the records or in
    neither. Blocks nobody."""
    with transaction.atomic():
        if connection.vendor == "postgresql" and len(connection.atomic_blocks) == 1:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        return differences(shift)


def recent_shifts(now: dt.datetime | None = None) -> list[Shift]:
    """The shifts the nightly check covers: open ones, and those that ended within ``RUNNING_CHECK_HOURS``."""
    now = now or timezone.now()
    since = now - dt.timedelta(hours=int_knob("RUNNING_CHECK_HOURS"))
    return list(Shift.objects.filter(Q(status=ShiftStatus.OPEN) | Q(ends_at__gte=since), starts_at__lte=now)
                .select_related("shift_type").order_by("starts_at"))


def check_recent(now: dt.datetime | None = None) -> dict[str, Any]:
    """The nightly job: recompute the recent shifts' figures and raise an alert for every difference."""
    shifts = recent_shifts(now)
    found: list[Difference] = []
    for shift in shifts:
        diffs = check_shift(shift)
        with transaction.atomic():
            alert_differences(diffs)
        found += diffs
    return {"shifts": [s.pk for s in shifts], "differences": [d.as_dict() for d in found]}


def realign(found: TableShiftFigures, diffs: Iterable[Difference], *, actor: Any) -> None:
    """Bring a table's running row to its records (the close does, before the figures are sealed, after
    alerting each difference): audited, with what the row said and what the records say."""
    diffs = list(diffs)
    if not diffs:
        return
    values = found.running()
    TableFigures.objects.update_or_create(table=found.table, shift=found.shift, defaults=values)
    audit_log(actor=actor, action="figures.realign", object_type="table_figures",
              object_id=f"{found.table.pk}:{found.shift.pk}", table_code=found.table.code,
              before={d.figure: d.running for d in diffs}, after={d.figure: d.records for d in diffs})
