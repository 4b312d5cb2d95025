"""Building blocks for accounting tests: staff credentials, baccarat rounds played through the services."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from accounting.models import Entry, LedgerTransaction
from casino.core.roles import Role
from tables.engines.registry import play
from tables.engines.result import RoundResult
from tables.services import rounds
from tests.factories import UserFactory

# P 9S 5D 2H = 6, B KH 3C 4S = 7: the banker wins (tests/tables/test_round_flow.py)
BANKER_WINS = ["9S", "KH", "5D", "3C", "2H", "4S"]
# P 9S KD = 9 natural, B 2C 3H = 5: the player wins
PLAYER_WINS = ["9S", "2C", "KD", "3H"]


@dataclass
class Staff:
    cashier: Any  # the cage: a cage cashier
    counter: Any  # the count team's two counters
    counter2: Any
    supervisor: Any  # the pit manager, who signs requests


def cred(user: Any) -> str:
    """The employee id printed for a signer (never a signature: it proves nothing)."""
    return user.staff.employee_id


def sig(user: Any, secret: str = "pass") -> dict[str, str]:
    """A signature: the person's username and their password (every test user's is "pass")."""
    return {"username": user.username, "password": secret}


def staff(floor: Any) -> Staff:
    return Staff(
        cashier=UserFactory(username="cashier", roles=[Role.CASHIER]),
        counter=UserFactory(username="counter", roles=[Role.COUNT_TEAM]),
        counter2=UserFactory(username="counter2", roles=[Role.COUNT_TEAM]),
        supervisor=floor.manager,
    )


def play_round(table: Any, dealer: Any, bets: list[tuple[int, str, int]], cards: list[str]) -> Any:
    """Open, bet (seat, type, amount), close betting, deal ``cards``, settle; returns the settlement."""
    rnd = rounds.round_open(table_id=table.pk, actor=dealer)
    for seat, bet_type, amount in bets:
        rounds.bet_place(round_id=rnd.pk, actor=dealer, seat=seat, type=bet_type, amount=amount)
    rounds.betting_close(round_id=rnd.pk, actor=dealer)
    for card in cards:
        rounds.event_post(round_id=rnd.pk, actor=dealer, event={"card": card})
    return rounds.round_settle(round_id=rnd.pk, actor=dealer)


def random_baccarat_document(rng: random.Random, *, min_bet: int = 500, max_bet: int = 20_000) -> dict[str, Any]:
    """A complete, random baccarat round: 1–5 bets, cards from a shuffled 8-deck shoe until settled."""
    ranks, suits = "A23456789TJQK", "SHDC"
    shoe = [r + s for r in ranks for s in suits] * 8
    rng.shuffle(shoe)
    types = ["banker", "player", "tie"]
    bets = [
        {
            "id": f"b{i + 1}",
            "seat": rng.randint(1, 7),
            "type": rng.choice(types),
            "amount": rng.randrange(min_bet, max_bet + 1, 100),
        }
        for i in range(rng.randint(1, 5))
    ]
    doc = {"game": "baccarat", "config": {"decks": 8}, "bets": bets, "events": []}
    while True:
        state = play(doc)
        if state["status"] == "settled":
            return {"doc": doc, "state": state}
        doc["events"].append({"card": shoe.pop()})


def ledger_is_balanced() -> tuple[list[Any], int]:
    """(transactions whose entries do not sum to zero, number of transactions)."""
    from django.db.models import Sum

    bad = list(
        LedgerTransaction.objects.annotate(total=Sum("entries__amount"))
        .exclude(total=0)
        .exclude(total__isnull=True)
        .values_list("pk", "total")
    )
    return bad, LedgerTransaction.objects.count()


def balances_by_code() -> dict[str, int]:
    totals: dict[str, int] = {}
    for code, amount in Entry.objects.values_list("account__code", "amount"):
        totals[code] = totals.get(code, 0) + amount
    return dict(totals.items())


def settle_directly(floor: Any, docs: list[dict[str, Any]], *, table: Any = None, first_number: int = 1,
                    events: bool = False) -> list[Any]:
    """Rows as round_settle writes them, in bulk (the engine's answers are real; the API is not the point).
    With ``events``, the rounds' card events too, posted while the rounds are still being dealt (the database
    takes an event into a live round only)."""
    from django.utils import timezone

    from tables.models import Bet, Round, RoundEvent, Settlement, SettlementLine

    table = table or floor.table
    now = timezone.now()
    def row(i: int, d: dict[str, Any], status: str) -> Any:
        return Round(table=table, shift=floor.shift, number=first_number + i, game="baccarat",
                     config=d["doc"]["config"], status=status, dealer=floor.dealer, opened_at=now,
                     betting_closed_at=now, settled_at=now if status == "settled" else None, state=d["state"])

    if not events:
        rnds = Round.objects.bulk_create([row(i, d, "settled") for i, d in enumerate(docs)])
    else:  # one live round at a time (one per table), its events posted while it is dealt
        rnds = []
        for i, d in enumerate(docs):
            rnd = Round.objects.create(**{f.name: getattr(row(i, d, "dealing"), f.name)
                                          for f in Round._meta.concrete_fields if not f.primary_key})
            RoundEvent.objects.bulk_create([RoundEvent(round=rnd, seq=n, payload=event, posted_by=floor.dealer,
                                                       posted_at=now) for n, event in enumerate(d["doc"]["events"])])
            Round.objects.filter(pk=rnd.pk).update(status="settled", settled_at=now)
            rnds.append(rnd)
    bets = Bet.objects.bulk_create(
        [
            Bet(
                round=r,
                client_id=b["id"],
                seat=b["seat"],
                type=b["type"],
                amount=b["amount"],
                placed_by=floor.dealer,
                placed_at=now,
            )
            for r, d in zip(rnds, docs)
            for b in d["doc"]["bets"]
        ]
    )
    by_key = {(b.round_id, b.client_id): b for b in bets}
    settlements = Settlement.objects.bulk_create(
        [
            Settlement(
                round=r,
                house_net=d["state"]["house"]["net"],
                commission=d["state"]["house"]["commission"],
                rake=d["state"]["house"]["rake"],
                handle=sum(b["amount"] for b in d["doc"]["bets"]),
                pool_change=RoundResult.of_json(d["state"]).pool_change,
                document=d["state"],
                settled_by=floor.dealer,
                settled_at=now,
            )
            for r, d in zip(rnds, docs)
        ]
    )
    SettlementLine.objects.bulk_create(
        [
            SettlementLine(
                settlement=s,
                bet=by_key[(s.round_id, row["id"])],
                result=row["result"],
                net=row["net"],
                commission=row["commission"],
            )
            for s, d in zip(settlements, docs)
            for row in d["state"]["bets"]
        ]
    )
    # and the table's running figures, as round_settle's listeners keep them in its transaction
    from accounting.services import running

    running.bets_recorded(bets=bets)
    for settlement in settlements:
        running.round_settled(settlement=settlement)
    return settlements
