"""What an engine answers for a round: typed, frozen, with one JSON form.

:meth:`Engine.play <tables.engines.base.Engine.play>` returns a :class:`RoundResult`: where the
round stands (:class:`Status`), what comes next (:class:`Step`, with its ``input``), the hands, the
outcome, one settlement :class:`Line` per bet decided, the house's totals (:class:`House`) and the
pool of pool and pot games. :meth:`RoundResult.to_json` is the round's answer as the API returns
it, ``settle_round`` prints it and a round stores it (docs/round_format.md, "The answer").

>>> row = {"id": "b1", "seat": 1, "type": "player", "amount": 100, "result": "win", "net": 100, "commission": 0}
>>> result = round_result(Status.SETTLED, None, hands={}, outcome={"winner": "player"}, bets=[row],
...                       house={"net": -100, "commission": 0, "rake": 0}, more={})
>>> result.lines[0].net, result.house.net, result.outcome.get("winner"), result.to_json()["bets"][0] == row
(100, -100, 'player', True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypedDict

Json = dict[str, Any]

LINE_KEYS = ("id", "seat", "type", "amount", "result", "net", "commission")
ANSWER_KEYS = ("status", "next", "hands", "outcome", "bets", "house")  # the rest of an answer is ``more``


def _int(value: Any) -> int:
    return int(value or 0)


class Status(StrEnum):
    AWAITING = "awaiting"  # more cards, choices or bets are due: ``next`` says which
    SETTLED = "settled"  # every bet is decided


@dataclass(frozen=True, slots=True)
class Step:
    """What the dealer must enter next: ``expect`` (card, action, dice, bid), the dealer's words, the
    ``input`` a screen draws, and the game's own keys (``to``, ``seat``, ``allowed``, ``hand``…)."""

    fields: Mapping[str, Any]  # every key of the JSON form, in its order

    @classmethod
    def of(cls, doc: Mapping[str, Any]) -> Step:
        return cls(doc)

    @property
    def expect(self) -> str:
        return str(self.fields["expect"])

    @property
    def say(self) -> str:
        return str(self.fields.get("say", ""))

    @property
    def message(self) -> list[Json]:
        """The dealer's words as message ids and params (tables/engines/speech.py); ``say`` is their English."""
        value = self.fields.get("message")
        return [dict(p) for p in value if isinstance(p, Mapping)] if isinstance(value, list) else []

    @property
    def input(self) -> Json:
        value = self.fields.get("input")
        return dict(value) if isinstance(value, Mapping) else {}

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)

    def to_json(self) -> Json:
        return dict(self.fields)

    def said(self) -> Json:
        """The step as the dealer is told it, without the screen's ``input`` (what an audit records)."""
        return {k: v for k, v in self.fields.items() if k != "input"}


@dataclass(frozen=True, slots=True)
class Line:
    """One bet decided: ``net`` is the bettor's gain (+) or loss (−), commission already taken; ``extra``
    holds the game's own facts (``staked``, ``rake``, ``foul``, ``hand``…). It reads the row the engine
    wrote (settling a round builds no second copy)."""

    row: Mapping[str, Any]

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> Line:
        return cls(row)

    @property
    def id(self) -> str:
        return str(self.row["id"])

    @property
    def seat(self) -> int:
        return int(self.row["seat"])

    @property
    def type(self) -> str:
        return str(self.row["type"])

    @property
    def amount(self) -> int:
        return int(self.row["amount"])

    @property
    def result(self) -> str:
        return str(self.row["result"])

    @property
    def net(self) -> int:
        return int(self.row["net"])

    @property
    def commission(self) -> int:
        return int(self.row.get("commission", 0))

    @property
    def extra(self) -> dict[str, Any]:
        return {k: v for k, v in self.row.items() if k not in LINE_KEYS}

    @property
    def staked(self) -> int:
        """What the bet put at risk: more than its amount after a double, a split or a raise."""
        return int(self.row.get("staked", self.row["amount"]))

    def to_json(self) -> Json:
        return dict(self.row)


