"""The round lifecycle: open → betting closed → dealing → settled, or voided with approval.

Each function is one transaction: lock (table, then round), check, ask the engine, write the
rows, write the audit record. The engine is the only judge of cards and bets; a refusal
(:class:`EngineError`) leaves nothing written.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from casino.audit.services import audit_log
from casino.core import sql
from casino.errors import Conflict, DomainError, Forbidden, InvalidInput, NotFound
from casino.idempotency import request_service
from tables import listeners
from tables.access import ensure_can_deal, ensure_manages, manages_table
from tables.engines.base import Bet as EngineBet
from tables.engines.base import Engine, Json
from tables.engines.errors import EngineError
from tables.engines.registry import get_engine
from tables.engines.result import Line, RoundResult
from tables.engines.speech import said, speech
from tables.models import (
    LIVE_STATUSES,
    Bet,
    BetWithdrawal,
    Round,
    RoundEvent,
    RoundStatus,
    Settlement,
    SettlementLine,
    Table,
    TableStatus,
    status_words,
)
from tables.selectors import current_shoe, open_shift_for, played, round_document, stored_document
from tables.services.locks import lock_round, lock_table
from tables.services.shoes import ensure_shoe_holds
from tables.wording import prompt

TAKE_BETS = {"expect": "bets", **said(speech("place_bets")), "input": {"kind": "bets"}}


def _play(doc: Json) -> RoundResult:
    return get_engine(doc["game"]).result(doc)


def _said(result: RoundResult) -> Json | None:
    """What comes next as the audit records it: the dealer's step, not the screen's input."""
    return result.next.said() if result.next is not None else None


def _round_summary(rnd: Round) -> Json:
    return {"status": rnd.status, "number": rnd.number, "table": rnd.table.code}


@request_service
def round_open(*, table_id: int, actor: Any) -> Round:
    """Open the next round at a table for bets."""
    table = lock_table(table_id, actor=actor)
    ensure_can_deal(actor, table)
    if table.status != TableStatus.OPEN:
        raise Conflict(gettext("table %(table)s is closed") % {"table": table.code}, code="table_closed")
    live, last, previous = _table_rounds(table)
    if live is not None:
        raise Conflict(gettext("round #%(round)s at %(table)s is still %(status)s")
                       % {"round": live[0], "table": table.code, "status": status_words(live[1])}, code="round_in_progress")
    shift = open_shift_for(actor=actor, table=table)
    listeners.round_opening(table=table, shift=shift)  # accounting refuses a table closed for the shift
    engine = get_engine(table.game)
    carried, players = engine.carry_over(previous if isinstance(previous, dict) else None)
    config = {**table.engine_config(), **carried}
    if any(s.name == "seats" for s in engine.settings):
        config.setdefault("seats", table.seats)  # the engine takes bets in turn round the table's seats
    try:
        config = engine.resolve_config(config)
    except EngineError as exc:
        raise Conflict(gettext("table %(table)s is misconfigured: %(why)s") % {"table": table.code, "why": exc.message}, code="table_misconfigured") from None
    state: Json = {"status": "awaiting", "next": TAKE_BETS}
    if players:
        state["carried_players"] = players
    shoe = current_shoe(table) if "decks" in config else None
    rnd = Round.objects.create(table=table, shift=shift, number=last + 1, game=table.game, config=config,
                               dealer=actor, opened_at=timezone.now(), state=state,
                               document={"bets": [], "events": []}, shoe=shoe)
    audit_log(actor=actor, action="round.open", object_type="round", object_id=rnd.pk, table_code=table.code,
              after={"number": rnd.number, "game": rnd.game, "config": config, "shift": shift.pk,
                     "carried": carried, "carried_players": players,
                     **({"shoe": shoe.number} if shoe is not None else {})})
    return rnd


def _table_rounds(table: Table) -> tuple[tuple[int, str] | None, int, Any]:
    """What opening a round at the locked ``table`` reads of its rounds, in one round trip: the live round
    (number and status) if there is one, the last round's number (0: none yet) and the stored answer of the
    last settled round of the table's game, which the engine says what it hands on from."""
    rounds = sql.table(Round)
    live, last, previous = sql.fetch_each([
        f"SELECT number, status FROM {rounds} WHERE table_id = %s AND status IN ({', '.join(['%s'] * len(LIVE_STATUSES))}) "
        "ORDER BY number LIMIT 1",
        f"SELECT number FROM {rounds} WHERE table_id = %s ORDER BY number DESC LIMIT 1",
        f"SELECT state FROM {rounds} WHERE table_id = %s AND status = %s AND game = %s ORDER BY number DESC LIMIT 1",
    ], [table.pk, *(str(s) for s in LIVE_STATUSES), table.pk, table.pk, RoundStatus.SETTLED.value, table.game])
    state = _json_value(previous[0]) if previous is not None else None
    return (live[0], live[1]) if live is not None else None, last[0] if last is not None else 0, state


