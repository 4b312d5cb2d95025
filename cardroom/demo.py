"""The demo's card room: a newcomer finds score sheets filled in (one won, one in progress) and a
tournament with its entries, its sheet and its prizes paid, all written through the card room's
services (audited, posted to the ledger) at the demo floor's tables.

Idempotent: a floor that already has a score sheet is left as it is.
"""

from __future__ import annotations

from typing import Any

from cardroom.models import ScoreSheet
from cardroom.selectors import prize_pool
from cardroom.services import sheets, tournaments
from tables.models import Pit, Table, TableStatus

PLAYERS = ["Ana", "Bruno", "Chen", "Dara"]
HEARTS = "hearts"


def _hearts_deal(hearts_by: str, queen_to: str, players: list[str]) -> dict[str, Any]:
    """A deal of Hearts: one player took every heart, another the queen of spades."""
    return {"taken": {p: {"hearts": 13 if p == hearts_by else 0, "queen": p == queen_to} for p in players}}


def build_card_room(users: dict[str, Any]) -> dict[str, int]:
    """Sheets and a tournament at the demo floor's tables; returns what was written."""
    if ScoreSheet.objects.exists():
        return {}
    manager = users["pitboss"]
    pit = Pit.objects.filter(managers=manager).order_by("code").first()
    tables = list(Table.objects.filter(pit=pit, status=TableStatus.OPEN).order_by("code")[:3]) if pit else []
    if pit is None or len(tables) < 3:
        return {}
    # a game to 26 points, won in two deals
    won = sheets.sheet_open(table_id=tables[0].pk, game=HEARTS, players=PLAYERS, config={"game_to": 26},
                            actor=manager)
    sheets.deal_record(sheet_id=won.pk, entry=_hearts_deal("Bruno", "Chen", PLAYERS), actor=manager)
    sheets.deal_record(sheet_id=won.pk, entry=_hearts_deal("Bruno", "Dara", PLAYERS), actor=manager)
    # a game to 100, under way
    under_way = sheets.sheet_open(table_id=tables[1].pk, game=HEARTS, players=PLAYERS, config={"game_to": 100},
                                  actor=manager)
    for hearts_by, queen_to in (("Ana", "Dara"), ("Chen", "Ana"), ("Dara", "Bruno")):
        sheets.deal_record(sheet_id=under_way.pk, entry=_hearts_deal(hearts_by, queen_to, PLAYERS), actor=manager)
    # an evening tournament: four entries, one sheet played out, the prizes paid
    fee, house = 5_000, 500
    cup = tournaments.tournament_create(name="Thursday Hearts", pit_id=pit.pk, game=HEARTS, entry_fee=fee,
                                        house_fee=house, config={"game_to": 26}, actor=manager)
    for player in PLAYERS:
        tournaments.tournament_register(tournament_id=cup.pk, player=player, actor=manager)
    tournaments.tournament_start(tournament_id=cup.pk, actor=manager)
    final = sheets.sheet_open(table_id=tables[2].pk, game=None, players=PLAYERS, tournament_id=cup.pk, actor=manager)
    sheets.deal_record(sheet_id=final.pk, entry=_hearts_deal("Dara", "Ana", PLAYERS), actor=manager)
    sheets.deal_record(sheet_id=final.pk, entry=_hearts_deal("Dara", "Chen", PLAYERS), actor=manager)
    pool = prize_pool(cup)
    first = pool * 7 // 10
    tournaments.tournament_finish(tournament_id=cup.pk, actor=manager, payouts=[
        {"player": "Bruno", "amount": first}, {"player": "Ana", "amount": pool - first}])
    return {"sheets": 3, "tournaments": 1}
