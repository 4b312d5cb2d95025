"""The round lifecycle: open → betting closed → dealing → settled, or voided with approval.

Each function is one transaction: lock (table, then round), check, ask the engine, write the
rows, write the audit record. The engine is the only judge of cards and bets; a refusal
(:class:`EngineError`) leaves nothing written.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from casino.audit.services import audit_log
from casino.core import sql
from casino.errors import Conflict, Forbidden, InvalidInput
from casino.idempotency import request_service
from tables.access import current_assignment, ensure_can_deal, ensure_manages, manages_table
from tables.engines.base import Json, parse_bet
from tables.engines.errors import EngineError
from tables.engines.registry import get_engine
from tables.models import (
    LIVE_STATUSES,
    Bet,
    Round,
    RoundEvent,
    RoundStatus,
    Settlement,
    SettlementLine,
    Shift,
    ShiftStatus,
    Table,
    TableStatus,
)
from tables.services.locks import lock_round, lock_table

TAKE_BETS = {"expect": "bets", "say": "Place your bets"}


def round_document(rnd: Round, *, extra_bets: list[Json] | None = None,
                   extra_events: list[Json] | None = None, from_rows: bool = False) -> Json:
    """The round as the engines read it (ROUND_FORMAT.md). ``from_rows``: from the Bet and RoundEvent
    rows, the record, not the copy on the round row (reconciliation checks the record)."""
    stored = _stored_document(rnd, from_rows=from_rows)
    return {"game": rnd.game, "config": rnd.config, "bets": stored["bets"] + (extra_bets or []),
            "events": stored["events"] + (extra_events or [])}


def _stored_document(rnd: Round, *, from_rows: bool = False) -> Json:
    """The bets placed at betting time and the events not undone: the copy on the round row, or,
    for a round written in bulk without one, read from the rows (plain values, no model instances)."""
    if rnd.document is not None and not from_rows:
        return rnd.document
    rows = rnd.bets.filter(event_index__isnull=True).order_by("id").values_list("client_id", "seat", "type", "amount",
                                                                               "extra")
    bets = [{"id": bet_id, "seat": seat, "type": kind, "amount": amount, **extra}
            for bet_id, seat, kind, amount, extra in rows]
    events = list(rnd.events.filter(undone_at__isnull=True).order_by("seq").values_list("payload", flat=True))
    return {"bets": bets, "events": events}


def _play(doc: Json) -> Json:
    engine = get_engine(doc["game"])
    return engine.play(engine.load(doc))


def _round_summary(rnd: Round) -> Json:
    return {"status": rnd.status, "number": rnd.number, "table": rnd.table.code}


def _open_shift_for(actor: Any, table: Table) -> Shift:
    assignment = current_assignment(actor, table)
    if assignment is not None:
        return assignment.shift
    now = timezone.now()
    shift = (Shift.objects.filter(status=ShiftStatus.OPEN, starts_at__lte=now, ends_at__gt=now).order_by("-starts_at")
             .first() or Shift.objects.filter(status=ShiftStatus.OPEN).order_by("-starts_at").first())
    if shift is None:
        raise Conflict("no shift is open: a pit manager must open one first", code="no_open_shift")
    return shift


@request_service
def round_open(*, table_id: int, actor: Any) -> Round:
    """Open the next round at a table for bets."""
    table = lock_table(table_id)
    ensure_can_deal(actor, table)
    if table.status != TableStatus.OPEN:
        raise Conflict(f"table {table.code} is closed", code="table_closed")
    live = table.rounds.filter(status__in=LIVE_STATUSES).first()
    if live is not None:
        raise Conflict(f"round #{live.number} at {table.code} is still {live.status}", code="round_in_progress")
    shift = _open_shift_for(actor, table)
    _ensure_table_shift_open(table, shift)
    engine = get_engine(table.game)
    carried, players = _carried_from_previous_round(table, engine)
    config = {**table.engine_config(), **carried}
    try:
        config = engine.resolve_config(config)
    except EngineError as exc:
        raise Conflict(f"table {table.code} is misconfigured: {exc.message}", code="table_misconfigured") from None
    last = table.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    state: Json = {"status": "awaiting", "next": TAKE_BETS}
    if players:
        state["carried_players"] = players
    rnd = Round.objects.create(table=table, shift=shift, number=last + 1, game=table.game, config=config,
                               dealer=actor, opened_at=timezone.now(), state=state,
                               document={"bets": [], "events": []})
    audit_log(actor=actor, action="round.open", object_type="round", object_id=rnd.pk, table_code=table.code,
              after={"number": rnd.number, "game": rnd.game, "config": config, "shift": shift.pk,
                     "carried": carried, "carried_players": players})
    return rnd


def _ensure_table_shift_open(table: Table, shift: Shift) -> None:
    """A table closed for a shift takes no new round in it: its figures are fixed (the database refuses it too)."""
    from accounting.selectors import close_of  # accounting depends on tables, not the reverse

    if close_of(table, shift) is not None:
        raise Conflict(f"{table.code} is closed for the shift {shift}: no more rounds in it", code="table_shift_closed")


def _carried_from_previous_round(table: Table, engine: Any) -> tuple[Json, list[Any] | None]:
    """What the last settled round at the table hands on: pool and pot carries, the button, the
    players still in (Carousel games, pot games). The engine says it in ``outcome.next_game`` or,
    for a pot, ``pool.carry_out``; only settings the engine knows are carried."""
    prev = (table.rounds.filter(status=RoundStatus.SETTLED, game=table.game).order_by("-number")
            .values_list("state", flat=True).first())
    if not isinstance(prev, dict):
        return {}, None
    known = {s.name for s in engine.settings}
    next_game = (prev.get("outcome") or {}).get("next_game") if isinstance(prev.get("outcome"), dict) else None
    if isinstance(next_game, dict):
        config = {k: v for k, v in (next_game.get("config") or {}).items() if k in known}
        carries = any(v for k, v in config.items() if k.endswith("carry_in"))
        players = next_game.get("players") if carries else None
        return config, players if isinstance(players, list) else None
    outcome = prev.get("outcome") if isinstance(prev.get("outcome"), dict) else {}
    if "banker_seat" in known and isinstance(outcome.get("next_banker"), int):  # Pontoon: the bank passes
        return {"banker_seat": outcome["next_banker"]}, None
    pool = prev.get("pool")
    if isinstance(pool, dict) and "carry_in" in known and isinstance(pool.get("carry_out"), int):
        return {"carry_in": pool["carry_out"]}, None
    return {}, None


def _strip_bet_field(exc: EngineError, index: int) -> EngineError:
    prefix = f"bets[{index}]."
    if exc.field and exc.field.startswith(prefix):
        exc.field = exc.field[len(prefix):]
    return exc


def _bet_of_an_incomplete_set(engine: Any, rnd: Round, raw: Json, exc: EngineError, index: int) -> Any:
    """Some games only make a round once several bets are down (a chemin de fer coup needs its
    bank and a punto, in whichever order the croupier takes them). While the bets so far do not
    make a round, a bet is checked on its own (type, fields, limits); betting_close checks the
    whole. A bet that breaks a set that was complete, or is wrong in itself, is refused."""
    if exc.field != "bets":
        raise _strip_bet_field(exc, index) from None
    try:
        engine.load(round_document(rnd))
    except EngineError as before:
        if before.field != "bets":
            raise exc from None
    else:
        raise exc from None
    config = engine.resolve_config(rnd.config)
    try:
        bet = parse_bet(raw, engine.spec_for, where="bets")
        engine.check_limits(bet, config, where="bets")
        engine.check_bet(bet, config, where="bets")
    except EngineError as own:
        raise _strip_bet_field(own, index) from None
    return bet


@request_service
def bet_place(*, round_id: int, actor: Any, seat: int, type: str, amount: int, extra: Json | None = None,
              client_id: str | None = None) -> Bet:
    """Record a bet at a seat while the round is open for bets; the engine checks type and limits."""
    rnd = lock_round(round_id)
    ensure_can_deal(actor, rnd.table)
    if rnd.status != RoundStatus.OPEN:
        raise Conflict(f"betting is closed for round #{rnd.number}", code="betting_closed")
    if not 1 <= seat <= rnd.table.seats:
        raise InvalidInput(f"seat must be from 1 to {rnd.table.seats} at {rnd.table.code}", code="bad_seat",
                           field="seat")
    count = rnd.bets.count()
    client_id = client_id or f"b{count + 1}"
    if rnd.bets.filter(client_id=client_id).exists():
        raise Conflict(f"bet id {client_id} is already used in this round", code="duplicate_bet", field="id")
    raw = {"id": client_id, "seat": seat, "type": type, "amount": amount, **(extra or {})}
    doc = round_document(rnd, extra_bets=[raw])
    engine = get_engine(rnd.game)
    try:
        parsed = engine.load(doc).bets[-1]
    except EngineError as exc:
        parsed = _bet_of_an_incomplete_set(engine, rnd, raw, exc, len(doc["bets"]) - 1)
    spec = engine.bet_types[parsed.type]
    cfg = rnd.config
    bet = Bet.objects.create(
        round=rnd, client_id=client_id, seat=seat, type=parsed.type, amount=parsed.amount, extra=dict(parsed.extra),
        limit_min=cfg.get("min_bet") if spec.limits_apply else None,
        limit_max=cfg.get("max_bet") if spec.limits_apply else None,
        placed_by=actor, placed_at=timezone.now(),
    )
    stored = _stored_document(rnd)
    rnd.document = {"bets": [*stored["bets"], bet.as_document()], "events": stored["events"]}
    Round.objects.filter(pk=rnd.pk).update(document=rnd.document)
    audit_log(actor=actor, action="bet.place", object_type="bet", object_id=bet.pk, table_code=rnd.table.code,
              after={"round": rnd.pk, **bet.as_document()})
    _after_commit("bet_placed", bet_id=bet.pk, amount=bet.amount)
    return bet


@request_service
def betting_close(*, round_id: int, actor: Any) -> Round:
    """No more bets; the engine says where the first card goes."""
    rnd = lock_round(round_id)
    ensure_can_deal(actor, rnd.table)
    if rnd.status != RoundStatus.OPEN:
        raise Conflict(f"round #{rnd.number} is {rnd.status}, not open for bets", code="not_open")
    now = timezone.now()
    players = (rnd.state or {}).get("carried_players")
    document = _stored_document(rnd)
    if players:
        # a game that starts with a carry: only the players still in may bet (Carousel); the
        # engine learns who they are from this first event, which the service posts itself
        event = {"players": players}
        _play(round_document(rnd, extra_events=[event]))
        RoundEvent.objects.create(round=rnd, seq=0, payload=event, posted_by=actor, posted_at=now)
        document = {"bets": document["bets"], "events": [*document["events"], event]}
    rnd.document = document
    state = _play(round_document(rnd))
    updated = Round.objects.filter(pk=rnd.pk, status=RoundStatus.OPEN).update(
        status=RoundStatus.BETTING_CLOSED, betting_closed_at=now, state=state, document=document)
    if updated != 1:
        raise Conflict("the round changed meanwhile", code="concurrent_change")
    rnd.status, rnd.betting_closed_at, rnd.state = RoundStatus.BETTING_CLOSED, now, state
    audit_log(actor=actor, action="round.close_betting", object_type="round", object_id=rnd.pk,
              table_code=rnd.table.code, before={"status": RoundStatus.OPEN}, after={"status": rnd.status})
    return rnd


@request_service
def event_post(*, round_id: int, actor: Any, event: Json) -> tuple[RoundEvent, Json]:
    """Append one card, choice or between-stage bet; returns the event and the engine's answer."""
    rnd = lock_round(round_id)
    ensure_can_deal(actor, rnd.table)
    if rnd.status == RoundStatus.OPEN:
        raise Conflict("betting is still open: close betting before the first card", code="betting_open")
    if rnd.status not in (RoundStatus.BETTING_CLOSED, RoundStatus.DEALING):
        raise Conflict(f"round #{rnd.number} is {rnd.status}", code=f"round_{rnd.status}")
    doc = round_document(rnd, extra_events=[event])
    seq = len(doc["events"]) - 1
    state = _play(doc)
    now = timezone.now()
    ev = sql.insert(RoundEvent(round=rnd, seq=seq, payload=event, posted_by=actor, posted_at=now))
    if isinstance(event.get("bet"), dict):
        engine = get_engine(rnd.game)
        raw = event["bet"]
        spec = engine.bet_types.get(raw.get("type"))
        limits = spec is not None and spec.limits_apply
        Bet.objects.create(
            round=rnd, client_id=raw["id"], seat=raw["seat"], type=raw["type"], amount=raw["amount"],
            extra={k: v for k, v in raw.items() if k not in ("id", "seat", "type", "amount")},
            limit_min=rnd.config.get("min_bet") if limits else None,
            limit_max=rnd.config.get("max_bet") if limits else None,
            event_index=seq, placed_by=actor, placed_at=now,
        )
    document = {"bets": doc["bets"], "events": doc["events"]}
    Round.objects.filter(pk=rnd.pk).update(status=RoundStatus.DEALING, state=state, document=document)
    before = rnd.status
    # the caller answers from this instance (ev.round): no second read of what was just written
    rnd.status, rnd.state, rnd.document = RoundStatus.DEALING, state, document
    audit_log(actor=actor, action="event.post", object_type="round", object_id=rnd.pk, table_code=rnd.table.code,
              before={"status": before, "events": seq}, after={"seq": seq, "event": event, "next": state["next"]})
    return ev, state


