"""A new game takes an engine and nothing else: a toy pool game, defined here and registered with the
engines' registry, is played through the round services, posted to the ledger, counted by the figures
and reconciled, with no code outside tables/engines knowing its name (docs/extending.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from accounting import figures
from accounting.models import Entry, LedgerTransaction, Reconciliation
from accounting.services import reconcile
from floor.selectors import deck_of, layout_bets
from tables.engines import registry
from tables.engines.base import (
    LIMIT_SETTINGS,
    BetSpec,
    Engine,
    Round,
    Setting,
    SettingKind,
    awaiting,
    bet_result,
    expect_card,
    settled,
)
from tables.engines.cards import Shoe, parse_card
from tables.engines.errors import EngineError
from tables.engines.inputs import Deck
from tables.engines.profile import Bank, Family, GameProfile, TurnOrder
from tables.engines.result import RoundResult
from tables.engines.speech import speech
from tables.models import Settlement
from tests.accounting.helpers import play_round
from tests.factories import TableFactory

TOY = "toy_colour_pool"


class ToyColourPool(Engine):
    """Bets on the colour of one card form a pool; the winners share it less a 10 % rake, in proportion
    to their stakes; odd chips, and the whole pool when nobody wins, carry to the next round."""

    name = TOY
    title = "Toy colour pool"
    settings = (
        Setting("carry_in", SettingKind.INT, 0, "what the pool carries in from the last round", minimum=0),
        Setting("rake_bp", SettingKind.INT, 1000, "the house's share of a pool that is won, basis points",
                minimum=0, maximum=10_000),
        *LIMIT_SETTINGS,
    )
    bet_types = {"red": BetSpec("the card is red"), "black": BetSpec("the card is black")}
    profile = GameProfile(Family.POOL, Deck.STANDARD, before_deal=("red", "black"), bank=Bank.NOBODY,
                          turn_order=TurnOrder.ANY)

    def play(self, rnd: Round) -> RoundResult:
        if not rnd.bets:
            raise EngineError("bad_bet", "a pool needs a bet")
        if not rnd.events:
            return awaiting(expect_card(None, speech("dealer_card_of", n=1, m=1)))  # a message every screen already words
        event: Mapping[str, Any] = rnd.events[0]
        turned = parse_card(event.get("card"))
        Shoe(1).take(turned)
        colour = "red" if turned.is_red else "black"
        stakes = sum(b.amount for b in rnd.bets)
        pot = rnd.config["carry_in"] + stakes
        winners = [b for b in rnd.bets if b.type == colour]
        won = sum(b.amount for b in winners)
        rake = pot * rnd.config["rake_bp"] // 10_000 if winners else 0
        shares = {b.id: (pot - rake) * b.amount // won for b in winners}
        paid = sum(shares.values())
        rows = [bet_result(b, "win" if b.id in shares else "lose", shares.get(b.id, 0) - b.amount) for b in rnd.bets]
        pool = {"carry_in": rnd.config["carry_in"], "stakes": stakes, "paid": paid, "rake": rake,
                "carry_out": pot - paid - rake}
        return settled(hands={"card": str(turned)}, outcome={"colour": colour}, bets=rows,
                       house={"net": rake, "commission": 0, "rake": rake}, pool=pool)


@pytest.fixture
def toy():
    registry.register(ToyColourPool())
    yield TOY
    registry.unregister(TOY)


def test_a_toy_game_is_played_posted_counted_and_reconciled(floor, toy):
    # given a table of the toy game in the main pit, dealt by its pit manager
    table = TableFactory(code="TOY1", pit=floor.pit, game=toy, min_bet=100, max_bet=10_000)
    dealer = floor.manager

    # when a round is won (red: 2 000 staked, 200 raked, 1 800 shared by the red bets) and one is not
    won = play_round(table, dealer, [(1, "red", 1000), (2, "black", 500), (3, "red", 500)], ["KH"])
    lost = play_round(table, dealer, [(1, "black", 1000)], ["2D"])

    # then the services settled each bet as the engine said, the pool carrying to the next round
    assert [(line.bet.seat, line.net) for line in won.lines.order_by("bet__seat")] == [(1, 200), (2, -500), (3, 100)]
    assert (won.house_net, won.rake, won.handle) == (200, 200, 2000)
    assert (lost.house_net, lost.handle, lost.answer().pool_change) == (0, 1000, 1000)
    assert (won.pool_change, lost.pool_change) == (won.answer().pool_change, 1000)  # stored as it settled
    assert lost.round.config["carry_in"] == 0
    third = registry.get_engine(toy).carry_over(lost.round.state)
    assert third == ({"carry_in": 1000}, None)

    # and the ledger holds one balanced transaction a round: the tray against rake and the pool
    def entries(settlement: Settlement) -> dict[str, int]:
        txn = LedgerTransaction.objects.get(source_type="round", source_id=str(settlement.round_id))
        return {e.account.code: e.amount for e in Entry.objects.filter(transaction=txn).select_related("account")}

    assert entries(won) == {"table:TOY1:tray": 200, "table:TOY1:rake": -200}
    assert entries(lost) == {"table:TOY1:tray": 1000, "table:TOY1:pool": -1000}

    # and the figures count it as a pool game, from its profile alone
    assert figures.family_of(toy) is figures.Family.PARI_MUTUEL
    total = figures.round_figures_total(figures.settlements_of(table=table, shift=floor.shift))
    assert (total.rounds, total.handle, total.rounds_win, total.rake, total.pool_change) == (2, 3000, 200, 200, 1000)
    assert [b["before_deal"] for b in layout_bets(toy)] == [True, True]
    assert deck_of(toy) == "standard"

    # and the reconciliation replays both rounds and finds them as settled and posted
    reconcile.reconcile_shift(shift_id=floor.shift.pk, force_open=True)
    rec = Reconciliation.objects.get(shift=floor.shift, table=table)
    assert (rec.rounds, rec.rounds_recomputed, rec.rounds_mismatched, rec.rounds_unposted) == (2, 2, 0, 0)
    assert (rec.rounds_win, rec.pool_change) == (200, 1000)
    assert not [c for c in rec.causes if c["cause"] in ("mismatch", "unposted_round")]
