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
    path("language/", views.language_set, name="language-set"),  # each person picks theirs (docs/languages.md)
    path("logout/", auth_views.LogoutView.as_view(next_page="login"), name="logout"),
    path("reports/", views.reports_home, name="reports-home"),
    path("dealer/", views.dealer_home, name="dealer-home"),
    path("dealer/<slug:code>/", views.dealer_table, name="dealer-table"),
    path("pit/", views.pit_dashboard, name="pit-dashboard"),
    path("pit/live/", views.pit_live, name="pit-live"),
    path("pit/tables/<slug:code>/", views.pit_table, name="pit-table"),
    path("pit/tables/<slug:code>/status/", views.pit_table_status, name="pit-table-status"),
    path("pit/tables/<slug:code>/limits/", views.pit_table_limits, name="pit-table-limits"),
    path("pit/tables/<slug:code>/assign/", views.pit_table_assign, name="pit-table-assign"),
    path("pit/tables/<slug:code>/chips/", views.pit_chips, name="pit-chips"),
    path("pit/assignments/<int:pk>/relieve/", views.pit_relieve, name="pit-relieve"),
    path("pit/dealers/", views.pit_dealers, name="pit-dealers"),
    path("pit/day/", views.pit_day, name="pit-day"),
    path("pit/day/open/", views.pit_day_open, name="pit-day-open"),
    path("pit/day/roll/", views.pit_day_roll, name="pit-day-roll"),
    path("pit/pits/<slug:code>/rotate/", views.pit_rotate, name="pit-rotate"),
    path("pit/rounds/<int:pk>/", views.pit_round, name="pit-round"),
    path("pit/rounds/<int:pk>/void/", views.pit_void_request, name="pit-void-request"),
    path("pit/rounds/<int:pk>/pay-correction/", views.pit_pay_correct, name="pit-pay-correct"),
    path("pit/rounds/<int:pk>/void/approve/", views.pit_void_approve, name="pit-void-approve"),
    path("pit/rounds/<int:pk>/void/refuse/", views.pit_void_refuse, name="pit-void-refuse"),
    path("pit/voids/", views.pit_voids, name="pit-voids"),
    path("pit/alerts/", views.pit_alerts, name="pit-alerts"),
    path("pit/alerts/<int:pk>/acknowledge/", views.pit_alert_acknowledge, name="pit-alert-acknowledge"),
    path("pit/alerts/<int:pk>/resolve/", views.pit_alert_resolve, name="pit-alert-resolve"),
]
