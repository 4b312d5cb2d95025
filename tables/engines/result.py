"""What an engine answers for a round: typed, frozen, with one JSON form.

:meth:`Engine.play <tables.engines.base.Engine.play>` returns a :class:`RoundResult`: where the
round stands (:class:`Status`), what comes next (a :class:`Step`, tables/engines/step.py), the hands, the
outcome, one settlement :class:`Line` per bet decided, the house's totals (:class:`House`) and the
pool of pool and pot games. :meth:`RoundResult.to_json` is the round's answer as the API returns
it, ``settle_round`` prints it and a round stores it (docs/round_format.md, "The answer");
:meth:`RoundResult.of_json` reads a stored answer back, and ``of_json(doc).to_json()`` is ``doc`` again,
key for key and in the same order. Code outside the engines reads the answer through these types,
never by the JSON's keys.

>>> row = {"id": "b1", "seat": 1, "type": "player", "amount": 100, "result": "win", "net": 100, "commission": 0}
>>> result = round_result(Status.SETTLED, None, hands={}, outcome={"winner": "player"}, bets=[row],
...                       house={"net": -100, "commission": 0, "rake": 0}, more={})
>>> result.lines[0].net, result.lines[0].staked, result.house.net, result.outcome.winner
(100, 100, -100, 'player')
>>> result.to_json()["bets"][0] == row
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypedDict

from tables.engines.step import Json, JsonObject, JsonValue, Step

LINE_KEYS = ("id", "seat", "type", "amount", "result", "net", "commission")
HOUSE_KEYS = ("net", "commission", "rake")
ANSWER_KEYS = ("status", "next", "hands", "outcome", "bets", "house")  # the rest of an answer is ``more``


def _int(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, bool | int | float | str):
        return int(value or 0)
    raise TypeError(f"not a whole number: {value!r}")


def _object(value: object) -> dict[str, JsonValue]:
    """A JSON object's members (empty when ``value`` is not one)."""
    return {str(k): v for k, v in value.items()} if isinstance(value, Mapping) else {}


class Status(StrEnum):
    AWAITING = "awaiting"  # more cards, choices or bets are due: ``next`` says which
    SETTLED = "settled"  # every bet is decided


@dataclass(frozen=True, slots=True)
class Line:
    """One bet decided: ``net`` is the bettor's gain (+) or loss (−), commission already taken;
    ``staked`` what the bet put at risk in the end (more than its amount after a double, a split or a
    raise); ``extras`` the game's own facts about it (``rake``, ``foul``, ``hand``, ``hands``, ``riding``…),
    in the order the engine wrote them. Built once from the engine's row (:meth:`of`)."""

    id: str
    seat: int
    type: str
    amount: int
    result: str
    net: int
    commission: int
    staked: int
    extras: JsonObject = field(default_factory=dict)
    staked_written: bool = True  # False: the engine wrote no ``staked`` (the bet staked its amount)

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> Line:
        """The line of an engine's (or a stored answer's) settled row."""
        amount = _int(row["amount"])
        return cls(
            id=str(row["id"]), seat=_int(row["seat"]), type=str(row["type"]), amount=amount,
            result=str(row["result"]), net=_int(row["net"]), commission=_int(row.get("commission")),
            staked=_int(row["staked"]) if "staked" in row else amount,
            extras={str(k): v for k, v in row.items() if k not in LINE_KEYS and k != "staked"},
            staked_written="staked" in row,
        )

    def extra(self, name: str) -> JsonValue:
        """One of the game's own facts about the bet (``rake``, ``foul``, ``hand``…), or None."""
        return self.extras.get(name)

    @property
    def rake(self) -> int:
        """What the house raked off this bet (pot games), 0 where the game takes none."""
        return _int(self.extras.get("rake"))

    @property
    def foul(self) -> bool:
        """Whether the bet's hands were set foul (Pai Gow, Pusoy)."""
        return bool(self.extras.get("foul"))

    @property
    def hand(self) -> str | None:
        """The hand the bet ranked as (Caribbean Stud, Let It Ride…), where the game names one."""
        hand = self.extras.get("hand")
        return hand if isinstance(hand, str) else None

    def to_json(self) -> Json:
        """The row as the engine wrote it: the seven keys, ``staked`` where written, then the extras."""
        row: Json = {"id": self.id, "seat": self.seat, "type": self.type, "amount": self.amount,
                     "result": self.result, "net": self.net, "commission": self.commission}
        if self.staked_written:
            row["staked"] = self.staked
        row.update(self.extras)
        return row


