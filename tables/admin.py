from django.contrib import admin

from tables.models import Assignment, Pit, Round, Shift, ShiftType, Table


@admin.register(Pit)
class PitAdmin(admin.ModelAdmin):
    list_display = ["code", "name"]
    filter_horizontal = ["managers"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "pit", "game", "min_bet", "max_bet", "seats", "status"]
    list_filter = ["pit", "game", "status"]


@admin.register(ShiftType)
class ShiftTypeAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "starts", "ends"]


@admin.register(Shift)
class ShiftAdmin(admin.ModelAdmin):
    list_display = ["gaming_date", "shift_type", "status", "starts_at", "ends_at"]
    list_filter = ["status", "shift_type"]
    readonly_fields = ["opened_by", "closed_by", "closed_at"]


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = ["dealer", "table", "shift", "starts_at", "ends_at", "relieved_at"]
    list_filter = ["table"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    """Read-only: rounds change only through the services (and are audited there)."""

    list_display = ["table", "number", "game", "status", "dealer", "opened_at", "settled_at"]
    list_filter = ["status", "game", "table"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
