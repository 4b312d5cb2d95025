"""Reads: players, slips with their figures (measured from the rounds), the cash transaction log.

Figures for many slips are computed in a handful of queries whatever their number (the pit dashboard
rates every open slip on each refresh): the settled rounds in the slips' time, the seats' settled
bets, what each bet staked in all, the pauses, the buy-ins and the players' other slips.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from django.db import connection
from django.db.models import Count, Q, QuerySet, Sum, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from accounting.money import digits
from casino.core.roles import Role, has_role, roles_of
from players import rating
from players.conf import knob
from players.edges import edges_for
from players.models import (
    LIVE_SLIP_STATUSES,
    BuyIn,
    BuyInMethod,
    CashTransaction,
    CashTransactionReport,
    Player,
    RatingSlip,
    SlipPause,
    SlipRating,
    SlipStatus,
)
from tables.access import current_assignment, manages_table
from tables.engines.errors import EngineError
from tables.engines.registry import get_engine
from tables.engines.result import Line
from tables.models import Round, RoundStatus, Settlement, SettlementLine, Table
from tables.selectors import visible_tables

SLIP_READERS = (Role.DEALER, Role.PIT_MANAGER, Role.ACCOUNTANT, Role.AUDITOR, Role.COMPLIANCE)


# -- players ---------------------------------------------------------------------------------------


def players_search(*, q: str = "", status: str = "") -> QuerySet[Player]:
    players = Player.objects.all()
    q = (q or "").strip()
    if q:
        words = q.split()
        for word in words[:4]:
            players = players.filter(
                Q(first_name__icontains=word) | Q(last_name__icontains=word) | Q(card_number__iexact=word)
            )
    if status:
        players = players.filter(status=status)
    return players


# -- slips -------------------------------------------------------------------------------------------


def visible_slips(user: Any) -> QuerySet[RatingSlip]:
    """Accountants, auditors, compliance and admins see every slip; pit managers their pits'; dealers their
    table's, now."""
    slips = RatingSlip.objects.select_related("player", "table", "shift")
    if has_role(user, Role.ACCOUNTANT, Role.AUDITOR, Role.COMPLIANCE):
        return slips
    if not roles_of(user):
        return slips.none()
    return slips.filter(table__in=visible_tables(user).values("pk"))


def can_view_slip(user: Any, slip: RatingSlip) -> bool:
    if has_role(user, Role.ACCOUNTANT, Role.AUDITOR, Role.COMPLIANCE):
        return True

    if manages_table(user, slip.table):
        return True
    return Role.DEALER in roles_of(user) and current_assignment(user, slip.table) is not None


@dataclass
class Rated:
    """A slip, its figures (live, or as fixed at close) and its buy-ins."""

    slip: RatingSlip
    figures: rating.Figures
    buy_in_cash: int
    buy_in_markers: int
    stored: SlipRating | None

    @property
    def buy_in(self) -> int:
        return self.buy_in_cash + self.buy_in_markers


def comp_rule() -> rating.CompRule:

    return rating.CompRule(knob("COMP_REINVESTMENT_PERCENT"), knob("COMP_POINTS_PER_UNIT"), 10 ** digits())


# Which settled bets staked something other than their first stake (a double, a split, a raise, a
# pull-back): only those rows of a settlement document are read, by PostgreSQL itself where it can.
_STAKED_SQL = (
    "SELECT s.round_id, jsonb_path_query_array(s.document, '$.bets[*] ? (exists(@.staked))') "
    "FROM {settlement} s WHERE s.round_id = ANY(%s) AND s.document @? '$.bets[*].staked'"
)


def _staked(round_ids: list[int]) -> dict[tuple[int, str], int]:
    """(round, bet id) → what the bet staked in all, where the settlement says (blackjack doubles and
    splits, Caribbean Stud raises, Let It Ride pull-backs); other bets staked their amount."""
    out: dict[tuple[int, str], int] = {}
    if not round_ids:
        return out
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_STAKED_SQL.format(settlement=Settlement._meta.db_table), [round_ids])
            found = [(rid, json.loads(rows) if isinstance(rows, str) else rows) for rid, rows in cursor.fetchall()]
    else:
        found = list(Settlement.objects.filter(round_id__in=round_ids).values_list("round_id", "document__bets"))
    for round_id, rows in found:
        for line in map(Line.of, rows or ()):
            if line.staked_written:
                out[(round_id, line.id)] = line.staked
    return out


