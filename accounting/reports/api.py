"""The one report API: every report endpoint (``/api/accounting/reports/``, ``/api/players/reports/``,
``/api/slots/reports/``) is a subclass of :class:`ReportView` and :class:`ReportListView` that names
its reports, who reads them and how its filters are parsed.

``GET …/reports/<name>/?format=json|csv|xlsx|pdf&<filters>``. Before a byte is written: an unknown
report is a 404; a reader without the role a 403; an unknown format, an unknown filter, a filter the
report does not take, a bad value (a malformed date, a reversed range, a bad group or kind) or an
unknown table, shift, pit, dealer, game or machine a 400 naming it (JSON, whatever the format asked).
Each export is audited first. CSV streams whatever its size; JSON, XLSX and PDF above
``EXPORT_SYNC_MAX_ROWS`` rows are a 409 pointing at the export job.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from typing import Any, ClassVar

from django.http import FileResponse, StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounting.conf import int_knob
from accounting.reports.base import Filters, Report, csv_chunks, json_body, unknown_report
from accounting.reports.writers import CONTENT_TYPES, FORMATS, WRITERS, format_param
from casino.audit.services import audit_export_logged
from casino.core.roles import Role, has_role, role_label
from casino.dbrouter import replica_stream
from casino.errors import Conflict, Forbidden, NotFound
from casino.permissions import role_permission
from casino.renderers import CSVRenderer, FileRenderer, PDFRenderer, XLSXRenderer

ACCOUNTANTS = role_permission(Role.ACCOUNTANT, read_roles=(Role.ACCOUNTANT,))


class ReportListView(APIView):
    """The reports of an area: name, title, filters, formats, URL."""

    permission_classes = [ACCOUNTANTS]
    reports: ClassVar[Mapping[str, type[Report]]] = {}
    url_prefix: ClassVar[str] = ""

    @extend_schema(responses={200: dict})
    def get(self, request: Request) -> Response:
        return Response(
            [
                {
                    "name": r.name,
                    "title": r.title,
                    "filters": list(r.filters_used),
                    "formats": list(FORMATS),
                    "url": f"{self.url_prefix}{r.name}/",
                }
                for r in self.reports.values()
            ]
        )


class ReportView(APIView):
    """A report with filters: ``?format=json`` (default), ``csv`` (streamed), ``xlsx`` or ``pdf``."""

    permission_classes = [ACCOUNTANTS]
    renderer_classes = [JSONRenderer, BrowsableAPIRenderer, CSVRenderer, XLSXRenderer, PDFRenderer]
    reports: ClassVar[Mapping[str, type[Report]]] = {}
    audit_prefix: ClassVar[str] = ""  # the audit record names the export "<prefix><report>.<format>"
    too_large_hint: ClassVar[Any] = gettext_lazy("ask for the CSV, which streams whatever its size")

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        # the format is the view's to judge (a 400 naming it), not content negotiation's (a bare 404)
        fmt = request.query_params.get("format")
        if fmt and fmt not in FORMATS:
            return JSONRenderer(), "application/json"
        return super().perform_content_negotiation(request, force)

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        # a refusal is JSON whatever file format was asked for
        if isinstance(response, Response) and isinstance(getattr(request, "accepted_renderer", None), FileRenderer):
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"
        return super().finalize_response(request, response, *args, **kwargs)

    def readers(self, name: str) -> tuple[Role, ...]:
        """Who may take the report (admins may take all)."""
        return (Role.ACCOUNTANT,)

    def parse_filters(self, params: Any, report: type[Report]) -> Any:
        return Filters.parse(params, allowed=report.filters_used, report=str(report.title))

    @extend_schema(responses={200: dict})
    def get(self, request: Request, name: str) -> Any:
        cls = self.reports.get(name)
        if cls is None:
            raise NotFound(unknown_report(name, self.reports), code="unknown_report")
        readers = self.readers(name)
        if not has_role(request.user, *readers):
            raise Forbidden(
                gettext("the report “%(report)s” is taken by: %(roles)s")
                % {"report": cls.title, "roles": gettext(" or ").join(role_label(r) for r in readers)},
                code="role_required",
            )
        fmt = format_param(request.query_params)
        filters = self.parse_filters(request.query_params, cls)
        report = cls(filters)
        label = f"{self.audit_prefix}{name}.{fmt}"
        if fmt == "csv":
            audit_export_logged(request.user, label, filters.as_json())
            # produced after this view returned: the chunks carry the replica chosen now (casino/dbrouter.py)
            response = StreamingHttpResponse(replica_stream(csv_chunks(report)), content_type=CONTENT_TYPES["csv"])
            response["Content-Disposition"] = f'attachment; filename="{report.filename("csv")}"'
            return response
        rows = report.count()
        limit = int_knob("EXPORT_SYNC_MAX_ROWS")
        if rows > limit:
            raise Conflict(gettext("%(rows)s rows is more than %(limit)s to build now: %(hint)s")
                           % {"rows": rows, "limit": limit, "hint": self.too_large_hint}, code="export_too_large")
        audit_export_logged(request.user, label, filters.as_json(), rows=rows)
        if fmt == "json":
            return Response(json_body(report))
        out = tempfile.TemporaryFile()
        WRITERS[fmt](report, out, generated_by=request.user.get_username(), generated_at=timezone.now())
        out.seek(0)
        return FileResponse(out, as_attachment=True, filename=report.filename(fmt), content_type=CONTENT_TYPES[fmt])