@dataclass(frozen=True, slots=True)
class House:
    """The house's result of the round: ``net`` (+ it wins), of which ``commission`` and ``rake``."""

    doc: Mapping[str, Any]

    @classmethod
    def of(cls, doc: Mapping[str, Any]) -> House:
        return cls(doc)

    @property
    def net(self) -> int:
        return int(self.doc["net"])

    @property
    def commission(self) -> int:
        return int(self.doc.get("commission", 0))

    @property
    def rake(self) -> int:
        return int(self.doc.get("rake", 0))

    def to_json(self) -> Json:
        return dict(self.doc)


class PoolTotals(TypedDict):
    """A pot's or pool's chips in a round: ``carry_in + stakes == paid + rake + carry_out``."""

    carry_in: int
    stakes: int
    paid: int
    rake: int
    carry_out: int


def pool_totals(doc: Any) -> PoolTotals | None:
    """A pool's totals read from its JSON form (None: not a pool's totals)."""
    if not isinstance(doc, Mapping):
        return None
    return PoolTotals(carry_in=_int(doc.get("carry_in")), stakes=_int(doc.get("stakes")), paid=_int(doc.get("paid")),
                      rake=_int(doc.get("rake")), carry_out=_int(doc.get("carry_out")))


def pool_change_of(pool: PoolTotals) -> int:
    """What a round left in the pot or pool beyond what it found: carry out − carry in (the one
    definition of a pool change; ``accounting.figures`` sums the same in SQL over stored answers)."""
    return pool["carry_out"] - pool["carry_in"]


@dataclass(frozen=True, slots=True)
class Hands:
    """The hands as the game deals them, by name (``player``, ``seat:2``, ``hand:4``, ``turns``…): each
    game's own shape, read by name; :meth:`to_json` is the answer's ``hands``."""

    doc: Mapping[str, Any]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(str(name) for name in self.doc)

    def get(self, name: str) -> Any:
        """One hand's facts (its cards, total…), or None."""
        return self.doc.get(name)

    def to_json(self) -> Json:
        return dict(self.doc)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What decided a settled round (the winner, the banker's total, the turns…): each game's own
    facts, read by name; :meth:`to_json` is the answer's ``outcome``."""

    doc: Mapping[str, Any]

    def get(self, key: str, default: Any = None) -> Any:
        return self.doc.get(key, default)

    def to_json(self) -> Json:
        return dict(self.doc)


@dataclass(frozen=True, slots=True)
class GameFacts:
    """The rest of an answer, the game's own keys (``say``, ``pool``, ``pools``, ``pot``, ``casekeeper``,
    ``dice``…), with the ones accounting reads typed: the pool and the named pools."""

    doc: Mapping[str, Any]

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

    def get(self, key: str, default: Any = None) -> Any:
        return self.doc.get(key, default)

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
        """The pool change: carry out − carry in of the pot or pools the round carried (0 without one).
        The figures, the ledger and the reconciliation read it here; ``accounting.figures`` sums the
        same definition over stored answers in SQL."""
        pool = self.pool
        return 0 if pool is None else pool_change_of(pool)

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
            Step(next_step) if isinstance(next_step, Mapping) else None,
            Hands(dict(doc.get("hands") or {})),
            Outcome(outcome) if isinstance(outcome, Mapping) else None,
            tuple(Line(row) for row in doc.get("bets") or ()),
            House(house) if isinstance(house, Mapping) else None,
            GameFacts({k: v for k, v in doc.items() if k not in ANSWER_KEYS}),
        )

    def to_json(self) -> Json:
        """The answer as JSON. Built fresh by each play, it shares the engine's row objects with this
        result rather than copying them: treat it as read-only, or copy before changing it."""
        doc: Json = {
            "status": self.status.value,
            "next": self.next.fields if self.next is not None else None,
            "hands": self.hands.doc,
            "outcome": self.outcome.doc if self.outcome is not None else None,
            "bets": [line.row for line in self.lines],
            "house": self.house.doc if self.house is not None else None,
        }
        doc.update(self.more.doc)
        return doc


def round_result(status: Status, next_step: Mapping[str, Any] | None, *, hands: Json, outcome: Json | None,
                 bets: Sequence[Mapping[str, Any]], house: Mapping[str, Any] | None,
                 more: Mapping[str, Any]) -> RoundResult:
    return RoundResult(
        status,
        Step(next_step) if next_step is not None else None,
        Hands(hands),
        Outcome(outcome) if outcome is not None else None,
        tuple(map(Line, bets)),
        House(house) if house is not None else None,
        GameFacts(more),
    )
