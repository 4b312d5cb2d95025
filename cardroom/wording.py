"""A score sheet's refusal in the reader's words.

The games (``tables.scoring``, pure Python) refuse an entry with a sentence template and its facts
(:class:`~tables.scoring.refusals.ScoringError`: ``template``, ``params``), never a finished sentence.
Here the template is translated into the reader's language (``make locale`` extracts the templates, marked
``N_``) and the params are filled in worded for the reader, each by its kind
(:data:`tables.scoring.refusals.KINDS`): a place in the entry as what it holds and whose (``tricks.ann`` →
"tricks of ann"), cards and suits as the card room says them, bids in words, players by their names. The
refusal's ``code`` and ``field`` (the machine's pointer) are left as the game gave them.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tables.engines.errors import EngineError
from tables.scoring.refusals import BID_NAMES, KINDS, ScoringError
from tables.wording import SUIT_SIGNS, SUIT_WORDS, card_text

# the parts of a deal's entry, the games' rule settings and the sheet's own fields, in words
ENTRY_WORDS: dict[str, Any] = {
    # the sheet
    "players": _("players"), "deals": _("deals"), "config": _("settings"), "check": _("check"),
    # what was taken and won
    "taken": _("taken"), "tricks": _("tricks"), "hearts": _("hearts"), "queen": _("queen of spades"),
    "queens": _("queens of spades"), "plus": _("plus card"), "cards": _("cards"), "counts": _("counting points"),
    "count": _("count"), "captured": _("captures"), "sweeps": _("sweeps"), "spades": _("spades"), "aces": _("aces"),
    "big_casino": _("big casino"), "little_casino": _("little casino"),
    # bids, makers and partners
    "bid": _("bid"), "player": _("player"), "chips": _("chips"), "suit": _("suit"), "trump": _("trump"),
    "maker": _("maker"), "bidder": _("bidder"), "contractor": _("contractor"), "partners": _("partners"),
    "partner": _("partner"), "alone": _("alone"), "defended_alone": _("defended alone"), "forced": _("forced bid"),
    "passed": _("passed"), "dealer": _("dealer"), "penalty": _("penalty"), "revoke": _("revoke"),
    "first_out": _("first out"), "out_of_turn": _("out of turn"), "garnet": _("Sir Garnet"), "peeped": _("peeped"),
    # the All Fours family
    "high": _("high"), "low": _("low"), "jack": _("jack"), "game": _("game"), "joker": _("joker"),
    "right_pedro": _("right pedro"), "left_pedro": _("left pedro"), "pitcher": _("pitcher"), "sold_by": _("sold by"),
    "refused": _("refused"), "turned_jacks": _("jacks turned"), "ran": _("ran the cards"), "gift": _("gift"),
    # Loo, Spoil Five
    "stood": _("stood"), "miss": _("miss"), "defend": _("defend"), "flush": _("flush"), "jinx": _("jinx"),
    "dead": _("dead hands"), "high_trump": _("highest trump"),
    # rummy and the checks
    "knocker": _("knocker"), "hands": _("hands"), "deadwood": _("deadwood"), "melds": _("melds"), "hand": _("hand"),
    "before": _("before"), "after": _("after"), "items": _("items"), "match": _("match"),
    # the rule settings
    "all_melded_bonus": _("all-melded bonus"), "ante": _("ante"), "bid_values": _("bid values"),
    "box_bonus": _("box bonus"), "card_points": _("card points"), "defend_alone": _("defending alone"),
    "defenders_score": _("defenders' score"), "game_bonus": _("game bonus"), "game_to": _("game to"),
    "knock_below": _("knock below"), "laps": _("laps"), "loo": _("loo"), "lose": _("loss"),
    "lowest_bid": _("lowest bid"), "moon": _("shooting the moon"), "nullo": _("nullo"), "passed_deal": _("passed deal"),
    "peep": _("peep"), "plus_card": _("plus card"), "pool": _("pool"), "queen_scores": _("queen scores"),
    "scoring": _("scoring"), "setback_payments": _("setback payments"), "settlement": _("settlement"),
    "sir_garnet": _("Sir Garnet"), "slam": _("slam"), "stakes": _("stakes"), "undercut_bonus": _("undercut bonus"),
    "wellington_blucher": _("Wellington and Blücher"), "win": _("win"),
}
BID_WORDS: dict[str, Any] = {
    "nullo": _("nullo"), "nap": _("nap"), "wellington": _("wellington"), "blucher": _("blücher"),
    "moon": _("moon"), "double_moon": _("double moon"), "triple_moon": _("triple moon"),
    "quadruple_moon": _("quadruple moon"), "notrump": _("no trump"),
}
COLOURS: dict[str, Any] = {"red": _("red"), "black": _("black")}

SEGMENT = re.compile(r"\[(\d+)\]|([^.\[\]]+)")
CONTRACT = re.compile(r"^(\d+)(NT|[SCDH])$")


def entry_words(path: Any) -> str:
    """A place in the entry as the reader says it: ``tricks.ann`` → "tricks of ann", ``config.moon`` →
    "settings › shooting the moon", ``hands.ann.melds[1]`` → "melds of ann, no. 2"."""
    things: list[str] = []
    names: list[str] = []
    number: int | None = None
    for index, key in SEGMENT.findall(str(path)):
        if index:
            number = int(index) + 1
        elif key.strip() in ENTRY_WORDS:
            things.append(str(ENTRY_WORDS[key.strip()]))
        else:
            names.append(key.strip())
    if names and things:
        words = gettext("%(what)s of %(name)s") % {"what": things[-1], "name": ", ".join(names)}
    else:
        words = " › ".join(things + names)
    return gettext("%(what)s, no. %(n)s") % {"what": words, "n": number} if number is not None else words


def bid_words(bid: Any) -> str:
    """A bid as the reader says it: ``7H`` → 7♥, ``10NT`` → 10 no trump, ``nap``, a number as it is."""
    if isinstance(bid, str):
        contract = CONTRACT.match(bid.upper())
        if contract:
            tricks, denomination = contract.groups()
            if denomination == "NT":
                return f"{tricks} {BID_WORDS['notrump']}"
            return f"{tricks}{SUIT_SIGNS[denomination]}"
        if bid.lower() in BID_WORDS:
            return str(BID_WORDS[bid.lower()])
        if bid.upper() in BID_NAMES:
            return suit_words(BID_NAMES[bid.upper()])
    return value_words(bid) if not isinstance(bid, int) else str(bid)


def suit_words(suit: Any) -> str:
    return str(SUIT_WORDS.get(str(suit), BID_WORDS.get(str(suit), suit)))


def value_words(value: Any) -> str:
    """What was entered, as it was entered (a text in quotes)."""
    if isinstance(value, str):
        return f"“{value}”"
    return json.dumps(value, ensure_ascii=False)


def _list(words: list[str]) -> str:
    return gettext(", ").join(words) if words else "—"


def param_words(name: str, value: Any) -> str:
    """One param of a refusal in the reader's words, by its kind."""
    kind = KINDS.get(name)
    many = value if isinstance(value, list | tuple) else [value]
    if kind == "entry":
        return entry_words(value)
    if kind == "entries":
        return _list([entry_words(v) for v in many])
    if kind == "value":
        return value_words(value)
    if kind in ("card", "cards"):
        return " ".join(card_text(str(v)) for v in many)
    if kind in ("suit", "suits"):
        return _list([suit_words(v) for v in many])
    if kind in ("bid", "bids"):
        return _list([bid_words(v) for v in many])
    if kind == "names_and":
        return (" " + gettext("and") + " ").join(str(v) for v in many)
    if kind == "colour":
        return str(COLOURS.get(str(value), value))
    if kind == "who":
        return gettext("nobody") if value is None else str(value)
    if kind == "sentence":
        return gettext(str(value))
    if kind in ("names", "checks", "choices"):
        return _list([str(v) for v in many])
    return str(value)


def refusal_words(error: EngineError) -> str:
    """A game's refusal in the reader's language; a refusal not worded by a score sheet stays as it is."""
    if not isinstance(error, ScoringError):
        return error.message
    return gettext(error.template) % {name: param_words(name, value) for name, value in error.params.items()}


def in_reader_words(error: EngineError) -> EngineError:
    """The same refusal (code, field, event, params) with its message in the reader's words."""
    error.message = refusal_words(error)
    return error
