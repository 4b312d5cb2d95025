from __future__ import annotations

from typing import Any

from rest_framework import serializers

from accounting.money import money_text
from players import rating
from players.models import (
    BuyIn,
    CashKind,
    CashTransaction,
    CashTransactionReport,
    DocumentKind,
    Player,
    PlayerDocument,
    PlayerStatus,
    SlipPause,
)
from players.selectors import Rated
from tables.serializers import StrictIntegerField

# -- inputs -----------------------------------------------------------------------------------------


class PlayerInput(serializers.Serializer):
    first_name = serializers.CharField(max_length=80, required=False, allow_blank=True)
    last_name = serializers.CharField(max_length=80, required=False, allow_blank=True)
    card_number = serializers.CharField(max_length=32, required=False, allow_blank=True, allow_null=True)
    birth_date = serializers.DateField(required=False, allow_null=True)
    status = serializers.ChoiceField(choices=PlayerStatus.choices, required=False)
    notes = serializers.CharField(max_length=4000, required=False, allow_blank=True)


class DocumentInput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=DocumentKind.choices)
    number = serializers.CharField(max_length=40)
    issuer = serializers.CharField(max_length=60)
    expires_on = serializers.DateField(required=False, allow_null=True)


class SlipOpenInput(serializers.Serializer):
    table = StrictIntegerField(min_value=1)
    seat = StrictIntegerField(min_value=1, max_value=14)
    player = StrictIntegerField(min_value=1, required=False, allow_null=True)
    card_number = serializers.CharField(max_length=32, required=False, allow_blank=True, allow_null=True)
    description = serializers.CharField(max_length=120, required=False, allow_blank=True)
    estimated_average_bet = StrictIntegerField(min_value=1, required=False, allow_null=True)
    notes = serializers.CharField(max_length=2000, required=False, allow_blank=True)


class SlipCloseInput(serializers.Serializer):
    walk_with = StrictIntegerField(min_value=0, required=False, allow_null=True)
    estimated_average_bet = StrictIntegerField(min_value=1, required=False, allow_null=True)


class EstimateInput(serializers.Serializer):
    estimated_average_bet = StrictIntegerField(min_value=1, allow_null=True)


class IdentifyInput(serializers.Serializer):
    player = StrictIntegerField(min_value=1, required=False, allow_null=True)
    card_number = serializers.CharField(max_length=32, required=False, allow_blank=True, allow_null=True)


class BuyInInput(serializers.Serializer):
    method = serializers.ChoiceField(choices=["cash", "marker"])
    amount = StrictIntegerField(min_value=1, required=False, allow_null=True)
    marker = StrictIntegerField(min_value=1, required=False, allow_null=True)


class CashInput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=CashKind.choices)
    amount = StrictIntegerField(min_value=1)
    player = StrictIntegerField(min_value=1, required=False, allow_null=True)
    card_number = serializers.CharField(max_length=32, required=False, allow_blank=True, allow_null=True)
    description = serializers.CharField(max_length=120, required=False, allow_blank=True)
    table = StrictIntegerField(min_value=1, required=False, allow_null=True)
    note = serializers.CharField(max_length=200, required=False, allow_blank=True)


# -- outputs ----------------------------------------------------------------------------------------


class DocumentSerializer(serializers.ModelSerializer):
    class Meta:
        model = PlayerDocument
        fields = ["id", "kind", "number", "issuer", "expires_on", "recorded_at"]


class PlayerSerializer(serializers.ModelSerializer):
    name = serializers.CharField(read_only=True)

    class Meta:
        model = Player
        fields = [
            "id",
            "name",
            "first_name",
            "last_name",
            "card_number",
            "birth_date",
            "status",
            "notes",
            "created_at",
            "updated_at",
        ]


class PlayerDetailSerializer(PlayerSerializer):
    documents = DocumentSerializer(many=True, read_only=True)

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "documents"]


class PauseSerializer(serializers.ModelSerializer):
    class Meta:
        model = SlipPause
        fields = ["started_at", "ended_at"]


class BuyInSerializer(serializers.ModelSerializer):
    marker = serializers.SerializerMethodField()

    class Meta:
        model = BuyIn
        fields = ["id", "method", "amount", "marker", "cash_transaction", "recorded_at"]

    def get_marker(self, obj: BuyIn) -> str | None:
        return obj.marker.reference if obj.marker is not None else None


class FiguresSerializer(serializers.Serializer):
    """A slip's figures: money in minor units, the edge as an exact fraction and as a percentage."""

    active_seconds = serializers.IntegerField()
    paused_seconds = serializers.IntegerField()
    decisions = serializers.IntegerField()
    table_decisions = serializers.IntegerField()
    handle = serializers.IntegerField()
    average_bet = serializers.IntegerField(allow_null=True)
    average_bet_source = serializers.CharField()
    measured_average_bet = serializers.IntegerField(allow_null=True)
    estimated_average_bet = serializers.IntegerField(allow_null=True)
    decisions_per_hour = serializers.CharField(allow_null=True)
    house_edge = serializers.CharField(allow_null=True)
    house_edge_percent = serializers.CharField(allow_null=True)
    theoretical_win = serializers.IntegerField(allow_null=True)
    actual_win = serializers.IntegerField(allow_null=True)
    comp_value = serializers.IntegerField(allow_null=True)
    comp_points = serializers.IntegerField(allow_null=True)
    edge_pending = serializers.BooleanField()
    flags = serializers.ListField(child=serializers.CharField())
    overlapping_slips = serializers.ListField(child=serializers.IntegerField())
    by_bet_type = serializers.ListField(child=serializers.DictField())
    skill = serializers.DictField(allow_null=True, help_text="the assumed and the measured edge side by side (rating)")