@dataclass(frozen=True, slots=True)
class House:
    """The house's result of the round: ``net`` (+ it wins), of which ``commission`` and ``rake``."""

    net: int
    commission: int = 0
    rake: int = 0
    extras: JsonObject = field(default_factory=dict)  # a game's own house facts (none today)

    @classmethod
    def of(cls, doc: Mapping[str, Any]) -> House:
        return cls(net=_int(doc["net"]), commission=_int(doc.get("commission")), rake=_int(doc.get("rake")),
                   extras={str(k): v for k, v in doc.items() if k not in HOUSE_KEYS})

    def to_json(self) -> Json:
        doc: Json = {"net": self.net, "commission": self.commission, "rake": self.rake}
        doc.update(self.extras)
        return doc


class PoolTotals(TypedDict):
    """A pot's or pool's chips in a round: ``carry_in + stakes == paid + rake + carry_out``."""

    carry_in: int
    stakes: int
    paid: int
    rake: int
    carry_out: int


def pool_totals(doc: object) -> PoolTotals | None:
    """A pool's totals read from its JSON form (None: not a pool's totals)."""
    if not isinstance(doc, Mapping):
        return None
    return PoolTotals(carry_in=_int(doc.get("carry_in")), stakes=_int(doc.get("stakes")), paid=_int(doc.get("paid")),
                      rake=_int(doc.get("rake")), carry_out=_int(doc.get("carry_out")))


def pool_change_of(pool: PoolTotals | None) -> int:
    """What a round left in the pot or pool beyond what it found: carry out − carry in, 0 without a pool
    (the one definition of a pool change: a settlement stores it as ``pool_change`` when the round
    settles, and the figures, the ledger and the reconciliation read it from there or from here)."""
    return 0 if pool is None else pool["carry_out"] - pool["carry_in"]


@dataclass(frozen=True, slots=True)
class ShownHand:
    """A hand as a screen shows it: its name, its cards, its total where the game counts one."""

    name: str
    cards: tuple[str, ...]
    total: int | str | None  # a count (baccarat, blackjack); a game's own word where it writes one


