"""Accounting in the admin: to look at, never to change (the services post, sign and audit every change)."""

from __future__ import annotations

from django.contrib import admin

from accounting.models import (
    Account,
    Alert,
    DropCount,
    Entry,
    InventoryCount,
    LedgerTransaction,
    Marker,
    Slip,
    TableShiftClose,
)
from casino.core.admin import ReadOnlyAdmin


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ["code", "name", "kind", "table"]
    search_fields = ["code"]


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(ReadOnlyAdmin):
    list_display = ["id", "kind", "source_type", "source_id", "table", "shift", "posted_at"]
    list_filter = ["kind"]


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ["id", "transaction", "account", "amount"]


@admin.register(Slip)
class SlipAdmin(ReadOnlyAdmin):
    list_display = ["reference", "kind", "table", "shift", "total", "status"]
    list_filter = ["kind", "status"]


@admin.register(Marker)
class MarkerAdmin(ReadOnlyAdmin):
    list_display = ["reference", "table", "shift", "player", "amount", "paid"]


@admin.register(InventoryCount)
class InventoryCountAdmin(ReadOnlyAdmin):
    list_display = ["table", "shift", "kind", "total", "recorded_at"]


@admin.register(DropCount)
class DropCountAdmin(ReadOnlyAdmin):
    list_display = ["table", "shift", "total", "recorded_at"]


@admin.register(TableShiftClose)
class TableShiftCloseAdmin(ReadOnlyAdmin):
    list_display = ["table", "shift", "count_win", "variance", "closed_at"]


@admin.register(Alert)
class AlertAdmin(ReadOnlyAdmin):
    list_display = ["kind", "severity", "table", "message", "created_at", "acknowledged_at"]
    list_filter = ["kind", "severity"]