def _json_value(value: Any) -> Any:
    """A JSON column read by a raw statement: PostgreSQL's driver gives it decoded, SQLite's as text."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def _new_bet(rnd: Round, engine: Engine, bet: EngineBet, *, actor_id: int, placed_at: Any,
             event_index: int | None = None) -> Bet:
    """Record an engine's bet as a Bet row, with the table limits it was placed under."""
    limit_min, limit_max = engine.limits_of(bet.type, rnd.config)
    row = Bet.objects.create(round=rnd, limit_min=limit_min, limit_max=limit_max, event_index=event_index,
                             placed_by_id=actor_id, placed_at=placed_at, **Bet.fields_of(bet))
    listeners.bets_recorded(bets=[row])  # in this transaction: accounting's running figures (big bets)
    return row


def _document_at_close(rnd: Round, *, extra_bets: list[Json] | None = None, without: str | None = None) -> Json:
    """The round as close-betting will play it: its bets (less ``without``, a bet being corrected), the
    new ones, and the carried players that close-betting posts first."""
    doc = round_document(rnd, extra_bets=extra_bets)
    if without is not None:
        doc["bets"] = [b for b in doc["bets"] if b["id"] != without]
    players = (rnd.state or {}).get("carried_players")
    if players:
        doc["events"] = [{"players": players}, *doc["events"]]
    return doc


def _bet_checked_at_placement(engine: Engine, rnd: Round, raw: Json, *, without: str | None = None) -> EngineBet:
    """The bet as the engine reads it, refused now for whatever close-betting would refuse it for: the
    engine's check of a new bet (type, fields, seat, limits, the set of bets), then the round played as
    close-betting plays it, where a rule about this bet may still refuse it (a seat that holds the bank);
    only a set of bets not yet complete is left for close-betting to judge."""
    return engine.check_placement(_document_at_close(rnd, without=without), raw)


def _ensure_betting_open(rnd: Round) -> None:
    if rnd.status != RoundStatus.OPEN:
        raise Conflict(gettext("betting is closed for round #%(round)s") % {"round": rnd.number}, code="betting_closed")


def _record_bet(rnd: Round, *, actor: Any, seat: int, type: str, amount: int, extra: Json | None,
                client_id: str | None, without: str | None = None) -> Bet:
    """Check one bet as close-betting would and write its row and audit record (the caller writes the
    round's document)."""
    if not 1 <= seat <= rnd.table.seats:
        raise InvalidInput(gettext("the seat must be from 1 to %(seats)s at %(table)s") % {"seats": rnd.table.seats, "table": rnd.table.code}, code="bad_seat",
                           field="seat", params={"seat": seat, "seats": rnd.table.seats})
    taken = set(rnd.bets.values_list("client_id", flat=True))  # every bet row of the round, withdrawn or not: one read
    client_id = client_id or f"b{len(taken) + 1}"
    if client_id in taken:
        raise Conflict(gettext("bet id %(bet)s is already used in this round") % {"bet": client_id}, code="duplicate_bet", field="id")
    raw = EngineBet(client_id, seat, type, amount, extra or {}).to_json()
    engine = get_engine(rnd.game)
    parsed = _bet_checked_at_placement(engine, rnd, raw, without=without)
    bet = _new_bet(rnd, engine, parsed, actor_id=actor.pk, placed_at=timezone.now())
    audit_log(actor=actor, action="bet.place", object_type="bet", object_id=bet.pk, table_code=rnd.table.code,
              after={"round": rnd.pk, **bet.as_document()})
    listeners.bet_placed(bet=bet)  # in this transaction: accounting's large-bet check (tables/listeners.py)
    return bet