def figures_data(fig: rating.Figures) -> dict[str, Any]:
    return {
        "active_seconds": fig.active_seconds,
        "paused_seconds": fig.paused_seconds,
        "decisions": fig.decisions,
        "table_decisions": fig.table_decisions,
        "handle": fig.handle,
        "average_bet": fig.average_bet,
        "average_bet_source": fig.average_bet_source,
        "measured_average_bet": fig.measured_average_bet,
        "estimated_average_bet": fig.estimated_average_bet,
        "decisions_per_hour": None if fig.decisions_per_hour is None else str(fig.decisions_per_hour),
        "house_edge": rating.fraction_text(fig.house_edge) or None,
        "house_edge_percent": rating.percent4(fig.house_edge) or None,
        "theoretical_win": fig.theoretical_win,
        "actual_win": fig.actual_win,
        "comp_value": fig.comp_value,
        "comp_points": fig.comp_points,
        "edge_pending": fig.edge_pending,
        "flags": list(fig.flags),
        "overlapping_slips": list(fig.overlaps),
        "by_bet_type": list(fig.by_type),
        "skill": fig.skill,
    }


class RatingSlipSerializer(serializers.Serializer):
    """A rating slip with its figures (measured now, or as fixed at close when ``rated``)."""

    id = serializers.IntegerField()
    player = serializers.IntegerField(allow_null=True)
    player_name = serializers.CharField()
    card_number = serializers.CharField(allow_null=True)
    description = serializers.CharField(allow_blank=True)
    table = serializers.CharField()
    table_id = serializers.IntegerField()
    seat = serializers.IntegerField()
    status = serializers.CharField()
    gaming_date = serializers.DateField()
    opened_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    walk_with = serializers.IntegerField(allow_null=True)
    buy_in_cash = serializers.IntegerField()
    buy_in_markers = serializers.IntegerField()
    rated = serializers.BooleanField()
    figures = FiguresSerializer()


def slip_data(rated: Rated) -> dict[str, Any]:
    slip = rated.slip
    return {
        "id": slip.pk,
        "player": slip.player_id,
        "player_name": slip.player_label,
        "card_number": slip.player.card_number if slip.player is not None else None,
        "description": slip.description,
        "table": slip.table.code,
        "table_id": slip.table_id,
        "seat": slip.seat,
        "status": slip.status,
        "gaming_date": slip.shift.gaming_date,
        "opened_at": slip.opened_at,
        "closed_at": slip.closed_at,
        "walk_with": slip.walk_with,
        "buy_in_cash": rated.buy_in_cash,
        "buy_in_markers": rated.buy_in_markers,
        "rated": rated.stored is not None,
        "figures": figures_data(rated.figures),
    }


class RatingSlipDetailSerializer(RatingSlipSerializer):
    pauses = PauseSerializer(many=True)
    buy_ins = BuyInSerializer(many=True)


class CashTransactionSerializer(serializers.ModelSerializer):
    player_name = serializers.SerializerMethodField()
    table: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(slug_field="code", read_only=True)
    recorded_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(slug_field="username", read_only=True)
    amount_text = serializers.SerializerMethodField()

    class Meta:
        model = CashTransaction
        fields = [
            "id",
            "player",
            "player_name",
            "slip",
            "description",
            "direction",
            "kind",
            "amount",
            "amount_text",
            "gaming_date",
            "shift",
            "table",
            "location",
            "note",
            "recorded_by",
            "recorded_at",
        ]

    def get_player_name(self, obj: CashTransaction) -> str | None:
        player = obj.player or (obj.slip.player if obj.slip is not None else None)
        return player.name if player else None

    def get_amount_text(self, obj: CashTransaction) -> str:
        return money_text(obj.amount)


class RecordedSerializer(serializers.ModelSerializer):
    """What the one who records a cash transaction gets back: the line itself, nothing of the day's log."""

    class Meta:
        model = CashTransaction
        fields = ["id", "player", "slip", "direction", "kind", "amount", "gaming_date", "location", "recorded_at"]


class ReportLineSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name")
    card_number = serializers.CharField(source="player.card_number", allow_null=True)

    class Meta:
        model = CashTransactionReport
        fields = [
            "id",
            "player",
            "player_name",
            "card_number",
            "gaming_date",
            "direction",
            "threshold",
            "total",
            "transactions",
            "crossing",
            "alert",
            "created_at",
        ]


class DailyTotalSerializer(serializers.Serializer):
    player = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    card_number = serializers.CharField(allow_null=True)
    direction = serializers.CharField()
    total = serializers.IntegerField()
    transactions = serializers.IntegerField()
