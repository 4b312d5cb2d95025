"""The dealer screen's words: money in the house currency, and every refusal in a dealer's words.

The API answers a refusal with ``{"error": {"code", "message", "field"?, "params"?}}``: the message is in
the reader's language (the services word theirs through the translation system, and an engine's refusal,
English from pure Python, is answered in the wording below: :class:`EngineRefusal`). The dealer screen
words a refusal itself from the error's ``code`` with the wording below, filling in the refusal's ``params``: each code has
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
from typing import Any

from django.conf import settings
from django.utils.translation import get_language, gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from casino.errors import InvalidInput
from casino.money import money_amount
from tables.engines import speech
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
    "no_events": (_("Nothing was sent: enter the cards or choices first."),),
    "too_many_events": (_("At most {count} cards and choices can be sent at once: send the rest next."),
                        _("Too many cards and choices at once: send the rest next.")),
    "too_many_bets": (_("At most {count} bets can be placed at once: place the rest next."),
                      _("Too many bets at once: place the rest next.")),
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
    "reason_too_long": (_("The reason is too long: keep it to a short sentence."),),
    "lines_required": (_("Name at least one bet and what it should have paid or collected."),),
    "bad_net": (_("Each corrected amount is a whole amount of money, paid or collected."),),
    "nothing_changed": (_("Nothing to correct: every amount given is the one on the pay list."),),
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
                    return _param(value, "bet_type")  # the bet's label in the reader's language
                if kind == "card":
                    return card_text(str(value))
                return str(value)

            return PLACEHOLDER.sub(fill, template)
    return str(FALLBACK[0])


class EngineRefusal(InvalidInput):
    """An engine's refusal (:class:`EngineError`) as the API answers it: the same code, field, event and params,
    its message in the reader's words (:func:`say`) rather than the engine's English, which names bet ids and
    amounts in minor units (the engines are pure Python and cannot translate)."""

    def __init__(self, error: EngineError, *, table: str = "") -> None:
        super().__init__(say(error.code, error.params, table=table), code=error.code, field=error.field,
                         event=error.event, params=error.params or None)

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "event": self.event}  # an engine's refusal always says its event (or null)


# -- the dealer's prompts ------------------------------------------------------------------------------
# The engines (pure Python, no Django) say what is due and what happened as message ids with typed params
# (``step["message"]``, a settled round's ``message``: tables/engines/speech.py); ``say`` is the same in
# the engines' English. Each id below has one template in the reader's language with the same
# placeholders as the engine's English template; the engine's template says each param's kind, so money
# is worded through :func:`money`, cards as "J♥", ranks, suits, odds and choices in words, and a counted
# message (two forms) through ngettext. tests/tables/test_prompts.py fails on an id without a template here.

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

STEP_WORDS: dict[str, Any] = {  # message id (tables/engines/speech.py MESSAGES) → its words
    "place_bets": _("Place your bets"),
    "no_bets": _("No bets"),
    "no_wagers": _("No wagers"),
    "no_antes": _("No antes: round over"),
    "coup_complete": _("Coup complete"),
    "deal_complete": _("Deal complete"),
    "every_seat_folded": _("Every seat folded"),
    "tie": _("Tie"),
    # baccarat, chemin de fer
    "deal_player_card": _("Deal card {n} to the player"),
    "deal_banker_card": _("Deal card {n} to the banker"),
    "player_draws": _("Player draws on {n}"),
    "player_stands": _("Player stands on {n}"),
    "banker_draws_third": _("Banker draws on {n} (player's third card counts {m})"),
    "banker_draws_punter_third": _("Banker draws on {n} (punter's third card counts {m})"),
    "banker_draws": _("Banker draws on {n}"),
    "banker_wins": _("Banker wins {n} over {m}"),
    "player_wins": _("Player wins {n} over {m}"),
    "punter_wins": _("Punter wins {n} over {m}"),
    "bank_passes": _("the bank passes"),
    "stand_off": _("Stand-off at {n}"),
    "punter_choice": _("Punter (seat {seat}) has {n}: draw or stand?"),
    "punter_draws": _("Punter draws on {n}"),
    "punter_stands": _("Punter stands on {n}"),
    "banker_choice_punter_stands": _("Banker (seat {seat}) has {n}, punter stands on {m}: draw or stand?"),
    "banker_choice_punter_third": _("Banker (seat {seat}) has {n}, punter's third card counts {m}: draw or stand?"),
    # blackjack, pontoon
    "dealer_up_card": _("Dealer: up card"),
    "dealer_first_card": _("Dealer: first card"),
    "dealer_second_card": _("Dealer: second card"),
    "seat_first_card": _("Seat {seat}: first card"),
    "seat_second_card": _("Seat {seat}: second card"),
    "hand_card": _("{who}: card"),
    "insurance": _("Seat {seat}: insurance? (up to {amount})"),
    "peek_ten": _("Dealer shows a ten: peek for blackjack"),
    "peek_ace": _("Dealer shows an ace: peek for blackjack"),
    "dealer_blackjack_turn_hole": _("Dealer has blackjack: turn the hole card"),
    "turn_hole_card": _("Turn the dealer's hole card"),
    "dealer_draws_soft": _("Dealer draws on soft {n}"),
    "dealer_draws": _("Dealer draws on {n}"),
    "banker_dealer_soft": _("Dealer (seat {seat}) on soft {n}: hit or stand?"),
    "banker_dealer": _("Dealer (seat {seat}) on {n}: hit or stand?"),
    "choice_against_soft": _("{who}: soft {n} against {up}: {choices}?"),
    "choice_against": _("{who}: {n} against {up}: {choices}?"),
    "choice_charlie_soft": _("{who}, {k}-card charlie on soft {n}: {choices}?"),
    "choice_charlie": _("{who}, {k}-card charlie on {n}: {choices}?"),
    "choice_on_soft": _("{who} on soft {n}: {choices}?"),
    "choice_on": _("{who} on {n}: {choices}?"),
    "who_seat": _("Seat {seat}"),
    "who_first_hand": _("Seat {seat}, first hand"),
    "who_second_hand": _("Seat {seat}, second hand"),
    "who_third_hand": _("Seat {seat}, third hand"),
    "who_fourth_hand": _("Seat {seat}, fourth hand"),
    "who_fifth_hand": _("Seat {seat}, fifth hand"),
    "who_sixth_hand": _("Seat {seat}, sixth hand"),
    "who_seventh_hand": _("Seat {seat}, seventh hand"),
    "who_eighth_hand": _("Seat {seat}, eighth hand"),
    "up_ten": _("a ten"),
    "up_ace": _("an ace"),
    "up_eight": _("an 8"),
    "up_rank": _("a {rank}"),
    "dealer_blackjack": _("Dealer blackjack"),
    "dealer_busts": _("Dealer busts with {n}"),
    "dealer_total": _("Dealer {n}"),
    # caribbean stud, let it ride, pai gow, pusoy
    "dealer_up_card_stud": _("Dealer's up card"),
    "dealer_hole_card": _("Turn the dealer's hole card {n} of {m}"),
    "seat_card_of": _("Seat {seat}: card {n} of {m}"),
    "dealer_card_of": _("Dealer: card {n} of {m}"),
    "fold_or_raise": _("Seat {seat}: fold or raise {amount}?"),
    "dealer_qualifies": _("Dealer qualifies with {hand}"),
    "dealer_not_qualify": _("Dealer does not qualify ({hand}): antes win, raises push"),
    "pull_back_or_ride": _("Seat {seat}: pull back bet {n} or let it ride?"),
    "turn_first_community": _("Turn the first community card"),
    "turn_second_community": _("Turn the second community card"),
    "community_paying": lambda n: ngettext("Community cards {cards}: {count} paying hand",
                                           "Community cards {cards}: {count} paying hands", n),
    "throw_dice": _("Throw the three dice"),
    "dice_first_dealer": _("Dice {n}: first hand to the dealer"),
    "dice_first_seat": _("Dice {n}: first hand to seat {seat}"),
    "set_or_house_way": _("Seat {seat}: set the hand (five back, two front) or ask for the house way"),
    "dealer_behind": _("Dealer: {hand} behind"),
    "in_front": _("{hand} in front"),
    "dealer_back": _("Dealer: back {hand}"),
    "middle": _("middle {hand}"),
    "front": _("front {hand}"),
    "seat_wins_of_pusoy": _("seat {seat} wins {n} of {m} (pusoy)"),
    "seat_loses_of_pusoy": _("seat {seat} loses {n} of {m} (pusoy)"),
    "seat_wins_of": _("seat {seat} wins {n} of {m}"),
    "seat_loses_of": _("seat {seat} loses {n} of {m}"),
    "seat_wins": _("seat {seat} wins"),
    "seat_loses": _("seat {seat} loses"),
    "seat_pushes": _("seat {seat} pushes"),
    "seat_fouls": _("seat {seat} fouls"),
    "seat_wins_double": _("seat {seat} wins double (dealer fouls)"),
    "seat_surrendered": _("seat {seat} surrendered"),
    "seat_royalty": _("seat {seat} claims royalties"),
    "seat_paid": _("seat {seat} paid"),
    "dealer_surrenders": _("Dealer surrenders"),
    "seat_choices": _("Seat {seat}: {choices}?"),
    "dealer_choices": _("Dealer: {choices}?"),
    # poker hands (tables/engines/poker.py hand_speech)
    "hand_five_aces": _("five aces"),
    "hand_royal_flush": _("royal flush"),
    "hand_straight_flush": _("{rank}-high straight flush"),
    "hand_four": _("four {ranks}"),
    "hand_full_house": _("full house, {ranks} over {ranks2}"),
    "hand_flush": _("{rank}-high flush"),
    "hand_straight": _("{rank}-high straight"),
    "hand_three": _("three {ranks}"),
    "hand_two_pair": _("two pair, {ranks} and {ranks2}"),
    "hand_pair": _("pair of {ranks}"),
    "hand_high_two": _("{rank}-{rank2} high"),
    "hand_high": _("{rank} high"),
    # red dog, in-between
    "pot_empty_ante": _("Pot is empty: seat {seat} antes {amount}"),
    "pot_carries": _("Deal complete: the pot carries {amount}"),
    "turn_first_end": _("Seat {seat}: turn the first end card"),
    "turn_second_end": _("Seat {seat}: turn the second end card"),
    "turn_middle": _("Seat {seat}: turn the middle card ({card} and {card2}, bet {amount})"),
    "ends_consecutive": _("Seat {seat}: {card} and {card2}, consecutive, the bet loses at once"),
    "ends_pair": _("Seat {seat}: {card} and {card2}, a pair of {ranks} pays {amount}, the bet comes back"),
    "ends_gap": lambda n: ngettext("Seat {seat}: {card} and {card2}, {count} rank between",
                                   "Seat {seat}: {card} and {card2}, {count} ranks between", n),
    "bet_range": _("Bet {amount} to {amount2}"),
    "turn_against_bet": _("Turn up a card against seat {seat}'s bet of {amount}"),
    "deal_card_to_seat": _("Deal card {n} of {m} to seat {seat}"),
    "bet_or_forfeit": _("Seat {seat}: bet {amount} to {amount2} against the pot, or pass and forfeit {amount3}"),
    # faro, stuss
    "soda": _("Soda: turn the first card (no action)"),
    "winner_card": _("Turn {n}: winner card"),
    "loser_card_last": _("Turn {n}: loser card (last turn, calling the turn is open)"),
    "loser_card": _("Turn {n}: loser card"),
    "in_hock": _("Deal complete: {card} in hock"),
    # trente et quarante
    "deal_noir_row": _("Deal the noir row"),
    "deal_rouge_row": _("Deal the rouge row"),
    "noir_deal": _("Noir {n}: deal to noir"),
    "rouge_deal": _("Rouge {n}: deal to rouge"),
    "noir_total": _("Noir {n}"),
    "refait_31": _("Refait at 31: the house takes half of every bet"),
    "refait": _("Refait at {n}: stand-off"),
    "noir_wins": _("Noir {n}, rouge {m}: noir wins"),
    "rouge_wins": _("Noir {n}, rouge {m}: rouge wins"),
    "couleur_wins": _("couleur wins"),
    "inverse_wins": _("inverse wins"),
    # carousel, pony, merry-go-round
    "deal_to_hand": _("Deal to hand {n}"),
    "betting_round": _("Betting round {n}: take bets"),
    "last_horse": _("Hand {n} is the last horse standing: game over"),
    "deck_out": _("The deck cannot deal another round: game over with hands {list} running"),
    "no_hand_left": _("No hand is left: game over"),
    "carry": _("Carry {amount} to the next game"),
    # horse races
    "course_card": _("Course: deal card {n} of {m}"),
    "course_void": _("{n} {suit} in the course: that horse cannot win"),
    "course_again": _("Shuffle and deal the course again"),
    "take_bets": _("Take bets: {odds}"),
    "horse_odds": _("{suit} {odds}"),
    "auction": _("Auction: take bids on {bids}"),
    "horse_in_row": _("{suit} ({n} in the row)"),
    "high_bid": _("{suit}: {amount} bid by seat {seat}"),
    "any_more": _("Any more? Or sold"),
    "race_card": _("Race: turn the next card ({race})"),
    "horse_moves": _("{suit} {n}"),
    "horse_wins": _("{suit} wins at {odds}"),
    "horse_first": _("{suit} first: seat {seat} takes {amount}"),
    "horse_second": _("{suit} second: seat {seat} takes {amount}"),
    # labels: a choice's option, a field's option
    "label_hand": _("Hand {n}"),
    "label_seat_passes": _("Seat {seat} passes"),
    "label_take_down_turn": _("Take down seat {seat}'s bet on the turn"),
    "label_take_down_rank": _("Take down seat {seat}'s bet on the {rank}"),
    # why a seat may not bet now
    "why_round_over": _("The round is over"),
    "why_no_bets_now": _("No bets now"),
    "why_no_bets_now_step": _("No bets now: {say}"),
    "why_seat_to_act": _("Seat {seat} is to act now"),
    "why_bank_seat": _("Seat {seat} holds the bank and cannot bet against it"),
    "why_bank_holder": _("Seat {seat} holds the bank"),
    "why_has_ante": _("Seat {seat} already has an ante"),
    "why_has_three_bets": _("Seat {seat} already has its three bets"),
    "why_has_wager": _("Seat {seat} already has a wager (one per seat)"),
    "why_has_bet": _("Seat {seat} already has a {bet} bet"),
    "why_bets_before": _("Seat {seat} bets before seat {after}: the button is at seat {button}"),
    "why_bets_first": _("Seat {seat} bets first: the button is at seat {button}"),
    "why_bets_next": _("Seat {seat} bets next: bets go in seat order from the button at seat {button}"),
    "why_not_now_may": _("Seat {seat} cannot place a {bet} bet now: seats {list} may"),
    "why_not_now": _("Seat {seat} cannot place a {bet} bet now"),
}


def card_text(code: str) -> str:
    """A card as the screens show it: ``JH`` → ``J♥``, ``TD`` → ``10♦`` (the same in every language)."""
    m = CARD_CODE.match(str(code))
    if not m:
        return gettext("joker") if str(code) in ("JK", "XX") else str(code)
    rank = "10" if m.group(1) == "T" else m.group(1)
    return f"{rank}{SUIT_SIGNS[m.group(2)]}"


def odds_words(odds: str) -> str:
    """Odds as an engine's label writes them (``2-1``, ``evens``, ``no bets``) in the reader's words."""
    if odds == "evens":
        return gettext("evens")
    if odds == "no bets":
        return gettext("no bets")
    return gettext("{n}-1").format(n=odds.split("-")[0])


def _or_words(words: list[str]) -> str:
    if len(words) == 1:
        return words[0]
    return gettext("{list} or {last}").format(list=gettext(", ").join(words[:-1]), last=words[-1])


def step_templates(message_id: str) -> tuple[str, ...]:
    """The templates of a message id in the reader's language: one, or a counted one's (a function of the
    count, worded with ngettext) for one and for two."""
    found = STEP_WORDS[message_id]
    return (found(1), found(2)) if callable(found) else (str(found),)


def _param(value: Any, kind: str | None) -> str:
    """A message's param in the reader's words, by its kind (tables/engines/speech.py)."""
    if kind == "money":
        return money(int(value))
    if kind == "card":
        return card_text(str(value))
    if kind == "cards":
        return " ".join(card_text(str(c)) for c in value)
    if kind == "rank":
        english = speech.english_value(value, kind)
        return str(RANK_WORDS.get(english, english))
    if kind == "ranks":
        english = speech.english_value(value, kind)
        return str(RANKS_WORDS.get(english, english))
    if kind == "suit":
        return str(SUIT_WORDS[speech.SUIT_NAMES[str(value)]])
    if kind == "odds":
        return odds_words(speech.english_value(int(value), kind))
    if kind == "actions":
        return _or_words([str(ACTION_WORDS.get(str(a), a)) for a in value])
    if kind == "list":
        return gettext(", ").join(str(v) for v in value)
    if kind == "words":
        return _parts_words(value)
    if kind == "sentence":
        words = _parts_words(value)
        return words[:1].upper() + words[1:]
    if kind == "label":
        return label_words(str(value)).lower()
    if kind == "bet_type":
        return label_words(str(value).replace("_", " ").capitalize()).lower()
    if kind == "words_list":
        return gettext(", ").join(_parts_words(v) for v in value)
    if kind == "words_or":
        return _or_words([_parts_words(v) for v in value])
    return str(value)


def _part_words(part: Any) -> str | None:
    """One part (``{"id", "params"}``) in the reader's words; None if it is not one this layer words."""
    if not isinstance(part, dict) or part.get("id") not in STEP_WORDS or part["id"] not in speech.MESSAGES:
        return None
    message_id, params = part["id"], part.get("params") or {}
    kinds = speech.kinds(message_id)
    if set(params) != set(kinds):
        return None
    found = STEP_WORDS[message_id]
    template = found(int(params["count"])) if callable(found) else str(found)
    return template.format(**{name: _param(params[name], kind) for name, kind in kinds.items()})


