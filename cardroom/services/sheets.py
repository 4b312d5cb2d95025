"""Score sheets: open, record a deal, correct a deal, close, collect rake.

Each function is one transaction: lock (the tournament, then the sheet), check who may act, replay
the whole sheet through its game (``tables.scoring``) with the change, write, audit in the table's
chain. The game is the only judge of a deal: a refusal (:class:`EngineError`, a 400 naming the deal
and the field) leaves nothing written. Deal entries are never changed: a correction is a new entry
that supersedes the one it corrects, and the sheet is replayed from the entries in force.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from cardroom.models import PLAYER_NAME_MAX, ScoreSheet, SheetDeal, SheetRake, SheetStatus, Tournament, TournamentStatus
from cardroom.services import postings
from cardroom.wording import refusal_words
from casino.audit.services import audit_log
from casino.errors import Conflict, InvalidInput, NotFound
from tables.access import ensure_can_deal, ensure_manages
from tables.engines.base import Json
from tables.engines.errors import EngineError
from tables.models import Table, TableStatus
from tables.scoring.base import ScoredGame, score_sheet
from tables.scoring.registry import all_games, get_game
from tables.wording import game_title

MAX_REASON = 500
MAX_RAKE = 10**12  # minor units: a typo guard, far above any real rake


def game_words(code: str) -> str:
    """A card-room game as its sheet's title names it (``gin_rummy`` → Gin rummy) in the reader's language,
    never its code."""
    game = all_games().get(code)
    return game_title(str(game.title)) if game is not None else str(code).replace("_", " ").capitalize()


# -- locks (always the tournament before its sheet) ------------------------------------------------


def lock_tournament(tournament_id: Any) -> Tournament:
    tournament = (
        Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if isinstance(tournament_id, int)
        else None
    )
    if tournament is None:
        raise NotFound(gettext("no tournament %(tournament)s") % {"tournament": tournament_id}, code="unknown_tournament", field="tournament")
    return tournament


def lock_sheet(sheet_id: Any, *, with_tournament: bool = False) -> ScoreSheet:
    """The sheet, locked. ``with_tournament``: its tournament first, if it has one, so that finishing a
    tournament and correcting one of its (ended) sheets wait for each other in one order. Entering deals
    needs no tournament lock: the tournament only finishes once none of its sheets is open, and only an
    open sheet takes deals — so deals at a tournament's tables do not queue behind each other."""
    tournament_id = (
        ScoreSheet.objects.filter(pk=sheet_id).values_list("tournament_id", flat=True).first()
        if with_tournament and isinstance(sheet_id, int)
        else None
    )
    if tournament_id is not None:
        lock_tournament(tournament_id)
    sheet = (
        ScoreSheet.objects.select_for_update(of=("self",))
        .select_related("table__pit", "tournament")
        .filter(pk=sheet_id)
        .first()
        if isinstance(sheet_id, int)
        else None
    )
    if sheet is None:
        raise NotFound(gettext("no score sheet %(sheet)s") % {"sheet": sheet_id}, code="unknown_sheet")
    return sheet


# -- the sheet as the game reads it ----------------------------------------------------------------


def entries_in_force(sheet: ScoreSheet) -> list[SheetDeal]:
    """The entry in force for each deal of the game (the last correction, or the first entry), in deal order."""
    return list(SheetDeal.objects.filter(sheet=sheet, superseded_by__isnull=True).order_by("deal"))


def replay(sheet: ScoreSheet, deals: list[Json]) -> Json:
    """The game's answer for the sheet with these deals (a refusal raises EngineError: nothing is written)."""
    return score_sheet(get_game(sheet.game), sheet.document(deals))


def _ended(game: ScoredGame, state: Json, previous: str, config: Mapping[str, Any]) -> tuple[str, str]:
    """(status, winner) after a replay: the game's winner ends it; a sheet closed early stays closed
    with its leader; otherwise it is (again) in progress."""
    if state["winner"] is not None:
        return SheetStatus.FINISHED, state["winner"]
    if previous == SheetStatus.CLOSED:
        return SheetStatus.CLOSED, (game.leader(state["totals"], config=config) if state["deals"] else None) or ""
    return SheetStatus.OPEN, ""


