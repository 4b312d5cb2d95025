"""The figures of table games, each defined once (docs/accounting.md, "The figures").

Every screen (dealer, pit, accounting, players), every report and export and the reconciliation
reads handle, rounds win, count win, hold, statistical hold and variance through this module; a
table close stores what these functions computed when it closed.

* **handle** — the amount wagered: Σ ``Settlement.handle`` of the settled rounds, where a round's
  handle is Σ over its settled bets of what each staked in the end (``RoundResult.handle()``: a blackjack
  double or split, a Caribbean Stud raise and an In-Between pot bet count in full; a push counts,
  it was wagered; antes and pari-mutuel stakes count). A voided round has no settlement: it counts
  nothing.
* **rounds win** — the house's result of the settled rounds: Σ ``Settlement.house_net``, commission
  and rake included. By family (:class:`Family`): banked −Σ players' net; commission the same, the
  commission inside it; pot games the rake (the pot is the players', its change is the pool change);
  pari-mutuel the house's take (less what a house-backed side bet paid); player-banked what the house
  takes from the bank (commission), else 0.
* **pool change** — Σ (carry out − carry in) of the pots and pools the rounds carried.
* **count win** — closer + credits + drop − opener − fills − marker payments in chips at the table.
* **hold** — count win ÷ drop; **statistical hold** — rounds win ÷ handle.
* **variance** — count win − rounds win − pool change.
* **big bets** — the bets at or above ``CROUPIER["LARGE_BET"]`` placed in the table's shift and not
  taken back (a voided round's bets were placed: they count).

The **running figures** (:class:`accounting.models.TableFigures`, one row per table and shift) are
these same definitions kept up to date: each record that changes a figure adds its part
(:func:`settlement_part`, :func:`slip_part`, … below) in its own transaction. The part of one record
is the figure of a group of one: Σ over a table's shift of :func:`settlement_part` is
:func:`round_figures` of its settlements, and so on (tests/accounting/test_running_figures.py).

>>> count_win(opener=250_000, closer=204_000, fills=50_000, credits=30_000, drop=80_000, marker_payments=5_000)
9000
>>> hold(9_000, 80_000), statistical_hold(9_125, 14_000), hold(0, 0)
(Fraction(9, 80), Fraction(73, 112), None)
>>> variance(9_000, 9_125, 0)
-125
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from fractions import Fraction
from typing import Any

from django.db.models import Count, F, QuerySet, Sum
from django.utils import timezone

from accounting.conf import int_knob
from accounting.money import hold_fraction
from tables.engines.profile import Family as GameFamily
from tables.engines.registry import get_engine
from tables.models import Settlement


class Family(StrEnum):
    """How a game's rounds win comes about (docs/accounting.md has a worked example of each)."""

    BANKED = "banked"  # the house banks every bet: rounds win = −Σ players' net
    COMMISSION = "commission"  # banked, and the house takes a commission on winning bets
    POT = "pot"  # players bet against a pot; the house takes a rake
    PARI_MUTUEL = "pari-mutuel"  # stakes form pools; the house takes a share of each
    PLAYER_BANKED = "player-banked"  # a player holds the bank; the house takes commission, if any


def family_of(game: str) -> Family:
    """The game's family as its engine declares it (``Engine.profile``), a banked game with a
    commission counted apart."""
    profile = get_engine(game).profile
    if profile.family is GameFamily.BANKED:
        return Family.COMMISSION if profile.commission else Family.BANKED
    return {GameFamily.PLAYER_BANKED: Family.PLAYER_BANKED, GameFamily.POT: Family.POT,
            GameFamily.POOL: Family.PARI_MUTUEL}[profile.family]


# -- the formulas ----------------------------------------------------------------------------------


def count_win(*, opener: int, closer: int, fills: int, credits: int, drop: int, marker_payments: int) -> int:
    """closer + credits + drop − opener − fills − marker payments in chips at the table."""
    return closer + credits + drop - opener - fills - marker_payments


# the same two formulas over running rows (accounting.models.TableFigures), summed in SQL by the reports
COUNT_WIN = F("closer") + F("credits") + F("drop") - F("opener") - F("fills") - F("marker_payments")
VARIANCE = COUNT_WIN - F("rounds_win") - F("pool_change")


def hold(win: int | None, drop: int | None) -> Fraction | None:
    """count win ÷ drop, exact; None without a drop (undefined, not zero)."""
    return None if win is None or not drop else hold_fraction(win, drop)


