"""Reads for the screens: the dealer's table, the pit manager's floor, a table's rounds, a round's trail.

Selectors only (no writes). Money stays in integer minor units; the templates format it. Every
figure is accounting's (``accounting.figures``), the tables' figures read from their running rows (one
per table: the floor costs the same whatever the history), and each part of a screen uses one basis, named
on it: the tiles and both charts show the rounds win and the statistical hold (rounds win ÷
handle), live as rounds settle; the "counts" table shows, per table once its counts are in, the
count win and the hold of the drop beside the rounds win, the pool change, the marker payments
and the variance they explain.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Concat
from django.utils import timezone

from accounting import figures
from accounting.labels import reconciliation_label
from accounting.models import BigBet, Reconciliation, Slip, TableHourFigures, TableShiftClose
from accounting.money import percent_decimal
from accounting.selectors import TableShiftFigures, table_shift_figures_many, visible_alerts
from casino.audit.models import AuditRecord
from casino.core.roles import Role, roles_of
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
    Shift,
    ShiftStatus,
    Table,
)
from tables.protection.betting import DEFAULT_ALPHA
from tables.protection.dealers import dealer_profiles
from tables.selectors import current_shift, current_shoe, dealer_activity, pit_tables, shoe_decks, worded_state

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


def layout_bets(game: str) -> list[dict[str, Any]]:
    """The bets the dealer's screen offers, with the fields each needs and how each is tapped (its kind),
    from the engine's description; ``before_deal`` says whether it is placed before the deal."""
    engine = get_engine(game)
    bets = []
    for name, spec in engine.describe()["bet_types"].items():
        required = set(spec["required"])
        fields = [{**f, "required": f["name"] in required} for f in spec.get("fields", [])]
        bets.append({"type": name, "label": spec.get("label") or name.replace("_", " ").capitalize(),
                     "description": spec["description"], "required": spec["required"], "fields": fields,
                     "limits_apply": spec.get("limits_apply", True),
                     "before_deal": engine.profile.placed_before_deal(name)})
    return bets


def decks_of(table: Table) -> int:
    """How many packs the table's shoe holds (so how often one card can come again): its ``decks`` setting,
    1 where the game has none."""
    try:
        decks = get_engine(table.game).resolve_config(table.engine_config()).get("decks")
    except EngineError:
        return 1
    return decks if isinstance(decks, int) and decks > 0 else 1


def shoe_of(table: Table) -> dict[str, int | None] | None:
    """The shoe the dealer screen shows at a shoe game (``{"number": n}``, None before the first is marked);
    None at the other games."""
    try:
        if shoe_decks(table) is None:
            return None
    except EngineError:
        return None
    shoe = current_shoe(table)
    return {"number": shoe.number if shoe is not None else None}


def deck_of(game: str) -> str:
    """The deck the game's cards come from (the dealer screen's card pad), as its engine declares it."""
    return get_engine(game).profile.deck.value


# -- the pit manager's floor ---------------------------------------------------------------------


def recent_shifts(limit: int = 9) -> list[Shift]:
    """The shifts a pit manager may look back on (three days of three shifts), newest first: a closed
    shift stays on the screen, with its counts, closes and reconciliation."""
    return list(Shift.objects.select_related("shift_type").filter(starts_at__lte=timezone.now())
                .order_by("-starts_at")[:limit])


def chosen_shift(shift_id: Any, recent: list[Shift] | None = None) -> Shift | None:
    """The shift asked for (``?shift=<id>``), else the one open now, else the latest that started.

    ``recent`` (:func:`recent_shifts`, newest first), when the caller has it, answers without another query
    whenever the shift is among them: the shift open now is the newest open one that started and has not
    ended (what :func:`tables.selectors.current_shift` asks the database first)."""
    recent = recent_shifts() if recent is None else recent
    if shift_id not in (None, "") and str(shift_id).isdigit():
        pk = int(str(shift_id))
        shift = next((s for s in recent if s.pk == pk), None) or \
            Shift.objects.select_related("shift_type").filter(pk=pk).first()
        if shift is not None:
            return shift
    now = timezone.now()
    open_now = next((s for s in recent if s.status == ShiftStatus.OPEN and s.ends_at > now), None)
    return open_now or current_shift() or (recent[0] if recent else None)


