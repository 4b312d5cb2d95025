from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounting.serializers import SignatureInput
from slots import selectors
from slots.models import (
    BASIS_POINTS,
    METER_MAX,
    BonusMeter,
    BonusMeterEvent,
    BonusUnit,
    Machine,
    MachineStatus,
    MeterReading,
    PaidBy,
    Progressive,
    ProgressiveContribution,
    ProgressiveHit,
    ProgressiveScope,
)
from tables.serializers import StrictIntegerField

BIGINT = 2**63 - 1


def _id(**kwargs: Any) -> StrictIntegerField:
    return StrictIntegerField(min_value=1, max_value=BIGINT, **kwargs)


def _meter(**kwargs: Any) -> StrictIntegerField:
    return StrictIntegerField(min_value=0, max_value=METER_MAX, **kwargs)


# -- inputs -----------------------------------------------------------------------------------------


class MachineInput(serializers.Serializer):
    asset_number = serializers.CharField(max_length=32)
    game = serializers.CharField(max_length=80)
    denomination = StrictIntegerField(min_value=1, max_value=10**9, help_text="minor units a credit")
    location = serializers.CharField(max_length=80, required=False, allow_blank=True)


class MachineUpdateInput(serializers.Serializer):
    game = serializers.CharField(max_length=80, required=False)
    location = serializers.CharField(max_length=80, required=False, allow_blank=True)
    status = serializers.ChoiceField(choices=MachineStatus.choices, required=False)
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True)


class ReadingInput(serializers.Serializer):
    coin_in = _meter(help_text="cumulative, minor units")
    coin_out = _meter(help_text="cumulative, minor units")
    jackpots = _meter(help_text="cumulative hand-paid jackpots, minor units")
    games_played = _meter(help_text="cumulative count")
    drop = _meter(help_text="cumulative, minor units")
    read_at = serializers.DateTimeField(required=False, allow_null=True)
    ram_clear = serializers.BooleanField(required=False, default=False)
    supervisor = SignatureInput(required=False, allow_null=True,
                                help_text="a pit manager's signature (username and PIN or password), for a RAM clear")
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True)


class ProgressiveInput(serializers.Serializer):
    code = serializers.CharField(max_length=40)
    name = serializers.CharField(max_length=80)
    scope = serializers.ChoiceField(choices=ProgressiveScope.choices)
    reset_value = StrictIntegerField(min_value=1, max_value=METER_MAX)
    contribution_bp = StrictIntegerField(min_value=0, max_value=BASIS_POINTS)
    machines = serializers.ListField(child=_id(), required=False, max_length=1000)
    amount = StrictIntegerField(min_value=1, max_value=METER_MAX, required=False, allow_null=True,
                                help_text="starting amount (default: the reset value)")


class LinkInput(serializers.Serializer):
    machine = _id()


class HitInput(serializers.Serializer):
    machine = _id()
    paid_by = serializers.ChoiceField(choices=PaidBy.choices, required=False, default=PaidBy.HANDPAY)
    expected_amount = StrictIntegerField(min_value=1, max_value=METER_MAX, required=False, allow_null=True)
    note = serializers.CharField(max_length=200, required=False, allow_blank=True)


class BonusMeterInput(serializers.Serializer):
    machine = _id()
    name = serializers.CharField(max_length=40)
    label = serializers.CharField(max_length=80)  # type: ignore[assignment]  # the meter's label, not DRF's Field.label
    unit = serializers.ChoiceField(choices=BonusUnit.choices)
    reset_value = _meter()
    value = _meter(required=False, allow_null=True)
    target = StrictIntegerField(min_value=1, max_value=METER_MAX, required=False, allow_null=True)


class BonusUpdateInput(serializers.Serializer):
    value = _meter()
    note = serializers.CharField(max_length=200, required=False, allow_blank=True)


class BonusHitInput(serializers.Serializer):
    paid_by = serializers.ChoiceField(choices=PaidBy.choices, required=False, default=PaidBy.MACHINE)
    expected_value = _meter(required=False, allow_null=True)
    note = serializers.CharField(max_length=200, required=False, allow_blank=True)


class BonusResetInput(serializers.Serializer):
    reason = serializers.CharField(max_length=200)
    supervisor = SignatureInput(required=False, allow_null=True,
                                help_text="a pit manager's signature, to release credits owed to the house")


