"""Accounting in the admin: to look at, never to change (the services post, sign and audit every change).

Every accounting model is listed, filtered and searched here; nobody — an admin included — may add,
change or delete one (:class:`casino.core.admin.ReadOnlyAdmin`): financial records are never edited,
and a mistake is put right by a new record (a void, a reversal), through the screens or the API.
"""

from __future__ import annotations

from django.contrib import admin

from accounting.models import (
    Account,
    Alert,
    ChipSet,
    CreditLine,
    DropCount,
    Entry,
    HouseEdgeCache,
    InventoryCount,
    LedgerTransaction,
    Marker,
    MarkerPayment,
    MarkerWriteOff,
    Reconciliation,
    ReportExport,
    SerialCounter,
    ShiftReconciliation,
    Slip,
    TableShiftClose,
)
from casino.core.admin import ReadOnlyAdmin

SIGNER = ["display_name", "employee_id", "user__username"]


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ["code", "name", "kind", "table", "denomination"]
    list_filter = ["kind"]
    search_fields = ["code", "name", "table__code"]


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(ReadOnlyAdmin):
    list_display = ["id", "kind", "source_type", "source_id", "memo", "table", "shift", "posted_at"]
    list_filter = ["kind", "source_type", "posted_at"]
    search_fields = ["memo", "source_id", "table__code"]
    date_hierarchy = "posted_at"


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ["id", "transaction", "account", "amount"]
    list_filter = ["account__kind"]
    search_fields = ["account__code", "transaction__memo"]


@admin.register(ChipSet)
class ChipSetAdmin(ReadOnlyAdmin):
    list_display = ["scope", "table", "denominations", "updated_at", "updated_by"]
    search_fields = ["scope", "table__code"]


@admin.register(InventoryCount)
class InventoryCountAdmin(ReadOnlyAdmin):
    list_display = ["table", "shift", "kind", "total", "rolled", "discrepancy_gross", "dealer_signer",
                    "supervisor_signer", "recorded_at"]
    list_filter = ["kind", "rolled", "recorded_at"]
    search_fields = ["table__code", *(f"dealer_signer__{f}" for f in SIGNER), *(f"supervisor_signer__{f}" for f in SIGNER)]
    date_hierarchy = "recorded_at"


@admin.register(DropCount)
class DropCountAdmin(ReadOnlyAdmin):
    list_display = ["table", "shift", "cash", "chips", "markers", "total", "counter_one", "counter_two", "recorded_at"]
    list_filter = ["recorded_at"]
    search_fields = ["table__code", *(f"counter_one__{f}" for f in SIGNER), *(f"counter_two__{f}" for f in SIGNER)]
    date_hierarchy = "recorded_at"


@admin.register(SerialCounter)
class SerialCounterAdmin(ReadOnlyAdmin):
    list_display = ["series", "year", "last"]
    list_filter = ["series", "year"]
    search_fields = ["series"]


@admin.register(Slip)
class SlipAdmin(ReadOnlyAdmin):
    list_display = ["reference", "kind", "table", "shift", "total", "status", "request_signer", "issue_signer",
                    "receive_signer", "requested_at"]
    list_filter = ["kind", "status", "year", "requested_at"]
    search_fields = ["number", "table__code", "void_reason", *(f"request_signer__{f}" for f in SIGNER)]
    date_hierarchy = "requested_at"


@admin.register(Marker)
class MarkerAdmin(ReadOnlyAdmin):
    list_display = ["reference", "table", "shift", "player", "amount", "paid", "supervisor_signer", "dealer_signer",
                    "issued_at"]
    list_filter = ["year", "issued_at"]
    search_fields = ["number", "player", "table__code"]
    date_hierarchy = "issued_at"


@admin.register(MarkerPayment)
class MarkerPaymentAdmin(ReadOnlyAdmin):
    list_display = ["marker", "amount", "at_table", "table", "signer", "received_by", "paid_at"]
    list_filter = ["at_table", "paid_at"]
    search_fields = ["marker__player", "marker__number", *(f"signer__{f}" for f in SIGNER)]
    date_hierarchy = "paid_at"


@admin.register(MarkerWriteOff)
class MarkerWriteOffAdmin(ReadOnlyAdmin):
    list_display = ["marker", "amount", "reason", "accountant_signer", "second_signer", "written_off_at"]
    list_filter = ["written_off_at"]
    search_fields = ["marker__player", "marker__number", "reason"]
    date_hierarchy = "written_off_at"


@admin.register(CreditLine)
class CreditLineAdmin(ReadOnlyAdmin):
    list_display = ["player", "limit", "approver", "approved_at", "reason"]
    list_filter = ["approved_at"]
    search_fields = ["player", "reason", *(f"approver__{f}" for f in SIGNER)]
    date_hierarchy = "approved_at"


@admin.register(TableShiftClose)
class TableShiftCloseAdmin(ReadOnlyAdmin):
    list_display = ["table", "shift", "drop", "count_win", "variance", "closed_at"]
    list_filter = ["closed_at"]
    search_fields = ["table__code"]
    date_hierarchy = "closed_at"


@admin.register(ShiftReconciliation)
class ShiftReconciliationAdmin(ReadOnlyAdmin):
    list_display = ["shift", "status", "tables", "rounds", "causes", "created_at"]
    list_filter = ["status", "created_at"]
    search_fields = ["shift__shift_type__name"]


@admin.register(Reconciliation)
class ReconciliationAdmin(ReadOnlyAdmin):
    list_display = ["shift", "table", "status", "rounds", "rounds_mismatched", "count_win", "variance", "created_at"]
    list_filter = ["status", "created_at"]
    search_fields = ["table__code"]


@admin.register(Alert)
class AlertAdmin(ReadOnlyAdmin):
    list_display = ["kind", "severity", "table", "message", "created_at", "acknowledged_at"]
    list_filter = ["kind", "severity", "created_at"]
    search_fields = ["message", "table__code", "dedupe_key"]


@admin.register(ReportExport)
class ReportExportAdmin(ReadOnlyAdmin):
    list_display = ["report", "format", "status", "progress", "requested_by", "created_at", "finished_at"]
    list_filter = ["status", "format", "report"]
    search_fields = ["report", "requested_by__username"]


@admin.register(HouseEdgeCache)
class HouseEdgeCacheAdmin(ReadOnlyAdmin):
    list_display = ["game", "config_key", "computed_at"]
    list_filter = ["game"]
    search_fields = ["game", "config_key"]