def _write_bets(rnd: Round, bets: list[Json]) -> None:
    stored = stored_document(rnd)
    rnd.document = {"bets": bets, "events": stored["events"]}
    sql.update_later(Round, rnd.pk, document=rnd.document)  # the round is locked: with the commit


@request_service
def bet_place(*, round_id: int, actor: Any, seat: int, type: str, amount: int, extra: Json | None = None,
              client_id: str | None = None) -> Bet:
    """Record a bet at a seat while the round is open for bets. It is checked now as close-betting
    will check it (type, fields, limits, seats, the set of bets), so a wrong bet is refused at once."""
    rnd = lock_round(round_id, actor=actor)
    ensure_can_deal(actor, rnd.table)
    _ensure_betting_open(rnd)
    placed = stored_document(rnd)["bets"]
    bet = _record_bet(rnd, actor=actor, seat=seat, type=type, amount=amount, extra=extra, client_id=client_id)
    _write_bets(rnd, [*placed, bet.as_document()])
    return bet


@request_service
def bet_withdraw(*, round_id: int, actor: Any, bet_id: str, reason: str,
                 replacement: Json | None = None) -> BetWithdrawal:
    """Take a bet back before betting closes, or correct it (``replacement``: its seat, type, amount and
    fields). The bet's row stays; a withdrawal row says it no longer plays, and the corrected bet is
    placed with every check of a new bet, in the same transaction. Audited as ``bet.withdraw``."""
    rnd = lock_round(round_id, actor=actor)
    ensure_can_deal(actor, rnd.table)
    _ensure_betting_open(rnd)
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(gettext("taking a bet back needs a reason"), code="reason_required", field="reason")
    bet = rnd.bets.filter(client_id=bet_id, event_index__isnull=True).first()
    if bet is None:
        raise NotFound(gettext("round #%(round)s has no bet %(bet)s") % {"round": rnd.number, "bet": bet_id}, code="no_such_bet", field="bet")
    if BetWithdrawal.objects.filter(bet=bet).exists():
        raise Conflict(gettext("bet %(bet)s was already taken back") % {"bet": bet_id}, code="bet_withdrawn", field="bet")
    kept = [b for b in stored_document(rnd)["bets"] if b["id"] != bet.client_id]
    new = None
    if replacement is not None:
        new = _record_bet(rnd, actor=actor, seat=replacement["seat"], type=replacement["type"],
                          amount=replacement["amount"], extra=replacement.get("extra"),
                          client_id=replacement.get("id"), without=bet.client_id)
    withdrawal = BetWithdrawal.objects.create(bet=bet, reason=reason, replaced_by=new, withdrawn_by=actor,
                                              withdrawn_at=timezone.now())
    listeners.bet_withdrawn(bet=bet)  # in this transaction: it no longer counts among the big bets
    _write_bets(rnd, [*kept, new.as_document()] if new is not None else kept)
    audit_log(actor=actor, action="bet.withdraw", object_type="bet", object_id=bet.pk, table_code=rnd.table.code,
              before={"round": rnd.pk, **bet.as_document()},
              after={"withdrawn": True, "reason": reason,
                     "replaced_by": new.as_document() if new is not None else None})
    return withdrawal


MAX_BETS_AT_ONCE = 99  # a table's seats, each with a few bets: more is not a table's betting


