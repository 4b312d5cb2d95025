"""The audit trail's vocabulary in the reader's words: each action, object type, channel, chain and recorded
field a record can carry, as a phrase a person reads ("Round opened", "Bet placed"), in the reader's language.

The records keep their codes (``round.open``, ``rating_slip``, ``command``): they are hashed, filtered on and
exported as they are (the CSV). The screens, the PDF and the spreadsheet show these words instead. The codes
are strings written by every app (``audit_log(action=...)``), so their words live here, in the kernel, with no
import of the apps; tests/audit/test_labels.py reads the sources and fails on a code written anywhere
without a phrase here translated into every shipped language. A code this catalogue does not know (a record
from an older version) still reads as words, never as the bare code: :func:`code_words`.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from casino.core.roles import Role, role_label

# -- actions ---------------------------------------------------------------------------------------------------

SLIP_KINDS = ("fill", "credit")  # accounting's fill and credit slips: ``{kind}.request`` … ``{kind}.void``
COUNT_KINDS = ("opener", "closer")  # accounting's chip inventories: ``count.{kind}``
ADMIN_VERBS = ("add", "change", "delete", "action")  # the admin site's log entries: ``admin.{verb}``

ACTIONS: dict[str, Promise] = {
    # tables: rounds, bets, the dealer's entries, shoes, the floor
    "round.open": _("Round opened"),
    "round.close_betting": _("Betting closed"),
    "round.settle": _("Round settled"),
    "round.void_request": _("Void requested"),
    "round.void": _("Round voided"),
    "round.void_refuse": _("Void refused"),
    "round.pay_correct": _("Payout corrected"),
    "bet.place": _("Bet placed"),
    "bet.withdraw": _("Bet withdrawn"),
    "event.post": _("Card or decision entered"),
    "event.undo": _("Card or decision taken back"),
    "shoe.open": _("New shoe opened"),
    "table.update": _("Table settings changed"),
    "shift.open": _("Shift opened"),
    "assignment.create": _("Dealer assigned to a table"),
    "assignment.relieve": _("Dealer relieved from a table"),
    "pit.rotate": _("Dealers rotated in the pit"),
    # accounting: counts, slips, markers, closes, the ledger, alerts
    "chips.denominations": _("Chip denominations set"),
    "count.opener": _("Opening inventory counted"),
    "count.closer": _("Closing inventory counted"),
    "count.roll": _("Closing inventory carried into the next shift"),
    "count.recount": _("Chip inventory recounted"),
    "drop.count": _("Drop counted"),
    "drop.recount": _("Drop recounted"),
    "fill.request": _("Fill requested"),
    "fill.issue": _("Fill issued by the cage"),
    "fill.receive": _("Fill received at the table"),
    "fill.void_request": _("Fill void requested"),
    "fill.void": _("Fill voided"),
    "credit.request": _("Credit to the cage requested"),
    "credit.issue": _("Credit to the cage issued"),
    "credit.receive": _("Credit received by the cage"),
    "credit.void_request": _("Credit void requested"),
    "credit.void": _("Credit voided"),
    "marker.issue": _("Marker issued"),
    "marker.pay": _("Marker payment received"),
    "marker.write_off": _("Marker written off"),
    "credit_line.approve": _("Credit line approved"),
    "table.shift_close": _("Table closed for the shift"),
    "table.close_reopen": _("Table close reopened"),
    "shift.close": _("Shift closed"),
    "shift.reconcile": _("Shift reconciled"),
    "shift.reconcile_request": _("Shift reconciliation requested"),
    "day.roll": _("Tables rolled into the next shift"),
    "figures.realign": _("Table figures brought in line with the records"),
    "ledger.reverse": _("Ledger entry reversed"),
    "alert.raise": _("Alert raised"),
    "alert.acknowledge": _("Alert acknowledged"),
    "alert.resolve": _("Alert resolved"),
    "variance.accept": _("Variance accepted"),
    # players: the register, cash, rating slips
    "player.create": _("Player registered"),
    "player.update": _("Player details changed"),
    "player.document_add": _("Player's identity document added"),
    "cash.record": _("Cash transaction recorded"),
    "cash.report": _("Cash transaction report filed"),
    "slip.open": _("Rating slip opened"),
    "slip.pause": _("Rating slip paused"),
    "slip.resume": _("Rating slip resumed"),
    "slip.identify": _("Player named on a rating slip"),
    "slip.estimate": _("Average bet estimated"),
    "slip.buy_in": _("Buy-in at the seat recorded"),
    "slip.close": _("Rating slip closed"),
    "slip.rate": _("Rating slip rated"),
    # slots
    "slots.machine.create": _("Slot machine added"),
    "slots.machine.update": _("Slot machine changed"),
    "slots.reading.record": _("Slot meters read"),
    "slots.bonus.create": _("Slot bonus meter created"),
    "slots.bonus.update": _("Slot bonus meter changed"),
    "slots.bonus.hit": _("Slot bonus hit"),
    "slots.bonus.reset": _("Slot bonus meter reset"),
    "slots.progressive.create": _("Slot progressive created"),
    "slots.progressive.link": _("Machine linked to a progressive"),
    "slots.progressive.unlink": _("Machine unlinked from a progressive"),
    "slots.progressive.hit": _("Slot progressive hit"),
    # cardroom
    "sheet.open": _("Score sheet opened"),
    "sheet.deal": _("Deal entered on a score sheet"),
    "sheet.correct": _("Score sheet deal corrected"),
    "sheet.close": _("Score sheet closed"),
    "sheet.rake": _("Rake recorded"),
    "tournament.create": _("Tournament created"),
    "tournament.register": _("Player entered in a tournament"),
    "tournament.start": _("Tournament started"),
    "tournament.finish": _("Tournament finished"),
    "tournament.cancel": _("Tournament cancelled"),
    # the kernel: signing in, signatures, accounts, the admin site, the trail itself, exports
    "auth.login": _("Signed in"),
    "auth.login_failed": _("Sign-in failed"),
    "auth.logout": _("Signed out"),
    "auth.lockout": _("Sign-in locked after failed attempts"),
    "auth.unlock": _("Sign-in lock lifted"),
    "auth.token_revoke": _("Access tokens revoked"),
    "signature.lockout": _("Signing locked after wrong PINs"),
    "signature.refused": _("Signature refused"),
    "staff.pin_set": _("Signing PIN set"),
    "staff.language_set": _("Screen language chosen"),
    "user.create": _("Account created"),
    "user.privileges_change": _("Account's privileges changed"),
    "user.groups_change": _("Account's roles changed"),
    "user.permissions_change": _("Account's permissions changed"),
    "group.permissions_change": _("Role's permissions changed"),
    "admin.add": _("Added in the admin site"),
    "admin.change": _("Changed in the admin site"),
    "admin.delete": _("Deleted in the admin site"),
    "admin.action": _("Admin site action"),
    "audit.archive_month": _("Audit month archived"),
    "audit.restore_month": _("Audit month restored"),
    "export": _("Report exported"),
}

# set-up data added or changed through the admin site (casino.core.admin.AuditedAdmin): ``admin.<model>.<verb>``
ADMIN_MODEL_ACTIONS: dict[str, Promise] = {
    "add": _("%(object)s added in the admin site"),
    "change": _("%(object)s changed in the admin site"),
}

# -- object types ----------------------------------------------------------------------------------------------

OBJECT_TYPES: dict[str, Promise] = {
    "round": pgettext_lazy("audit", "Round"),
    "bet": _("Bet"),
    "shoe": _("Shoe"),
    "table": _("Table"),
    "pit": _("Pit"),
    "shift": _("Shift"),
    "shifttype": _("Shift type"),
    "assignment": _("Dealer assignment"),
    "chip_set": _("Chip set"),
    "inventory_count": _("Chip inventory"),
    "drop_count": _("Drop count"),
    "slip": _("Fill or credit slip"),
    "marker": _("Marker"),
    "credit_line": _("Credit line"),
    "table_shift_close": _("Table's shift close"),
    "table_close_reopening": _("Reopened table close"),
    "table_figures": _("Table figures"),
    "ledger_transaction": _("Ledger entry"),
    "alert": _("Alert"),
    "player": pgettext_lazy("audit", "Player"),
    "cash_transaction": _("Cash transaction"),
    "cash_report": _("Cash transaction report"),
    "rating_slip": _("Rating slip"),
    "slot_machine": _("Slot machine"),
    "slot_reading": _("Slot meter reading"),
    "slot_bonus_meter": _("Slot bonus meter"),
    "slot_progressive": _("Slot progressive"),
    "score_sheet": _("Score sheet"),
    "tournament": _("Tournament"),
    "user": _("Account"),
    "group": _("Role"),
    "staff": _("Staff member"),
    "login": _("Sign-in name"),
    "address": _("Terminal address"),
    "signature": _("Signature"),
    "report": _("Report"),
    "audit_archive": _("Audit archive"),
    "unknown": _("Unknown record"),
}

# -- where a record came from (casino.context.RequestContext.channel) -----------------------------------------

CHANNELS: dict[str, Promise] = {
    "web": _("Screen"),
    "api": _("Programming interface (API)"),
    "command": _("Command line"),
    "task": _("Background job"),
    "system": _("The system"),
}

# -- the recorded values' names (a record's Before and After) ------------------------------------------------

FIELDS: dict[str, Promise] = {
    "accountant": _("Accountant"), "acknowledged": _("Acknowledged"),
    "active_seconds": _("Seconds played"), "actual_win": _("Actual win"),
    "alert": _("Alert"), "amount": _("Amount"), "approved_by": _("Approved by"),
    "approver": _("Approved by"), "asset_number": _("Asset number"),
    "at_table": _("At table"), "average_bet": _("Average bet"),
    "average_bet_source": _("Average bet from"), "bets": _("Bets"),
    "burn": _("Burnt cards"), "buy_in": _("Buy-in"),
    "carried": _("Carried"), "carried_players": _("Players carried over"),
    "cash": _("Cash"), "cash_transaction": _("Cash transaction"),
    "causes": _("Causes"), "change": _("Change"), "checksum": _("Checksum"),
    "chips": _("Chips"), "close": _("Table close"), "code": _("Code"),
    "commission": _("Commission"), "comp_points": _("Comp points"),
    "comp_value": _("Comp value"), "config": _("Settings"),
    "confirmed_by": _("Confirmed by"), "contribution_bp": _("Contribution (basis points)"),
    "contributions": _("Contributions"), "correction": _("Correction"),
    "count_win": _("Count win"), "counters": pgettext_lazy("audit", "Counters"), "counts": _("Counts"),
    "crossing": _("Threshold crossed"), "cut_card": _("Cut card"),
    "deal": _("Deal"), "dealer": _("Dealer"), "deals": _("Deals"),
    "decisions": _("Decisions"), "decisions_per_hour": _("Decisions per hour"),
    "decks": _("Decks"), "deltas": _("Meter changes"),
    "denomination": _("Denomination"), "denominations": _("Chip denominations"),
    "description": _("Description"), "direction": _("Direction"),
    "discrepancy_gross": _("Discrepancy (gross)"), "discrepancy_net": _("Discrepancy (net)"),
    "document": _("Identity document"), "edge_used": _("House edge used"),
    "ends_at": _("Ends at"), "entries": _("Entries"), "entry": _("Entry"),
    "entry_fee": _("Entry fee"), "estimated_average_bet": _("Estimated average bet"),
    "event": _("Card or decision"), "events": _("Cards and decisions"),
    "expires_on": _("Expires on"), "failures": _("Failed attempts"),
    "fee": _("Fee"), "field": _("Field"), "flags": _("Flags"),
    "from": _("From"), "from_closer": _("From the closing inventory"),
    "game": _("Game"), "gaming_date": _("Gaming date"), "handle": _("Handle"),
    "hit": pgettext_lazy("audit", "Hit"), "hits": _("Hits"), "house": _("House"),
    "house_change": _("House's change"), "house_edge": _("House edge"),
    "house_fee": _("House fee"), "id": _("Id"), "issuer": _("Issued by"),
    "issuer_username": _("Issued by"), "keep_dealers": _("Dealers kept at their tables"),
    "key": _("Counter"), "kind": _("Kind"), "label": _("Label"),
    "language": _("Language"), "ledger_transaction": _("Ledger entry"),
    "left": _("Players left"), "limit": _("Limit"), "linked": _("Linked"),
    "location": _("Location"), "locked_until": _("Locked until"),
    "machine": _("Machine"), "machines": _("Machines"), "marker": _("Marker"),
    "markers": _("Markers"), "max_bet": _("Maximum bet"), "min_bet": _("Minimum bet"), "seats": _("Seats"), "measured_rounds": _("Rounds measured"),
    "memo": _("Memo"), "message": _("Message"), "meters": _("Meters"),
    "method": _("Paid with"), "month": _("Month"), "moves": _("Moves"),
    "name": _("Name"), "net": _("Net"), "next": pgettext_lazy("audit", "Next"),
    "note": _("Note"), "number": _("Number"), "object": _("Object"),
    "on_break": _("On break"), "outcome": _("Outcome"), "owed": _("Owed"),
    "paid": _("Paid"), "paid_by": _("Paid by"), "pause": pgettext_lazy("audit", "Pause"),
    "payment": _("Payment"), "payouts": _("Payouts"), "pin": _("PIN"),
    "pit": _("Pit"), "place": _("Place"), "player": pgettext_lazy("audit", "Player"),
    "players": pgettext_lazy("audit", "Players"), "points": _("Points"), "prize_pool": _("Prize pool"),
    "queued": _("Queued"), "rake": _("Rake"), "ram_clear": _("RAM clear"),
    "read_at": _("Read at"), "reason": _("Reason"), "receiver": _("Received by"),
    "receiver_username": _("Received by"), "reconciliation": _("Reconciliation"),
    "records": _("Records"), "reference": _("Reference"), "refunds": _("Refunds"),
    "relieved_at": _("Relieved at"), "remainder": _("Remainder"),
    "replaced_by": _("Replaced by"), "request_reason": _("Reason given"),
    "requested_by": _("Requested by"), "requester": _("Requested by"),
    "requester_username": _("Requested by"), "reset_value": _("Reset value"),
    "resolved": _("Resolved"), "result": _("Result"), "reversal": _("Reversal"),
    "round": pgettext_lazy("audit", "Round"), "scope": _("Scope"), "seat": _("Seat"),
    "second": _("Second signer"), "seconds": _("Seconds"), "seq": _("Sequence"),
    "severity": _("Severity"), "shift": _("Shift"), "shoe": _("Shoe"),
    "signer": _("Signed by"), "signer_username": _("Signed by"),
    "slip": _("Slip"), "starts_at": _("Starts at"), "status": _("Status"),
    "supersedes_close": _("Replaces the close"), "supervisor": _("Supervisor"),
    "table": _("Table"), "tables": _("Tables"), "tables_closed": _("Tables closed"),
    "tables_results": _("Tables' results"), "target": _("Target"),
    "theo_assumed": _("Theoretical win (assumed edge)"),
    "theo_measured": _("Theoretical win (measured edge)"),
    "theoretical_win": _("Theoretical win"), "threshold": _("Threshold"),
    "to": _("To"), "token": _("Access token"), "total": _("Total"),
    "totals": _("Totals"), "tournament": _("Tournament"),
    "transaction": _("Transaction"), "transactions": _("Transactions"),
    "tray_empty": _("Tray emptied"), "type": _("Type"), "unit": _("Unit"),
    "unlinked": _("Unlinked"), "until": _("Until"), "username": _("User name"),
    "value": _("Value"), "variance": _("Variance"), "walk_with": _("Walked with"),
    "who": _("Who"), "winner": _("Winner"), "withdrawn": _("Withdrawn"),
    "written_off": _("Written off"),
    # accounts (the user records' fields) and a round's cards, prompts and outcome
    "groups": _("Roles"), "is_active": _("Active"), "is_staff": _("May use the admin site"),
    "is_superuser": _("Superuser"), "card": _("Card"), "say": _("Prompt"), "expect": _("Expected"),
    "params": _("Details"), "banker": _("Banker"), "natural": _("Natural"), "banker_pair": _("Banker pair"),
    "player_pair": _("Player pair"), "chip": _("Smallest chip"), "tie_pays": _("Tie pays"),
    "pair_bets": _("Pair bets"), "pair_pays": _("Pair pays"), "commission_bp": _("Commission (basis points)"),
    "commission_rounding": _("Commission rounding"), "commission_collection": _("Commission collected"),
}

# recorded values that are codes of the games rather than of a model's choices (those read as their labels,
# casino.audit.exports): a bet's side and its result, as the pit's screens say them (floor's RESULTS)
VALUES: dict[str, Promise] = {
    "player": _("Player"), "banker": _("Banker"), "tie": _("Tie"),
    "win": _("Won"), "lose": _("Lost"), "loss": _("Lost"), "push": _("Push (stake returned)"),
}


def recorded_value_label(code: str) -> str | None:
    """A recorded value's words where it is one of :data:`VALUES`; None otherwise."""
    return str(VALUES[code]) if code in VALUES else None


