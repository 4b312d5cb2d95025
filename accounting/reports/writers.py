"""The report writers by format, and the formats a report is asked for in (``?format=``): CSV and
XLSX from ``accounting.reports.base``, PDF from ``accounting.reports.pdf`` (which reads base, so the
table of writers sits above both)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext

from accounting.reports.base import write_csv, write_xlsx
from accounting.reports.pdf import write_pdf
from casino.errors import InvalidInput

WRITERS: dict[str, Callable[..., None]] = {"csv": write_csv, "xlsx": write_xlsx, "pdf": write_pdf}
FORMATS = ("json", *WRITERS)
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
}


def format_param(params: Any) -> str:
    """``?format=``: json (the default), csv, xlsx or pdf; anything else is a 400 naming it."""
    fmt = params.get("format") or "json"
    if fmt not in FORMATS:
        raise InvalidInput(gettext("format must be one of %(formats)s") % {"formats": ", ".join(FORMATS)},
                           code="bad_format", field="format")
    return str(fmt)