@request_service
def betting_close(*, round_id: int, actor: Any, bets: Sequence[Json] = ()) -> Round:
    """No more bets; the engine says where the first card goes. ``bets``: the last bets the dealer entered, each
    placed as :func:`bet_place` places it (its row, its checks, its audit record) before betting closes, all or
    none (a refused one is named by its place in the list: ``bets[2].seat``)."""
    if len(bets) > MAX_BETS_AT_ONCE:
        raise InvalidInput(gettext("at most %(count)s bets at once") % {"count": MAX_BETS_AT_ONCE},
                           code="too_many_bets", field="bets", params={"count": MAX_BETS_AT_ONCE})
    rnd = lock_round(round_id, actor=actor)
    ensure_can_deal(actor, rnd.table)
    if rnd.status != RoundStatus.OPEN:
        raise Conflict(gettext("round #%(round)s is %(status)s, not open for bets") % {"round": rnd.number, "status": status_words(rnd.status)}, code="not_open")
    for i, raw in enumerate(bets):
        stored = stored_document(rnd)
        try:
            bet = _record_bet(rnd, actor=actor, seat=raw["seat"], type=raw["type"], amount=raw["amount"],
                              extra=raw.get("extra"), client_id=raw.get("id"))
        except (DomainError, EngineError) as refused:
            refused.field = f"bets[{i}]" + (f".{refused.field}" if refused.field else "")
            raise
        rnd.document = {"bets": [*stored["bets"], bet.as_document()], "events": stored["events"]}  # written below
    now = timezone.now()
    players = (rnd.state or {}).get("carried_players")
    document = stored_document(rnd)
    if players:
        # a game that starts with a carry: only the players still in may bet (the engine named them in
        # carry_over); the engine learns who they are from this first event, which the service posts
        event = {"players": players}
        _play(round_document(rnd, extra_events=[event]))
        RoundEvent.objects.create(round=rnd, seq=0, payload=event, posted_by=actor, posted_at=now)
        document = {"bets": document["bets"], "events": [*document["events"], event]}
    rnd.document = document
    result = _play(round_document(rnd))
    state = result.to_json()
    # the round is locked and was open (checked above): its new state goes with the commit (casino/core/sql.py)
    sql.update_later(Round, rnd.pk, status=RoundStatus.BETTING_CLOSED, betting_closed_at=now, state=state,
                     document=document)
    rnd.status, rnd.betting_closed_at, rnd.state = RoundStatus.BETTING_CLOSED, now, state
    played(rnd, result)
    audit_log(actor=actor, action="round.close_betting", object_type="round", object_id=rnd.pk,
              table_code=rnd.table.code, before={"status": RoundStatus.OPEN}, after={"status": rnd.status})
    return rnd


MAX_EVENTS_AT_ONCE = 60  # more than any round of any game needs: a batch is one round's taps, not a replay


def _ensure_dealing(rnd: Round) -> None:
    """The round takes cards and choices: betting closed, not settled or voided."""
    if rnd.status == RoundStatus.OPEN:
        raise Conflict(gettext("betting is still open: close betting before the first card"), code="betting_open")
    if rnd.status not in (RoundStatus.BETTING_CLOSED, RoundStatus.DEALING):
        raise Conflict(gettext("round #%(round)s is %(status)s") % {"round": rnd.number, "status": status_words(rnd.status)},
                       code=f"round_{rnd.status}")


def _append_event(rnd: Round, event: Json, *, actor: Any, engine: Engine, now: Any) -> tuple[RoundEvent, RoundResult]:
    """One card, choice or between-stage bet added to the locked round ``rnd`` as the engine accepts it: the
    event's row (with the commit, casino/core/sql.py: insert_later), a bet it places, a bet it corrects or
    withdraws, its audit record; ``rnd``'s status, state and document as they now stand (the caller writes the
    round's row once, however many events it appends)."""
    doc = round_document(rnd, extra_events=[event])
    seq = len(doc["events"]) - 1
    result = _play(doc)
    ev = sql.insert_later(RoundEvent(round=rnd, seq=seq, payload=event, posted_by=actor, posted_at=now))
    placed = engine.bet_placed_by(event)
    new = None
    if placed is not None:
        new = _new_bet(rnd, engine, placed, actor_id=actor.pk, placed_at=now, event_index=seq)
    _withdraw_corrected(rnd, event, new, actor=actor, now=now)
    before = rnd.status
    rnd.status, rnd.state = RoundStatus.DEALING, result.to_json()
    rnd.document = {"bets": doc["bets"], "events": doc["events"]}
    audit_log(actor=actor, action="event.post", object_type="round", object_id=rnd.pk, table_code=rnd.table.code,
              before={"status": before, "events": seq}, after={"seq": seq, "event": event, "next": _said(result)})
    return ev, result