def _parts_words(parts: Any) -> str:
    """Parts joined by their separators, not capitalised (a nested message inside a sentence)."""
    out = ""
    for part in parts or []:
        words = _part_words(part)
        if words is None:
            return ""
        out += _separator(part.get("sep", "")) + words
    return out


def _separator(sep: str) -> str:
    return {". ": gettext(". "), "; ": gettext("; "), ", ": gettext(", ")}.get(sep, "")


def message_words(message: Any) -> str | None:
    """A message (a step's or a settled round's ``message``) in the reader's words: each part by its id's
    template, a sentence begun with a capital; None when some part is not one this layer words."""
    if not isinstance(message, list) or not message:
        return None
    out = ""
    for part in message:
        words = _part_words(part)
        if words is None:
            return None
        sep = part.get("sep", "") if out else ""
        if not out or sep == ". ":
            words = words[:1].upper() + words[1:]
        out += _separator(sep) + words
    return out


def plain(say: str) -> str:
    """An engine's English sentence without its message (a round stored before the engines said message
    ids): shown as it is, its cards written out."""
    return re.sub(r"\b[2-9TJQKA][SHDC]\b", lambda m: card_text(m.group(0)), say)


def prompt(doc: Any) -> str:
    """What the dealer reads: a step's (or a settled round's) ``message`` in the reader's language, money in
    the house currency, cards as ``J♥``. ``doc`` is the step or the round's state (its own ``message``
    and ``say``, not its ``next``'s). A step stored without a message is shown in the engine's English."""
    if not isinstance(doc, dict):
        return plain(doc) if isinstance(doc, str) else ""
    worded = message_words(doc.get("message"))
    if worded is not None:
        return worded
    say = doc.get("say")
    return plain(say) if isinstance(say, str) else ""


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
RANK_SYMBOLS = frozenset("A 2 3 4 5 6 7 8 9 10 J Q K".split())  # a rank's key on the pad: the same in every language