@dataclass
class TableRow:
    """A tile: the table, who deals, what is in play, and its rounds' figures this shift."""

    table: Table
    dealer: str
    live: Round | None
    figures: TableShiftFigures | None

    @property
    def rounds(self) -> int:
        return self.figures.rounds if self.figures else 0

    @property
    def handle(self) -> int:
        return self.figures.handle if self.figures else 0

    @property
    def big_bets(self) -> int:
        return self.figures.big_bets if self.figures else 0

    @property
    def win(self) -> int:
        """The rounds win (every tile and chart on the floor has this one basis)."""
        return self.figures.rounds_win if self.figures else 0

    @property
    def hold(self) -> Fraction | None:
        """The statistical hold: rounds win ÷ handle."""
        return self.figures.statistical_hold if self.figures else None

    win_basis = "rounds"
    hold_basis = "handle"

    @property
    def next_step(self) -> dict[str, Any]:
        """The live round's step due (its ``say`` and ``message``), or {} when nothing is due."""
        state = (worded_state(self.live) or {}) if self.live else {}
        step = state.get("next")
        return step if isinstance(step, dict) and step.get("say") else {}


def floor_rows(tables: Iterable[Table], shift: Shift | None) -> list[TableRow]:
    now = timezone.now()
    tables = list(tables)
    ids = [t.pk for t in tables]
    if shift is not None and shift.status == ShiftStatus.CLOSED:  # who dealt it
        on_duty = Assignment.objects.filter(table_id__in=ids, shift=shift)
    else:  # who deals now
        on_duty = Assignment.objects.filter(
            table_id__in=ids, starts_at__lte=now, ends_at__gt=now, relieved_at__isnull=True,
            shift__status=ShiftStatus.OPEN,
        )
    # the latest assignment of each table wins (values_list keeps the last of each key)
    dealers = dict(on_duty.order_by("table_id", "starts_at").values_list("table_id", "dealer__username"))
    # the rounds in play of this shift only: a closed shift's tiles never show today's live round
    live_rounds = Round.objects.filter(table_id__in=ids, status__in=LIVE_STATUSES)
    in_play = list((live_rounds.filter(shift=shift) if shift is not None else live_rounds.none()).order_by("number"))
    live = {r.table_id: r for r in in_play}
    # one query per kind, not per table; the rounds in play are the ones just read
    found = table_shift_figures_many(tables, shift, live_rounds=in_play) if shift is not None else {}
    return [TableRow(t, dealers.get(t.pk, ""), live.get(t.pk), found.get(t.pk)) for t in tables]


@dataclass
class CountRow:
    """A table whose counts are in: the count's figures beside the rounds', and what explains the variance."""

    table: Table
    figures: TableShiftFigures
    closed: bool
    reconciliation: str  # "balanced", "variance", or "" when not run

    @property
    def hold(self) -> Fraction | None:
        return self.figures.hold


def count_rows(rows: Iterable[TableRow], shift: Shift | None) -> list[CountRow]:
    """The tiles' tables whose opener, closer and soft count are recorded (closed or about to be)."""
    if shift is None:
        return []
    counted = [r for r in rows if r.figures is not None and r.figures.count_win is not None]
    if not counted:  # no table's counts are in yet (most of a shift)
        return []
    ids = [r.table.pk for r in counted]
    closed = set(TableShiftClose.objects.standing().filter(shift=shift, table_id__in=ids).values_list("table_id", flat=True))
    status = dict(Reconciliation.objects.filter(shift=shift, table_id__in=ids).values_list("table_id", "status"))
    return [CountRow(r.table, r.figures, r.table.pk in closed, reconciliation_label(status.get(r.table.pk, "")))
            for r in counted if r.figures is not None]


def _pct(value: Fraction | None) -> float | None:
    """The chart's percentage: the tile's, rounded the same way (``accounting.money.percent_decimal``)."""
    exact = percent_decimal(value)
    return None if exact is None else float(exact)


def win_by_hour(tables: Iterable[Table], shift: Shift | None) -> list[dict[str, Any]]:
    """The rounds win and handle per clock hour of settlement in the shift (statistical hold)."""
    if shift is None:
        return []
    tz = timezone.get_default_timezone()  # the hours the running rows keep (accounting.figures.hour_of)
    by_hour: dict[dt.datetime, figures.RoundFigures] = {}
    for row in TableHourFigures.objects.filter(shift=shift, table_id__in=[t.pk for t in tables]).values(
            "hour", *figures.HOUR_SUMS):
        found = figures.RoundFigures(rounds=row["rounds"], handle=row["handle"], rounds_win=row["rounds_win"])
        hour = timezone.localtime(row["hour"], tz)
        by_hour[hour] = by_hour.get(hour, figures.RoundFigures()) + found
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
        r = by_hour.get(hour, figures.RoundFigures())
        out.append(
            {
                "hour": hour.strftime("%H:00"),
                "win": r.rounds_win,
                "handle": r.handle,
                "rounds": r.rounds,
                "hold_pct": _pct(r.statistical_hold),
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
            "hold_pct": _pct(r.hold),
            "hold_basis": r.hold_basis,
        }
        for r in rows
    ]


