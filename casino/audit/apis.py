"""The audit trail's REST API: read-only, for auditors and admins. Nobody writes the trail here.

Every other role gets 403 on every endpoint; an auditor who tries to write a record gets 405
(there is no such method). The only POST asks for a verification, which reads the trail.
"""

from __future__ import annotations

import itertools
from typing import Any

from django.http import HttpResponse, StreamingHttpResponse
from django.utils.translation import gettext
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status, viewsets
from rest_framework.pagination import CursorPagination
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.audit import selectors
from casino.audit.exports import PDF_DEFAULT_ROWS, PDF_MAX_ROWS, csv_lines, records_pdf, records_xlsx
from casino.audit.filters import AuditRecordFilter
from casino.audit.models import AuditAlert, AuditCheckpoint, AuditRecord, AuditVerification, VerificationStatus
from casino.audit.serializers import (
    AuditAlertSerializer,
    AuditCheckpointSerializer,
    AuditRecordSerializer,
    AuditVerificationSerializer,
)
from casino.audit.services import audit_export_logged
from casino.audit.verification import audit_digest, audit_verification_request
from casino.core.roles import Role
from casino.errors import InvalidInput
from casino.idempotency import idempotent
from casino.permissions import role_permission
from casino.renderers import CSVRenderer, PDFRenderer, XLSXRenderer

# Reads and the one POST (verify now): auditors and admins (admins pass every role check).
AUDITORS = role_permission(Role.AUDITOR, read_roles=(Role.AUDITOR,))


class _JSONErrors:
    request: Any  # the view's, once mixed in

    """Errors go out as JSON with a JSON content type, whatever file type the client asked for."""

    def handle_exception(self, exc: Exception) -> Any:
        response = super().handle_exception(exc)  # type: ignore[misc]
        self.request.accepted_renderer, self.request.accepted_media_type = JSONRenderer(), "application/json"
        return response


class RecordPagination(CursorPagination):
    """Newest first, by cursor: steady pages over millions of records, no COUNT(*)."""

    ordering = "-id"
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500


class AuditRecordViewSet(viewsets.ReadOnlyModelViewSet):
    """The trail, newest first. Filters: table_code, actor (username), actor_role, object_type,
    object_id, action, chain, created_after, created_before (ISO 8601)."""

    queryset = AuditRecord.objects.all()
    serializer_class = AuditRecordSerializer
    permission_classes = [AUDITORS]
    filter_backends = [DjangoFilterBackend]
    filterset_class = AuditRecordFilter
    pagination_class = RecordPagination


FILTER_PARAMETERS = [
    OpenApiParameter(name, OpenApiTypes.DATETIME if name.startswith("created_") else OpenApiTypes.STR,
                     description=str(f.label or name))
    for name, f in AuditRecordFilter.base_filters.items()
]


def _export_name(applied: dict[str, str], extension: str) -> str:
    return f"audit-trail{'-filtered' if applied else ''}.{extension}"


