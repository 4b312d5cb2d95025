"""The demo's counter (docs/game_protection.md): a rated Hi-Lo counter at the demo's blackjack table in the open
shift, with a marked shoe and every round dealt through the services as the dealer would enter it, so the
advantage-play panel, the player's page and the report have something to show. Beside them, a rated baccarat
player whose pair and tie bets follow the cards left, and a pay list the pit manager corrects, so the side bets'
figures and the dealers' report have theirs."""

from __future__ import annotations

import logging
import random
from collections import Counter
from typing import Any

from django.db import transaction

from casino.context import RequestContext, acting_as
from casino.errors import DomainError
from players.models import Player
from players.services import players, slips
from tables.engines.errors import EngineError
from tables.models import Assignment, Settlement, Shift, Table, TableStatus
from tables.protection.side_bets import side_bet_evs
from tables.services import pay_corrections, rounds, shoes
from tables.simulation.advantage import counter_documents

log = logging.getLogger(__name__)
COUNTER_CARD = "DEMO-HILO-1"
COUNTER_SHOES = 10
SIDE_BETTOR_CARD = "DEMO-SIDE-1"
SIDE_BETTOR_ROUNDS = 30
RANKS = "A23456789TJQK"


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


def play_side_bettor(tables: list[Table], shift: Shift, *, manager: Any, rounds_n: int = SIDE_BETTOR_ROUNDS,
                     seed: int = 1) -> int:
    """Seat and rate a baccarat player at the first open baccarat table of ``tables``, mark a shoe and deal
    ``rounds_n`` rounds from it through the services: a banker bet each round, and a pair or tie bet when the
    cards left make that bet's value the best of the shoe so far (the pattern the side-bet figures look for).
    Then the pit manager corrects the pay list of the last round (a unit paid too much), so the dealers' report
    counts one. Returns the rounds dealt; idempotent: once the player exists, nothing."""
    if Player.objects.filter(card_number=SIDE_BETTOR_CARD).exists():
        return 0
    table = next((t for t in tables if t.game == "baccarat" and t.status == TableStatus.OPEN), None)
    assignment = (Assignment.objects.filter(table=table, shift=shift, relieved_at__isnull=True)
                  .select_related("dealer").first() if table is not None else None)
    if table is None or assignment is None:
        return 0
    dealer, unit = assignment.dealer, table.min_bet
    config = table.engine_config()
    decks = int(config.get("decks", 8))
    cards = [rank + suit for rank in RANKS for suit in "SHDC"] * decks
    random.Random(seed).shuffle(cards)
    left = Counter(card[0] for card in cards)
    best = {"pair": -1.0, "tie": -1.0}
    dealt = 0
    last = None
    device = RequestContext(channel="command", device=f"demo:{table.code}")
    try:
        with transaction.atomic(), acting_as(device):
            player = players.player_create(actor=manager, first_name="Pia", last_name="Pairs",
                                           card_number=SIDE_BETTOR_CARD)
            slips.slip_open(actor=dealer, table_id=table.pk, seat=2, player_id=player.pk,
                            estimated_average_bet=2 * unit)
            shoes.shoe_open(table_id=table.pk, actor=dealer, burn=0)
        for _ in range(rounds_n):
            evs = side_bet_evs(left, {k: int(v) for k, v in config.items() if k in ("pair_pays", "tie_pays")})
            bets = [("banker", 2 * unit)]
            if evs["pair"] >= best["pair"] and config.get("pair_bets", True):
                bets.append(("player_pair", unit))
            if evs["tie"] >= best["tie"]:
                bets.append(("tie", unit))
            best = {k: max(best[k], evs[k]) for k in best}
            with transaction.atomic(), acting_as(device):
                rnd = rounds.round_open(table_id=table.pk, actor=dealer)
                for kind, amount in bets:
                    rounds.bet_place(round_id=rnd.pk, actor=dealer, seat=2, type=kind, amount=amount)
                rounds.betting_close(round_id=rnd.pk, actor=dealer)
                state: dict[str, Any] = {}
                while state.get("status") != "settled":
                    card = cards.pop()
                    left[card[0]] -= 1
                    _, state = rounds.event_post(round_id=rnd.pk, actor=dealer, event={"card": card})
                last = rounds.round_settle(round_id=rnd.pk, actor=dealer)
            dealt += 1
        if last is not None:
            _correct_last_pay_list(last, manager=manager, unit=unit, device=device)
    except (EngineError, DomainError) as exc:
        log.warning("demo: the baccarat side bettor at %s stopped after %s rounds: %s", table.code, dealt, exc)
    return dealt


def _correct_last_pay_list(settlement: Settlement, *, manager: Any, unit: int, device: RequestContext) -> None:
    line = settlement.lines.select_related("bet").order_by("bet_id").first()
    if line is None:
        return
    with transaction.atomic(), acting_as(device):
        pay_corrections.pay_correct(round_id=settlement.round_id, actor=manager,
                                    lines=[{"bet": line.bet.client_id, "net": line.net - unit}],
                                    reason="paid one unit too much (demo)")
