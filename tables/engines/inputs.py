"""What the dealer enters next: the ``input`` of every ``next`` an engine emits.

Every step an engine asks for carries one ``input`` object whose ``kind`` is one of a closed set
(:class:`InputKind`). It holds everything a screen needs to draw the step and to build the exact
event it posts, so a screen needs no code per game (docs/round_format.md, "What comes next"):

* ``bets``: betting is open (the round service says so before the deal; nothing else);
* ``card``: ``to`` (or null) and the ``deck`` the card comes from; posts ``{"card", "to"}``;
* ``choice``: ``options``, each ``{"value", "label", "event"}`` with the complete event to post;
* ``amount``: ``min``/``max`` in minor units, an ``event`` template and the ``path`` where the
  amount goes; ``options`` offered instead of an amount (pass and forfeit, no insurance);
* ``set_hand``: the ``cards`` to split into ``hands`` (name and size each), the house way's
  split of them, the ``event`` template (one list of cards per hand name) and the complete
  ``house_way_event``; ``options`` for the other answers (surrender, royalties);
* ``dice``: how many dice and how many faces; posts ``{"dice": [...]}``;
* ``bid``: the Calcutta auction: the horses up, the high bid, the least bid, the ``event``
  template of a bid and the complete ``sell`` event (null before the first bid).

Any kind may carry ``bets_open``: the bet types that may be placed now as between-stage bet
events, each with its fields narrowed to what is allowed now (:func:`open_bet`).

Events that hold a bet carry an ``id`` the engine chose, unused in the round (:func:`fresh_bet_id`).

>>> step = choice_input(3, [option("fold", {"seat": 3, "action": "fold"})])
>>> step["options"][0]["label"], validate_input(step)
('Fold', [])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tables.engines.speech import Speech, labelled

Json = dict[str, Any]


class InputKind(StrEnum):
    BETS = "bets"  # betting is open (the round service's first step; the bet types come from ``describe()``)
    CARD = "card"
    CHOICE = "choice"
    AMOUNT = "amount"
    SET_HAND = "set_hand"
    DICE = "dice"
    BID = "bid"


class Deck(StrEnum):
    """The cards a ``card`` input may take (the screen's card pad)."""

    STANDARD = "standard"  # 52 cards, A 2 … 10 J Q K of spades, hearts, diamonds, clubs
    STANDARD_JOKER = "standard_joker"  # the 52 and the joker (Pai Gow Poker)
    STANDARD_NO_ACES = "standard_no_aces"  # 48 cards: the aces are the horses (horse races)
    TRIANGLE = "triangle"  # the Carousel pack: cards numbered 1 to 10


class FieldKind(StrEnum):
    """How a bet's extra field is entered (``describe()["bet_types"][type]["fields"]``)."""

    RANK = "rank"  # one rank of the layout: A 2 … 9 T J Q K (posts the letter; T for ten)
    RANKS = "ranks"  # ``count`` ranks in order (Faro's call of the turn)
    INT = "int"  # a whole number from ``min`` to ``max``
    CHOICE = "choice"  # one of ``options`` (value and label)
    BOOL = "bool"  # true or false


RANK_LABELS: tuple[tuple[str, str], ...] = (
    ("A", "A"), ("2", "2"), ("3", "3"), ("4", "4"), ("5", "5"), ("6", "6"), ("7", "7"), ("8", "8"), ("9", "9"),
    ("T", "10"), ("J", "J"), ("Q", "Q"), ("K", "K"),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class BetField:
    """One extra field of a bet type, as the bet panel draws it."""

    name: str
    kind: FieldKind
    label: str
    minimum: int | None = None
    maximum: int | None = None
    options: tuple[tuple[Any, str | Speech], ...] = ()  # (value, label) for CHOICE; for RANK(S), the ranks allowed
    count: int | None = None  # how many ranks, for RANKS

    def as_dict(self) -> Json:
        doc: Json = {"name": self.name, "kind": self.kind.value, "label": self.label}
        if self.minimum is not None:
            doc["min"] = self.minimum
        if self.maximum is not None:
            doc["max"] = self.maximum
        if self.kind is FieldKind.CHOICE:
            doc["options"] = [{"value": v, **label_keys(lab)} for v, lab in self.options]
        if self.kind in (FieldKind.RANK, FieldKind.RANKS):  # options narrow the ranks (a Faro rank still live)
            doc["ranks"] = [{"value": v, **label_keys(lab)} for v, lab in (self.options or RANK_LABELS)]
        if self.count is not None:
            doc["count"] = self.count
        return doc


def words(value: str) -> str:
    """An action or bet name as a dealer says it: ``no_insurance`` → ``No insurance``."""
    text = value.replace("_", " ")
    return text[:1].upper() + text[1:]


def label_keys(label: str | Speech) -> Json:
    """A label as a document carries it: a fixed one as ``label``; one said as a message (a seat, a hand,
    a horse's odds in it) as ``label`` and ``label_message`` (tables/engines/speech.py)."""
    return labelled(label) if isinstance(label, Speech) else {"label": label}


def option(value: str, event: Json, label: str | Speech | None = None) -> Json:
    """One answer of a ``choice`` (or the alternatives of an ``amount`` or ``set_hand``)."""
    return {"value": value, **label_keys(label if label is not None else words(value)), "event": event}


def card_input(to: str | None, deck: Deck = Deck.STANDARD, *, bets_open: Sequence[Json] | None = None,
               options: Sequence[Json] = ()) -> Json:
    """A card for ``to``; ``options`` are other events taken instead (Faro: take a bet down)."""
    doc: Json = {"kind": InputKind.CARD.value, "to": to, "deck": deck.value}
    if bets_open:
        doc["bets_open"] = list(bets_open)
    if options:
        doc["options"] = list(options)
    return doc


def choice_input(seat: int | str | None, options: Sequence[Json], *, hand: Any = None) -> Json:
    return {"kind": InputKind.CHOICE.value, "seat": seat, "hand": hand, "options": list(options)}


def actions_input(seat: int | str | None, allowed: Iterable[str], *, event: Json | None = None,
                  labels: Mapping[str, str] | None = None, hand: Any = None) -> Json:
    """A ``choice`` among actions: each option posts ``event`` (default ``{"seat": seat}``) with its action."""
    base = {"seat": seat} if event is None else event
    labels = labels or {}
    return choice_input(
        seat, [option(a, {**base, "action": a}, labels.get(a)) for a in allowed], hand=hand
    )


def amount_input(seat: int | None, label: str, lo: int, hi: int, event: Json, path: str, *,
                 options: Sequence[Json] = ()) -> Json:
    return {"kind": InputKind.AMOUNT.value, "seat": seat, "label": label, "min": lo, "max": hi, "event": event,
            "path": path, "options": list(options)}


def set_hand_input(seat: int | str | None, cards: Sequence[str], hands: Sequence[tuple[str, int]],
                   house_way: Mapping[str, Sequence[str]], event: Json, house_way_event: Json, *,
                   options: Sequence[Json] = ()) -> Json:
    return {
        "kind": InputKind.SET_HAND.value,
        "seat": seat,
        "cards": list(cards),
        "hands": [{"name": name, "size": size} for name, size in hands],
        "house_way": {name: list(part) for name, part in house_way.items()},
        "event": event,
        "house_way_event": house_way_event,
        "options": list(options),
    }


def dice_input(count: int = 3, faces: int = 6) -> Json:
    return {"kind": InputKind.DICE.value, "count": count, "faces": faces}


def bid_input(horses: Sequence[str], labels: Mapping[str, str], high_bid: Json | None, minimum: int,
              seats: Sequence[int] | None, sell: Json | None) -> Json:
    return {
        "kind": InputKind.BID.value,
        "horses": [{"value": h, "label": labels.get(h, h)} for h in horses],
        "high_bid": high_bid,
        "min": minimum,
        "seats": list(seats) if seats is not None else None,
        "event": {"bid": {}},
        "fields": ["seat", "horse", "amount"],
        "path": "bid.amount",
        "sell": sell,
    }


def open_bet(bet_type: str, label: str, fields: Sequence[BetField], *, amount: int | None = None,
             seats: Sequence[int] | None = None, bet_id: str | None = None) -> Json:
    """One bet type that may be placed now as a ``{"bet": {...}}`` event: its fields as allowed now,
    a fixed stake (``amount``) where the rules fix it, the seats that may bet (null: any)."""
    return {
        "type": bet_type,
        "label": label,
        "fields": [f.as_dict() for f in fields],
        "amount": amount,
        "seats": list(seats) if seats is not None else None,
        "seats_taken": [],  # seats that already hold this bet and may not place another now
        "event": {"bet": {"id": bet_id, "type": bet_type}},
    }


def fresh_bet_id(bets: Iterable[Any], events: Sequence[Mapping[str, Any]]) -> str:
    """A bet id no bet of the round uses: ``e<N>`` for the event that would place it (N counted from 1)."""
    taken = {getattr(b, "id", None) for b in bets}
    taken |= {e["bet"].get("id") for e in events if isinstance(e.get("bet"), Mapping)}
    n = len(events) + 1
    while f"e{n}" in taken:
        n += 1
    return f"e{n}"


# -- checking an input (tests, the API's schema checks) -------------------------------------------

_REQUIRED: dict[str, tuple[str, ...]] = {
    InputKind.BETS: (),
    InputKind.CARD: ("to", "deck"),
    InputKind.CHOICE: ("seat", "hand", "options"),
    InputKind.AMOUNT: ("seat", "label", "min", "max", "event", "path", "options"),
    InputKind.SET_HAND: ("seat", "cards", "hands", "house_way", "event", "house_way_event", "options"),
    InputKind.DICE: ("count", "faces"),
    InputKind.BID: ("horses", "high_bid", "min", "seats", "event", "fields", "path", "sell"),
}


def validate_input(doc: Any) -> list[str]:
    """What is wrong with an ``input`` object (empty when it is well formed)."""
    if not isinstance(doc, Mapping):
        return ["input is not an object"]
    kind = doc.get("kind")
    if kind not in _REQUIRED:
        return [f"unknown input kind {kind!r}"]
    problems = [f"{kind}: missing {name!r}" for name in _REQUIRED[kind] if name not in doc]
    for opt in doc.get("options") or []:
        if not isinstance(opt, Mapping) or not {"value", "label", "event"} <= set(opt):
            problems.append(f"{kind}: an option lacks value, label or event")
        elif not isinstance(opt["event"], Mapping) or not opt["label"]:
            problems.append(f"{kind}: option {opt['value']!r} has no event or no label")
    if kind == InputKind.CHOICE and not doc.get("options"):
        problems.append("choice: no options")
    if kind == InputKind.CARD and doc.get("deck") not in {d.value for d in Deck}:
        problems.append(f"card: unknown deck {doc.get('deck')!r}")
    if kind == InputKind.AMOUNT and not (isinstance(doc.get("min"), int) and isinstance(doc.get("max"), int)
                                         and doc["min"] <= doc["max"]):
        problems.append("amount: min and max must be whole numbers, min ≤ max")
    if kind == InputKind.SET_HAND:
        sizes = sum(h.get("size", 0) for h in doc.get("hands") or [])
        if sizes != len(doc.get("cards") or []):
            problems.append("set_hand: the hand sizes do not add up to the cards")
        if sorted(c for part in (doc.get("house_way") or {}).values() for c in part) != sorted(doc.get("cards") or []):
            problems.append("set_hand: the house way does not use exactly the cards")
    for bet in doc.get("bets_open") or []:
        if not isinstance(bet, Mapping) or not {"type", "label", "fields", "amount", "seats", "seats_taken", "event"} <= set(bet):
            problems.append(f"{kind}: a bets_open entry is incomplete")
    return problems


def fill(template: Json, path: str, value: Any) -> Json:
    """The event ``template`` with ``value`` at ``path`` (dot-separated): what a widget posts.

    >>> fill({"bet": {"seat": 2, "type": "pot_bet"}}, "bet.amount", 500)
    {'bet': {'seat': 2, 'type': 'pot_bet', 'amount': 500}}
    """
    doc: Json = _copy(template)
    *parents, last = path.split(".")
    node = doc
    for key in parents:
        node = node.setdefault(key, {})
    node[last] = value
    return doc


def _copy(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
