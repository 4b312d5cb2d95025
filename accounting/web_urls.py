"""/accounting/… pages (included from casino/urls.py)."""

from __future__ import annotations

from django.urls import path

from accounting import views
from accounting.views import closes

app_name = "accounting-web"
urlpatterns = [path("", views.index, name="index")]
urlpatterns += [
    path("shifts/", closes.shift_list, name="shifts"),
    path("shifts/<int:shift_id>/", closes.shift_detail, name="shift"),
    path("shifts/<int:shift_id>/tables/<int:table_id>/close/", closes.table_close, name="table-close"),
    path("shifts/<int:shift_id>/close/", closes.shift_close, name="shift-close"),
    path("shifts/<int:shift_id>/reconcile/", closes.reconcile_run, name="reconcile"),
    path("variances/<int:alert_id>/accept/", closes.variance_accept, name="variance-accept"),
    path("reports/", closes.report_screen, name="reports"),
    path("reports/export/", closes.export_start, name="export"),
    path("reports/exports/", closes.exports_panel, name="exports"),
    path("reports/exports/<int:export_id>/download/", closes.export_download, name="export-download"),
]
