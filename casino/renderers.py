"""The file renderers every export API shares (the audit trail's, the reports'): each lets content
negotiation accept its file type (``?format=csv`` or ``Accept: text/csv``), the view answers with the
file itself, and anything the view answers with data (an error) goes out as JSON."""

from __future__ import annotations

from typing import Any

from rest_framework.renderers import BaseRenderer, JSONRenderer


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
