from __future__ import annotations

from typing import Any, cast

from django.core.exceptions import ObjectDoesNotExist
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounting import labels
from accounting.models import (
    Alert,
    ChipSet,
    CreditLine,
    DropCount,
    InventoryCount,
    Marker,
    MarkerPayment,
    MarkerWriteOff,
    Reconciliation,
    ReportExport,
    ShiftReconciliation,
    Slip,
    TableCloseReopening,
    TableShiftClose,
)
from accounting.money import hold_fraction, percent_text
from accounting.selectors import reconciliation_totals
from tables.serializers import StrictIntegerField


class SignatureInput(serializers.Serializer):
    """A signature: who signs, and their password or signing PIN (the person signed in needs neither)."""

    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, required=False, allow_blank=True, trim_whitespace=False,
                                     write_only=True, style={"input_type": "password"})
    pin = serializers.CharField(max_length=12, required=False, allow_blank=True, trim_whitespace=False,
                                write_only=True, style={"input_type": "password"})


class Signer(serializers.SlugRelatedField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(slug_field="employee_id", read_only=True, **kwargs)


class TableCode(serializers.SlugRelatedField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(slug_field="code", read_only=True, **kwargs)


# -- inputs -----------------------------------------------------------------------------------------


class DenominationsInput(serializers.Serializer):
    table = StrictIntegerField(min_value=1, required=False, allow_null=True)
    # a chip worth more than 10^12 minor units is no chip (and would not fit a bigint tray account)
    denominations = serializers.ListField(child=StrictIntegerField(min_value=1, max_value=10**12), allow_empty=False)


class CountInput(serializers.Serializer):
    table = StrictIntegerField(min_value=1)
    shift = StrictIntegerField(min_value=1)
    kind = serializers.ChoiceField(choices=["opener", "closer"])
    chips = serializers.DictField(child=serializers.JSONField())
    dealer = SignatureInput()
    supervisor = SignatureInput()
    tray_empty = serializers.BooleanField(required=False, default=False)


class TableShiftInput(serializers.Serializer):
    table = StrictIntegerField(min_value=1)
    shift = StrictIntegerField(min_value=1)


class ShiftInput(serializers.Serializer):
    shift = StrictIntegerField(min_value=1)


class DayRollInput(serializers.Serializer):
    shift = StrictIntegerField(min_value=1)
    keep_dealers = serializers.BooleanField(required=False, default=True)


class DropInput(serializers.Serializer):
    table = StrictIntegerField(min_value=1)
    shift = StrictIntegerField(min_value=1)
    cash = StrictIntegerField(min_value=0)
    chips = StrictIntegerField(min_value=0)
    markers = StrictIntegerField(min_value=0)
    counter_one = SignatureInput()
    counter_two = SignatureInput()


class SlipInput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["fill", "credit"])
    table = StrictIntegerField(min_value=1)
    shift = StrictIntegerField(min_value=1)
    chips = serializers.DictField(child=serializers.JSONField())


class SignInput(serializers.Serializer):
    signer = SignatureInput()


class ReasonInput(serializers.Serializer):
    reason = serializers.CharField(max_length=1000, allow_blank=True)


class MarkerInput(serializers.Serializer):
    table = StrictIntegerField(min_value=1)
    shift = StrictIntegerField(min_value=1)
    player = serializers.CharField(max_length=120)
    amount = StrictIntegerField(min_value=1)
    supervisor = SignatureInput()
    dealer = SignatureInput()


class MarkerPaymentInput(serializers.Serializer):
    amount = StrictIntegerField(min_value=1)
    at_table = serializers.BooleanField()
    signer = SignatureInput()
    table = StrictIntegerField(min_value=1, required=False)
    shift = StrictIntegerField(min_value=1, required=False)


class CreditLineInput(serializers.Serializer):
    player = serializers.CharField(max_length=120)
    limit = StrictIntegerField(min_value=0)
    approver = SignatureInput()
    reason = serializers.CharField(max_length=1000, required=False, allow_blank=True, default="")


class MarkerWriteOffInput(serializers.Serializer):
    reason = serializers.CharField(max_length=1000, allow_blank=True)
    accountant = SignatureInput()
    second = SignatureInput()


class AckInput(serializers.Serializer):
    note = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class ExportInput(serializers.Serializer):
    report = serializers.CharField(max_length=40)
    format = serializers.ChoiceField(choices=["csv", "xlsx", "pdf"])
    filters = serializers.DictField(required=False, default=dict)


# -- outputs ----------------------------------------------------------------------------------------


class ChipSetSerializer(serializers.ModelSerializer):
    table = TableCode(allow_null=True)  # null: the casino-wide set

    class Meta:
        model = ChipSet
        fields = ["id", "scope", "table", "denominations", "updated_at"]


def _later_id(obj: Any) -> int | None:
    later = getattr(obj, "superseded_by", None) if _has_later(obj) else None
    return later.pk if later is not None else None


def _has_later(obj: Any) -> bool:
    try:
        return obj.superseded_by is not None
    except ObjectDoesNotExist:
        return False


class RecountInput(serializers.Serializer):
    chips = serializers.DictField(child=serializers.JSONField())
    dealer = SignatureInput()
    supervisor = SignatureInput()
    reason = serializers.CharField(allow_blank=True, trim_whitespace=False)
    tray_empty = serializers.BooleanField(required=False, default=False)


class DropRecountInput(serializers.Serializer):
    cash = StrictIntegerField(min_value=0)
    chips = StrictIntegerField(min_value=0)
    markers = StrictIntegerField(min_value=0)
    counter_one = SignatureInput()
    counter_two = SignatureInput()
    reason = serializers.CharField(allow_blank=True, trim_whitespace=False)


class InventoryCountSerializer(serializers.ModelSerializer):
    table = TableCode()
    dealer_signer = Signer()
    supervisor_signer = Signer()

    class Meta:
        model = InventoryCount
        fields = [
            "id",
            "table",
            "shift",
            "kind",
            "chips",
            "total",
            "dealer_signer",
            "supervisor_signer",
            "previous_closer",
            "rolled",
            "discrepancy_net",
            "discrepancy_gross",
            "supersedes",
            "reason",
            "superseded_by",
            "recorded_at",
        ]

    superseded_by = serializers.SerializerMethodField()

    def get_superseded_by(self, obj: InventoryCount) -> int | None:
        """The recount that replaced this count (the figures read it), or null for the count in force."""
        return _later_id(obj)


class DropCountSerializer(serializers.ModelSerializer):
    table = TableCode()
    counter_one = Signer()
    counter_two = Signer()

    class Meta:
        model = DropCount
        fields = [
            "id",
            "table",
            "shift",
            "cash",
            "chips",
            "markers",
            "total",
            "counter_one",
            "counter_two",
            "supersedes",
            "reason",
            "superseded_by",
            "recorded_at",
        ]

    superseded_by = serializers.SerializerMethodField()

    def get_superseded_by(self, obj: DropCount) -> int | None:
        return _later_id(obj)


class SlipSerializer(serializers.ModelSerializer):
    table = TableCode()
    request_signer = Signer()
    issue_signer = Signer()
    receive_signer = Signer()

    class Meta:
        model = Slip
        fields = [
            "id",
            "reference",
            "kind",
            "year",
            "number",
            "table",
            "shift",
            "chips",
            "total",
            "status",
            "request_signer",
            "requested_at",
            "issue_signer",
            "issued_at",
            "receive_signer",
            "received_at",
            "void_reason",
            "void_requested_at",
            "voided_at",
            "voided_from",
        ]


class MarkerPaymentSerializer(serializers.ModelSerializer):
    table = TableCode(allow_null=True)
    signer = Signer()

    class Meta:
        model = MarkerPayment
        fields = ["id", "marker", "amount", "at_table", "table", "shift", "signer", "paid_at"]


class CreditLineSerializer(serializers.ModelSerializer):
    approver = Signer()

    class Meta:
        model = CreditLine
        fields = ["id", "player", "limit", "approver", "reason", "approved_at"]


class MarkerWriteOffSerializer(serializers.ModelSerializer):
    accountant_signer = Signer()
    second_signer = Signer()

    class Meta:
        model = MarkerWriteOff
        fields = ["id", "marker", "amount", "reason", "accountant_signer", "second_signer", "written_off_at"]


class MarkerSerializer(serializers.ModelSerializer):
    table = TableCode()
    supervisor_signer = Signer()
    dealer_signer = Signer()
    payments = MarkerPaymentSerializer(many=True, read_only=True)
    write_off = serializers.SerializerMethodField()

    class Meta:
        model = Marker
        fields = [
            "id",
            "reference",
            "year",
            "number",
            "table",
            "shift",
            "player",
            "amount",
            "paid",
            "supervisor_signer",
            "dealer_signer",
            "issued_at",
            "payments",
            "write_off",
        ]

    @extend_schema_field(MarkerWriteOffSerializer(allow_null=True))
    def get_write_off(self, marker: Marker) -> dict[str, Any] | None:
        """What was written off and why, signed by whom; null while the marker is not written off."""
        try:
            write_off = marker.write_off
        except MarkerWriteOff.DoesNotExist:
            return None
        return MarkerWriteOffSerializer(write_off).data


class TableShiftCloseSerializer(serializers.ModelSerializer):
    table = TableCode()
    hold = serializers.SerializerMethodField(help_text="win / drop as an exact fraction 'n/d'")
    hold_pct = serializers.SerializerMethodField(help_text="hold in %, 2 decimals, half away from zero")

    class Meta:
        model = TableShiftClose
        fields = [
            "id",
            "table",
            "shift",
            "opener",
            "closer",
            "drop_count",
            "opener_total",
            "closer_total",
            "fills",
            "credits",
            "drop",
            "marker_payments",
            "markers_issued",
            "count_win",
            "hold",
            "hold_pct",
            "rounds",
            "handle",
            "rounds_win",
            "commission",
            "rake",
            "pool_change",
            "variance",
            "closed_at",
            "reopened",
        ]

    reopened = serializers.SerializerMethodField(help_text="the reopening that superseded this close, or null")

    def get_reopened(self, obj: TableShiftClose) -> dict[str, Any] | None:
        try:
            r = obj.reopening
        except ObjectDoesNotExist:
            return None
        return {"id": r.pk, "reason": r.reason, "reopened_by": r.reopened_by.get_username(),
                "reopened_at": r.reopened_at.isoformat()}

    def get_hold(self, obj: TableShiftClose) -> str | None:
        h = hold_fraction(obj.count_win, obj.drop)
        return None if h is None else f"{h.numerator}/{h.denominator}"

    def get_hold_pct(self, obj: TableShiftClose) -> str:
        return percent_text(hold_fraction(obj.count_win, obj.drop))


class ReopenInput(serializers.Serializer):
    table = StrictIntegerField(min_value=1)
    shift = StrictIntegerField(min_value=1)
    reason = serializers.CharField(allow_blank=True, trim_whitespace=False)


class TableCloseReopeningSerializer(serializers.ModelSerializer):
    table = TableCode()
    reopened_by = serializers.CharField(source="reopened_by.username", read_only=True)

    class Meta:
        model = TableCloseReopening
        fields = ["id", "table", "shift", "close", "reason", "reversal", "reopened_by", "reopened_at"]


class ReconciliationSerializer(serializers.ModelSerializer):
    table = TableCode()

    class Meta:
        model = Reconciliation
        fields = [
            "id",
            "shift",
            "table",
            "status",
            "rounds",
            "rounds_recomputed",
            "rounds_mismatched",
            "rounds_unposted",
            "rounds_win",
            "pool_change",
            "count_win",
            "variance",
            "causes",
            "data",
            "created_at",
        ]


class ShiftReconciliationSerializer(serializers.ModelSerializer):
    """A shift's reconciliation as the reader may see it: a pit manager gets their pits' tables only, and the
    totals over those (``context["tables"]``: the tables the reader may see, None for every table)."""

    tables_results = serializers.SerializerMethodField()

    class Meta:
        model = ShiftReconciliation
        fields = ["id", "shift", "status", "tables", "rounds", "causes", "created_at", "tables_results"]

    def _rows(self, obj: ShiftReconciliation) -> list[Reconciliation]:
        rows = Reconciliation.objects.filter(shift_id=obj.shift_id).select_related("table").order_by("table__code")
        visible = self.context.get("tables")
        return list(rows if visible is None else rows.filter(table__in=visible))

    def to_representation(self, instance: ShiftReconciliation) -> dict[str, Any]:
        data = super().to_representation(instance)
        if self.context.get("tables") is not None:
            data.update(reconciliation_totals(self._rows(instance)))
        return data

    def get_tables_results(self, obj: ShiftReconciliation) -> list[dict[str, Any]]:
        return cast(list[dict[str, Any]], ReconciliationSerializer(self._rows(obj), many=True).data)


class AlertSerializer(serializers.ModelSerializer):
    table = TableCode(allow_null=True)
    text = serializers.SerializerMethodField(help_text="the alert in the reader's language (``message``: the "
                                             "English record, as raised)")
    acknowledged_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(slug_field="username", read_only=True)
    resolved_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = Alert
        fields = [
            "id",
            "kind",
            "severity",
            "table",
            "shift",
            "message",
            "text",
            "data",
            "created_at",
            "acknowledged_by",
            "acknowledged_at",
            "ack_note",
            "resolved_by",
            "resolved_at",
            "resolve_note",
        ]

    def get_text(self, obj: Alert) -> str:
        return labels.alert_words(obj)


class ReportExportSerializer(serializers.ModelSerializer):
    download = serializers.SerializerMethodField()

    class Meta:
        model = ReportExport
        fields = [
            "id",
            "report",
            "format",
            "filters",
            "status",
            "progress",
            "rows_done",
            "rows_total",
            "error",
            "created_at",
            "started_at",
            "finished_at",
            "download",
        ]

    def get_download(self, obj: ReportExport) -> str | None:
        return f"/api/accounting/exports/{obj.pk}/download/" if obj.status == "done" else None