def _reason(reason: Any, *, required: bool) -> str:
    text = reason.strip() if isinstance(reason, str) else ""
    if required and not text:
        raise InvalidInput(gettext("a reason is required"), code="reason_required", field="reason")
    if len(text) > MAX_REASON:
        raise InvalidInput(gettext("the reason is longer than %(count)s characters") % {"count": MAX_REASON}, field="reason")
    return text


def _summary(sheet: ScoreSheet) -> Json:
    return {
        "game": sheet.game,
        "status": sheet.status,
        "deals": sheet.deals,
        "totals": sheet.totals,
        "winner": sheet.winner,
    }


# -- services ---------------------------------------------------------------------------------------


@transaction.atomic
def sheet_open(
    *, table_id: Any, game: Any, players: Any, config: Any = None, tournament_id: Any = None, actor: Any
) -> ScoreSheet:
    """Start a score sheet at a table: its dealer (assigned now) or its pit manager."""
    table = Table.objects.select_related("pit").filter(pk=table_id).first() if isinstance(table_id, int) else None
    if table is None:
        raise NotFound(gettext("no table %(table)s") % {"table": table_id}, code="unknown_table", field="table")
    tournament = lock_tournament(tournament_id) if tournament_id is not None else None
    ensure_can_deal(actor, table)
    if table.status != TableStatus.OPEN:
        raise Conflict(gettext("table %(table)s is closed") % {"table": table.code}, code="table_closed")
    if tournament is not None:
        if tournament.status != TournamentStatus.RUNNING:
            raise Conflict(
                gettext("tournament %(tournament)s is %(status)s, not running")
                % {"tournament": tournament.name, "status": tournament.get_status_display().lower()},
                code="tournament_not_running",
            )
        if table.pit_id != tournament.pit_id:
            raise InvalidInput(
                gettext("tournament %(tournament)s is played in %(pit)s, not at %(table)s")
                % {"tournament": tournament.name, "pit": tournament.pit.name, "table": table.code}, field="table",
            )
        if game is not None and game != tournament.game:
            raise InvalidInput(gettext("tournament %(tournament)s plays %(game)s")
                               % {"tournament": tournament.name, "game": game_words(tournament.game)}, field="game")
        if config:
            raise InvalidInput(gettext("a tournament sheet plays the tournament's settings"), field="config")
        game, config = tournament.game, tournament.config
        entered = set(tournament.entries.values_list("player", flat=True))
        missing = [p for p in players if p not in entered] if isinstance(players, list) else []
        if missing:
            raise InvalidInput(gettext("not entered in %(tournament)s: %(players)s")
                               % {"tournament": tournament.name, "players": ", ".join(map(str, missing))}, field="players")
    rules = get_game(game)
    if isinstance(players, list) and any(isinstance(p, str) and len(p) > PLAYER_NAME_MAX for p in players):
        raise InvalidInput(gettext("a player's name is at most %(count)s characters") % {"count": PLAYER_NAME_MAX}, field="players")
    state = score_sheet(rules, {"config": config, "players": players, "deals": []})
    busy = ScoreSheet.objects.filter(table=table, status=SheetStatus.OPEN).first()
    if busy is not None:
        raise Conflict(gettext("sheet %(sheet)s (%(game)s) is still in progress at %(table)s")
                       % {"sheet": busy.pk, "game": game_words(busy.game), "table": table.code}, code="sheet_in_progress")
    sheet = ScoreSheet.objects.create(
        table=table,
        tournament=tournament,
        game=rules.name,
        config=state["config"],
        players=state["players"],
        totals=state["totals"],
        state=state,
        opened_by=actor,
        opened_at=timezone.now(),
    )
    audit_log(
        actor=actor,
        action="sheet.open",
        object_type="score_sheet",
        object_id=sheet.pk,
        table_code=table.code,
        after={
            "game": sheet.game,
            "config": sheet.config,
            "players": sheet.players,
            "tournament": tournament.pk if tournament else None,
        },
    )
    return sheet


