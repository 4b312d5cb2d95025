"""The card room's REST API (``/api/cardroom/…``). Thin: validate input, call one service, serialize.

Who may do what (the services check it again; the permission classes answer 403 early): a table's
dealer (assigned now) or its pit manager opens sheets, enters and corrects deals while the game is
on, closes sheets and takes rake; only a pit manager corrects a sheet that has ended; the pit
managers of a tournament's pit run it; accountants and auditors read everything.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom import selectors
from cardroom import serializers as s
from cardroom.models import ScoreSheet, Tournament
from cardroom.services import sheets, tournaments
from cardroom.wording import check_words, in_reader_words
from casino.core.roles import Role
from casino.errors import Forbidden, NotFound
from casino.idempotency import idempotent
from casino.permissions import role_permission
from tables.scoring.refusals import ScoringError
from tables.scoring.registry import all_games

STAFF = (Role.DEALER, Role.PIT_MANAGER, Role.ACCOUNTANT, Role.AUDITOR)
SCORERS = role_permission(Role.DEALER, Role.PIT_MANAGER, read_roles=STAFF)


class InReaderWords:
    """A game's refusal of an entry, a setting or a check answers in the reader's language (cardroom/wording.py):
    the same code, field and params, the message worded from the game's template."""

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, ScoringError):
            in_reader_words(exc)
        return super().handle_exception(exc)  # type: ignore[misc]


class GamesView(APIView):
    """The scored games: settings, players, whether the lowest score wins, the validity checks offered."""

    permission_classes = [role_permission(read_roles=STAFF)]

    @extend_schema(responses={200: {"type": "array", "items": {"type": "object"}}})
    def get(self, request: Request) -> Response:
        return Response([game.describe() for _, game in sorted(all_games().items())])


class GameCheckView(InReaderWords, APIView):
    """Run a game's validity check (Carousel: ``meld``, ``table``; Crazy Casino: ``build``). Writes nothing."""

    permission_classes = [role_permission(Role.DEALER, Role.PIT_MANAGER, read_roles=STAFF)]

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT})
    def post(self, request: Request, game: str, check: str) -> Response:
        answer = sheets.game_check(game=game, check=check, payload=request.data)
        # the answer's facts as the game gave them, and ``said``: the answer in the reader's words
        return Response({**answer, "said": check_words(answer)})


class SheetFilter(filters.FilterSet):
    table = filters.CharFilter(field_name="table__code")

    class Meta:
        model = ScoreSheet
        fields = ["table", "status", "game", "tournament"]


