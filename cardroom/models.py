"""Score sheets, their deal entries, tournaments, entry fees, prizes and rake.

A score sheet is kept at a table for one game (``tables.scoring``): its players, its deals in the
order they were entered, the running totals and the winner. Deal entries are append-only (the
database refuses UPDATE and DELETE, migration 0002): a correction is a new entry that supersedes
the one it corrects, with a reason, and the sheet is replayed from the entries in force. Entry
fees, prizes and rake are money: each is posted to the ledger once and never edited; a cancelled
tournament's fees are refunded by reversing transactions. A posting names its record by
``source_type``/``source_id`` (``cardroom_entry``/entry id, ``cardroom_prizes``/tournament id,
``cardroom_rake``/rake id), as a round's does.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

PLAYER_NAME_MAX = 40
# A sheet's winner is one of its sides, and a partnership side is named by its players joined with " & "
# (``tables.scoring.euchre.Seating.teams``). The largest side any game seats is three (six-hand Five
# Hundred, Forty-Five, Auction Forty-Fives, Auction Euchre): three longest names and two joins, 126.
# tests/scoring/test_cardroom_service.py checks every registered game's longest side fits.
SIDE_PLAYERS_MAX = 3
SIDE_NAME_MAX = SIDE_PLAYERS_MAX * PLAYER_NAME_MAX + (SIDE_PLAYERS_MAX - 1) * len(" & ")


class SheetStatus(models.TextChoices):
    OPEN = "open", _("In progress")
    FINISHED = "finished", _("Finished (the game's end reached)")
    CLOSED = "closed", _("Closed before the game's end")


class TournamentStatus(models.TextChoices):
    REGISTERING = "registering", pgettext_lazy("tournament", "Taking entries")
    RUNNING = "running", pgettext_lazy("tournament", "Running")
    FINISHED = "finished", pgettext_lazy("tournament", "Finished, prizes paid")
    CANCELLED = "cancelled", pgettext_lazy("tournament", "Cancelled, entry fees refunded")


class Tournament(models.Model):
    """A tournament of one game in one pit: entries pay a fee (to the prize pool) and a house fee."""

    name = models.CharField(max_length=100)
    pit = models.ForeignKey("tables.Pit", on_delete=models.PROTECT, related_name="tournaments")
    game = models.CharField(max_length=40)
    config = models.JSONField(help_text="the game's rule settings, resolved; every sheet of the tournament uses them")
    entry_fee = models.BigIntegerField(help_text="minor units, to the prize pool")
    house_fee = models.BigIntegerField(default=0, help_text="minor units, the house's fee per entry")
    status = models.CharField(max_length=12, choices=TournamentStatus.choices, default=TournamentStatus.REGISTERING)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(entry_fee__gte=0, house_fee__gte=0), name="tournament_fees_non_negative"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["registering", "running"], ended_at__isnull=True)
                | Q(status__in=["finished", "cancelled"], ended_at__isnull=False),
                name="tournament_ended_has_time",
            ),
            models.CheckConstraint(
                condition=~Q(status="cancelled") | ~Q(end_reason=""), name="tournament_cancel_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class TournamentEntry(models.Model):
    """A player entered, and what they paid (append-only)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entries")
    player = models.CharField(max_length=PLAYER_NAME_MAX)
    fee = models.BigIntegerField()
    house_fee = models.BigIntegerField()
    registered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    registered_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player"),
            models.CheckConstraint(condition=Q(fee__gte=0, house_fee__gte=0), name="entry_fees_non_negative"),
        ]


class TournamentPayout(models.Model):
    """A prize paid (append-only): all of a tournament's prizes are one ledger transaction."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="payouts")
    place = models.PositiveSmallIntegerField()
    player = models.CharField(max_length=PLAYER_NAME_MAX)
    amount = models.BigIntegerField()
    paid_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    paid_at = models.DateTimeField()

    class Meta:
        ordering = ["tournament", "place"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_payout_per_player"),
            models.UniqueConstraint(fields=["tournament", "place"], name="one_payout_per_place"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="payout_positive"),
            models.CheckConstraint(condition=Q(place__gte=1), name="payout_place_positive"),
        ]


class ScoreSheet(models.Model):
    """One game of a scored card-room game at a table. ``state`` is the last replay of its deals."""

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="score_sheets")
    tournament = models.ForeignKey(Tournament, null=True, blank=True, on_delete=models.PROTECT, related_name="sheets")
    game = models.CharField(max_length=40)
    config = models.JSONField(help_text="the game's rule settings, resolved")
    players = models.JSONField(help_text="the players' names, in seat order")
    status = models.CharField(max_length=8, choices=SheetStatus.choices, default=SheetStatus.OPEN)
    deals = models.PositiveIntegerField(default=0, help_text="deals in force")
    entries = models.PositiveIntegerField(default=0, help_text="deal entries made, corrections included")
    totals = models.JSONField(default=dict)
    state = models.JSONField(null=True, blank=True, help_text="the sheet replayed: per-deal scores, totals, winner")
    winner = models.CharField(
        max_length=SIDE_NAME_MAX, blank=True, help_text="the winning side: a player or a partnership"
    )
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    close_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="open", ended_at__isnull=True, winner="")
                | Q(status__in=["finished", "closed"], ended_at__isnull=False),
                name="sheet_ended_has_time_open_has_no_winner",
            ),
            models.CheckConstraint(condition=~Q(status="finished") | ~Q(winner=""), name="finished_sheet_has_winner"),
            models.CheckConstraint(condition=Q(entries__gte=models.F("deals")), name="sheet_entries_cover_deals"),
            # one game at a time at a table
            models.UniqueConstraint(fields=["table"], condition=Q(status="open"), name="one_open_sheet_per_table"),
        ]
        indexes = [models.Index(fields=["table", "status"]), models.Index(fields=["tournament", "status"])]

    def __str__(self) -> str:
        return f"{self.game} sheet {self.pk} at {self.table_id}"

    def document(self, deals: list | None = None) -> dict:
        """The sheet as ``tables.scoring.base.score_sheet`` reads it."""
        return {"game": self.game, "config": self.config, "players": self.players, "deals": deals or []}


class SheetDeal(models.Model):
    """One deal entry, as the scorer entered it (append-only). ``deal`` is the deal of the game it scores:
    a correction has the same ``deal`` as the entry it supersedes, a later ``seq``, and a reason."""

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.PROTECT, related_name="deal_entries")
    seq = models.PositiveIntegerField(help_text="0, 1, … in the order entered")
    deal = models.PositiveIntegerField(help_text="0, 1, … the deal of the game it scores")
    entry = models.JSONField(help_text="what the rules need for the deal (tables.scoring)")
    points = models.JSONField(help_text="what the deal scored when entered")
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )
    reason = models.TextField(blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["sheet", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "seq"], name="sheet_entry_seq_unique"),
            models.CheckConstraint(
                condition=Q(supersedes__isnull=True, reason="") | (Q(supersedes__isnull=False) & ~Q(reason="")),
                name="correction_has_reason",
            ),
        ]


class SheetRake(models.Model):
    """Rake (or a time charge) collected at a sheet's table, posted to the ledger (append-only)."""

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.PROTECT, related_name="rakes")
    amount = models.BigIntegerField(help_text="minor units")
    memo = models.CharField(max_length=200, blank=True)
    collected_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    collected_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="rake_positive")]
