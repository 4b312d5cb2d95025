"""The screens that span the apps (included at the site root from casino/urls.py)."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from casino.auth import LockoutAuthenticationForm
from floor import views

urlpatterns = [
    path("", views.home, name="home"),
    path(
        "login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True, authentication_form=LockoutAuthenticationForm),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(next_page="login"), name="logout"),
    path("reports/", views.reports_home, name="reports-home"),
    path("dealer/", views.dealer_home, name="dealer-home"),
    path("dealer/<slug:code>/", views.dealer_table, name="dealer-table"),
    path("pit/", views.pit_dashboard, name="pit-dashboard"),
    path("pit/live/", views.pit_live, name="pit-live"),
    path("pit/tables/<slug:code>/", views.pit_table, name="pit-table"),
    path("pit/rounds/<int:pk>/", views.pit_round, name="pit-round"),
]
