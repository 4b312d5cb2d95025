"""The dealer screen's words: money in the house currency, and every refusal in a dealer's words.

The API answers a refusal with ``{"error": {"code", "message", "field"?, "params"?}}``: the message is
for developers and logs (it may name fields and give amounts in minor units). The dealer screen shows
instead the wording below for the error's ``code``, filling in the refusal's ``params``: each code has
one or more templates, tried in order, and the first whose placeholders the refusal supplies is used
(the last has none, so there is always one). A placeholder is ``{name}``, or ``{name:kind}`` with kind

* ``money``: minor units, shown in major units with the currency (``{amount:money}`` → ``€25.00``);
* ``card``: a card code, shown as a dealer says it (``QH`` → queen of hearts);
* ``bet``: a bet type, in words (``player_pair`` → player pair);

and two names the screen itself fills from the round: ``{next}``, what the engine asks for now, and
``{table}``, the table's code. Where the refusal's ``params`` carry a ``reason`` (the engine's rule, as a
key: ``no_bets``, ``bank_seat``…), the wordings of ``code:reason`` are tried first, so the dealer reads
why and what to do ("No bet is down yet: …") rather than the code's general wording. ``tests/tables/test_wording.py`` fails on any code raised in the engines
and services that has no wording here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils.translation import get_language, gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from casino.money import money_amount
from tables.engines.errors import EngineError
from tables.engines.registry import get_engine

# the symbol a dealer reads before an amount; other currencies are written after it with their code
SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥", "HKD": "HK$", "MOP": "MOP$", "SGD": "S$", "AUD": "A$",
           "CAD": "C$", "NZD": "NZ$", "INR": "₹", "KRW": "₩", "PHP": "₱", "CNY": "CN¥", "ILS": "₪", "TRY": "₺"}

PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")
KINDS = frozenset({"money", "card", "bet"})
SCREEN_NAMES = frozenset({"next", "table"})  # filled by the screen, not by the refusal's params

REFUSALS: dict[str, tuple[Any, ...]] = {
    # -- bets ------------------------------------------------------------------------------------
    "under_table_min": (_("{amount:money} is under the table minimum of {min:money}."),
                        _("That stake is under the table minimum of {min:money}."),
                        _("That stake is under the table minimum.")),
    "over_table_max": (_("{amount:money} is over the table maximum of {max:money}."),
                       _("That stake is over the table maximum of {max:money}."),
                       _("That stake is over the table maximum.")),
    "bad_amount": (_("The ante is {ante:money}, not {amount:money}."), _("The forfeit is {forfeit:money}, not {amount:money}."),
                   _("{amount:money} is over the limit of {limit:money} for that bet."),
                   _("The stake here must be from {min:money} to {max:money}, not {amount:money}."),
                   _("That stake is not allowed here.")),
    "bad_bet": (_("Seat {seat} cannot take that bet now: check the seat, the bet and what it is on."),
                _("That bet cannot be taken here: check the seat, the bet and what it is on.")),
    # the engine's reason for a refusal (``params["reason"]``): why, and what to do
    "bad_bet:no_bets": (_("No bet is down yet: place at least one bet, then tap “No more bets”."),),
    "bad_bet:players": (_("A deal needs 2 to {max_players} players, each with an ante, and {players} have anted: "
                        "take the antes, then tap “No more bets”."),
                        _("A deal needs at least two players, each with an ante: take the antes, then tap “No more bets”.")),
    "bad_bet:no_bank": (_("Nobody holds the bank yet: the banker's seat puts up the bank first, then the punters bet."),),
    "bad_bet:two_banks": (_("Only one seat holds the bank: take back the other bank."),),
    "bad_bet:no_punto": (_("Nobody bets against the bank yet: take at least one punto, then tap “No more bets”."),),
    "bad_bet:bank_seat": (_("Seat {seat} holds the bank and cannot bet against it: take the bet at another seat."),
                          _("The banker's seat cannot bet against the bank: take the bet at another seat.")),
    "bad_bet:call_early": (_("The turn is called only with three cards left: take the call then, between the last turns."),),
    "bad_amount:bid_low": (_("The high bid is {high:money}: the next bid must be at least {min:money}."),
                           _("A bid must be at least {min:money}."), _("That bid is too low.")),
    "illegal_action:high_bidder": (_("Seat {seat} already holds the high bid: take a bid from another seat, or sell."),
                                   _("That seat already holds the high bid: take a bid from another seat, or sell.")),
    "out_of_turn:button_order": (_("Seat {seat} bets before seat {after_seat} in the order from the button at seat "
                                 "{button}, and seat {after_seat} has bet: seat {seat} sits out this betting round."),
                                 _("Bets go in seat order from the button: that seat's turn has passed this betting round.")),
    "correction_too_late:card_since": (
        _("Seat {seat}'s bet cannot be corrected now: a card has been dealt since it was placed. Ask for a void to change it."),
        _("That bet cannot be corrected now: a card has been dealt since it was placed. Ask for a void to change it.")),
    "correction_too_late": (_("That bet cannot be corrected now: a card has been dealt since it was placed."),),
    "out_of_turn:seat_turn": (_("It is seat {seat}'s turn, not seat {seat_given}'s: {next}."),
                              _("It is another seat's turn: {next}.")),
    "out_of_turn:turn_first": (_("Seat {turn} bets first: the button is at seat {button}."),
                               _("The seat at the button bets first: take its bet or its pass.")),
    "out_of_turn:turn_next": (_("Seat {turn} bets next: bets go in seat order from the button at seat {button}."),
                              _("Bets go in seat order from the button: take the next seat's bet or its pass.")),
    "out_of_turn:passed": (_("Seat {seat} passed this betting round: it bets again in the next betting round."),
                           _("That seat passed this betting round: it bets again in the next betting round.")),
    "out_of_turn:all_acted": (_("Every seat has bet or passed this betting round: deal the next card."),),
    "out_of_turn:has_bet": (_("Seat {seat} has already bet this betting round."),
                            _("That seat has already bet this betting round.")),
    "bad_bet_type": (_("This table does not take {type:bet} bets."), _("This table does not take that bet.")),
    "bad_seat": (_("There is no seat {seat} at this table: its seats are 1 to {seats}."),
                 _("There is no such seat at this table.")),
    "duplicate_bet": (_("That bet is already recorded."),),
    "over_bank": (_("The punters would cover more than the bank of {bank:money}."), _("The punters would cover more than the bank.")),
    "over_pot": (_("{amount:money} is more than the pot holds, {pot:money}."),
                 _("A pot bet can be at most what is in the pot, {pot:money}."), _("A pot bet can be at most what is in the pot.")),
    "betting_closed": (_("Betting is closed for this round."),),
    "betting_open": (_("Betting is still open: tap “No more bets” first."),),
    "not_open": (_("This round is not open for bets."),),
    "no_such_bet": (_("That bet is not in this round (it may have been taken back already)."),),
    "bet_withdrawn": (_("That bet was already taken back."),),
    "cannot_undo_bet": (_("The last entry is a bet, and a bet cannot be undone: ask for a void of the round instead."),),
    "unknown_bet": (_("The settlement names a bet nobody placed: call the pit manager."),),
    # -- cards and choices -------------------------------------------------------------------------
    "bad_card": (_("The {card:card} is not a card of this game's deck."), _("That is not a card of this game's deck.")),
    "card_exhausted": (_("Every {card:card} the shoe holds is already out: check the card."),
                       _("That card is already out as many times as the shoe holds it: check the card.")),
    "impossible_card": (_("The {card:card} cannot be there: check the card."), _("That card cannot be there: check it.")),
    "bad_event": (_("That entry does not fit the round here: {next}."), _("That entry does not fit the round here.")),
    "out_of_turn": (_("Not now: {next}."), _("That is not what the table expects now.")),
    "illegal_action": (_("That choice is not allowed now: {next}."), _("That choice is not allowed now.")),
    "join_refused": (_("Seat {seat} cannot join the game now."), _("That player cannot join the game now.")),
    "incomplete_coup": (_("The coup needs more cards: {next}."), _("The coup needs more cards.")),
    "incomplete_round": (_("The round needs more: {next}."), _("The round needs more before it can be settled.")),
    "round_incomplete": (_("The round is not complete yet: {next}."), _("The round is not complete yet.")),
    "no_hand_to_set": (_("There is no hand to set at that seat now."),),
    "bad_set": (_("The hands must use exactly the cards dealt to the seat."),),
    "no_set": (_("There is no hand to set in this game."),),
    "nothing_to_undo": (_("Nothing has been dealt yet: there is nothing to undo."),),
    # -- the round -----------------------------------------------------------------------------------
    "round_in_progress": (_("A round is still in progress at this table: finish it, or ask for a void."),),
    "already_settled": (_("This round is already settled."),),
    "round_open": (_("This round is still open for bets."),),
    "round_betting_closed": (_("Betting is closed and nothing has been dealt yet."),),
    "round_dealing": (_("This round is being dealt."),),
    "round_settled": (_("This round is already settled."),),
    "round_voided": (_("This round was voided."),),
    "no_void_request": (_("Nobody asked for a void of this round."),),
    "reason_required": (_("Choose or write a reason."),),
    "same_person": (_("Someone other than who asked must approve this."),),
    "approval_refused": (_("That PIN is wrong for the supervisor picked: check the name and tap the PIN again."),),
    "pit_manager_required": (_("Only a pit manager of this table's pit can approve this."),),
    "concurrent_change": (_("Someone changed this round at the same moment: the screen shows it now; try again."),),
    "unknown_round": (_("That round does not exist."),),
    # -- the table, the shift, who may deal ----------------------------------------------------------
    "table_closed": (_("This table is closed: the pit manager opens it."),),
    "table_misconfigured": (_("The table's rules are set up wrongly: call the pit manager."),),
    "no_open_shift": (_("No shift is open: the shift manager opens the next one on the gaming day screen."),),
    "not_assigned": (_("You are not assigned to this table now: the pit manager assigns dealers."),),
    "not_your_table": (_("This is not your table."),),
    "role_required": (_("Your account may not do this."),),
    "unknown_table": (_("That table does not exist."),),
    "bad_config": (_("The table's rules are set up wrongly: call the pit manager."),),
    "unknown_setting": (_("The table's rules name a setting this game does not have: call the pit manager."),),
    "unknown_game": (_("This table's game is not known: call the pit manager."),),
    "bad_document": (_("The round's record cannot be read: call the pit manager."),),
    "no_house_edge": (_("There is no house edge figure for this game."),),
    "bad_limits": (_("The table minimum cannot be above its maximum."),),
    "shift_exists": (_("That shift is already open."),),
    "shift_manager_required": (_("Only a shift manager may do this."),),
    "empty_tray_unconfirmed": (_("The count holds no chip: tick that the tray is empty, or count the chips."),),
    "tray_not_empty": (_("The tray is said to be empty, but chips are counted: one or the other."),),
    "shift_not_open": (_("That shift is not open."),),
    "bad_language": (_("Choose one of the languages offered."),),
    # -- the shoe: a new one marked, its cards counted -------------------------------------------------
    "not_a_shoe_game": (_("This table is not dealt from a shoe."),),
    "bad_burn": (_("The burn is from 0 to {most} cards."), _("That burn is not possible with this shoe.")),
    "bad_cut_card": (_("The cut card goes after the burn and inside the shoe: from {least} to {most} cards."),
                     _("The cut card must go after the burn and inside the shoe.")),
    "card_not_in_shoe": (_("Every {card:card} this shoe holds is already out: check the card, or mark a new shoe "
                           "if this one was changed."),
                         _("That card is already out as many times as this shoe holds it: check the card, or mark a "
                           "new shoe if this one was changed.")),
    "unknown_shift_type": (_("That shift does not exist."),),
    "not_a_dealer": (_("That person is not a dealer."),),
    "dealer_busy": (_("That dealer is assigned to another table at that time."),),
    "bad_period": (_("An assignment must end after it starts."),),
    "already_relieved": (_("That dealer was already relieved."),),
    "void_refused": (_("A void of this round was asked for and refused: finish the round."),),
    "void_already_requested": (_("A void of this round is already asked for: a pit manager decides it."),),
    "nothing_to_rotate": (_("A rotation needs two dealers at the pit's open tables, or one coming back from a break."),),
    # -- the pit's paperwork and alerts (the pit manager's screens) ----------------------------------
    "unknown_alert": (_("That alert does not exist."),),
    "already_acknowledged": (_("Someone acknowledged that alert already."),),
    "not_acknowledged": (_("Acknowledge the alert first, then resolve it."),),
    "already_resolved": (_("Someone resolved that alert already."),),
    "bad_chips": (_("Give a whole number of chips for each denomination, and at least one chip in all."),),
    "unknown_denomination": (_("This table does not use one of those chips."),),
    "shift_closed": (_("That shift is closed: its paperwork is sealed."),),
    "unknown_shift": (_("That shift does not exist."),),
    "table_shift_closed": (_("This table's shift is closed: its paperwork is sealed."),),
    "bad_kind": (_("Choose a fill or a credit."),),
    "bad_amount_text": (_("Type an amount in the house currency, such as 25 or 25.50."),),
    # -- signatures: a person proving it is them (docs/accounting.md, "Signing") -----------------------
    "signature_required": (_("Each person who signs gives their username and their password or PIN."),),
    "bad_signature": (_("Sign with a password or with a PIN, not both."),),
    "signature_secret_required": (_("The other person types their own password or PIN to sign."),),
    "unknown_signer": (_("There is no member of staff with that username who can sign."),),
    "inactive_signer": (_("That person may no longer sign: ask someone else."),),
    "signer_role": (_("That person does not hold the role this signature needs: ask someone who does."),),
    "same_signer": (_("The two signatures must be two different people."),),
    "submitter_not_signer": (_("You must be one of the people who sign this."),),
    "signature_refused": (_("That password or PIN is wrong: check who signs and try again."),),
    "signature_locked": (_("Too many wrong PINs or passwords for that person from this account: wait a few minutes, "
                         "or ask another supervisor."),),
    "bad_pin": (_("A signing PIN is 4 to 12 digits."),),
    "weak_pin": (_("That PIN is too easy to guess: avoid one digit repeated or digits in a row."),),
    "password_required": (_("Type your own password to set your signing PIN."),),
    "supervisor_required": (_("Only a pit manager or an admin may lift a lockout."),),
    "nothing_to_unlock": (_("Name the account or the address whose lockout you lift."),),
    "same_address": (_("An address is unlocked from another terminal, never from itself."),),
    "admin_required": (_("Only an admin may lift an admin's lockout."),),
    # -- signing in, requests, the server ------------------------------------------------------------
    "invalid_credentials": (_("Wrong username or password."),),
    "locked_out": (_("Too many wrong passwords: wait a few minutes, then try again."),),
    "not_authenticated": (_("Your session has ended: sign in again."),),
    "authentication_failed": (_("Your session has ended: sign in again."),),
    "permission_denied": (_("Your account may not do this."),),
    "forbidden": (_("Your account may not do this."),),
    "throttled": (_("Too many tries in a short time: wait a moment, then try again."),),
    "invalid": (_("That entry is not complete or not valid: check it and try again."),),
    "bad_parameter": (_("That list cannot be shown with those choices: check the numbers and try again."),),
    "out_of_range": (_("A number or a text in that entry is too large: check it and try again."),),
    "idempotency_key_required": (_("The screen sent an action without its retry mark: reload the page; if it persists, call the pit manager."),),
    "malformed_json": (_("The screen sent something the server cannot read: reload the page; if it persists, call the pit manager."),),
    "bad_request": (_("The screen sent something the server cannot read: reload the page; if it persists, call the pit manager."),),
    "body_too_large": (_("That is too much to send at once."),),
    "bad_idempotency_key": (_("The screen sent a malformed request: reload the page and try again."),),
    "idempotency_key_reused": (_("The screen sent one request twice with different contents: reload the page."),),
    "not_found": (_("That is not there any more: reload the page."),),
    "method_not_allowed": (_("The screen asked for something the server does not do: reload the page."),),
    "not_acceptable": (_("The screen asked for something the server does not do: reload the page."),),
    "unsupported_media_type": (_("The screen asked for something the server does not do: reload the page."),),
    "conflict": (_("Something changed meanwhile: the screen is up to date now; try again."),),
    "refused": (_("The records refused that change: call the pit manager."),),
    "database_unavailable": (_("The records cannot be reached: the entry is kept and sent again shortly."),),
    "server_error": (_("Something went wrong on the server; it was logged. Try again, and if it persists, call the pit manager."),),
    "error": (_("The server refused that; if it persists, call the pit manager."),),
    # -- the audit trail (read by the screens that show it) --------------------------------------------
    "bad_digest": (_("The audit trail's digest does not match."),),
    "bad_limit": (_("That list cannot be shown with that many rows."),),
    # -- the cage ------------------------------------------------------------------------------------
    "overpayment": (_("{reference} has {left:money} left to pay: {amount:money} is too much."),
                    _("That is more than is left to pay.")),
}
FALLBACK: tuple[Any, ...] = (_("The table cannot take that; if it persists, call the pit manager."),)


def placeholders(template: str) -> list[tuple[str, str | None]]:
    """The (name, kind) of every placeholder in a template."""
    return [(name, kind or None) for name, kind in PLACEHOLDER.findall(str(template))]


def currency() -> dict[str, Any]:
    """The house currency as the screens write amounts: its code, symbol (if it has a short one) and decimals."""
    code = settings.CROUPIER["CURRENCY"]
    return {"code": code, "symbol": SYMBOLS.get(str(code), ""), "digits": settings.CROUPIER["MINOR_UNIT_DIGITS"]}


def money(minor: int) -> str:
    """Minor units as the dealer reads money: the one money format of the reader's language
    (``casino.money.money_amount``): ``2500`` → ``€25.00``; ``250000`` → ``€2,500.00``, ``2 500,00 €`` in Spanish."""
    return money_amount(int(minor))


def catalogue() -> dict[str, list[str]]:
    """The refusal wordings as the dealer screen receives them (JSON), with the fallback under ``""``."""
    return {**{code: [str(t) for t in texts] for code, texts in REFUSALS.items()}, "": [str(t) for t in FALLBACK]}


def wordings(code: str, params: dict[str, Any] | None = None) -> tuple[str, ...]:
    """The wordings to try for a refusal, in the reader's language: those of its engine's reason first
    (``code:reason``), then the code's."""
    reason = (params or {}).get("reason")
    own = REFUSALS.get(f"{code}:{reason}", ()) if isinstance(reason, str) else ()
    return tuple(str(t) for t in own + REFUSALS.get(code, FALLBACK if not own else ()))


