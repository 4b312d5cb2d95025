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
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, pgettext_lazy

from casino.money import number_words
from tables.engines.errors import EngineError
from tables.scoring import phrases
from tables.scoring.refusals import BID_NAMES, KINDS, ScoringError
from tables.wording import SUIT_SIGNS, SUIT_WORDS, card_text, game_title

# the parts of a deal's entry, the games' rule settings and the sheet's own fields, in words
ENTRY_WORDS: dict[str, Any] = {
    # the sheet
    "players": pgettext_lazy("score sheet", "players"), "deals": pgettext_lazy("score sheet", "deals"), "config": pgettext_lazy("score sheet", "settings"), "check": pgettext_lazy("score sheet", "check"),
    # what was taken and won
    "taken": pgettext_lazy("score sheet", "taken"), "tricks": pgettext_lazy("score sheet", "tricks"), "hearts": pgettext_lazy("score sheet", "hearts"), "queen": pgettext_lazy("score sheet", "queen of spades"),
    "queens": pgettext_lazy("score sheet", "queens of spades"), "plus": pgettext_lazy("score sheet", "plus card"), "cards": pgettext_lazy("score sheet", "cards"), "counts": pgettext_lazy("score sheet", "counting points"),
    "count": pgettext_lazy("score sheet", "count"), "captured": pgettext_lazy("score sheet", "captures"), "sweeps": pgettext_lazy("score sheet", "sweeps"), "spades": pgettext_lazy("score sheet", "spades"), "aces": pgettext_lazy("score sheet", "aces"),
    "big_casino": pgettext_lazy("score sheet", "big casino"), "little_casino": pgettext_lazy("score sheet", "little casino"),
    # bids, makers and partners
    "bid": pgettext_lazy("score sheet", "bid"), "player": pgettext_lazy("score sheet", "player"), "chips": pgettext_lazy("score sheet", "chips"), "suit": pgettext_lazy("score sheet", "suit"), "trump": pgettext_lazy("score sheet", "trump"),
    "maker": pgettext_lazy("score sheet", "maker"), "bidder": pgettext_lazy("score sheet", "bidder"), "contractor": pgettext_lazy("score sheet", "contractor"), "partners": pgettext_lazy("score sheet", "partners"),
    "partner": pgettext_lazy("score sheet", "partner"), "alone": pgettext_lazy("score sheet", "alone"), "defended_alone": pgettext_lazy("score sheet", "defended alone"), "forced": pgettext_lazy("score sheet", "forced bid"),
    "passed": pgettext_lazy("score sheet", "passed"), "dealer": pgettext_lazy("score sheet", "dealer"), "penalty": pgettext_lazy("score sheet", "penalty"), "revoke": pgettext_lazy("score sheet", "revoke"),
    "first_out": pgettext_lazy("score sheet", "first out"), "out_of_turn": pgettext_lazy("score sheet", "out of turn"), "garnet": pgettext_lazy("score sheet", "Sir Garnet"), "peeped": pgettext_lazy("score sheet", "peeped"),
    # the All Fours family
    "high": pgettext_lazy("score sheet", "high"), "low": pgettext_lazy("score sheet", "low"), "jack": pgettext_lazy("score sheet", "jack"), "game": pgettext_lazy("score sheet", "game"), "joker": pgettext_lazy("score sheet", "joker"),
    "right_pedro": pgettext_lazy("score sheet", "right pedro"), "left_pedro": pgettext_lazy("score sheet", "left pedro"), "pitcher": pgettext_lazy("score sheet", "pitcher"), "sold_by": pgettext_lazy("score sheet", "sold by"),
    "refused": pgettext_lazy("score sheet", "refused"), "turned_jacks": pgettext_lazy("score sheet", "jacks turned"), "ran": pgettext_lazy("score sheet", "ran the cards"), "gift": pgettext_lazy("score sheet", "gift"),
    # Loo, Spoil Five
    "stood": pgettext_lazy("score sheet", "stood"), "miss": pgettext_lazy("score sheet", "miss"), "defend": pgettext_lazy("score sheet", "defend"), "flush": pgettext_lazy("score sheet", "flush"), "jinx": pgettext_lazy("score sheet", "jinx"),
    "dead": pgettext_lazy("score sheet", "dead hands"), "high_trump": pgettext_lazy("score sheet", "highest trump"),
    # rummy and the checks
    "knocker": pgettext_lazy("score sheet", "knocker"), "hands": pgettext_lazy("score sheet", "hands"), "deadwood": pgettext_lazy("score sheet", "deadwood"), "melds": pgettext_lazy("score sheet", "melds"), "hand": pgettext_lazy("score sheet", "hand"),
    "before": pgettext_lazy("score sheet", "before"), "after": pgettext_lazy("score sheet", "after"), "items": pgettext_lazy("score sheet", "items"), "match": pgettext_lazy("score sheet", "match"),
    # the rule settings
    "all_melded_bonus": pgettext_lazy("score sheet", "all-melded bonus"), "ante": pgettext_lazy("score sheet", "ante"), "bid_values": pgettext_lazy("score sheet", "bid values"),
    "box_bonus": pgettext_lazy("score sheet", "box bonus"), "card_points": pgettext_lazy("score sheet", "card points"), "defend_alone": pgettext_lazy("score sheet", "defending alone"),
    "defenders_score": pgettext_lazy("score sheet", "defenders' score"), "game_bonus": pgettext_lazy("score sheet", "game bonus"), "game_to": pgettext_lazy("score sheet", "game to"),
    "knock_below": pgettext_lazy("score sheet", "knock below"), "laps": pgettext_lazy("score sheet", "laps"), "loo": pgettext_lazy("score sheet", "loo"), "lose": pgettext_lazy("score sheet", "loss"),
    "lowest_bid": pgettext_lazy("score sheet", "lowest bid"), "moon": pgettext_lazy("score sheet", "shooting the moon"), "nullo": pgettext_lazy("score sheet", "nullo"), "passed_deal": pgettext_lazy("score sheet", "passed deal"),
    "peep": pgettext_lazy("score sheet", "peep"), "plus_card": pgettext_lazy("score sheet", "plus card"), "pool": pgettext_lazy("score sheet", "pool"), "queen_scores": pgettext_lazy("score sheet", "queen scores"),
    "scoring": pgettext_lazy("score sheet", "scoring"), "setback_payments": pgettext_lazy("score sheet", "setback payments"), "settlement": pgettext_lazy("score sheet", "settlement"),
    "sir_garnet": pgettext_lazy("score sheet", "Sir Garnet"), "slam": pgettext_lazy("score sheet", "slam"), "stakes": pgettext_lazy("score sheet", "stakes"), "undercut_bonus": pgettext_lazy("score sheet", "undercut bonus"),
    "wellington_blucher": pgettext_lazy("score sheet", "Wellington and Blücher"), "win": pgettext_lazy("score sheet", "win"),
}
BID_WORDS: dict[str, Any] = {
    "nullo": pgettext_lazy("score sheet", "nullo"), "nap": pgettext_lazy("score sheet", "nap"), "wellington": pgettext_lazy("score sheet", "wellington"), "blucher": pgettext_lazy("score sheet", "blücher"),
    "moon": pgettext_lazy("score sheet", "moon"), "double_moon": pgettext_lazy("score sheet", "double moon"), "triple_moon": pgettext_lazy("score sheet", "triple moon"),
    "quadruple_moon": pgettext_lazy("score sheet", "quadruple moon"), "notrump": pgettext_lazy("score sheet", "no trump"),
}
COLOURS: dict[str, Any] = {"red": pgettext_lazy("score sheet", "red"), "black": pgettext_lazy("score sheet", "black")}

