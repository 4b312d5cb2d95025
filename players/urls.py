"""/api/players/, /api/rating-slips/, /api/cash-transactions/, /api/cash-reports/ and the exports
(/api/players/reports/<name>/); included at /api/ from casino/urls.py."""

from __future__ import annotations

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from players import apis

router = DefaultRouter()
router.include_root_view = False  # /api/ belongs to the floor's router
router.register("players", apis.PlayerViewSet, basename="player")
router.register("rating-slips", apis.RatingSlipViewSet, basename="rating-slip")
router.register("cash-transactions", apis.CashTransactionViewSet, basename="cash-transaction")
router.register("cash-reports", apis.CashReportViewSet, basename="cash-report")

urlpatterns = [
    # before the router: "reports" is not a player's id
    path("players/reports/<slug:name>/", apis.PlayerReportView.as_view(), name="players-report"),
    path("", include(router.urls)),
]