def say(code: str, params: dict[str, Any] | None = None, *, table: str = "") -> str:
    """A refusal in the screens' words, for the server-rendered screens (the dealer screen does the same in
    JavaScript): the first wording of ``code`` (its reason's first) whose placeholders are all known, filled in."""
    known: dict[str, Any] = {**(params or {}), "table": table} if table else dict(params or {})
    for template in wordings(code, params):
        names = placeholders(template)
        if all(name in known for name, _ in names):
            def fill(match: re.Match[str]) -> str:
                value, kind = known[match.group(1)], match.group(2)
                if kind == "money":
                    return money(int(value))
                if kind == "bet":
                    return str(value).replace("_", " ")
                if kind == "card":
                    return card_text(str(value))
                return str(value)

            return PLACEHOLDER.sub(fill, template)
    return str(FALLBACK[0])


# -- the dealer's prompts ------------------------------------------------------------------------------
# The engines (pure Python, no Django) say what is due and what happened as facts in a fixed English form
# (``step["say"]``: "Seat 1: 16 against a ten: hit or stand?", "Deal complete: JH in hock"). Each form
# below reads those facts back (seats, totals, cards, amounts in minor units, hands, suits) and words them
# in the reader's language: money through :func:`money`, cards as "J♥", plurals with ngettext. A group's
# name says what it holds: ``amount…`` minor units, ``card…`` a card code, ``cards`` several, ``hand…`` a
# poker hand's name, ``rank…`` a rank word, ``suit…`` a suit, ``choices`` a list of actions, ``odds…``
# odds ("2-1", "evens"); anything else is shown as it is (a seat, a total, a count).

SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
CARD_CODE = re.compile(r"^([2-9TJQKA])([SHDC])$")

RANK_WORDS = {  # the engines' rank words → the reader's
    "two": _("two"), "three": _("three"), "four": _("four"), "five": _("five"), "six": _("six"),
    "seven": _("seven"), "eight": _("eight"), "nine": _("nine"), "ten": _("ten"), "jack": _("jack"),
    "queen": _("queen"), "king": _("king"), "ace": _("ace"),
}
RANKS_WORDS = {  # plural rank words ("pair of kings")
    "twos": _("twos"), "threes": _("threes"), "fours": _("fours"), "fives": _("fives"), "sixes": _("sixes"),
    "sevens": _("sevens"), "eights": _("eights"), "nines": _("nines"), "tens": _("tens"), "jacks": _("jacks"),
    "queens": _("queens"), "kings": _("kings"), "aces": _("aces"),
}
SUIT_WORDS = {"spades": _("spades"), "hearts": _("hearts"), "diamonds": _("diamonds"), "clubs": _("clubs")}
ACTION_WORDS = {
    "hit": _("hit"), "stand": _("stand"), "double": _("double"), "split": _("split"), "surrender": _("surrender"),
    "insurance": _("insurance"), "set three hands": _("set three hands"), "house way": _("house way"),
    "royalties": _("royalties"), "draw": _("draw"), "twist": _("twist"), "stick": _("stick"), "buy": _("buy"),
}
R = r"(?:two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace)"
RS = r"(?:twos|threes|fours|fives|sixes|sevens|eights|nines|tens|jacks|queens|kings|aces)"
HANDS: tuple[tuple[str, Any], ...] = (  # poker hands (tables/engines/poker.py hand_name)
    (r"five aces", _("five aces")),
    (r"royal flush", _("royal flush")),
    (rf"(?P<rank>{R})-high straight flush", _("{rank}-high straight flush")),
    (rf"four (?P<ranks>{RS})", _("four {ranks}")),
    (rf"full house, (?P<ranks>{RS}) over (?P<ranks2>{RS})", _("full house, {ranks} over {ranks2}")),
    (rf"(?P<rank>{R})-high flush", _("{rank}-high flush")),
    (rf"(?P<rank>{R})-high straight", _("{rank}-high straight")),
    (rf"three (?P<ranks>{RS})", _("three {ranks}")),
    (rf"two pair, (?P<ranks>{RS}) and (?P<ranks2>{RS})", _("two pair, {ranks} and {ranks2}")),
    (rf"pair of (?P<ranks>{RS})", _("pair of {ranks}")),
    (rf"(?P<rank>{R})-(?P<rank2>{R}) high", _("{rank}-{rank2} high")),
    (rf"(?P<rank>{R}) high", _("{rank} high")),
)
HAND = r".+?"
N = r"\d+"
CARD = r"[2-9TJQKA][SHDC]"
SUIT = r"(?:spades|hearts|diamonds|clubs)"
SUIT_CAP = r"(?:Spades|Hearts|Diamonds|Clubs)"
ODDS = r"(?:evens|no bets|\d+-1)"

