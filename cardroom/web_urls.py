"""/cardroom/… screens (included from casino/urls.py)."""

from __future__ import annotations

from django.urls import path

from cardroom import views

app_name = "cardroom-web"
urlpatterns = [
    path("", views.index, name="index"),
    path("sheets/<int:pk>/", views.sheet, name="sheet"),
    path("tournaments/<int:pk>/", views.tournament, name="tournament"),
]
