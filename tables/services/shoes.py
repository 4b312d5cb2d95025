"""The shoe as a sequence: the pit (or the table's dealer, with one tap between rounds) marks a new shoe, the
rounds dealt after it name it, and a card the shoe can no longer hold is refused (docs/game_protection.md)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit.services import audit_log
from casino.errors import Conflict, InvalidInput
from casino.idempotency import request_service
from tables.access import ensure_can_deal
from tables.models import LIVE_STATUSES, Round, Shoe
from tables.selectors import card_text, shoe_cards_seen, shoe_decks
from tables.services.locks import lock_table

CARDS_PER_DECK = 52


@request_service
def shoe_open(*, table_id: int, actor: Any, cut_card: int | None = None, burn: int = 1) -> Shoe:
    """A new shoe at a shoe table, between rounds: its packs are the table's (its rules' ``decks``); ``cut_card``
    is the cards in front of the cut card when the dealer says, ``burn`` the cards burned face down."""
    table = lock_table(table_id)
    ensure_can_deal(actor, table)
    decks = shoe_decks(table)
    if decks is None:
        raise Conflict(_("%(table)s is not dealt from a shoe") % {"table": table.code}, code="not_a_shoe_game")
    live = table.rounds.filter(status__in=LIVE_STATUSES).first()
    if live is not None:
        raise Conflict(_("round #%(number)s is still in progress: a new shoe starts between rounds")
                       % {"number": live.number}, code="round_in_progress")
    size = decks * CARDS_PER_DECK
    if isinstance(burn, bool) or not isinstance(burn, int) or not 0 <= burn < size:
        raise InvalidInput(_("the burn is from 0 to %(most)s cards") % {"most": size - 1}, code="bad_burn",
                           field="burn", params={"most": size - 1})
    if cut_card is not None and (isinstance(cut_card, bool) or not isinstance(cut_card, int)
                                 or not burn < cut_card <= size):
        raise InvalidInput(_("the cut card is after the burn and inside the shoe: from %(least)s to %(most)s cards")
                           % {"least": burn + 1, "most": size}, code="bad_cut_card", field="cut_card",
                           params={"least": burn + 1, "most": size})
    last = table.shoes.order_by("-number").values_list("number", flat=True).first() or 0
    shoe = Shoe.objects.create(table=table, number=last + 1, decks=decks, cut_card=cut_card, burn=burn,
                               opened_by=actor, opened_at=timezone.now())
    audit_log(actor=actor, action="shoe.open", object_type="shoe", object_id=shoe.pk, table_code=table.code,
              after={"number": shoe.number, "decks": decks, "cut_card": cut_card, "burn": burn})
    return shoe


def ensure_shoe_holds(rnd: Round, events: list[Any]) -> None:
    """Refuse the last event's card if the round's shoe has already given out every copy of it: the shoe's
    other rounds (not voided) and this round's cards, the new one included. Nothing is written."""
    if rnd.shoe_id is None or not events or not isinstance(events[-1], dict):
        return
    card = events[-1].get("card")
    if not isinstance(card, str):
        return
    text = card_text(card)
    here = sum(1 for e in events if isinstance(e, dict) and isinstance(e.get("card"), str)
               and card_text(e["card"]) == text)
    shoe = rnd.shoe
    assert shoe is not None
    before = shoe_cards_seen(shoe.pk, excluding_round=rnd.pk)[text]
    if before + here > shoe.decks:
        raise InvalidInput(
            _("%(card)s cannot come out of shoe %(shoe)s: it holds %(decks)s of them and %(dealt)s were dealt in "
              "earlier rounds of this shoe. Check the card, or mark a new shoe if this one was changed.")
            % {"card": text, "shoe": shoe.number, "decks": shoe.decks, "dealt": before},
            code="card_not_in_shoe", field="card",
            params={"card": text, "shoe": shoe.number, "decks": shoe.decks, "dealt": before})