PROMPTS: tuple[tuple[str, Any], ...] = (
    # before the deal, and the screens' own
    (r"Place your bets", _("Place your bets")),
    (r"No bets", _("No bets")),
    (r"No wagers", _("No wagers")),
    (r"No antes: round over", _("No antes: round over")),
    (r"Coup complete", _("Coup complete")),
    (r"Deal complete", _("Deal complete")),
    (r"Every seat folded", _("Every seat folded")),
    (r"Tie", _("Tie")),
    # baccarat, chemin de fer
    (rf"Deal card (?P<n>{N}) to the player", _("Deal card {n} to the player")),
    (rf"Deal card (?P<n>{N}) to the banker", _("Deal card {n} to the banker")),
    (rf"Player draws on (?P<n>{N})", _("Player draws on {n}")),
    (rf"Player stands on (?P<n>{N})", _("Player stands on {n}")),
    (rf"Banker draws on (?P<n>{N}) \(player's third card counts (?P<m>{N})\)",
     _("Banker draws on {n} (player's third card counts {m})")),
    (rf"Banker draws on (?P<n>{N}) \(punter's third card counts (?P<m>{N})\)",
     _("Banker draws on {n} (punter's third card counts {m})")),
    (rf"Banker draws on (?P<n>{N}) \(punter stands on (?P<m>{N})\)", _("Banker draws on {n} (punter stands on {m})")),
    (rf"Banker draws on (?P<n>{N})", _("Banker draws on {n}")),
    (rf"Banker wins (?P<n>{N}) over (?P<m>{N})", _("Banker wins {n} over {m}")),
    (rf"Player wins (?P<n>{N}) over (?P<m>{N})", _("Player wins {n} over {m}")),
    (rf"Punter wins (?P<n>{N}) over (?P<m>{N})", _("Punter wins {n} over {m}")),
    (r"the bank passes", _("the bank passes")),
    (rf"Stand-off at (?P<n>{N})", _("Stand-off at {n}")),
    (rf"Punter \(seat (?P<seat>{N})\) has (?P<n>{N}): draw or stand\?", _("Punter (seat {seat}) has {n}: draw or stand?")),
    (rf"Punter draws on (?P<n>{N})", _("Punter draws on {n}")),
    (rf"Punter stands on (?P<n>{N})", _("Punter stands on {n}")),
    (rf"Banker \(seat (?P<seat>{N})\) has (?P<n>{N}), punter stands on (?P<m>{N}): draw or stand\?",
     _("Banker (seat {seat}) has {n}, punter stands on {m}: draw or stand?")),
    (rf"Banker \(seat (?P<seat>{N})\) has (?P<n>{N}), punter draws on (?P<m>{N}): draw or stand\?",
     _("Banker (seat {seat}) has {n}, punter draws on {m}: draw or stand?")),
    # blackjack, pontoon
    (r"Dealer: up card", _("Dealer: up card")),
    (r"Dealer: first card", _("Dealer: first card")),
    (r"Dealer: second card", _("Dealer: second card")),
    (rf"Seat (?P<seat>{N}): first card", _("Seat {seat}: first card")),
    (rf"Seat (?P<seat>{N}): second card", _("Seat {seat}: second card")),
    (rf"Seat (?P<seat>{N}): card", _("Seat {seat}: card")),
    (rf"Seat (?P<seat>{N}), (?P<nth>first|second|third|fourth) hand: card", None),  # see HAND_OF_SEAT
    (rf"Seat (?P<seat>{N}): insurance\? \(up to (?P<amount>{N})\)", _("Seat {seat}: insurance? (up to {amount})")),
    (r"Dealer shows a ten: peek for blackjack", _("Dealer shows a ten: peek for blackjack")),
    (r"Dealer shows an ace: peek for blackjack", _("Dealer shows an ace: peek for blackjack")),
    (r"Dealer has blackjack: turn the hole card", _("Dealer has blackjack: turn the hole card")),
    (r"Turn the dealer's hole card", _("Turn the dealer's hole card")),
    (rf"Dealer draws on soft (?P<n>{N})", _("Dealer draws on soft {n}")),
    (rf"Dealer draws on (?P<n>{N})", _("Dealer draws on {n}")),
    (rf"Dealer \(seat (?P<seat>{N})\) on soft (?P<n>{N}): hit or stand\?", _("Dealer (seat {seat}) on soft {n}: hit or stand?")),
    (rf"Dealer \(seat (?P<seat>{N})\) on (?P<n>{N}): hit or stand\?", _("Dealer (seat {seat}) on {n}: hit or stand?")),
    (rf"(?P<who>Seat {N}(?:, \w+ hand)?): soft (?P<n>{N}) against (?P<up>an? \w+): (?P<choices>[a-z ,]+)\?",
     _("{who}: soft {n} against {up}: {choices}?")),
    (rf"(?P<who>Seat {N}(?:, \w+ hand)?): (?P<n>{N}) against (?P<up>an? \w+): (?P<choices>[a-z ,]+)\?",
     _("{who}: {n} against {up}: {choices}?")),
    (rf"(?P<who>Seat {N}(?:, \w+ hand)?), (?P<k>{N})-card charlie on soft (?P<n>{N}): (?P<choices>[a-z ,]+)\?",
     _("{who}, {k}-card charlie on soft {n}: {choices}?")),
    (rf"(?P<who>Seat {N}(?:, \w+ hand)?), (?P<k>{N})-card charlie on (?P<n>{N}): (?P<choices>[a-z ,]+)\?",
     _("{who}, {k}-card charlie on {n}: {choices}?")),
    (rf"(?P<who>Seat {N}(?:, \w+ hand)?) on soft (?P<n>{N}): (?P<choices>[a-z ,]+)\?", _("{who} on soft {n}: {choices}?")),
    (rf"(?P<who>Seat {N}(?:, \w+ hand)?) on (?P<n>{N}): (?P<choices>[a-z ,]+)\?", _("{who} on {n}: {choices}?")),
    (r"Dealer blackjack", _("Dealer blackjack")),
    (rf"Dealer busts with (?P<n>{N})", _("Dealer busts with {n}")),
    (rf"Dealer (?P<n>{N})", _("Dealer {n}")),
    # caribbean stud, let it ride, pai gow, pusoy
    (r"Dealer's up card", _("Dealer's up card")),
    (rf"Turn the dealer's hole card (?P<n>{N}) of (?P<m>{N})", _("Turn the dealer's hole card {n} of {m}")),
    (rf"Seat (?P<seat>{N}): card (?P<n>{N}) of (?P<m>{N})", _("Seat {seat}: card {n} of {m}")),
    (rf"Dealer: card (?P<n>{N}) of (?P<m>{N})", _("Dealer: card {n} of {m}")),
    (rf"Seat (?P<seat>{N}): fold or raise (?P<amount>{N})\?", _("Seat {seat}: fold or raise {amount}?")),
    (rf"Dealer qualifies with (?P<hand>{HAND})", _("Dealer qualifies with {hand}")),
    (rf"Dealer does not qualify \((?P<hand>{HAND})\): antes win, raises push",
     _("Dealer does not qualify ({hand}): antes win, raises push")),
    (rf"Seat (?P<seat>{N}): pull back bet (?P<n>{N}) or let it ride\?", _("Seat {seat}: pull back bet {n} or let it ride?")),
    (r"Turn the first community card", _("Turn the first community card")),
    (r"Turn the second community card", _("Turn the second community card")),
    (rf"Community cards (?P<cards>{CARD}(?: {CARD})*): (?P<count>{N}) paying hand\(s\)", None),  # see PLURALS
    (r"Throw the three dice", _("Throw the three dice")),
    (rf"Dice (?P<n>{N}): first hand to the dealer", _("Dice {n}: first hand to the dealer")),
    (rf"Dice (?P<n>{N}): first hand to seat (?P<seat>{N})", _("Dice {n}: first hand to seat {seat}")),
    (rf"Seat (?P<seat>{N}): set the hand \(five back, two front\) or ask for the house way",
     _("Seat {seat}: set the hand (five back, two front) or ask for the house way")),
    (rf"Dealer: (?P<hand>{HAND}) behind", _("Dealer: {hand} behind")),
    (rf"(?P<hand>{HAND}) in front", _("{hand} in front")),
    (rf"Dealer: back (?P<hand>{HAND})", _("Dealer: back {hand}")),
    (rf"middle (?P<hand>{HAND})", _("middle {hand}")),
    (rf"front (?P<hand>{HAND})", _("front {hand}")),
    (rf"[Ss]eat (?P<seat>{N}) wins (?P<n>{N}) of (?P<m>{N}) \(pusoy\)", _("seat {seat} wins {n} of {m} (pusoy)")),
    (rf"[Ss]eat (?P<seat>{N}) loses (?P<n>{N}) of (?P<m>{N}) \(pusoy\)", _("seat {seat} loses {n} of {m} (pusoy)")),
    (rf"[Ss]eat (?P<seat>{N}) wins (?P<n>{N}) of (?P<m>{N})", _("seat {seat} wins {n} of {m}")),
    (rf"[Ss]eat (?P<seat>{N}) loses (?P<n>{N}) of (?P<m>{N})", _("seat {seat} loses {n} of {m}")),
    (rf"[Ss]eat (?P<seat>{N}) wins", _("seat {seat} wins")),
    (rf"[Ss]eat (?P<seat>{N}) loses", _("seat {seat} loses")),
    (rf"[Ss]eat (?P<seat>{N}) pushes", _("seat {seat} pushes")),
    (rf"[Ss]eat (?P<seat>{N}) fouls", _("seat {seat} fouls")),
    (rf"[Ss]eat (?P<seat>{N}) surrenders", _("seat {seat} surrenders")),
    (r"Dealer surrenders", _("Dealer surrenders")),
    (rf"Seat (?P<seat>{N}): (?P<choices>[a-z ,]+)\?", _("Seat {seat}: {choices}?")),
    (r"Dealer: (?P<choices>[a-z ,]+)\?", _("Dealer: {choices}?")),
    # red dog, in-between
    (rf"Pot is empty: seat (?P<seat>{N}) antes (?P<amount>{N})", _("Pot is empty: seat {seat} antes {amount}")),
    (rf"Deal complete: the pot carries (?P<amount>{N})", _("Deal complete: the pot carries {amount}")),
    (rf"Seat (?P<seat>{N}): turn the first end card", _("Seat {seat}: turn the first end card")),
    (rf"Seat (?P<seat>{N}): turn the second end card", _("Seat {seat}: turn the second end card")),
    (rf"Seat (?P<seat>{N}): turn the middle card \((?P<card>{CARD}) and (?P<card2>{CARD}), bet (?P<amount>{N})\)",
     _("Seat {seat}: turn the middle card ({card} and {card2}, bet {amount})")),
    (rf"Seat (?P<seat>{N}): (?P<card>{CARD}) and (?P<card2>{CARD}), consecutive, the bet loses at once",
     _("Seat {seat}: {card} and {card2}, consecutive, the bet loses at once")),
    (rf"Seat (?P<seat>{N}): (?P<card>{CARD}) and (?P<card2>{CARD}), a pair of (?P<ranks>{RS}) pays (?P<amount>{N}), "
     r"the bet comes back", _("Seat {seat}: {card} and {card2}, a pair of {ranks} pays {amount}, the bet comes back")),
    (rf"Seat (?P<seat>{N}): (?P<card>{CARD}) and (?P<card2>{CARD}), (?P<count>{N}) ranks? between", None),  # PLURALS
    (rf"Bet (?P<amount>{N}) to (?P<amount2>{N})", _("Bet {amount} to {amount2}")),
    (rf"Turn up a card against seat (?P<seat>{N})'s bet of (?P<amount>{N})",
     _("Turn up a card against seat {seat}'s bet of {amount}")),
    (rf"Deal card (?P<n>{N}) of (?P<m>{N}) to seat (?P<seat>{N})", _("Deal card {n} of {m} to seat {seat}")),
    (rf"Seat (?P<seat>{N}): bet (?P<amount>{N}) to (?P<amount2>{N}) against the pot, or pass and forfeit (?P<amount3>{N})",
     _("Seat {seat}: bet {amount} to {amount2} against the pot, or pass and forfeit {amount3}")),
    # faro, stuss
    (r"Soda: turn the first card \(no action\)", _("Soda: turn the first card (no action)")),
    (rf"Turn (?P<n>{N}): winner card", _("Turn {n}: winner card")),
    (rf"Turn (?P<n>{N}): loser card \(last turn, calling the turn is open\)",
     _("Turn {n}: loser card (last turn, calling the turn is open)")),
    (rf"Turn (?P<n>{N}): loser card", _("Turn {n}: loser card")),
    (rf"Deal complete: (?P<card>{CARD}) in hock", _("Deal complete: {card} in hock")),
    # trente et quarante
    (r"Deal the noir row", _("Deal the noir row")),
    (r"Deal the rouge row", _("Deal the rouge row")),
    (rf"Noir (?P<n>{N}): deal to noir", _("Noir {n}: deal to noir")),
    (rf"Rouge (?P<n>{N}): deal to rouge", _("Rouge {n}: deal to rouge")),
    (rf"Noir (?P<n>{N})", _("Noir {n}")),
    (r"Refait at 31: the house takes half of every bet", _("Refait at 31: the house takes half of every bet")),
    (rf"Refait at (?P<n>{N}): stand-off", _("Refait at {n}: stand-off")),
    (rf"Noir (?P<n>{N}), rouge (?P<m>{N}): noir wins", _("Noir {n}, rouge {m}: noir wins")),
    (rf"Noir (?P<n>{N}), rouge (?P<m>{N}): rouge wins", _("Noir {n}, rouge {m}: rouge wins")),
    (r"couleur wins", _("couleur wins")),
    (r"inverse wins", _("inverse wins")),
    # carousel, pony, merry-go-round
    (rf"Deal to hand (?P<n>{N})", _("Deal to hand {n}")),
    (rf"Betting round (?P<n>{N}): take bets", _("Betting round {n}: take bets")),
    (rf"Hand (?P<n>{N}) is the last horse standing: game over", _("Hand {n} is the last horse standing: game over")),
    (rf"The deck cannot deal another round: game over with hands (?P<list>{N}(?:, {N})*) running",
     _("The deck cannot deal another round: game over with hands {list} running")),
    (r"No hand is left: game over", _("No hand is left: game over")),
    (rf"Carry (?P<amount>{N}) to the next game", _("Carry {amount} to the next game")),
    # horse races
    (rf"Course: deal card (?P<n>{N}) of (?P<m>{N})", _("Course: deal card {n} of {m}")),
    (rf"(?P<n>{N}) (?P<suit>{SUIT}) in the course: that horse cannot win",
     _("{n} {suit} in the course: that horse cannot win")),
    (r"Shuffle and deal the course again", _("Shuffle and deal the course again")),
    (rf"Take bets: (?P<odds>{SUIT} {ODDS}(?:, {SUIT} {ODDS})*)", _("Take bets: {odds}")),
    (rf"Auction: take bids on (?P<bids>{SUIT} \({N} in the row\)(?: or {SUIT} \({N} in the row\))*)",
     _("Auction: take bids on {bids}")),
    (rf"(?P<suit>{SUIT_CAP}): (?P<amount>{N}) bid by seat (?P<seat>{N})", _("{suit}: {amount} bid by seat {seat}")),
    (r"Any more\? Or sold", _("Any more? Or sold")),
    (rf"Race: turn the next card \((?P<race>{SUIT} {N}(?:, {SUIT} {N})*)\)", _("Race: turn the next card ({race})")),
    (rf"(?P<suit>{SUIT_CAP}) wins at (?P<odds>{ODDS})", _("{suit} wins at {odds}")),
    (rf"(?P<suit>{SUIT_CAP}) first: seat (?P<seat>{N}) takes (?P<amount>{N})",
     _("{suit} first: seat {seat} takes {amount}")),
    (rf"(?P<suit>{SUIT}) second: seat (?P<seat>{N}) takes (?P<amount>{N})", _("{suit} second: seat {seat} takes {amount}")),
)
PLURALS: tuple[tuple[str, Callable[[int], str]], ...] = (  # forms with a count: the words for that count
    (rf"Community cards (?P<cards>{CARD}(?: {CARD})*): (?P<count>{N}) paying hand\(s\)",
     lambda n: ngettext("Community cards {cards}: {count} paying hand", "Community cards {cards}: {count} paying hands", n)),
    (rf"Seat (?P<seat>{N}): (?P<card>{CARD}) and (?P<card2>{CARD}), (?P<count>{N}) ranks? between",
     lambda n: ngettext("Seat {seat}: {card} and {card2}, {count} rank between",
                        "Seat {seat}: {card} and {card2}, {count} ranks between", n)),
)
ORDINAL_HANDS = {"first": _("Seat {seat}, first hand: card"), "second": _("Seat {seat}, second hand: card"),
                 "third": _("Seat {seat}, third hand: card"), "fourth": _("Seat {seat}, fourth hand: card")}
