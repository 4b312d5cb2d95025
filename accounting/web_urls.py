"""/accounting/… pages (included from casino/urls.py)."""

from __future__ import annotations

from django.urls import path

from accounting import views
from accounting.views import cage, closes

app_name = "accounting-web"
urlpatterns = [path("", views.index, name="index"), path("live/", views.live, name="live")]
urlpatterns += [
    path("cage/", cage.count_screen, name="cage-counts"),
    path("cage/desk/", cage.cage_desk, name="cage-desk"),
    path("cage/desk/live/", cage.cage_desk_live, name="cage-desk-live"),
    path("cage/slips/", cage.slip_list, name="cage-slips"),
    path("cage/slips/numbers/", cage.slip_numbers, name="cage-numbers"),
    path("cage/slips/<int:pk>/", cage.slip_detail, name="cage-slip"),
    path("cage/drop/", cage.drop_screen, name="cage-drop"),
    path("cage/markers/", cage.marker_list, name="cage-markers"),
    path("cage/credit/", cage.credit_lines, name="cage-credit"),
    path("cage/markers/<int:pk>/", cage.marker_detail, name="cage-marker"),
    path("shifts/", closes.shift_list, name="shifts"),
    path("shifts/<int:shift_id>/", closes.shift_detail, name="shift"),
    path("shifts/<int:shift_id>/tables/<int:table_id>/close/", closes.table_close, name="table-close"),
    path("shifts/<int:shift_id>/tables/<int:table_id>/reopen/", closes.table_reopen, name="table-reopen"),
    path("shifts/<int:shift_id>/close/", closes.shift_close, name="shift-close"),
    path("shifts/<int:shift_id>/reconcile/", closes.reconcile_run, name="reconcile"),
    path("variances/<int:alert_id>/accept/", closes.variance_accept, name="variance-accept"),
    path("queue/", closes.queue, name="queue"),
    path("queue/slips/<int:slip_id>/void/approve/", closes.queue_void_approve, name="queue-void-approve"),
    path("reports/", closes.report_screen, name="reports"),
    path("reports/export/", closes.export_start, name="export"),
    path("reports/exports/", closes.exports_panel, name="exports"),
    path("reports/exports/<int:export_id>/download/", closes.export_download, name="export-download"),
]
