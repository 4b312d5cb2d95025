"""Template helpers for the screens: money and percentages exactly (integers in), cards, the role menu."""

from __future__ import annotations

import json
import os
from fractions import Fraction
from typing import Any

from django import template
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounting.money import chip_words, chips_words, money_words, percent_words
from casino.audit import labels as audit_labels
from casino.core.roles import Role, has_role, role_label, roles_of
from casino.idempotency import FORM_FIELD, new_form_key
from casino.money import format_conf, number_words
from casino.words import shift_words as words_of_shift
from casino.words import when_words
from floor.labels import alert_text
from floor.selectors import waiting_for
from tables import wording
from tables.engines.result import RoundResult
from tables.models import GAME_CHOICES
from tables.selectors import worded_state

register = template.Library()
GAME_LABELS = dict(GAME_CHOICES)

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}


@register.filter
def money(value: Any) -> str:
    """Minor units as money in the one format (``accounting.money.money_words``: ``250000`` → ``€2,500.00``,
    by the active language); a dash for None."""
    if value is None or value == "":
        return "—"
    return money_words(int(value))


@register.filter
def currency(value: Any) -> str:
    """The same as :func:`money` (the screens once had two formats; both names write the one)."""
    return money(value)


@register.simple_tag
def money_conf() -> str:
    """The one money format for the screens' JavaScript, as a ``data-money`` attribute (casino.money.format_conf,
    read by static/croupier/money.js)."""
    return format_html('data-money="{}"', json.dumps(format_conf()))


@register.filter
def number(value: Any) -> str:
    """Minor units as the number alone, for a column whose heading names the currency; a dash for None."""
    if value is None or value == "":
        return "—"
    return money_words(int(value), symbol=False)


@register.filter
def alert_words(alert: Any) -> str:
    """An alert's sentence in the reader's language (``floor.labels``)."""
    return alert_text(alert)


@register.filter
def whole(value: Any) -> str:
    """A whole number (games played, a count, hits) as the reader's language groups it (``12,000``,
    ``12 000`` in Spanish); a dash for None."""
    if value is None or value == "":
        return "—"
    try:
        return number_words(int(value), 0)
    except (TypeError, ValueError):
        return str(value)


@register.filter
def percent(value: Fraction | None) -> str:
    return percent_words(value)


@register.filter
def chip(value: Any) -> str:
    """A chip's value: ``50000`` → ``€500`` (``accounting.money.chip_words``)."""
    return "—" if value is None or value == "" else chip_words(int(value))


@register.filter
def chips(value: Any) -> str:
    """A slip's or count's chips, ``{"50000": 2, "2500": 4}`` → ``2 × €500, 4 × €25`` (highest value first)."""
    if not isinstance(value, dict):
        return "—" if not value else str(value)
    pairs = sorted(((int(d), int(n)) for d, n in value.items() if int(n)), reverse=True)
    return ", ".join(chips_words(d, n) for d, n in pairs) or "—"


@register.filter
def card(code: Any) -> str:
    """``"TS"`` → ``"10♠"``; a triangle-deck card ("7") or anything else unchanged."""
    text = str(code)
    if len(text) == 2 and text[1] in SUITS:
        return ("10" if text[0] == "T" else text[0]) + SUITS[text[1]]
    return text


@register.filter
def card_name(code: Any) -> str:
    """``"TS"`` → ``"10 of spades"`` for screen readers."""
    text = str(code)
    if len(text) == 2 and text[1] in SUITS:
        return f"{RANK_NAMES.get(text[0], text[0])} of {SUIT_NAMES[text[1]]}"
    return text


@register.filter
def person(user: Any) -> str:
    """A member of staff by name, as they sign (their profile's display name, else their full name, else their
    username); never their employee id. A dash for nobody."""
    if user is None or user == "":
        return "—"
    profile = getattr(user, "staff", None)
    name = getattr(profile, "display_name", "") if profile is not None else ""
    full = user.get_full_name() if hasattr(user, "get_full_name") else ""
    return str(name or full or user.get_username())


