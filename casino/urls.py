from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from casino.auth import ObtainTokenView, RevokeTokenView
from casino.auth_views import PinView, lockouts
from tables import apis as tables_apis

router = DefaultRouter()
router.register("pits", tables_apis.PitViewSet, basename="pit")
router.register("tables", tables_apis.TableViewSet, basename="table")
router.register("shift-types", tables_apis.ShiftTypeViewSet, basename="shift-type")
router.register("shifts", tables_apis.ShiftViewSet, basename="shift")
router.register("assignments", tables_apis.AssignmentViewSet, basename="assignment")
router.register("rounds", tables_apis.RoundViewSet, basename="round")

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include(router.urls)),
    path("api/", include("players.urls")),  # players, rating slips, cash transactions (docs/players.md)
    path("api/games/", tables_apis.GamesView.as_view(), name="games"),
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
    path("api/auth/token/revoke/", RevokeTokenView.as_view(), name="api-token-revoke"),
    path("api/auth/pin/", PinView.as_view(), name="api-pin"),  # the signed-in person's own signing PIN
    path("staff/lockouts/", lockouts, name="staff-lockouts"),  # another supervisor or an admin lifts a lockout
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("", include("tables.urls_web")),  # the screens: login, dealer, pit
]

if settings.CROUPIER_BENCH_ENDPOINTS:  # bench/api.py's baseline; never in production (settings)
    from casino.bench import BaselineView

    urlpatterns.insert(0, path("api/bench/baseline/", BaselineView.as_view(), name="bench-baseline"))

handler400 = "casino.exceptions.json_400"
handler403 = "casino.exceptions.json_403"
handler404 = "casino.exceptions.json_404"
handler500 = "casino.exceptions.json_500"
