"""``/api/audit/…`` (included from casino/urls.py)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from casino.audit import apis

router = SimpleRouter()
router.register("records", apis.AuditRecordViewSet, basename="audit-record")
router.register("checkpoints", apis.AuditCheckpointViewSet, basename="audit-checkpoint")
router.register("alerts", apis.AuditAlertViewSet, basename="audit-alert")

urlpatterns = [
    # before the router: "export.csv" (and .pdf, .xlsx) and "digest" are not record or checkpoint ids
    path("records/export.csv", apis.AuditRecordExportCSV.as_view(), name="audit-export-csv"),
    path("records/export.pdf", apis.AuditRecordExportPDF.as_view(), name="audit-export-pdf"),
    path("records/export.xlsx", apis.AuditRecordExportXLSX.as_view(), name="audit-export-xlsx"),
    path("checkpoints/digest/", apis.DigestView.as_view(), name="audit-digest"),
    path("verify/", apis.VerificationView.as_view(), name="audit-verify"),
    path("verify/<int:pk>/", apis.VerificationDetailView.as_view(), name="audit-verification"),
    *router.urls,
]
