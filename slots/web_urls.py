"""/slots/… screens (included from casino/urls.py)."""

from __future__ import annotations

from django.urls import path

from slots import views

app_name = "slots-web"
urlpatterns = [
    path("", views.index, name="index"),
    path("machines/<int:pk>/", views.machine, name="machine"),
]
