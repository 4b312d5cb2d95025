"""Accounting's REST API. Thin: validate input, call one service, serialize the result.

Who may do what (services check it again, the permission classes answer 403 early):
pit managers enter table counts, fills and credits, markers and closes for their pits; the count team
(pit manager or accountant) enters soft counts; accountants read everything and export reports;
auditors read. Every signature in a request is ``{"username", "password" | "pin"}`` (the person
signed in signs with just their username), and the person submitting is one of the signers
(casino/signatures.py).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.http import FileResponse
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounting import selectors
from accounting import serializers as s
from accounting.hold import statistical_hold
from accounting.models import (
    ChipSet,
    CreditLine,
    DropCount,
    ExportStatus,
    InventoryCount,
    Marker,
    Reconciliation,
    ReportExport,
    ShiftReconciliation,
    Slip,
    TableShiftClose,
)
from accounting.reports import CONTENT_TYPES, REPORTS, Filters
from accounting.reports import api as report_api
from accounting.reports.base import text_cell
from accounting.services import alerts, counts, credit, day, exports, reconcile, shifts, slips
from casino.core.roles import Role, has_role
from casino.errors import Conflict, Forbidden, InvalidInput, NotFound
from casino.idempotency import idempotent
from casino.pagination import MAX_OFFSET, query_number
from casino.permissions import role_permission
from tables.access import can_view_table
from tables.models import Shift, Table
from tables.selectors import visible_tables

READERS = (Role.PIT_MANAGER, Role.ACCOUNTANT, Role.AUDITOR)
LIST_OF_OBJECTS = {"type": "array", "items": {"type": "object"}}  # a list, one object per row
PIT = role_permission(Role.PIT_MANAGER, read_roles=READERS)
STATISTICAL_HOLD_FILTERS = ("date_from", "date_to", "shift", "table", "pit", "game")
ACCOUNTANTS = report_api.ACCOUNTANTS

# an export not ready to download, as the refusal words its state
EXPORT_STATUS_WORDS = {"queued": gettext_lazy("queued"), "running": gettext_lazy("being written"),
                       "failed": gettext_lazy("failed")}


def scoped(qs: QuerySet, user: Any, path: str = "table") -> QuerySet:
    """Accountants, auditors and admins see every table's records, and the cage and the count team those of the
    endpoints they may read (slips and markers, soft counts); pit managers their pits'."""
    if has_role(user, Role.ACCOUNTANT, Role.AUDITOR, Role.CASHIER, Role.COUNT_TEAM):
        return qs
    return qs.filter(**{f"{path}__in": visible_tables(user).values("pk")})


def _table(pk: Any, user: Any) -> Table:
    table = Table.objects.select_related("pit").filter(pk=pk).first() if isinstance(pk, int) else None
    if table is None:
        raise NotFound(gettext("no table %(table_id)s") % {"table_id": pk}, code="unknown_table", field="table")
    return table


def _path_int(pk: str | None) -> int | None:
    """A record's id from its address; anything else is no id (the service answers "no count …")."""
    text = str(pk)
    return int(text) if text.isdigit() and len(text) < 19 else None


def _query_int(request: Request, name: str, *, required: bool = True) -> int | None:
    value = query_number(request, name, minimum=0, maximum=MAX_OFFSET)
    if value is None and required:
        raise InvalidInput(gettext("%(name)s is required") % {"name": name}, code="missing_parameter", field=name)
    return value


# -- chips --------------------------------------------------------------------------------------


class ChipSetViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Chip denominations: casino-wide (admin) or per table (its pit manager)."""

    serializer_class = s.ChipSetSerializer
    permission_classes = [role_permission(Role.PIT_MANAGER, read_roles=READERS + (Role.DEALER,))]

    def get_queryset(self) -> QuerySet:
        sets = ChipSet.objects.select_related("table").order_by("id")
        if has_role(self.request.user, Role.ACCOUNTANT, Role.AUDITOR):
            return sets
        return sets.filter(Q(table__isnull=True) | Q(table__in=visible_tables(self.request.user).values("pk")))

    @extend_schema(request=s.DenominationsInput, responses={201: s.ChipSetSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        data = s.DenominationsInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        chip_set = counts.denominations_set(
            actor=request.user, denominations=v["denominations"], table_id=v.get("table")
        )
        return Response(s.ChipSetSerializer(chip_set).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: dict})
    @action(detail=False, methods=["get"])
    def effective(self, request: Request) -> Response:
        """The denominations a table uses (``?table=<id>``), or the casino's."""
        table_id = _query_int(request, "table", required=False)
        table = _table(table_id, request.user) if table_id is not None else None
        if table is not None and not can_view_table(request.user, table):
            raise NotFound(gettext("no table %(table_id)s") % {"table_id": table_id}, code="unknown_table", field="table")
        return Response({"table": table.code if table else None, "denominations": counts.denominations_for(table)})


# -- counts -------------------------------------------------------------------------------------


class InventoryCountViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Opening and closing inventory counts, signed by the table's dealer and a supervisor."""

    serializer_class = s.InventoryCountSerializer
    permission_classes = [PIT]
    filterset_fields = ["table", "shift", "kind"]

    def get_queryset(self) -> QuerySet:
        return scoped(
            InventoryCount.objects.select_related("table", "dealer_signer", "supervisor_signer", "superseded_by"),
            self.request.user,
        )

    @extend_schema(request=s.CountInput, responses={201: s.InventoryCountSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        data = s.CountInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        count = counts.inventory_count_record(
            actor=request.user,
            table_id=_table(v["table"], request.user).pk,
            shift_id=v["shift"],
            kind=v["kind"],
            chips=v["chips"],
            dealer=v["dealer"],
            supervisor=v["supervisor"],
            tray_empty=v["tray_empty"],
        )
        return Response(s.InventoryCountSerializer(count).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.TableShiftInput, responses={201: s.InventoryCountSerializer})
    @action(detail=False, methods=["post"])
    @idempotent
    def roll(self, request: Request) -> Response:
        """Open the table's shift with its last closer as the opener."""
        data = s.TableShiftInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        count = counts.inventory_roll(
            actor=request.user, table_id=_table(v["table"], request.user).pk, shift_id=v["shift"]
        )
        return Response(s.InventoryCountSerializer(count).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.RecountInput, responses={201: s.InventoryCountSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def recount(self, request: Request, pk: str | None = None) -> Response:
        """Count the opener or closer again: a new count superseding this one, with a reason and two signatures."""
        data = s.RecountInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        count = counts.inventory_recount(
            actor=request.user, count_id=_path_int(pk), chips=v["chips"], dealer=v["dealer"],
            supervisor=v["supervisor"], reason=v["reason"], tray_empty=v["tray_empty"],
        )
        return Response(s.InventoryCountSerializer(count).data, status=status.HTTP_201_CREATED)


class DropCountViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The soft count of each table's drop box per shift, entered by two counters."""

    serializer_class = s.DropCountSerializer
    # a pit manager reaches the service, which answers another pit's table as the reads do ("no table")
    permission_classes = [role_permission(Role.COUNT_TEAM, Role.PIT_MANAGER, Role.ACCOUNTANT,
                                          read_roles=READERS + (Role.COUNT_TEAM,))]
    filterset_fields = ["table", "shift"]

    def get_queryset(self) -> QuerySet:
        return scoped(DropCount.objects.select_related("table", "counter_one", "counter_two", "superseded_by"),
                      self.request.user)

    @extend_schema(request=s.DropInput, responses={201: s.DropCountSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        data = s.DropInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        drop = counts.drop_count_record(
            actor=request.user,
            table_id=_table(v["table"], request.user).pk,
            shift_id=v["shift"],
            cash=v["cash"],
            chips=v["chips"],
            markers=v["markers"],
            counter_one=v["counter_one"],
            counter_two=v["counter_two"],
        )
        return Response(s.DropCountSerializer(drop).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.DropRecountInput, responses={201: s.DropCountSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def recount(self, request: Request, pk: str | None = None) -> Response:
        """Count the drop box again: a new soft count superseding this one, with a reason, by two counters."""
        data = s.DropRecountInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        drop = counts.drop_recount(
            actor=request.user, drop_id=_path_int(pk), cash=v["cash"], chips=v["chips"], markers=v["markers"],
            counter_one=v["counter_one"], counter_two=v["counter_two"], reason=v["reason"],
        )
        return Response(s.DropCountSerializer(drop).data, status=status.HTTP_201_CREATED)


# -- fills, credits, markers ----------------------------------------------------------------------


class SlipViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Fill and credit slips: request, issue, receive (each signed), void with a second person."""

    serializer_class = s.SlipSerializer
    permission_classes = [role_permission(Role.PIT_MANAGER, Role.CASHIER, Role.ACCOUNTANT,
                                          read_roles=READERS + (Role.CASHIER,))]
    filterset_fields = ["table", "shift", "kind", "status", "year"]

    def get_queryset(self) -> QuerySet:
        return scoped(
            Slip.objects.select_related("table", "request_signer", "issue_signer", "receive_signer"), self.request.user
        )

    def _pit_only(self, request: Request) -> None:
        if not has_role(request.user, Role.PIT_MANAGER):
            raise Forbidden(gettext("fills and credits are handled by the pit"), code="pit_manager_required")

    def _pit_or_cage(self, request: Request) -> None:
        if not has_role(request.user, Role.PIT_MANAGER, Role.CASHIER):
            raise Forbidden(gettext("fills and credits are handled by the pit and the cage"), code="pit_manager_required")

    @extend_schema(request=s.SlipInput, responses={201: s.SlipSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        self._pit_only(request)
        data = s.SlipInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        slip = slips.slip_request(
            actor=request.user,
            kind=v["kind"],
            table_id=_table(v["table"], request.user).pk,
            shift_id=v["shift"],
            chips=v["chips"],
        )
        return Response(s.SlipSerializer(slip).data, status=status.HTTP_201_CREATED)

    def _sign(self, request: Request, pk: str | None, service: Any) -> Response:
        self._pit_or_cage(request)  # the service decides which steps are the cage's
        data = s.SignInput(data=request.data)
        data.is_valid(raise_exception=True)
        slip = service(actor=request.user, slip_id=self._slip_id(pk), signer=data.validated_data["signer"])
        return Response(s.SlipSerializer(slip).data)

    def _slip_id(self, pk: str | None) -> int:
        if not str(pk).isdigit():
            raise NotFound(gettext("no slip %(slip_id)s") % {"slip_id": pk})
        return int(str(pk))

    @extend_schema(request=s.SignInput, responses=s.SlipSerializer)
    @action(detail=True, methods=["post"])
    @idempotent
    def issue(self, request: Request, pk: str | None = None) -> Response:
        """The sender signs: the cage for a fill, the table's dealer for a credit."""
        return self._sign(request, pk, slips.slip_issue)

    @extend_schema(request=s.SignInput, responses=s.SlipSerializer)
    @action(detail=True, methods=["post"])
    @idempotent
    def receive(self, request: Request, pk: str | None = None) -> Response:
        """The receiver signs: the table's dealer for a fill, the cage for a credit. Posts to the ledger."""
        return self._sign(request, pk, slips.slip_receive)

    @extend_schema(request=s.ReasonInput, responses=s.SlipSerializer)
    @action(detail=True, methods=["post"])
    @idempotent
    def void(self, request: Request, pk: str | None = None) -> Response:
        """Ask for a void with a written reason (the pit, or the cage refusing a request)."""
        self._pit_or_cage(request)
        data = s.ReasonInput(data=request.data)
        data.is_valid(raise_exception=True)
        slip = slips.slip_void_request(
            actor=request.user, slip_id=self._slip_id(pk), reason=data.validated_data["reason"]
        )
        return Response(s.SlipSerializer(slip).data)

    @extend_schema(request=None, responses=s.SlipSerializer)
    @action(detail=True, methods=["post"], url_path="void/approve")
    @idempotent
    def void_approve(self, request: Request, pk: str | None = None) -> Response:
        """A second, independent person approves the void (a pit manager of the table or an accountant)."""
        slip = slips.slip_void_approve(actor=request.user, slip_id=self._slip_id(pk))
        return Response(s.SlipSerializer(slip).data)

    @extend_schema(responses={200: dict})
    @action(detail=False, methods=["get"])
    def numbers(self, request: Request) -> Response:
        """Every number of a slip series accounted for: used, voided, outstanding, gaps (``?kind&year``)."""
        kind = request.query_params.get("kind", "fill")
        if kind not in ("fill", "credit"):
            raise InvalidInput(gettext("kind must be fill or credit"), code="bad_parameter", field="kind")
        from django.utils import timezone

        year = _query_int(request, "year", required=False) or timezone.localdate().year
        floor = has_role(request.user, Role.ACCOUNTANT, Role.AUDITOR, Role.CASHIER)  # the cage keeps every number
        tables = None if floor else visible_tables(request.user)
        return Response(slips.slip_numbers(kind=kind, year=year, tables=tables))


class CreditLineViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Players' credit lines for markers: every approval, the latest per player in force (``?player=``)."""

    serializer_class = s.CreditLineSerializer
    permission_classes = [role_permission(Role.PIT_MANAGER, Role.ACCOUNTANT, read_roles=READERS + (Role.CASHIER,))]

    def get_queryset(self) -> QuerySet:
        lines = CreditLine.objects.select_related("approver").order_by("player", "-approved_at", "-id")
        player = self.request.query_params.get("player")
        return lines.filter(player__iexact=player.strip()) if player else lines

    @extend_schema(request=s.CreditLineInput, responses={201: s.CreditLineSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        data = s.CreditLineInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        line = credit.credit_line_set(actor=request.user, player=v["player"], limit=v["limit"],
                                      approver=v["approver"], reason=v["reason"])
        return Response(s.CreditLineSerializer(line).data, status=status.HTTP_201_CREATED)


class MarkerViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Markers issued at the tables, their payments and write-offs."""

    serializer_class = s.MarkerSerializer
    permission_classes = [role_permission(Role.PIT_MANAGER, Role.CASHIER, Role.ACCOUNTANT,
                                          read_roles=READERS + (Role.CASHIER,))]
    filterset_fields = ["table", "shift", "year"]

    def get_queryset(self) -> QuerySet:
        return scoped(
            Marker.objects.select_related("table", "supervisor_signer", "dealer_signer", "write_off__accountant_signer",
                                          "write_off__second_signer").prefetch_related(
                "payments__signer", "payments__table"
            ),
            self.request.user,
        )

    @extend_schema(request=s.MarkerInput, responses={201: s.MarkerSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        if not has_role(request.user, Role.PIT_MANAGER):
            raise Forbidden(gettext("markers are issued by the pit"), code="pit_manager_required")
        data = s.MarkerInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        marker = slips.marker_issue(
            actor=request.user,
            table_id=_table(v["table"], request.user).pk,
            shift_id=v["shift"],
            player=v["player"],
            amount=v["amount"],
            supervisor=v["supervisor"],
            dealer=v["dealer"],
        )
        return Response(s.MarkerSerializer(marker).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.MarkerPaymentInput, responses={201: s.MarkerPaymentSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def payments(self, request: Request, pk: str | None = None) -> Response:
        """A payment in chips at a table (pit manager) or at the cage (pit manager or accountant)."""
        data = s.MarkerPaymentInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        if not str(pk).isdigit():
            raise NotFound(gettext("no marker %(marker_id)s") % {"marker_id": pk})
        payment = slips.marker_pay(
            actor=request.user,
            marker_id=int(str(pk)),
            amount=v["amount"],
            at_table=v["at_table"],
            signer=v["signer"],
            table_id=v.get("table"),
            shift_id=v.get("shift"),
        )
        return Response(s.MarkerPaymentSerializer(payment).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.MarkerWriteOffInput, responses={201: s.MarkerWriteOffSerializer})
    @action(detail=True, methods=["post"], url_path="write-off")
    @idempotent
    def write_off(self, request: Request, pk: str | None = None) -> Response:
        """Write off what is left to pay (an accountant, with a reason, and a second person signing)."""
        data = s.MarkerWriteOffInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        if not str(pk).isdigit():
            raise NotFound(gettext("no marker %(marker_id)s") % {"marker_id": pk})
        write_off = slips.marker_write_off(
            actor=request.user, marker_id=int(str(pk)), reason=v["reason"], accountant=v["accountant"],
            second=v["second"],
        )
        return Response(s.MarkerWriteOffSerializer(write_off).data, status=status.HTTP_201_CREATED)


# -- closing and reconciling ------------------------------------------------------------------------


class TableShiftCloseViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Closed table shifts with their fixed figures; POST closes one."""

    serializer_class = s.TableShiftCloseSerializer
    permission_classes = [PIT]
    filterset_fields = ["table", "shift"]

    def get_queryset(self) -> QuerySet:
        return scoped(TableShiftClose.objects.select_related("table", "reopening__reopened_by"), self.request.user)

    @extend_schema(request=s.TableShiftInput, responses={201: s.TableShiftCloseSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        data = s.TableShiftInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        close = shifts.table_shift_close(
            actor=request.user, table_id=_table(v["table"], request.user).pk, shift_id=v["shift"]
        )
        return Response(s.TableShiftCloseSerializer(close).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.ReopenInput, responses={201: s.TableCloseReopeningSerializer})
    @action(detail=False, methods=["post"], permission_classes=[role_permission(Role.SHIFT_MANAGER,
                                                                                read_roles=READERS)])
    @idempotent
    def reopen(self, request: Request) -> Response:
        """Reopen a table's close once, for correction: a shift manager, with a reason, before the shift closes."""
        data = s.ReopenInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        reopening = shifts.table_close_reopen(
            actor=request.user, table_id=_table(v["table"], request.user).pk, shift_id=v["shift"], reason=v["reason"]
        )
        return Response(s.TableCloseReopeningSerializer(reopening).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: dict})
    @action(detail=False, methods=["get"])
    def figures(self, request: Request) -> Response:
        """A table's figures for a shift as they stand (``?table=<id>&shift=<id>``), and what is missing."""
        table = _table(_query_int(request, "table"), request.user)
        if not can_view_table(request.user, table):
            raise Forbidden(gettext("you may not see table %(table)s") % {"table": table.code}, code="not_your_table")
        shift_id = _query_int(request, "shift")
        shift = Shift.objects.filter(pk=shift_id).first() if shift_id is not None else None
        if shift is None:
            raise NotFound(gettext("no such shift"), code="unknown_shift", field="shift")
        found = selectors.table_shift_figures(table, shift)
        return Response(
            {
                **found.as_dict(),
                "hold_pct": text_cell(found.hold, "percent"),
                "statistical_hold_pct": text_cell(found.statistical_hold, "percent"),
            }
        )


class ShiftCloseView(APIView):
    """Close the casino's shift: every table that did anything in it must be closed."""

    permission_classes = [PIT]

    @extend_schema(request=s.ShiftInput, responses={200: dict})
    @idempotent
    def post(self, request: Request) -> Response:
        data = s.ShiftInput(data=request.data)
        data.is_valid(raise_exception=True)
        shift = shifts.shift_close(actor=request.user, shift_id=data.validated_data["shift"])
        return Response({"shift": shift.pk, "status": shift.status, "closed_at": shift.closed_at})


class DayRollView(APIView):
    """Roll the tables: each open table of the caller's floor gets its opener from its last closer, and keeps
    its last dealer (``keep_dealers``, true by default). A shift manager (or a pit manager, per the setting
    ``DAY_RUN_BY``) rolls; each table's outcome says rolled or why not."""

    permission_classes = [PIT]

    @extend_schema(request=s.DayRollInput, responses={200: dict})
    @idempotent
    def post(self, request: Request) -> Response:
        data = s.DayRollInput(data=request.data)
        data.is_valid(raise_exception=True)
        lines = day.tables_roll(actor=request.user, shift_id=data.validated_data["shift"],
                                keep_dealers=data.validated_data["keep_dealers"])
        return Response({"shift": data.validated_data["shift"], "tables": [line.as_dict() for line in lines]})


class ReconciliationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Shift reconciliations; POST ``run`` reconciles a shift on demand (202 while queued)."""

    serializer_class = s.ShiftReconciliationSerializer
    permission_classes = [role_permission(Role.PIT_MANAGER, Role.ACCOUNTANT, read_roles=READERS)]
    queryset = ShiftReconciliation.objects.all().order_by("-id")
    filterset_fields = ["shift", "status"]

    def get_serializer_context(self) -> dict[str, Any]:
        # a pit manager reads their pits' tables of every shift reconciled, and the totals over those
        user = self.request.user if getattr(self, "request", None) is not None else None
        scoped_reader = user is not None and not has_role(user, Role.ACCOUNTANT, Role.AUDITOR)
        return {**super().get_serializer_context(), "tables": visible_tables(user) if scoped_reader else None}

    @extend_schema(request=s.ShiftInput, responses={200: s.ShiftReconciliationSerializer, 202: dict})
    @action(detail=False, methods=["post"])
    @idempotent
    def run(self, request: Request) -> Response:
        data = s.ShiftInput(data=request.data)
        data.is_valid(raise_exception=True)
        shift_id = data.validated_data["shift"]
        existing = reconcile.reconcile_request(actor=request.user, shift_id=shift_id)
        if existing is not None:
            return Response(s.ShiftReconciliationSerializer(existing, context=self.get_serializer_context()).data)
        return Response({"shift": shift_id, "status": "queued"}, status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses=s.ReconciliationSerializer(many=True))
    @action(detail=False, methods=["get"])
    def tables(self, request: Request) -> Response:
        """Per-table results (``?shift=<id>``)."""
        rows = scoped(Reconciliation.objects.select_related("table"), request.user)
        shift_id = _query_int(request, "shift", required=False)
        if shift_id is not None:
            rows = rows.filter(shift_id=shift_id)
        page = self.paginate_queryset(rows.order_by("shift_id", "table__code"))
        return self.get_paginated_response(s.ReconciliationSerializer(page, many=True).data)


# -- alerts ---------------------------------------------------------------------------------------


class AlertViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Alerts for the pit: variances, large bets, unusual results. ``?open=true`` for unacknowledged."""

    serializer_class = s.AlertSerializer
    permission_classes = [PIT]
    filterset_fields = ["kind", "severity", "table", "shift"]

    def get_queryset(self) -> QuerySet:
        qs = selectors.visible_alerts(self.request.user)
        if self.request.query_params.get("open") in ("1", "true", "yes"):
            qs = qs.filter(acknowledged_at__isnull=True)
        return qs

    @extend_schema(request=s.AckInput, responses=s.AlertSerializer)
    @action(detail=True, methods=["post"])
    @idempotent
    def ack(self, request: Request, pk: str | None = None) -> Response:
        data = s.AckInput(data=request.data)
        data.is_valid(raise_exception=True)
        if not str(pk).isdigit():
            raise NotFound(gettext("no alert %(alert_id)s") % {"alert_id": pk})
        alert = alerts.alert_acknowledge(alert_id=int(str(pk)), actor=request.user, note=data.validated_data["note"])
        return Response(s.AlertSerializer(alert).data)


# -- reports ------------------------------------------------------------------------------------


class ReportListView(report_api.ReportListView):
    reports = REPORTS
    url_prefix = "/api/accounting/reports/"

    @extend_schema(responses={200: LIST_OF_OBJECTS}, operation_id="accounting_reports_list")
    def get(self, request: Request) -> Response:
        return super().get(request)


class ReportView(report_api.ReportView):
    """A report with filters: ``?format=json`` (default), ``csv`` (streamed), ``xlsx`` or ``pdf``.

    XLSX, PDF and JSON above ``EXPORT_SYNC_MAX_ROWS`` rows are refused with a pointer to the export
    job (POST /api/accounting/exports/), which writes the file in the background with progress.
    """

    reports = REPORTS
    too_large_hint = gettext_lazy("POST /api/accounting/exports/ to have the file written in the background")

    @extend_schema(responses={200: dict}, operation_id="accounting_report")
    def get(self, request: Request, name: str) -> Any:
        return super().get(request, name)


class ExportViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Report files written by a job: POST asks, GET shows progress, ``download`` fetches the file."""

    serializer_class = s.ReportExportSerializer
    permission_classes = [ACCOUNTANTS]

    def get_queryset(self) -> QuerySet:
        if getattr(self, "swagger_fake_view", False):  # schema generation has no user
            return ReportExport.objects.none()
        qs = ReportExport.objects.all()
        return qs if has_role(self.request.user) else qs.filter(requested_by=self.request.user)  # type: ignore[misc]  # signed in

    @extend_schema(request=s.ExportInput, responses={202: s.ReportExportSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        data = s.ExportInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        export = exports.export_request(actor=request.user, report=v["report"], fmt=v["format"], filters=v["filters"])
        export.refresh_from_db()
        return Response(s.ReportExportSerializer(export).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses={200: bytes})
    @action(detail=True, methods=["get"])
    def download(self, request: Request, pk: str | None = None) -> FileResponse:
        export = self.get_object()
        if export.status != ExportStatus.DONE:
            raise Conflict(gettext("export %(export_id)s is not ready: %(status)s (%(progress)s %%)")
                           % {"export_id": export.pk, "status": str(EXPORT_STATUS_WORDS.get(export.status, export.status)),
                              "progress": export.progress}, code="export_not_ready")
        return FileResponse(
            export.file.open("rb"),
            as_attachment=True,
            filename=f"{export.report}.{export.format}",
            content_type=CONTENT_TYPES[export.format],
        )


# -- ledger and statistics ----------------------------------------------------------------------------


class AccountBalancesView(APIView):
    """Every ledger account and its balance (Σ entries; debit positive)."""

    permission_classes = [role_permission(read_roles=(Role.ACCOUNTANT, Role.AUDITOR))]

    @extend_schema(responses={200: LIST_OF_OBJECTS})
    def get(self, request: Request) -> Response:
        table_id = _query_int(request, "table", required=False)
        table = _table(table_id, request.user) if table_id is not None else None
        return Response(selectors.account_balances(table=table))


class StatisticalHoldView(APIView):
    """Per table and game: handle, rounds win, the statistical hold (rounds win ÷ handle) against the
    theoretical hold with its 95 % interval. Filters as the reports' (a table and a shift by id)."""

    permission_classes = [role_permission(read_roles=READERS)]

    @extend_schema(responses={200: LIST_OF_OBJECTS})
    def get(self, request: Request) -> Response:
        f = Filters.parse(request.query_params, allowed=STATISTICAL_HOLD_FILTERS, report=gettext("Statistical hold"))
        table = Table.objects.filter(pk=f.table).first() if f.table is not None else None
        if table is not None and not can_view_table(request.user, table):
            raise NotFound(gettext("no table %(table_id)s") % {"table_id": f.table}, code="unknown_table", field="table")
        if not has_role(request.user, Role.ACCOUNTANT, Role.AUDITOR) and table is None:
            raise InvalidInput(gettext("pit managers ask per table (?table=<id>)"), code="missing_parameter", field="table")
        return Response(
            statistical_hold(
                table=f.table, shift=f.shift, game=f.game, pit=f.pit, date_from=f.date_from, date_to=f.date_to
            )
        )