@register.filter
def game(code: Any) -> str:
    """A game's code (``pai_gow_poker``) as its name (``Pai Gow Poker``): the tables' own choices
    (``tables.models.GAME_CHOICES``), in the reader's language."""
    return str(GAME_LABELS.get(str(code), words(code))) if code else "—"


@register.filter
def role(code: Any) -> str:
    """A role's code as a person reads it (``casino.core.roles.role_label``)."""
    return role_label(code) if code else "—"


@register.filter
def words(code: Any) -> str:
    """A code the casino has no label for yet as words (``house_way`` → ``House way``): never the code."""
    text = str(code or "").replace("_", " ").replace(".", " · ").strip()
    return text[:1].upper() + text[1:]


@register.filter
def audit_action(code: Any) -> str:
    """An audit record's action as the reader says it (``round.open`` → "Round opened"; casino.audit.labels)."""
    return audit_labels.action_words(code)


@register.filter
def audit_origin(record: Any) -> str:
    """Where an audit record came from: the channel's words, and the device where it adds something (the demo's
    ``demo:BACCARAT-1`` on that table's own page reads "Demo")."""
    return audit_labels.origin_words(record.channel, record.device, getattr(record, "table_code", ""))


RESULTS = {"win": _("Won"), "lose": _("Lost"), "loss": _("Lost"), "push": _("Push (stake returned)"),
           "tie": _("Tie"), "void": _("Voided"), "returned": _("Returned"),
           "surrender": _("Surrendered"), "forfeit": _("Forfeited"), "anted": _("Anted"), "split": _("Split"),
           "foul": _("Foul"), "copy": _("Copy (goes to the banker)"), "bust": _("Bust")}


@register.filter
def result_words(code: Any) -> str:
    """A settled bet's result as the pit reads it (``push`` → ``Push (stake returned)``)."""
    if code is None or code == "":
        return "—"
    found = RESULTS.get(str(code))
    return str(found) if found is not None else words(code)


@register.filter
def bet_words(bet: Any, specs: Any) -> str:
    """A bet's type and what it is on, in the layout's words: ``Rank 10 · Coppered (bet to lose)``."""
    spec = (specs or {}).get(getattr(bet, "type", "")) if isinstance(specs, dict) else None
    name = wording.label_words((spec or {}).get("label") or words(getattr(bet, "type", "")))
    extra = getattr(bet, "extra", None) or {}
    if not isinstance(extra, dict) or not extra:
        return str(name)
    labels = {f.get("name"): f for f in (spec or {}).get("fields", [])}
    parts = [str(name)]
    for key, value in extra.items():
        fld = labels.get(key) or {}
        label = wording.label_words(fld.get("label") or words(key))
        if isinstance(value, bool):
            if value:
                parts.append(str(label))
            continue
        shown = {str(r.get("value")): r.get("label") for r in fld.get("ranks", []) if isinstance(r, dict)}
        if isinstance(value, list):
            text = ", ".join(shown.get(str(v)) or card(v) for v in value)
        else:
            text = shown.get(str(value)) or (money(value) if fld.get("kind") == "money" else card(value))
        parts.append(f"{label} {text}")
    return " · ".join(parts)


@register.filter
def shift_words(shift: Any) -> str:
    """A shift as the casino names it (``casino.words.shift_words``: ``Nov. 27, 2026 · Day``)."""
    return words_of_shift(shift)


@register.filter
def when(moment: Any) -> str:
    """A moment in the casino's time zone and the language's date format (``casino.words.when_words``)."""
    return when_words(moment)


@register.filter
def when_exact(moment: Any) -> str:
    """:func:`when` to the second (an audit record's moment)."""
    return when_words(moment, seconds=True)


@register.filter
def as_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _url(*names: str) -> str | None:
    for name in names:
        try:
            return reverse(name)
        except NoReverseMatch:
            continue
    return None


