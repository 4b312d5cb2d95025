"""Reports for accountants: revenue, fills and credits, variance, large transactions, per dealer,
settled bets and statistical hold — each as JSON, CSV, XLSX and PDF (see ``base``, ``pdf``,
``definitions``; the API view every report endpoint shares is ``api``)."""

from __future__ import annotations

from accounting.reports.base import Filters, Report, csv_chunks, unknown_report
from accounting.reports.definitions import REPORTS
from accounting.reports.writers import CONTENT_TYPES, FORMATS, WRITERS
from casino.errors import NotFound


def get_report(name: str, filters: Filters) -> Report:
    cls = REPORTS.get(name)
    if cls is None:
        raise NotFound(unknown_report(name, REPORTS), code="unknown_report")
    return cls(filters)


def parse_filters(name: str, params: object) -> Filters:
    """The filters for report ``name`` (refused, naming the filter, if it does not take one)."""
    cls = REPORTS.get(name)
    if cls is None:
        raise NotFound(unknown_report(name, REPORTS), code="unknown_report")
    return Filters.parse(params, allowed=cls.filters_used, report=str(cls.title))


__all__ = [
    "CONTENT_TYPES",
    "FORMATS",
    "REPORTS",
    "WRITERS",
    "Filters",
    "Report",
    "csv_chunks",
    "get_report",
    "parse_filters",
]