PLACEHOLDER = re.compile(r"%\((\w+)\)s")
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
    if kind == "title":
        return game_title(str(value))
    if kind in ("checks", "choices"):  # a check's or a setting's own name: as words
        return _list([str(v).replace("_", " ") for v in many])
    if kind == "names":
        return _list([str(v) for v in many])
    return str(value)


def refusal_words(error: EngineError) -> str:
    """A game's refusal in the reader's language; a refusal not worded by a score sheet stays as it is."""
    if not isinstance(error, ScoringError):
        return error.message
    template = gettext(error.template)
    text = template % {name: param_words(name, value) for name, value in error.params.items()}
    return text if _begins_with_a_name(template, error.params) else text[:1].upper() + text[1:]


def _begins_with_a_name(template: str, params: dict[str, Any]) -> bool:
    """The sentence begins with a name, or what was entered, as it is written (never capitalised): a player's
    name, ``tricks.ann`` worded "ann的墩數"."""
    first = PLACEHOLDER.match(template)
    if first is None:
        return False
    name = first.group(1)
    kind = KINDS.get(name)
    if kind == "entry":
        names = [key for _, key in SEGMENT.findall(str(params.get(name, ""))) if key and key not in ENTRY_WORDS]
        return any(entry_words(params.get(name, "")).startswith(n) for n in names)
    return kind in (None, "names", "names_and", "who", "value", "card", "cards")


