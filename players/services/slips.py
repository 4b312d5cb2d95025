"""Rating slips: open at a seat, pause, resume, close; buy-ins; the rating fixed at close.

Dealers act at the table they are assigned to, during that assignment; pit managers at their pits'
tables (``tables.access.ensure_can_deal``). Each function is one transaction: lock the table, then
the slip (then the player), check, change state with a conditional update, audit in the same
transaction. A closed slip cannot change (the database refuses it, migration 0002).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounting.models import Marker
from casino import task_names
from casino.audit.services import audit_log
from casino.errors import Conflict, InvalidInput, NotFound
from casino.money import money_amount
from casino.outbox import enqueue
from players import rating
from players.advantage import slip_measured_edge
from players.models import (
    LIVE_SLIP_STATUSES,
    BuyIn,
    BuyInMethod,
    CashKind,
    RatingSlip,
    SlipPause,
    SlipRating,
    SlipStatus,
)
from players.selectors import comp_rule, rate_slips
from players.services import cash
from players.services.advantage import advantage_check
from players.services.common import (
    amount_of,
    current_shift,
    ensure_may_play,
    find_player,
    lock_player,
    lock_slip,
    text_of,
)
from tables.access import ensure_can_deal
from tables.models import TableStatus
from tables.services.locks import lock_table


def _summary(slip: RatingSlip) -> dict[str, Any]:
    return {
        "player": slip.player_id,
        "description": slip.description,
        "table": slip.table.code,
        "seat": slip.seat,
        "status": slip.status,
        "estimated_average_bet": slip.estimated_average_bet,
    }


def _audit(actor: Any, action: str, slip: RatingSlip, *, before: Any = None, after: Any = None) -> None:
    audit_log(
        actor=actor,
        action=action,
        object_type="rating_slip",
        object_id=slip.pk,
        table_code=slip.table.code,
        before=before,
        after=after,
    )


def _live(slip: RatingSlip) -> None:
    if slip.status == SlipStatus.CLOSED:
        raise Conflict(gettext("rating slip %(slip)s is closed") % {"slip": slip.pk}, code="slip_closed")


def _estimate(value: Any, field: str = "estimated_average_bet") -> int | None:
    return None if value is None else amount_of(value, field=field)


@transaction.atomic
def slip_open(
    *,
    actor: Any,
    table_id: int,
    seat: Any,
    player_id: Any = None,
    card_number: Any = None,
    description: Any = "",
    estimated_average_bet: Any = None,
    notes: Any = "",
) -> RatingSlip:
    """Seat a player (by id or card number, or anonymous with a description) and start rating them."""
    table = lock_table(table_id)
    ensure_can_deal(actor, table)
    if table.status != TableStatus.OPEN:
        raise Conflict(gettext("table %(table)s is closed") % {"table": table.code}, code="table_closed")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= table.seats:
        raise InvalidInput(gettext("the seat must be from 1 to %(seats)s at %(table)s") % {"seats": table.seats, "table": table.code}, code="bad_seat", field="seat")
    player = find_player(player_id=player_id, card_number=card_number)
    ensure_may_play(player)
    description = text_of(description, field="description", max_length=120)
    notes = text_of(notes, field="notes", max_length=2000)
    estimate = _estimate(estimated_average_bet)
    taken = RatingSlip.objects.filter(table=table, seat=seat, status__in=LIVE_SLIP_STATUSES).first()
    if taken is not None:
        raise Conflict(
            gettext("seat %(seat)s at %(table)s already has slip %(slip)s (%(player)s): close it first")
            % {"seat": seat, "table": table.code, "slip": taken.pk,
               "player": taken.player.name if taken.player is not None else gettext("an anonymous player")},
            code="seat_taken",
            field="seat",
        )
    shift = current_shift(actor, table)
    slip = RatingSlip.objects.create(
        player=player,
        description=description,
        table=table,
        seat=seat,
        shift=shift,
        estimated_average_bet=estimate,
        notes=notes,
        opened_by=actor,
        opened_at=timezone.now(),
    )
    _audit(actor, "slip.open", slip, after={**_summary(slip), "shift": shift.pk})
    # the house edge of this table's rules is computed by a job now, so the rating never waits for it
    enqueue(task_names.WARM_HOUSE_EDGE, args=[table.pk], dedupe_key=f"players.warm_house_edge:{table.pk}")
    return slip


@transaction.atomic
def slip_pause(*, actor: Any, slip_id: Any) -> RatingSlip:
    """The player stepped away: time and rounds stop counting until the slip is resumed."""
    slip = lock_slip(slip_id)
    ensure_can_deal(actor, slip.table)
    _live(slip)
    if slip.status != SlipStatus.OPEN:
        raise Conflict(gettext("rating slip %(slip)s is already paused") % {"slip": slip.pk}, code="slip_paused")
    now = timezone.now()
    if RatingSlip.objects.filter(pk=slip.pk, status=SlipStatus.OPEN).update(status=SlipStatus.PAUSED) != 1:
        raise Conflict(gettext("the slip changed meanwhile"), code="concurrent_change")
    pause = SlipPause.objects.create(slip=slip, started_at=now, started_by=actor)
    slip.refresh_from_db()
    _audit(
        actor, "slip.pause", slip, before={"status": SlipStatus.OPEN}, after={"status": slip.status, "pause": pause.pk}
    )
    return slip


@transaction.atomic
def slip_resume(*, actor: Any, slip_id: Any) -> RatingSlip:
    slip = lock_slip(slip_id)
    ensure_can_deal(actor, slip.table)
    _live(slip)
    if slip.status != SlipStatus.PAUSED:
        raise Conflict(gettext("rating slip %(slip)s is not paused") % {"slip": slip.pk}, code="slip_not_paused")
    now = timezone.now()
    if RatingSlip.objects.filter(pk=slip.pk, status=SlipStatus.PAUSED).update(status=SlipStatus.OPEN) != 1:
        raise Conflict(gettext("the slip changed meanwhile"), code="concurrent_change")
    if SlipPause.objects.filter(slip=slip, ended_at__isnull=True).update(ended_at=now, ended_by=actor) != 1:
        raise Conflict(gettext("the slip's pause changed meanwhile"), code="concurrent_change")
    slip.refresh_from_db()
    _audit(actor, "slip.resume", slip, before={"status": SlipStatus.PAUSED}, after={"status": slip.status})
    return slip


@transaction.atomic
def slip_estimate(*, actor: Any, slip_id: Any, estimated_average_bet: Any) -> RatingSlip:
    """The floor's estimate of the average bet (shown beside the measured one, used where bets are not
    recorded)."""
    slip = lock_slip(slip_id)
    ensure_can_deal(actor, slip.table)
    _live(slip)
    estimate = _estimate(estimated_average_bet)
    before = slip.estimated_average_bet
    RatingSlip.objects.filter(pk=slip.pk).update(estimated_average_bet=estimate)
    slip.refresh_from_db()
    _audit(
        actor,
        "slip.estimate",
        slip,
        before={"estimated_average_bet": before},
        after={"estimated_average_bet": estimate},
    )
    return slip


@transaction.atomic
def slip_identify(*, actor: Any, slip_id: Any, player_id: Any = None, card_number: Any = None) -> RatingSlip:
    """Name the player of an anonymous live slip; their buy-ins so far count toward their day's cash."""
    slip = lock_slip(slip_id)
    ensure_can_deal(actor, slip.table)
    _live(slip)
    if slip.player is not None:
        raise Conflict(gettext("rating slip %(slip)s is already %(player)s's") % {"slip": slip.pk, "player": slip.player.name}, code="slip_identified")
    player = find_player(player_id=player_id, card_number=card_number)
    if player is None:
        raise InvalidInput(gettext("name the player by id or card number"), code="player_required", field="player")
    ensure_may_play(player)
    player = lock_player(player.pk)
    RatingSlip.objects.filter(pk=slip.pk, player__isnull=True).update(player=player)
    slip.refresh_from_db()
    _audit(actor, "slip.identify", slip, before={"player": None}, after={"player": player.pk})
    seen = set()
    for txn in slip.cash_transactions.filter(player__isnull=True).order_by("-recorded_at", "-id"):
        key = (txn.gaming_date, txn.direction)
        if key not in seen:
            seen.add(key)
            cash.threshold_check(player=player, gaming_date=txn.gaming_date, direction=txn.direction, crossing=txn)
    return slip


