"""The floor in the admin: pits, tables and shift patterns are added here (audited with their fields); a pit's
managers are changed here (audited before and after). Everything else is read-only: table rules and limits
change through ``PATCH /api/tables/{id}/`` (checked against live rounds, audited), shifts and assignments
through the API, rounds through the round services."""

from __future__ import annotations

from typing import Any

from django.contrib import admin

from casino.core.admin import AuditedAdmin, ReadOnlyAdmin
from tables.models import Assignment, Pit, Round, Shift, ShiftType, Table


@admin.register(Pit)
class PitAdmin(AuditedAdmin):
    list_display = ["code", "name"]
    filter_horizontal = ["managers"]

    def get_readonly_fields(self, request: Any, obj: Any = None) -> list[str]:
        return ["code", "name"] if obj is not None else []


@admin.register(Table)
class TableAdmin(AuditedAdmin):
    list_display = ["code", "name", "pit", "game", "min_bet", "max_bet", "seats", "status"]
    list_filter = ["pit", "game", "status"]

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False  # rules and limits change through the API's service (live rounds checked, audited)


@admin.register(ShiftType)
class ShiftTypeAdmin(AuditedAdmin):
    list_display = ["code", "name", "starts", "ends"]

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False  # a shift pattern in use stays as it was; a new one is added


@admin.register(Shift)
class ShiftAdmin(ReadOnlyAdmin):
    list_display = ["gaming_date", "shift_type", "status", "starts_at", "ends_at"]
    list_filter = ["status", "shift_type"]


@admin.register(Assignment)
class AssignmentAdmin(ReadOnlyAdmin):
    list_display = ["dealer", "table", "shift", "starts_at", "ends_at", "relieved_at"]
    list_filter = ["table"]


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["table", "number", "game", "status", "dealer", "opened_at", "settled_at"]
    list_filter = ["status", "game", "table"]