def in_reader_words(error: EngineError) -> EngineError:
    """The same refusal (code, field, event, params) with its message in the reader's words, naming the deal at
    fault (``event``, counted from 1) when the sheet's replay pinned one."""
    words = refusal_words(error)
    if isinstance(error, ScoringError) and error.event is not None:
        words = gettext("Deal %(n)s: %(refusal)s") % {"n": error.event + 1, "refusal": words}
    error.message = words
    return error


# -- a score sheet's own words (issue 31): the rule settings, their choices, a deal's summary and its entry ------
# The games name their settings and choices by codes and write a deal's summary as notes made of a template and its
# facts (tables/scoring/phrases.py, marked ``N_``): here in the reader's language, players by their names, cards as
# the card room shows them, suits and contracts in words, numbers as the language writes them.

CARD_CODE = re.compile(r"^(?:[2-9TJQKA]|10)[SHDC]$|^JK$")
CONTRACT_CODE = re.compile(r"^(\d+)(NT|[SCDH])$")

# a deal's entry, as the sheet keeps it (docs/cardroom.md): its parts in words
DEAL_ENTRY_WORDS: dict[str, Any] = {
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


def names_words(value: Any) -> str:
    """Players or sides by their names, the last joined with "and" in the reader's language."""
    if not isinstance(value, list | tuple):
        return str(value)
    if len(value) < 2:
        return "".join(map(str, value))
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(map(str, value[:-1])), "last": value[-1]}


def summary_suit_words(value: Any) -> str:
    text = str(value)
    if text in SUIT_WORDS:
        return str(SUIT_WORDS[text])
    return gettext(phrases.BID_SUITS[text]) if text in phrases.BID_SUITS else text


def summary_bid_words(value: Any) -> str:
    """A contract (``7NT`` → 7 no trump), a number of tricks, or a bid's proper name (Nap, Wellington)."""
    if isinstance(value, int):
        return number(value)
    m = CONTRACT_CODE.match(str(value))
    if m:
        return gettext(phrases.CONTRACT) % {"n": number(int(m.group(1))), "suit": summary_suit_words(m.group(2))}
    if value in phrases.BIDS:
        return gettext(phrases.BIDS[value])
    return gettext(phrases.CHART_LINES[value]) if value in phrases.CHART_LINES else str(value)


def fact_words(name: str, value: Any) -> str:
    """One fact of a note, by its name: a suit, a card, a bid, a point of the All Fours family (``point``; the
    points won, ``awards``: point → who), chips paid (``pays``: player → chips), a number, players."""
    if name == "point":
        return str(ENTRY_WORDS.get(str(value), value))
    if name == "reason":  # a game's reason, itself a message (a meld's fault)
        return gettext(str(value))
    if name == "meld":  # a place in a check's answer: after[0]
        return entry_words(value)
    if name == "awards" and isinstance(value, Mapping):
        return ", ".join(gettext(phrases.AWARD) % {"point": fact_words("point", point), "who": names_words(who)}
                         for point, who in value.items())
    if name == "pays" and isinstance(value, Mapping):
        return ", ".join(gettext(phrases.PAYMENT) % {"n": number(int(chips)), "who": who}
                         for who, chips in value.items())
    if name == "suit":
        return summary_suit_words(value)
    if name == "card":
        return card_text(str(value))
    if name == "bid":
        return summary_bid_words(value)
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, int):
        return number(value)
    return names_words(value)


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
    if CARD_CODE.match(text):
        return card_text(text.replace("10", "T", 1) if text.startswith("10") else text)
    return gettext(phrases.CHOICES[text]) if text in phrases.CHOICES else text.replace("_", " ")


def chart_line_words(key: Any) -> str:
    """A chart's line: a contract (Five Hundred's ``7NT``) or a named line (Napoleon's ``nap_win``)."""
    return summary_bid_words(str(key))


