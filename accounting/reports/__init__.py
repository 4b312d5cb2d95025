"""Reports for accountants: revenue, fills and credits, variance, large transactions, per dealer,
settled bets and statistical hold — each as CSV, XLSX and PDF (see ``base`` and ``definitions``)."""

from __future__ import annotations

from accounting.reports.base import CONTENT_TYPES, WRITERS, Filters, Report, csv_chunks
from accounting.reports.definitions import REPORTS
from casino.errors import NotFound

FORMATS = tuple(WRITERS)


def get_report(name: str, filters: Filters) -> Report:
    cls = REPORTS.get(name)
    if cls is None:
        raise NotFound(f"no report {name!r} (reports: {', '.join(REPORTS)})", code="unknown_report")
    return cls(filters)


__all__ = ["CONTENT_TYPES", "FORMATS", "REPORTS", "WRITERS", "Filters", "Report", "csv_chunks", "get_report"]
