"""Reads for the screens: the dealer's table, the pit manager's floor, a table's rounds, a round's trail.

Selectors only (no writes). Money stays in integer minor units; the templates format it.
Win and hold come from accounting's figures for a table's shift: the count win and hold of the
drop once the shift's counts are in, and until then the rounds' win (Σ settlement house net)
with hold as a share of the handle — the screens say which one they show.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db.models import Count, Q, QuerySet, Sum
from django.db.models.functions import TruncHour
from django.utils import timezone

from accounting.money import hold_fraction
from accounting.selectors import table_shift_figures_many, visible_alerts
from casino.audit.models import AuditRecord
from players.selectors import pit_panels
from tables.access import can_view_table
from tables.engines.errors import EngineError
from tables.engines.registry import get_engine
from tables.models import (
    LIVE_STATUSES,
    Assignment,
    Bet,
    Round,
    RoundEvent,
    RoundStatus,
    Settlement,
    Shift,
    ShiftStatus,
    Table,
)

TRIANGLE_DECK_GAMES = frozenset({"carousel", "pony", "merry_go_round"})


# -- the dealer's table ----------------------------------------------------------------------


def dealer_assignment(user: Any) -> Assignment | None:
    """The dealer's assignment now (the table their screen shows), if any."""
    now = timezone.now()
    return (
        Assignment.objects.filter(
            dealer=user, starts_at__lte=now, ends_at__gt=now, relieved_at__isnull=True, shift__status=ShiftStatus.OPEN
        )
        .select_related("table__pit", "shift")
        .order_by("-starts_at")
        .first()
    )


def live_round(table: Table) -> Round | None:
    return table.rounds.filter(status__in=LIVE_STATUSES).select_related("table", "dealer").first()


def last_round(table: Table) -> Round | None:
    return table.rounds.select_related("table", "dealer").order_by("-number").first()


def _placed_before_the_deal(engine: Any) -> dict[str, bool]:
    """Which bet types the engine takes in the round's bets, before the deal (not only as events of the
    deal, like a pot bet, a Carousel count or a horse's stake): a lone bet of the type is read, and only
    its own fields or amount may be at fault, not its type or its being placed now. Types that only make
    a round together (a chemin de fer bank and its punto) are read together."""

    def fault(*types: str) -> str | None:
        bets = [{"id": f"b{i}", "seat": i, "type": t, "amount": 1} for i, t in enumerate(types, start=1)]
        try:
            engine.load({"game": engine.name, "config": {}, "bets": bets, "events": []})
        except EngineError as exc:
            return exc.field or "bets"
        return None

    alone = {name: fault(name) for name in engine.bet_types}
    placed = {name: field not in ("bets", "bets[0].type") for name, field in alone.items()}
    together = [name for name, field in alone.items() if field == "bets"]
    if len(together) > 1 and fault(*together) is None:
        placed.update(dict.fromkeys(together, True))
    return placed


def layout_bets(game: str) -> list[dict[str, Any]]:
    """The bets the dealer's screen offers, with the fields each needs and how each is tapped (its kind),
    from the engine's description; ``before_deal`` says whether it is placed before the deal."""
    engine = get_engine(game)
    before_deal = _placed_before_the_deal(engine)
    bets = []
    for name, spec in engine.describe()["bet_types"].items():
        required = set(spec["required"])
        fields = [{**f, "required": f["name"] in required} for f in spec.get("fields", [])]
        bets.append({"type": name, "label": spec.get("label") or name.replace("_", " ").capitalize(),
                     "description": spec["description"], "required": spec["required"], "fields": fields,
                     "limits_apply": spec.get("limits_apply", True),
                     "before_deal": before_deal[name]})
    return bets


def deck_of(game: str) -> str:
    return "triangle" if game in TRIANGLE_DECK_GAMES else "standard"


# -- the pit manager's floor ---------------------------------------------------------------------


@dataclass
class TableRow:
    table: Table
    dealer: str
    live: Round | None
    rounds: int
    handle: int
    win: int
    win_basis: str  # "count" (the shift's counts are in) or "rounds" (Σ settlement house net)
    drop: int | None
    hold: Fraction | None
    hold_basis: str  # "drop" or "handle"

    @property
    def next_say(self) -> str:
        state = (self.live.state or {}) if self.live else {}
        return str((state.get("next") or {}).get("say", ""))


def floor_rows(tables: Iterable[Table], shift: Shift | None) -> list[TableRow]:
    now = timezone.now()
    tables = list(tables)
    dealers = dict(
        Assignment.objects.filter(
            table__in=tables,
            starts_at__lte=now,
            ends_at__gt=now,
            relieved_at__isnull=True,
            shift__status=ShiftStatus.OPEN,
        )
        .order_by("table_id", "-starts_at")
        .values_list("table_id", "dealer__username")
    )
    live = {r.table_id: r for r in Round.objects.filter(table__in=tables, status__in=LIVE_STATUSES)}
    figures = table_shift_figures_many(tables, shift) if shift is not None else {}  # one query per kind, not per table
    rows = []
    for table in tables:
        if shift is None:
            rows.append(
                TableRow(table, dealers.get(table.pk, ""), live.get(table.pk), 0, 0, 0, "rounds", None, None, "handle")
            )
            continue
        fig = figures[table.pk]
        count_win = fig.count_win
        if count_win is not None and fig.drop:
            win, win_basis, hold, hold_basis = count_win, "count", fig.hold, "drop"
        else:
            win, win_basis = fig.rounds_win, "rounds"
            hold, hold_basis = hold_fraction(fig.rounds_win, fig.handle), "handle"
        rows.append(
            TableRow(
                table,
                dealers.get(table.pk, ""),
                live.get(table.pk),
                fig.rounds,
                fig.handle,
                win,
                win_basis,
                fig.drop,
                hold,
                hold_basis,
            )
        )
    return rows