def label_words(text: str) -> str:
    """A fixed label of an engine (a bet, a choice, a field: :data:`LABELS`) in the reader's language; a
    label said as a message is worded from its ``label_message`` (:func:`labels_in`), and one this layer
    does not know (a round stored before labels were messages) is shown as the engine gives it, its card
    codes written as cards."""
    if text in LABELS:
        return str(LABELS[text])
    return plain(text)


def label_known(text: str) -> bool:
    """Whether ``text`` is a fixed label this layer words (:data:`LABELS`, a rank's key)."""
    return text in LABELS or text in RANK_SYMBOLS


_LABEL_KEYS = frozenset({"label", "max_label", "house_way_label", "why", "reason"})


def labels_in(doc: Any, into: dict[str, str] | None = None) -> dict[str, str]:
    """Every label and reason in an engine's answer (its ``next.input``, bets open, the table now) → its words
    in the reader's language, for the dealer screen to show in place of the engine's English: one said as a
    message (``label_message``, ``why_message`` beside it) from the message, a fixed one from :data:`LABELS`."""
    into = {} if into is None else into
    if isinstance(doc, dict):
        for key, value in doc.items():
            if key in _LABEL_KEYS and isinstance(value, str):
                worded = message_words(doc.get(f"{key}_message"))
                into.setdefault(value, worded if worded is not None else label_words(value))
            elif key in ("barred", "why_not") and isinstance(value, dict):
                for v in value.values():
                    if isinstance(v, str):
                        into.setdefault(v, label_words(v))
            elif isinstance(value, dict | list | tuple):  # (every dealer request's answer: no call per scalar)
                labels_in(value, into)
    elif isinstance(doc, list | tuple):
        for value in doc:
            if isinstance(value, list | tuple) and len(value) == 2 and isinstance(value[1], str):
                into.setdefault(value[1], label_words(value[1]))
            elif isinstance(value, dict | list | tuple):
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
