"""/players/… pages (included from casino/urls.py)."""

from __future__ import annotations

from django.urls import path

from players import views

urlpatterns = [
    path("", views.directory, name="players-directory"),
    path("compliance/", views.compliance, name="players-compliance"),
    path("<int:pk>/", views.player_detail, name="players-detail"),
    path("reports/<slug:name>/", views.protection_report, name="players-protection-report"),
]