def statistical_hold(rounds_win: int | None, handle: int | None) -> Fraction | None:
    """rounds win ÷ handle, exact; None without a handle."""
    return None if rounds_win is None or not handle else hold_fraction(rounds_win, handle)


def variance(count_win: int | None, rounds_win: int, pool_change: int) -> int | None:
    """count win − rounds win − pool change: what the counts found that the rounds do not explain."""
    return None if count_win is None else count_win - rounds_win - pool_change


def ratio_text(value: Fraction | None) -> str | None:
    """An exact ratio as the API writes it: ``"n/d"`` (``"9/80"``), None when undefined."""
    return None if value is None else f"{value.numerator}/{value.denominator}"


# -- the rounds' figures, read from settlements ------------------------------------------------------


@dataclass(frozen=True)
class RoundFigures:
    """The settled rounds' figures of a table, shift, dealer, hour… (any group of settlements)."""

    rounds: int = 0
    handle: int = 0
    rounds_win: int = 0  # Σ house net: commission and rake included
    commission: int = 0
    rake: int = 0
    pool_change: int = 0

    @property
    def statistical_hold(self) -> Fraction | None:
        return statistical_hold(self.rounds_win, self.handle)

    def __add__(self, other: RoundFigures) -> RoundFigures:
        return RoundFigures(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))


# The pool change is defined once, by the engine's answer (``RoundResult.pool_change``, ``pool_change_of``:
# carry out − carry in of the pool it carried, 0 without one); a settlement stores it as ``pool_change`` when
# its round settles, and every sum here reads that column.
ROUND_SUMS = {
    "rounds": Count("id"),
    "handle": Sum("handle"),
    "rounds_win": Sum("house_net"),
    "commission": Sum("commission"),
    "rake": Sum("rake"),
    "pool_change": Sum("pool_change"),
}


def _figures(row: Mapping[str, Any], *, pools: bool = True) -> RoundFigures:
    return RoundFigures(
        rounds=int(row.get("rounds") or 0),
        handle=int(row.get("handle") or 0),
        rounds_win=int(row.get("rounds_win") or 0),
        commission=int(row.get("commission") or 0),
        rake=int(row.get("rake") or 0),
        pool_change=int(row.get("pool_change") or 0) if pools else 0,
    )


def round_figures(
    settlements: QuerySet[Settlement], *, by: Sequence[str], pools: bool = True
) -> dict[tuple[Any, ...], RoundFigures]:
    """The figures of ``settlements`` grouped by the lookups ``by``, in one query (``pools=False`` leaves
    the pool change at 0)."""
    keys = list(by)
    return {
        tuple(r[k] for k in keys): _figures(r, pools=pools)
        for r in settlements.values(*keys).annotate(**ROUND_SUMS).order_by()
    }


def round_figures_total(settlements: QuerySet[Settlement]) -> RoundFigures:
    """The figures of all ``settlements`` together."""
    return _figures(settlements.aggregate(**ROUND_SUMS))


def settlements_of(*, table: Any = None, shift: Any = None) -> QuerySet[Settlement]:
    """The settlements of a table's rounds (or every table's) in a shift (or every shift)."""
    qs = Settlement.objects.all()
    if table is not None:
        qs = qs.filter(round__table=table)
    if shift is not None:
        qs = qs.filter(round__shift=shift)
    return qs


# -- big bets ---------------------------------------------------------------------------------------


def big_bet_threshold() -> int:
    """The large-bet threshold, minor units (``CROUPIER["LARGE_BET"]``)."""
    return int_knob("LARGE_BET")


def is_big_bet(amount: int, threshold: int | None = None) -> bool:
    return amount >= (big_bet_threshold() if threshold is None else threshold)


def big_bets_of(bets: QuerySet[Any], threshold: int | None = None) -> QuerySet[Any]:
    """The big bets among ``bets`` (``tables.Bet`` rows): at or above the threshold, not taken back."""
    return bets.filter(amount__gte=big_bet_threshold() if threshold is None else threshold,
                       withdrawal__isnull=True)


# -- the running figures: each record's part ---------------------------------------------------------

# the figures a table's shift keeps as a running row, each a sum of the parts of its records
RUNNING_SUMS = ("rounds", "handle", "rounds_win", "commission", "rake", "pool_change", "fills", "credits",
                "marker_payments", "markers_issued", "big_bets")
# and the counts' totals, each written once by its count: opener, closer and the soft count's drop
RUNNING_COUNTS = ("opener", "closer", "drop")
RUNNING = RUNNING_SUMS + RUNNING_COUNTS


HOUR_SUMS = ("rounds", "handle", "rounds_win")  # what the hourly rows keep of a settlement's part