@request_service
def round_settle(*, round_id: int, actor: Any) -> Settlement:
    """Settle a complete round once: per-bet lines and the house's totals, atomically."""
    rnd = lock_round(round_id)
    ensure_can_deal(actor, rnd.table)
    if rnd.status == RoundStatus.SETTLED:
        raise Conflict(f"round #{rnd.number} is already settled", code="already_settled")
    if rnd.status == RoundStatus.VOIDED:
        raise Conflict(f"round #{rnd.number} was voided", code="round_voided")
    if rnd.status == RoundStatus.OPEN:
        raise Conflict("betting is still open: nothing has been dealt", code="betting_open")
    state = _play(round_document(rnd))
    if state["status"] != "settled":
        say = (state.get("next") or {}).get("say", "more is needed")
        raise Conflict(f"the round is not complete: {say}", code="round_incomplete")
    now = timezone.now()
    updated = Round.objects.filter(pk=rnd.pk, status__in=[RoundStatus.BETTING_CLOSED, RoundStatus.DEALING]).update(
        status=RoundStatus.SETTLED, settled_at=now, state=state)
    if updated != 1:
        raise Conflict(f"round #{rnd.number} is already settled", code="already_settled")
    bets = {b.client_id: b for b in rnd.bets.all()}
    bets.update(_stakes_taken_by_choices(rnd, state["bets"], bets))
    house = state["house"]
    settlement = Settlement.objects.create(
        round=rnd, house_net=house["net"], commission=house.get("commission", 0), rake=house.get("rake", 0),
        handle=_handle(state["bets"]), document=state, settled_by=actor, settled_at=now)
    SettlementLine.objects.bulk_create([
        SettlementLine(settlement=settlement, bet=bets[row["id"]], result=row["result"], net=row["net"],
                       commission=row.get("commission", 0))
        for row in state["bets"]
    ])
    rnd.status, rnd.settled_at, rnd.state = RoundStatus.SETTLED, now, state
    _post_to_ledger(settlement)
    audit_log(actor=actor, action="round.settle", object_type="round", object_id=rnd.pk, table_code=rnd.table.code,
              before={"status": RoundStatus.DEALING},
              after={"status": RoundStatus.SETTLED, "house": house, "outcome": state.get("outcome"),
                     "bets": [{k: r[k] for k in ("id", "result", "net", "commission")} for r in state["bets"]]})
    _after_commit("round_settled", round_id=rnd.pk, house_net=settlement.house_net)
    return settlement