@transaction.atomic
def slip_close(*, actor: Any, slip_id: Any, walk_with: Any = None, estimated_average_bet: Any = None) -> RatingSlip:
    """The player leaves: the slip closes (a running pause ends with it) and its rating is fixed — now if
    the house edge is known, else by the ``players.rate_slip`` job once it is computed."""
    slip = lock_slip(slip_id)
    ensure_can_deal(actor, slip.table)
    _live(slip)
    walk = None if walk_with is None else amount_of(walk_with, field="walk_with", allow_zero=True)
    estimate = slip.estimated_average_bet if estimated_average_bet is None else _estimate(estimated_average_bet)
    now = timezone.now()
    before = slip.status
    SlipPause.objects.filter(slip=slip, ended_at__isnull=True).update(ended_at=now, ended_by=actor)
    updated = RatingSlip.objects.filter(pk=slip.pk, status__in=LIVE_SLIP_STATUSES).update(
        status=SlipStatus.CLOSED, closed_at=now, closed_by=actor, walk_with=walk, estimated_average_bet=estimate
    )
    if updated != 1:
        raise Conflict(gettext("the slip changed meanwhile"), code="concurrent_change")
    slip.refresh_from_db()
    _audit(
        actor,
        "slip.close",
        slip,
        before={"status": before},
        after={"status": slip.status, "walk_with": walk, "estimated_average_bet": estimate},
    )
    if _rate(slip, compute_edges=False) is None:
        enqueue(task_names.RATE_SLIP, args=[slip.pk], dedupe_key=f"players.rate_slip:{slip.pk}")
    return slip


