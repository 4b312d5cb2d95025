"""Tournaments: create, take entries (each fee posted), start, finish (prizes paid), cancel (fees refunded).

A tournament belongs to a pit; its pit managers run it. Entry fees go to the prize pool (a
liability) and house fees to revenue as each player enters; the prizes, which must share out the
prize pool exactly, are paid in one transaction when it finishes; a cancelled tournament's entries
are refunded by reversing their transactions. Every step is audited in the casino's chain.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from accounting.models import LedgerTransaction
from accounting.services.ledger import transaction_reverse
from cardroom.models import ScoreSheet, SheetStatus, Tournament, TournamentEntry, TournamentPayout, TournamentStatus
from cardroom.selectors import prize_pool
from cardroom.services import postings
from cardroom.services.sheets import lock_tournament
from casino.audit.services import audit_log
from casino.core.roles import Role, has_role, roles_of
from casino.errors import Conflict, Forbidden, InvalidInput, NotFound
from casino.money import money_amount
from tables.models import Pit
from tables.scoring.registry import get_game

MAX_FEE = 10**12  # minor units: a typo guard
# the fields a refusal names, as a sentence says them
FIELDS = {"entry_fee": gettext_lazy("the entry fee"), "house_fee": gettext_lazy("the house fee"),
          "name": gettext_lazy("the name"), "player": gettext_lazy("the player's name"),
          "reason": gettext_lazy("the reason")}


def manages_pit(user: Any, pit: Pit) -> bool:
    if has_role(user):  # admin
        return True
    return Role.PIT_MANAGER in roles_of(user) and pit.managers.filter(pk=user.pk).exists()


def ensure_manages_pit(user: Any, pit: Pit) -> None:
    if not manages_pit(user, pit):
        raise Forbidden(gettext("only a pit manager of %(pit)s may do this") % {"pit": pit.name}, code="pit_manager_required")


def _money(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_FEE:
        raise InvalidInput(gettext("%(field)s must be a whole amount of money, 0 or more") % {"field": FIELDS[field]}, field=field)
    return value


def _name(value: Any, field: str, *, longest: int) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text or len(text) > longest:
        raise InvalidInput(gettext("%(field)s must be 1 to %(count)s characters") % {"field": FIELDS[field], "count": longest}, field=field)
    return text


def _summary(t: Tournament) -> dict[str, Any]:
    return {"name": t.name, "status": t.status, "game": t.game, "entry_fee": t.entry_fee, "house_fee": t.house_fee}


@transaction.atomic
def tournament_create(
    *, name: Any, pit_id: Any, game: Any, entry_fee: Any, house_fee: Any = 0, config: Any = None, actor: Any
) -> Tournament:
    pit = Pit.objects.filter(pk=pit_id).first() if isinstance(pit_id, int) else None
    if pit is None:
        raise NotFound(gettext("no pit %(pit)s") % {"pit": pit_id}, code="unknown_pit", field="pit")
    ensure_manages_pit(actor, pit)
    title = _name(name, "name", longest=100)
    rules = get_game(game)
    resolved = rules.resolve_config(config)
    t = Tournament.objects.create(
        name=title,
        pit=pit,
        game=rules.name,
        config=resolved,
        entry_fee=_money(entry_fee, "entry_fee"),
        house_fee=_money(house_fee, "house_fee"),
        created_by=actor,
        created_at=timezone.now(),
    )
    audit_log(
        actor=actor,
        action="tournament.create",
        object_type="tournament",
        object_id=t.pk,
        after={**_summary(t), "pit": pit.code, "config": resolved},
    )
    return t


@transaction.atomic
def tournament_register(*, tournament_id: Any, player: Any, actor: Any) -> TournamentEntry:
    """Enter a player: the entry fee to the prize pool and the house fee to revenue, posted now."""
    t = lock_tournament(tournament_id)
    ensure_manages_pit(actor, t.pit)
    if t.status != TournamentStatus.REGISTERING:
        raise Conflict(gettext("tournament %(tournament)s is %(status)s: entries are closed")
                       % {"tournament": t.name, "status": t.get_status_display().lower()}, code="registration_closed")
    who = _name(player, "player", longest=40)
    if t.entries.filter(player=who).exists():
        raise Conflict(gettext("%(player)s is already entered in %(tournament)s") % {"player": who, "tournament": t.name}, code="already_entered", field="player")
    entry = TournamentEntry.objects.create(
        tournament=t,
        player=who,
        fee=t.entry_fee,
        house_fee=t.house_fee,
        registered_by=actor,
        registered_at=timezone.now(),
    )
    txn = postings.post_entry(entry=entry, actor=actor)
    audit_log(
        actor=actor,
        action="tournament.register",
        object_type="tournament",
        object_id=t.pk,
        after={
            "entry": entry.pk,
            "player": who,
            "fee": entry.fee,
            "house_fee": entry.house_fee,
            "ledger_transaction": txn.pk if txn else None,
        },
    )
    return entry


@transaction.atomic
def tournament_start(*, tournament_id: Any, actor: Any) -> Tournament:
    t = lock_tournament(tournament_id)
    ensure_manages_pit(actor, t.pit)
    if t.status != TournamentStatus.REGISTERING:
        raise Conflict(gettext("tournament %(tournament)s is %(status)s") % {"tournament": t.name, "status": t.get_status_display().lower()},
                       code="tournament_not_registering")
    fewest = get_game(t.game).min_players
    if t.entries.count() < fewest:
        raise Conflict(gettext("%(tournament)s needs at least %(count)s entries to start") % {"tournament": t.name, "count": fewest}, code="too_few_entries")
    before = _summary(t)
    Tournament.objects.filter(pk=t.pk, status=TournamentStatus.REGISTERING).update(
        status=TournamentStatus.RUNNING, started_at=timezone.now()
    )
    t.refresh_from_db()
    audit_log(
        actor=actor,
        action="tournament.start",
        object_type="tournament",
        object_id=t.pk,
        before=before,
        after={**_summary(t), "entries": t.entries.count(), "prize_pool": prize_pool(t)},
    )
    return t


def _no_sheet_in_progress(t: Tournament) -> None:
    live = ScoreSheet.objects.filter(tournament=t, status=SheetStatus.OPEN).values_list("pk", flat=True)
    if live:
        raise Conflict(gettext("sheets still in progress: %(sheets)s") % {"sheets": ", ".join(map(str, live))}, code="sheets_in_progress")


@transaction.atomic
def tournament_finish(*, tournament_id: Any, payouts: Any, actor: Any) -> Tournament:
    """Pay the prizes: ``payouts`` in place order, ``[{"player": name, "amount": minor units}, …]``, sharing
    out the prize pool exactly (nothing is left owed, nothing paid twice)."""
    t = lock_tournament(tournament_id)
    ensure_manages_pit(actor, t.pit)
    if t.status != TournamentStatus.RUNNING:
        raise Conflict(gettext("tournament %(tournament)s is %(status)s, not running")
                       % {"tournament": t.name, "status": t.get_status_display().lower()}, code="tournament_not_running")
    _no_sheet_in_progress(t)
    if not isinstance(payouts, list):
        raise InvalidInput(gettext("the payouts must be a list of {player, amount}, first place first"), field="payouts")
    entered = set(t.entries.values_list("player", flat=True))
    seen: set[str] = set()
    rows = []
    for i, p in enumerate(payouts):
        where = f"payouts[{i}]"
        if not isinstance(p, dict) or set(p) != {"player", "amount"}:
            raise InvalidInput(gettext("payout %(place)s must name the player and the amount") % {"place": i + 1}, field=where)
        who, amount = p["player"], p["amount"]
        if who not in entered:
            raise InvalidInput(gettext("payout %(place)s: %(player)s is not entered in %(tournament)s")
                               % {"place": i + 1, "player": who, "tournament": t.name}, field=f"{where}.player")
        if who in seen:
            raise InvalidInput(gettext("payout %(place)s: %(player)s is paid twice") % {"place": i + 1, "player": who}, field=f"{where}.player")
        seen.add(who)
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= MAX_FEE:
            raise InvalidInput(
                gettext("payout %(place)s: the amount must be a whole amount of money, more than 0") % {"place": i + 1},
                field=f"{where}.amount",
            )
        rows.append((who, amount))
    pool = prize_pool(t)
    paid = sum(a for _, a in rows)
    if paid != pool:
        raise InvalidInput(
            gettext("the prizes add up to %(paid)s: they must share out the prize pool of %(pool)s exactly")
            % {"paid": money_amount(paid), "pool": money_amount(pool)},
            code="prizes_not_pool",
            field="payouts",
        )
    now = timezone.now()
    TournamentPayout.objects.bulk_create(
        [
            TournamentPayout(tournament=t, place=i + 1, player=who, amount=amount, paid_by=actor, paid_at=now)
            for i, (who, amount) in enumerate(rows)
        ]
    )
    txn = postings.post_prizes(tournament=t, total=pool, actor=actor)
    before = _summary(t)
    Tournament.objects.filter(pk=t.pk, status=TournamentStatus.RUNNING).update(
        status=TournamentStatus.FINISHED, ended_at=now
    )
    t.refresh_from_db()
    audit_log(
        actor=actor,
        action="tournament.finish",
        object_type="tournament",
        object_id=t.pk,
        before=before,
        after={
            **_summary(t),
            "prize_pool": pool,
            "payouts": [{"place": i + 1, "player": w, "amount": a} for i, (w, a) in enumerate(rows)],
            "ledger_transaction": txn.pk if txn else None,
        },
    )
    return t


@transaction.atomic
def tournament_cancel(*, tournament_id: Any, reason: Any, actor: Any) -> Tournament:
    """Call a tournament off before it finishes: every entry's fees are refunded by a reversing transaction."""
    t = lock_tournament(tournament_id)
    ensure_manages_pit(actor, t.pit)
    if t.status not in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING):
        raise Conflict(gettext("tournament %(tournament)s is already %(status)s")
                       % {"tournament": t.name, "status": t.get_status_display().lower()}, code="tournament_ended")
    why = _name(reason, "reason", longest=500)
    _no_sheet_in_progress(t)
    ids = [str(pk) for pk in t.entries.values_list("pk", flat=True)]
    refunds = [
        transaction_reverse(txn_id=txn.pk, actor=actor, reason=f"{t.name} cancelled: {why}")
        for txn in LedgerTransaction.objects.filter(source_type=postings.ENTRY, source_id__in=ids).order_by("pk")
    ]
    before = _summary(t)
    Tournament.objects.filter(pk=t.pk, status=t.status).update(
        status=TournamentStatus.CANCELLED, ended_at=timezone.now(), end_reason=why
    )
    t.refresh_from_db()
    audit_log(
        actor=actor,
        action="tournament.cancel",
        object_type="tournament",
        object_id=t.pk,
        before=before,
        after={**_summary(t), "reason": why, "refunds": [r.pk for r in refunds]},
    )
    return t
