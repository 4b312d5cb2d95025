"""What the dealer must enter next: the typed :class:`Step` of an engine's answer (``RoundResult.next``,
tables/engines/result.py), with its parts (the screen's :class:`StepInput`, the words as :class:`MessagePart`,
the betting open while the cards wait, the auction's high bid).

Every key any engine writes on a step is a typed attribute (docs/round_format.md, "What comes next");
:meth:`Step.of` reads and checks a step's JSON, naming the key it refuses, and :meth:`Step.to_json` writes
it back key for key, in the order the engine wrote it (tests/engines/test_step.py plays every game for it).

>>> step = Step.of({"expect": "action", "seat": 3, "allowed": ["hit", "stand"], "say": "Seat 3: hit or stand?",
...                 "hand": 0})
>>> step.seat, step.allowed, step.hand, list(step.to_json())
(3, ('hit', 'stand'), 0, ['expect', 'seat', 'allowed', 'say', 'hand'])
>>> Step.of({"expect": "action", "seat": "3"})
Traceback (most recent call last):
    ...
TypeError: seat: not a whole number: '3'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Protocol, TypeAlias, TypeVar

from tables.engines.inputs import Deck, InputKind

Json = dict[str, Any]
# a value of the JSON form: what the game's own facts (a line's extras, a hand, the outcome) hold
JsonValue: TypeAlias = None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"]
JsonObject: TypeAlias = Mapping[str, JsonValue]
_E = TypeVar("_E", bound=StrEnum)


# -- what the dealer must enter next ------------------------------------------------------------------
# Each part of a step keeps the keys it was read from in their order (``written``): :meth:`to_json` writes
# them again in that order, each from its typed attribute (a key the part does not know from its
# ``extras``), so ``Step.of(doc).to_json() == doc``, key for key and in order.


class _Written(Protocol):
    """A typed part of a step: its attributes by JSON key, the keys as written, the unknown ones."""

    @property
    def written(self) -> tuple[str, ...]: ...

    @property
    def extras(self) -> JsonObject: ...


def _out(value: object) -> object:
    """An attribute's value in its JSON form: a tuple as a list, a typed part as its JSON, a mapping of
    tuples (a set hand's house way) as one of lists. JSON values (an event, a bet placed) are as read."""
    if isinstance(value, tuple):
        return [_out(v) for v in value]
    if isinstance(value, _TYPED):
        return value.to_json()
    if isinstance(value, Mapping):
        return {k: list(v) if isinstance(v, tuple) else v for k, v in value.items()}
    return value


def _write(part: _Written, attributes: Mapping[str, str]) -> Json:
    """``part`` as JSON: each written key from its attribute (``attributes``: JSON key → attribute), else an extra."""
    doc: Json = {}
    for key in part.written:
        doc[key] = _out(getattr(part, attributes[key])) if key in attributes else part.extras[key]
    return doc


def _extras(doc: Mapping[str, object], attributes: Mapping[str, str]) -> dict[str, JsonValue]:
    return {k: _json_value(v, k) for k, v in doc.items() if k not in attributes}


def _json_value(value: object, key: str) -> JsonValue:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list):
        return [_json_value(v, key) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _json_value(v, key) for k, v in value.items()}
    raise TypeError(f"{key}: not a JSON value: {value!r}")