WHO = re.compile(r"^Seat (\d+)(?:, (first|second|third|fourth) hand)?$")
WHO_WORDS = {None: _("Seat {seat}"), "first": _("Seat {seat}, first hand"), "second": _("Seat {seat}, second hand"),
             "third": _("Seat {seat}, third hand"), "fourth": _("Seat {seat}, fourth hand")}
UP_WORDS = {"a ten": _("a ten"), "an ace": _("an ace")}

_COMPILED = [(re.compile(rf"^{pattern}$"), text) for pattern, text in PROMPTS if text is not None]
_PLURALS = [(re.compile(rf"^{pattern}$"), words) for pattern, words in PLURALS]
_HANDS = [(re.compile(rf"^{pattern}$"), text) for pattern, text in HANDS]
_SEAT_HAND_CARD = re.compile(rf"^Seat (?P<seat>{N}), (?P<nth>first|second|third|fourth) hand: card$")
_ODDS_ONE = re.compile(rf"^(?P<suit>{SUIT}) (?P<odds>{ODDS})$")
_BID_ONE = re.compile(rf"^(?P<suit>{SUIT}) \((?P<n>{N}) in the row\)$")
_RACE_ONE = re.compile(rf"^(?P<suit>{SUIT}) (?P<n>{N})$")


