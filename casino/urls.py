from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from casino.auth import ObtainTokenView, RevokeTokenView
from casino.auth_views import PinView, lockouts
from casino.ops.metrics import metrics_view
from casino.schema_views import DocsView, SchemaView


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: send them to the static file."""
    return redirect(static("croupier/favicon.ico"), permanent=True)


# The apps' URLs by dotted path, as INSTALLED_APPS names them: casino is the layer below every app
# and imports none of them (docs/architecture.md).
urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("tables.urls")),  # pits, tables, shifts, assignments, rounds, games
    path("api/", include("players.urls")),  # players, rating slips, cash transactions (docs/players.md)
    path("api/accounting/", include("accounting.urls")),
    path("api/cardroom/", include("cardroom.urls")),
    path("cardroom/", include("cardroom.web_urls")),
    path("api/slots/", include("slots.urls")),  # machines, meter readings, progressives, bonus meters (docs/slots.md)
    path("slots/", include("slots.web_urls")),
    path("accounting/", include("accounting.web_urls")),
    path("api/audit/", include("casino.audit.urls")),
    path("audit/", include("casino.audit.web_urls")),
    path("players/", include("players.web_urls")),
    path("api/auth/token/", ObtainTokenView.as_view(), name="api-token"),  # with the sign-in lockout
    path("favicon.ico", favicon, name="favicon"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),  # the screens' JavaScript words
    path("api/auth/token/revoke/", RevokeTokenView.as_view(), name="api-token-revoke"),
    path("api/auth/pin/", PinView.as_view(), name="api-pin"),  # the signed-in person's own signing PIN
    path("staff/lockouts/", lockouts, name="staff-lockouts"),  # another supervisor or an admin lifts a lockout
    # a signed-in user in production unless API_DOCS_PUBLIC (casino.permissions.ApiDocsAccess)
    path("api/schema/", SchemaView.as_view(), name="schema"),
    path("api/docs/", DocsView.as_view(url_name="schema"), name="api-docs"),
    path("metrics", metrics_view, name="metrics"),  # Prometheus; /health/live and /health/ready: casino/ops/health.py
    path("", include("floor.urls")),  # the screens: login, each role's home, dealer, pit
]

if settings.CROUPIER_BENCH_ENDPOINTS:  # bench/api.py's baseline; never in production (settings)
    from casino.bench import BaselineView

    urlpatterns.insert(0, path("api/bench/baseline/", BaselineView.as_view(), name="bench-baseline"))

handler400 = "casino.exceptions.json_400"
handler403 = "casino.exceptions.json_403"
handler404 = "casino.exceptions.json_404"
handler500 = "casino.exceptions.json_500"
