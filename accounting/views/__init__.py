"""The accountant's page: reports to download with filters, export jobs, closed shifts, open alerts.

Server-rendered and read-only; the downloads and jobs are the API's (session authentication).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from accounting import figures
from accounting.models import ReportExport, TableShiftClose
from accounting.money import currency, money_words, percent_words
from accounting.reports import REPORTS, WRITERS, Filters
from accounting.selectors import visible_alerts
from casino.core.roles import Role, has_role
from casino.errors import InvalidInput
from tables.models import Pit, Table

FILTER_FIELDS = ("date_from", "date_to", "table", "pit", "game")
CLOSES_PER_PAGE = 20


@login_required
@require_GET
def index(request: HttpRequest) -> HttpResponse:
    if not has_role(request.user, Role.ACCOUNTANT):
        return render(
            request, "registration/forbidden.html", {"message": gettext("The accounting pages are for accountants.")}, status=403
        )
    error = None
    try:
        filters = Filters.parse(request.GET, allowed=FILTER_FIELDS, report=gettext("the accounting page"))
    except InvalidInput as exc:
        filters, error = Filters(), exc.message
    query = {k: v for k, v in filters.as_json().items() if k in FILTER_FIELDS}
    reports = [
        {
            "name": r.name,
            "title": r.title,
            "links": [
                (
                    fmt.upper(),
                    f"{reverse('report', kwargs={'name': r.name})}?"
                    f"{urlencode({**{k: v for k, v in query.items() if k in r.filters_used}, 'format': fmt})}",
                )
                for fmt in WRITERS
            ],
        }
        for r in REPORTS.values()
    ]
    closes: list[dict[str, Any]] = []
    # the closed table shifts the page's filters choose, newest first, a page at a time
    matching = TableShiftClose.objects.select_related("table", "shift__shift_type").order_by("-closed_at", "-id")
    if filters.date_from:
        matching = matching.filter(shift__gaming_date__gte=filters.date_from)
    if filters.date_to:
        matching = matching.filter(shift__gaming_date__lte=filters.date_to)
    if filters.table is not None:
        matching = matching.filter(table_id=filters.table)
    if filters.pit:
        matching = matching.filter(table__pit__code=filters.pit)
    if filters.game:
        matching = matching.filter(table__game=filters.game)
    page = Paginator(matching, CLOSES_PER_PAGE).get_page(request.GET.get("page"))
    for c in page.object_list:
        closes.append(
            {
                "table": c.table.code,
                "shift": c.shift,
                "drop": money_words(c.drop, symbol=False),
                "count_win": money_words(c.count_win, symbol=False),
                "hold": percent_words(figures.hold(c.count_win, c.drop)),
                "marker_payments": money_words(c.marker_payments, symbol=False),
                "rounds_win": money_words(c.rounds_win, symbol=False),
                "pool_change": money_words(c.pool_change, symbol=False),
                "variance": money_words(c.variance, symbol=False),
                "short": c.variance < 0,
            }
        )
    exports = ReportExport.objects.filter(requested_by=request.user)[:10]  # type: ignore[misc]  # signed in (login_required)
    open_alerts = visible_alerts(request.user).filter(acknowledged_at__isnull=True)
    return render(
        request,
        "accounting/index.html",
        {
            "reports": reports,
            "filters": query,
            "error": error,
            "closes": closes,
            "closes_page": page,
            "closes_query": urlencode(query),
            "filters_words": filters.describe(),
            "currency": currency(),
            "exports": exports,
            "alerts": open_alerts[:20],
            "alert_count": open_alerts.count(),
            "tables": Table.objects.order_by("code").values_list("pk", "code"),
            "pits": Pit.objects.order_by("code").values_list("code", "name"),
            "report_titles": {name: r.title for name, r in REPORTS.items()},
        },
    )


@require_GET
def live(request: HttpRequest) -> HttpResponse:
    """The page's live part, polled by htmx: the jobs banner and the open alerts' count, with the open
    alerts swapped in beside it (out of band)."""
    if not request.user.is_authenticated:
        # a poll after the session ended: send the whole page to the sign-in form
        login = f"{reverse('login')}?next={reverse('accounting-web:index')}"
        if request.headers.get("HX-Request"):
            return HttpResponse(status=204, headers={"HX-Redirect": login})
        return redirect(login)
    if not has_role(request.user, Role.ACCOUNTANT):
        return render(
            request, "registration/forbidden.html", {"message": gettext("The accounting pages are for accountants.")}, status=403
        )
    open_alerts = visible_alerts(request.user).filter(acknowledged_at__isnull=True)
    return render(request, "accounting/_live.html",
                  {"alerts": open_alerts[:20], "alert_count": open_alerts.count(), "oob": True})