# -- outputs ----------------------------------------------------------------------------------------


class MachineSerializer(serializers.ModelSerializer):
    class Meta:
        model = Machine
        fields = ["id", "asset_number", "game", "denomination", "location", "status", "readings", "created_at",
                  "updated_at"]


class ContributionSerializer(serializers.ModelSerializer):
    progressive = serializers.CharField(source="progressive.code")

    class Meta:
        model = ProgressiveContribution
        fields = ["progressive", "coin_in", "rate_bp", "remainder_before", "amount", "remainder_after"]


class ReadingSerializer(serializers.ModelSerializer):
    machine_asset_number = serializers.CharField(source="machine.asset_number", read_only=True)
    supervisor = serializers.CharField(source="supervisor.employee_id", default=None, read_only=True)
    recorded_by = serializers.CharField(source="recorded_by.username", read_only=True)
    win = serializers.IntegerField(read_only=True)
    contributions = ContributionSerializer(many=True, read_only=True)

    class Meta:
        model = MeterReading
        fields = [
            "id", "machine", "machine_asset_number", "seq", "read_at", "coin_in", "coin_out", "jackpots",
            "games_played", "drop", "d_coin_in", "d_coin_out", "d_jackpots", "d_games_played", "d_drop", "win",
            "ram_clear", "supervisor", "reason", "transaction", "contributions", "recorded_by", "recorded_at",
        ]


class HitSerializer(serializers.ModelSerializer):
    progressive_code = serializers.CharField(source="progressive.code", read_only=True)
    machine_asset_number = serializers.CharField(source="machine.asset_number", read_only=True)
    recorded_by = serializers.CharField(source="recorded_by.username", read_only=True)

    class Meta:
        model = ProgressiveHit
        fields = ["id", "progressive", "progressive_code", "seq", "machine", "machine_asset_number", "amount",
                  "reset_value", "paid_by", "payout_transaction", "reset_transaction", "note", "recorded_by",
                  "hit_at"]


class ProgressiveSerializer(serializers.ModelSerializer):
    machines = serializers.SerializerMethodField()
    carried = serializers.SerializerMethodField(help_text="the carried remainder as a fraction of a minor unit")

    class Meta:
        model = Progressive
        fields = ["id", "code", "name", "scope", "reset_value", "contribution_bp", "amount", "remainder", "carried",
                  "hits", "machines", "created_at"]

    @extend_schema_field({"type": "array", "items": {"type": "object"}})
    def get_machines(self, obj: Progressive) -> list[dict[str, Any]]:
        return [{"id": m.pk, "asset_number": m.asset_number} for m in obj.machines.order_by("asset_number")]

    def get_carried(self, obj: Progressive) -> str:
        return selectors.carried_text(obj.remainder)


class ProgressiveDetailSerializer(ProgressiveSerializer):
    hit_records = HitSerializer(many=True, read_only=True)

    class Meta(ProgressiveSerializer.Meta):
        fields = [*ProgressiveSerializer.Meta.fields, "hit_records"]


class BonusMeterSerializer(serializers.ModelSerializer):
    machine_asset_number = serializers.CharField(source="machine.asset_number", read_only=True)
    owed = serializers.IntegerField(read_only=True, help_text="minor units owed (credits meters)")

    class Meta:
        model = BonusMeter
        fields = ["id", "machine", "machine_asset_number", "name", "label", "unit", "reset_value", "value", "target",
                  "hits", "owed", "created_at"]


class BonusEventSerializer(serializers.ModelSerializer):
    supervisor = serializers.CharField(source="supervisor.employee_id", default=None, read_only=True)
    recorded_by = serializers.CharField(source="recorded_by.username", read_only=True)

    class Meta:
        model = BonusMeterEvent
        fields = ["id", "meter", "seq", "kind", "value_before", "value_after", "paid", "paid_by", "funded", "accrued",
                  "released", "supervisor", "reason", "transaction", "recorded_by", "recorded_at"]


class BonusMeterDetailSerializer(BonusMeterSerializer):
    event_records = BonusEventSerializer(many=True, read_only=True)

    class Meta(BonusMeterSerializer.Meta):
        fields = [*BonusMeterSerializer.Meta.fields, "event_records"]