def card_text(code: str) -> str:
    """A card as the screens show it: ``JH`` → ``J♥``, ``TD`` → ``10♦`` (the same in every language)."""
    m = CARD_CODE.match(str(code))
    if not m:
        return gettext("joker") if str(code) in ("JK", "XX") else str(code)
    rank = "10" if m.group(1) == "T" else m.group(1)
    return f"{rank}{SUIT_SIGNS[m.group(2)]}"


def odds_words(odds: str) -> str:
    if odds == "evens":
        return gettext("evens")
    if odds == "no bets":
        return gettext("no bets")
    return gettext("{n}-1").format(n=odds.split("-")[0])


def hand_words(name: str) -> str:
    """A poker hand's name (``pair of kings``, ``ace-king high``) in the reader's language."""
    for pattern, text in _HANDS:
        m = pattern.match(name)
        if m:
            values = {k: str(RANK_WORDS.get(v) or RANKS_WORDS.get(v) or v) for k, v in m.groupdict().items()}
            return str(text).format(**values)
    return name


def _or_words(words: list[str]) -> str:
    if len(words) == 1:
        return words[0]
    return gettext("{list} or {last}").format(list=gettext(", ").join(words[:-1]), last=words[-1])


def _value(name: str, value: str) -> str:
    kind = re.sub(r"\d+$", "", name)
    if kind == "amount":
        return money(int(value))
    if kind == "card":
        return card_text(value)
    if kind == "cards":
        return " ".join(card_text(c) for c in value.split())
    if kind == "hand":
        return hand_words(value)
    if kind == "ranks":
        return str(RANKS_WORDS.get(value, value))
    if kind == "suit":
        return str(SUIT_WORDS.get(value.lower(), value))
    if kind == "odds":
        return odds_words(value)
    if kind == "who":
        m = WHO.match(value)
        return str(WHO_WORDS[m.group(2)]).format(seat=m.group(1)) if m else value
    if kind == "up":
        return str(UP_WORDS[value]) if value in UP_WORDS else gettext("a {rank}").format(rank=value.split()[-1])
    if kind == "choices":
        return _or_words([str(ACTION_WORDS.get(w.strip(), w.strip())) for w in re.split(r", | or ", value)])
    if kind == "list":
        return gettext(", ").join(value.split(", "))
    if kind == "odds_list":
        return value
    return value