@dataclass(frozen=True, slots=True)
class Hands:
    """The hands as the game deals them, by name (``player``, ``seat:2``, ``hand:4``, ``turns``…): each
    game's own shape (:data:`JsonValue`); :meth:`shown` is what screens read, :meth:`to_json` is the
    answer's ``hands``."""

    doc: JsonObject

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.doc)

    def get(self, name: str) -> JsonValue:
        """One hand's facts (its cards, total…), or None."""
        return self.doc.get(name)

    def shown(self) -> tuple[ShownHand, ...]:
        """The hands that are hands (an object with cards or a total), in the game's order."""
        out = []
        for name, hand in self.doc.items():
            if not isinstance(hand, Mapping):
                continue
            cards = hand.get("cards")
            total = hand.get("total")
            shown_total = total if total is None or (isinstance(total, int) and not isinstance(total, bool)) else str(total)
            out.append(ShownHand(name, tuple(str(c) for c in cards) if isinstance(cards, list) else (), shown_total))
        return tuple(out)

    def to_json(self) -> Json:
        return dict(self.doc)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What decided a settled round (the winner, the banker's total, the turns…): each game's own
    facts (:data:`JsonValue`), the winner typed; :meth:`to_json` is the answer's ``outcome``."""

    doc: JsonObject

    @property
    def winner(self) -> str | None:
        """Who won the coup where the game names one (``player``, ``banker``, ``tie``, a seat…)."""
        winner = self.doc.get("winner")
        return None if winner is None else str(winner)

    def get(self, key: str) -> JsonValue:
        """One of the game's own facts, or None."""
        return self.doc.get(key)

    def to_json(self) -> Json:
        return dict(self.doc)


@dataclass(frozen=True, slots=True)
class GameFacts:
    """The rest of an answer, the game's own keys (``say``, ``pool``, ``pools``, ``pot``, ``casekeeper``,
    ``dice``…), with the ones read outside the engines typed: the words, the pool and the named pools."""

    doc: JsonObject

    @property
    def say(self) -> str | None:
        say = self.doc.get("say")
        return say if isinstance(say, str) else None

    @property
    def pool(self) -> PoolTotals | None:
        """Pool and pot games: the round's pot or pools together."""
        return pool_totals(self.doc.get("pool"))

    @property
    def pools(self) -> dict[str, PoolTotals]:
        """The named pools (Carousel's count, pony, high card), by name: empty when the game names none."""
        pools = self.doc.get("pools")
        if not isinstance(pools, Mapping):
            return {}
        named = {str(name): pool_totals(p) for name, p in pools.items()}
        return {name: totals for name, totals in named.items() if totals is not None}

    def get(self, key: str) -> JsonValue:
        return self.doc.get(key)

    def to_json(self) -> Json:
        return dict(self.doc)


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The engine's whole answer for a round document."""

    status: Status
    next: Step | None
    hands: Hands
    outcome: Outcome | None
    lines: tuple[Line, ...]
    house: House | None
    more: GameFacts  # the game's own keys: ``say``, ``pool``, ``pot``, ``casekeeper``, ``dice``…

    @property
    def settled(self) -> bool:
        return self.status is Status.SETTLED

    @property
    def pool(self) -> PoolTotals | None:
        """Pool and pot games: ``carry_in``, ``stakes``, ``paid``, ``rake``, ``carry_out``."""
        return self.more.pool

    @property
    def say(self) -> str | None:
        """The dealer's words: the next step's, or the settled round's call."""
        if self.next is not None:
            return self.next.say
        return self.more.say

    @property
    def pool_change(self) -> int:
        """The pool change: carry out − carry in of the pot or pools the round carried (0 without one),
        :func:`pool_change_of`, stored as ``Settlement.pool_change`` when the round settles."""
        return pool_change_of(self.pool)

    @property
    def pool_changes(self) -> dict[str, int]:
        """The change of each named pool (Carousel's count, pony, high card) by name: empty when the
        game names none (one pot: :attr:`pool_change`)."""
        return {name: pool_change_of(pool) for name, pool in self.more.pools.items()}

    def handle(self) -> int:
        """Everything the round's bets put at risk: Σ each line's :attr:`Line.staked` (the one
        definition of a round's handle, stored as ``Settlement.handle``)."""
        return sum(line.staked for line in self.lines)

    @classmethod
    def of_json(cls, doc: Mapping[str, Any]) -> RoundResult:
        """A stored answer (:meth:`to_json`, e.g. a settlement's document) read back as the typed result."""
        next_step = doc.get("next")
        house = doc.get("house")
        outcome = doc.get("outcome")
        return cls(
            Status(doc["status"]),
            Step.of(next_step) if isinstance(next_step, Mapping) else None,
            Hands(_object(doc.get("hands"))),
            Outcome(_object(outcome)) if isinstance(outcome, Mapping) else None,
            tuple(Line.of(row) for row in doc.get("bets") or ()),
            House.of(house) if isinstance(house, Mapping) else None,
            GameFacts({str(k): v for k, v in doc.items() if k not in ANSWER_KEYS}),
        )

    @classmethod
    def of_stored(cls, doc: object) -> RoundResult | None:
        """A round's stored state read as the engine's answer: None while it holds none (a round open
        for bets stores what it carried, not an answer)."""
        if not isinstance(doc, Mapping) or doc.get("status") not in tuple(Status):
            return None
        return cls.of_json(doc)

    def to_json(self) -> Json:
        """The answer as JSON, built fresh (key for key, in order, what :meth:`of_json` read)."""
        doc: Json = {
            "status": self.status.value,
            "next": self.next.to_json() if self.next is not None else None,
            "hands": self.hands.to_json(),
            "outcome": self.outcome.to_json() if self.outcome is not None else None,
            "bets": [line.to_json() for line in self.lines],
            "house": self.house.to_json() if self.house is not None else None,
        }
        doc.update(self.more.doc)
        return doc


def round_result(status: Status, next_step: Mapping[str, Any] | None, *, hands: Mapping[str, Any],
                 outcome: Mapping[str, Any] | None, bets: Sequence[Mapping[str, Any]],
                 house: Mapping[str, Any] | None, more: Mapping[str, Any]) -> RoundResult:
    return RoundResult(
        status,
        Step.of(next_step) if next_step is not None else None,
        Hands(dict(hands)),
        Outcome(dict(outcome)) if outcome is not None else None,
        tuple(map(Line.of, bets)),
        House.of(house) if house is not None else None,
        GameFacts(dict(more)),
    )
