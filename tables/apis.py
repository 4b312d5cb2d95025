"""The floor's REST API. Thin: validate input, call one service, serialize the result."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView

from casino.core.roles import Role
from casino.errors import Forbidden, NotFound
from casino.idempotency import idempotent
from casino.ops.metrics import CARD_POST_SECONDS, SETTLE_SECONDS, observed
from casino.permissions import role_permission
from casino.signatures import SignatureRefused, signed_by
from tables import selectors
from tables import serializers as s
from tables.access import can_view_table
from tables.engines.errors import EngineError
from tables.engines.registry import available_games, get_engine
from tables.models import Assignment, Pit, Round, Shift, ShiftType, Table
from tables.services import floor, pay_corrections, rounds, shoes
from tables.wording import EngineRefusal

STAFF = (Role.DEALER, Role.PIT_MANAGER, Role.ACCOUNTANT, Role.AUDITOR)
FLOOR_READERS = (Role.DEALER, Role.PIT_MANAGER, Role.ACCOUNTANT)
MAX_ID = 2**63 - 1  # a bigger id in a URL is no round, not a database overflow


class EngineRefusals:
    """An engine's refusal of a bet, a card or a choice answered in the reader's words (the same code, field,
    event and params): :class:`tables.wording.EngineRefusal`."""

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, EngineError):
            exc = EngineRefusal(exc)
        return super().handle_exception(exc)  # type: ignore[misc]


class GamesView(APIView):
    """The games the engines play, with their settings and bet types."""

    permission_classes = [role_permission(read_roles=STAFF)]

    @extend_schema(responses={200: {"type": "array", "items": {"type": "object"}}})  # a list, one object per game
    def get(self, request: Request) -> Response:
        return Response([get_engine(g).describe() for g in available_games()])


class ShoeOpenView(EngineRefusals, APIView):
    """Mark a new shoe at a shoe table, between rounds: the table's dealer (one tap) or its pit manager."""

    permission_classes = [role_permission(Role.DEALER, Role.PIT_MANAGER, read_roles=STAFF)]

    @extend_schema(request=s.ShoeOpenInput, responses={201: s.ShoeSerializer})
    @idempotent
    def post(self, request: Request, table_id: int) -> Response:
        data = s.ShoeOpenInput(data=request.data)
        data.is_valid(raise_exception=True)
        if table_id > MAX_ID:
            raise NotFound(gettext("no table %(table)s") % {"table": table_id}, code="unknown_table")
        shoe = shoes.shoe_open(table_id=table_id, actor=request.user, **data.validated_data)
        return Response(s.ShoeSerializer(shoe).data, status=status.HTTP_201_CREATED)


class PitViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = s.PitSerializer
    permission_classes = [role_permission(read_roles=FLOOR_READERS)]
    queryset = Pit.objects.all()


class TableFilter(filters.FilterSet):
    pit = filters.CharFilter(field_name="pit__code")

    class Meta:
        model = Table
        fields = ["pit", "game", "status"]


class TableViewSet(EngineRefusals, viewsets.ReadOnlyModelViewSet):
    serializer_class = s.TableSerializer
    permission_classes = [role_permission(Role.PIT_MANAGER, read_roles=FLOOR_READERS)]
    filterset_class = TableFilter

    def get_queryset(self) -> Any:
        return selectors.visible_tables(self.request.user)

    @extend_schema(request=s.TableUpdateInput, responses=s.TableSerializer)
    @idempotent
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        """Change rules, limits, seats or open/close the table (its pit manager; audited)."""
        data = s.TableUpdateInput(data=request.data)
        data.is_valid(raise_exception=True)
        table = Table.objects.filter(pk=pk).first() if pk is not None and pk.isdigit() else None  # "/tables/x/": 404, not 500
        if table is None:
            raise NotFound(gettext("no table %(table)s") % {"table": pk})
        table = floor.table_update(table_id=table.pk, actor=request.user, **data.validated_data)
        return Response(s.TableSerializer(table).data)


class ShiftTypeViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = s.ShiftTypeSerializer
    permission_classes = [role_permission(read_roles=FLOOR_READERS)]
    queryset = ShiftType.objects.all()


class ShiftViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = s.ShiftSerializer
    permission_classes = [role_permission(Role.PIT_MANAGER, read_roles=FLOOR_READERS)]
    queryset = Shift.objects.select_related("shift_type")
    filterset_fields = ["status", "gaming_date"]

    @extend_schema(request=s.ShiftOpenInput, responses={201: s.ShiftSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        """Open a shift."""
        data = s.ShiftOpenInput(data=request.data)
        data.is_valid(raise_exception=True)
        shift = floor.shift_open(shift_type_id=data.validated_data["shift_type"],
                                 gaming_date=data.validated_data["gaming_date"], actor=request.user)
        return Response(s.ShiftSerializer(shift).data, status=status.HTTP_201_CREATED)


class AssignmentViewSet(EngineRefusals, viewsets.ReadOnlyModelViewSet):
    serializer_class = s.AssignmentSerializer
    permission_classes = [role_permission(Role.PIT_MANAGER, read_roles=FLOOR_READERS)]
    filterset_fields = ["table", "shift", "dealer"]

    def get_queryset(self) -> Any:
        qs = Assignment.objects.select_related("dealer", "table")
        return qs.filter(table__in=selectors.visible_tables(self.request.user).values("pk"))

    @extend_schema(request=s.AssignmentInput, responses={201: s.AssignmentSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        """Assign a dealer to a table for (part of) a shift."""
        data = s.AssignmentInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        if not Table.objects.filter(pk=v["table"]).exists():
            raise NotFound(gettext("no table %(table)s") % {"table": v["table"]}, field="table")
        assignment = floor.assignment_create(dealer_id=v["dealer"], table_id=v["table"], shift_id=v["shift"],
                                             starts_at=v.get("starts_at"), ends_at=v.get("ends_at"),
                                             actor=request.user)
        return Response(s.AssignmentSerializer(assignment).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=s.AssignmentSerializer)
    @action(detail=True, methods=["post"])
    @idempotent
    def relieve(self, request: Request, pk: str | None = None) -> Response:
        """End an assignment now (the dealer goes on break or off the table)."""
        assignment = floor.assignment_relieve(assignment_id=self.get_object().pk, actor=request.user)
        return Response(s.AssignmentSerializer(assignment).data)


class RoundFilter(filters.FilterSet):
    table = filters.CharFilter(field_name="table__code")

    class Meta:
        model = Round
        fields = ["table", "status", "shift", "game"]


class RoundListSerializer(s.RoundSerializer):
    class Meta(s.RoundSerializer.Meta):
        fields = [f for f in s.RoundSerializer.Meta.fields if f != "document"]


class ApprovalThrottle(UserRateThrottle):
    """A supervisor's password typed on a dealer's screen is throttled like a login."""

    scope = "login"


class RoundViewSet(EngineRefusals, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Rounds: open, bet, close betting, post cards and choices one at a time, settle, void."""

    permission_classes = [role_permission(Role.DEALER, Role.PIT_MANAGER, read_roles=STAFF)]
    filterset_class = RoundFilter
    ordering_fields = ["id", "opened_at", "settled_at"]

    def get_queryset(self) -> Any:
        return selectors.visible_rounds(self.request.user)

    def get_serializer_class(self) -> Any:
        return RoundListSerializer if self.action == "list" else s.RoundSerializer

    def _round(self, pk: str | None) -> Round:
        rnd = Round.objects.select_related("table__pit").filter(pk=pk).first() if pk is not None and pk.isdigit() else None
        if rnd is None:
            raise NotFound(gettext("no round %(round)s") % {"round": pk})
        if not can_view_table(self.request.user, rnd.table):
            raise Forbidden(gettext("you may not act on table %(table)s") % {"table": rnd.table.code}, code="not_your_table")
        return rnd

    @staticmethod
    def _round_id(pk: str | None) -> int:
        """The round a hot write acts on. The service finds, locks and checks it (404 for no such round,
        403 for someone else's table), so the API does not read it first."""
        if not str(pk).isdigit() or int(str(pk)) > MAX_ID:
            raise NotFound(gettext("no round %(round)s") % {"round": pk}, code="unknown_round")
        return int(str(pk))

    def _answer(self, rnd: Round, code: int = status.HTTP_200_OK) -> Response:
        """The round as the service left it: the instance it locked and wrote, table and dealer loaded."""
        return Response(s.RoundSerializer(rnd).data, status=code)

    def _answer_fresh(self, rnd: Round, code: int = status.HTTP_200_OK) -> Response:
        rnd = Round.objects.select_related("table", "dealer").get(pk=rnd.pk)  # one query for what the answer shows
        return Response(s.RoundSerializer(rnd).data, status=code)

    @extend_schema(request=s.RoundOpenInput, responses={201: s.RoundSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        """Open the next round at a table."""
        data = s.RoundOpenInput(data=request.data)
        data.is_valid(raise_exception=True)
        table_id = data.validated_data["table"]
        if table_id > MAX_ID:
            raise NotFound(gettext("no table %(table)s") % {"table": table_id}, code="unknown_table", field="table")
        rnd = rounds.round_open(table_id=table_id, actor=request.user)  # it locks the table (404 for none)
        return self._answer(rnd, status.HTTP_201_CREATED)

    @extend_schema(request=s.BetInput, responses={201: s.RoundSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def bets(self, request: Request, pk: str | None = None) -> Response:
        """Record a bet by seat (the engine checks the type and the table's limits)."""
        round_id = self._round_id(pk)
        data = s.BetInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        bet = rounds.bet_place(round_id=round_id, actor=request.user, seat=v["seat"], type=v["type"],
                               amount=v["amount"], extra=v["extra"], client_id=v.get("id"))
        return self._answer(bet.round, status.HTTP_201_CREATED)

    @extend_schema(request=s.BetWithdrawInput, responses=s.RoundSerializer)
    @action(detail=True, methods=["post"], url_path="bets/withdraw")
    @idempotent
    def bets_withdraw(self, request: Request, pk: str | None = None) -> Response:
        """Take a bet back before betting closes, with a reason, or correct it (``replacement``); the bet's
        row stays and a withdrawal row is written beside it (audited ``bet.withdraw``)."""
        round_id = self._round_id(pk)
        data = s.BetWithdrawInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        withdrawal = rounds.bet_withdraw(round_id=round_id, actor=request.user, bet_id=v["bet"], reason=v["reason"],
                                         replacement=v.get("replacement"))
        return self._answer(withdrawal.bet.round)

    @extend_schema(parameters=[s.SetCheckInput], responses={200: s.SetCheckAnswer})
    @action(detail=True, methods=["get"], url_path="set-check")
    def set_check(self, request: Request, pk: str | None = None) -> Response:
        """A dry run of setting a seat's hands (``?seat=3&hands={"back": [...], "front": [...]}``): whether
        it fouls and why, in a dealer's words. Writes nothing."""
        rnd = self._round(pk)
        data = s.SetCheckInput(data=request.query_params)
        data.is_valid(raise_exception=True)
        answer = selectors.set_hand_check(rnd, seat=data.validated_data["seat"], hands=data.validated_data["hands"])
        return Response(answer)

    @extend_schema(request=s.CloseBettingInput, responses=s.RoundSerializer)
    @action(detail=True, methods=["post"], url_path="close-betting")
    @idempotent
    def close_betting(self, request: Request, pk: str | None = None) -> Response:
        """No more bets; the answer's ``state.next`` says where the first card goes. With ``bets``, those are
        placed first (all or none), as if posted one by one."""
        round_id = self._round_id(pk)
        data = s.CloseBettingInput(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = rounds.betting_close(round_id=round_id, actor=request.user, bets=data.validated_data.get("bets", ()))
        return self._answer(rnd)

    @extend_schema(request=dict, responses={201: s.RoundSerializer})
    @action(detail=True, methods=["post"])
    @observed(CARD_POST_SECONDS)
    @idempotent
    def events(self, request: Request, pk: str | None = None) -> Response:
        """Post one card or choice; the answer's ``state`` is the engine's (``next`` says what is due)."""
        round_id = self._round_id(pk)
        data = s.EventInput(data=request.data)
        data.is_valid(raise_exception=True)
        event, _state = rounds.event_post(round_id=round_id, actor=request.user, event=data.validated_data)
        return self._answer(event.round, status.HTTP_201_CREATED)

    @extend_schema(request=s.EventsInput, responses={201: s.RoundSerializer})
    @action(detail=True, methods=["post"], url_path="events/batch")
    @idempotent
    def events_batch(self, request: Request, pk: str | None = None) -> Response:
        """Post several cards and choices at once, in the order dealt: all of them or none (a refusal names the
        round's event index). The answer is the round after the last, as after posting them one by one."""
        round_id = self._round_id(pk)
        data = s.EventsInput(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = rounds.events_post(round_id=round_id, actor=request.user, events=data.validated_data["events"])
        return self._answer(rnd, status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=s.RoundSerializer)
    @action(detail=True, methods=["post"])
    @observed(SETTLE_SECONDS, settles=True)
    @idempotent
    def settle(self, request: Request, pk: str | None = None) -> Response:
        """Settle a complete round, once: per-bet results, commission and the house's net."""
        settlement = rounds.round_settle(round_id=self._round_id(pk), actor=request.user)
        return self._answer(settlement.round)

    @extend_schema(request=s.VoidInput, responses=s.RoundSerializer)
    @action(detail=True, methods=["post"], url_path="void")
    @idempotent
    def void_request(self, request: Request, pk: str | None = None) -> Response:
        """Ask for a live round to be voided, with a reason; a pit manager approves."""
        rnd = self._round(pk)
        data = s.VoidInput(data=request.data)
        data.is_valid(raise_exception=True)
        rounds.round_void_request(round_id=rnd.pk, actor=request.user, reason=data.validated_data["reason"])
        return self._answer_fresh(rnd)

    @extend_schema(request=None, responses=s.RoundSerializer)
    @action(detail=True, methods=["post"], url_path="void/approve")
    @idempotent
    def void_approve(self, request: Request, pk: str | None = None) -> Response:
        """A pit manager other than the requester approves the void."""
        rnd = self._round(pk)
        rounds.round_void_approve(round_id=rnd.pk, actor=request.user)
        return self._answer_fresh(rnd)

    @extend_schema(request=s.VoidInput, responses=s.RoundSerializer)
    @action(detail=True, methods=["post"], url_path="void/refuse")
    @idempotent
    def void_refuse(self, request: Request, pk: str | None = None) -> Response:
        """A pit manager other than the requester refuses the void, with a reason; the round goes on."""
        rnd = self._round(pk)
        data = s.VoidInput(data=request.data)
        data.is_valid(raise_exception=True)
        rounds.round_void_refuse(round_id=rnd.pk, actor=request.user, reason=data.validated_data["reason"])
        return self._answer_fresh(rnd)

    @extend_schema(request=s.PayCorrectionInput, responses={201: s.PayCorrectionSerializer})
    @action(detail=True, methods=["post"], url_path="pay-correction")
    @idempotent
    def pay_correction(self, request: Request, pk: str | None = None) -> Response:
        """A pit manager of the table, not the dealer who confirmed the pay list, corrects a settled round's pay
        list: each corrected bet's net and a reason. Recorded once beside the settlement, posted and audited."""
        rnd = self._round(pk)
        data = s.PayCorrectionInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        correction = pay_corrections.pay_correct(round_id=rnd.pk, actor=request.user, lines=list(v["lines"]),
                                                 reason=v["reason"])
        return Response(s.PayCorrectionSerializer(correction).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.EventUndoInput, responses=s.RoundSerializer)
    @action(detail=True, methods=["post"], url_path="events/undo", throttle_classes=[ApprovalThrottle])
    @idempotent
    def events_undo(self, request: Request, pk: str | None = None) -> Response:
        """Undo the last card or choice before settlement; a pit manager of the table's pit approves on the
        dealer's screen with their signing PIN (or password): a signature, audited and throttled."""
        rnd = self._round(pk)
        data = s.EventUndoInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        # The supervisor signs on the dealer's screen (casino/signatures.py): a wrong password
        # or PIN is counted against this dealer and this supervisor together, never toward the supervisor's
        # sign-in lockout, and audited as a refused signature.
        try:
            approver = signed_by({"username": v["approver_username"], "password": v.get("approver_password"),
                                  "pin": v.get("approver_pin")}, actor=request.user, field="approver_password")
        except SignatureRefused as refused:
            refused.code, refused.message = "approval_refused", "the supervisor's PIN or password is wrong"
            raise
        rounds.event_undo(round_id=rnd.pk, actor=request.user, approver=approver.user)
        return self._answer_fresh(rnd)