@dataclass
class FloorData:
    """The settled rounds of some tables in a time window, and their bets by (table, seat)."""

    rounds: dict[int, list[rating.TableRound]]  # table → rounds, in time order
    bets: dict[tuple[int, int], list[rating.SeatBet]]  # (table, seat) → bets

    def every_bet(self, table_id: int) -> list[rating.SeatBet]:
        return [b for (t, _), bets in self.bets.items() if t == table_id for b in bets]


def _read(rounds_qs: QuerySet[Round], seats: set[int] | None) -> FloorData:
    """Three queries: the rounds, their bets at ``seats`` (every seat when None), what differs in stake."""
    rounds: dict[int, list[rating.TableRound]] = defaultdict(list)
    configs: dict[str, dict[str, Any]] = {}
    table_of: dict[int, int] = {}
    for rid, table_id, at, game, text in (
        rounds_qs.annotate(config_text=Cast("config", TextField()))
        .order_by("betting_closed_at", "id")
        .values_list("id", "table_id", "betting_closed_at", "game", "config_text")
    ):
        config = configs.get(text)
        if config is None:  # the rules are the same round after round: read each distinct text once
            config = configs[text] = json.loads(text)
        # a settled round has closed its betting: ``at`` is never None here
        rounds[table_id].append(rating.TableRound(rid, cast(dt.datetime, at), game, config, text))
        table_of[rid] = table_id
    bets: dict[tuple[int, int], list[rating.SeatBet]] = defaultdict(list)
    if not table_of:
        return FloorData(dict(rounds), {})
    lines = SettlementLine.objects.filter(settlement__round__in=rounds_qs.values("id"))
    if seats is not None:
        lines = lines.filter(bet__seat__in=sorted(seats))
    rows = list(
        lines.values_list("settlement__round_id", "bet__seat", "bet__client_id", "bet__type", "bet__amount", "net")
    )
    staked = _staked(sorted({r[0] for r in rows}))
    for rid, seat, client_id, bet_type, amount, net in rows:
        at_table = table_of.get(rid)
        if at_table is not None:
            bets[(at_table, seat)].append(rating.SeatBet(rid, bet_type, staked.get((rid, client_id), amount), net))
    return FloorData(dict(rounds), dict(bets))


def floor_data(
    table_ids: Iterable[int], since: dt.datetime, until: dt.datetime, *, seats: set[int] | None = None
) -> FloorData:
    """The settled rounds of these tables whose betting closed in [since, until), and their bets."""
    return _read(
        Round.objects.filter(
            table_id__in=sorted(set(table_ids)),
            status=RoundStatus.SETTLED,
            betting_closed_at__gte=since,
            betting_closed_at__lt=until,
        ),
        seats,
    )


@dataclass
class _Held:
    since: dt.datetime
    last_id: int
    rounds: list[rating.TableRound]
    bets: dict[int, list[rating.SeatBet]]  # seat → bets
    used: float


_held: dict[int, _Held] = {}
_held_lock = threading.Lock()
HELD_IDLE_SECONDS = 600