def _round_dealt(rnd: Round, result: RoundResult) -> None:
    """The round's row as the appended events left it, with the commit (it is locked, nothing below reads it),
    and the engine's answer handed to the answer's reader (the caller answers from this instance)."""
    sql.update_later(Round, rnd.pk, status=RoundStatus.DEALING, state=rnd.state, document=rnd.document)
    played(rnd, result)


@request_service
def event_post(*, round_id: int, actor: Any, event: Json) -> tuple[RoundEvent, Json]:
    """Append one card, choice or between-stage bet; returns the event and the engine's answer. The event's
    row is written with the transaction's commit (its ``pk`` is then None, casino/core/sql.py: insert_later)."""
    rnd = lock_round(round_id, actor=actor)
    ensure_can_deal(actor, rnd.table)
    _ensure_dealing(rnd)
    ev, result = _append_event(rnd, event, actor=actor, engine=get_engine(rnd.game), now=timezone.now())
    ensure_shoe_holds(rnd, stored_document(rnd)["events"])  # the round's own cards the engine checked; the shoe's too
    _round_dealt(rnd, result)
    return ev, rnd.state or {}  # the engine's answer, as _append_event set it


@request_service
def events_post(*, round_id: int, actor: Any, events: Sequence[Json]) -> Round:
    """Several cards and choices in one request, in the order dealt, each as :func:`event_post` takes it (its own
    row and audit record, the engine's answer after it): all of them or, when the engine refuses one, none
    (its refusal names the round's event index). For a tablet sending the taps it held (a dealer entering the
    cards of a hand at once, or a screen catching up after the network came back): one lock, one commit."""
    if not events:
        raise InvalidInput(gettext("no cards or choices to post"), code="no_events", field="events")
    if len(events) > MAX_EVENTS_AT_ONCE:
        raise InvalidInput(gettext("at most %(count)s cards and choices at once") % {"count": MAX_EVENTS_AT_ONCE},
                           code="too_many_events", field="events", params={"count": MAX_EVENTS_AT_ONCE})
    rnd = lock_round(round_id, actor=actor)
    ensure_can_deal(actor, rnd.table)
    _ensure_dealing(rnd)
    engine, now = get_engine(rnd.game), timezone.now()
    result: RoundResult | None = None
    for event in events:  # a card after the round is complete: the engine refuses it, as one posted alone
        _ev, result = _append_event(rnd, event, actor=actor, engine=engine, now=now)
    assert result is not None  # at least one event
    ensure_shoe_holds(rnd, stored_document(rnd)["events"])
    _round_dealt(rnd, result)
    return rnd


def _withdraw_corrected(rnd: Round, event: Json, new: Bet | None, *, actor: Any, now: Any) -> None:
    """A bet placed between stages corrected (``{"bet": {…, "replaces": id}}``) or withdrawn
    (``{"withdraw": {"bet": id}}``) before the next card, as the engine has just accepted: the bet's row
    stays, a withdrawal row says it no longer plays (replaced by ``new``), audited as ``bet.withdraw``."""
    raw = event.get("bet")
    withdraw = event.get("withdraw")
    if isinstance(raw, dict) and "replaces" in raw:
        bet_id, reason = raw["replaces"], "Corrected before the next card"
    elif isinstance(withdraw, dict):
        bet_id, reason = withdraw.get("bet"), str(withdraw.get("reason") or "").strip() or "Withdrawn before the next card"
    else:
        return
    bet = rnd.bets.filter(client_id=bet_id, event_index__isnull=False, withdrawal__isnull=True).first()
    if bet is None:  # the engine found it in play: its row must be there
        raise Conflict(gettext("round #%(round)s has no bet %(bet)s in play") % {"round": rnd.number, "bet": bet_id}, code="no_such_bet", field="bet")
    BetWithdrawal.objects.create(bet=bet, reason=reason, replaced_by=new, withdrawn_by=actor, withdrawn_at=now)
    listeners.bet_withdrawn(bet=bet)  # in this transaction: it no longer counts among the big bets
    audit_log(actor=actor, action="bet.withdraw", object_type="bet", object_id=bet.pk, table_code=rnd.table.code,
              before={"round": rnd.pk, **bet.as_document()},
              after={"withdrawn": True, "reason": reason,
                     "replaced_by": new.as_document() if new is not None else None})