# URL names the accounting pages may use, in order of preference (the first that exists is linked)
ACCOUNTING_PAGES = ("accounting-web:index", "accounting_web:index", "accounting-reports-page", "accounting-home")


def accounting_home() -> str | None:
    return _url(*ACCOUNTING_PAGES)


@register.simple_tag(takes_context=True)
def role_links(context: dict[str, Any]) -> list[dict[str, Any]]:
    """The sections the signed-in user's roles open, the current one marked."""
    request = context.get("request")
    user = getattr(request, "user", None)
    links: list[tuple[str, str]] = []  # labels in the reader's language
    if user is not None and roles_of(user):
        if Role.DEALER in roles_of(user):
            links.append((gettext("Dealer screen"), reverse("dealer-home")))
        if has_role(user, Role.PIT_MANAGER):
            links.append((gettext("Pit dashboard"), reverse("pit-dashboard")))
        elif Role.SHIFT_MANAGER in roles_of(user):  # no pit of their own: the day's screen is theirs (pit managers
            links.append((gettext("The day"), reverse("pit-day")))  # reach it from the pit's menu)
        if has_role(user, Role.ACCOUNTANT):
            page = accounting_home()
            links.append((gettext("Accounting"), page) if page else (gettext("Reports"), reverse("reports-home")))
            if _url("accounting-web:queue"):
                links.append((gettext("Queue"), reverse("accounting-web:queue")))
        if Role.CASHIER in roles_of(user) and _url("accounting-web:cage-desk"):
            links.append((gettext("Cage desk"), reverse("accounting-web:cage-desk")))
        if has_role(user, Role.PIT_MANAGER, Role.ACCOUNTANT, Role.CASHIER, Role.COUNT_TEAM) and _url(
                "accounting-web:cage-counts"):
            links.append((gettext("Cage"), reverse("accounting-web:cage-counts")))
        if has_role(user, Role.PIT_MANAGER, Role.SHIFT_MANAGER, Role.ACCOUNTANT, Role.AUDITOR) and _url(
                "accounting-web:shifts"):
            links.append((gettext("Closing"), reverse("accounting-web:shifts")))
        if has_role(user, Role.DEALER, Role.PIT_MANAGER, Role.ACCOUNTANT) and _url("cardroom-web:index"):
            links.append((gettext("Card room"), reverse("cardroom-web:index")))
        if has_role(user, Role.PIT_MANAGER, Role.ACCOUNTANT, Role.AUDITOR) and _url("slots-web:index"):
            links.append((gettext("Slots"), reverse("slots-web:index")))
        if has_role(user, Role.PIT_MANAGER, Role.COMPLIANCE) and _url("players-directory"):
            links.append((gettext("Players"), reverse("players-directory")))
        if has_role(user, Role.COMPLIANCE) and _url("players-compliance"):
            links.append((gettext("Cash log"), reverse("players-compliance")))
        if has_role(user, Role.AUDITOR):
            audit = _url("audit-index")
            if audit:
                links.append((gettext("Audit trail"), audit))
        if has_role(user, Role.PIT_MANAGER) and _url("staff-lockouts"):
            links.append((gettext("Lockouts"), reverse("staff-lockouts")))
    path = getattr(request, "path", "")
    here = max((url for _, url in links if path.startswith(url)), key=len, default=None)  # the most specific
    return [{"label": label, "url": url, "current": url == here} for label, url in links]


def _hand_label(name: str) -> str:
    parts = name.split(":")
    if parts[0] == "seat" and len(parts) == 3:
        return f"Seat {parts[1]} hand {int(parts[2]) + 1}"
    if parts[0] in ("seat", "hand") and len(parts) == 2:
        return f"{parts[0].title()} {parts[1]}"
    return name.replace("_", " ").capitalize()


