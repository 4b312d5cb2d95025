"""/api/accounting/… (included from casino/urls.py)."""

from __future__ import annotations

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from accounting import apis

router = DefaultRouter()
router.register("chip-sets", apis.ChipSetViewSet, basename="chip-set")
router.register("counts", apis.InventoryCountViewSet, basename="inventory-count")
router.register("drops", apis.DropCountViewSet, basename="drop-count")
router.register("slips", apis.SlipViewSet, basename="slip")
router.register("markers", apis.MarkerViewSet, basename="marker")
router.register("credit-lines", apis.CreditLineViewSet, basename="credit-line")
router.register("table-closes", apis.TableShiftCloseViewSet, basename="table-close")
router.register("reconciliations", apis.ReconciliationViewSet, basename="reconciliation")
router.register("alerts", apis.AlertViewSet, basename="alert")
router.register("exports", apis.ExportViewSet, basename="export")

urlpatterns = [
    path("", include(router.urls)),
    path("shift-close/", apis.ShiftCloseView.as_view(), name="shift-close"),
    path("day/roll/", apis.DayRollView.as_view(), name="day-roll"),
    path("reports/", apis.ReportListView.as_view(), name="reports"),
    path("reports/<slug:name>/", apis.ReportView.as_view(), name="report"),
    path("accounts/", apis.AccountBalancesView.as_view(), name="accounts"),
    path("statistical-hold/", apis.StatisticalHoldView.as_view(), name="statistical-hold"),
]
