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

import re
from typing import Any

from django.conf import settings

from casino.money import money_formatter

# the symbol a dealer reads before an amount; other currencies are written after it with their code
SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥", "HKD": "HK$", "MOP": "MOP$", "SGD": "S$", "AUD": "A$",
           "CAD": "C$", "NZD": "NZ$", "INR": "₹", "KRW": "₩", "PHP": "₱", "CNY": "CN¥", "ILS": "₪", "TRY": "₺"}

PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")
KINDS = frozenset({"money", "card", "bet"})
SCREEN_NAMES = frozenset({"next", "table"})  # filled by the screen, not by the refusal's params

_CALL_PIT = "call the pit manager"

REFUSALS: dict[str, tuple[str, ...]] = {
    # -- bets ------------------------------------------------------------------------------------
    "under_table_min": ("{amount:money} is under the table minimum of {min:money}.",
                        "That stake is under the table minimum of {min:money}.",
                        "That stake is under the table minimum."),
    "over_table_max": ("{amount:money} is over the table maximum of {max:money}.",
                       "That stake is over the table maximum of {max:money}.",
                       "That stake is over the table maximum."),
    "bad_amount": ("The ante is {ante:money}, not {amount:money}.", "The forfeit is {forfeit:money}, not {amount:money}.",
                   "{amount:money} is over the limit of {limit:money} for that bet.",
                   "The stake here must be from {min:money} to {max:money}, not {amount:money}.",
                   "That stake is not allowed here."),
    "bad_bet": ("Seat {seat} cannot take that bet now: check the seat, the bet and what it is on.",
                "That bet cannot be taken here: check the seat, the bet and what it is on."),
    # the engine's reason for a refusal (``params["reason"]``): why, and what to do
    "bad_bet:no_bets": ("No bet is down yet: place at least one bet, then tap “No more bets”.",),
    "bad_bet:players": ("A deal needs 2 to {max_players} players, each with an ante, and {players} have anted: "
                        "take the antes, then tap “No more bets”.",
                        "A deal needs at least two players, each with an ante: take the antes, then tap “No more bets”."),
    "bad_bet:no_bank": ("Nobody holds the bank yet: the banker's seat puts up the bank first, then the punters bet.",),
    "bad_bet:two_banks": ("Only one seat holds the bank: take back the other bank.",),
    "bad_bet:no_punto": ("Nobody bets against the bank yet: take at least one punto, then tap “No more bets”.",),
    "bad_bet:bank_seat": ("Seat {seat} holds the bank and cannot bet against it: take the bet at another seat.",
                          "The banker's seat cannot bet against the bank: take the bet at another seat."),
    "bad_bet:call_early": ("The turn is called only with three cards left: take the call then, between the last turns.",),
    "bad_amount:bid_low": ("The high bid is {high:money}: the next bid must be at least {min:money}.",
                           "A bid must be at least {min:money}.", "That bid is too low."),
    "illegal_action:high_bidder": ("Seat {seat} already holds the high bid: take a bid from another seat, or sell.",
                                   "That seat already holds the high bid: take a bid from another seat, or sell."),
    "out_of_turn:button_order": ("Seat {seat} bets before seat {after_seat} in the order from the button at seat "
                                 "{button}, and seat {after_seat} has bet: seat {seat} sits out this betting round.",
                                 "Bets go in seat order from the button: that seat's turn has passed this betting round."),
    "bad_bet_type": ("This table does not take {type:bet} bets.", "This table does not take that bet."),
    "bad_seat": ("There is no seat {seat} at this table: its seats are 1 to {seats}.",
                 "There is no such seat at this table."),
    "duplicate_bet": ("That bet is already recorded.",),
    "over_bank": ("The punters would cover more than the bank of {bank:money}.", "The punters would cover more than the bank."),
    "over_pot": ("{amount:money} is more than the pot holds, {pot:money}.",
                 "A pot bet can be at most what is in the pot, {pot:money}.", "A pot bet can be at most what is in the pot."),
    "betting_closed": ("Betting is closed for this round.",),
    "betting_open": ("Betting is still open: tap “No more bets” first.",),
    "not_open": ("This round is not open for bets.",),
    "no_such_bet": ("That bet is not in this round (it may have been taken back already).",),
    "bet_withdrawn": ("That bet was already taken back.",),
    "cannot_undo_bet": ("The last entry is a bet, and a bet cannot be undone: ask for a void of the round instead.",),
    "unknown_bet": (f"The settlement names a bet nobody placed: {_CALL_PIT}.",),
    # -- cards and choices -------------------------------------------------------------------------
    "bad_card": ("The {card:card} is not a card of this game's deck.", "That is not a card of this game's deck."),
    "card_exhausted": ("Every {card:card} the shoe holds is already out: check the card.",
                       "That card is already out as many times as the shoe holds it: check the card."),
    "impossible_card": ("The {card:card} cannot be there: check the card.", "That card cannot be there: check it."),
    "bad_event": ("That entry does not fit the round here: {next}.", "That entry does not fit the round here."),
    "out_of_turn": ("Not now: {next}.", "That is not what the table expects now."),
    "illegal_action": ("That choice is not allowed now: {next}.", "That choice is not allowed now."),
    "join_refused": ("Seat {seat} cannot join the game now.", "That player cannot join the game now."),
    "incomplete_coup": ("The coup needs more cards: {next}.", "The coup needs more cards."),
    "incomplete_round": ("The round needs more: {next}.", "The round needs more before it can be settled."),
    "round_incomplete": ("The round is not complete yet: {next}.", "The round is not complete yet."),
    "no_hand_to_set": ("There is no hand to set at that seat now.",),
    "bad_set": ("The hands must use exactly the cards dealt to the seat.",),
    "no_set": ("There is no hand to set in this game.",),
    "nothing_to_undo": ("Nothing has been dealt yet: there is nothing to undo.",),
    # -- the round -----------------------------------------------------------------------------------
    "round_in_progress": ("A round is still in progress at this table: finish it, or ask for a void.",),
    "already_settled": ("This round is already settled.",),
    "round_open": ("This round is still open for bets.",),
    "round_betting_closed": ("Betting is closed and nothing has been dealt yet.",),
    "round_dealing": ("This round is being dealt.",),
    "round_settled": ("This round is already settled.",),
    "round_voided": ("This round was voided.",),
    "no_void_request": ("Nobody asked for a void of this round.",),
    "reason_required": ("Choose or write a reason.",),
    "same_person": ("Someone other than who asked must approve this.",),
    "approval_refused": ("That PIN is wrong for the supervisor picked: check the name and tap the PIN again.",),
    "pit_manager_required": ("Only a pit manager of this table's pit can approve this.",),
    "concurrent_change": ("Someone changed this round at the same moment: the screen shows it now; try again.",),
    "unknown_round": ("That round does not exist.",),
    # -- the table, the shift, who may deal ----------------------------------------------------------
    "table_closed": ("This table is closed: the pit manager opens it.",),
    "table_misconfigured": (f"The table's rules are set up wrongly: {_CALL_PIT}.",),
    "no_open_shift": ("No shift is open: the shift manager opens the next one on the gaming day screen.",),
    "not_assigned": ("You are not assigned to this table now: the pit manager assigns dealers.",),
    "not_your_table": ("This is not your table.",),
    "role_required": ("Your account may not do this.",),
    "unknown_table": ("That table does not exist.",),
    "bad_config": (f"The table's rules are set up wrongly: {_CALL_PIT}.",),
    "unknown_setting": (f"The table's rules name a setting this game does not have: {_CALL_PIT}.",),
    "unknown_game": (f"This table's game is not known: {_CALL_PIT}.",),
    "bad_document": (f"The round's record cannot be read: {_CALL_PIT}.",),
    "no_house_edge": ("There is no house edge figure for this game.",),
    "bad_limits": ("The table minimum cannot be above its maximum.",),
    "shift_exists": ("That shift is already open.",),
    "shift_manager_required": ("Only a shift manager may do this.",),
    "empty_tray_unconfirmed": ("The count holds no chip: tick that the tray is empty, or count the chips.",),
    "tray_not_empty": ("The tray is said to be empty, but chips are counted: one or the other.",),
    "shift_not_open": ("That shift is not open.",),
    "unknown_shift_type": ("That shift does not exist.",),
    "not_a_dealer": ("That person is not a dealer.",),
    "dealer_busy": ("That dealer is assigned to another table at that time.",),
    "bad_period": ("An assignment must end after it starts.",),
    "already_relieved": ("That dealer was already relieved.",),
    "void_refused": ("A void of this round was asked for and refused: finish the round.",),
    "void_already_requested": ("A void of this round is already asked for: a pit manager decides it.",),
    "nothing_to_rotate": ("A rotation needs two dealers at the pit's open tables, or one coming back from a break.",),
    # -- the pit's paperwork and alerts (the pit manager's screens) ----------------------------------
    "unknown_alert": ("That alert does not exist.",),
    "already_acknowledged": ("Someone acknowledged that alert already.",),
    "not_acknowledged": ("Acknowledge the alert first, then resolve it.",),
    "already_resolved": ("Someone resolved that alert already.",),
    "bad_chips": ("Give a whole number of chips for each denomination, and at least one chip in all.",),
    "unknown_denomination": ("This table does not use one of those chips.",),
    "shift_closed": ("That shift is closed: its paperwork is sealed.",),
    "unknown_shift": ("That shift does not exist.",),
    "table_shift_closed": ("This table's shift is closed: its paperwork is sealed.",),
    "bad_kind": ("Choose a fill or a credit.",),
    "bad_amount_text": ("Type an amount in the house currency, such as 25 or 25.50.",),
    # -- signatures: a person proving it is them (docs/accounting.md, "Signing") -----------------------
    "signature_required": ("Each person who signs gives their username and their password or PIN.",),
    "bad_signature": ("Sign with a password or with a PIN, not both.",),
    "signature_secret_required": ("The other person types their own password or PIN to sign.",),
    "unknown_signer": ("There is no member of staff with that username who can sign.",),
    "inactive_signer": ("That person may no longer sign: ask someone else.",),
    "signer_role": ("That person does not hold the role this signature needs: ask someone who does.",),
    "same_signer": ("The two signatures must be two different people.",),
    "submitter_not_signer": ("You must be one of the people who sign this.",),
    "signature_refused": ("That password or PIN is wrong: check who signs and try again.",),
    "signature_locked": ("Too many wrong PINs or passwords for that person from this account: wait a few minutes, "
                         "or ask another supervisor.",),
    "bad_pin": ("A signing PIN is 4 to 12 digits.",),
    "weak_pin": ("That PIN is too easy to guess: avoid one digit repeated or digits in a row.",),
    "password_required": ("Type your own password to set your signing PIN.",),
    "supervisor_required": ("Only a pit manager or an admin may lift a lockout.",),
    "nothing_to_unlock": ("Name the account or the address whose lockout you lift.",),
    "same_address": ("An address is unlocked from another terminal, never from itself.",),
    "admin_required": ("Only an admin may lift an admin's lockout.",),
    # -- signing in, requests, the server ------------------------------------------------------------
    "invalid_credentials": ("Wrong username or password.",),
    "locked_out": ("Too many wrong passwords: wait a few minutes, then try again.",),
    "not_authenticated": ("Your session has ended: sign in again.",),
    "authentication_failed": ("Your session has ended: sign in again.",),
    "permission_denied": ("Your account may not do this.",),
    "forbidden": ("Your account may not do this.",),
    "throttled": ("Too many tries in a short time: wait a moment, then try again.",),
    "invalid": ("That entry is not complete or not valid: check it and try again.",),
    "bad_parameter": ("That list cannot be shown with those choices: check the numbers and try again.",),
    "out_of_range": ("A number or a text in that entry is too large: check it and try again.",),
    "idempotency_key_required": (f"The screen sent an action without its retry mark: reload the page; if it persists, {_CALL_PIT}.",),
    "malformed_json": (f"The screen sent something the server cannot read: reload the page; if it persists, {_CALL_PIT}.",),
    "bad_request": (f"The screen sent something the server cannot read: reload the page; if it persists, {_CALL_PIT}.",),
    "body_too_large": ("That is too much to send at once.",),
    "bad_idempotency_key": ("The screen sent a malformed request: reload the page and try again.",),
    "idempotency_key_reused": ("The screen sent one request twice with different contents: reload the page.",),
    "not_found": ("That is not there any more: reload the page.",),
    "method_not_allowed": ("The screen asked for something the server does not do: reload the page.",),
    "not_acceptable": ("The screen asked for something the server does not do: reload the page.",),
    "unsupported_media_type": ("The screen asked for something the server does not do: reload the page.",),
    "conflict": ("Something changed meanwhile: the screen is up to date now; try again.",),
    "refused": (f"The records refused that change: {_CALL_PIT}.",),
    "database_unavailable": ("The records cannot be reached: the entry is kept and sent again shortly.",),
    "server_error": (f"Something went wrong on the server; it was logged. Try again, and if it persists, {_CALL_PIT}.",),
    "error": (f"The server refused that; if it persists, {_CALL_PIT}.",),
    # -- the audit trail (read by the screens that show it) --------------------------------------------
    "bad_digest": ("The audit trail's digest does not match.",),
    "bad_limit": ("That list cannot be shown with that many rows.",),
    # -- the cage ------------------------------------------------------------------------------------
    "overpayment": ("{reference} has {left:money} left to pay: {amount:money} is too much.",
                    "That is more than is left to pay."),
}
FALLBACK = (f"The table cannot take that; if it persists, {_CALL_PIT}.",)


