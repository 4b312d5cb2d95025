"""The players screens: the directory and a player's ratings (pit managers, compliance), the compliance
page (the cash transaction log of a gaming day, its report lines, the exports). Thin: check who may
look, call selectors, render; every change goes through the JSON API (static/croupier/slips.js)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from accounting.reports import Filters
from accounting.reports.base import accumulate, cell_formatters, text_row, total_of
from accounting.selectors import credit_standing
from casino.audit.services import audit_export_logged
from casino.core.roles import Role, has_role
from casino.errors import DomainError
from players import reports, selectors
from players.conf import knob
from players.models import Player, PlayerStatus, RatingSlip
from tables.models import Pit
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


PROTECTION_REPORTS = ("advantage", "dealers")  # game protection's reports, on a screen of their own for the pit


@login_required
@require_GET
def protection_report(request: HttpRequest, name: str) -> HttpResponse:
    """Game protection's reports on screen (advantage play, the dealers' figures): the scope, the filters, every
    row, and the same report as CSV, XLSX or PDF from the export API. Reading it is audited as an export is."""
    if name not in PROTECTION_REPORTS:
        raise Http404(name)
    cls = reports.REPORTS[name]
    if not has_role(request.user, *reports.READERS[name]):
        return _forbidden(request, gettext("this report is for pit managers, compliance and auditors"))
    params = {k: v for k in cls.filters_used if (v := str(request.GET.get(k) or "").strip())}
    context: dict[str, object] = {"name": name, "title": cls.title, "params": params, "error": None,
                                  "pits": list(Pit.objects.order_by("name").values_list("code", "name"))}
    try:
        report = cls(Filters.parse(params, allowed=cls.filters_used, report=str(cls.title).lower()))
        report.validate()
    except DomainError as exc:
        context["error"] = gettext("These filters cannot be read: %(why)s") % {"why": exc.message}
        return render(request, "players/report.html", context, status=400)
    columns = report.columns
    fmt = cell_formatters(report, reader=True)
    sums: dict[str, int] = {}
    rows = [text_row(fmt, row) for row in accumulate(report, report.rows(), sums)]
    audit_export_logged(request.user, f"players.{name}.screen", report.filters.as_json(), rows=len(rows))
    context.update({
        "preamble": report.preamble(),
        "header": [(c.header(), c.kind in ("money", "percent", "int"), c.extra) for c in columns],
        "rows": [[("" if v is None else v, c.kind in ("money", "percent", "int"), c.extra)
                  for v, c in zip(row, columns)] for row in rows],
        "total": [("" if v is None else v, c.kind in ("money", "percent", "int"), c.extra)
                  for v, c in zip(text_row(fmt, total_of(report, sums)), columns)] if rows else None,
        "has_extra": any(c.extra for c in columns),
        "query": urlencode(params),
    })
    return render(request, "players/report.html", context)
