"""/accounting/… pages (included from casino/urls.py)."""

from __future__ import annotations

from django.urls import path

from accounting import views

app_name = "accounting-web"
urlpatterns = [path("", views.index, name="index")]
