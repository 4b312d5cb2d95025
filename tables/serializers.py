from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy
from rest_framework import serializers

from tables import wording
from tables.engines.base import bet_extra
from tables.engines.errors import EngineError
from tables.models import LIVE_STATUSES, Assignment, Bet, Pit, Round, Shift, ShiftType, Table
from tables.selectors import round_document, round_table_now, worded_state


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer and nothing else: no strings, no 12.5, no true."""

    default_error_messages = {"invalid": gettext_lazy("must be a whole number, not text or a fraction")}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class PitSerializer(serializers.ModelSerializer):
    class Meta:
        model = Pit
        fields = ["id", "code", "name"]


class TableSerializer(serializers.ModelSerializer):
    pit: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(slug_field="code", read_only=True)

    class Meta:
        model = Table
        fields = ["id", "code", "name", "pit", "game", "config", "min_bet", "max_bet", "seats", "status"]


class TableUpdateInput(serializers.Serializer):
    name = serializers.CharField(max_length=100, required=False)
    config = serializers.DictField(required=False)
    min_bet = StrictIntegerField(min_value=1, required=False)
    max_bet = StrictIntegerField(min_value=1, required=False)
    seats = StrictIntegerField(min_value=1, max_value=14, required=False)
    status = serializers.ChoiceField(choices=["open", "closed"], required=False)


class ShiftTypeSerializer(serializers.ModelSerializer):
    class Meta:
        model = ShiftType
        fields = ["id", "code", "name", "starts", "ends"]


class ShiftSerializer(serializers.ModelSerializer):
    shift_type: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(slug_field="code", read_only=True)

    class Meta:
        model = Shift
        fields = ["id", "shift_type", "gaming_date", "starts_at", "ends_at", "status", "closed_at"]


class ShiftOpenInput(serializers.Serializer):
    shift_type = StrictIntegerField(min_value=1)
    gaming_date = serializers.DateField()


class AssignmentSerializer(serializers.ModelSerializer):
    dealer: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(slug_field="username", read_only=True)
    table: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(slug_field="code", read_only=True)

    class Meta:
        model = Assignment
        fields = ["id", "dealer", "table", "shift", "starts_at", "ends_at", "relieved_at"]


class AssignmentInput(serializers.Serializer):
    dealer = StrictIntegerField(min_value=1)
    table = StrictIntegerField(min_value=1)
    shift = StrictIntegerField(min_value=1)
    starts_at = serializers.DateTimeField(required=False, allow_null=True)
    ends_at = serializers.DateTimeField(required=False, allow_null=True)


class RoundOpenInput(serializers.Serializer):
    table = StrictIntegerField(min_value=1)


class ShoeOpenInput(serializers.Serializer):
    cut_card = StrictIntegerField(min_value=1, required=False, allow_null=True)
    burn = StrictIntegerField(min_value=0, required=False, default=1)


class ShoeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.CharField(source="table.code")
    number = serializers.IntegerField()
    decks = serializers.IntegerField()
    cut_card = serializers.IntegerField(allow_null=True)
    burn = serializers.IntegerField()
    opened_at = serializers.DateTimeField()


class BetInput(serializers.Serializer):
    """A bet as in the round document; game-specific fields (``number``, ``coppered``…) ride along."""

    id = serializers.CharField(max_length=64, required=False)
    seat = StrictIntegerField(min_value=1, max_value=99)
    type = serializers.CharField(max_length=40)
    amount = StrictIntegerField(min_value=1, max_value=10**12)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise serializers.ValidationError({"non_field_errors": [gettext("a bet must be a JSON object")]})
        values = super().to_internal_value(data)
        values["extra"] = bet_extra(data)
        return values


class CloseBettingInput(serializers.Serializer):
    """No more bets, optionally with the last bets the dealer entered (each as one bet is posted)."""

    bets = BetInput(many=True, required=False, help_text="bets placed, in order, before betting closes")


class BetWithdrawInput(serializers.Serializer):
    """Take a bet back before betting closes, with a reason; with ``replacement``, correct it."""

    bet = serializers.CharField(max_length=64)
    reason = serializers.CharField(max_length=200)
    replacement = BetInput(required=False)


class SetCheckInput(serializers.Serializer):
    seat = serializers.CharField(max_length=16, help_text="the seat setting its hand (as in the step's input)")
    hands = serializers.JSONField(binary=True, help_text='the cards by hand name, e.g. {"back": [...], "front": [...]}')


class SetCheckAnswer(serializers.Serializer):
    ok = serializers.BooleanField()
    reason = serializers.CharField(allow_null=True, help_text="why the setting fouls, in a dealer's words")


class EventInput(serializers.Serializer):
    """One event of the round document: ``{"card": "AS"}``, ``{"seat": 2, "action": "hit"}``, ``{"bet": {…}}``."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict) or not data:
            raise serializers.ValidationError({"non_field_errors": [gettext("an event must be a non-empty JSON object")]})
        return dict(data)

    def to_representation(self, instance: Any) -> Any:
        return instance