@transaction.atomic
def deal_record(*, sheet_id: Any, entry: Any, actor: Any) -> SheetDeal:
    """Enter the next deal: the game checks it and scores it; the sheet's totals and end follow."""
    sheet = lock_sheet(sheet_id)
    ensure_can_deal(actor, sheet.table)
    if sheet.status != SheetStatus.OPEN:
        raise Conflict(
            (gettext("sheet %(sheet)s is %(status)s: %(winner)s won") if sheet.winner
             else gettext("sheet %(sheet)s is %(status)s"))
            % {"sheet": sheet.pk, "status": sheet.get_status_display().lower(), "winner": sheet.winner},
            code="sheet_not_open",
        )
    if not isinstance(entry, Mapping):
        raise InvalidInput(gettext("the entry must be an object: what the rules need for the deal"), field="entry")
    in_force = entries_in_force(sheet)
    state = replay(sheet, [e.entry for e in in_force] + [entry])
    row = SheetDeal.objects.create(
        sheet=sheet,
        seq=sheet.entries,
        deal=len(in_force),
        entry=entry,
        points=state["deals"][-1]["points"],
        recorded_by=actor,
        recorded_at=timezone.now(),
    )
    _save(sheet, state, entries=sheet.entries + 1, previous=sheet.status)
    audit_log(
        actor=actor,
        action="sheet.deal",
        object_type="score_sheet",
        object_id=sheet.pk,
        table_code=sheet.table.code,
        after={"deal": row.deal, "seq": row.seq, "entry": entry, "points": row.points, **_summary(sheet)},
    )
    return row


@transaction.atomic
def deal_correct(*, sheet_id: Any, deal: Any, entry: Any, reason: Any, actor: Any) -> SheetDeal:
    """Correct a deal already entered: a new entry supersedes it and the sheet is replayed.

    The table's dealer corrects while the game is in progress; once it has ended, only a pit manager
    (the winner may change, and with it the sheet's status). A tournament's sheets are final once the
    tournament has ended."""
    sheet = lock_sheet(sheet_id, with_tournament=True)
    if sheet.status == SheetStatus.OPEN:
        ensure_can_deal(actor, sheet.table)
    else:
        ensure_manages(actor, sheet.table)
    if sheet.tournament is not None and sheet.tournament.status in (
        TournamentStatus.FINISHED,
        TournamentStatus.CANCELLED,
    ):
        raise Conflict(
            gettext("tournament %(tournament)s is %(status)s: its sheets are final")
            % {"tournament": sheet.tournament.name, "status": sheet.tournament.get_status_display().lower()},
            code="tournament_ended",
        )
    why = _reason(reason, required=True)
    if isinstance(deal, bool) or not isinstance(deal, int) or not 0 <= deal < sheet.deals:
        raise NotFound(
            gettext("sheet %(sheet)s has no deal %(deal)s (deals 0 to %(last)s)") % {"sheet": sheet.pk, "deal": deal,
                                                                                  "last": sheet.deals - 1},
            code="unknown_deal", field="deal",
        )
    if not isinstance(entry, Mapping):
        raise InvalidInput(gettext("the entry must be an object: what the rules need for the deal"), field="entry")
    in_force = entries_in_force(sheet)
    old = in_force[deal]
    state = replay(sheet, [dict(entry) if e.deal == deal else e.entry for e in in_force])
    row = SheetDeal.objects.create(
        sheet=sheet,
        seq=sheet.entries,
        deal=deal,
        entry=entry,
        points=state["deals"][deal]["points"],
        supersedes=old,
        reason=why,
        recorded_by=actor,
        recorded_at=timezone.now(),
    )
    before = _summary(sheet)
    _save(sheet, state, entries=sheet.entries + 1, previous=sheet.status)
    audit_log(
        actor=actor,
        action="sheet.correct",
        object_type="score_sheet",
        object_id=sheet.pk,
        table_code=sheet.table.code,
        before={"deal": deal, "seq": old.seq, "entry": old.entry, "points": old.points, **before},
        after={"deal": deal, "seq": row.seq, "entry": entry, "points": row.points, "reason": why, **_summary(sheet)},
    )
    return row