# -- a deal's entry -----------------------------------------------------------------------------------------


def _entry_value_words(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, int):
        return number(value)
    if isinstance(value, list | tuple):
        return " ".join(_entry_value_words(v) for v in value) if all(isinstance(v, str) and CARD_CODE.match(v) for v in value) \
            else ", ".join(_entry_value_words(v) for v in value)
    if isinstance(value, Mapping):
        return deal_entry_words(value)
    text = str(value)
    if CARD_CODE.match(text):
        return card_text(text)
    if text in SUIT_WORDS:
        return str(SUIT_WORDS[text])
    return text


def deal_entry_words(entry: Any) -> str:
    """A deal's entry as a person reads it: each part by its name in words, players by their names, cards as
    cards (``Taken: ann (Hearts: 13, Queen of spades: no)``)."""
    if not isinstance(entry, Mapping):
        return _entry_value_words(entry)
    parts = []
    for key, value in entry.items():
        label = str(DEAL_ENTRY_WORDS.get(key, key))
        if isinstance(value, Mapping):
            parts.append(f"{label} ({deal_entry_words(value)})")
        else:
            parts.append(f"{label}: {_entry_value_words(value)}")
    return "; ".join(parts)


# -- the validity checks' answers -----------------------------------------------------------------------
# A check (Carousel's ``meld`` and ``table``, Crazy Casino's ``build``) answers with facts (cards, kinds, the
# game's reasons as messages); here the answer as the sheet page shows it, in the reader's language.

MELD_KINDS: dict[str, Any] = {"set": pgettext_lazy("meld", "set"), "sequence": pgettext_lazy("meld", "sequence")}
COLOUR_WORD = re.compile(r"\b(red|black)\b")


def _build_words(colour: str, rank: str) -> str:
    return gettext("%(colour)s %(rank)s") % {"colour": COLOURS.get(colour, colour), "rank": rank}


def _how_words(how: Any) -> str:
    """One way to build a pile (``A♠ + 4♠ = black 5``): its colours in words, the cards and sums as they are."""
    return COLOUR_WORD.sub(lambda m: str(COLOURS[m.group(1)]), str(how))


def check_words(answer: Mapping[str, Any]) -> str:
    """A check's answer in the reader's words: each meld, set or sequence or why not; the builds the cards make
    and whether the card from hand matches; a rearrangement of the table valid or why not."""
    if "melds" in answer and "builds" not in answer and any("valid" in m for m in answer["melds"]):
        return "\n".join(
            gettext("%(cards)s: %(kind)s") % {"cards": " ".join(m["cards"]),
                                              "kind": MELD_KINDS.get(m.get("kind"), m.get("kind"))}
            if m.get("valid")
            else gettext("%(cards)s: not valid — %(reason)s") % {"cards": " ".join(m["cards"]),
                                                                  "reason": gettext(str(m.get("reason", "")))}
            for m in answer["melds"]
        )
    if "builds" in answer:
        builds = [_build_words(b["colour"], b["rank"]) for b in answer["builds"]]
        text = gettext("These build: %(builds)s") % {"builds": ", ".join(builds)} if builds else gettext(
            "These build: nothing that can be left or captured")
        match = answer.get("match")
        if match is not None:
            if answer.get("valid"):
                text += "\n" + gettext("%(card)s: yes — %(how)s") % {"card": match, "how": _how_words(answer.get("how"))}
            else:
                red = str(match)[-1:] in ("♥", "♦")
                rank = str(match)[:-1]
                text += "\n" + gettext("%(card)s: no — these cannot be built into a %(build)s") % {
                    "card": match, "build": _build_words("red" if red else "black", rank)}
        return text
    if answer.get("valid"):
        melds = answer.get("melds") or []
        lines = [gettext("The table is valid.")]
        lines += [gettext("%(cards)s: %(kind)s") % {"cards": " ".join(m["cards"]),
                                                    "kind": MELD_KINDS.get(m.get("kind"), m.get("kind"))}
                  for m in melds]
        return "\n".join(lines)
    reasons = [phrase_words(p) for p in answer.get("phrases") or []]
    return gettext("Not valid: %(reason)s") % {"reason": "; ".join(reasons) if reasons else answer.get("reason", "")}
