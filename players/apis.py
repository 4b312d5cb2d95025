"""The players area's REST API. Thin: validate input, call one service, serialize the result.

Who may do what (the services check it again; the permission classes answer 403 early):
players are recorded and read by pit managers and compliance; rating slips are opened, paused,
resumed and closed by the table's dealer during their assignment or the pit's managers, and read by
them, accountants, auditors and compliance; cash transactions are recorded by pit managers,
accountants and compliance, and only compliance reads the log and its report lines.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from accounting.reports.api import ReportView
from casino.core.roles import Role
from casino.errors import Forbidden, InvalidInput, NotFound
from casino.idempotency import idempotent
from casino.permissions import role_permission
from players import reports, selectors
from players import serializers as s
from players.models import CashTransaction, CashTransactionReport, Player, RatingSlip
from players.services import cash, players, slips
from tables.models import Table

PLAYER_ROLES = (Role.PIT_MANAGER, Role.COMPLIANCE)
COMPLIANCE_ONLY = role_permission(Role.PIT_MANAGER, Role.ACCOUNTANT, Role.COMPLIANCE, read_roles=(Role.COMPLIANCE,))


def _date_param(request: Request, name: str) -> dt.date | None:
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return None
    try:
        return dt.date.fromisoformat(str(raw))
    except ValueError:
        raise InvalidInput(gettext("%(field)s must be a date (YYYY-MM-DD)") % {"field": name}, code="bad_parameter",
                           field=name) from None


def _int_param(request: Request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return None
    if not str(raw).isdigit() or len(str(raw)) > 18:
        raise InvalidInput(gettext("%(field)s must be a whole number") % {"field": name}, code="bad_parameter", field=name)
    return int(raw)


def _pk(pk: Any, what: str) -> int:
    if not str(pk).isdigit() or len(str(pk)) > 18:
        raise NotFound((gettext("no player %(id)s") if what == "player" else gettext("no rating slip %(id)s")) % {"id": pk})
    return int(str(pk))


# -- players -------------------------------------------------------------------------------------------


class PlayerViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Players: ``?q=`` searches names and card numbers, ``?status=`` filters."""

    permission_classes = [role_permission(*PLAYER_ROLES, read_roles=PLAYER_ROLES)]
    ordering_fields = ["id", "last_name", "created_at"]

    def get_serializer_class(self) -> Any:
        return s.PlayerDetailSerializer if self.action == "retrieve" else s.PlayerSerializer

    def get_queryset(self) -> QuerySet[Player]:
        params = self.request.query_params
        qs = selectors.players_search(q=str(params.get("q", ""))[:100], status=str(params.get("status", ""))[:16])
        return qs.prefetch_related("documents") if self.action == "retrieve" else qs

    @extend_schema(parameters=[OpenApiParameter("q", str), OpenApiParameter("status", str)])
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(request=s.PlayerInput, responses={201: s.PlayerDetailSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        data = s.PlayerInput(data=request.data)
        data.is_valid(raise_exception=True)
        player = players.player_create(actor=request.user, **data.validated_data)
        return Response(s.PlayerDetailSerializer(player).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.PlayerInput, responses=s.PlayerDetailSerializer)
    @idempotent
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        """Change names, card, status (a ban or self-exclusion stops new slips) or notes; audited."""
        data = s.PlayerInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        player = players.player_update(actor=request.user, player_id=_pk(pk, "player"), **data.validated_data)
        return Response(s.PlayerDetailSerializer(player).data)

    @extend_schema(request=s.DocumentInput, responses={201: s.PlayerDetailSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def documents(self, request: Request, pk: str | None = None) -> Response:
        """Record an identity document seen by staff."""
        data = s.DocumentInput(data=request.data)
        data.is_valid(raise_exception=True)
        player_id = _pk(pk, "player")
        players.player_document_add(actor=request.user, player_id=player_id, **data.validated_data)
        player = Player.objects.prefetch_related("documents").get(pk=player_id)
        return Response(s.PlayerDetailSerializer(player).data, status=status.HTTP_201_CREATED)


# -- rating slips -----------------------------------------------------------------------------------------


class RatingSlipViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Rating slips with their figures. Filters: ``table`` (id or code), ``status`` (open, paused, closed or
    live), ``player``, ``gaming_date``."""

    serializer_class = s.RatingSlipSerializer
    permission_classes = [role_permission(Role.DEALER, Role.PIT_MANAGER, read_roles=selectors.SLIP_READERS)]
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[RatingSlip]:
        qs = selectors.visible_slips(self.request.user)
        params = self.request.query_params
        table = str(params.get("table", ""))[:32]
        if table:
            qs = qs.filter(table_id=int(table)) if table.isdigit() and len(table) < 18 else qs.filter(table__code=table)
        state = params.get("status")
        if state == "live":
            qs = qs.filter(status__in=["open", "paused"])
        elif state:
            if state not in selectors.SLIP_STATUSES:
                raise InvalidInput(gettext("the status must be open, paused, closed or live"), code="bad_parameter", field="status")
            qs = qs.filter(status=state)
        player = _int_param(self.request, "player")
        if player is not None:
            qs = qs.filter(player_id=player)
        day = _date_param(self.request, "gaming_date")
        if day is not None:
            qs = qs.filter(shift__gaming_date=day)
        return qs.order_by("-opened_at", "-id")

    def _slip(self, pk: Any) -> RatingSlip:
        slip = RatingSlip.objects.select_related("table__pit", "player", "shift").filter(pk=_pk(pk, "slip")).first()
        if slip is None:
            raise NotFound(gettext("no rating slip %(id)s") % {"id": pk})
        if not selectors.can_view_slip(self.request.user, slip):
            raise Forbidden(gettext("you may not see the slips of table %(table)s") % {"table": slip.table.code}, code="not_your_table")
        return slip

    def _answer(self, slip: RatingSlip, code: int = status.HTTP_200_OK) -> Response:
        slip = RatingSlip.objects.select_related("table", "player", "shift").get(pk=slip.pk)
        rated = selectors.rate_slips([slip])[0]
        body = {
            **s.slip_data(rated),
            "pauses": s.PauseSerializer(slip.pauses.all(), many=True).data,
            "buy_ins": s.BuyInSerializer(slip.buy_ins.select_related("marker"), many=True).data,
        }
        return Response(body, status=code)

    @extend_schema(
        parameters=[
            OpenApiParameter("table", str),
            OpenApiParameter("status", str),
            OpenApiParameter("player", int),
            OpenApiParameter("gaming_date", dt.date),
        ]
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        rows = page if page is not None else list(self.get_queryset())
        data = [s.slip_data(r) for r in selectors.rate_slips(rows)]
        return self.get_paginated_response(data) if page is not None else Response(data)

    @extend_schema(responses=s.RatingSlipDetailSerializer)
    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        return self._answer(self._slip(pk))

    @extend_schema(request=s.SlipOpenInput, responses={201: s.RatingSlipDetailSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        """Open a slip at a seat: a player by id or card number, or anonymous (with a description)."""
        data = s.SlipOpenInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        if not Table.objects.filter(pk=v["table"]).exists():
            raise NotFound(gettext("no table %(table)s") % {"table": v["table"]}, code="unknown_table", field="table")
        slip = slips.slip_open(
            actor=request.user,
            table_id=v["table"],
            seat=v["seat"],
            player_id=v.get("player"),
            card_number=v.get("card_number"),
            description=v.get("description", ""),
            estimated_average_bet=v.get("estimated_average_bet"),
            notes=v.get("notes", ""),
        )
        return self._answer(slip, status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=s.RatingSlipDetailSerializer)
    @action(detail=True, methods=["post"])
    @idempotent
    def pause(self, request: Request, pk: str | None = None) -> Response:
        """The player stepped away: time and rounds stop counting."""
        return self._answer(slips.slip_pause(actor=request.user, slip_id=self._slip(pk).pk))

    @extend_schema(request=None, responses=s.RatingSlipDetailSerializer)
    @action(detail=True, methods=["post"])
    @idempotent
    def resume(self, request: Request, pk: str | None = None) -> Response:
        return self._answer(slips.slip_resume(actor=request.user, slip_id=self._slip(pk).pk))

    @extend_schema(request=s.SlipCloseInput, responses=s.RatingSlipDetailSerializer)
    @action(detail=True, methods=["post"])
    @idempotent
    def close(self, request: Request, pk: str | None = None) -> Response:
        """The player leaves: the slip closes and its rating is fixed (``rated``) now or by a job shortly."""
        slip = self._slip(pk)
        data = s.SlipCloseInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        return self._answer(
            slips.slip_close(
                actor=request.user,
                slip_id=slip.pk,
                walk_with=v.get("walk_with"),
                estimated_average_bet=v.get("estimated_average_bet"),
            )
        )

    @extend_schema(request=s.EstimateInput, responses=s.RatingSlipDetailSerializer)
    @action(detail=True, methods=["post"])
    @idempotent
    def estimate(self, request: Request, pk: str | None = None) -> Response:
        """The floor's estimate of the average bet (null clears it)."""
        slip = self._slip(pk)
        data = s.EstimateInput(data=request.data)
        data.is_valid(raise_exception=True)
        return self._answer(
            slips.slip_estimate(
                actor=request.user, slip_id=slip.pk, estimated_average_bet=data.validated_data["estimated_average_bet"]
            )
        )

    @extend_schema(request=s.IdentifyInput, responses=s.RatingSlipDetailSerializer)
    @action(detail=True, methods=["post"])
    @idempotent
    def identify(self, request: Request, pk: str | None = None) -> Response:
        """Name the player of an anonymous slip (by id or card number)."""
        slip = self._slip(pk)
        data = s.IdentifyInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        return self._answer(
            slips.slip_identify(
                actor=request.user, slip_id=slip.pk, player_id=v.get("player"), card_number=v.get("card_number")
            )
        )

    @extend_schema(request=s.BuyInInput, responses={201: s.RatingSlipDetailSerializer})
    @action(detail=True, methods=["post"], url_path="buy-ins")
    @idempotent
    def buy_ins(self, request: Request, pk: str | None = None) -> Response:
        """Chips bought at the seat with cash (logged for compliance) or a marker issued at this table."""
        slip = self._slip(pk)
        data = s.BuyInInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        slips.buy_in_record(
            actor=request.user, slip_id=slip.pk, method=v["method"], amount=v.get("amount"), marker_id=v.get("marker")
        )
        return self._answer(slip, status.HTTP_201_CREATED)


# -- the cash transaction log ------------------------------------------------------------------------------


class CashTransactionViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The multiple transaction log. Recorded by pit managers, accountants and compliance; read by
    compliance only. Filters: ``gaming_date``, ``player``, ``direction``."""

    serializer_class = s.CashTransactionSerializer
    permission_classes = [COMPLIANCE_ONLY]
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[CashTransaction]:
        direction = str(self.request.query_params.get("direction", ""))
        if direction not in ("", "in", "out"):
            raise InvalidInput(gettext("the direction must be in or out"), code="bad_parameter", field="direction")
        return selectors.cash_transactions(
            gaming_date=_date_param(self.request, "gaming_date"),
            player_id=_int_param(self.request, "player"),
            direction=direction,
        ).order_by("-recorded_at", "-id")

    @extend_schema(
        parameters=[
            OpenApiParameter("gaming_date", dt.date),
            OpenApiParameter("player", int),
            OpenApiParameter("direction", str),
        ]
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(request=s.CashInput, responses={201: s.RecordedSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        """Record cash in or out (the cage, or a table by its id); a player by id or card, or a description."""
        data = s.CashInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        txn = cash.cash_transaction_record(
            actor=request.user,
            kind=v["kind"],
            amount=v["amount"],
            player_id=v.get("player"),
            card_number=v.get("card_number"),
            description=v.get("description", ""),
            table_id=v.get("table"),
            note=v.get("note", ""),
        )
        return Response(s.RecordedSerializer(txn).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[OpenApiParameter("gaming_date", dt.date, required=True)],
        responses=s.DailyTotalSerializer(many=True),
    )
    @action(detail=False, methods=["get"], pagination_class=None)  # one day's list, whole (the schema says so)
    def daily(self, request: Request) -> Response:
        """Each player's cash in and cash out for a gaming day, largest first."""
        day = _date_param(request, "gaming_date")
        if day is None:
            raise InvalidInput(gettext("the gaming day is required"), code="missing_parameter", field="gaming_date")
        return Response(s.DailyTotalSerializer(selectors.daily_totals(gaming_date=day), many=True).data)


class CashReportViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Cash transaction report lines (one per player, gaming day and direction above the threshold)."""

    serializer_class = s.ReportLineSerializer
    permission_classes = [role_permission(read_roles=(Role.COMPLIANCE,))]
    filterset_fields = ["gaming_date", "direction", "player"]

    def get_queryset(self) -> QuerySet[CashTransactionReport]:
        return selectors.report_lines().order_by("-gaming_date", "-id")


# -- exports ----------------------------------------------------------------------------------------------


class PlayerReportView(ReportView):
    """``ratings`` and ``comps`` (accountants, compliance), ``cash_transactions`` and ``cash_reports``
    (compliance only): ``?format=json`` (default), ``csv`` (streamed), ``xlsx`` or ``pdf``; filters
    ``date_from``, ``date_to`` (gaming dates), ``table`` (id), ``pit`` (code), as each report takes them.
    Every export is audited (accounting.reports.api, the report view every area shares)."""

    permission_classes = [role_permission(read_roles=(Role.ACCOUNTANT, Role.COMPLIANCE, Role.PIT_MANAGER,
                                                      Role.AUDITOR))]
    reports = reports.REPORTS
    audit_prefix = "players."
    too_large_hint = "narrow the dates, or take the CSV (streamed)"

    def readers(self, name: str) -> tuple[Role, ...]:
        return reports.READERS[name]

    @extend_schema(responses={200: dict}, operation_id="players_report")
    def get(self, request: Request, name: str) -> Any:
        return super().get(request, name)
