"""/api/cardroom/… (included from casino/urls.py)."""

from __future__ import annotations

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from cardroom import apis

router = DefaultRouter()
router.register("sheets", apis.SheetViewSet, basename="cardroom-sheet")
router.register("tournaments", apis.TournamentViewSet, basename="cardroom-tournament")

urlpatterns = [
    path("", include(router.urls)),
    path("games/", apis.GamesView.as_view(), name="cardroom-games"),
    path("games/<slug:game>/checks/<slug:check>/", apis.GameCheckView.as_view(), name="cardroom-game-check"),
]