def hour_of(at: dt.datetime) -> dt.datetime:
    """The clock hour a round settled in (its start) in the casino's time zone (``TIME_ZONE``): the
    pit dashboard's win by hour groups by it, as ``TruncHour(settled_at)`` does."""
    return timezone.localtime(at, timezone.get_default_timezone()).replace(minute=0, second=0, microsecond=0)


def settlement_part(settlement: Any) -> dict[str, int]:
    """What one settled round adds: one round, its handle, its house net (the rounds win), commission,
    rake and pool change (a group of one settlement, as :func:`round_figures` sums them)."""
    return {
        "rounds": 1,
        "handle": int(settlement.handle),
        "rounds_win": int(settlement.house_net),
        "commission": int(settlement.commission),
        "rake": int(settlement.rake),
        "pool_change": int(settlement.pool_change),
    }


def slip_part(kind: str, total: int, *, voided: bool = False) -> dict[str, int]:
    """A received fill or credit adds its total to fills or credits; voiding a received slip takes it off."""
    name = {"fill": "fills", "credit": "credits"}[kind]
    return {name: -total if voided else total}


def bets_part(amounts: Iterable[int], *, taken_back: bool = False) -> dict[str, int]:
    """Bets placed add the big ones to the big bets; a bet taken back takes itself off."""
    threshold = big_bet_threshold()
    n = sum(1 for amount in amounts if is_big_bet(amount, threshold))
    return {"big_bets": -n if taken_back else n} if n else {}


def count_part(kind: str, total: int) -> dict[str, int]:
    """An opening or closing inventory count sets the opener or closer; a soft count sets the drop."""
    return {{"opener": "opener", "closer": "closer", "drop": "drop"}[kind]: total}


def marker_part(*, issued: int = 0, paid_at_table: int = 0) -> dict[str, int]:
    """A marker issued at the table adds to markers issued; a payment in chips at the table to marker payments."""
    return {k: v for k, v in (("markers_issued", issued), ("marker_payments", paid_at_table)) if v}


