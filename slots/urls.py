"""/api/slots/… (included from casino/urls.py)."""

from __future__ import annotations

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from slots import apis

router = DefaultRouter()
router.register("machines", apis.MachineViewSet, basename="slot-machine")
router.register("readings", apis.ReadingViewSet, basename="slot-reading")
router.register("progressives", apis.ProgressiveViewSet, basename="slot-progressive")
router.register("bonus-meters", apis.BonusMeterViewSet, basename="slot-bonus-meter")

urlpatterns = [
    path("", include(router.urls)),
    path("hold/", apis.HoldView.as_view(), name="slots-hold"),
    path("liabilities/", apis.LiabilitiesView.as_view(), name="slots-liabilities"),
    path("reports/", apis.ReportListView.as_view(), name="slots-reports"),
    path("reports/<slug:name>/", apis.ReportView.as_view(), name="slots-report"),
]