def _sentence(text: str) -> str | None:
    """One of the engines' sentences in the reader's words, or None if it is not one of the known forms."""
    m = _SEAT_HAND_CARD.match(text)
    if m:
        return str(ORDINAL_HANDS[m.group("nth")]).format(seat=m.group("seat"))
    for pattern, words in _PLURALS:
        m = pattern.match(text)
        if m:
            values = {k: _value(k, v) for k, v in m.groupdict().items()}
            return words(int(m.group("count"))).format(**values)
    for pattern, template in _COMPILED:
        m = pattern.match(text)
        if m:
            values = {k: _value(k, v) for k, v in m.groupdict().items()}
            if "odds" in values and text.startswith("Take bets"):
                values["odds"] = gettext(", ").join(
                    gettext("{suit} {odds}").format(suit=SUIT_WORDS[o["suit"]], odds=odds_words(o["odds"]))
                    for o in (_ODDS_ONE.match(p).groupdict() for p in m.group("odds").split(", ")))  # type: ignore[union-attr]
            if "bids" in values:
                values["bids"] = _or_words([
                    gettext("{suit} ({n} in the row)").format(suit=SUIT_WORDS[b["suit"]], n=b["n"])
                    for b in (_BID_ONE.match(p).groupdict() for p in m.group("bids").split(" or "))])  # type: ignore[union-attr]
            if "race" in values:
                values["race"] = gettext(", ").join(
                    gettext("{suit} {n}").format(suit=SUIT_WORDS[r["suit"]], n=r["n"])
                    for r in (_RACE_ONE.match(p).groupdict() for p in m.group("race").split(", ")))  # type: ignore[union-attr]
            return str(template).format(**values)
    return None


_SPLITS = (". ", "; ", ", ")


def prompt_parts(say: str) -> list[str] | None:
    """The engine's words as known sentences (split at ". ", then "; ", then ", " where the whole is not
    one), or None when some part is not a known form."""
    said = _sentence(say)
    if said is not None:
        return [said]
    for sep in _SPLITS:
        if sep in say:
            head, tail = say.split(sep, 1)
            first, rest = prompt_parts(head), prompt_parts(tail)
            if first is not None and rest is not None:
                joiner = {". ": gettext(". "), "; ": gettext("; "), ", ": gettext(", ")}[sep]
                return [joiner.join([*first, *rest])]
    return None


def plain(say: str) -> str:
    """The engine's English words with what a person cannot read written out: amounts (in the step's
    facts, a fallback only) are left as they are, card codes become cards."""
    return re.sub(rf"\b{CARD}\b", lambda m: card_text(m.group(0)), say)


def prompt(say: str | None) -> str:
    """What the dealer reads: the engine's words (``step["say"]``, a settled round's ``say``) in the reader's
    language, money in the house currency, cards as ``J♥``. A form this layer does not know yet (a new
    engine sentence) is shown in the engine's English with its cards written out; tests/tables/
    test_prompts.py plays every game so that none is left unknown."""
    if not say:
        return ""
    parts = prompt_parts(say)
    if parts is None:
        return plain(say)
    text = parts[0]
    return text[:1].upper() + text[1:]


@functools.cache
def _bet_labels(game: str) -> dict[str, str]:
    try:
        described = get_engine(game).describe()["bet_types"]
    except EngineError:
        return {}
    return {name: str(spec.get("label") or name.replace("_", " ").capitalize()) for name, spec in described.items()}


def bet_label(game: str, bet_type: str) -> str:
    """A bet type as the game's layout names it (``player_pair`` → Player pair), in the reader's language."""
    return label_words(_bet_labels(game).get(bet_type) or bet_type.replace("_", " ").capitalize())


# -- the engines' labels: bets, choices, fields, and why a seat may not bet now ------------------------------
LABELS: dict[str, Any] = {
    "Ante": _("Ante"), "Back a horse": _("Back a horse"), "Bank": _("Bank"), "Banker": _("Banker"),
    "Banker pair": _("Banker pair"), "Bet": _("Bet"), "Bet against the pot": _("Bet against the pot"),
    "Bet on a rank": _("Bet on a rank"), "Call the turn": _("Call the turn"), "Clubs": _("Clubs"),
    "Diamonds": _("Diamonds"), "Hearts": _("Hearts"), "Spades": _("Spades"),
    "Coppered (bet to lose)": _("Coppered (bet to lose)"), "Couleur": _("Couleur"), "Count": _("Count"),
    "Count (hands to survive)": _("Count (hands to survive)"), "Dealer has blackjack": _("Dealer has blackjack"),
    "Double": _("Double"), "Fold": _("Fold"), "Forfeit": _("Forfeit"), "Full insurance": _("Full insurance"),
    "Hand": _("Hand"), "Hands to survive": _("Hands to survive"), "High card": _("High card"), "Hit": _("Hit"),
    "Horse": _("Horse"), "Insurance": _("Insurance"), "Insured against a refait of 31": _("Insured against a refait of 31"),
    "Inverse": _("Inverse"), "Let it ride": _("Let it ride"), "Living win": _("Living win"),
    "Living win (house-backed)": _("Living win (house-backed)"), "Loser, winner, hock": _("Loser, winner, hock"),
    "No blackjack": _("No blackjack"), "No insurance": _("No insurance"), "Noir": _("Noir"),
    "Pass (forfeit)": _("Pass (forfeit)"), "Player": _("Player"), "Player pair": _("Player pair"),
    "Plays the hand": _("Plays the hand"), "Pony": _("Pony"), "Pony (last hand standing)": _("Pony (last hand standing)"),
    "Pot bet": _("Pot bet"), "Pull back": _("Pull back"), "Punto": _("Punto"), "Raise": _("Raise"), "Rank": _("Rank"),
    "Ride": _("Ride"), "Rouge": _("Rouge"), "Split": _("Split"), "Stand": _("Stand"), "Tie": pgettext_lazy("bet", "Tie"),
    "Wager": _("Wager"), "Surrender": _("Surrender"), "House way": _("House way"), "Set three hands": _("Set three hands"),
    "Claim royalties": _("Claim royalties"), "Draw": _("Draw"), "The round is over": _("The round is over"),
    "No bets now": _("No bets now"), "Royalties": _("Royalties"), "Sell": _("Sell"), "Bid": _("Bid"),
    "Amount": _("Amount"), "Stake": _("Stake"), "Seat": _("Seat"), "Order": _("Order"), "Number": _("Number"),
}
SUIT_TITLES = {"Spades": _("Spades"), "Hearts": _("Hearts"), "Diamonds": _("Diamonds"), "Clubs": _("Clubs")}
LABEL_FORMS: tuple[tuple[str, Any], ...] = (
    (rf"Hand (?P<n>{N})", _("Hand {n}")),
    (rf"(?P<suit>{SUIT_CAP}) (?P<odds>{ODDS})", _("{suit} {odds}")),
    (rf"Take down seat (?P<seat>{N})'s bet on the turn", _("Take down seat {seat}'s bet on the turn")),
    (rf"Take down seat (?P<seat>{N})'s bet on the (?P<rank>{R})", _("Take down seat {seat}'s bet on the {rank}")),
    (rf"Seat (?P<seat>{N}) is to act now", _("Seat {seat} is to act now")),
    (rf"Seat (?P<seat>{N}) holds the bank and cannot bet against it", _("Seat {seat} holds the bank and cannot bet against it")),
    (rf"Seat (?P<seat>{N}) holds the bank", _("Seat {seat} holds the bank")),
    (rf"Seat (?P<seat>{N}) already has an ante", _("Seat {seat} already has an ante")),
    (rf"Seat (?P<seat>{N}) already has its three bets", _("Seat {seat} already has its three bets")),
    (rf"Seat (?P<seat>{N}) already has a wager \(one per seat\)", _("Seat {seat} already has a wager (one per seat)")),
    (rf"Seat (?P<seat>{N}) already has a (?P<bet>.+) bet", _("Seat {seat} already has a {bet} bet")),
    (rf"Seat (?P<seat>{N}) bets before seat (?P<after>{N}): the button is at seat (?P<button>{N})",
     _("Seat {seat} bets before seat {after}: the button is at seat {button}")),
    (rf"Seat (?P<seat>{N}) bets first: the button is at seat (?P<button>{N})",
     _("Seat {seat} bets first: the button is at seat {button}")),
    (rf"Seat (?P<seat>{N}) bets next: bets go in seat order from the button at seat (?P<button>{N})",
     _("Seat {seat} bets next: bets go in seat order from the button at seat {button}")),
    (rf"Seat (?P<seat>{N}) passes", _("Seat {seat} passes")),
    (rf"Seat (?P<seat>{N}) cannot place an? (?P<bet>.+) bet now: seats (?P<list>{N}(?:, {N})*) may",
     _("Seat {seat} cannot place a {bet} bet now: seats {list} may")),
    (rf"Seat (?P<seat>{N}) cannot place an? (?P<bet>.+) bet now", _("Seat {seat} cannot place a {bet} bet now")),
    (r"No bets now: (?P<say>.+)", _("No bets now: {say}")),
)
RANK_SYMBOLS = frozenset("A 2 3 4 5 6 7 8 9 10 J Q K".split())  # a rank's key on the pad: the same in every language
_LABEL_FORMS = [(re.compile(rf"^{pattern}$"), text) for pattern, text in LABEL_FORMS]