def floor_data_held(table_ids: Iterable[int], since: dt.datetime) -> FloorData:
    """:func:`floor_data` for the dashboard, which asks every few seconds: what was read is kept in this
    process and only rounds settled since are read again. Safe because a settled round, its bets and its
    lines never change, and a table's rounds settle in order (one live round at a time), so every round
    of a table up to the last one read is final."""
    now = time.monotonic()
    table_ids = sorted(set(table_ids))
    with _held_lock:
        for stale in [t for t, h in _held.items() if now - h.used > HELD_IDLE_SECONDS]:
            del _held[stale]
        held = {t: _held[t] for t in table_ids if t in _held and _held[t].since <= since}
    fresh = [t for t in table_ids if t not in held]
    parts = []
    if fresh:
        parts.append(
            _read(
                Round.objects.filter(table_id__in=fresh, status=RoundStatus.SETTLED, betting_closed_at__gte=since), None
            )
        )
    if held:
        newer = Q(pk__in=[])
        for t, h in held.items():
            newer |= Q(table_id=t, id__gt=h.last_id)
        parts.append(_read(Round.objects.filter(newer, status=RoundStatus.SETTLED, betting_closed_at__gte=since), None))
    with _held_lock:
        for t in fresh:
            _held[t] = _Held(since, 0, [], defaultdict(list), now)
        for t in table_ids:
            h = _held[t] if t in _held else held[t]
            for part in parts:
                new_rounds = [r for r in part.rounds.get(t, ()) if r.round_id > h.last_id]
                if not new_rounds:
                    continue
                h.rounds.extend(new_rounds)
                new_ids = {r.round_id for r in new_rounds}
                for (table_id, seat), bets in part.bets.items():
                    if table_id == t:
                        h.bets[seat].extend(b for b in bets if b.round_id in new_ids)
                h.last_id = max(h.last_id, max(new_ids))
            if since > h.since + dt.timedelta(hours=1):  # the earliest open slip closed: let go of the hour
                h.rounds = [r for r in h.rounds if r.at >= since]
                keep = {r.round_id for r in h.rounds}
                h.bets = defaultdict(
                    list, {seat: [b for b in bets if b.round_id in keep] for seat, bets in h.bets.items()}
                )
                h.since = since
            h.used = now
            _held[t] = h
        return FloorData(
            {t: list(_held[t].rounds) for t in table_ids},
            {(t, seat): list(bets) for t in table_ids for seat, bets in _held[t].bets.items()},
        )


def forget_held() -> None:
    """Empty the dashboard's held rounds (tests)."""
    with _held_lock:
        _held.clear()


def resolved_config(table: Table) -> tuple[str, dict[str, Any]] | None:
    try:
        return table.game, get_engine(table.game).resolve_config(table.engine_config())
    except EngineError:
        return None


def rate_slips(
    slips: Iterable[RatingSlip],
    *,
    compute_edges: bool = False,
    now: dt.datetime | None = None,
    held: bool = False,
    measured: dict[int, rating.MeasuredEdge] | None = None,
) -> list[Rated]:
    """Figures for each slip: a closed one's as fixed at close (its :class:`SlipRating`) when it has one;
    otherwise measured now. ``compute_edges``: compute a missing house edge (jobs only; seconds).
    ``held``: read the rounds through the dashboard's per-process store (:func:`floor_data_held`).
    ``measured``: slip → the player's measured skill at the slip's game (given when a slip is rated at close)."""
    slips = list(slips)
    if not slips:
        return []
    now = now or timezone.now()
    ids = [s.pk for s in slips]
    stored = {r.slip_id: r for r in SlipRating.objects.filter(slip_id__in=ids)}
    buy_ins: dict[int, dict[str, int]] = defaultdict(dict)
    for slip_id, method, total in (
        BuyIn.objects.filter(slip_id__in=ids)
        .values("slip_id", "method")
        .annotate(total=Sum("amount"))
        .values_list("slip_id", "method", "total")
    ):
        buy_ins[slip_id][method] = int(total)
    todo = [s for s in slips if s.pk not in stored]
    figures = _measure(todo, compute_edges=compute_edges, now=now, held=held, measured=measured or {})
    out = []
    for slip in slips:
        fig = figures.get(slip.pk) or figures_of_rating(stored[slip.pk])
        out.append(
            Rated(
                slip,
                fig,
                buy_ins[slip.pk].get(BuyInMethod.CASH, 0),
                buy_ins[slip.pk].get(BuyInMethod.MARKER, 0),
                stored.get(slip.pk),
            )
        )
    return out