CASINO_CHAIN = "casino"  # casino.audit.services.CASINO_CHAIN: every record not of one table
TABLE_CHAIN = "table:"  # casino.audit.services.chain_for_table


def code_words(code: Any) -> str:
    """A code this catalogue does not know, as words: ``round.void`` → "Round · void" (never the bare code)."""
    parts = [p.replace("_", " ").strip() for p in str(code or "").split(".") if p]
    text = " · ".join(parts)
    return text[:1].upper() + text[1:] if text else "—"


def action_label(code: str) -> str | None:
    """The phrase of an action code in the reader's language; None where the catalogue has none."""
    if code in ACTIONS:
        return str(ACTIONS[code])
    parts = code.split(".")
    if len(parts) == 3 and parts[0] == "admin" and parts[2] in ADMIN_MODEL_ACTIONS:
        return str(ADMIN_MODEL_ACTIONS[parts[2]]) % {"object": object_words(parts[1])}
    return None


def action_words(code: Any) -> str:
    """An action as a person reads it: ``round.open`` → "Round opened" ("Ronda abierta")."""
    return action_label(str(code or "")) or code_words(code)


def object_label(code: str) -> str | None:
    """The words of an object type; an admin log entry's ``app.model`` as the model's own name."""
    if code in OBJECT_TYPES:
        return str(OBJECT_TYPES[code])
    if code.count(".") == 1:
        app_label, model_name = code.split(".")
        if model_name in OBJECT_TYPES:
            return str(OBJECT_TYPES[model_name])
        try:
            name = str(apps.get_model(app_label, model_name)._meta.verbose_name)
        except LookupError:
            return None
        return name[:1].upper() + name[1:]
    return None


