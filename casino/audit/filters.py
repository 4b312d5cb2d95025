"""The filters auditors narrow the trail with, shared by the API, the exports and the web page."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django_filters import rest_framework as filters
from django_filters.fields import IsoDateTimeField

from casino.audit.models import AuditRecord


class UtcIsoDateTimeField(IsoDateTimeField):
    """An ISO 8601 time, taken to UTC: the database stores UTC, and refuses a UTC offset beyond ±15:59."""

    def to_python(self, value: Any) -> Any:
        moment = super().to_python(value)
        if moment is None:
            return None
        try:
            return moment.astimezone(dt.UTC) if moment.tzinfo is not None else moment
        except OverflowError:
            raise ValidationError(gettext("the time is out of range"), code="invalid") from None


class UtcIsoDateTimeFilter(filters.IsoDateTimeFilter):
    field_class = UtcIsoDateTimeField


class AuditRecordFilter(filters.FilterSet):
    table_code = filters.CharFilter(label="table")
    actor = filters.CharFilter(field_name="actor_username", label="user (username)")
    actor_role = filters.CharFilter(label="role")
    object_type = filters.CharFilter(label="object type")
    object_id = filters.CharFilter(label="object id")
    action = filters.CharFilter(label="action")
    chain = filters.CharFilter(label="chain")
    # the id a dealer reads off an error ("7f3a…"), its log line's and its records' (docs/operations.md)
    request_id = filters.CharFilter(lookup_expr="startswith", label="request id (or its start)")
    created_after = UtcIsoDateTimeFilter(field_name="created_at", lookup_expr="gte", label="from (ISO time)")
    created_before = UtcIsoDateTimeFilter(field_name="created_at", lookup_expr="lt", label="until (ISO time)")

    class Meta:
        model = AuditRecord
        fields = ["table_code", "actor", "actor_role", "object_type", "object_id", "action", "chain", "request_id",
                  "created_after", "created_before"]


class AuditPageFilter(AuditRecordFilter):
    """The auditors' web page: the same filters, with the words a person types matching parts of the
    codes ("void" finds ``round.void``; "slip" finds ``slip.issue`` and ``accounting.slip``). The API and
    the exports keep the exact match of :class:`AuditRecordFilter`."""

    table_code = filters.CharFilter(lookup_expr="iexact", label="table")
    actor = filters.CharFilter(field_name="actor_username", lookup_expr="icontains", label="user")
    actor_role = filters.CharFilter(lookup_expr="iexact", label="role")
    object_type = filters.CharFilter(lookup_expr="icontains", label="object type")
    object_id = filters.CharFilter(lookup_expr="icontains", label="object id")
    action = filters.CharFilter(lookup_expr="icontains", label="action")
    chain = filters.CharFilter(lookup_expr="icontains", label="chain")