def big_bets(tables: Iterable[Table], shift: Shift | None, *, limit: int = 12) -> list[Bet]:
    """The latest bets at or above ``CROUPIER['LARGE_BET']`` in these tables' shift, not taken back, from
    the shift's list of big bets (a handful of rows, whatever the shift's bets); how many there are is
    each table's running ``big_bets`` (:func:`big_bets_count`)."""
    if shift is None:
        return []
    listed = BigBet.objects.filter(shift=shift, table_id__in=[t.pk for t in tables], bet__withdrawal__isnull=True)
    # what the list shows: the table and round, the seat, the bet, when and how much (not the rounds' documents)
    shown = ("bet__id", "bet__seat", "bet__type", "bet__amount", "bet__placed_at", "bet__round__id",
             "bet__round__number", "bet__round__table__id", "bet__round__table__code")
    return [big.bet for big in listed.select_related("bet__round__table").only(*shown)
            .order_by("-placed_at", "-bet_id")[:limit]]


def big_bets_count(rows: Iterable[TableRow]) -> int:
    """The big bets of the tiles' tables this shift, from their running figures."""
    return sum(r.big_bets for r in rows)


def open_alerts(user: Any, tables: Iterable[Table], *, limit: int = 12) -> list[Any]:
    ids = [t.pk for t in tables]
    alerts = visible_alerts(user).filter(acknowledged_at__isnull=True)
    alerts = alerts.filter(Q(table__isnull=True) | Q(table_id__in=ids)).select_related(None).select_related("table")
    return list(alerts.order_by("-created_at", "-id")[:limit])


def player_panels(tables: Iterable[Table], shift: Shift | None) -> dict[str, Any]:
    """Who is playing, the open rating slips and the day's top theoretical win (players/selectors.py)."""
    return pit_panels(tables, shift)


# How long a live part stays valid at most when nothing audited changes: what moves with the clock alone (an
# assignment's hours, the shift open now, a late background job) shows within this many seconds.
LIVE_VALIDATOR_SECONDS = 30


