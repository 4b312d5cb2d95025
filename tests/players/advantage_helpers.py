"""Recorded shoes at a blackjack table for the advantage-play tests: rounds written in bulk (as imports are),
each with its document and its shoe."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from players.models import Player, RatingSlip
from tables.engines.blackjack import BLACKJACK
from tables.models import Round, Shoe, Table
from tables.simulation.advantage import counter_documents
from tests.factories import TableFactory


def record_counter(floor: Any, *, shoes: int = 24, seed: int = 1) -> tuple[Table, Player, RatingSlip]:
    """A blackjack table in the floor's pit, a rated counter at seat 1 (a flat bettor at seat 3, unrated), and
    ``shoes`` shoes dealt over the last hours."""
    table = TableFactory(code="BJ1", name="Blackjack 1", pit=floor.pit, game="blackjack", min_bet=1_000)
    player = Player.objects.create(first_name="Carl", last_name="Counter", created_by=floor.manager,
                                   created_at=timezone.now(), updated_at=timezone.now())
    config = BLACKJACK.resolve_config({})
    start = timezone.now() - dt.timedelta(hours=12)
    slip = RatingSlip.objects.create(player=player, table=table, seat=1, shift=floor.shift, opened_by=floor.manager,
                                     opened_at=start - dt.timedelta(minutes=1))
    at, number, rows = start, 0, []
    for n, shoe_doc in enumerate(counter_documents(config, shoes=shoes, seed=seed), start=1):
        shoe = Shoe.objects.create(table=table, number=n, decks=config["decks"], burn=shoe_doc.burn,
                                   opened_by=floor.dealer, opened_at=at)
        for bets, events in shoe_doc.rounds:
            number += 1
            at += dt.timedelta(seconds=40)
            rows.append(Round(table=table, shift=floor.shift, number=number, game="blackjack", config=config,
                              status="settled", dealer=floor.dealer, opened_at=at, settled_at=at,
                              document={"bets": bets, "events": events}, shoe=shoe))
    Round.objects.bulk_create(rows)
    return table, player, slip