class AuditRecordExportCSV(_JSONErrors, APIView):
    """Every matching record as CSV, oldest first, streamed; the export itself is audited first."""

    permission_classes = [AUDITORS]
    renderer_classes = [JSONRenderer, CSVRenderer]

    @extend_schema(parameters=FILTER_PARAMETERS, responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request) -> StreamingHttpResponse:
        records, applied = selectors.audit_records(request.query_params)
        audit_export_logged(request.user, "audit_records.csv", applied)
        lines = csv_lines(records)
        # the header and the first batch read now: a query the database refuses is a clear answer, not a
        # stream that breaks after its status line went out
        first = list(itertools.islice(lines, 2))
        response = StreamingHttpResponse(itertools.chain(first, lines), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{_export_name(applied, "csv")}"'
        return response


def _bounded(request: Request) -> tuple[list[AuditRecord], int, dict[str, str]]:
    """The matching records for a file a person reads, oldest first, at most ``limit`` (default 500, at most
    2000), with how many match in all."""
    records, applied = selectors.audit_records(request.query_params)
    raw = request.query_params.get("limit", str(PDF_DEFAULT_ROWS))
    if not raw.isdigit() or not 1 <= int(raw) <= PDF_MAX_ROWS:
        raise InvalidInput(gettext("limit must be a whole number from 1 to %(maximum)s") % {"maximum": PDF_MAX_ROWS},
                           code="bad_limit",
                           field="limit")
    rows = list(records.order_by("id")[: int(raw)])
    total = records.count() if len(rows) == int(raw) else len(rows)
    return rows, total, applied


class AuditRecordExportPDF(_JSONErrors, APIView):
    """Matching records as a PDF table in the reader's words, oldest first, at most ``limit`` (default 500,
    at most 2000)."""

    permission_classes = [AUDITORS]
    renderer_classes = [JSONRenderer, PDFRenderer]

    @extend_schema(parameters=[*FILTER_PARAMETERS, OpenApiParameter("limit", int, description="at most 2000")],
                   responses={(200, "application/pdf"): OpenApiTypes.BINARY})
    def get(self, request: Request) -> HttpResponse:
        rows, total, applied = _bounded(request)
        audit_export_logged(request.user, "audit_records.pdf", applied, rows=len(rows))
        pdf = records_pdf(rows, total=total, filters=applied, generated_by=request.user.get_username())
        response = HttpResponse(pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'attachment; filename="{_export_name(applied, "pdf")}"'
        return response


class AuditRecordExportXLSX(_JSONErrors, APIView):
    """The PDF's records as a spreadsheet in the reader's words (the CSV keeps the codes as hashed)."""

    permission_classes = [AUDITORS]
    renderer_classes = [JSONRenderer, XLSXRenderer]

    @extend_schema(parameters=[*FILTER_PARAMETERS, OpenApiParameter("limit", int, description="at most 2000")],
                   responses={(200, XLSXRenderer.media_type): OpenApiTypes.BINARY})
    def get(self, request: Request) -> HttpResponse:
        rows, total, applied = _bounded(request)
        audit_export_logged(request.user, "audit_records.xlsx", applied, rows=len(rows))
        xlsx = records_xlsx(rows, total=total, filters=applied, generated_by=request.user.get_username())
        response = HttpResponse(xlsx, content_type=XLSXRenderer.media_type)
        response["Content-Disposition"] = f'attachment; filename="{_export_name(applied, "xlsx")}"'
        return response


class VerificationView(generics.ListAPIView):
    """GET: the latest verifications, newest first. POST: verify every chain now."""

    permission_classes = [AUDITORS]
    serializer_class = AuditVerificationSerializer
    queryset = AuditVerification.objects.select_related("requested_by").order_by("-id")
    filter_backends: list[Any] = []

    @extend_schema(request=None, parameters=[OpenApiParameter(
        "full", bool, description="walk every chain from its first record, not from its last signed checkpoint")],
        responses={200: AuditVerificationSerializer,
                                            202: OpenApiResponse(AuditVerificationSerializer,
                                                                 description="queued: GET verify/{id}/ later")})
    @idempotent
    def post(self, request: Request) -> Response:
        """Runs the ``verify_audit`` job: 200 with the result when it ran in process, 202 while it is queued."""
        full = request.query_params.get("full", "").lower() in ("1", "true", "yes")
        verification = audit_verification_request(actor=request.user, trigger="api", full=full)
        verification.refresh_from_db()
        done = verification.status == VerificationStatus.DONE
        return Response(AuditVerificationSerializer(verification).data,
                        status=status.HTTP_200_OK if done else status.HTTP_202_ACCEPTED)


class VerificationDetailView(generics.RetrieveAPIView):
    permission_classes = [AUDITORS]
    serializer_class = AuditVerificationSerializer
    queryset = AuditVerification.objects.select_related("requested_by")


class AuditCheckpointViewSet(viewsets.ReadOnlyModelViewSet):
    """Signed checkpoints, newest first (filter: chain)."""

    queryset = AuditCheckpoint.objects.order_by("-id")
    serializer_class = AuditCheckpointSerializer
    permission_classes = [AUDITORS]
    filter_backends = [DjangoFilterBackend]
    filterset_fields = ["chain"]


class DigestView(APIView):
    """The latest signed checkpoint of every chain: the document an auditor keeps outside the database."""

    permission_classes = [AUDITORS]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        digest = audit_digest()
        audit_export_logged(request.user, "audit_digest", {}, rows=len(digest["checkpoints"]))
        return Response(digest)


class AuditAlertViewSet(viewsets.ReadOnlyModelViewSet):
    """Broken chains found by verifications and checkpoint runs, newest first."""

    queryset = AuditAlert.objects.order_by("-id")
    serializer_class = AuditAlertSerializer
    permission_classes = [AUDITORS]
    filter_backends: list[Any] = []
