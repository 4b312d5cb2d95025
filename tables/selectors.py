"""Reads of the floor, scoped to what the user may see."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from casino.core.roles import Role, has_role, roles_of
from casino.errors import Conflict, InvalidInput
from tables.access import current_assignment
from tables.engines.base import Bet as EngineBet
from tables.engines.base import Json
from tables.engines.cards import parse_card
from tables.engines.errors import EngineError
from tables.engines.inputs import InputKind
from tables.engines.profile import TableNow
from tables.engines.registry import get_engine
from tables.engines.result import RoundResult
from tables.engines.speech import speech
from tables.models import (
    Assignment,
    BetWithdrawal,
    PayCorrection,
    Pit,
    Round,
    RoundEvent,
    RoundStatus,
    Shift,
    ShiftStatus,
    Shoe,
    Table,
)
from tables.protection.dealers import DealerActivity


def visible_tables(user: Any) -> QuerySet[Table]:
    """Admins, accountants and auditors see every table; pit managers their pits; dealers their table now."""
    tables = Table.objects.select_related("pit")
    if has_role(user, Role.ACCOUNTANT, Role.AUDITOR):
        return tables
    held = roles_of(user)
    now = timezone.now()
    condition = Q(pk__in=[])
    if Role.PIT_MANAGER in held:
        condition |= Q(pit__managers=user)
    if Role.DEALER in held:
        condition |= Q(assignments__dealer=user, assignments__starts_at__lte=now, assignments__ends_at__gt=now,
                       assignments__relieved_at__isnull=True, assignments__shift__status=ShiftStatus.OPEN)
    return tables.filter(condition).distinct()


def visible_rounds(user: Any) -> QuerySet[Round]:
    rounds = Round.objects.select_related("table", "dealer", "shift")
    if has_role(user, Role.ACCOUNTANT, Role.AUDITOR):
        return rounds
    return rounds.filter(table__in=visible_tables(user).values("pk"))


def round_document(rnd: Round, *, extra_bets: list[Json] | None = None,
                   extra_events: list[Json] | None = None, from_rows: bool = False) -> Json:
    """The round as the engines read it (docs/round_format.md). ``from_rows``: from the Bet and RoundEvent
    rows, the record, not the copy on the round row (reconciliation checks the record)."""
    stored = stored_document(rnd, from_rows=from_rows)
    return {"game": rnd.game, "config": rnd.config, "bets": stored["bets"] + (extra_bets or []),
            "events": stored["events"] + (extra_events or [])}


def stored_document(rnd: Round, *, from_rows: bool = False) -> Json:
    """The bets placed at betting time and the events not undone: the copy on the round row, or,
    for a round written in bulk without one, read from the rows (plain values, no model instances)."""
    if rnd.document is not None and not from_rows:
        return rnd.document
    rows = (rnd.bets.filter(event_index__isnull=True, withdrawal__isnull=True).order_by("id")
            .values_list("client_id", "seat", "type", "amount", "extra"))
    bets = [EngineBet(*row).to_json() for row in rows]
    events = list(rnd.events.filter(undone_at__isnull=True).order_by("seq").values_list("payload", flat=True))
    return {"bets": bets, "events": events}


# -- the words of a round stored before steps carried message ids -------------------------------------------


def _unworded(step: Any) -> bool:
    """A step (or a settled round's state) that says something in English but carries no message id."""
    return isinstance(step, dict) and bool(step.get("say")) and not step.get("message")


def _with_messages(stored: Json, replayed: Json) -> Json:
    """``stored`` with the message ids it lacks taken from ``replayed`` (the same round played again): the
    round's own state and its step due, nothing else changed."""
    out = dict(stored)
    if _unworded(stored) and replayed.get("message"):
        out["message"] = replayed["message"]
    step, again = stored.get("next"), replayed.get("next")
    if isinstance(step, dict) and _unworded(step) and isinstance(again, dict) and again.get("message"):
        out["next"] = {**step, "message": again["message"]}
    return out


def worded_state(rnd: Round) -> Json | None:
    """The round's state as the screens word it. A round stored before steps carried a ``message`` (the
    dealer's words as an id and params) has its messages re-derived by playing its document through its
    engine again (tables.engines.registry), never read back from the English ``say``; a round still taking
    bets is asked for them (``place_bets``). A state with its messages is returned as stored."""
    state = rnd.state
    if not isinstance(state, dict) or not (_unworded(state) or _unworded(state.get("next"))):
        return state
    cached = rnd.__dict__.get("_croupier_worded")
    if cached is not None and cached[0] is state:
        return cached[1]
    if rnd.status == RoundStatus.OPEN:
        replayed: Json = {"next": {"message": speech("place_bets").to_json()}}
    else:
        try:
            engine = get_engine(rnd.game)
            replayed = engine.play(engine.load(round_document(rnd))).to_json()
        except EngineError:  # a round the engine now refuses keeps its English
            replayed = {}
    worded = _with_messages(state, replayed)
    rnd.__dict__["_croupier_worded"] = (state, worded)
    return worded


def recorded_step(record: Any, step: Json) -> Json:
    """A dealer's step as an audit record of a round recorded it (``after.next``), with its message: an older
    record's is re-derived by playing the round as it stood when the record was written (its bets, and the
    events posted by then and not yet undone) through its engine. The replayed step is taken only when it
    says the same as the record (the same engine, the same words); otherwise the record stands as written."""
    if not _unworded(step) or getattr(record, "object_type", "") != "round":
        return step
    rnd = Round.objects.filter(pk=str(record.object_id)).first() if str(record.object_id).isdigit() else None
    if rnd is None:
        return step
    at = record.created_at
    events = list(rnd.events.filter(posted_at__lte=at).filter(Q(undone_at__isnull=True) | Q(undone_at__gt=at))
                  .order_by("seq", "id").values_list("payload", flat=True))
    try:
        engine = get_engine(rnd.game)
        again = engine.play(engine.load({"game": rnd.game, "config": rnd.config,
                                         "bets": stored_document(rnd)["bets"], "events": events})).to_json()
    except EngineError:
        return step
    found = again.get("next")
    if isinstance(found, dict) and found.get("say") == step.get("say") and found.get("message"):
        return {**step, "message": found["message"]}
    return step


def played(rnd: Round, result: RoundResult) -> None:
    """Remember on ``rnd`` the engine's answer for its document as it now stands (a service has just played it),
    so that the answer's :func:`round_table_now` does not play the round again."""
    rnd.__dict__["_croupier_played"] = (rnd.document, result)


def round_table_now(rnd: Round) -> TableNow:
    """Where a round stands for the dealer, as its engine says: the bank's seat, the button, whose turn
    it is and what each seat may do now (``.seat(n)``; ``.as_dict(seats)`` for a screen). The round is played
    once per request: a service that has just played it (:func:`played`) hands its answer on."""
    memo = rnd.__dict__.get("_croupier_played")
    result = memo[1] if memo is not None and memo[0] is rnd.document and rnd.document is not None else None
    return get_engine(rnd.game).table_now(round_document(rnd), betting_open=rnd.status == RoundStatus.OPEN,
                                          result=result)


def set_hand_check(rnd: Round, *, seat: Any, hands: Any) -> dict[str, Any]:
    """Whether setting the cards the round asks a seat to set now as ``hands`` fouls, and why, in a
    dealer's words: a dry run of the engine's check that writes nothing (``{"ok", "reason"}``)."""
    answer = RoundResult.of_stored(rnd.state)
    step = answer.next.input if answer is not None and answer.next is not None else None
    if step is None or step.kind != InputKind.SET_HAND or str(step.seat) != str(seat):
        raise Conflict(gettext("seat %(seat)s has no hand to set now") % {"seat": seat}, code="no_hand_to_set", field="seat",
                       params={"seat": seat})
    if not isinstance(hands, dict):
        raise InvalidInput(gettext("hands must be an object of card lists by hand name"), code="invalid", field="hands")
    reason = get_engine(rnd.game).check_set(step.cards, hands)
    return {"ok": reason is None, "reason": reason}


def shift_at(*, at: dt.datetime | None = None, table: Table | None = None, pit: Pit | None = None,
             actor: Any = None) -> Shift | None:
    """The open shift something happening at ``at`` (default now) belongs to: one rule for a round at
    a table, a rating slip or a cash-desk entry, a card-room posting and a slot posting, so that
    records made at the same moment land in the same shift and gaming day.

    1. At a ``table``, the ``actor``'s assignment there now: a dealer's round is in the shift they deal.
    2. At a table or in a ``pit``, the open shift of a dealer's assignment in that pit at ``at``.
    3. The open shift whose hours cover ``at`` (the latest to start, where two overlap).
    4. Else the latest open shift (one kept open past its hours)."""
    if table is not None and actor is not None and at is None:
        assignment = current_assignment(actor, table)
        if assignment is not None:
            return assignment.shift
    at = at or timezone.now()
    pit_id = table.pit_id if table is not None else pit.pk if pit is not None else None
    open_shifts = Shift.objects.filter(status=ShiftStatus.OPEN).select_related("shift_type")
    if pit_id is not None:
        in_pit = (Assignment.objects.filter(table__pit_id=pit_id, starts_at__lte=at, ends_at__gt=at,
                                            relieved_at__isnull=True, shift__status=ShiftStatus.OPEN)
                  .order_by("-starts_at").values("shift_id")[:1])
        found = open_shifts.filter(pk__in=in_pit).first()
        if found is not None:
            return found
    return (open_shifts.filter(starts_at__lte=at, ends_at__gt=at).order_by("-starts_at").first()
            or open_shifts.order_by("-starts_at").first())


def open_shift_for(*, table: Table | None = None, pit: Pit | None = None, actor: Any = None) -> Shift:
    """:func:`shift_at` now, refused when no shift is open."""
    shift = shift_at(table=table, pit=pit, actor=actor)
    if shift is None:
        raise Conflict(gettext("no shift is open: a pit manager must open one first"), code="no_open_shift")
    return shift


def current_shift() -> Shift | None:
    """The shift now, away from any table (the floor's, the cage's): :func:`shift_at`."""
    return shift_at()


def newest_open_shift() -> Shift | None:
    """The open shift that started last (the one just opened, where the tables roll to)."""
    return Shift.objects.filter(status=ShiftStatus.OPEN).select_related("shift_type").order_by("-starts_at").first()


def pit_tables(user: Any) -> QuerySet[Table]:
    """The tables a pit manager runs (every table for an admin)."""
    tables = Table.objects.select_related("pit").order_by("pit__code", "code")
    if has_role(user):  # admin
        return tables
    if Role.PIT_MANAGER in roles_of(user):
        return tables.filter(pit__in=Pit.objects.filter(managers=user).values("pk"))  # a subquery: no DISTINCT
    return tables.none()


def shifts_open_in(start: Any, end: Any) -> list[str]:
    """The shifts that began before ``end`` (and end after ``start``) and are not closed yet, in a sentence
    each: a month is archived only once every shift that touched it is closed (casino/audit/archive.py)."""
    open_shifts = Shift.objects.filter(starts_at__lt=end, ends_at__gt=start).exclude(
        status=ShiftStatus.CLOSED).select_related("shift_type").order_by("starts_at")
    return [f"the shift {shift} is not closed" for shift in open_shifts]


def shoe_decks(table: Table) -> int | None:
    """The packs of the table's shoe, for a game dealt from a shoe of several packs or one (its rules have a
    ``decks`` setting); None for the others."""
    config = get_engine(table.game).resolve_config(table.engine_config())
    decks = config.get("decks")
    return decks if isinstance(decks, int) and not isinstance(decks, bool) else None


def current_shoe(table: Table) -> Shoe | None:
    """The shoe the table deals from now: the last one the pit opened, if its packs are still the table's."""
    decks = shoe_decks(table)
    shoe = table.shoes.order_by("-number").first()
    return shoe if shoe is not None and decks == shoe.decks else None


def shoe_cards_seen(shoe_id: int, *, excluding_round: int | None = None) -> Counter[str]:
    """Each card (canonical text, ``"9S"``) dealt from the shoe in its rounds that were not voided."""
    seen: Counter[str] = Counter()
    rounds = Round.objects.filter(shoe_id=shoe_id).exclude(status=RoundStatus.VOIDED)
    if excluding_round is not None:
        rounds = rounds.exclude(pk=excluding_round)
    for rnd in rounds.only("pk", "document", "game", "config"):
        for event in stored_document(rnd)["events"]:
            card = event.get("card") if isinstance(event, dict) else None
            if isinstance(card, str):
                seen[card_text(card)] += 1
    return seen


def card_text(card: str) -> str:
    """A card as the dealer entered it, in its one canonical spelling (``"10h"`` is ``"TH"``)."""
    try:
        return str(parse_card(card, allow_joker=True))
    except EngineError:
        return card


def dealer_activity(tables: list[Table], *, since: dt.datetime, until: dt.datetime) -> dict[str, list[DealerActivity]]:
    """Each dealer's rounds, hours dealt, undos, voids, corrected and withdrawn bets at these tables in the period,
    by game, and the pay lists they confirmed (settled) that a supervisor later corrected, each round once
    (docs/game_protection.md, "Dealers")."""
    ids = [t.pk for t in tables]
    games = {t.pk: t.game for t in tables}
    window = Q(opened_at__gte=since, opened_at__lt=until)
    key_rounds: dict[tuple[str, str], dict[str, float]] = {}

    def row(dealer: str, game: str) -> dict[str, float]:
        return key_rounds.setdefault((game, dealer), {"rounds": 0, "hours": 0.0, "undos": 0, "voids": 0,
                                                      "corrections": 0, "withdrawn": 0, "pay_corrected": 0})

    for r in (Round.objects.filter(window, table_id__in=ids).values("dealer__username", "game")
              .annotate(n=Count("id"), voids=Count("id", filter=Q(status=RoundStatus.VOIDED)))):
        got = row(r["dealer__username"], r["game"])
        got["rounds"], got["voids"] = r["n"], r["voids"]
    for u in (RoundEvent.objects.filter(round__table_id__in=ids, undone_at__gte=since, undone_at__lt=until)
              .values("round__dealer__username", "round__game").annotate(n=Count("id"))):
        row(u["round__dealer__username"], u["round__game"])["undos"] = u["n"]
    for w in (BetWithdrawal.objects.filter(bet__round__table_id__in=ids, withdrawn_at__gte=since,
                                           withdrawn_at__lt=until)
              .values("bet__round__dealer__username", "bet__round__game")
              .annotate(corrected=Count("id", filter=Q(replaced_by__isnull=False)),
                        taken=Count("id", filter=Q(replaced_by__isnull=True)))):
        got = row(w["bet__round__dealer__username"], w["bet__round__game"])
        got["corrections"], got["withdrawn"] = w["corrected"], w["taken"]
    for c in (PayCorrection.objects.filter(round__table_id__in=ids, round__opened_at__gte=since,
                                          round__opened_at__lt=until)
              .values("confirmed_by__username", "round__game").annotate(n=Count("round_id", distinct=True))):
        row(c["confirmed_by__username"], c["round__game"])["pay_corrected"] = c["n"]
    for a in Assignment.objects.filter(table_id__in=ids, starts_at__lt=until, ends_at__gt=since).select_related(
            "dealer"):
        end = min(a.relieved_at or a.ends_at, a.ends_at, until, timezone.now())
        seconds = (end - max(a.starts_at, since)).total_seconds()
        if seconds > 0:
            row(a.dealer.get_username(), games[a.table_id])["hours"] += seconds / 3600
    out: dict[str, list[DealerActivity]] = {}
    for (game, dealer), f in sorted(key_rounds.items()):
        if not f["rounds"]:
            continue
        out.setdefault(game, []).append(DealerActivity(
            dealer, int(f["rounds"]), f["hours"], undos=int(f["undos"]), voids=int(f["voids"]),
            corrections=int(f["corrections"]), withdrawn=int(f["withdrawn"]), pay_corrected=int(f["pay_corrected"])))
    return out