def _handle(rows: list[Json]) -> int:
    """Everything staked: a row's ``staked`` where the engine reports more than the first stake
    (blackjack doubles and splits, Caribbean Stud's raise), else its amount."""
    return sum(int(row.get("staked", row["amount"])) for row in rows)


def _stakes_taken_by_choices(rnd: Round, rows: list[Json], bets: dict[str, Bet]) -> dict[str, Bet]:
    """Stakes put down by a choice rather than placed as a bet (blackjack insurance: the
    ``insurance`` action, settled in a row ``"<bet id>:insurance"``) become bets of the event that
    took them (the choice named after the bet's type, at its seat), so every settled row has its bet."""
    missing = [row for row in rows if row["id"] not in bets]
    if not missing:
        return {}
    events = list(rnd.events.filter(undone_at__isnull=True).order_by("seq"))
    taken: dict[str, Bet] = {}
    for row in missing:
        event = next((e for e in events if e.payload.get("action") == row["type"]
                      and e.payload.get("seat") == row["seat"]), None)
        if event is None:
            raise Conflict(f"the engine settles a bet {row['id']} that no bet or choice placed", code="unknown_bet")
        extra = {k: v for k, v in row.items() if k not in ("id", "seat", "type", "amount", "result", "net",
                                                                 "commission")}
        taken[row["id"]] = Bet.objects.create(
            round=rnd, client_id=row["id"], seat=row["seat"], type=row["type"], amount=row["amount"], extra=extra,
            event_index=event.seq, placed_by_id=event.posted_by_id, placed_at=event.posted_at)
    return taken


