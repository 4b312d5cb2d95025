"""The card-room screens: the sheets a user may see, one sheet (enter a deal, the running totals, the
winner), a tournament's standings. Read-only pages; every change goes through the JSON API
(``/api/cardroom/…``, static/cardroom/sheet.js), so it runs the same services, idempotency and audit.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from cardroom import selectors
from cardroom import wording as words
from cardroom.models import ScoreSheet, SheetStatus, Tournament, TournamentStatus
from casino.core.roles import Role, has_role, roles_of
from casino.errors import Forbidden
from casino.money import number_words
from tables.access import ensure_can_deal, manages_table
from tables.scoring.registry import all_games, get_game
from tables.selectors import visible_tables

READERS = (Role.DEALER, Role.PIT_MANAGER, Role.ACCOUNTANT, Role.AUDITOR)

# the entry form each game gets on the sheet page; every other game: the fields its engine declares ("fields")
FORMS = {
    "hearts": "hearts",
    "cancellation_hearts": "hearts",
    "domino_hearts": "hearts",
    "hearts_without_black_lady": "hearts",
    "omnibus_hearts": "hearts",
    "auction_hearts": "auction",
    "carousel_rummy": "rummy",
    "crazy_casino": "casino",
}


def _words(code: Any) -> str:
    text = str(code).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def setting_fields(game: Any) -> list[dict[str, Any]]:
    """A game's settings as labelled fields (its own words and limits), for the sheet's opening form:
    nobody types JSON. The score sheet's engine still judges every value (a refusal is shown in words)."""
    fields = []
    for s in game.settings:
        kind = s.kind.value
        limits = ""
        low = None if s.minimum is None else number_words(int(s.minimum), 0)
        high = None if s.maximum is None else number_words(int(s.maximum), 0)
        if low is not None and high is not None:
            limits = gettext("from {low} to {high}").format(low=low, high=high)
        elif low is not None:
            limits = gettext("at least {low}").format(low=low)
        elif high is not None:
            limits = gettext("at most {high}").format(high=high)
        fields.append({
            "name": s.name, "label": words.setting_label(s.name), "kind": kind, "default": s.default,
            "help": words.setting_help(str(s.help)),
            "minimum": s.minimum, "maximum": s.maximum, "limits": limits,
            "choices": [(c, words.choice_words(c)) for c in s.choices],
            "entries": [(k, words.chart_line_words(k), v) for k, v in s.default.items()]
            if isinstance(s.default, dict) else [],
        })
    return fields


def entry_fields(game: Any, players: list[str], config: dict[str, Any], sides: list[str]) -> list[dict[str, Any]]:
    """A game's deal entry as labelled fields (``ScoredGame.entry_fields``, tables/scoring/entry.py): labels in the
    reader's words, a player chosen from the sheet's players (or sides) by name, bids and suits in words, numbers
    with their limits. sheet.js assembles the entry from them; nobody types JSON."""
    out = []
    for f in game.entry_fields(players, config):
        worded = words.suit_words if f.kind == "suit" else words.bid_words
        out.append({
            **f.as_json(), "label": gettext(f.label),
            "names": sides if f.of == "sides" or f.kind == "per_side" else players,
            "options": [(c, worded(c)) for c in f.choices],
            "keep": " ".join(f.keep),
        })
    return out


def _titled(objects: Any) -> list[Any]:
    """Sheets or tournaments, each with its game's title (``game_title``) for the page to show."""
    games = all_games()
    out = list(objects)
    for obj in out:
        game = games.get(obj.game)
        obj.game_title = game.title if game is not None else _words(obj.game)
    return out


def _settings_words(game: Any, config: dict[str, Any]) -> list[tuple[str, str]]:
    """A sheet's settings as a person reads them: the rule's name and its value in words."""
    out = []
    for f in setting_fields(game):
        if f["name"] not in config:
            continue
        value = config[f["name"]]
        if f["kind"] == "choice":
            value = words.choice_words(value)
        elif isinstance(value, bool):
            value = gettext("yes") if value else gettext("no")
        elif isinstance(value, dict):
            value = ", ".join(f"{words.chart_line_words(k)}: {words.number(v)}" for k, v in value.items())
        elif isinstance(value, int):
            value = words.number(value)
        out.append((f["label"], "—" if value is None else str(value)))
    return out


def _forbidden(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "registration/forbidden.html", {"message": message}, status=403)


