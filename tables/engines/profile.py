"""What kind of game an engine plays: its typed profile, and what each seat may do now.

Every engine declares a :class:`GameProfile` (``Engine.profile``): the family its bets belong to
(:class:`Family`), the deck the dealer draws from, which bet types are placed in the round's bets
before the deal and which as events during it, the bet types a seat holds once a round, the named
pools, who may hold the bank and the order seats act in. The round service, accounting (how the
rounds win comes about), the floor and the screens read these facts from the profile, never from
a list of game names.

While a round is open, :meth:`Engine.table_now <tables.engines.base.Engine.table_now>` answers
with a :class:`TableNow`: which seat holds the bank, where the button is, whose turn it is, and
for any seat a :class:`SeatNow` (the bets it may place and the actions it may take now, or the
rule that stops it, in the dealer's words).

>>> profile = GameProfile(Family.POT, Deck.STANDARD, before_deal=("ante",), during_deal=("pot_bet",),
...                       one_per_seat=OnePerSeat(("ante",), "an ante", "why_has_ante"), bank=Bank.NOBODY)
>>> profile.bet_types, profile.banked, profile.carries_pool, profile.as_dict()["family"]
(('ante', 'pot_bet'), False, True, 'pot')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from tables.engines.inputs import Deck
from tables.engines.speech import Speech, speech

Json = dict[str, Any]


class Family(StrEnum):
    """Who the players bet against, which decides how the house's result comes about."""

    BANKED = "banked"  # the house banks every bet: its result is −Σ the players' net
    PLAYER_BANKED = "player-banked"  # a seat holds the bank; the house takes commission, if any
    POT = "pot"  # players bet against a pot they fill; the house takes a rake
    POOL = "pool"  # stakes form pools shared by the winners (pari-mutuel); the house takes a share


class Bank(StrEnum):
    """Who may hold the bank."""

    HOUSE = "house"  # the house, always
    SEAT = "seat"  # a player's seat (the engine says which: :meth:`Engine.bank_seat`)
    NOBODY = "nobody"  # no bank: a pot or pools the players share


class TurnOrder(StrEnum):
    """The order seats act in."""

    SEATS = "seats"  # the engine calls each seat in turn (``next.seat``)
    BUTTON = "button"  # seat order from the button, which moves each game
    ANY = "any"  # no turns: bets come in any order


class Watch(StrEnum):
    """What game protection reads from a game's rounds dealt from a marked shoe (docs/game_protection.md)."""

    NONE = "none"
    COUNT = "count"  # a balanced card count moves the player's edge: bets against the count, decisions costed
    PAIRS = "pairs"  # side bets whose value depends on the cards left in the shoe (``watch_bets``)


@dataclass(frozen=True, slots=True)
class OnePerSeat:
    """Bet types a seat holds at most one of in a round's bets, and what the seat holds, in the
    dealer's words (``"an ante"``): a second is refused as ``seat N already has an ante``, the message
    ``why`` (tables/engines/speech.py) of one param, ``seat``, saying so to the dealer."""

    types: tuple[str, ...]
    holds: str
    why: str


@dataclass(frozen=True, slots=True)
class GameProfile:
    """The facts about a game that services, accounting, the floor and the screens read."""

    family: Family
    deck: Deck
    before_deal: tuple[str, ...]  # bet types placed in the round's bets, while betting is open
    during_deal: tuple[str, ...] = ()  # bet types placed as events of the deal (a pot bet, a count bet)
    one_per_seat: OnePerSeat | None = None
    pools: tuple[str, ...] = ()  # the named pools a round carries (none: one pot, or no pool)
    bank: Bank = Bank.HOUSE
    bank_bets: tuple[str, ...] = ()  # with a seat's bank: the bet types only the bank's seat places
    turn_order: TurnOrder = TurnOrder.SEATS
    commission: bool = False  # the house takes a commission on winning bets (or the bank's win)
    watch: Watch = Watch.NONE  # what game protection reads from its rounds
    watch_bets: tuple[str, ...] = ()  # COUNT: the initial bet followed against the count; PAIRS: the side bets

    @property
    def bet_types(self) -> tuple[str, ...]:
        return self.before_deal + self.during_deal

    @property
    def banked(self) -> bool:
        """The house banks the bets (its result is −Σ the players' net)."""
        return self.family is Family.BANKED

    @property
    def carries_pool(self) -> bool:
        """Rounds carry a pot or pools from one round to the next (``pool`` in the answer)."""
        return self.family in (Family.POT, Family.POOL)

    def placed_before_deal(self, bet_type: str) -> bool:
        return bet_type in self.before_deal

    def as_dict(self) -> Json:
        return {
            "family": self.family.value,
            "deck": self.deck.value,
            "before_deal": list(self.before_deal),
            "during_deal": list(self.during_deal),
            "one_per_seat": (
                {"types": list(self.one_per_seat.types), "holds": self.one_per_seat.holds}
                if self.one_per_seat is not None else None
            ),
            "pools": list(self.pools),
            "bank": self.bank.value,
            "bank_bets": list(self.bank_bets),
            "turn_order": self.turn_order.value,
            "commission": self.commission,
            "watch": self.watch.value,
            "watch_bets": list(self.watch_bets),
        }