def _measure(
    slips: list[RatingSlip],
    *,
    compute_edges: bool,
    now: dt.datetime,
    held: bool = False,
    measured: dict[int, rating.MeasuredEdge] | None = None,
) -> dict[int, rating.Figures]:
    if not slips:
        return {}
    ids = [s.pk for s in slips]
    pauses: dict[int, list[tuple[dt.datetime, dt.datetime | None]]] = defaultdict(list)
    for slip_id, start, stop in SlipPause.objects.filter(slip_id__in=ids).values_list(
        "slip_id", "started_at", "ended_at"
    ):
        pauses[slip_id].append((start, stop))
    overlaps = _overlaps(slips, now)
    rule = comp_rule()
    factor = knob("RATING_AVERAGE_BET_FACTOR_PERCENT")

    seen: dict[tuple[str, int], dict[str, Any] | None] = {}

    def edges_of(game: str, config: dict[str, Any]) -> dict[str, Any] | None:
        # rounds with the same rules share one config object (floor_data): look each up once
        key = (game, id(config))
        if key not in seen:
            seen[key] = edges_for(game, config, compute=compute_edges)
        return seen[key]

    since = min(s.opened_at for s in slips)
    if held:
        data = floor_data_held({s.table_id for s in slips}, since)
    else:
        # each slip's own table and time: a page of slips months apart must not read the months between
        windows = Q(pk__in=[])
        for s in slips:
            windows |= Q(
                table_id=s.table_id,
                betting_closed_at__gte=s.opened_at,
                betting_closed_at__lt=(s.closed_at or now) + dt.timedelta(microseconds=1),
            )
        data = _read(Round.objects.filter(windows, status=RoundStatus.SETTLED), {s.seat for s in slips})
    indexes = {table_id: rating.RoundIndex(rounds) for table_id, rounds in data.rounds.items()}
    out: dict[int, rating.Figures] = {}
    for slip in slips:
        end = slip.closed_at or now
        common: dict[str, Any] = {
            "opened_at": slip.opened_at,
            "end": end,
            "pauses": pauses[slip.pk],
            "table_rounds": indexes.get(slip.table_id, ()),
            "edges_of": edges_of,
            "rule": rule,
            "factor_percent": factor,
            "overlaps": overlaps.get(slip.pk, ()),
            "estimated_average_bet": slip.estimated_average_bet,
        }
        fig = rating.figures(
            seat_bets=data.bets.get((slip.table_id, slip.seat), ()),
            measured_edge=(measured or {}).get(slip.pk),
            **common,
        )
        if fig.average_bet_source == "estimate" and fig.table_decisions and not fig.decisions:
            # no bets recorded at the seat: the estimate's edge is that of what the table's players bet
            every = floor_data([slip.table_id], slip.opened_at, end + dt.timedelta(microseconds=1))
            fig = rating.figures(
                seat_bets=(),
                table_bets=every.every_bet(slip.table_id),
                fallback_config=resolved_config(slip.table),
                **common,
            )
        out[slip.pk] = fig
    return out


def _overlaps(slips: list[RatingSlip], now: dt.datetime) -> dict[int, list[int]]:
    """Slip → the same player's other slips whose time overlaps it (at any table or seat)."""
    mine = [s for s in slips if s.player_id is not None]
    if not mine:
        return {}
    since = min(s.opened_at for s in mine)
    until = max(s.closed_at or now for s in mine)
    others: dict[int | None, list[tuple[int, dt.datetime, dt.datetime]]] = defaultdict(list)
    for pk, player_id, opened, closed in (
        RatingSlip.objects.filter(player_id__in={s.player_id for s in mine}, opened_at__lt=until)
        .filter(Q(closed_at__isnull=True) | Q(closed_at__gt=since))
        .values_list("pk", "player_id", "opened_at", "closed_at")
    ):
        others[player_id].append((pk, opened, closed or now))
    out: dict[int, list[int]] = {}
    for slip in mine:
        end = slip.closed_at or now
        found = [
            pk
            for pk, opened, closed in others[slip.player_id]
            if pk != slip.pk and opened < end and closed > slip.opened_at
        ]
        if found:
            out[slip.pk] = sorted(found)
    return out


def figures_of_rating(r: SlipRating) -> rating.Figures:
    from fractions import Fraction

    return rating.Figures(
        active_us=r.active_seconds * 1_000_000,
        paused_us=r.paused_seconds * 1_000_000,
        decisions=r.decisions,
        table_decisions=r.table_decisions,
        handle=r.handle,
        covered_handle=int(r.data.get("covered_handle", 0)),
        measured_average_bet=r.measured_average_bet,
        estimated_average_bet=r.estimated_average_bet,
        average_bet=r.average_bet,
        average_bet_source=r.average_bet_source,
        decisions_per_hour=r.decisions_per_hour,
        house_edge=Fraction(r.house_edge) if r.house_edge else None,
        theoretical_win=r.theoretical_win,
        actual_win=r.actual_win,
        comp_value=r.comp_value,
        comp_points=r.comp_points,
        flags=list(r.flags),
        by_type=list(r.data.get("by_type", [])),
        overlaps=list(r.data.get("overlaps", [])),
        paused_bets=int(r.data.get("paused_bets", 0)),
        skill=r.data.get("skill"),
    )


