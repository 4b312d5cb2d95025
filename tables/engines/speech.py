"""The dealer's words as facts: a message id and its typed params, never a finished sentence.

An engine says what is due and what happened as one or more *parts*, each a message id of
:data:`MESSAGES` with its params (a seat, a total, an amount in minor units, card codes, a poker hand…).
The step carries them as ``message`` (a list of ``{"id", "params"}``, each part after the first with
the ``sep`` that joins it: ``". "``, ``"; "`` or ``", "``), and ``say`` is the same parts written with
the English templates below, so the two can never disagree. The screens word the parts in the reader's
language from the id and params (tables/wording.py), money in the house currency and cards as cards.

A template's placeholder is ``{name}`` (a number or a word shown as it is: a seat, a total, a count) or
``{name:kind}``, the kind saying what the param holds and how English writes it:

* ``money``: an amount in minor units (English ``say`` writes the integer);
* ``card``: a card code (``JH``); ``cards``: a list of card codes, written with spaces;
* ``rank``/``ranks``: a rank code (``K``), written ``king``/``kings``; ``suit``: a suit letter, ``spades``;
* ``odds``: a horse's odds to one (0: no bets, 1: evens);
* ``actions``: a list of choices (``hit``, ``stand``…), written ``hit, stand or double``;
* ``list``: a list of numbers, written with commas;
* ``words``: another message (a poker hand, whose hand, the dealer's up card); ``words_list``: several,
  written with commas; ``words_or``: several, written with "or"; ``sentence``: another message begun
  with a capital (the step due, after "No bets now: ");
* ``label``: a bet's label as the layout gives it (``Pony (last hand standing)``), written in lower case;
  ``bet_type``: a bet type (``high_card``), written as words.

Labels and reasons are messages too: a choice's option, a field's option and why a seat may not bet now
carry their English (``label``, ``why``) and, beside it, the message it is written from (``label_message``,
``why_message``: :func:`labelled`), which the screens word in place of the English.

A message with two templates is counted: the first is for ``count == 1``, the second for any other count.

>>> s = speech("fold_or_raise", seat=1, amount=5000)
>>> s.text(), s.to_json()
('Seat 1: fold or raise 5000?', [{'id': 'fold_or_raise', 'params': {'seat': 1, 'amount': 5000}}])
>>> speech("deal_complete").then(". ", speech("carry", amount=300)).text()
'Deal complete. Carry 300 to the next game'
>>> speech("hand_pair", ranks="K").text(), speech("up_rank", rank="9").text()
('Pair of kings', 'A 9')
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tables.engines.cards import RANK_NAMES

Json = dict[str, Any]

MESSAGES: dict[str, str | tuple[str, str]] = {
    # before the deal, and the round's end in general
    "place_bets": "Place your bets",
    "no_bets": "No bets",
    "no_wagers": "No wagers",
    "no_antes": "No antes: round over",
    "coup_complete": "Coup complete",
    "deal_complete": "Deal complete",
    "every_seat_folded": "Every seat folded",
    "tie": "Tie",
    # baccarat, chemin de fer
    "deal_player_card": "Deal card {n} to the player",
    "deal_banker_card": "Deal card {n} to the banker",
    "player_draws": "Player draws on {n}",
    "player_stands": "Player stands on {n}",
    "banker_draws_third": "Banker draws on {n} (player's third card counts {m})",
    "banker_draws_punter_third": "Banker draws on {n} (punter's third card counts {m})",
    "banker_draws": "Banker draws on {n}",
    "banker_wins": "Banker wins {n} over {m}",
    "player_wins": "Player wins {n} over {m}",
    "punter_wins": "Punter wins {n} over {m}",
    "bank_passes": "the bank passes",
    "stand_off": "Stand-off at {n}",
    "punter_choice": "Punter (seat {seat}) has {n}: draw or stand?",
    "punter_draws": "Punter draws on {n}",
    "punter_stands": "Punter stands on {n}",
    "banker_choice_punter_stands": "Banker (seat {seat}) has {n}, punter stands on {m}: draw or stand?",
    "banker_choice_punter_third": "Banker (seat {seat}) has {n}, punter's third card counts {m}: draw or stand?",
    # blackjack, pontoon
    "dealer_up_card": "Dealer: up card",
    "dealer_first_card": "Dealer: first card",
    "dealer_second_card": "Dealer: second card",
    "seat_first_card": "Seat {seat}: first card",
    "seat_second_card": "Seat {seat}: second card",
    "hand_card": "{who:words}: card",
    "insurance": "Seat {seat}: insurance? (up to {amount:money})",
    "peek_ten": "Dealer shows a ten: peek for blackjack",
    "peek_ace": "Dealer shows an ace: peek for blackjack",
    "dealer_blackjack_turn_hole": "Dealer has blackjack: turn the hole card",
    "turn_hole_card": "Turn the dealer's hole card",
    "dealer_draws_soft": "Dealer draws on soft {n}",
    "dealer_draws": "Dealer draws on {n}",
    "banker_dealer_soft": "Dealer (seat {seat}) on soft {n}: hit or stand?",
    "banker_dealer": "Dealer (seat {seat}) on {n}: hit or stand?",
    "choice_against_soft": "{who:words}: soft {n} against {up:words}: {choices:actions}?",
    "choice_against": "{who:words}: {n} against {up:words}: {choices:actions}?",
    "choice_charlie_soft": "{who:words}, {k}-card charlie on soft {n}: {choices:actions}?",
    "choice_charlie": "{who:words}, {k}-card charlie on {n}: {choices:actions}?",
    "choice_on_soft": "{who:words} on soft {n}: {choices:actions}?",
    "choice_on": "{who:words} on {n}: {choices:actions}?",
    "who_seat": "Seat {seat}",
    "who_first_hand": "Seat {seat}, first hand",
    "who_second_hand": "Seat {seat}, second hand",
    "who_third_hand": "Seat {seat}, third hand",
    "who_fourth_hand": "Seat {seat}, fourth hand",
    "who_fifth_hand": "Seat {seat}, fifth hand",
    "who_sixth_hand": "Seat {seat}, sixth hand",
    "who_seventh_hand": "Seat {seat}, seventh hand",
    "who_eighth_hand": "Seat {seat}, eighth hand",
    "up_ten": "a ten",
    "up_ace": "an ace",
    "up_eight": "an 8",
    "up_rank": "a {rank}",
    "dealer_blackjack": "Dealer blackjack",
    "dealer_busts": "Dealer busts with {n}",
    "dealer_total": "Dealer {n}",
    # caribbean stud, let it ride, pai gow, pusoy
    "dealer_up_card_stud": "Dealer's up card",
    "dealer_hole_card": "Turn the dealer's hole card {n} of {m}",
    "seat_card_of": "Seat {seat}: card {n} of {m}",
    "dealer_card_of": "Dealer: card {n} of {m}",
    "fold_or_raise": "Seat {seat}: fold or raise {amount:money}?",
    "dealer_qualifies": "Dealer qualifies with {hand:words}",
    "dealer_not_qualify": "Dealer does not qualify ({hand:words}): antes win, raises push",
    "pull_back_or_ride": "Seat {seat}: pull back bet {n} or let it ride?",
    "turn_first_community": "Turn the first community card",
    "turn_second_community": "Turn the second community card",
    "community_paying": "Community cards {cards:cards}: {count} paying hand(s)",
    "throw_dice": "Throw the three dice",
    "dice_first_dealer": "Dice {n}: first hand to the dealer",
    "dice_first_seat": "Dice {n}: first hand to seat {seat}",
    "set_or_house_way": "Seat {seat}: set the hand (five back, two front) or ask for the house way",
    "dealer_behind": "Dealer: {hand:words} behind",
    "in_front": "{hand:words} in front",
    "dealer_back": "Dealer: back {hand:words}",
    "middle": "middle {hand:words}",
    "front": "front {hand:words}",
    "seat_wins_of_pusoy": "seat {seat} wins {n} of {m} (pusoy)",
    "seat_loses_of_pusoy": "seat {seat} loses {n} of {m} (pusoy)",
    "seat_wins_of": "seat {seat} wins {n} of {m}",
    "seat_loses_of": "seat {seat} loses {n} of {m}",
    "seat_wins": "seat {seat} wins",
    "seat_loses": "seat {seat} loses",
    "seat_pushes": "seat {seat} pushes",
    "seat_fouls": "seat {seat} fouls",
    "seat_wins_double": "seat {seat} wins double (dealer fouls)",
    "seat_surrendered": "seat {seat} surrendered",
    "seat_royalty": "seat {seat} royalty",
    "seat_paid": "seat {seat} paid",
    "dealer_surrenders": "Dealer surrenders",
    "seat_choices": "Seat {seat}: {choices:actions}?",
    "dealer_choices": "Dealer: {choices:actions}?",
    # poker hands (tables/engines/poker.py hand_name)
    "hand_five_aces": "five aces",
    "hand_royal_flush": "royal flush",
    "hand_straight_flush": "{rank:rank}-high straight flush",
    "hand_four": "four {ranks:ranks}",
    "hand_full_house": "full house, {ranks:ranks} over {ranks2:ranks}",
    "hand_flush": "{rank:rank}-high flush",
    "hand_straight": "{rank:rank}-high straight",
    "hand_three": "three {ranks:ranks}",
    "hand_two_pair": "two pair, {ranks:ranks} and {ranks2:ranks}",
    "hand_pair": "pair of {ranks:ranks}",
    "hand_high_two": "{rank:rank}-{rank2:rank} high",
    "hand_high": "{rank:rank} high",
    # red dog, in-between
    "pot_empty_ante": "Pot is empty: seat {seat} antes {amount:money}",
    "pot_carries": "Deal complete: the pot carries {amount:money}",
    "turn_first_end": "Seat {seat}: turn the first end card",
    "turn_second_end": "Seat {seat}: turn the second end card",
    "turn_middle": "Seat {seat}: turn the middle card ({card:card} and {card2:card}, bet {amount:money})",
    "ends_consecutive": "Seat {seat}: {card:card} and {card2:card}, consecutive, the bet loses at once",
    "ends_pair": "Seat {seat}: {card:card} and {card2:card}, a pair of {ranks:ranks} pays {amount:money}, "
                 "the bet comes back",
    "ends_gap": ("Seat {seat}: {card:card} and {card2:card}, {count} rank between",
                 "Seat {seat}: {card:card} and {card2:card}, {count} ranks between"),
    "bet_range": "Bet {amount:money} to {amount2:money}",
    "turn_against_bet": "Turn up a card against seat {seat}'s bet of {amount:money}",
    "deal_card_to_seat": "Deal card {n} of {m} to seat {seat}",
    "bet_or_forfeit": "Seat {seat}: bet {amount:money} to {amount2:money} against the pot, or pass and forfeit "
                      "{amount3:money}",
    # faro, stuss
    "soda": "Soda: turn the first card (no action)",
    "winner_card": "Turn {n}: winner card",
    "loser_card_last": "Turn {n}: loser card (last turn, calling the turn is open)",
    "loser_card": "Turn {n}: loser card",
    "in_hock": "Deal complete: {card:card} in hock",
    # trente et quarante
    "deal_noir_row": "Deal the noir row",
    "deal_rouge_row": "Deal the rouge row",
    "noir_deal": "Noir {n}: deal to noir",
    "rouge_deal": "Rouge {n}: deal to rouge",
    "noir_total": "Noir {n}",
    "refait_31": "Refait at 31: the house takes half of every bet",
    "refait": "Refait at {n}: stand-off",
    "noir_wins": "Noir {n}, rouge {m}: noir wins",
    "rouge_wins": "Noir {n}, rouge {m}: rouge wins",
    "couleur_wins": "couleur wins",
    "inverse_wins": "inverse wins",
    # carousel, pony, merry-go-round
    "deal_to_hand": "Deal to hand {n}",
    "betting_round": "Betting round {n}: take bets",
    "last_horse": "Hand {n} is the last horse standing: game over",
    "deck_out": "The deck cannot deal another round: game over with hands {list:list} running",
    "no_hand_left": "No hand is left: game over",
    "carry": "Carry {amount:money} to the next game",
    # horse races
    "course_card": "Course: deal card {n} of {m}",
    "course_void": "{n} {suit:suit} in the course: that horse cannot win",
    "course_again": "Shuffle and deal the course again",
    "take_bets": "Take bets: {odds:words_list}",
    "horse_odds": "{suit:suit} {odds:odds}",
    "auction": "Auction: take bids on {bids:words_or}",
    "horse_in_row": "{suit:suit} ({n} in the row)",
    "high_bid": "{suit:suit}: {amount:money} bid by seat {seat}",
    "any_more": "Any more? Or sold",
    "race_card": "Race: turn the next card ({race:words_list})",
    "horse_moves": "{suit:suit} {n}",
    "horse_wins": "{suit:suit} wins at {odds:odds}",
    "horse_first": "{suit:suit} first: seat {seat} takes {amount:money}",
    "horse_second": "{suit:suit} second: seat {seat} takes {amount:money}",
    # labels: a choice's option, a field's option (tables/engines/inputs.py ``label_message``)
    "label_hand": "Hand {n}",
    "label_seat_passes": "Seat {seat} passes",
    "label_take_down_turn": "Take down seat {seat}'s bet on the turn",
    "label_take_down_rank": "Take down seat {seat}'s bet on the {rank:rank}",
    # why a seat may not bet now (tables/engines/profile.py ``why_message``)
    "why_round_over": "The round is over",
    "why_no_bets_now": "No bets now",
    "why_no_bets_now_step": "No bets now: {say:sentence}",
    "why_seat_to_act": "Seat {seat} is to act now",
    "why_bank_seat": "Seat {seat} holds the bank and cannot bet against it",
    "why_bank_holder": "Seat {seat} holds the bank",
    "why_has_ante": "Seat {seat} already has an ante",
    "why_has_three_bets": "Seat {seat} already has its three bets",
    "why_has_wager": "Seat {seat} already has a wager (one per seat)",
    "why_has_bet": "Seat {seat} already has a {bet:label} bet",
    "why_bets_before": "Seat {seat} bets before seat {after}: the button is at seat {button}",
    "why_bets_first": "Seat {seat} bets first: the button is at seat {button}",
    "why_bets_next": "Seat {seat} bets next: bets go in seat order from the button at seat {button}",
    "why_not_now_may": "Seat {seat} cannot place a {bet:bet_type} bet now: seats {list:list} may",
    "why_not_now": "Seat {seat} cannot place a {bet:bet_type} bet now",
}

SEPARATORS = (". ", "; ", ", ")
KINDS = frozenset({"money", "card", "cards", "rank", "ranks", "suit", "odds", "actions", "list", "words",
                   "words_list", "words_or", "sentence", "label", "bet_type"})
PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")  # the templates' own placeholders (never a dealer's sentence)
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANKS_PLURAL = {r: ("sixes" if r == "6" else name + "s") for r, name in RANK_NAMES.items()}


def placeholders(template: str) -> dict[str, str | None]:
    """Each placeholder of ``template``: its name → its kind (None: shown as it is)."""
    return {name: kind or None for name, kind in PLACEHOLDER.findall(template)}


def templates(message_id: str) -> tuple[str, ...]:
    """The English template(s) of a message id: one, or the singular and plural of a counted one."""
    found = MESSAGES[message_id]
    return (found,) if isinstance(found, str) else found


def kinds(message_id: str) -> dict[str, str | None]:
    """The params of a message id and their kinds."""
    out: dict[str, str | None] = {}
    for template in templates(message_id):
        out.update(placeholders(template))
    return out


@dataclass(frozen=True, slots=True)
class Part:
    """One message: its id, its params, and the separator that joins it to the part before."""

    id: str
    params: Mapping[str, Any]
    sep: str = ""

    def to_json(self) -> Json:
        doc: Json = {"id": self.id, "params": {k: _json(v) for k, v in self.params.items()}}
        if self.sep:
            doc["sep"] = self.sep
        return doc


@dataclass(frozen=True, slots=True)
class Speech:
    """What the dealer is told: one or more parts (see the module's docstring)."""

    parts: tuple[Part, ...]

    def then(self, sep: str, other: Speech) -> Speech:
        """This, then ``other`` after ``sep`` (``". "``, ``"; "`` or ``", "``)."""
        if sep not in SEPARATORS:
            raise ValueError(f"not a separator: {sep!r}")
        first, *rest = other.parts
        return Speech((*self.parts, Part(first.id, first.params, sep), *rest))

    def text(self) -> str:
        """The English words (the step's ``say``): each part by its template, a sentence capitalised."""
        out = ""
        for part in self.parts:
            words = _english(part.id, part.params)
            if not out or part.sep == ". ":
                words = words[:1].upper() + words[1:]
            out += part.sep + words
        return out

    def to_json(self) -> list[Json]:
        return [part.to_json() for part in self.parts]


def speech(message_id: str, **params: Any) -> Speech:
    """One message: ``speech("fold_or_raise", seat=1, amount=5000)``. Its params must be its template's."""
    wanted = kinds(message_id)
    if set(params) != set(wanted):
        raise ValueError(f"{message_id} takes {sorted(wanted)}, not {sorted(params)}")
    return Speech((Part(message_id, params),))


def joined(sep: str, items: Sequence[Speech]) -> Speech:
    """Several messages one after the other, ``sep`` between them."""
    first, *rest = items
    for item in rest:
        first = first.then(sep, item)
    return first


def or_list(words: Sequence[str]) -> str:
    """``hit, stand or double``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _json(value: Any) -> Any:
    if isinstance(value, Speech):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value


def _english(message_id: str, params: Mapping[str, Any]) -> str:
    found = templates(message_id)
    template = found[0] if len(found) == 1 or params.get("count") == 1 else found[1]

    def fill(match: re.Match[str]) -> str:
        value, kind = params[match.group(1)], match.group(2)
        return english_value(value, kind)

    return PLACEHOLDER.sub(fill, template)


def english_value(value: Any, kind: str | None) -> str:
    """A param as the English ``say`` writes it."""
    if kind in ("money", None):
        return str(value)
    if kind == "card":
        return str(value)
    if kind == "cards":
        return " ".join(map(str, value))
    if kind == "rank":
        return RANK_NAMES.get(value, str(value))
    if kind == "ranks":
        return RANKS_PLURAL.get(value, str(value))
    if kind == "suit":
        return SUIT_NAMES[value]
    if kind == "odds":
        return "evens" if value == 1 else "no bets" if value == 0 else f"{value}-1"
    if kind == "actions":
        return or_list([str(v) for v in value])
    if kind == "list":
        return ", ".join(map(str, value))
    if kind == "words":
        return _text(value)
    if kind == "sentence":
        text = _text(value)
        return text[:1].upper() + text[1:]
    if kind == "label":
        return str(value).lower()
    if kind == "bet_type":
        return str(value).replace("_", " ")
    if kind == "words_list":
        return ", ".join(_text(v) for v in value)
    if kind == "words_or":
        return " or ".join(_text(v) for v in value)
    raise ValueError(f"unknown kind {kind!r}")


def _text(value: Speech | Sequence[Mapping[str, Any]]) -> str:
    """A nested message's English, unlike :meth:`Speech.text` not capitalised (it sits inside a sentence)."""
    if isinstance(value, Speech):
        value = value.to_json()
    return "".join(str(p.get("sep", "")) + _english(str(p["id"]), p.get("params") or {}) for p in value)


def labelled(message: Speech, key: str = "label") -> Json:
    """The keys a label or a reason carries for ``message``: ``key`` (its English, as before the engines
    said message ids) and ``key_message`` (the message, for the screens to word)."""
    return {key: message.text(), f"{key}_message": message.to_json()}


def said(message: Speech | str) -> Json:
    """The keys a step or a settled round carries for ``message``: ``say`` (English) and ``message``."""
    if isinstance(message, str):
        raise TypeError("an engine says a message id and params, not a sentence")
    return {"say": message.text(), "message": message.to_json()}