@dataclass(frozen=True, slots=True)
class SeatNow:
    """What one seat may do now: the bet types it may place, the actions it may take (``allowed``
    of the step due, ``bid`` in an auction), or why it may do nothing (``why``, the dealer's words,
    said as the message ``why_message``)."""

    seat: int
    bets: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()
    why: str | None = None
    why_message: list[Json] | None = None

    @classmethod
    def barred(cls, seat: int, why: Speech) -> SeatNow:
        """A seat that may do nothing now, and why."""
        return cls(seat, why=why.text(), why_message=why.to_json())

    @property
    def may_act(self) -> bool:
        return bool(self.bets or self.actions)

    def as_dict(self) -> Json:
        doc: Json = {"seat": self.seat, "bets": list(self.bets), "actions": list(self.actions), "why": self.why}
        if self.why_message is not None:
            doc["why_message"] = self.why_message
        return doc


@dataclass(frozen=True, slots=True)
class OpenBet:
    """A bet type that may be placed now: by any seat (``seats`` None) or the seats listed, less the
    seats ``barred``, each with the rule that bars it (a message: tables/engines/speech.py)."""

    type: str
    seats: tuple[int, ...] | None = None
    barred: Mapping[int, Speech] = field(default_factory=dict)
    others: Speech | None = None  # why a seat not in ``seats`` may not (default: the seats that may)

    def why_not(self, seat: int) -> Speech | None:
        """None when ``seat`` may place this bet now, else why not."""
        if seat in self.barred:
            return self.barred[seat]
        if self.seats is not None and seat not in self.seats:
            if self.others is not None:
                return self.others
            if self.seats:
                return speech("why_not_now_may", seat=seat, bet=self.type, list=list(self.seats))
            return speech("why_not_now", seat=seat, bet=self.type)
        return None


@dataclass(frozen=True, slots=True)
class TableNow:
    """The table's state as the dealer needs it: the seat holding the bank (None: the house's bank
    or none), the button, the seat whose turn it is, what is due (``bets`` while betting is open,
    else the ``expect`` of the step due; None once settled), the bets open now and the actions the
    seat whose turn it is may take. :meth:`seat` answers for one seat."""

    bank: int | None
    button: int | None
    turn: int | None
    due: str | None
    open_bets: tuple[OpenBet, ...] = ()
    actions: tuple[str, ...] = ()  # what the seats in ``actors`` may do (a choice due, a bid)
    actors: tuple[int, ...] | None = ()  # who may take ``actions``: these seats; None: any seat
    say: str | None = None  # the step due, in the dealer's words (its ``say``)
    message: list[Json] | None = None  # the same as message ids and params (tables/engines/speech.py)

    def seat(self, seat: int) -> SeatNow:
        """What ``seat`` may do now, or the rule that stops it."""
        bets: list[str] = []
        reasons: list[Speech] = []
        for bet in self.open_bets:
            why = bet.why_not(seat)
            if why is None:
                bets.append(bet.type)
            else:
                reasons.append(why)
        actions = self.actions if self.actors is None or seat in self.actors else ()
        if bets or actions:
            return SeatNow(seat, tuple(bets), tuple(actions))
        if self.due is None:
            return SeatNow.barred(seat, speech("why_round_over"))
        if self.turn is not None and self.actions:
            return SeatNow.barred(seat, speech("why_seat_to_act", seat=self.turn))
        if reasons:
            return SeatNow.barred(seat, reasons[0])
        if self.message:
            return SeatNow.barred(seat, speech("why_no_bets_now_step", say=self.message))
        return SeatNow.barred(seat, speech("why_no_bets_now"))

    def as_dict(self, seats: int = 0) -> Json:
        """As JSON, with what each seat from 1 to ``seats`` may do."""
        return {"bank": self.bank, "button": self.button, "turn": self.turn, "due": self.due,
                "say": self.say, "message": self.message, "seats": [self.seat(s).as_dict() for s in range(1, seats + 1)]}