def _after_commit(hook: str, **kwargs: Any) -> None:
    """Accounting's checks (large bet, large loss): their jobs join this transaction through the outbox
    and are sent to the broker once it commits (casino/outbox.py)."""
    from accounting import hooks  # accounting depends on tables, not the reverse

    getattr(hooks, hook)(**kwargs)


def _post_to_ledger(settlement: Settlement) -> None:
    from accounting.services.ledger import round_post  # accounting depends on tables, not the reverse

    round_post(settlement=settlement)


@transaction.atomic
def round_void_request(*, round_id: int, actor: Any, reason: str) -> Round:
    """Ask for a live round to be voided (misdeal, exposed card…); a supervisor must approve."""
    rnd = lock_round(round_id)
    ensure_can_deal(actor, rnd.table)
    if rnd.status not in LIVE_STATUSES:
        raise Conflict(f"round #{rnd.number} is {rnd.status}: only a live round can be voided",
                       code=f"round_{rnd.status}")
    if rnd.void_requested_by_id is not None:
        # one request per round: a second would put another name on it, and the first requester could then
        # approve their own void
        raise Conflict(f"a void of round #{rnd.number} is already requested: a supervisor approves it",
                       code="void_already_requested")
    reason = (reason or "").strip() if isinstance(reason, str) else ""
    if not reason:
        raise InvalidInput("a void needs a written reason", code="reason_required", field="reason")
    updated = Round.objects.filter(pk=rnd.pk, void_requested_by__isnull=True).update(
        void_reason=reason, void_requested_by=actor, void_requested_at=timezone.now())
    if updated != 1:
        raise Conflict("the round changed meanwhile", code="concurrent_change")
    rnd.refresh_from_db()
    audit_log(actor=actor, action="round.void_request", object_type="round", object_id=rnd.pk,
              table_code=rnd.table.code, after={"reason": reason})
    return rnd


