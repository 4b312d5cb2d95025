"""Paging of every API list (``DEFAULT_PAGINATION_CLASS``): a bounded page, numbers checked.

DRF's limit/offset paging has no ceiling by default (``?limit=100000`` reads every row) and
ignores a malformed number silently. Here a page holds at most ``API_MAX_PAGE_SIZE`` rows, and a
``limit`` or ``offset`` that is not a whole number in range is refused with a 400 naming it,
before anything reaches the database (an offset past PostgreSQL's bigint would otherwise be the
database's error).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext
from rest_framework.pagination import LimitOffsetPagination

from casino.errors import InvalidInput

MAX_OFFSET = 2**63 - 1


def query_number(request: Any, name: str, *, minimum: int, maximum: int) -> int | None:
    """A whole number from the query string, or None when absent; 400 naming ``name`` otherwise."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    text = raw.strip()
    if not text.isdigit() or len(text) > 19 or not minimum <= int(text) <= maximum:
        raise InvalidInput(gettext("%(name)s must be a whole number from %(minimum)s to %(maximum)s")
                           % {"name": name, "minimum": minimum, "maximum": maximum}, code="bad_parameter", field=name)
    return int(text)


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    @property
    def max_limit(self) -> int:  # type: ignore[override]
        return settings.API_MAX_PAGE_SIZE

    def get_limit(self, request: Any) -> int:
        limit = query_number(request, self.limit_query_param, minimum=1, maximum=self.max_limit)
        if limit is not None:
            return limit
        return min(self.default_limit or self.max_limit, self.max_limit)

    def get_offset(self, request: Any) -> int:
        offset = query_number(request, self.offset_query_param, minimum=0, maximum=MAX_OFFSET)
        return offset or 0

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            bounds = ({"minimum": 1, "maximum": self.max_limit} if parameter["name"] == self.limit_query_param
                      else {"minimum": 0, "maximum": MAX_OFFSET})
            parameter["schema"] = {**parameter.get("schema", {}), **bounds}
        return parameters