def live_etag(user: Any, shift_id: Any, language: str, *, time_zone: str = "") -> str:
    """The live part's validator (an HTTP ETag), in one indexed statement: the head (latest seq) of the audit
    chain of each table the pit manager sees and of the casino's chain (AuditRecord: ``table:<code>`` for a
    table's rounds, bets, events and settlements, and so for its running figures, which change in the same
    transactions; ``casino`` for the rest: alerts, assignments, counts, closes, slips, shifts), each the newest
    entry of the ``(chain, seq)`` unique index. Every change the live part shows is audited, so an unchanged
    validator means an unchanged live part; the user, their roles and language, the time zone, the shift asked
    for and the clock's current ``LIVE_VALIDATOR_SECONDS`` are in it too (what changes with time alone)."""
    table_head = (AuditRecord.objects.filter(chain=Concat(Value("table:"), OuterRef("code")))
                  .order_by("-seq").values("seq")[:1])
    casino_head = AuditRecord.objects.filter(chain="casino").order_by("-seq").values("seq")[:1]
    heads = (pit_tables(user).select_related(None).order_by("pk")
             .annotate(head=Subquery(table_head), casino=Subquery(casino_head))
             .values_list("code", "head", "casino"))
    roles = ",".join(sorted(str(role) for role in roles_of(user)))
    bucket = int(timezone.now().timestamp() // LIVE_VALIDATOR_SECONDS)
    key = f"{user.pk}|{roles}|{language}|{time_zone}|{shift_id or ''}|{bucket}|{list(heads)}"
    return f'W/"{hashlib.sha256(key.encode()).hexdigest()[:32]}"'


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
    bet_specs: dict[str, Any] = field(default_factory=dict)  # the engine's bet types: labels and fields


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
    return RoundTrail(rnd, bets, lines, steps, audit, engine.describe()["bet_types"])


# -- the pit manager's paperwork: voids, alerts, dealers, chips -----------------------------------


def pending_voids(tables: Iterable[Table]) -> list[Round]:
    """Live rounds at these tables with a void asked for and not yet decided, oldest request first."""
    return list(
        Round.objects.filter(table__in=list(tables), status__in=LIVE_STATUSES, void_requested_by__isnull=False,
                             void_refused_at__isnull=True)
        .select_related("table__pit", "dealer", "void_requested_by")
        .order_by("void_requested_at", "id")
    )


def decided_voids(tables: Iterable[Table], *, limit: int = 12) -> list[Round]:
    """The latest voids decided at these tables: approved (the round voided) or refused."""
    rounds = Round.objects.filter(table__in=list(tables), void_requested_by__isnull=False).filter(
        Q(status=RoundStatus.VOIDED) | Q(void_refused_at__isnull=False))
    return list(rounds.select_related("table", "void_requested_by", "voided_by", "void_refused_by")
                .order_by("-void_requested_at", "-id")[:limit])


@dataclass
class PitAlerts:
    open: Any  # querysets: the screen pages them
    acknowledged: Any
    resolved: list[Any]


def pit_alerts(user: Any, tables: Iterable[Table], *, resolved_limit: int = 20) -> PitAlerts:
    """The alerts of these tables and the casino's: open, acknowledged and not yet resolved, lately resolved."""
    alerts = visible_alerts(user).filter(Q(table__isnull=True) | Q(table__in=list(tables))).select_related(
        "resolved_by")
    return PitAlerts(
        # querysets: the screen pages them (a busy night raises hundreds)
        open=alerts.filter(acknowledged_at__isnull=True).order_by("-created_at", "-id"),
        acknowledged=alerts.filter(acknowledged_at__isnull=False, resolved_at__isnull=True)
        .order_by("-acknowledged_at", "-id"),
        resolved=list(alerts.filter(resolved_at__isnull=False).order_by("-resolved_at", "-id")[:resolved_limit]),
    )


def on_duty(table: Table) -> Assignment | None:
    """The table's dealer now (its latest assignment under way)."""
    now = timezone.now()
    return (Assignment.objects.filter(table=table, starts_at__lte=now, ends_at__gt=now, relieved_at__isnull=True,
                                      shift__status=ShiftStatus.OPEN)
            .select_related("dealer", "shift").order_by("-starts_at").first())


def pit_supervisors(table: Table, *, besides: Any = None) -> list[dict[str, Any]]:
    """The pit managers of the table's pit who may approve at the dealer's screen (an undo), by the name
    they sign with, and whether they have a signing PIN to approve with; never ``besides`` (who asks)."""
    managers = table.pit.managers.filter(is_active=True, groups__name=Role.PIT_MANAGER.value)
    if getattr(besides, "pk", None) is not None:
        managers = managers.exclude(pk=besides.pk)
    managers = managers.select_related("staff").order_by("username").distinct()
    out = []
    for user in managers:
        profile = getattr(user, "staff", None)
        out.append({"username": user.get_username(),
                    "name": (profile.display_name if profile is not None and profile.display_name else user.get_username()),
                    "pin": bool(profile is not None and profile.pin_hash)})
    return out


def free_dealers() -> list[Any]:
    """Active dealers with no table now (on a break or not yet placed), by username."""
    from django.contrib.auth import get_user_model

    now = timezone.now()
    busy = Assignment.objects.filter(starts_at__lte=now, ends_at__gt=now, relieved_at__isnull=True,
                                     shift__status=ShiftStatus.OPEN).values("dealer_id")
    return list(get_user_model().objects.filter(groups__name="dealer", is_active=True).exclude(pk__in=busy)
                .order_by("username").distinct())


def table_assignments(table: Table, shift: Shift | None) -> list[Assignment]:
    """Who dealt at the table this shift, latest first (relieved ones too)."""
    if shift is None:
        return []
    return list(Assignment.objects.filter(table=table, shift=shift).select_related("dealer", "assigned_by")
                .order_by("-starts_at", "-id"))


def table_slips(table: Table, shift: Shift | None) -> list[Any]:
    """The table's fills and credits this shift, latest first."""

    if shift is None:
        return []
    return list(Slip.objects.filter(table=table, shift=shift).select_related("requested_by")
                .order_by("-requested_at", "-id"))


def waiting_for(user: Any) -> dict[str, int]:
    """The voids to decide at the pit manager's tables (not their own requests) and their new alerts."""
    tables = list(pit_tables(user))
    voids = Round.objects.filter(table__in=tables, status__in=LIVE_STATUSES, void_requested_by__isnull=False,
                                 void_refused_at__isnull=True).exclude(void_requested_by=user).count()
    alerts = visible_alerts(user).filter(acknowledged_at__isnull=True).filter(
        Q(table__isnull=True) | Q(table__in=tables)).count()
    return {"voids": voids, "alerts": alerts}


def dealer_protection(tables: Iterable[Table], *, hours: int = 24) -> list[dict[str, Any]]:
    """Each dealer of these tables over the last ``hours``, by game, against the other dealers of the same game
    (docs/game_protection.md, "Dealers"): pace, undos, voids, corrections and withdrawn bets per 100 rounds, and
    what stands out at the flag level."""
    now = timezone.now()
    found = dealer_activity(list(tables), since=now - dt.timedelta(hours=hours), until=now)
    out = []
    for game, team in sorted(found.items()):
        for profile in dealer_profiles(team):
            out.append({"game": game, "profile": profile, "flags": profile.flags(DEFAULT_ALPHA),
                        "alone": len(team) < 2})
    return out
