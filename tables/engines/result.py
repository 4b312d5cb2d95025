"""What an engine answers for a round: typed, frozen, with one JSON form.

:meth:`Engine.play <tables.engines.base.Engine.play>` returns a :class:`RoundResult`: where the
round stands (:class:`Status`), what comes next (:class:`Step`, with its ``input``), the hands, the
outcome, one settlement :class:`Line` per bet decided, the house's totals (:class:`House`) and the
pool of pool and pot games. :meth:`RoundResult.to_json` is the round's answer as the API returns
it, ``settle_round`` prints it and a round stores it (docs/round_format.md, "The answer").

>>> line = Line("b1", 1, "player", 100, "win", 100, 0, {})
>>> result = RoundResult(Status.SETTLED, None, {}, {"winner": "player"}, (line,), House(-100, 0, 0, {}), {})
>>> result.to_json()["house"], result.to_json()["bets"][0]["net"]
({'net': -100, 'commission': 0, 'rake': 0}, 100)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

Json = dict[str, Any]

LINE_KEYS = ("id", "seat", "type", "amount", "result", "net", "commission")
HOUSE_KEYS = ("net", "commission", "rake")


class Status(StrEnum):
    AWAITING = "awaiting"  # more cards, choices or bets are due: ``next`` says which
    SETTLED = "settled"  # every bet is decided


@dataclass(frozen=True, slots=True)
class Step:
    """What the dealer must enter next: ``expect`` (card, action, dice, bid), the dealer's words, the
    ``input`` a screen draws, and the game's own keys (``to``, ``seat``, ``allowed``, ``hand``…)."""

    expect: str
    say: str
    input: Json
    fields: Mapping[str, Any]  # every key of the JSON form, in its order

    @classmethod
    def of(cls, doc: Mapping[str, Any]) -> Step:
        return cls(doc["expect"], doc.get("say", ""), doc.get("input") or {}, dict(doc))

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)

    def to_json(self) -> Json:
        return dict(self.fields)


@dataclass(frozen=True, slots=True)
class Line:
    """One bet decided: ``net`` is the bettor's gain (+) or loss (−), commission already taken; ``extra``
    holds the game's own facts (``staked``, ``rake``, ``foul``, ``hand``…)."""

    id: str
    seat: int
    type: str
    amount: int
    result: str
    net: int
    commission: int
    extra: Mapping[str, Any]

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> Line:
        return cls(row["id"], row["seat"], row["type"], row["amount"], row["result"], row["net"],
                   row.get("commission", 0), {k: v for k, v in row.items() if k not in LINE_KEYS})

    @property
    def staked(self) -> int:
        """What the bet put at risk: more than its amount after a double, a split or a raise."""
        return int(self.extra.get("staked", self.amount))

    def to_json(self) -> Json:
        return {"id": self.id, "seat": self.seat, "type": self.type, "amount": self.amount, "result": self.result,
                "net": self.net, "commission": self.commission, **self.extra}


@dataclass(frozen=True, slots=True)
class House:
    """The house's result of the round: ``net`` (+ it wins), of which ``commission`` and ``rake``."""

    net: int
    commission: int
    rake: int
    extra: Mapping[str, Any]

    @classmethod
    def of(cls, doc: Mapping[str, Any]) -> House:
        return cls(doc["net"], doc.get("commission", 0), doc.get("rake", 0),
                   {k: v for k, v in doc.items() if k not in HOUSE_KEYS})

    def to_json(self) -> Json:
        return {"net": self.net, "commission": self.commission, "rake": self.rake, **self.extra}


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The engine's whole answer for a round document."""

    status: Status
    next: Step | None
    hands: Json
    outcome: Json | None
    lines: tuple[Line, ...]
    house: House | None
    more: Mapping[str, Any]  # the game's own keys: ``say``, ``pool``, ``pot``, ``casekeeper``, ``dice``…

    @property
    def settled(self) -> bool:
        return self.status is Status.SETTLED

    @property
    def pool(self) -> Json | None:
        """Pool and pot games: ``carry_in``, ``stakes``, ``paid``, ``rake``, ``carry_out``."""
        pool = self.more.get("pool")
        return pool if isinstance(pool, dict) else None

    @property
    def say(self) -> str | None:
        """The dealer's words: the next step's, or the settled round's call."""
        if self.next is not None:
            return self.next.say
        say = self.more.get("say")
        return say if isinstance(say, str) else None

    def handle(self) -> int:
        """Everything the round's bets put at risk."""
        return sum(line.staked for line in self.lines)

    def to_json(self) -> Json:
        doc: Json = {
            "status": self.status.value,
            "next": self.next.to_json() if self.next is not None else None,
            "hands": self.hands,
            "outcome": self.outcome,
            "bets": [line.to_json() for line in self.lines],
            "house": self.house.to_json() if self.house is not None else None,
        }
        doc.update(self.more)
        return doc


def round_result(status: Status, next_step: Mapping[str, Any] | None, *, hands: Json, outcome: Json | None,
                 bets: Sequence[Mapping[str, Any]], house: Mapping[str, Any] | None,
                 more: Mapping[str, Any]) -> RoundResult:
    return RoundResult(
        status,
        Step.of(next_step) if next_step is not None else None,
        hands,
        outcome,
        tuple(Line.of(row) for row in bets),
        House.of(house) if house is not None else None,
        dict(more),
    )