def object_words(code: Any) -> str:
    """An object type as a person reads it: ``rating_slip`` → "Rating slip" ("Ficha de valoración")."""
    return object_label(str(code or "")) or code_words(code)


def channel_label(code: str) -> str | None:
    return str(CHANNELS[code]) if code in CHANNELS else None


def channel_words(code: Any) -> str:
    """Where a record came from: ``web`` → "Screen", ``command`` → "Command line"."""
    return channel_label(str(code or "")) or code_words(code)


def device_words(device: Any, table_code: str = "") -> str:
    """The device a record came from, shortened where it only repeats what the reader sees already: the demo's
    writer (``demo:BACCARAT-1`` on that table's page) reads "Demo"; a device named after the record's table
    (``…:BACCARAT-1``) loses the table. Anything else (a terminal's id) is shown as it is; "" for none."""
    text = str(device or "")
    if table_code and text.endswith(f":{table_code}"):
        text = text[: -len(table_code) - 1]
    head = text.split(":", 1)[0]
    if head == "demo":
        return gettext("Demo")
    return text


def origin_words(channel: Any, device: Any, table_code: str = "") -> str:
    """A record's origin in one line: the channel's words, then the device where it says something more."""
    device_text = device_words(device, table_code)
    return " · ".join(x for x in (channel_words(channel), device_text) if x)


