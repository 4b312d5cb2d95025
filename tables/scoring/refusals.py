"""A score sheet's refusals as facts: a sentence template with named placeholders and its typed params.

A game refuses an entry with :class:`ScoringError`: the refusal's ``code`` and ``field`` (the machine's
pointer into the entry, ``tricks.ann``) as every :class:`~tables.engines.errors.EngineError` has them, a
``template`` (one English sentence with ``%(name)s`` placeholders, marked with :func:`N_` so ``make locale``
extracts it) and ``params``, the facts the sentence states as plain values. The engine never writes the
reader's sentence: the card room words ``template`` in the reader's language and fills in the params
worded for the reader (cardroom/wording.py). ``message`` is the same sentence in the engines' English, for
developers and logs, with the field in front where ``at`` names it.

A param's kind is said by its name (:data:`KINDS`): what the card room words and how English writes it.
Any other param is shown as it is (a player's or side's name, a number).

>>> err = ScoringError("bad_deal", N_("%(player)s's hand is dead until the pot is won"), field="tricks.cy",
...                    at="tricks.cy", player="cy")
>>> err.message, err.params, err.field
("tricks.cy: cy's hand is dead until the pot is won", {'player': 'cy'}, 'tricks.cy')
>>> ScoringError("bad_deal", N_("%(what)s must be from %(low)s to %(high)s, not %(value)s"), field="tricks.bob",
...              what="tricks.bob", low=0, high=13, value=14).message
'tricks.bob must be from 0 to 13, not 14'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tables.engines.base import Setting, SettingKind
from tables.engines.errors import EngineError

PLACEHOLDER = re.compile(r"%\((\w+)\)s")

# param name → its kind (any other name: a name or a number, shown as it is)
KINDS: dict[str, str] = {
    "what": "entry",  # a place in the entry (``tricks.ann``, ``config.peep``): worded as what it holds
    "key": "entry",
    "keys": "entries",  # several places (the parts a deal may have), joined with commas
    "value": "value",  # what was entered, as it was entered (English: its Python repr)
    "card": "card",  # a card code (``QS``)
    "cards": "cards",  # card codes
    "suit": "suit",  # a suit's name (``hearts``)
    "suits": "suits",  # suit names, joined with commas
    "bid": "bid",  # a bid as the sheet takes it (``7H``, ``10NT``, ``nap``, ``moon``, 3)
    "bids": "bids",  # bids, joined with commas
    "title": "title",  # a game's title (``Auction Hearts``)
    "players": "names",  # players' names, joined with commas
    "both": "names_and",  # players' names, joined with "and"
    "checks": "checks",  # the validity checks a game offers (``meld``, ``table``)
    "games": "checks",  # the games that keep a score sheet
    "colour": "colour",  # red or black
    "reason": "sentence",  # another N_-marked sentence without placeholders (why a meld is not valid)
    "choices": "choices",  # a setting's values (``add_to_others``)
    "counted": "who",  # a player or side, or None: nobody
    "entered": "who",
}

BID_NAMES = {"NT": "notrump", "S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}


def N_(template: str) -> str:  # noqa: N802 - the catalogs' marker, as gettext's tools spell it
    """Mark a refusal's template for the catalogs (``makemessages`` extracts ``N_("…")``); translated by the
    card room when it words the refusal, never here."""
    return template


def placeholders(template: str) -> list[str]:
    """The names a template's placeholders take from the params."""
    return PLACEHOLDER.findall(template)


def english(name: str, value: Any) -> str:
    """A param as the engines' English writes it."""
    kind = KINDS.get(name)
    if kind == "value":
        return repr(value)
    if kind == "who" and value is None:
        return "nobody"
    if isinstance(value, list | tuple):
        return (" and " if kind == "names_and" else ", ").join(str(v) for v in value)
    return str(value)


class ScoringError(EngineError):
    """A score sheet's refusal: ``template`` and ``params`` (the sentence and its facts), ``code`` and ``field``."""

    def __init__(self, code: str, template: str, *, field: str | None = None, event: int | None = None,
                 at: str | None = None, **params: Any) -> None:
        missing = [name for name in placeholders(template) if name not in params]
        if missing:
            raise TypeError(f"the refusal {template!r} is missing its params {missing}")
        text = template % {name: english(name, value) for name, value in params.items()}
        super().__init__(code, f"{at}: {text}" if at else text, event=event, field=field, params=params)
        self.template = template

    @classmethod
    def inner(cls, error: EngineError, *, field: str, at: str | None = None) -> EngineError:
        """An engine's refusal of a card (``bad_card``, ``card_exhausted``: tables/engines/cards.py) for the
        place in the entry that holds it."""
        at = at or field
        params = error.params
        if error.code == "card_exhausted" and "jokers" in params:
            return cls(error.code, N_("the pack holds %(n)s joker(s), all already entered"), field=field, at=at,
                       n=params["jokers"])
        if error.code == "card_exhausted" and "card" in params:
            return cls(error.code, N_("%(card)s is entered more times than the pack holds it (%(n)s)"), field=field,
                       at=at, card=params["card"], n=params.get("decks", 1))
        if error.code == "bad_card" and "card" in params:
            return cls(error.code, N_("%(value)s is not a card: rank A 2-9 T(10) J Q K then suit S H D C, "
                                      "e.g. AS, 10H"), field=field, at=at, value=params["card"])
        if error.code == "bad_card":
            return cls(error.code, N_("this game is played without a joker"), field=field, at=at)
        return cls(error.code, N_("%(what)s cannot be read"), field=field, at=at, what=field)

    @classmethod
    def setting(cls, error: EngineError, setting: Setting) -> EngineError:
        """A rule setting's refusal (:meth:`Setting.clean <tables.engines.base.Setting.clean>`) for the sheet."""
        what, params = f"config.{setting.name}", error.params
        if setting.kind is SettingKind.BOOL:
            return cls(error.code, N_("%(what)s must be true or false"), field=what, what=what)
        if setting.kind is SettingKind.INT and "min" in params:
            return cls(error.code, N_("%(what)s must be at least %(low)s"), field=what, what=what, low=params["min"])
        if setting.kind is SettingKind.INT and "max" in params:
            return cls(error.code, N_("%(what)s must be at most %(high)s"), field=what, what=what, high=params["max"])
        if setting.kind is SettingKind.INT:
            return cls(error.code, N_("%(what)s must be a whole number"), field=what, what=what)
        if setting.kind is SettingKind.CHOICE:
            return cls(error.code, N_("%(what)s must be one of %(choices)s"), field=what, what=what,
                       choices=list(setting.choices))
        if "lines" in params:
            return cls(error.code, N_("%(line)s is not a line of %(what)s (%(keys)s)"), field=what, what=what,
                       line=params["line"], keys=params["lines"])
        if "line" in params:
            return cls(error.code, N_("%(line)s of %(what)s must be a whole number of units"), field=what, what=what,
                       line=params["line"])
        return cls(error.code, N_("%(what)s must be an object of pay odds"), field=what, what=what)


def worded_params(params: Mapping[str, Any]) -> dict[str, str]:
    """The params as the engines' English writes them (the template's ``%`` operand)."""
    return {name: english(name, value) for name, value in params.items()}