@transaction.atomic
def sheet_close(*, sheet_id: Any, actor: Any, reason: Any = "") -> ScoreSheet:
    """End a sheet before its game's own end (a chips game when the players stop, a game abandoned).
    The one player ahead, if any, is named the winner."""
    sheet = lock_sheet(sheet_id)
    ensure_can_deal(actor, sheet.table)
    if sheet.status != SheetStatus.OPEN:
        raise Conflict(gettext("sheet %(sheet)s is already %(status)s") % {"sheet": sheet.pk, "status": sheet.get_status_display().lower()}, code="sheet_not_open")
    why = _reason(reason, required=False)
    rules = get_game(sheet.game)
    leader = rules.leader(sheet.totals, config=sheet.config) if sheet.deals else None
    before = _summary(sheet)
    updated = ScoreSheet.objects.filter(pk=sheet.pk, status=SheetStatus.OPEN).update(
        status=SheetStatus.CLOSED, winner=leader or "", ended_at=timezone.now(), closed_by=actor, close_reason=why
    )
    if updated != 1:  # the row is locked: nothing else can have moved it
        raise Conflict(gettext("sheet %(sheet)s changed meanwhile; reload") % {"sheet": sheet.pk}, code="sheet_changed")
    sheet.refresh_from_db()
    audit_log(
        actor=actor,
        action="sheet.close",
        object_type="score_sheet",
        object_id=sheet.pk,
        table_code=sheet.table.code,
        before=before,
        after={**_summary(sheet), "reason": why},
    )
    return sheet


@transaction.atomic
def rake_collect(*, sheet_id: Any, amount: Any, actor: Any, memo: Any = "") -> SheetRake:
    """Rake (or a time charge) taken at a sheet's table: a record and its ledger posting, once."""
    sheet = lock_sheet(sheet_id)
    ensure_can_deal(actor, sheet.table)
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= MAX_RAKE:
        raise InvalidInput(gettext("the amount must be a whole amount of money, more than 0"), field="amount")
    text = memo.strip() if isinstance(memo, str) else ""
    if len(text) > 200:
        raise InvalidInput(gettext("the memo is at most 200 characters"), field="memo")
    rake = SheetRake.objects.create(
        sheet=sheet, amount=amount, memo=text, collected_by=actor, collected_at=timezone.now()
    )
    txn = postings.post_rake(rake=rake, actor=actor)
    audit_log(
        actor=actor,
        action="sheet.rake",
        object_type="score_sheet",
        object_id=sheet.pk,
        table_code=sheet.table.code,
        after={"rake": rake.pk, "amount": amount, "memo": text, "ledger_transaction": txn.pk},
    )
    return rake


def deal_preview(*, sheet: ScoreSheet, entry: Any) -> Json:
    """What an entry would score as the sheet's next deal, without writing anything."""
    if not isinstance(entry, Mapping):
        raise InvalidInput(gettext("the entry must be an object: what the rules need for the deal"), field="entry")
    if sheet.status != SheetStatus.OPEN:
        raise Conflict(gettext("sheet %(sheet)s is %(status)s") % {"sheet": sheet.pk, "status": sheet.get_status_display().lower()}, code="sheet_not_open")
    state = replay(sheet, [e.entry for e in entries_in_force(sheet)] + [entry])
    return {"deal": state["deals"][-1], "totals": state["totals"], "winner": state["winner"]}


def game_check(*, game: Any, check: str, payload: Any) -> Json:
    """A validity check the game offers (a rummy meld, a Crazy Casino build)."""
    rules = get_game(game)
    try:
        return rules.check(check, payload)
    except EngineError as exc:
        if exc.code == "unknown_check":
            raise NotFound(refusal_words(exc), code="unknown_check") from None
        raise


def _save(sheet: ScoreSheet, state: Json, *, entries: int, previous: str) -> None:
    """Write a replay's answer to the (locked) sheet, as one conditional update."""
    rules = get_game(sheet.game)
    status, winner = _ended(rules, state, previous, sheet.config)
    ended_at = (
        sheet.ended_at
        if status != SheetStatus.OPEN and sheet.ended_at
        else (timezone.now() if status != SheetStatus.OPEN else None)
    )
    updated = ScoreSheet.objects.filter(pk=sheet.pk, entries=sheet.entries).update(
        entries=entries,
        deals=len(state["deals"]),
        totals=state["totals"],
        state=state,
        status=status,
        winner=winner,
        ended_at=ended_at,
    )
    if updated != 1:
        raise Conflict(gettext("sheet %(sheet)s changed meanwhile; reload") % {"sheet": sheet.pk}, code="sheet_changed")
    sheet.refresh_from_db()