def running_from_records_sql(vendor: str, *, shifts: str = "{col} IS NOT NULL", insert: bool = True,
                             recounts: bool = True, pool: str = "s.pool_change") -> str:
    """One ``INSERT … SELECT`` writing the running row of every table shift that has a record, summed
    from the records set-based by the definitions above (Σ settlements as :data:`ROUND_SUMS`, received
    slips, markers, counts, big bets): what a migration's backfill and a
    bulk loader run where replaying the records one by one would take hours. One parameter, the big-bet
    threshold. ``shifts``: a condition on the shift id column ``{col}`` (``"{col} >= 100"``); the table
    shifts it selects must have no running row yet. tests/accounting/test_running_figures.py holds it
    equal to the records' recomputation. ``insert=False``: the rows alone (table id, shift id, then
    :data:`RUNNING` in order). A count recounted is superseded: the latest of its chain is read
    (``recounts=False``: a schema from before recounts, migration 0006's backfill). ``pool``: a settlement
    ``s``'s pool change in SQL, its stored column (migration 0006 ran before the column and passes its own)."""

    def where(col: str) -> str:
        return shifts.format(col=col)

    def latest(table: str, alias: str) -> str:
        return f" AND NOT EXISTS (SELECT 1 FROM {table} n WHERE n.supersedes_id = {alias}.id)" if recounts else ""

    return f"""
    WITH settled AS (
        SELECT r.table_id, r.shift_id, count(*) AS rounds, sum(s.handle) AS handle, sum(s.house_net) AS rounds_win,
               sum(s.commission) AS commission, sum(s.rake) AS rake, sum({pool}) AS pool_change
        FROM tables_settlement s JOIN tables_round r ON r.id = s.round_id
        WHERE {where("r.shift_id")} GROUP BY r.table_id, r.shift_id),
    slips AS (
        SELECT table_id, shift_id, sum(CASE WHEN kind = 'fill' THEN total ELSE 0 END) AS fills,
               sum(CASE WHEN kind = 'credit' THEN total ELSE 0 END) AS credits
        FROM accounting_slip WHERE status = 'received' AND {where("shift_id")} GROUP BY table_id, shift_id),
    paid AS (
        SELECT table_id, shift_id, sum(amount) AS marker_payments FROM accounting_markerpayment
        WHERE at_table AND {where("shift_id")} GROUP BY table_id, shift_id),
    issued AS (
        SELECT table_id, shift_id, sum(amount) AS markers_issued FROM accounting_marker
        WHERE {where("shift_id")} GROUP BY table_id, shift_id),
    counted AS (
        SELECT table_id, shift_id, max(CASE WHEN kind = 'opener' THEN total END) AS opener,
               max(CASE WHEN kind = 'closer' THEN total END) AS closer
        FROM accounting_inventorycount ic WHERE {where("shift_id")}{latest("accounting_inventorycount", "ic")}
        GROUP BY table_id, shift_id),
    dropped AS (SELECT table_id, shift_id, total AS drop_total FROM accounting_dropcount dc
        WHERE {where("shift_id")}{latest("accounting_dropcount", "dc")}),
    big AS (
        SELECT r.table_id, r.shift_id, count(*) AS big_bets
        FROM tables_bet b JOIN tables_round r ON r.id = b.round_id
        WHERE b.amount >= %s AND {where("r.shift_id")}
          AND NOT EXISTS (SELECT 1 FROM tables_betwithdrawal w WHERE w.bet_id = b.id)
        GROUP BY r.table_id, r.shift_id),
    keys AS (
        SELECT table_id, shift_id FROM settled UNION SELECT table_id, shift_id FROM slips
        UNION SELECT table_id, shift_id FROM paid UNION SELECT table_id, shift_id FROM issued
        UNION SELECT table_id, shift_id FROM counted UNION SELECT table_id, shift_id FROM dropped
        UNION SELECT table_id, shift_id FROM big)
    {'INSERT INTO accounting_tablefigures (table_id, shift_id, ' + ', '.join(f'"{c}"' for c in RUNNING) + ')'
     if insert else ''}
    SELECT k.table_id, k.shift_id, COALESCE(st.rounds, 0) AS rounds, COALESCE(st.handle, 0) AS handle,
           COALESCE(st.rounds_win, 0) AS rounds_win, COALESCE(st.commission, 0) AS commission,
           COALESCE(st.rake, 0) AS rake, COALESCE(st.pool_change, 0) AS pool_change, COALESCE(sl.fills, 0) AS fills,
           COALESCE(sl.credits, 0) AS credits, COALESCE(p.marker_payments, 0) AS marker_payments,
           COALESCE(i.markers_issued, 0) AS markers_issued, COALESCE(b.big_bets, 0) AS big_bets,
           c.opener AS opener, c.closer AS closer, d.drop_total AS "drop"
    FROM keys k
    LEFT JOIN settled st ON st.table_id = k.table_id AND st.shift_id = k.shift_id
    LEFT JOIN slips sl ON sl.table_id = k.table_id AND sl.shift_id = k.shift_id
    LEFT JOIN paid p ON p.table_id = k.table_id AND p.shift_id = k.shift_id
    LEFT JOIN issued i ON i.table_id = k.table_id AND i.shift_id = k.shift_id
    LEFT JOIN counted c ON c.table_id = k.table_id AND c.shift_id = k.shift_id
    LEFT JOIN dropped d ON d.table_id = k.table_id AND d.shift_id = k.shift_id
    LEFT JOIN big b ON b.table_id = k.table_id AND b.shift_id = k.shift_id"""


def running_hours_from_records_sql(*, shifts: str = "{col} IS NOT NULL") -> str:
    """PostgreSQL: the hourly rows (:class:`accounting.models.TableHourFigures`) of the table shifts
    ``shifts`` selects, summed from their settlements by :func:`hour_of`. Two parameters: the time
    zone's name, twice."""
    return f"""
    INSERT INTO accounting_tablehourfigures (table_id, shift_id, hour, rounds, handle, rounds_win)
    SELECT r.table_id, r.shift_id, date_trunc('hour', s.settled_at AT TIME ZONE %s) AT TIME ZONE %s,
           count(*), sum(s.handle), sum(s.house_net)
    FROM tables_settlement s JOIN tables_round r ON r.id = s.round_id
    WHERE {shifts.format(col="r.shift_id")} GROUP BY 1, 2, 3"""


def big_bets_from_records_sql(*, shifts: str = "{col} IS NOT NULL") -> str:
    """The big bets (:class:`accounting.models.BigBet`) of the shifts ``shifts`` selects, from the bets
    (those taken back too: the list leaves them out by their withdrawal). One parameter: the threshold."""
    return f"""
    INSERT INTO accounting_bigbet (bet_id, table_id, shift_id, placed_at)
    SELECT b.id, r.table_id, r.shift_id, b.placed_at FROM tables_bet b JOIN tables_round r ON r.id = b.round_id
    WHERE b.amount >= %s AND {shifts.format(col="r.shift_id")}"""
