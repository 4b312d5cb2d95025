"""The slot floor's REST API (``/api/slots/…``). Thin: validate input, call one service, serialize.

Who may do what (the services check it again; the permission classes answer 403 early): pit managers
(and admins) put machines on the floor, record meter readings, set up and link progressives, record
hits and run bonus meters; accountants and auditors read everything; accountants export the reports.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounting.reports import api as report_api
from accounting.reports.base import Report, text_cell
from casino.core.roles import Role
from casino.idempotency import idempotent
from casino.permissions import role_permission
from slots import selectors
from slots import serializers as s
from slots.models import BonusMeter, Machine, MeterReading, Progressive
from slots.reports import REPORTS, SlotFilters
from slots.services import bonus, machines, progressives
from slots.services.common import not_found

READERS = (Role.PIT_MANAGER, Role.ACCOUNTANT, Role.AUDITOR)
SLOTS = role_permission(Role.PIT_MANAGER, read_roles=READERS)


def _pk(pk: Any, what: str, code: str) -> int:
    if not str(pk).isdigit():
        raise not_found(code, pk)
    return int(pk)


def hold_json(row: dict[str, Any]) -> dict[str, Any]:
    m = row["machine"]
    return {
        "machine": m.pk,
        "asset_number": m.asset_number,
        "game": m.game,
        **{k: row[k] for k in ("readings", "coin_in", "coin_out", "jackpots", "games_played", "drop", "win",
                               "contributions", "ram_clears")},
        "hold": selectors.fraction_text(row["hold"]),
        "hold_percent": text_cell(row["hold"], "percent"),
    }


class MachineViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Machines: put one on the floor, change its location or status, record its meter readings."""

    permission_classes = [SLOTS]
    filterset_fields = ["status", "game", "location"]
    queryset = Machine.objects.all()
    serializer_class = s.MachineSerializer

    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        """The machine, its last reading, its hold since its first reading, its progressives and bonus meters."""
        machine = Machine.objects.filter(pk=_pk(pk, "slot machine", "unknown_machine")).first()
        if machine is None:
            raise not_found("unknown_machine", pk)
        last = selectors.last_readings([machine]).get(machine.pk)
        hold = selectors.machine_hold(machine=machine.asset_number)[0]
        return Response({
            **s.MachineSerializer(machine).data,
            "last_reading": s.ReadingSerializer(last).data if last else None,
            "hold": hold_json(hold),
            "progressives": s.ProgressiveSerializer(machine.progressives.order_by("code"), many=True).data,
            "bonus_meters": s.BonusMeterSerializer(machine.bonus_meters.select_related("machine"), many=True).data,
        })

    @extend_schema(request=s.MachineInput, responses={201: s.MachineSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        data = s.MachineInput(data=request.data)
        data.is_valid(raise_exception=True)
        machine = machines.machine_create(actor=request.user, **data.validated_data)
        return Response(s.MachineSerializer(machine).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.MachineUpdateInput, responses={200: s.MachineSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def change(self, request: Request, pk: str | None = None) -> Response:
        """Change the game name, the location or the status (active, out_of_service, retired — final)."""
        data = s.MachineUpdateInput(data=request.data)
        data.is_valid(raise_exception=True)
        machine = machines.machine_update(
            machine_id=_pk(pk, "slot machine", "unknown_machine"), actor=request.user, **data.validated_data
        )
        return Response(s.MachineSerializer(machine).data)

    @extend_schema(request=s.ReadingInput, responses={201: s.ReadingSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def readings(self, request: Request, pk: str | None = None) -> Response:
        """Record the machine's cumulative meters; its progressives' contributions are posted."""
        data = s.ReadingInput(data=request.data)
        data.is_valid(raise_exception=True)
        reading = machines.meter_reading_record(
            machine_id=_pk(pk, "slot machine", "unknown_machine"), actor=request.user, **data.validated_data
        )
        return Response(s.ReadingSerializer(reading).data, status=status.HTTP_201_CREATED)


class ReadingViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Meter readings, newest first (``?machine=<id>``, ``?ram_clear=true``)."""

    permission_classes = [SLOTS]
    serializer_class = s.ReadingSerializer
    filterset_fields = ["machine", "ram_clear"]

    def get_queryset(self) -> QuerySet:
        return (
            MeterReading.objects.select_related("machine", "supervisor", "recorded_by")
            .prefetch_related("contributions__progressive")
            .order_by("-read_at", "-id")
        )


class ProgressiveViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Progressive jackpots: set one up, link and unlink machines, record a hit."""

    permission_classes = [SLOTS]
    filterset_fields = ["scope"]

    def get_queryset(self) -> QuerySet:
        return Progressive.objects.prefetch_related("machines")

    def get_serializer_class(self) -> Any:
        return s.ProgressiveSerializer if self.action == "list" else s.ProgressiveDetailSerializer

    def _answer(self, progressive_id: int, code: int = status.HTTP_200_OK) -> Response:
        return Response(s.ProgressiveDetailSerializer(Progressive.objects.get(pk=progressive_id)).data, status=code)

    @extend_schema(request=s.ProgressiveInput, responses={201: s.ProgressiveDetailSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        """A progressive starting at its reset value (or ``amount``), funded by the house."""
        data = s.ProgressiveInput(data=request.data)
        data.is_valid(raise_exception=True)
        p = progressives.progressive_create(actor=request.user, **data.validated_data)
        return self._answer(p.pk, status.HTTP_201_CREATED)

    @extend_schema(request=s.LinkInput, responses={200: s.ProgressiveDetailSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def link(self, request: Request, pk: str | None = None) -> Response:
        data = s.LinkInput(data=request.data)
        data.is_valid(raise_exception=True)
        p = progressives.progressive_link(
            progressive_id=_pk(pk, "progressive", "unknown_progressive"),
            machine_id=data.validated_data["machine"], actor=request.user,
        )
        return self._answer(p.pk)

    @extend_schema(request=s.LinkInput, responses={200: s.ProgressiveDetailSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def unlink(self, request: Request, pk: str | None = None) -> Response:
        data = s.LinkInput(data=request.data)
        data.is_valid(raise_exception=True)
        p = progressives.progressive_unlink(
            progressive_id=_pk(pk, "progressive", "unknown_progressive"),
            machine_id=data.validated_data["machine"], actor=request.user,
        )
        return self._answer(p.pk)

    @extend_schema(request=s.HitInput, responses={201: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["post"])
    @idempotent
    def hit(self, request: Request, pk: str | None = None) -> Response:
        """Won at a machine: pay the current amount, reset to the reset value (house-funded)."""
        data = s.HitInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        hit = progressives.progressive_hit(
            progressive_id=_pk(pk, "progressive", "unknown_progressive"), machine_id=v["machine"],
            paid_by=v["paid_by"], expected_amount=v.get("expected_amount"), note=v.get("note", ""),
            actor=request.user,
        )
        return Response(
            {"hit": s.HitSerializer(hit).data,
             "progressive": s.ProgressiveSerializer(Progressive.objects.get(pk=hit.progressive_id)).data},
            status=status.HTTP_201_CREATED,
        )


class BonusMeterViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Machines' bonus meters: create, enter the value the machine shows, record a win, reset."""

    permission_classes = [SLOTS]
    filterset_fields = ["machine", "unit", "name"]

    def get_queryset(self) -> QuerySet:
        return BonusMeter.objects.select_related("machine").order_by("machine__asset_number", "name")

    def get_serializer_class(self) -> Any:
        return s.BonusMeterSerializer if self.action == "list" else s.BonusMeterDetailSerializer

    def _answer(self, meter_id: int, code: int = status.HTTP_200_OK) -> Response:
        meter = BonusMeter.objects.select_related("machine").get(pk=meter_id)
        return Response(s.BonusMeterDetailSerializer(meter).data, status=code)

    @extend_schema(request=s.BonusMeterInput, responses={201: s.BonusMeterDetailSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        data = s.BonusMeterInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        meter = bonus.bonus_meter_create(actor=request.user, machine_id=v.pop("machine"), **v)
        return self._answer(meter.pk, status.HTTP_201_CREATED)

    @extend_schema(request=s.BonusUpdateInput, responses={201: s.BonusMeterDetailSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def value(self, request: Request, pk: str | None = None) -> Response:
        """The value the machine shows now (a credits meter only grows here)."""
        data = s.BonusUpdateInput(data=request.data)
        data.is_valid(raise_exception=True)
        event = bonus.bonus_meter_update(
            meter_id=_pk(pk, "bonus meter", "unknown_bonus_meter"), actor=request.user, **data.validated_data
        )
        return self._answer(event.meter_id, status.HTTP_201_CREATED)

    @extend_schema(request=s.BonusHitInput, responses={201: s.BonusMeterDetailSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def hit(self, request: Request, pk: str | None = None) -> Response:
        """Won: a credits meter pays out and is funded back to its reset value; a count meter resets."""
        data = s.BonusHitInput(data=request.data)
        data.is_valid(raise_exception=True)
        event = bonus.bonus_meter_hit(
            meter_id=_pk(pk, "bonus meter", "unknown_bonus_meter"), actor=request.user, **data.validated_data
        )
        return self._answer(event.meter_id, status.HTTP_201_CREATED)

    @extend_schema(request=s.BonusResetInput, responses={201: s.BonusMeterDetailSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def reset(self, request: Request, pk: str | None = None) -> Response:
        """Back to the reset value without a win (releasing credits owed needs a supervisor)."""
        data = s.BonusResetInput(data=request.data)
        data.is_valid(raise_exception=True)
        event = bonus.bonus_meter_reset(
            meter_id=_pk(pk, "bonus meter", "unknown_bonus_meter"), actor=request.user, **data.validated_data
        )
        return self._answer(event.meter_id, status.HTTP_201_CREATED)


class HoldView(APIView):
    """Each machine's meters and hold over a period (``?date_from&date_to&machine&game``): the exact
    fraction and the percentage with two decimals, rounded half away from zero."""

    permission_classes = [role_permission(read_roles=READERS)]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        f = SlotFilters.parse(request.query_params)
        rows = selectors.machine_hold(date_from=f.date_from, date_to=f.date_to, machine=f.machine, game=f.game)
        return Response({"filters": f.as_json(), "machines": [hold_json(r) for r in rows]})


class LiabilitiesView(APIView):
    """What the slot floor owes now: progressives and credits bonus meters, from the ledger."""

    permission_classes = [role_permission(read_roles=READERS)]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        progressive_rows = [
            {"code": r["progressive"].code, "name": r["progressive"].name, "machines": r["machines"],
             "shown": r["progressive"].amount, "carried": selectors.carried_text(r["progressive"].remainder),
             **{k: r[k] for k in ("liability", "contributed", "funded", "paid", "other")}}
            for r in selectors.progressive_liabilities()
        ]
        bonus_rows = [
            {"meter": r["meter"].pk, "machine": r["meter"].machine.asset_number, "name": r["meter"].name,
             "label": r["meter"].label, "credits": r["meter"].value, "shown": r["meter"].owed,
             **{k: r[k] for k in ("liability", "contributed", "funded", "paid", "released")}}
            for r in selectors.bonus_liabilities()
        ]
        return Response({
            "progressives": progressive_rows,
            "bonus_meters": bonus_rows,
            "total": sum(r["liability"] for r in progressive_rows + bonus_rows),
        })


class ReportListView(report_api.ReportListView):
    reports = REPORTS
    url_prefix = "/api/slots/reports/"

    @extend_schema(responses={200: {"type": "array", "items": {"type": "object"}}}, operation_id="slots_reports_list")
    def get(self, request: Request) -> Response:
        return super().get(request)


class ReportView(report_api.ReportView):
    """A slot report: ``?format=json`` (default), ``csv``, ``xlsx`` or ``pdf``; every export is audited
    (accounting.reports.api, the report view every area shares)."""

    reports = REPORTS

    def parse_filters(self, params: Any, report: type[Report]) -> SlotFilters:
        return SlotFilters.parse(params, allowed=report.filters_used, report=f"{report.title.lower()} report")

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, operation_id="slots_report")
    def get(self, request: Request, name: str) -> Any:
        return super().get(request, name)