@transaction.atomic
def round_void_approve(*, round_id: int, actor: Any) -> Round:
    """A pit manager, never the one who asked, approves a void; the bets are returned unsettled."""
    rnd = lock_round(round_id)
    ensure_manages(actor, rnd.table)
    if rnd.status not in LIVE_STATUSES:
        raise Conflict(f"round #{rnd.number} is {rnd.status}", code=f"round_{rnd.status}")
    if rnd.void_requested_by_id is None:
        raise Conflict("no void was requested for this round", code="no_void_request")
    if rnd.void_requested_by_id == actor.pk:
        raise Forbidden("a void must be approved by someone other than who requested it", code="same_person")
    before = rnd.status
    updated = Round.objects.filter(pk=rnd.pk, status__in=LIVE_STATUSES).update(
        status=RoundStatus.VOIDED, voided_by=actor, voided_at=timezone.now())
    if updated != 1:
        raise Conflict("the round changed meanwhile", code="concurrent_change")
    rnd.refresh_from_db()
    audit_log(actor=actor, action="round.void", object_type="round", object_id=rnd.pk, table_code=rnd.table.code,
              before={"status": before}, after={"status": rnd.status, "reason": rnd.void_reason,
                                                "requested_by": rnd.void_requested_by_id})
    return rnd