def chain_words(chain: Any) -> str:
    """A chain by what it holds: ``table:BACCARAT-1`` → "Table BACCARAT-1", ``casino`` → "Casino-wide"."""
    text = str(chain or "")
    if text == CASINO_CHAIN:
        return gettext("Casino-wide")
    if text.startswith(TABLE_CHAIN):
        return gettext("Table %(table)s") % {"table": text[len(TABLE_CHAIN):]}
    return code_words(text)


# the roles a record can carry that are not a person's role (casino.audit.services.audit_log)
ACTOR_ROLES: dict[str, Promise] = {
    "system": _("The system"),
    "anonymous": _("Someone not signed in"),
    "": _("No role"),
}


def role_words(code: Any) -> str:
    """The role a record was written under: a staff role's label, the system, someone not signed in."""
    text = str(code or "")
    if text in ACTOR_ROLES:
        return str(ACTOR_ROLES[text])
    if text in {r.value for r in Role}:
        return role_label(text)
    return code_words(text)


def field_words(key: Any) -> str:
    """A recorded value's name as words: ``estimated_average_bet`` → "Estimated average bet", translated."""
    text = str(key)
    if text in FIELDS:
        return str(FIELDS[text])
    if text.isdigit():
        return text
    words = text.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def all_codes() -> dict[str, dict[str, Promise]]:
    """Every code with a phrase, by kind (actions, object types, channels, fields): the test's and the docs' list."""
    return {"action": dict(ACTIONS), "object_type": dict(OBJECT_TYPES), "channel": dict(CHANNELS),
            "actor_role": dict(ACTOR_ROLES), "field": dict(FIELDS), "value": dict(VALUES)}
