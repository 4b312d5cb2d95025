"""The demo's counter (docs/game_protection.md): a rated Hi-Lo counter at the demo's blackjack table in the open
shift, with a marked shoe and every round dealt through the services as the dealer would enter it, so the
advantage-play panel, the player's page and the report have something to show."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from casino.context import RequestContext, acting_as
from casino.errors import DomainError
from players.models import Player
from players.services import players, slips
from tables.engines.errors import EngineError
from tables.models import Assignment, Shift, Table, TableStatus
from tables.services import rounds, shoes
from tables.simulation.advantage import counter_documents

log = logging.getLogger(__name__)
COUNTER_CARD = "DEMO-HILO-1"
COUNTER_SHOES = 10


def play_counter(tables: list[Table], shift: Shift, *, manager: Any, shoes_n: int = COUNTER_SHOES,
                 seed: int = 1) -> int:
    """Seat and rate the counter at the first open blackjack table of ``tables`` and deal ``shoes_n`` shoes
    (a flat bettor beside them); returns the rounds dealt. Idempotent: once the counter exists, nothing."""
    if Player.objects.filter(card_number=COUNTER_CARD).exists():
        return 0
    table = next((t for t in tables if t.game == "blackjack" and t.status == TableStatus.OPEN), None)
    assignment = (Assignment.objects.filter(table=table, shift=shift, relieved_at__isnull=True)
                  .select_related("dealer").first() if table is not None else None)
    if table is None or assignment is None:
        return 0
    dealer = assignment.dealer
    dealt = 0
    try:
        with transaction.atomic(), acting_as(RequestContext(channel="command", device=f"demo:{table.code}")):
            player = players.player_create(actor=manager, first_name="Carl", last_name="Counter",
                                           card_number=COUNTER_CARD)
            slips.slip_open(actor=dealer, table_id=table.pk, seat=1, player_id=player.pk,
                            estimated_average_bet=4 * table.min_bet)
        for shoe in counter_documents(table.engine_config(), shoes=shoes_n, seed=seed, unit=table.min_bet):
            with transaction.atomic(), acting_as(RequestContext(channel="command", device=f"demo:{table.code}")):
                shoes.shoe_open(table_id=table.pk, actor=dealer, burn=shoe.burn)
            for bets, events in shoe.rounds:
                # one transaction a round, as the dealer's screen posts them: a server beside the demo keeps going
                with transaction.atomic(), acting_as(RequestContext(channel="command", device=f"demo:{table.code}")):
                    rnd = rounds.round_open(table_id=table.pk, actor=dealer)
                    for bet in bets:
                        rounds.bet_place(round_id=rnd.pk, actor=dealer, seat=int(str(bet["seat"])),
                                         type=str(bet["type"]), amount=int(str(bet["amount"])),
                                         client_id=str(bet["id"]))
                    rounds.betting_close(round_id=rnd.pk, actor=dealer)
                    for event in events:
                        rounds.event_post(round_id=rnd.pk, actor=dealer, event=dict(event))
                    rounds.round_settle(round_id=rnd.pk, actor=dealer)
                dealt += 1
    except (EngineError, DomainError) as exc:
        log.warning("demo: the counter at %s stopped after %s rounds: %s", table.code, dealt, exc)
    return dealt