def placeholders(template: str) -> list[tuple[str, str | None]]:
    """The (name, kind) of every placeholder in a template."""
    return [(name, kind or None) for name, kind in PLACEHOLDER.findall(template)]


def currency() -> dict[str, Any]:
    """The house currency as the screens write amounts: its code, symbol (if it has a short one) and decimals."""
    code = settings.CROUPIER["CURRENCY"]
    return {"code": code, "symbol": SYMBOLS.get(str(code), ""), "digits": settings.CROUPIER["MINOR_UNIT_DIGITS"]}


def money(minor: int) -> str:
    """Minor units in major units with the currency: ``2500`` → ``€25.00``; ``-2500`` → ``-€25.00``;
    a currency without a short symbol after the amount (``25.00 CHF``)."""
    cur = currency()
    text = money_formatter(cur["digits"])(abs(int(minor)))
    sign = "-" if minor < 0 else ""
    return f"{sign}{cur['symbol']}{text}" if cur["symbol"] else f"{sign}{text} {cur['code']}"


def catalogue() -> dict[str, list[str]]:
    """The refusal wordings as the dealer screen receives them (JSON), with the fallback under ``""``."""
    return {**{code: list(texts) for code, texts in REFUSALS.items()}, "": list(FALLBACK)}


def wordings(code: str, params: dict[str, Any] | None = None) -> tuple[str, ...]:
    """The wordings to try for a refusal: those of its engine's reason first (``code:reason``), then the code's."""
    reason = (params or {}).get("reason")
    own = REFUSALS.get(f"{code}:{reason}", ()) if isinstance(reason, str) else ()
    return own + REFUSALS.get(code, FALLBACK if not own else ())


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
                return str(value)

            return PLACEHOLDER.sub(fill, template)
    return FALLBACK[0]