@request_service
def round_settle(*, round_id: int, actor: Any) -> Settlement:
    """Settle a complete round once: per-bet lines and the house's totals, atomically."""
    rnd = lock_round(round_id, actor=actor)
    ensure_can_deal(actor, rnd.table)
    if rnd.status == RoundStatus.SETTLED:
        raise Conflict(gettext("round #%(round)s is already settled") % {"round": rnd.number}, code="already_settled")
    if rnd.status == RoundStatus.VOIDED:
        raise Conflict(gettext("round #%(round)s was voided") % {"round": rnd.number}, code="round_voided")
    if rnd.status == RoundStatus.OPEN:
        raise Conflict(gettext("betting is still open: nothing has been dealt"), code="betting_open")
    result = _play(round_document(rnd))
    if not result.settled:
        say = (prompt(result.next.said()) if result.next is not None else "") or gettext("more is needed")
        raise Conflict(gettext("the round is not complete: %(next)s") % {"next": say}, code="round_incomplete")
    state = result.to_json()
    now = timezone.now()
    updated = Round.objects.filter(pk=rnd.pk, status__in=[RoundStatus.BETTING_CLOSED, RoundStatus.DEALING]).update(
        status=RoundStatus.SETTLED, settled_at=now, state=state)
    if updated != 1:
        raise Conflict(gettext("round #%(round)s is already settled") % {"round": rnd.number}, code="already_settled")
    engine = get_engine(rnd.game)
    bets = {b.client_id: b for b in rnd.bets.all()}
    bets.update(_stakes_taken_by_choices(rnd, engine, result.lines, bets))
    house = result.house
    assert house is not None  # a settled round has its house totals
    settlement = Settlement.objects.create(
        round=rnd, house_net=house.net, commission=house.commission, rake=house.rake,
        handle=result.handle(), pool_change=result.pool_change, document=state, settled_by=actor,
        settled_at=now)
    SettlementLine.objects.bulk_create([
        SettlementLine(settlement=settlement, bet=bets[line.id], result=line.result, net=line.net,
                       commission=line.commission)
        for line in result.lines
    ])
    rnd.status, rnd.settled_at, rnd.state = RoundStatus.SETTLED, now, state
    listeners.settlement_post(settlement=settlement)  # the ledger posting, atomic with the settlement
    audit_log(actor=actor, action="round.settle", object_type="round", object_id=rnd.pk, table_code=rnd.table.code,
              before={"status": RoundStatus.DEALING},
              after={"status": RoundStatus.SETTLED, "house": house.to_json(), "outcome": result.outcome.to_json() if result.outcome is not None else None,
                     "bets": [{"id": line.id, "result": line.result, "net": line.net, "commission": line.commission}
                              for line in result.lines]})
    listeners.round_settled(settlement=settlement)  # in this transaction: accounting's large-loss check
    return settlement


def _stakes_taken_by_choices(rnd: Round, engine: Engine, lines: Sequence[Line], bets: dict[str, Bet]) -> dict[str, Bet]:
    """Stakes put down by a choice rather than placed as a bet become bets of the event that took
    them (the engine says which), so every settled row has its bet."""
    if all(line.id in bets for line in lines):
        return {}
    events = list(rnd.events.filter(undone_at__isnull=True).order_by("seq"))
    taken: dict[str, Bet] = {}
    for bet, index in engine.stakes_taken_by_choices(lines, [e.payload for e in events], bets):
        event = events[index]
        taken[bet.id] = Bet.objects.create(round=rnd, event_index=event.seq, placed_by_id=event.posted_by_id,
                                           placed_at=event.posted_at, **Bet.fields_of(bet))
    listeners.bets_recorded(bets=list(taken.values()))
    for line in lines:
        if line.id not in bets and line.id not in taken:
            raise Conflict(gettext("the engine settles a bet %(bet)s that no bet or choice placed") % {"bet": line.id}, code="unknown_bet")
    return taken