def label_words(text: str) -> str:
    """An engine's label or reason (a bet, a choice, a field, why a seat may not bet now) in the reader's
    language; a label this layer does not know is shown as the engine gives it."""
    if text in LABELS:
        return str(LABELS[text])
    for pattern, template in _LABEL_FORMS:
        m = pattern.match(text)
        if m:
            values = dict(m.groupdict())
            if "suit" in values:
                values["suit"] = str(SUIT_TITLES[values["suit"]])
            if "odds" in values:
                values["odds"] = odds_words(values["odds"])
            if "rank" in values:
                values["rank"] = str(RANK_WORDS[values["rank"]])
            if "bet" in values:
                values["bet"] = label_words(values["bet"].capitalize()).lower()
            if "say" in values:
                values["say"] = prompt(values["say"])
            if "list" in values:
                values["list"] = gettext(", ").join(values["list"].split(", "))
            return str(template).format(**values)
    return text


def label_known(text: str) -> bool:
    """Whether this layer words ``text`` (a label of :data:`LABELS` or of one of :data:`LABEL_FORMS`)."""
    return text in LABELS or text in RANK_SYMBOLS or any(pattern.match(text) for pattern, _ in _LABEL_FORMS)


_LABEL_KEYS = frozenset({"label", "max_label", "house_way_label", "why", "reason"})


def labels_in(doc: Any, into: dict[str, str] | None = None) -> dict[str, str]:
    """Every label and reason in an engine's answer (its ``next.input``, bets open, the table now) → its words
    in the reader's language, for the dealer screen to show in place of the engine's English."""
    into = {} if into is None else into
    if isinstance(doc, dict):
        for key, value in doc.items():
            if key in _LABEL_KEYS and isinstance(value, str):
                into.setdefault(value, label_words(value))
            elif key in ("barred", "why_not") and isinstance(value, dict):
                for v in value.values():
                    if isinstance(v, str):
                        into.setdefault(v, label_words(v))
            else:
                labels_in(value, into)
    elif isinstance(doc, list | tuple):
        for value in doc:
            if isinstance(value, list | tuple) and len(value) == 2 and isinstance(value[1], str):
                into.setdefault(value[1], label_words(value[1]))
            else:
                labels_in(value, into)
    return into


_CODE_LIKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def description_words(text: str) -> str:
    """A bet's longer description (the bet button's tooltip): shown only in English and only where it names
    no setting by its code (``tie_pays``); the label says the bet in every language."""
    if not text or not (get_language() or "en").startswith("en") or _CODE_LIKE.search(text):
        return ""
    return text


GAME_TITLES: dict[str, Any] = {
    "Punto Banco baccarat": _("Punto Banco baccarat"), "Caribbean Stud Poker": _("Caribbean Stud Poker"),
    "Carousel": _("Carousel"), "Pony": pgettext_lazy("game", "Pony"), "Merry-Go-Round": _("Merry-Go-Round"),
    "Chemin de fer": _("Chemin de fer"), "Faro": _("Faro"), "Stuss": _("Stuss"), "Horse Race": _("Horse Race"),
    "Calcutta Horse Race": _("Calcutta Horse Race"), "Let It Ride": _("Let It Ride"), "Pai Gow Poker": _("Pai Gow Poker"),
    "In-Between (Acey-Deucey)": _("In-Between (Acey-Deucey)"), "Red Dog (high-card pool)": _("Red Dog (high-card pool)"),
    "Pusoy": _("Pusoy"), "Trente et Quarante": _("Trente et Quarante"),
    "Blackjack (permanent bank)": _("Blackjack (permanent bank)"),
    "Pontoon (blackjack with a changing bank)": _("Pontoon (blackjack with a changing bank)"),
}


def game_title(title: str) -> str:
    """A game's name as the engine titles it, in the reader's language."""
    return str(GAME_TITLES.get(title, title))


GAME_NAMES: dict[str, Any] = {  # a game's name on the floor's lists, by its English name (``game_name``)
    "Baccarat": _("Baccarat"), "Chemin De Fer": _("Chemin De Fer"), "Blackjack": _("Blackjack"),
    "Pontoon": _("Pontoon"), "Pai Gow Poker": _("Pai Gow Poker"), "Pusoy": _("Pusoy"),
    "Caribbean Stud": _("Caribbean Stud"), "Let It Ride": _("Let It Ride"), "Red Dog": _("Red Dog"),
    "In Between": _("In Between"), "Faro": _("Faro"), "Stuss": _("Stuss"), "Trente Et Quarante": _("Trente Et Quarante"),
    "Carousel": _("Carousel"), "Pony": pgettext_lazy("game", "Pony"), "Merry Go Round": _("Merry Go Round"),
    "Horse Race": _("Horse Race"), "Calcutta Horse Race": _("Calcutta Horse Race"),
}


def game_name(game: str) -> Any:
    """A game's name on the floor's lists (the table's game, a report's column) in the reader's language: the
    engine's name in words (``pai_gow_poker`` → Pai Gow Poker), translated where the catalogs have it."""
    english = game.replace("_", " ").title()
    return GAME_NAMES.get(english, english)
