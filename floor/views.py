"""The screens: sign-in and the role's home, the dealer's table, the pit manager's floor.

Thin, like the API: check who may look, call selectors, render. Every change a screen makes goes
through the JSON API (``/api/rounds/…``), so it runs the same services, idempotency and audit.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from accounting.money import currency
from accounting.reports.definitions import REPORTS
from accounting.services.counts import denominations_for
from casino.core.roles import Role, has_role, roles_of
from casino.errors import Forbidden
from floor import selectors as dashboard
from floor.templatetags.croupier import _url, accounting_home
from tables import wording
from tables.access import ensure_can_deal
from tables.engines.registry import get_engine
from tables.models import Round, Table
from tables.selectors import current_shift, pit_tables
from tables.serializers import RoundSerializer

FLOOR_VIEWERS = (Role.PIT_MANAGER, Role.ACCOUNTANT, Role.AUDITOR)


def _forbidden(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "registration/forbidden.html", {"message": message}, status=403)


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Each role lands on its own screen."""
    user = request.user
    held = roles_of(user)
    if has_role(user, Role.PIT_MANAGER):
        return redirect("pit-dashboard")
    if Role.DEALER in held:
        return redirect("dealer-home")
    if Role.ACCOUNTANT in held:
        return redirect(accounting_home() or reverse("reports-home"))
    if Role.COMPLIANCE in held and _url("players-compliance"):
        return redirect("players-compliance")
    if Role.AUDITOR in held and _url("audit-index"):
        return redirect("audit-index")
    return render(request, "registration/home.html", {"no_role": True})


@login_required
@require_GET
def reports_home(request: HttpRequest) -> HttpResponse:
    """The accountant's landing until the accounting pages exist: the reports the API serves."""
    if not has_role(request.user, Role.ACCOUNTANT):
        return _forbidden(request, "reports are for accountants")
    page = accounting_home()
    if page:
        return redirect(page)
    reports: list[dict[str, Any]] = []
    if _url("reports"):
        reports = [
            {"name": r.name, "title": r.title, "url": reverse("report", kwargs={"name": r.name})}
            for r in REPORTS.values()
        ]
    return render(request, "registration/home.html", {"reports": reports})


# -- the dealer --------------------------------------------------------------------------------


@login_required
@require_GET
def dealer_home(request: HttpRequest) -> HttpResponse:
    """The dealer's screen opens on the table they are assigned to now, and only that one."""
    if not has_role(request.user, Role.DEALER, Role.PIT_MANAGER):
        return _forbidden(request, "the dealer screen is for dealers")
    assignment = dashboard.dealer_assignment(request.user)
    if assignment is not None:
        return redirect("dealer-table", code=assignment.table.code)
    return render(request, "dealer/unassigned.html", {}, status=200)


@login_required
@require_GET
def dealer_table(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table.objects.select_related("pit"), code=code)
    try:
        ensure_can_deal(request.user, table)
    except Forbidden as exc:
        return _forbidden(request, exc.message)
    rnd = dashboard.live_round(table) or dashboard.last_round(table)
    boot = {
        "table": {
            "id": table.pk,
            "code": table.code,
            "name": table.name,
            "game": table.game,
            "seats": table.seats,
            "min_bet": table.min_bet,
            "max_bet": table.max_bet,
            "status": table.status,
        },
        "round": RoundSerializer(rnd).data if rnd is not None else None,
        "bet_types": dashboard.layout_bets(table.game),
        "chips": denominations_for(table),
        "deck": dashboard.deck_of(table.game),
        "digits": settings.CROUPIER["MINOR_UNIT_DIGITS"],
        "currency": wording.currency(),
        "words": wording.catalogue(),
        "user": request.user.get_username(),
    }
    return render(request, "dealer/table.html",
                  {"table": table, "boot": boot, "game_title": get_engine(table.game).title})


# -- the pit manager -------------------------------------------------------------------------------


def _floor(user: Any, shift_id: Any = None) -> dict[str, Any]:
    shift = dashboard.chosen_shift(shift_id)
    tables = list(pit_tables(user))
    rows = dashboard.floor_rows(tables, shift)
    return {
        "shift": shift,
        "shifts": dashboard.recent_shifts(),
        "chosen": shift_id if shift is not None and str(shift_id) == str(shift.pk) else "",
        "rows": rows,
        "counts": dashboard.count_rows(rows, shift),
        "currency": currency(),
        "charts": {
            "by_hour": dashboard.win_by_hour(tables, shift),
            "by_table": dashboard.win_by_table(rows),
            "digits": settings.CROUPIER["MINOR_UNIT_DIGITS"],
            "currency": currency(),
        },
        "big_bets": dashboard.big_bets(tables, shift),
        "big_bets_count": dashboard.big_bets_count(rows),
        "alerts": dashboard.open_alerts(user, tables),
        "large_bet": settings.CROUPIER["LARGE_BET"],
        "players": dashboard.player_panels(tables, shift),
    }


@login_required
@require_GET
def pit_dashboard(request: HttpRequest) -> HttpResponse:
    if not has_role(request.user, Role.PIT_MANAGER):
        return _forbidden(request, "the pit dashboard is for pit managers")
    return render(request, "pit/dashboard.html", _floor(request.user, request.GET.get("shift")))


@require_GET
def pit_live(request: HttpRequest) -> HttpResponse:
    """The dashboard's live part, polled by htmx every few seconds."""
    if not request.user.is_authenticated:
        # a poll after the session ended: send the whole page to the sign-in form, not into the tile grid
        login = f"{reverse('login')}?next={reverse('pit-dashboard')}"
        if request.headers.get("HX-Request"):
            return HttpResponse(status=204, headers={"HX-Redirect": login})
        return redirect(login)
    if not has_role(request.user, Role.PIT_MANAGER):
        return _forbidden(request, "the pit dashboard is for pit managers")
    return render(request, "pit/_live.html", _floor(request.user, request.GET.get("shift")))


@login_required
@require_GET
def pit_table(request: HttpRequest, code: str) -> HttpResponse:
    """A table's rounds, newest first; each opens to its full trail."""
    table = dashboard.visible_table(request.user, code) if has_role(request.user, *FLOOR_VIEWERS) else None
    if table is None:
        return _forbidden(request, f"you may not see table {code}")
    page = Paginator(dashboard.round_history(table), 50).get_page(request.GET.get("page"))
    return render(
        request,
        "pit/table.html",
        {
            "table": table,
            "page": page,
            "live": dashboard.live_round(table),
            "row": dashboard.floor_rows([table], current_shift())[0],
        },
    )


@login_required
@require_GET
def pit_round(request: HttpRequest, pk: int) -> HttpResponse:
    """One round's full event trail: every event, who, when, the engine's state after it, the audit."""
    rnd = get_object_or_404(Round.objects.select_related("table__pit", "dealer", "shift"), pk=pk)
    table = dashboard.visible_table(request.user, rnd.table.code) if has_role(request.user, *FLOOR_VIEWERS) else None
    if table is None:
        return _forbidden(request, f"you may not see table {rnd.table.code}")
    return render(request, "pit/round.html", {"trail": dashboard.round_trail(rnd), "round": rnd})