@transaction.atomic
def round_void_request(*, round_id: int, actor: Any, reason: str) -> Round:
    """Ask for a live round to be voided (misdeal, exposed card…); a supervisor must approve."""
    rnd = lock_round(round_id, actor=actor)
    ensure_can_deal(actor, rnd.table)
    if rnd.status not in LIVE_STATUSES:
        raise Conflict(gettext("round #%(round)s is %(status)s: only a live round can be voided")
                       % {"round": rnd.number, "status": status_words(rnd.status)},
                       code=f"round_{rnd.status}")
    if rnd.void_refused_at is not None:
        raise Conflict(gettext("a void of round #%(round)s was already asked for and refused: finish the round")
                       % {"round": rnd.number},
                       code="void_refused")
    if rnd.void_requested_by_id is not None:
        # one request per round: a second would put another name on it, and the first requester could then
        # approve their own void
        raise Conflict(gettext("a void of round #%(round)s is already requested: a supervisor approves it")
                       % {"round": rnd.number},
                       code="void_already_requested")
    reason = (reason or "").strip() if isinstance(reason, str) else ""
    if not reason:
        raise InvalidInput(gettext("a void needs a written reason"), code="reason_required", field="reason")
    updated = Round.objects.filter(pk=rnd.pk, void_requested_by__isnull=True).update(
        void_reason=reason, void_requested_by=actor, void_requested_at=timezone.now())
    if updated != 1:
        raise Conflict(gettext("the round changed meanwhile"), code="concurrent_change")
    rnd.refresh_from_db()
    audit_log(actor=actor, action="round.void_request", object_type="round", object_id=rnd.pk,
              table_code=rnd.table.code, after={"reason": reason})
    return rnd


def _void_to_decide(round_id: int, actor: Any, *, approving: bool) -> Round:
    """The round locked, once its void may be decided by ``actor``: a pit manager of its table, not the one who
    asked, while the round is live, a void asked for and not yet refused (``approving``: whether the actor
    approves it, which the words of those two refusals say)."""
    rnd = lock_round(round_id)
    ensure_manages(actor, rnd.table)
    if rnd.status not in LIVE_STATUSES:
        raise Conflict(gettext("round #%(round)s is %(status)s") % {"round": rnd.number, "status": status_words(rnd.status)},
                       code=f"round_{rnd.status}")
    if rnd.void_requested_by_id is None:
        raise Conflict(gettext("no void was requested for this round"), code="no_void_request")
    if rnd.void_refused_at is not None:
        raise Conflict((gettext("the void of round #%(round)s was refused") if approving
                        else gettext("the void of round #%(round)s was already refused")) % {"round": rnd.number},
                       code="void_refused")
    if rnd.void_requested_by_id == actor.pk:
        raise Forbidden(gettext("a void must be approved by someone other than who requested it") if approving
                        else gettext("a void must be decided by someone other than who requested it"), code="same_person")
    return rnd


@transaction.atomic
def round_void_approve(*, round_id: int, actor: Any) -> Round:
    """A pit manager, never the one who asked, approves a void; the bets are returned unsettled."""
    rnd = _void_to_decide(round_id, actor, approving=True)
    before = rnd.status
    updated = Round.objects.filter(pk=rnd.pk, status__in=LIVE_STATUSES).update(
        status=RoundStatus.VOIDED, voided_by=actor, voided_at=timezone.now())
    if updated != 1:
        raise Conflict(gettext("the round changed meanwhile"), code="concurrent_change")
    rnd.refresh_from_db()
    audit_log(actor=actor, action="round.void", object_type="round", object_id=rnd.pk, table_code=rnd.table.code,
              before={"status": before}, after={"status": rnd.status, "reason": rnd.void_reason,
                                                "requested_by": rnd.void_requested_by_id})
    return rnd