class SheetViewSet(InReaderWords, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Score sheets: open, enter deals, correct them, close, take rake."""

    permission_classes = [SCORERS]
    filterset_class = SheetFilter
    ordering_fields = ["id", "opened_at"]

    def get_queryset(self) -> QuerySet:
        return selectors.visible_sheets(self.request.user).select_related("opened_by")

    def get_serializer_class(self) -> Any:
        return s.SheetSerializer if self.action == "list" else s.SheetDetailSerializer

    def _sheet(self, pk: Any) -> ScoreSheet:
        sheet = ScoreSheet.objects.select_related("table__pit").filter(pk=pk).first() if str(pk).isdigit() else None
        if sheet is None:
            raise NotFound(gettext("no score sheet %(sheet)s") % {"sheet": pk}, code="unknown_sheet")
        if not selectors.can_view_sheet(self.request.user, sheet):
            raise Forbidden(gettext("you may not act on table %(table)s") % {"table": sheet.table.code}, code="not_your_table")
        return sheet

    def _answer(self, sheet_id: int, code: int = status.HTTP_200_OK) -> Response:
        sheet = ScoreSheet.objects.select_related("table", "opened_by").get(pk=sheet_id)
        return Response(s.SheetDetailSerializer(sheet).data, status=code)

    @extend_schema(request=s.SheetOpenInput, responses={201: s.SheetDetailSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        """Open a sheet at a table (for a tournament: its game and settings, entered players only)."""
        data = s.SheetOpenInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        sheet = sheets.sheet_open(
            table_id=v["table"],
            game=v.get("game"),
            players=v["players"],
            config=v.get("config"),
            tournament_id=v.get("tournament"),
            actor=request.user,
        )
        return self._answer(sheet.pk, status.HTTP_201_CREATED)

    @extend_schema(request=s.DealInput, responses={201: s.SheetDetailSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def deals(self, request: Request, pk: str | None = None) -> Response:
        """Enter the next deal; the game checks and scores it."""
        sheet = self._sheet(pk)
        data = s.DealInput(data=request.data)
        data.is_valid(raise_exception=True)
        sheets.deal_record(sheet_id=sheet.pk, entry=data.validated_data["entry"], actor=request.user)
        return self._answer(sheet.pk, status.HTTP_201_CREATED)

    @extend_schema(request=s.DealInput, responses={200: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["post"])
    def preview(self, request: Request, pk: str | None = None) -> Response:
        """What an entry would score as the next deal (writes nothing)."""
        sheet = self._sheet(pk)
        data = s.DealInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(sheets.deal_preview(sheet=sheet, entry=data.validated_data["entry"]))

    @extend_schema(request=s.CorrectionInput, responses={201: s.SheetDetailSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def corrections(self, request: Request, pk: str | None = None) -> Response:
        """Correct a deal: a new entry, with a reason, supersedes it; the sheet is replayed."""
        sheet = self._sheet(pk)
        data = s.CorrectionInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        sheets.deal_correct(sheet_id=sheet.pk, deal=v["deal"], entry=v["entry"], reason=v["reason"], actor=request.user)
        return self._answer(sheet.pk, status.HTTP_201_CREATED)

    @extend_schema(request=s.CloseInput, responses={200: s.SheetDetailSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def close(self, request: Request, pk: str | None = None) -> Response:
        """End the sheet before the game's own end; the player ahead, if one is, wins."""
        sheet = self._sheet(pk)
        data = s.CloseInput(data=request.data)
        data.is_valid(raise_exception=True)
        sheets.sheet_close(sheet_id=sheet.pk, reason=data.validated_data.get("reason", ""), actor=request.user)
        return self._answer(sheet.pk)

    @extend_schema(request=s.RakeInput, responses={201: s.SheetDetailSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def rake(self, request: Request, pk: str | None = None) -> Response:
        """Take rake (or a time charge) at the sheet's table; posted to the ledger."""
        sheet = self._sheet(pk)
        data = s.RakeInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        sheets.rake_collect(sheet_id=sheet.pk, amount=v["amount"], memo=v.get("memo", ""), actor=request.user)
        return self._answer(sheet.pk, status.HTTP_201_CREATED)


class TournamentViewSet(InReaderWords, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Tournaments: create, enter players (fees posted), start, finish (prizes paid), cancel (fees refunded)."""

    permission_classes = [role_permission(Role.PIT_MANAGER, read_roles=STAFF)]
    filterset_fields = ["status", "game", "pit"]
    queryset = Tournament.objects.select_related("pit")

    def get_serializer_class(self) -> Any:
        return s.TournamentSerializer if self.action == "list" else s.TournamentDetailSerializer

    def _id(self, pk: Any) -> int:
        if not str(pk).isdigit() or not Tournament.objects.filter(pk=int(pk)).exists():
            raise NotFound(gettext("no tournament %(tournament)s") % {"tournament": pk}, code="unknown_tournament")
        return int(pk)

    def _answer(self, tournament_id: int, code: int = status.HTTP_200_OK) -> Response:
        t = Tournament.objects.select_related("pit").get(pk=tournament_id)
        return Response(s.TournamentDetailSerializer(t).data, status=code)

    @extend_schema(request=s.TournamentInput, responses={201: s.TournamentDetailSerializer})
    @idempotent
    def create(self, request: Request) -> Response:
        data = s.TournamentInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        t = tournaments.tournament_create(
            name=v["name"],
            pit_id=v["pit"],
            game=v["game"],
            config=v.get("config"),
            entry_fee=v["entry_fee"],
            house_fee=v["house_fee"],
            actor=request.user,
        )
        return self._answer(t.pk, status.HTTP_201_CREATED)

    @extend_schema(request=s.RegisterInput, responses={201: s.TournamentDetailSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def entries(self, request: Request, pk: str | None = None) -> Response:
        """Enter a player; the entry and house fees are posted."""
        tid = self._id(pk)
        data = s.RegisterInput(data=request.data)
        data.is_valid(raise_exception=True)
        tournaments.tournament_register(tournament_id=tid, player=data.validated_data["player"], actor=request.user)
        return self._answer(tid, status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: s.TournamentDetailSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def start(self, request: Request, pk: str | None = None) -> Response:
        tid = self._id(pk)
        tournaments.tournament_start(tournament_id=tid, actor=request.user)
        return self._answer(tid)

    @extend_schema(request=s.FinishInput, responses={200: s.TournamentDetailSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def finish(self, request: Request, pk: str | None = None) -> Response:
        """Pay the prizes, which must share out the prize pool exactly."""
        tid = self._id(pk)
        data = s.FinishInput(data=request.data)
        data.is_valid(raise_exception=True)
        tournaments.tournament_finish(
            tournament_id=tid, payouts=[dict(p) for p in data.validated_data["payouts"]], actor=request.user
        )
        return self._answer(tid)

    @extend_schema(request=s.CancelInput, responses={200: s.TournamentDetailSerializer})
    @action(detail=True, methods=["post"])
    @idempotent
    def cancel(self, request: Request, pk: str | None = None) -> Response:
        """Call it off: every entry's fees are refunded by reversing transactions."""
        tid = self._id(pk)
        data = s.CancelInput(data=request.data)
        data.is_valid(raise_exception=True)
        tournaments.tournament_cancel(tournament_id=tid, reason=data.validated_data["reason"], actor=request.user)
        return self._answer(tid)