def _rate(slip: RatingSlip, *, compute_edges: bool) -> SlipRating | None:
    """Fix a closed slip's figures once; None while a house edge is still to be computed."""
    existing = SlipRating.objects.filter(slip=slip).first()
    if existing is not None:
        return existing
    # the player's measured skill at the slip's game, to its close: fixed here with the rest (docs/players.md)
    measured = slip_measured_edge(slip)
    rated = rate_slips([slip], compute_edges=compute_edges, measured={slip.pk: measured} if measured else None)[0]
    fig = rated.figures
    if fig.edge_pending:
        return None
    row = SlipRating(  # type: ignore[misc]  # the figures are whole once no edge is pending
        slip=slip,
        active_seconds=fig.active_seconds,
        paused_seconds=fig.paused_seconds,
        decisions=fig.decisions,
        table_decisions=fig.table_decisions,
        handle=fig.handle,
        average_bet=fig.average_bet,
        average_bet_source=fig.average_bet_source,
        estimated_average_bet=fig.estimated_average_bet,
        measured_average_bet=fig.measured_average_bet,
        decisions_per_hour=fig.decisions_per_hour,
        house_edge=rating.fraction_text(fig.house_edge),
        theoretical_win=fig.theoretical_win,
        actual_win=fig.actual_win,
        buy_in_cash=rated.buy_in_cash,
        buy_in_markers=rated.buy_in_markers,
        reinvestment_percent=_rule().reinvestment_percent,
        points_per_unit=_rule().points_per_unit,
        comp_value=fig.comp_value,
        comp_points=fig.comp_points,
        flags=fig.flags,
        data={
            "by_type": fig.by_type,
            "covered_handle": fig.covered_handle,
            "overlaps": fig.overlaps,
            "paused_bets": fig.paused_bets,
            "active_us": fig.active_us,
            "skill": fig.skill,
        },
        rated_at=timezone.now(),
    )
    try:
        with transaction.atomic():
            row.save(force_insert=True)
    except IntegrityError:  # rated meanwhile by the job: theirs stands (same inputs, same figures)
        return SlipRating.objects.get(slip=slip)
    audit_log(
        actor=None,
        action="slip.rate",
        object_type="rating_slip",
        object_id=slip.pk,
        table_code=slip.table.code,
        after={
            "decisions": row.decisions,
            "handle": row.handle,
            "average_bet": row.average_bet,
            "average_bet_source": row.average_bet_source,
            "decisions_per_hour": row.decisions_per_hour,
            "active_seconds": row.active_seconds,
            "house_edge": row.house_edge,
            "theoretical_win": row.theoretical_win,
            "edge_used": (fig.skill or {}).get("used", "assumed"),
            "theo_assumed": (fig.skill or {}).get("theo_assumed", row.theoretical_win),
            "theo_measured": (fig.skill or {}).get("theo_measured"),
            "measured_rounds": (fig.skill or {}).get("rounds"),
            "actual_win": row.actual_win,
            "comp_value": row.comp_value,
            "comp_points": row.comp_points,
            "flags": row.flags,
        },
    )
    return row