@transaction.atomic
def event_undo(*, round_id: int, actor: Any, approver: Any) -> tuple[RoundEvent, Json]:
    """Undo the last card or choice of a live round, approved on the spot by a supervisor.

    ``approver`` is the pit manager whose username and password the caller has just checked (the
    API signs them in with Django's ``authenticate``, so the sign-in lockout and its audit apply).
    They must manage the table and be someone other than who asks. The event keeps its row (who
    undid it, who approved, when) and drops out of the round document, so the engine replays the
    round without it and the dealer enters the right card.
    """
    rnd = lock_round(round_id)
    ensure_can_deal(actor, rnd.table)
    if rnd.status not in (RoundStatus.BETTING_CLOSED, RoundStatus.DEALING):
        raise Conflict(f"round #{rnd.number} is {rnd.status}: only a card of a round being dealt can be undone",
                       code=f"round_{rnd.status}")
    last = rnd.events.filter(undone_at__isnull=True).order_by("-seq").first()
    if last is None:
        raise Conflict("no card has been dealt in this round: nothing to undo", code="nothing_to_undo")
    if isinstance(last.payload.get("bet"), dict):
        # a between-stage bet is a financial record (a Bet row); a wrong one is voided with the round
        raise Conflict("the last entry is a bet, which cannot be undone: void the round instead",
                       code="cannot_undo_bet")
    if approver is None or not approver.is_active:
        raise Forbidden("an undo needs the approval of an active supervisor", code="approval_refused",
                        field="approver_username")
    if approver.pk == actor.pk:
        raise Forbidden("an undo must be approved by a supervisor other than who asks for it", code="same_person",
                        field="approver_username")
    if not manages_table(approver, rnd.table):
        raise Forbidden(f"{approver.get_username()} is not a pit manager of {rnd.table.pit.name}",
                        code="pit_manager_required", field="approver_username")
    now = timezone.now()
    updated = RoundEvent.objects.filter(pk=last.pk, undone_at__isnull=True).update(
        undone_at=now, undone_by=actor, undo_approved_by=approver)
    if updated != 1:
        raise Conflict("the round changed meanwhile", code="concurrent_change")
    stored = _stored_document(rnd)
    rnd.document = {"bets": stored["bets"], "events": stored["events"][:last.seq]}
    state = _play(round_document(rnd))
    status = RoundStatus.DEALING if rnd.document["events"] else RoundStatus.BETTING_CLOSED
    Round.objects.filter(pk=rnd.pk).update(status=status, state=state, document=rnd.document)
    last.refresh_from_db()
    audit_log(actor=actor, action="event.undo", object_type="round", object_id=rnd.pk, table_code=rnd.table.code,
              before={"status": rnd.status, "seq": last.seq, "event": last.payload},
              after={"status": status, "approved_by": approver.get_username(), "next": state["next"]})
    return last, state