@register.filter
def event_text(payload: Any) -> str:
    """One round event in words: ``{"card": "9S"}`` → ``9♠``; a choice → ``Seat 2: hit``."""
    if not isinstance(payload, dict):
        return str(payload)
    if "card" in payload:
        to = payload.get("to")
        return card(payload["card"]) + (f" to {_hand_label(str(to))}" if to else "")
    if "action" in payload:
        who = f"Seat {payload['seat']}" if payload.get("seat") is not None else "Dealer"
        hand = f" hand {int(payload['hand']) + 1}" if isinstance(payload.get("hand"), int) else ""
        more = f" ({str(payload['result']).replace('_', ' ')})" if payload.get("result") else ""
        return f"{who}{hand}: {str(payload['action']).replace('_', ' ')}{more}"
    if isinstance(payload.get("bet"), dict):
        bet = payload["bet"]
        return gettext("Bet: seat %(seat)s %(type)s %(amount)s") % {
            "seat": bet.get("seat"), "type": words(bet.get("type")), "amount": money(bet.get("amount"))}
    return " · ".join(f"{words(key)}: {_value_words(value)}" for key, value in payload.items())


def _value_words(value: Any) -> str:
    """A value of an event as read: cards as cards, lists joined, codes as words (never JSON)."""
    if isinstance(value, list):
        return ", ".join(_value_words(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{words(k)} {_value_words(v)}" for k, v in value.items())
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, str):
        return card(value) if len(value) == 2 and value[1] in SUITS else words(value)
    return str(value)


@register.filter
def hands_text(state: Any) -> str:
    """The hands of an engine answer in one line: ``Player 9♠ 5♦ (4) · Banker K♥ (0)``."""
    answer = RoundResult.of_stored(state)
    if answer is None:
        return ""
    parts = []
    for hand in answer.hands.shown():
        cards = " ".join(card(c) for c in hand.cards)
        total = f" ({hand.total})" if hand.total is not None else ""
        parts.append(f"{_hand_label(hand.name)} {cards}{total}".strip())
    return " · ".join(parts)


@register.filter
def state_say(state: Any) -> str:
    answer = RoundResult.of_stored(state)
    if answer is None:
        return ""
    step = answer.next
    if step is not None and step.say:  # the engine's words in the reader's language (tables.wording)
        return wording.prompt(step.said())
    if answer.more.say:
        return wording.prompt(state)
    return words(answer.status.value)


@register.filter
def round_say(rnd: Any) -> str:
    """``{{ round|round_say }}``: what a round says now (its step due, or how it ended) in the reader's words,
    a round stored before steps carried message ids included (``tables.selectors.worded_state``)."""
    return state_say(worded_state(rnd)) if rnd is not None else ""


@register.filter
def get_line(lines: dict[int, Any], bet_id: int) -> Any:
    return lines.get(bet_id) if isinstance(lines, dict) else None


@register.simple_tag
def form_key() -> str:
    """A form's hidden once-only key (casino.idempotency.once_per_form): submitted twice, it writes once."""

    return format_html('<input type="hidden" name="{}" value="{}">', FORM_FIELD, new_form_key())


@register.simple_tag(takes_context=True)
def pit_waiting(context: dict[str, Any]) -> dict[str, int]:
    """How many voids and new alerts wait for the signed-in pit manager (the pit screens' menu shows them)."""

    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not has_role(user, Role.PIT_MANAGER):
        return {"voids": 0, "alerts": 0}
    return waiting_for(user)


def demo_day_writer() -> int | None:
    """The process writing the demo's day (``demo --background``), while it runs; None otherwise."""
    from django.conf import settings

    marker = getattr(settings, "DEMO_DAY_MARKER", "")
    try:
        with open(marker) as f:
            pid = int(f.read().strip() or 0)
    except (OSError, ValueError):
        return None
    if pid <= 0:
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:  # alive, another user's
        return pid
    return pid


@register.inclusion_tag("_demo_banner.html")
def demo_day_banner() -> dict[str, Any]:
    """On every screen while the demo's day is being written: its figures are not all there yet."""
    return {"writing": demo_day_writer() is not None}
