"""Recorded shoes at a blackjack table for the advantage-play tests: rounds written in bulk (as imports are),
each with its document and its shoe."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from casino.core.roles import Role
from players.models import Player, RatingSlip
from tables.engines.blackjack import BLACKJACK
from tables.models import Round, Shoe, Table
from tables.services.pay_corrections import pay_correct
from tables.simulation.advantage import counter_documents
from tests.accounting.helpers import play_round
from tests.factories import TableFactory, UserFactory, assign


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


def record_tie_bettor(floor: Any, *, shoes: int) -> tuple[Player, Player]:
    """One-deck baccarat shoes dealt rank by rank (four of a rank a round): as the low cards go the tens and faces
    left make the tie favour the player, and once the nines are out every coup is a tie (until too few cards are
    left for a coup). Seat 4 bets the tie in six of the rounds where it favours them; seat 5 only early."""
    Table.objects.filter(pk=floor.table.pk).update(config={"decks": 1})
    now = timezone.now()
    sharp, other = (Player.objects.create(first_name=f, last_name="Ties", created_by=floor.manager, created_at=now,
                                          updated_at=now) for f in ("Tia", "Tom"))
    start = now - dt.timedelta(hours=6)
    for player, seat in ((sharp, 4), (other, 5)):
        RatingSlip.objects.create(player=player, table=floor.table, seat=seat, shift=floor.shift,
                                  opened_by=floor.manager, opened_at=start)
    rows, number, at = [], 0, start
    for n in range(1, shoes + 1):
        shoe = Shoe.objects.create(table=floor.table, number=n, decks=1, burn=0, opened_by=floor.dealer, opened_at=at)
        for k, rank in enumerate("A23456789TJQK"):
            number += 1
            at += dt.timedelta(minutes=1)
            bets = [{"id": "b4", "seat": 4, "type": "tie" if 6 <= k <= 11 else "banker", "amount": 1000},
                    {"id": "b5", "seat": 5, "type": "tie" if k < 4 else "banker", "amount": 1000}]
            rows.append(Round(table=floor.table, shift=floor.shift, number=number, game="baccarat",
                              config={"decks": 1, "pair_pays": 11, "tie_pays": 8}, status="settled",
                              dealer=floor.dealer, opened_at=at, settled_at=at, shoe=shoe,
                              document={"bets": bets, "events": [{"card": rank + s} for s in "SHDC"]}))
    Round.objects.bulk_create(rows)
    return sharp, other


def _dealt_in_bulk(table: Any, dealer: Any, shift: Any, *, n: int, voided: int, start: int, by: Any) -> None:
    at = timezone.now() - dt.timedelta(hours=2)
    Round.objects.bulk_create([
        Round(table=table, shift=shift, number=start + i, game=table.game, config={}, dealer=dealer,
              opened_at=at + dt.timedelta(seconds=30 * i), status="voided" if i < voided else "settled",
              settled_at=None if i < voided else at, voided_at=at if i < voided else None,
              void_reason="misdeal" if i < voided else "", voided_by=by if i < voided else None,
              document={"bets": [], "events": []})
        for i in range(n)])


def dealer_team(floor: Any) -> Any:
    """Three baccarat dealers of the main pit over 200 rounds each; dealer4 voids 15 of theirs, and a pay list
    the first dealer confirmed is corrected by the pit manager."""
    tables, dealers = [floor.table], [floor.dealer]
    for n in (3, 4):
        table = TableFactory(code=f"BAC{n}", pit=floor.pit)
        dealer = UserFactory(username=f"dealer{n}", roles=[Role.DEALER])
        assign(dealer, table, floor.shift, floor.manager)
        tables.append(table)
        dealers.append(dealer)
    settled = play_round(floor.table, floor.dealer, [(1, "player", 10_000)], ["5S", "KH", "4D", "2C"])
    bet = settled.lines.get().bet.client_id
    pay_correct(round_id=settled.round_id, actor=floor.manager, lines=[{"bet": bet, "net": 9_000}],
                reason="overpaid by 10.00")
    for i, (table, dealer) in enumerate(zip(tables, dealers)):
        _dealt_in_bulk(table, dealer, floor.shift, n=200, voided=15 if i == 2 else 1, start=10, by=floor.manager)
    return settled
