from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cardroom import selectors
from cardroom.models import ScoreSheet, Tournament
from tables.serializers import StrictIntegerField

BIGINT = 2**63 - 1


def _id(**kwargs: Any) -> StrictIntegerField:
    return StrictIntegerField(min_value=1, max_value=BIGINT, **kwargs)


def _money(**kwargs: Any) -> StrictIntegerField:
    return StrictIntegerField(min_value=0, max_value=10**12, **kwargs)


# -- output ---------------------------------------------------------------------------------------


class SheetSerializer(serializers.ModelSerializer):
    table_code = serializers.CharField(source="table.code", read_only=True)
    players = serializers.ListField(child=serializers.CharField())
    totals = serializers.DictField(child=serializers.IntegerField())
    opened_by = serializers.CharField(source="opened_by.username", read_only=True)

    class Meta:
        model = ScoreSheet
        fields = [
            "id",
            "table",
            "table_code",
            "tournament",
            "game",
            "config",
            "players",
            "status",
            "deals",
            "entries",
            "totals",
            "winner",
            "opened_by",
            "opened_at",
            "ended_at",
            "close_reason",
        ]


class SheetEntrySerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    deal = serializers.IntegerField()
    entry = serializers.JSONField()
    points = serializers.DictField(child=serializers.IntegerField())
    corrects = serializers.IntegerField(allow_null=True, help_text="the seq of the entry this one corrects")
    reason = serializers.CharField(allow_blank=True)
    in_force = serializers.BooleanField()
    recorded_by = serializers.CharField()
    recorded_at = serializers.DateTimeField()


class SheetDetailSerializer(SheetSerializer):
    state = serializers.JSONField(help_text="the sheet replayed: per-deal points, running totals, notes, winner")
    log = serializers.SerializerMethodField(help_text="every entry as made, corrections included")

    class Meta(SheetSerializer.Meta):
        fields = [*SheetSerializer.Meta.fields, "state", "log"]

    @extend_schema_field(SheetEntrySerializer(many=True))
    def get_log(self, sheet: ScoreSheet) -> list[dict]:
        return selectors.sheet_entries(sheet)


class StandingSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    player = serializers.CharField()
    sheets = serializers.IntegerField()
    wins = serializers.IntegerField()
    points = serializers.IntegerField()


class TournamentEntrySerializer(serializers.Serializer):
    player = serializers.CharField()
    fee = serializers.IntegerField()
    house_fee = serializers.IntegerField()
    registered_at = serializers.DateTimeField()


class PayoutSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    player = serializers.CharField()
    amount = serializers.IntegerField()


class TournamentSerializer(serializers.ModelSerializer):
    pit: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(slug_field="code", read_only=True)

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "pit",
            "game",
            "config",
            "entry_fee",
            "house_fee",
            "status",
            "created_at",
            "started_at",
            "ended_at",
            "end_reason",
        ]


class TournamentDetailSerializer(TournamentSerializer):
    detail = serializers.SerializerMethodField()

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "detail"]

    @extend_schema_field(
        {
            "type": "object",
            "properties": {
                "prize_pool": {"type": "integer"},
                "entries": {"type": "array", "items": {"type": "object"}},
                "payouts": {"type": "array", "items": {"type": "object"}},
                "standings": {"type": "array", "items": {"type": "object"}},
            },
        }
    )
    def get_detail(self, t: Tournament) -> dict:
        return selectors.tournament_detail(t)


# -- input ----------------------------------------------------------------------------------------


class SheetOpenInput(serializers.Serializer):
    table = _id()
    game = serializers.CharField(max_length=40, required=False, help_text="not needed for a tournament sheet")
    players = serializers.ListField(child=serializers.CharField(max_length=40), min_length=1, max_length=16)
    config = serializers.DictField(required=False)
    tournament = _id(required=False, allow_null=True)


class DealInput(serializers.Serializer):
    entry = serializers.DictField(help_text="what the game's rules need for the deal (docs/cardroom.md)")


class CorrectionInput(serializers.Serializer):
    deal = StrictIntegerField(min_value=0, max_value=BIGINT)
    entry = serializers.DictField()
    reason = serializers.CharField(max_length=500)


class CloseInput(serializers.Serializer):
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True)


class RakeInput(serializers.Serializer):
    amount = StrictIntegerField(min_value=1, max_value=10**12)
    memo = serializers.CharField(max_length=200, required=False, allow_blank=True)


class TournamentInput(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    pit = _id()
    game = serializers.CharField(max_length=40)
    config = serializers.DictField(required=False)
    entry_fee = _money()
    house_fee = _money(required=False, default=0)


class RegisterInput(serializers.Serializer):
    player = serializers.CharField(max_length=40)


class PayoutInput(serializers.Serializer):
    player = serializers.CharField(max_length=40)
    amount = StrictIntegerField(min_value=1, max_value=10**12)


class FinishInput(serializers.Serializer):
    payouts = PayoutInput(many=True)


class CancelInput(serializers.Serializer):
    reason = serializers.CharField(max_length=500)
