"""The file renderers every export API shares (the audit trail's, the reports'): each lets content
negotiation accept its file type (``?format=csv`` or ``Accept: text/csv``), the view answers with the
file itself, and anything the view answers with data (an error) goes out as JSON."""

from __future__ import annotations

from typing import Any

from rest_framework.renderers import BaseRenderer, JSONRenderer


class ApiJSONRenderer(JSONRenderer):
    """The API's JSON (DRF's). An answer a write already rendered to keep it (casino/idempotency.py sets the
    response's ``rendered_json`` from its data, with this renderer's defaults) goes out as those bytes,
    not rendered a second time; asked for indented, or with other data, it is rendered as usual."""

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        context = renderer_context or {}
        done = getattr(context.get("response"), "rendered_json", None)
        if done is not None and done[0] is data and self.get_indent(accepted_media_type or "", context) is None:
            return done[1]
        return super().render(data, accepted_media_type, renderer_context)


class FileRenderer(BaseRenderer):
    charset = None
    format = "file"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        return b"" if data is None else JSONRenderer().render(data)


class CSVRenderer(FileRenderer):
    media_type, format = "text/csv", "csv"


class XLSXRenderer(FileRenderer):
    media_type, format = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx"


class PDFRenderer(FileRenderer):
    media_type, format = "application/pdf", "pdf"