def _can_score(user: Any, table: Any) -> bool:
    try:
        ensure_can_deal(user, table)
    except Forbidden:
        return False
    return True


@login_required
@require_GET
def index(request: HttpRequest) -> HttpResponse:
    if not has_role(request.user, *READERS):
        return _forbidden(request, "the card room is for staff")
    sheets = selectors.visible_sheets(request.user).order_by("-id")
    scorer = Role.DEALER in roles_of(request.user) or has_role(request.user, Role.PIT_MANAGER)
    tables = (
        [t for t in visible_tables(request.user).select_related("pit") if _can_score(request.user, t)] if scorer else []
    )
    return render(
        request,
        "cardroom/index.html",
        {
            "open_sheets": _titled(sheets.filter(status=SheetStatus.OPEN)[:50]),
            "ended_sheets": _titled(sheets.exclude(status=SheetStatus.OPEN)[:30]),
            "tournaments": _titled(Tournament.objects.select_related("pit").order_by("-id")[:20]),
            "tables": tables,
            "games": [{**g.describe(), "fields": setting_fields(g)} for _, g in sorted(all_games().items())],
        },
    )


def _rows(sheet: ScoreSheet) -> list[dict]:
    """Each deal of the replay: points and running totals in the sides' order."""
    state = sheet.state or {}
    sides = state.get("sides") or sheet.players
    return [
        {
            "deal": row["deal"] + 1,
            "cells": [(row["points"].get(s, 0), row["totals"].get(s, 0)) for s in sides],
            "notes": words.row_notes(row),
        }
        for row in state.get("deals", [])
    ]


@login_required
@require_GET
def sheet(request: HttpRequest, pk: int) -> HttpResponse:
    obj = get_object_or_404(ScoreSheet.objects.select_related("table__pit", "tournament", "opened_by"), pk=pk)
    if not selectors.can_view_sheet(request.user, obj):
        return _forbidden(request, f"you may not see the sheets of table {obj.table.code}")
    game = get_game(obj.game)
    game_rules = game
    state = obj.state or {}
    sides = state.get("sides") or game.sides(obj.players, obj.config or {})
    can_score = _can_score(request.user, obj.table)
    # while the game is on its scorers correct it; once it has ended, only a pit manager (as the service says)
    can_correct = can_score if obj.status == SheetStatus.OPEN else manages_table(request.user, obj.table)
    if obj.tournament is not None and obj.tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        can_correct = False  # its sheets are final
    log = selectors.sheet_entries(obj)
    return render(
        request,
        "cardroom/sheet.html",
        {
            "sheet": obj,
            "game": game.describe(),
            "sides": sides,
            "rows": _rows(obj),
            "totals": [obj.totals.get(s, 0) for s in sides],
            "log": [{**e, "entry_words": words.deal_entry_words(e["entry"]),
                     "points_words": ", ".join(f"{who}: {n}" for who, n in (e["points"] or {}).items())}
                    for e in log],
            # the entry in force for each deal (deal number → entry): the correction form is filled in with it
            "deals_in_force": {e["deal"] + 1: e["entry"] for e in log if e["in_force"]},
            "settings": _settings_words(game_rules, obj.config or {}),
            "digits": settings.CROUPIER["MINOR_UNIT_DIGITS"],
            "currency": settings.CROUPIER["CURRENCY"],
            "form": FORMS.get(obj.game, "fields"),
            "entry_fields": entry_fields(game, list(obj.players), obj.config or {}, list(sides)),
            "can_score": can_score and obj.status == SheetStatus.OPEN,
            "can_correct": can_correct,
            "redeal_by": (state.get("state") or {}).get("bidder"),
            "omnibus": obj.game == "omnibus_hearts",
            "cancellation": obj.game == "cancellation_hearts",
            "queen": obj.game in ("hearts", "omnibus_hearts")
            or (obj.game == "domino_hearts" and obj.config.get("queen_scores")),
            "rakes": obj.rakes.order_by("id"),
        },
    )


@login_required
@require_GET
def tournament(request: HttpRequest, pk: int) -> HttpResponse:
    if not has_role(request.user, *READERS):
        return _forbidden(request, "the card room is for staff")
    obj = get_object_or_404(Tournament.objects.select_related("pit"), pk=pk)
    return render(
        request,
        "cardroom/tournament.html",
        {
            "tournament": _titled([obj])[0],
            "detail": selectors.tournament_detail(obj),
            "sheets": obj.sheets.select_related("table").order_by("-id"),
        },
    )
