"""The players screens: the directory and a player's ratings (pit managers, compliance), the compliance
page (the cash transaction log of a gaming day, its report lines, the exports). Thin: check who may
look, call selectors, render; every change goes through the JSON API (static/croupier/slips.js)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from accounting.selectors import credit_standing
from casino.core.roles import Role, has_role
from players import reports, selectors
from players.conf import knob
from players.models import Player, PlayerStatus, RatingSlip
from tables.selectors import current_shift, pit_tables
from tables.wording import money


def _forbidden(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "registration/forbidden.html", {"message": message}, status=403)


@login_required
@require_GET
def directory(request: HttpRequest) -> HttpResponse:
    """Search players; open a rating slip at one of the manager's tables."""
    if not has_role(request.user, Role.PIT_MANAGER, Role.COMPLIANCE):
        return _forbidden(request, gettext("the players directory is for pit managers and compliance"))
    q = str(request.GET.get("q", ""))[:100]
    page = Paginator(selectors.players_search(q=q), 50).get_page(request.GET.get("page"))
    tables = list(pit_tables(request.user).filter(status="open"))
    return render(
        request,
        "players/directory.html",
        {
            "q": q,
            "page": page,
            "tables": tables,
            "statuses": PlayerStatus.choices,
            "digits": settings.CROUPIER["MINOR_UNIT_DIGITS"],
            "live": selectors.rate_slips(selectors.live_slips(tables)) if tables else [],
        },
    )


@login_required
@require_GET
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    if not has_role(request.user, Role.PIT_MANAGER, Role.COMPLIANCE):
        return _forbidden(request, gettext("players are for pit managers and compliance"))
    player = get_object_or_404(Player.objects.prefetch_related("documents"), pk=pk)
    slips = (
        RatingSlip.objects.filter(player=player).select_related("table", "player", "shift").order_by("-opened_at")[:50]
    )
    # markers name the player by their card number or their name: the line in force under either
    found = (credit_standing(player.card_number) if player.card_number else None) or credit_standing(player.name)
    return render(
        request,
        "players/player.html",
        {
            "player": player,
            "rated": selectors.rate_slips(slips),
            "compliance": has_role(request.user, Role.COMPLIANCE),
            "credit": found and {"line": money(found.line.limit), "used": money(found.used),
                                 "available": money(found.available), "as": found.player},
            "sets_credit": has_role(request.user, Role.PIT_MANAGER, Role.ACCOUNTANT),
        },
    )


@login_required
@require_GET
def compliance(request: HttpRequest) -> HttpResponse:
    """A gaming day's cash transaction log: per player totals, the report lines, every transaction."""
    if not has_role(request.user, Role.COMPLIANCE):
        return _forbidden(request, gettext("the cash transaction log is for compliance"))
    raw = request.GET.get("gaming_date")
    try:
        day = dt.date.fromisoformat(raw) if raw else None
    except ValueError:
        day = None
    if day is None:
        shift = current_shift()
        day = shift.gaming_date if shift is not None else timezone.localdate()
    return render(
        request,
        "players/compliance.html",
        {
            "day": day,
            "totals": selectors.daily_totals(gaming_date=day),
            "lines": selectors.report_lines().filter(gaming_date=day).order_by("id"),
            "transactions": selectors.cash_transactions(gaming_date=day).order_by("recorded_at", "id"),
            "threshold": knob("CASH_REPORT_THRESHOLD"),
            "reports": [{"name": r.name, "title": r.title} for r in reports.REPORTS.values()],
        },
    )