def _rule() -> rating.CompRule:

    return comp_rule()


@transaction.atomic
def slip_rate(*, slip_id: int) -> SlipRating | None:
    """The job's service: fix a closed slip's rating, computing the house edge if needed (idempotent)."""
    slip = RatingSlip.objects.select_related("table", "player").filter(pk=slip_id).first()
    if slip is None or slip.status != SlipStatus.CLOSED:
        return None
    rated = _rate(slip, compute_edges=True)
    if rated is not None:
        advantage_check(slip=slip)  # an alert for the pit when the count flags are over the casino's threshold
    return rated


@transaction.atomic
def buy_in_record(*, actor: Any, slip_id: Any, method: Any, amount: Any = None, marker_id: Any = None) -> BuyIn:
    """Chips bought at the seat: with cash (a line of the cash transaction log, threshold checked) or with
    a marker issued at this table (accounting's marker; linked once)."""
    slip = lock_slip(slip_id)
    ensure_can_deal(actor, slip.table)
    _live(slip)
    now = timezone.now()
    if method == BuyInMethod.CASH:
        if marker_id is not None:
            raise InvalidInput(gettext("a cash buy-in has no marker"), code="unexpected_marker", field="marker")
        amount = amount_of(amount)
        player = lock_player(slip.player_id) if slip.player_id is not None else None
        shift = current_shift(actor, slip.table)
        txn = cash.record(
            actor=actor,
            kind=CashKind.BUY_IN,
            amount=amount,
            shift=shift,
            player=player,
            slip=slip,
            table=slip.table,
            description=slip.description,
        )
        buy_in = BuyIn.objects.create(
            slip=slip, method=method, amount=amount, cash_transaction=txn, recorded_by=actor, recorded_at=now
        )
    elif method == BuyInMethod.MARKER:
        if isinstance(marker_id, bool) or not isinstance(marker_id, int):
            raise InvalidInput(gettext("a marker buy-in names the marker (its id)"), code="marker_required", field="marker")
        marker = Marker.objects.select_for_update().filter(pk=marker_id).first()
        if marker is None:
            raise NotFound(gettext("no marker %(marker)s") % {"marker": marker_id}, code="unknown_marker", field="marker")
        if marker.table_id != slip.table_id:
            raise InvalidInput(
                gettext("%(marker)s was issued at another table") % {"marker": marker.reference}, code="marker_other_table",
                field="marker",
            )
        if amount is not None and amount != marker.amount:
            raise InvalidInput(
                gettext("%(marker)s is for %(amount)s, not %(given)s")
                % {"marker": marker.reference, "amount": money_amount(marker.amount), "given": money_amount(amount)},
                code="marker_amount", field="amount",
            )
        if BuyIn.objects.filter(marker=marker).exists():
            raise Conflict(gettext("%(marker)s is already a buy-in") % {"marker": marker.reference}, code="marker_used", field="marker")
        buy_in = BuyIn.objects.create(
            slip=slip, method=method, amount=marker.amount, marker=marker, recorded_by=actor, recorded_at=now
        )
    else:
        raise InvalidInput(gettext("the method must be cash or marker"), code="bad_method", field="method")
    _audit(
        actor,
        "slip.buy_in",
        slip,
        after={
            "buy_in": buy_in.pk,
            "method": buy_in.method,
            "amount": buy_in.amount,
            "marker": buy_in.marker_id,
            "cash_transaction": buy_in.cash_transaction_id,
        },
    )
    return buy_in