def _document(value: object, where: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise TypeError(f"{where}: not an object: {value!r}")
    for key in value:
        if not isinstance(key, str):
            raise TypeError(f"{where}: a key is not a string: {key!r}")
    return value


def _wrong(key: str, wanted: str, value: object) -> TypeError:
    return TypeError(f"{key}: not {wanted}: {value!r}")


def _text(value: object, key: str) -> str:
    if not isinstance(value, str):
        raise _wrong(key, "a string", value)
    return value


def _text_or_none(value: object, key: str) -> str | None:
    return None if value is None else _text(value, key)


def _whole(value: object, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _wrong(key, "a whole number", value)
    return value


def _whole_or_none(value: object, key: str) -> int | None:
    return None if value is None else _whole(value, key)


def _flag_or_none(value: object, key: str) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise _wrong(key, "true or false", value)
    return value


def _seat_or_name(value: object, key: str) -> int | str | None:
    """A seat's number, a place's name (``dealer``) or a hand's number or name, or null."""
    if value is None or isinstance(value, str):
        return value
    return _whole(value, key)


def _list(value: object, key: str) -> list[object]:
    if not isinstance(value, list | tuple):
        raise _wrong(key, "a list", value)
    return list(value)


def _texts(value: object, key: str) -> tuple[str, ...]:
    return tuple(_text(v, f"{key}[{i}]") for i, v in enumerate(_list(value, key)))


def _wholes(value: object, key: str) -> tuple[int, ...]:
    return tuple(_whole(v, f"{key}[{i}]") for i, v in enumerate(_list(value, key)))


def _wholes_or_none(value: object, key: str) -> tuple[int, ...] | None:
    return None if value is None else _wholes(value, key)


def _json_object(value: object, key: str) -> dict[str, JsonValue]:
    return {k: _json_value(v, f"{key}.{k}") for k, v in _document(value, key).items()}


def _json_object_or_none(value: object, key: str) -> dict[str, JsonValue] | None:
    return None if value is None else _json_object(value, key)


def _json_objects(value: object, key: str) -> tuple[dict[str, JsonValue], ...]:
    return tuple(_json_object(v, f"{key}[{i}]") for i, v in enumerate(_list(value, key)))


def _enum_or_none(kind: type[_E], value: object, key: str) -> _E | None:
    if value is None:
        return None
    try:
        return kind(_text(value, key))
    except ValueError:
        raise ValueError(f"{key}: not one of {', '.join(m.value for m in kind)}: {value!r}") from None


@dataclass(frozen=True, slots=True)
class MessagePart:
    """One message of the dealer's words (tables/engines/speech.py's ``Part``): its id, its params (a
    param may itself be a message, written as its parts), the separator before it where written."""

    id: str
    params: JsonObject
    sep: str | None = None  # None: not written (the first part, or joined with nothing)
    written: tuple[str, ...] = ("id", "params")
    extras: JsonObject = field(default_factory=dict)  # none today

    KEYS: ClassVar[Mapping[str, str]] = {"id": "id", "params": "params", "sep": "sep"}

    @classmethod
    def of(cls, value: object, where: str = "message") -> MessagePart:
        doc = _document(value, where)
        return cls(id=_text(doc.get("id"), f"{where}.id"), params=_json_object(doc.get("params", {}), f"{where}.params"),
                   sep=_text_or_none(doc.get("sep"), f"{where}.sep"), written=tuple(doc),
                   extras=_extras(doc, cls.KEYS))

    def to_json(self) -> Json:
        return _write(self, self.KEYS)


def _message(value: object, key: str) -> tuple[MessagePart, ...]:
    return tuple(MessagePart.of(p, f"{key}[{i}]") for i, p in enumerate(_list(value, key)))


@dataclass(frozen=True, slots=True)
class Option:
    """One answer a screen offers (a ``choice``'s option, an amount's pass, a horse up for auction): its
    value, its label (and the label as a message where the engine words it), the event it posts."""

    value: str
    label: str
    label_message: tuple[MessagePart, ...] = ()
    event: JsonObject | None = None  # None: posts no event of its own (a horse of a bid)
    written: tuple[str, ...] = ("value", "label")
    extras: JsonObject = field(default_factory=dict)  # none today

    KEYS: ClassVar[Mapping[str, str]] = {"value": "value", "label": "label", "label_message": "label_message",
                                         "event": "event"}

    @classmethod
    def of(cls, value: object, where: str = "option") -> Option:
        doc = _document(value, where)
        return cls(value=_text(doc.get("value"), f"{where}.value"), label=_text(doc.get("label"), f"{where}.label"),
                   label_message=_message(doc.get("label_message", []), f"{where}.label_message"),
                   event=_json_object_or_none(doc.get("event"), f"{where}.event"), written=tuple(doc),
                   extras=_extras(doc, cls.KEYS))

    def to_json(self) -> Json:
        return _write(self, self.KEYS)


@dataclass(frozen=True, slots=True)
class HandSlot:
    """One hand a ``set_hand`` input splits the cards into: its name and how many cards it takes."""

    name: str
    size: int
    written: tuple[str, ...] = ("name", "size")
    extras: JsonObject = field(default_factory=dict)  # none today

    KEYS: ClassVar[Mapping[str, str]] = {"name": "name", "size": "size"}

    @classmethod
    def of(cls, value: object, where: str = "hands") -> HandSlot:
        doc = _document(value, where)
        return cls(name=_text(doc.get("name"), f"{where}.name"), size=_whole(doc.get("size"), f"{where}.size"),
                   written=tuple(doc), extras=_extras(doc, cls.KEYS))

    def to_json(self) -> Json:
        return _write(self, self.KEYS)


@dataclass(frozen=True, slots=True)
class HighBid:
    """The Calcutta auction's high bid so far: the seat and the amount."""

    seat: int
    amount: int
    written: tuple[str, ...] = ("seat", "amount")
    extras: JsonObject = field(default_factory=dict)  # none today

    KEYS: ClassVar[Mapping[str, str]] = {"seat": "seat", "amount": "amount"}

    @classmethod
    def of(cls, value: object, where: str = "high_bid") -> HighBid:
        doc = _document(value, where)
        return cls(seat=_whole(doc.get("seat"), f"{where}.seat"), amount=_whole(doc.get("amount"), f"{where}.amount"),
                   written=tuple(doc), extras=_extras(doc, cls.KEYS))

    @classmethod
    def of_none(cls, value: object, where: str) -> HighBid | None:
        return None if value is None else cls.of(value, where)

    def to_json(self) -> Json:
        return _write(self, self.KEYS)


def _house_way(value: object, key: str) -> dict[str, tuple[str, ...]]:
    return {name: _texts(part, f"{key}.{name}") for name, part in _document(value, key).items()}


@dataclass(frozen=True, slots=True)
class StepInput:
    """What a screen draws for the step and the event it posts (tables/engines/inputs.py, one ``kind`` of
    :class:`InputKind`): each kind's keys typed, absent where the kind has none (``written`` says which
    were written). ``bets_open`` entries and event templates are the events' own JSON, posted as they are."""

    kind: InputKind
    to: str | None = None  # card: where it goes (null: the game places it)
    deck: Deck | None = None  # card
    seat: int | str | None = None  # choice, amount, set_hand: the seat (or ``dealer``) answering
    hand: int | str | None = None  # choice: the hand answering, by number or name
    label: str | None = None  # amount
    minimum: int | None = None  # amount, bid: ``min``
    maximum: int | None = None  # amount: ``max``
    event: JsonObject | None = None  # amount, set_hand, bid: the event template
    path: str | None = None  # amount, bid: where the amount goes in the event
    options: tuple[Option, ...] = ()  # choice; amount, set_hand, card: the other answers
    cards: tuple[str, ...] = ()  # set_hand
    hands: tuple[HandSlot, ...] = ()  # set_hand
    house_way: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # set_hand
    house_way_event: JsonObject | None = None  # set_hand
    count: int | None = None  # dice
    faces: int | None = None  # dice
    horses: tuple[Option, ...] = ()  # bid: the horses up (value and label)
    high_bid: HighBid | None = None  # bid
    seats: tuple[int, ...] | None = None  # bid: the seats that may bid (null: any)
    fields: tuple[str, ...] = ()  # bid: the event's fields
    sell: JsonObject | None = None  # bid: the event that sells the horse (null before the first bid)
    bets_open: tuple[JsonObject, ...] = ()  # any kind: the bets that may be placed now (inputs.open_bet)
    written: tuple[str, ...] = ("kind",)
    extras: JsonObject = field(default_factory=dict)  # none today

    KEYS: ClassVar[Mapping[str, str]] = {
        "kind": "kind", "to": "to", "deck": "deck", "seat": "seat", "hand": "hand", "label": "label",
        "min": "minimum", "max": "maximum", "event": "event", "path": "path", "options": "options", "cards": "cards",
        "hands": "hands", "house_way": "house_way", "house_way_event": "house_way_event", "count": "count",
        "faces": "faces", "horses": "horses", "high_bid": "high_bid", "seats": "seats", "fields": "fields",
        "sell": "sell", "bets_open": "bets_open",
    }

    @classmethod
    def of(cls, value: object, where: str = "input") -> StepInput:
        doc = _document(value, where)
        kind = _enum_or_none(InputKind, doc.get("kind"), f"{where}.kind")
        if kind is None:
            raise TypeError(f"{where}.kind: missing")
        w = f"{where}."
        return cls(
            kind=kind,
            to=_text_or_none(doc.get("to"), w + "to"),
            deck=_enum_or_none(Deck, doc.get("deck"), w + "deck"),
            seat=_seat_or_name(doc.get("seat"), w + "seat"),
            hand=_seat_or_name(doc.get("hand"), w + "hand"),
            label=_text_or_none(doc.get("label"), w + "label"),
            minimum=_whole_or_none(doc.get("min"), w + "min"),
            maximum=_whole_or_none(doc.get("max"), w + "max"),
            event=_json_object_or_none(doc.get("event"), w + "event"),
            path=_text_or_none(doc.get("path"), w + "path"),
            options=tuple(Option.of(o, f"{w}options[{i}]") for i, o in enumerate(_list(doc.get("options", []), w + "options"))),
            cards=_texts(doc.get("cards", []), w + "cards"),
            hands=tuple(HandSlot.of(h, f"{w}hands[{i}]") for i, h in enumerate(_list(doc.get("hands", []), w + "hands"))),
            house_way=_house_way(doc.get("house_way", {}), w + "house_way"),
            house_way_event=_json_object_or_none(doc.get("house_way_event"), w + "house_way_event"),
            count=_whole_or_none(doc.get("count"), w + "count"),
            faces=_whole_or_none(doc.get("faces"), w + "faces"),
            horses=tuple(Option.of(h, f"{w}horses[{i}]") for i, h in enumerate(_list(doc.get("horses", []), w + "horses"))),
            high_bid=HighBid.of_none(doc.get("high_bid"), w + "high_bid"),
            seats=_wholes_or_none(doc.get("seats"), w + "seats"),
            fields=_texts(doc.get("fields", []), w + "fields"),
            sell=_json_object_or_none(doc.get("sell"), w + "sell"),
            bets_open=_json_objects(doc.get("bets_open", []), w + "bets_open"),
            written=tuple(doc),
            extras=_extras(doc, cls.KEYS),
        )

    def to_json(self) -> Json:
        return _write(self, self.KEYS)


@dataclass(frozen=True, slots=True)
class Betting:
    """A betting round open while the cards wait (Carousel's count and high card bets, the horse race's
    book): the bet types open, what has been placed; Carousel's stake, hands, seats and turn, the
    horse race's odds."""

    bet_types: tuple[str, ...] = ()
    placed: tuple[JsonObject, ...] = ()  # the bets of this betting round, as placed (id, seat, type or horse…)
    amount: int | None = None  # Carousel: the one stake of a count bet
    numbers: tuple[int, ...] = ()  # Carousel: the least and the most hands a count bet may name
    running: tuple[int, ...] = ()  # Carousel: the hands still running
    seats: tuple[int, ...] | None = None  # Carousel: the seats still in (null: any)
    carry: int | None = None  # Carousel: what the pools carry in
    turn: int | None = None  # Carousel: the seat whose turn it is to bet, where bets go in turn
    odds: Mapping[str, int] = field(default_factory=dict)  # the horse race: each horse's odds
    odds_open: bool | None = None  # the horse race: the odds may still change
    written: tuple[str, ...] = ()
    extras: JsonObject = field(default_factory=dict)  # none today

    KEYS: ClassVar[Mapping[str, str]] = {
        "bet_types": "bet_types", "placed": "placed", "amount": "amount", "numbers": "numbers",
        "running": "running", "seats": "seats", "carry": "carry", "turn": "turn", "odds": "odds",
        "odds_open": "odds_open",
    }

    @classmethod
    def of(cls, value: object, where: str = "betting") -> Betting:
        doc = _document(value, where)
        w = f"{where}."
        return cls(
            bet_types=_texts(doc.get("bet_types", []), w + "bet_types"),
            placed=_json_objects(doc.get("placed", []), w + "placed"),
            amount=_whole_or_none(doc.get("amount"), w + "amount"),
            numbers=_wholes(doc.get("numbers", []), w + "numbers"),
            running=_wholes(doc.get("running", []), w + "running"),
            seats=_wholes_or_none(doc.get("seats"), w + "seats"),
            carry=_whole_or_none(doc.get("carry"), w + "carry"),
            turn=_whole_or_none(doc.get("turn"), w + "turn"),
            odds={k: _whole(v, f"{w}odds.{k}") for k, v in _document(doc.get("odds", {}), w + "odds").items()},
            odds_open=_flag_or_none(doc.get("odds_open"), w + "odds_open"),
            written=tuple(doc),
            extras=_extras(doc, cls.KEYS),
        )

    def to_json(self) -> Json:
        return _write(self, self.KEYS)


def _step_hand(value: object, key: str) -> int | str | tuple[str, ...] | None:
    """A step's ``hand``: a hand's number (blackjack's splits) or name (chemin de fer, pontoon), or its cards
    (Pai Gow, Pusoy: the cards to set)."""
    if isinstance(value, list | tuple):
        return _texts(value, key)
    return _seat_or_name(value, key)


@dataclass(frozen=True, slots=True)
class Step:
    """What the dealer must enter next (docs/round_format.md, "What comes next"): ``expect`` (``card``,
    ``action``, ``dice``, ``bid``; ``bets`` while betting is open), the dealer's words (``say``, and
    ``message`` as message ids), the ``input`` a screen draws, and the keys each game adds, typed; a key
    absent from the step is at its default (None, empty) and ``written`` lists the keys the step holds,
    in their order. :meth:`of` reads and checks a step's JSON (a wrong type raises TypeError, an unknown
    input kind or deck ValueError, naming the key); :meth:`to_json` writes it back key for key, in order.

    Which game writes which key: ``to`` a card's place (every card step); ``seat`` and ``allowed`` on an
    action (the seat answering, null for the dealer); ``hand`` the hand answering (blackjack: its number,
    chemin de fer and pontoon: its name; Pai Gow and Pusoy: its cards to set); ``position`` (Pusoy) the
    place whose cards are set; ``results`` (blackjack's peek); ``max_amount`` (blackjack's insurance, Red
    Dog and In Between); ``min_amount``, ``pot``, ``forfeit``, ``pot_empty``, ``amount`` (Red Dog, In
    Between: the bet against the pot, the pass, the ante); ``raise_amount`` (Caribbean Stud); ``bet`` (Let It
    Ride: which bet may be pulled back); ``bets_open``, ``bet_types``, ``turn`` (Faro, Stuss: bets between
    turns); ``round`` and ``betting`` (Carousel's family; ``betting`` also the horse race's book);
    ``horses``, ``high_bid``, ``minimum``, ``sell`` (the Calcutta auction's bid)."""

    expect: str
    say: str = ""
    message: tuple[MessagePart, ...] = ()
    input: StepInput | None = None  # None: not written (an audit's record of the step, :meth:`said`)
    to: str | None = None
    seat: int | None = None
    allowed: tuple[str, ...] = ()
    hand: int | str | tuple[str, ...] | None = None
    position: str | None = None
    results: tuple[str, ...] = ()
    min_amount: int | None = None
    max_amount: int | None = None
    raise_amount: int | None = None
    bet: int | None = None
    pot: int | None = None
    forfeit: int | None = None
    pot_empty: bool | None = None
    amount: int | None = None
    bets_open: bool | None = None
    bet_types: tuple[str, ...] = ()
    turn: int | None = None
    round: int | None = None
    betting: Betting | None = None
    horses: tuple[str, ...] = ()
    high_bid: HighBid | None = None
    minimum: int | None = None
    sell: JsonObject | None = None
    written: tuple[str, ...] = ("expect",)
    # keys no engine writes today (an older stored step's, kept as written): the engines' steps have none
    extras: JsonObject = field(default_factory=dict)

    KEYS: ClassVar[Mapping[str, str]] = {
        "expect": "expect", "say": "say", "message": "message", "input": "input", "to": "to", "seat": "seat",
        "allowed": "allowed", "hand": "hand", "position": "position", "results": "results",
        "min_amount": "min_amount", "max_amount": "max_amount", "raise_amount": "raise_amount", "bet": "bet",
        "pot": "pot", "forfeit": "forfeit", "pot_empty": "pot_empty", "amount": "amount", "bets_open": "bets_open",
        "bet_types": "bet_types", "turn": "turn", "round": "round", "betting": "betting", "horses": "horses",
        "high_bid": "high_bid", "minimum": "minimum", "sell": "sell",
    }

    @classmethod
    def of(cls, value: object) -> Step:
        """A step's JSON (an engine's ``next``, a stored one) read and checked."""
        doc = _document(value, "next")
        raw_input, betting = doc.get("input"), doc.get("betting")
        seat = doc.get("seat")
        return cls(
            expect=_text(doc.get("expect"), "expect"),
            say=_text(doc.get("say", ""), "say"),
            message=_message(doc.get("message", []), "message"),
            input=None if raw_input is None else StepInput.of(raw_input),
            to=_text_or_none(doc.get("to"), "to"),
            seat=None if seat is None else _whole(seat, "seat"),
            allowed=_texts(doc.get("allowed", []), "allowed"),
            hand=_step_hand(doc.get("hand"), "hand"),
            position=_text_or_none(doc.get("position"), "position"),
            results=_texts(doc.get("results", []), "results"),
            min_amount=_whole_or_none(doc.get("min_amount"), "min_amount"),
            max_amount=_whole_or_none(doc.get("max_amount"), "max_amount"),
            raise_amount=_whole_or_none(doc.get("raise_amount"), "raise_amount"),
            bet=_whole_or_none(doc.get("bet"), "bet"),
            pot=_whole_or_none(doc.get("pot"), "pot"),
            forfeit=_whole_or_none(doc.get("forfeit"), "forfeit"),
            pot_empty=_flag_or_none(doc.get("pot_empty"), "pot_empty"),
            amount=_whole_or_none(doc.get("amount"), "amount"),
            bets_open=_flag_or_none(doc.get("bets_open"), "bets_open"),
            bet_types=_texts(doc.get("bet_types", []), "bet_types"),
            turn=_whole_or_none(doc.get("turn"), "turn"),
            round=_whole_or_none(doc.get("round"), "round"),
            betting=None if betting is None else Betting.of(betting),
            horses=_texts(doc.get("horses", []), "horses"),
            high_bid=HighBid.of_none(doc.get("high_bid"), "high_bid"),
            minimum=_whole_or_none(doc.get("minimum"), "minimum"),
            sell=_json_object_or_none(doc.get("sell"), "sell"),
            written=tuple(doc),
            extras=_extras(doc, cls.KEYS),
        )

    @property
    def message_json(self) -> list[Json]:
        """The dealer's words as message ids and params (tables/engines/speech.py); ``say`` is their English."""
        return [part.to_json() for part in self.message]

    def to_json(self) -> Json:
        """The step as the engine wrote it, key for key and in its order."""
        return _write(self, self.KEYS)

    def said(self) -> Json:
        """The step as the dealer is told it, without the screen's ``input`` (what an audit records)."""
        return {k: v for k, v in self.to_json().items() if k != "input"}


# the typed parts of a step, which :func:`_out` writes as their JSON
_TYPED = (MessagePart, Option, HandSlot, HighBid, StepInput, Betting)