class EventsInput(serializers.Serializer):
    """Several events in the order dealt: ``{"events": [{"card": "AS"}, {"card": "KH"}, …]}``."""

    events = serializers.ListField(child=EventInput(), allow_empty=False,
                                   help_text="cards and choices in the order dealt, each as one event is posted")


class VoidInput(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class PayCorrectionLineInput(serializers.Serializer):
    bet = serializers.CharField(max_length=64)
    net = serializers.IntegerField(help_text="the bettor's net as it should have been: + paid, − collected, minor units")


class PayCorrectionInput(serializers.Serializer):
    """A supervisor's correction of a settled round's pay list: each corrected bet's net, and why."""

    lines = PayCorrectionLineInput(many=True, allow_empty=False)
    reason = serializers.CharField(max_length=200)


class PayCorrectionSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    round = serializers.IntegerField(source="round_id", read_only=True)
    confirmed_by = serializers.CharField(source="confirmed_by.username", read_only=True)
    corrected_by = serializers.CharField(source="corrected_by.username", read_only=True)
    corrected_at = serializers.DateTimeField(read_only=True)
    reason = serializers.CharField(read_only=True)
    house_change = serializers.IntegerField(read_only=True)
    lines = serializers.JSONField(read_only=True)


class EventUndoInput(serializers.Serializer):
    """A supervisor's approval, given on the dealer's screen: their username and their password or signing PIN."""

    approver_username = serializers.CharField(max_length=150)
    approver_password = serializers.CharField(max_length=128, trim_whitespace=False, required=False, allow_blank=True)
    approver_pin = serializers.CharField(max_length=12, trim_whitespace=False, required=False, allow_blank=True)

    def validate(self, attrs: dict) -> dict:
        if not attrs.get("approver_password") and not attrs.get("approver_pin"):
            raise serializers.ValidationError({"approver_password": gettext("the supervisor's password or PIN is required")})
        return attrs


class BetSerializer(serializers.ModelSerializer):
    class Meta:
        model = Bet
        fields = ["id", "client_id", "seat", "type", "amount", "extra", "event_index", "placed_at"]


class RoundSerializer(serializers.ModelSerializer):
    table: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(slug_field="code", read_only=True)
    table_id = serializers.IntegerField(read_only=True)
    dealer: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(slug_field="username", read_only=True)
    document = serializers.SerializerMethodField(help_text="the round document (docs/round_format.md), in")
    table_now = serializers.SerializerMethodField(
        help_text="while the round is live, where the table stands as its engine says: the bank's seat, the "
                  "button, whose turn it is, what is due, and what each seat may do now or the rule that stops it")
    words = serializers.SerializerMethodField(
        help_text="the engine's words in the reader's language (tables/wording.py): ``next``, what the dealer "
                  "does now; ``said``, the settled round's call; ``labels``, each label and reason the engine "
                  "gives now → its words")

    class Meta:
        model = Round
        fields = ["id", "table", "table_id", "shift", "number", "game", "status", "dealer", "opened_at",
                  "betting_closed_at", "settled_at", "document", "state", "void_reason", "voided_at", "table_now",
                  "words"]

    def get_document(self, rnd: Round) -> dict[str, Any]:
        return round_document(rnd)

    def get_table_now(self, rnd: Round) -> dict[str, Any] | None:
        if rnd.status not in LIVE_STATUSES:
            return None
        try:
            return round_table_now(rnd).as_dict(rnd.table.seats)
        except EngineError:  # a round the engine cannot read answers the rest; its refusal comes on acting
            return None

    def get_words(self, rnd: Round, table_now: dict[str, Any] | None = None) -> dict[str, Any]:
        state = worded_state(rnd)  # a round stored before steps carried message ids: re-derived by its engine
        state = state if isinstance(state, dict) else {}
        step = state.get("next")
        step = step if isinstance(step, dict) else {}
        return {"next": wording.prompt(step), "said": wording.prompt(state),
                "labels": wording.labels_in([step, table_now])}

    def to_representation(self, rnd: Round) -> dict[str, Any]:
        """The fields above, written out: every dealer request answers with its round, and walking
        fifteen field objects cost more than the rest of the answer (tests check both agree)."""
        if type(self) is not RoundSerializer:  # a subclass with other fields: the generic way
            return super().to_representation(rnd)
        moment = _MOMENT.to_representation

        def when(value: Any) -> Any:
            return None if value is None else moment(value)

        table_now = self.get_table_now(rnd)
        return {
            "id": rnd.pk, "table": rnd.table.code, "table_id": rnd.table_id, "shift": rnd.shift_id,
            "number": rnd.number, "game": rnd.game, "status": str(rnd.status), "dealer": rnd.dealer.username,
            "opened_at": when(rnd.opened_at), "betting_closed_at": when(rnd.betting_closed_at),
            "settled_at": when(rnd.settled_at), "document": self.get_document(rnd), "state": rnd.state,
            "void_reason": rnd.void_reason, "voided_at": when(rnd.voided_at), "table_now": table_now,
            "words": self.get_words(rnd, table_now),
        }


_MOMENT = serializers.DateTimeField()