def _hold_pct(win: int, handle: int) -> float | None:
    hold = hold_fraction(win, handle)
    return None if hold is None else round(float(hold * 100), 2)


def win_by_hour(tables: Iterable[Table], shift: Shift | None) -> list[dict[str, Any]]:
    """Σ rounds' win and handle per clock hour of settlement in the shift (hold of handle)."""
    if shift is None:
        return []
    tz = timezone.get_current_timezone()
    rows = (
        Settlement.objects.filter(round__table__in=list(tables), round__shift=shift)
        .annotate(hour=TruncHour("settled_at", tzinfo=tz))
        .values("hour")
        .annotate(win=Sum("house_net"), handle=Sum("handle"), n=Count("id"))
        .order_by("hour")
    )
    by_hour = {r["hour"]: r for r in rows}
    start = timezone.localtime(shift.starts_at, tz).replace(minute=0, second=0, microsecond=0)
    end = min(timezone.localtime(shift.ends_at, tz), timezone.localtime(timezone.now(), tz))
    hours: list[dt.datetime] = []
    at = start
    while at <= end and len(hours) < 48:
        hours.append(at)
        at += dt.timedelta(hours=1)
    hours += [h for h in by_hour if h not in hours]
    out = []
    for hour in sorted(hours):
        r = by_hour.get(hour, {"win": 0, "handle": 0, "n": 0})
        win, handle = int(r["win"] or 0), int(r["handle"] or 0)
        out.append(
            {
                "hour": hour.strftime("%H:00"),
                "win": win,
                "handle": handle,
                "rounds": r["n"],
                "hold_pct": _hold_pct(win, handle),
            }
        )
    return out


def win_by_table(rows: Iterable[TableRow]) -> list[dict[str, Any]]:
    return [
        {
            "table": r.table.code,
            "win": r.win,
            "handle": r.handle,
            "rounds": r.rounds,
            "hold_pct": None if r.hold is None else round(float(r.hold * 100), 2),
            "hold_basis": r.hold_basis,
        }
        for r in rows
    ]


def big_bets(tables: Iterable[Table], shift: Shift | None, *, limit: int = 12) -> list[Bet]:
    """The latest bets at or above ``CROUPIER['LARGE_BET']`` in these tables' shift."""
    threshold = settings.CROUPIER["LARGE_BET"]
    bets = Bet.objects.filter(round__table__in=list(tables), amount__gte=threshold, withdrawal__isnull=True)
    if shift is not None:
        bets = bets.filter(round__shift=shift)
    return list(bets.select_related("round__table", "placed_by").order_by("-placed_at", "-id")[:limit])


def open_alerts(user: Any, tables: Iterable[Table], *, limit: int = 12) -> list[Any]:
    tables = list(tables)
    alerts = visible_alerts(user).filter(acknowledged_at__isnull=True)
    alerts = alerts.filter(Q(table__isnull=True) | Q(table__in=tables))
    return list(alerts.order_by("-created_at", "-id")[:limit])


def player_panels(tables: Iterable[Table], shift: Shift | None) -> dict[str, Any]:
    """Who is playing, the open rating slips and the day's top theoretical win (players/selectors.py)."""
    return pit_panels(tables, shift)


# -- a table's rounds and a round's trail --------------------------------------------------------


def visible_table(user: Any, code: str) -> Table | None:
    table = Table.objects.select_related("pit").filter(code=code).first()
    return table if table is not None and can_view_table(user, table) else None


def round_history(table: Table) -> QuerySet[Round]:
    return table.rounds.select_related("dealer", "settlement").order_by("-number")


@dataclass
class TrailStep:
    event: RoundEvent
    state: dict[str, Any] | None  # the engine's answer right after this event (None for an undone one)
    error: str = ""


@dataclass
class RoundTrail:
    round: Round
    bets: list[Bet]
    lines: dict[int, Any]
    steps: list[TrailStep]
    audit: list[AuditRecord] = field(default_factory=list)


def round_trail(rnd: Round) -> RoundTrail:
    """Every event of the round in order (undone ones too), the engine's state after each, and its audit."""
    engine = get_engine(rnd.game)
    bets = list(rnd.bets.select_related("placed_by", "withdrawal__withdrawn_by").order_by("id"))
    doc_bets = [b.as_document() for b in bets if b.event_index is None and not hasattr(b, "withdrawal")]
    lines = {}
    if rnd.status == RoundStatus.SETTLED and hasattr(rnd, "settlement"):
        lines = {line.bet_id: line for line in rnd.settlement.lines.all()}
    steps: list[TrailStep] = []
    kept: list[dict[str, Any]] = []
    events = rnd.events.select_related("posted_by", "undone_by", "undo_approved_by").order_by("seq", "id")
    for ev in events:
        if ev.undone_at is not None:
            steps.append(TrailStep(ev, None))
            continue
        kept.append(ev.payload)
        try:
            state = engine.play(
                engine.load({"game": rnd.game, "config": rnd.config, "bets": doc_bets, "events": list(kept)})
            ).to_json()
            steps.append(TrailStep(ev, state))
        except EngineError as exc:  # a recorded round the engine now refuses: show why, do not fail the page
            steps.append(TrailStep(ev, None, exc.message))
    bet_ids = [str(b.pk) for b in bets]
    audit = list(
        AuditRecord.objects.filter(
            Q(object_type="round", object_id=str(rnd.pk)) | Q(object_type="bet", object_id__in=bet_ids)
        ).order_by("created_at", "id")
    )
    return RoundTrail(rnd, bets, lines, steps, audit)
