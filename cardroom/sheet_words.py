"""A score sheet in the reader's words: the rule settings, their choices, a deal's summary and a deal's entry.

The games (``tables.scoring``, pure Python) name their settings and choices by codes and write a deal's summary
as notes made of a template and its facts (:mod:`tables.scoring.phrases`, marked ``N_`` for the catalogs). Here
they are translated into the reader's language: players by their names, cards as the card room shows them
(``J♥``), suits and contracts in words, numbers as the language writes them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, pgettext_lazy

from casino.money import number_words
from tables.scoring import phrases
from tables.wording import SUIT_WORDS, card_text

CARD = re.compile(r"^(?:[2-9TJQKA]|10)[SHDC]$|^JK$")
CONTRACT = re.compile(r"^(\d+)(NT|[SCDH])$")

# a deal's entry, as the sheet keeps it (docs/cardroom.md): its parts in words
ENTRY_WORDS: dict[str, Any] = {
    "taken": pgettext_lazy("deal entry", "Taken"), "hearts": pgettext_lazy("deal entry", "Hearts"),
    "queen": pgettext_lazy("deal entry", "Queen of spades"), "queens": pgettext_lazy("deal entry", "Queens of spades"),
    "plus": pgettext_lazy("deal entry", "Plus card"), "penalty": pgettext_lazy("deal entry", "Penalty (revoke)"),
    "bid": pgettext_lazy("deal entry", "Bid"), "player": pgettext_lazy("deal entry", "Player"),
    "chips": pgettext_lazy("deal entry", "Chips"), "suit": pgettext_lazy("deal entry", "Suit"),
    "knocker": pgettext_lazy("deal entry", "Knocked"), "hands": pgettext_lazy("deal entry", "Hands"),
    "deadwood": pgettext_lazy("deal entry", "Deadwood"), "melds": pgettext_lazy("deal entry", "Melds"),
    "captured": pgettext_lazy("deal entry", "Captured"), "count": pgettext_lazy("deal entry", "Cards"),
    "spades": pgettext_lazy("deal entry", "Spades"), "aces": pgettext_lazy("deal entry", "Aces"),
    "big_casino": pgettext_lazy("deal entry", "Big casino"), "little_casino": pgettext_lazy("deal entry", "Little casino"),
    "sweeps": pgettext_lazy("deal entry", "Sweeps"), "bidder": pgettext_lazy("deal entry", "Bidder"),
    "tricks": pgettext_lazy("deal entry", "Tricks"), "revoke": pgettext_lazy("deal entry", "Revoke"),
    "out_of_turn": pgettext_lazy("deal entry", "Out of turn"), "peeped": pgettext_lazy("deal entry", "Peeped"),
    "passed": pgettext_lazy("deal entry", "Passed"), "dealer": pgettext_lazy("deal entry", "Dealer"),
    "garnet": pgettext_lazy("deal entry", "Sir Garnet"), "maker": pgettext_lazy("deal entry", "Maker"),
    "alone": pgettext_lazy("deal entry", "Alone"), "partner": pgettext_lazy("deal entry", "Partner"),
    "trump": pgettext_lazy("deal entry", "Trump"), "cards": pgettext_lazy("deal entry", "Cards"),
}


def number(value: int) -> str:
    return number_words(int(value), 0)


def names(value: Any) -> str:
    """Players or sides by their names, the last joined with "and" in the reader's language."""
    if not isinstance(value, list | tuple):
        return str(value)
    if len(value) < 2:
        return "".join(map(str, value))
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(map(str, value[:-1])), "last": value[-1]}


def suit_words(value: Any) -> str:
    text = str(value)
    if text in SUIT_WORDS:
        return str(SUIT_WORDS[text])
    return gettext(phrases.BID_SUITS[text]) if text in phrases.BID_SUITS else text


def bid_words(value: Any) -> str:
    """A contract (``7NT`` → 7 no trump), a number of tricks, or a bid's proper name (Nap, Wellington)."""
    if isinstance(value, int):
        return number(value)
    m = CONTRACT.match(str(value))
    if m:
        return gettext(phrases.CONTRACT) % {"n": number(int(m.group(1))), "suit": suit_words(m.group(2))}
    if value in phrases.BIDS:
        return gettext(phrases.BIDS[value])
    return gettext(phrases.CHART_LINES[value]) if value in phrases.CHART_LINES else str(value)


def fact_words(name: str, value: Any) -> str:
    """One fact of a note, by its name: a suit, a card, a bid, a number, players."""
    if name == "suit":
        return suit_words(value)
    if name == "card":
        return card_text(str(value))
    if name == "bid":
        return bid_words(value)
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, int):
        return number(value)
    return names(value)


def phrase_words(phrase: Any) -> str:
    """A deal's summary phrase (``{"id", "params"}``) in the reader's words; a phrase kept without its id (a
    sheet scored before the games worded their notes) is shown as it was written."""
    if isinstance(phrase, Mapping) and "id" in phrase:
        params = phrase.get("params") or {}
        return gettext(phrase["id"]) % {k: fact_words(k, v) for k, v in params.items()}
    return str(phrase.get("text", "") if isinstance(phrase, Mapping) else phrase)


def row_notes(row: Mapping[str, Any]) -> list[str]:
    """A replayed deal's notes in the reader's words."""
    if "phrases" in row:
        return [phrase_words(p) for p in row["phrases"]]
    return [str(n) for n in row.get("notes") or []]


# -- the rule settings ----------------------------------------------------------------------------------


def setting_label(name: str) -> str:
    return gettext(phrases.LABELS[name]) if name in phrases.LABELS else name.replace("_", " ").capitalize()


def setting_help(help_text: str) -> str:
    return gettext(phrases.HELPS[help_text]) if help_text in phrases.HELPS else help_text


def choice_words(value: Any) -> str:
    """A choice's value in words (a card as a card)."""
    text = str(value)
    if CARD.match(text):
        return card_text(text.replace("10", "T", 1) if text.startswith("10") else text)
    return gettext(phrases.CHOICES[text]) if text in phrases.CHOICES else text.replace("_", " ")


def chart_line_words(key: Any) -> str:
    """A chart's line: a contract (Five Hundred's ``7NT``) or a named line (Napoleon's ``nap_win``)."""
    return bid_words(str(key))


# -- a deal's entry -----------------------------------------------------------------------------------------


def _value_words(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, int):
        return number(value)
    if isinstance(value, list | tuple):
        return " ".join(_value_words(v) for v in value) if all(isinstance(v, str) and CARD.match(v) for v in value) \
            else ", ".join(_value_words(v) for v in value)
    if isinstance(value, Mapping):
        return entry_words(value)
    text = str(value)
    if CARD.match(text):
        return card_text(text)
    if text in SUIT_WORDS:
        return str(SUIT_WORDS[text])
    return text


def entry_words(entry: Any) -> str:
    """A deal's entry as a person reads it: each part by its name in words, players by their names, cards as
    cards (``Taken: ann (Hearts: 13, Queen of spades: no)``)."""
    if not isinstance(entry, Mapping):
        return _value_words(entry)
    parts = []
    for key, value in entry.items():
        label = str(ENTRY_WORDS.get(key, key))
        if isinstance(value, Mapping):
            parts.append(f"{label} ({entry_words(value)})")
        else:
            parts.append(f"{label}: {_value_words(value)}")
    return "; ".join(parts)
