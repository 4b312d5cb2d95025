"""What a scorer enters for one deal, declared as typed fields (issue 31: no screen asks for JSON).

Each game says, beside its ``score_deal``, which parts its deal's entry has and of what kind
(:meth:`~tables.scoring.base.ScoredGame.entry_fields`); the card room renders them as labelled fields (a
player chosen by name, a number within its limits, a box to tick) and assembles the entry object from them
(cardroom/static/cardroom/sheet.js; :func:`assemble` is its twin here). Labels are English marked ``N_`` for
the catalogs, like the refusals; the game still judges every entry.

Kinds:

* ``player`` — one of the sheet's players (``of="sides"``: one of its sides); left empty, the part is left out
  (nobody).
* ``players`` — several players, a box each: a list.
* ``number`` — a whole number from ``minimum`` to ``maximum``; left empty, the part is left out.
* ``per_side`` — a number for each side (each player in a game without partnerships): an object of the sides
  with a number other than 0 (none: left out).
* ``bid`` — one of ``choices`` (the game's bid words: ``7H``, ``nap``, 3).
* ``suit`` — one of ``choices`` (suits, ``notrump``); left empty, left out.
* ``flag`` — a box: ``true`` when ticked, else left out.
* ``passed`` — a box: ticked, the entry is ``{"passed": true}`` and only the parts named in ``keep``.

>>> fields = (EntryField("maker", "player", N_("Maker")), EntryField("tricks", "number", N_("Tricks"), maximum=5),
...           EntryField("alone", "flag", N_("Alone")), EntryField("passed", "passed", N_("All passed")))
>>> assemble(fields, {"maker": "ann", "tricks": "4", "alone": False})
{'maker': 'ann', 'tricks': 4}
>>> assemble(fields, {"maker": "ann", "tricks": "4", "passed": True})
{'passed': True}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tables.scoring.refusals import N_

KINDS = ("player", "players", "number", "per_side", "bid", "suit", "flag", "passed")
SUITS = ("clubs", "diamonds", "hearts", "spades")


@dataclass(frozen=True, slots=True)
class EntryField:
    """One part of a deal's entry: its name in the entry, its kind (:data:`KINDS`) and its label (``N_``)."""

    name: str
    kind: str
    label: str
    of: str = "players"  # a ``player``: one of the sheet's "players" or "sides"
    minimum: int | None = None  # a ``number`` or ``per_side``
    maximum: int | None = None
    choices: tuple[Any, ...] = ()  # a ``bid`` or a ``suit``
    keep: tuple[str, ...] = ()  # ``passed``: the parts still entered when the deal is passed

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown entry field kind {self.kind!r}")

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "label": self.label, "of": self.of, "minimum": self.minimum,
                "maximum": self.maximum, "choices": list(self.choices), "keep": list(self.keep)}


# the parts most games share
def maker(name: str = "maker", label: str = N_("Maker")) -> EntryField:
    return EntryField(name, "player", label)


def bidder() -> EntryField:
    return EntryField("bidder", "player", N_("Bidder"))


def tricks(most: int, label: str = N_("Tricks taken by the maker's side")) -> EntryField:
    return EntryField("tricks", "number", label, minimum=0, maximum=most)


def tricks_by_side(most: int) -> EntryField:
    return EntryField("tricks", "per_side", N_("Tricks taken"), minimum=0, maximum=most)


def passed(keep: tuple[str, ...] = ()) -> EntryField:
    return EntryField("passed", "passed", N_("All passed (no score)"), keep=keep)


def bid(choices: tuple[Any, ...]) -> EntryField:
    return EntryField("bid", "bid", N_("Bid"), choices=choices)


def _number(text: Any) -> int | None:
    text = str(text if text is not None else "").strip()
    return int(text) if text.lstrip("-").isdigit() else None


def assemble(fields: tuple[EntryField, ...] | list[EntryField], values: Mapping[str, Any]) -> dict[str, Any]:
    """The entry the sheet page posts, from the fields' values as a form holds them: a ``player``, ``bid``,
    ``suit`` or ``number`` a text (empty: left out), ``players`` a list, ``flag``/``passed`` a bool,
    ``per_side`` a mapping side → text. The twin of sheet.js's ``fields`` builder."""
    out: dict[str, Any] = {}
    for f in fields:
        raw = values.get(f.name)
        if f.kind in ("player", "suit"):
            if raw:
                out[f.name] = str(raw)
        elif f.kind == "bid":
            if raw not in (None, ""):
                n = _number(raw)
                out[f.name] = n if n is not None else str(raw)
        elif f.kind == "number":
            n = _number(raw)
            if n is not None:
                out[f.name] = n
        elif f.kind == "players":
            if raw:
                out[f.name] = list(raw)
        elif f.kind == "per_side":
            counts = {side: _number(v) for side, v in (raw or {}).items()}
            if any(counts.values()):
                out[f.name] = {side: n for side, n in counts.items() if n}
        elif f.kind in ("flag", "passed") and raw:
            out[f.name] = True
    gone = next((f for f in fields if f.kind == "passed" and out.get(f.name)), None)
    if gone is not None:
        out = {k: v for k, v in out.items() if k == gone.name or k in gone.keep}
    return out