@transaction.atomic
def round_void_refuse(*, round_id: int, actor: Any, reason: str) -> Round:
    """A pit manager, never the one who asked, refuses a requested void with a reason; the round goes on. The
    request stays on record beside the refusal, both written once."""
    rnd = _void_to_decide(round_id, actor, approving=False)
    reason = (reason or "").strip() if isinstance(reason, str) else ""
    if not reason:
        raise InvalidInput(gettext("a refusal needs a written reason"), code="reason_required", field="reason")
    updated = Round.objects.filter(pk=rnd.pk, status__in=LIVE_STATUSES, void_refused_at__isnull=True).update(
        void_refused_by=actor, void_refused_at=timezone.now(), void_refusal_reason=reason)
    if updated != 1:
        raise Conflict(gettext("the round changed meanwhile"), code="concurrent_change")
    rnd.refresh_from_db()
    audit_log(actor=actor, action="round.void_refuse", object_type="round", object_id=rnd.pk,
              table_code=rnd.table.code, after={"reason": reason, "requested_by": rnd.void_requested_by_id,
                                                "request_reason": rnd.void_reason})
    return rnd


@transaction.atomic
def event_undo(*, round_id: int, actor: Any, approver: Any) -> tuple[RoundEvent, Json]:
    """Undo the last card or choice of a live round, approved on the spot by a supervisor.

    ``approver`` is the pit manager whose signature (PIN or password) the caller has just checked
    (``casino.signatures.signed_by``: a wrong one counts toward the signature's limits, never the
    supervisor's sign-in lockout).
    They must manage the table and be someone other than who asks. The event keeps its row (who
    undid it, who approved, when) and drops out of the round document, so the engine replays the
    round without it and the dealer enters the right card.
    """
    rnd = lock_round(round_id, actor=actor)
    ensure_can_deal(actor, rnd.table)
    if rnd.status not in (RoundStatus.BETTING_CLOSED, RoundStatus.DEALING):
        raise Conflict(gettext("round #%(round)s is %(status)s: only a card of a round being dealt can be undone")
                       % {"round": rnd.number, "status": status_words(rnd.status)},
                       code=f"round_{rnd.status}")
    last = rnd.events.filter(undone_at__isnull=True).order_by("-seq").first()
    if last is None:
        raise Conflict(gettext("no card has been dealt in this round: nothing to undo"), code="nothing_to_undo")
    if isinstance(last.payload.get("bet"), dict) or "withdraw" in last.payload:
        # a between-stage bet is a financial record (a Bet row); a wrong one is voided with the round
        raise Conflict(gettext("the last entry is a bet, which cannot be undone: void the round instead"),
                       code="cannot_undo_bet")
    if approver is None or not approver.is_active:
        raise Forbidden(gettext("an undo needs the approval of an active supervisor"), code="approval_refused",
                        field="approver_username")
    if approver.pk == actor.pk:
        raise Forbidden(gettext("an undo must be approved by a supervisor other than who asks for it"), code="same_person",
                        field="approver_username")
    if not manages_table(approver, rnd.table):
        raise Forbidden(gettext("%(user)s is not a pit manager of %(pit)s") % {"user": approver.get_username(), "pit": rnd.table.pit.name},
                        code="pit_manager_required", field="approver_username")
    now = timezone.now()
    updated = RoundEvent.objects.filter(pk=last.pk, undone_at__isnull=True).update(
        undone_at=now, undone_by=actor, undo_approved_by=approver)
    if updated != 1:
        raise Conflict(gettext("the round changed meanwhile"), code="concurrent_change")
    stored = stored_document(rnd)
    rnd.document = {"bets": stored["bets"], "events": stored["events"][:last.seq]}
    result = _play(round_document(rnd))
    state = result.to_json()
    status = RoundStatus.DEALING if rnd.document["events"] else RoundStatus.BETTING_CLOSED
    Round.objects.filter(pk=rnd.pk).update(status=status, state=state, document=rnd.document)
    last.refresh_from_db()
    audit_log(actor=actor, action="event.undo", object_type="round", object_id=rnd.pk, table_code=rnd.table.code,
              before={"status": rnd.status, "seq": last.seq, "event": last.payload},
              after={"status": status, "approved_by": approver.get_username(), "next": _said(result)})
    return last, state
