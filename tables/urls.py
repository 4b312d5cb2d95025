"""The floor's API (included under ``/api/`` from casino/urls.py): pits, tables, shifts, rounds, games."""

from __future__ import annotations

from django.urls import path
from rest_framework.routers import DefaultRouter

from tables import apis

router = DefaultRouter()
router.register("pits", apis.PitViewSet, basename="pit")
router.register("tables", apis.TableViewSet, basename="table")
router.register("shift-types", apis.ShiftTypeViewSet, basename="shift-type")
router.register("shifts", apis.ShiftViewSet, basename="shift")
router.register("assignments", apis.AssignmentViewSet, basename="assignment")
router.register("rounds", apis.RoundViewSet, basename="round")

urlpatterns = [
    path("tables/<int:table_id>/shoes/", apis.ShoeOpenView.as_view(), name="table-shoes"),
    *router.urls,
    path("games/", apis.GamesView.as_view(), name="games"),
]