# -- the pit dashboard -------------------------------------------------------------------------------


def live_slips(tables: Iterable[Table]) -> QuerySet[RatingSlip]:
    return (
        RatingSlip.objects.filter(table_id__in=[t.pk for t in tables], status__in=LIVE_SLIP_STATUSES)
        .select_related("player", "table")
        .order_by("table__code", "seat")
    )


def pit_panels(tables: Iterable[Table], shift: Any, *, top: int = 10) -> dict[str, Any]:
    """Who is playing, the open slips with their figures so far, the day's top theoretical win."""
    tables = list(tables)
    live = rate_slips(live_slips(tables), held=True)
    playing = [r for r in live if r.slip.player_id is not None]
    top_theo: list[dict[str, Any]] = []
    if shift is not None:
        totals: dict[Any, dict[str, Any]] = {}
        closed = SlipRating.objects.filter(
            slip__table_id__in=[t.pk for t in tables], slip__shift__gaming_date=shift.gaming_date
        ).select_related("slip__player")
        for r in closed:
            _add_theo(totals, r.slip, r.theoretical_win, r.active_seconds)
        for rated in live:
            if rated.figures.theoretical_win is not None:
                _add_theo(totals, rated.slip, rated.figures.theoretical_win, rated.figures.active_seconds)
        top_theo = sorted((t for t in totals.values() if t["theo"] > 0), key=lambda t: (-t["theo"], t["label"]))[:top]
    return {
        "playing": playing,
        "open_slips": live,
        "top_theo": top_theo,
        "gaming_date": shift.gaming_date if shift is not None else None,
    }


def _add_theo(totals: dict[Any, dict[str, Any]], slip: RatingSlip, theo: int, seconds: int) -> None:
    key = ("player", slip.player_id) if slip.player_id else ("slip", slip.pk)
    row = totals.setdefault(
        key, {"label": slip.player_label, "player": slip.player_id, "theo": 0, "seconds": 0, "slips": 0}
    )
    row["theo"] += theo
    row["seconds"] += seconds
    row["slips"] += 1


# -- the cash transaction log ------------------------------------------------------------------------------


def cash_transactions(
    *, gaming_date: dt.date | None = None, player_id: int | None = None, direction: str = ""
) -> QuerySet[CashTransaction]:
    txns = CashTransaction.objects.select_related("player", "table", "recorded_by", "slip__player")
    if gaming_date is not None:
        txns = txns.filter(gaming_date=gaming_date)
    if player_id is not None:
        txns = txns.filter(Q(player_id=player_id) | Q(player__isnull=True, slip__player_id=player_id))
    if direction:
        txns = txns.filter(direction=direction)
    return txns


def player_day_total(*, player_id: int, gaming_date: dt.date, direction: str) -> tuple[int, int]:
    """A player's cash in (or out) in a gaming day, across tables and the cage, with the anonymous
    buy-ins of slips later identified as theirs: (total, number of transactions)."""
    agg = cash_transactions(gaming_date=gaming_date, player_id=player_id, direction=direction).aggregate(
        total=Sum("amount"), n=Count("id")
    )
    return int(agg["total"] or 0), int(agg["n"])


def daily_totals(*, gaming_date: dt.date) -> list[dict[str, Any]]:
    """Per player (or anonymous slip / description) and direction: the day's total and count."""
    rows: dict[tuple[Any, str], dict[str, Any]] = {}
    for t in cash_transactions(gaming_date=gaming_date):
        player = t.player or (t.slip.player if t.slip is not None else None)
        who = ("player", player.pk) if player else ("slip", t.slip_id) if t.slip_id else ("txn", t.pk)
        row = rows.setdefault(
            (who, t.direction),
            {
                "player": player.pk if player else None,
                "name": player.name if player else (t.description or "anonymous"),
                "card_number": player.card_number if player else None,
                "direction": t.direction,
                "total": 0,
                "transactions": 0,
            },
        )
        row["total"] += t.amount
        row["transactions"] += 1
    return sorted(rows.values(), key=lambda r: (-r["total"], r["name"]))


def report_lines() -> QuerySet[CashTransactionReport]:
    return CashTransactionReport.objects.select_related("player", "crossing__table", "alert")


SLIP_STATUSES = [s.value for s in SlipStatus]
