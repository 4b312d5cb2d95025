"""The floor: pits, tables, shifts, dealer assignments, rounds, bets, events and settlements.

Invariants that can be stated in the database are stated there (CHECK, UNIQUE, FK); services
keep the rest. Settled rounds, their bets and settlement lines are financial records: services
never update or delete them (a void is a new state with a reason and an approval).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tables.engines.base import Bet as EngineBet
from tables.engines.registry import GAME_MODULES
from tables.engines.result import RoundResult
from tables.wording import game_name

# each game's name in the reader's language (tables/wording.py game_name)
GAME_CHOICES = [(name, game_name(name)) for name in GAME_MODULES]


class Pit(models.Model):
    code = models.SlugField(max_length=32, unique=True)
    name = models.CharField(max_length=100)
    managers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="managed_pits")

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return self.name


class TableStatus(models.TextChoices):
    OPEN = "open", pgettext_lazy("table", "Open")
    CLOSED = "closed", pgettext_lazy("table", "Closed")


class Table(models.Model):
    code = models.SlugField(max_length=32, unique=True)
    name = models.CharField(max_length=100)
    pit = models.ForeignKey(Pit, on_delete=models.PROTECT, related_name="tables")
    game = models.CharField(max_length=40, choices=GAME_CHOICES)
    config = models.JSONField(default=dict, blank=True, help_text="the game's rule settings (docs/games.md)")
    min_bet = models.PositiveBigIntegerField(help_text="minor units")
    max_bet = models.PositiveBigIntegerField(help_text="minor units")
    seats = models.PositiveSmallIntegerField(default=7)
    status = models.CharField(max_length=8, choices=TableStatus.choices, default=TableStatus.CLOSED)

    class Meta:
        ordering = ["code"]
        constraints = [
            models.CheckConstraint(condition=Q(min_bet__gte=1), name="table_min_bet_positive"),
            models.CheckConstraint(condition=Q(max_bet__gte=F("min_bet")), name="table_max_not_below_min"),
            models.CheckConstraint(condition=Q(seats__gte=1, seats__lte=14), name="table_seats_1_to_14"),
        ]

    def __str__(self) -> str:
        return f"{self.code} ({self.game})"

    def engine_config(self) -> dict:
        """The rule settings a round at this table plays with: the table's config and its limits."""
        return {**self.config, "min_bet": self.min_bet, "max_bet": self.max_bet}


class ShiftType(models.Model):
    """A casino shift pattern (day, swing, grave…), configurable per house."""

    code = models.SlugField(max_length=16, unique=True)
    name = models.CharField(max_length=40)
    starts = models.TimeField()
    ends = models.TimeField()

    def __str__(self) -> str:
        return self.name


class ShiftStatus(models.TextChoices):
    OPEN = "open", pgettext_lazy("shift", "Open")
    CLOSED = "closed", pgettext_lazy("shift", "Closed")


class Shift(models.Model):
    shift_type = models.ForeignKey(ShiftType, on_delete=models.PROTECT, related_name="shifts")
    gaming_date = models.DateField()
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    status = models.CharField(max_length=8, choices=ShiftStatus.choices, default=ShiftStatus.OPEN)
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="+")

    class Meta:
        ordering = ["-starts_at"]
        constraints = [
            models.UniqueConstraint(fields=["shift_type", "gaming_date"], name="one_shift_per_type_and_day"),
            models.CheckConstraint(condition=Q(ends_at__gt=F("starts_at")), name="shift_ends_after_start"),
            models.CheckConstraint(
                condition=Q(status="open", closed_at__isnull=True) | Q(status="closed", closed_at__isnull=False),
                name="shift_closed_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.gaming_date} {self.shift_type.name}"


class Assignment(models.Model):
    """A dealer deals a table from ``starts_at`` until ``ends_at`` (or until relieved)."""

    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="assignments")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="assignments")
    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="assignments")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    assigned_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    relieved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at"]
        constraints = [
            models.CheckConstraint(condition=Q(ends_at__gt=F("starts_at")), name="assignment_ends_after_start"),
        ]
        indexes = [models.Index(fields=["dealer", "starts_at"]), models.Index(fields=["table", "starts_at"])]


class Shoe(models.Model):
    """A shoe as the pit opened it at a shoe table: every round dealt from it until the next one names it, so the
    cards seen before each round are known (docs/game_protection.md). Never edited: a new shoe is a new row."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="shoes")
    number = models.PositiveIntegerField(help_text="1, 2, … per table")
    decks = models.PositiveSmallIntegerField(help_text="52-card packs shuffled together")
    cut_card = models.PositiveIntegerField(null=True, blank=True,
                                           help_text="cards in front of the cut card, when the dealer says")
    burn = models.PositiveSmallIntegerField(default=1, help_text="cards burned face down when the shoe opened")
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField()

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="shoe_number_unique_per_table"),
            models.CheckConstraint(condition=Q(decks__gte=1), name="shoe_has_a_deck"),
            models.CheckConstraint(condition=Q(cut_card__isnull=True) | Q(cut_card__lte=F("decks") * 52),
                                   name="shoe_cut_card_inside_the_shoe"),
            models.CheckConstraint(condition=Q(burn__lte=F("decks") * 52), name="shoe_burn_inside_the_shoe"),
        ]

    def __str__(self) -> str:
        return f"{self.table.code} shoe {self.number}"


class RoundStatus(models.TextChoices):
    OPEN = "open", _("Open for bets")
    BETTING_CLOSED = "betting_closed", _("Betting closed")
    DEALING = "dealing", _("Dealing")
    SETTLED = "settled", _("Settled")
    VOIDED = "voided", _("Voided")


def status_words(code: str) -> str:
    """A round's status (``betting_closed``) as a sentence says it (``betting closed``), in the reader's language."""
    try:
        return str(RoundStatus(str(code)).label).lower()
    except ValueError:
        return str(code).replace("_", " ")


LIVE_STATUSES = (RoundStatus.OPEN, RoundStatus.BETTING_CLOSED, RoundStatus.DEALING)


class Round(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rounds")
    shift = models.ForeignKey(Shift, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField(help_text="1, 2, … per table")
    game = models.CharField(max_length=40, choices=GAME_CHOICES)
    config = models.JSONField(help_text="the table's rule settings when the round opened")
    status = models.CharField(max_length=16, choices=RoundStatus.choices, default=RoundStatus.OPEN)
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField()
    betting_closed_at = models.DateTimeField(null=True, blank=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    state = models.JSONField(null=True, blank=True, help_text="the engine's last answer (status, next, hands…)")
    # The bets and events of the round document, kept beside the rows by the services under the round's
    # lock: a card post reads one row instead of two tables. The Bet and RoundEvent rows stay the record;
    # null for rounds written in bulk (imports, benchmarks), which are read from the rows.
    document = models.JSONField(null=True, blank=True, editable=False,
                                help_text='{"bets": [...], "events": [...]} as the engine reads them')
    void_reason = models.TextField(blank=True)
    void_requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                          related_name="+")
    void_requested_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="+")
    voided_at = models.DateTimeField(null=True, blank=True)
    # A pit manager other than the requester may refuse the void instead, with a reason: the request stays on
    # record beside the refusal, and the round goes on (one request per round, so the refusal is final).
    void_refused_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                        related_name="+")
    void_refused_at = models.DateTimeField(null=True, blank=True)
    void_refusal_reason = models.TextField(blank=True)
    # the shoe the round was dealt from, at a shoe game once the pit has marked one (null before, and at games
    # dealt from a single pack or none)
    shoe = models.ForeignKey(Shoe, null=True, blank=True, on_delete=models.PROTECT, related_name="rounds")

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="round_number_unique_per_table"),
            # one live round per table: a dealer cannot have two coups open at once
            models.UniqueConstraint(fields=["table"], condition=Q(status__in=["open", "betting_closed", "dealing"]),
                                    name="one_live_round_per_table"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=~Q(status="settled") | Q(settled_at__isnull=False), name="settled_round_has_time"
            ),
            models.CheckConstraint(
                condition=~Q(status="voided") | (Q(voided_at__isnull=False) & ~Q(void_reason="")
                                                 & Q(voided_by__isnull=False)),
                name="voided_round_has_reason_and_approval",
            ),
            models.CheckConstraint(
                condition=Q(void_refused_at__isnull=True, void_refused_by__isnull=True, void_refusal_reason="")
                | (Q(void_refused_at__isnull=False, void_refused_by__isnull=False, void_requested_by__isnull=False)
                   & ~Q(void_refusal_reason="") & ~Q(status="voided")),
                name="void_refusal_has_who_when_and_reason",
            ),
        ]
        indexes = [models.Index(fields=["table", "status"]), models.Index(fields=["shift", "status"]),
                   models.Index(fields=["settled_at"])]

    def __str__(self) -> str:
        return f"{self.table.code} #{self.number}"


class Bet(models.Model):
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="bets")
    client_id = models.CharField(max_length=64, help_text="the bet's id in the round document")
    seat = models.PositiveSmallIntegerField()
    type = models.CharField(max_length=40)
    amount = models.BigIntegerField(help_text="minor units")
    extra = models.JSONField(default=dict, blank=True, help_text="game-specific fields (a number, coppered…)")
    # the table's limits when the bet was placed: the database checks the bet against them
    limit_min = models.BigIntegerField(null=True, blank=True)
    limit_max = models.BigIntegerField(null=True, blank=True)
    event_index = models.IntegerField(null=True, blank=True, help_text="set for bets placed between stages")
    placed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    placed_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "client_id"], name="bet_id_unique_per_round"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="bet_amount_positive"),
            models.CheckConstraint(condition=Q(seat__gte=1), name="bet_seat_positive"),
            models.CheckConstraint(condition=Q(limit_min__isnull=True) | Q(amount__gte=F("limit_min")),
                                   name="bet_not_under_table_min"),
            models.CheckConstraint(condition=Q(limit_max__isnull=True) | Q(amount__lte=F("limit_max")),
                                   name="bet_not_over_table_max"),
        ]

    def as_document(self) -> dict:
        return self.engine_bet().to_json()

    def engine_bet(self) -> EngineBet:
        """This bet as the engines and the round document know it."""
        return EngineBet(self.client_id, self.seat, self.type, self.amount, self.extra)

    @staticmethod
    def fields_of(bet: EngineBet) -> dict[str, Any]:
        """The model fields of an engine's bet (the one mapping between the two)."""
        return {"client_id": bet.id, "seat": bet.seat, "type": bet.type, "amount": bet.amount,
                "extra": dict(bet.extra)}


class BetWithdrawal(models.Model):
    """A bet taken back before betting closed, or replaced by a corrected one.

    The bet's row is a financial record and stays as it was written; this row, written once beside
    it, says that the bet no longer plays: who took it back, when, why, and the bet that replaced it
    when it was a correction. The round document, the settlement, reconciliation's replay of the rows
    and so the ledger all leave a withdrawn bet out.
    """

    bet = models.OneToOneField(Bet, on_delete=models.PROTECT, related_name="withdrawal")
    reason = models.CharField(max_length=200)
    replaced_by = models.OneToOneField(Bet, null=True, blank=True, on_delete=models.PROTECT, related_name="replaces")
    withdrawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    withdrawn_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="bet_withdrawal_has_reason"),
            models.CheckConstraint(condition=~Q(replaced_by=F("bet")), name="bet_withdrawal_not_replaced_by_itself"),
        ]


class RoundEvent(models.Model):
    """A card dealt, a choice made or a bet placed between stages, in table order."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField(help_text="0, 1, … the event's index in the round document")
    payload = models.JSONField()
    posted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    posted_at = models.DateTimeField()
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="+")
    undo_approved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                         related_name="+")

    class Meta:
        ordering = ["round", "seq"]
        constraints = [
            # an undone event keeps its row (the trail) but frees its position for the correction
            models.UniqueConstraint(fields=["round", "seq"], condition=Q(undone_at__isnull=True),
                                    name="event_seq_unique_per_round"),
        ]


class Settlement(models.Model):
    """A round's result, written once: the engine's document and the house's totals."""

    round = models.OneToOneField(Round, on_delete=models.PROTECT, related_name="settlement")
    house_net = models.BigIntegerField(help_text="the house's result from the bets, minor units")
    commission = models.BigIntegerField(default=0)
    rake = models.BigIntegerField(default=0)
    handle = models.BigIntegerField(help_text="total staked")
    pool_change = models.BigIntegerField(  # written when the round settles, from the answer, like the totals above
        help_text="carry out − carry in of the pot or pools the round carried (RoundResult.pool_change)")
    document = models.JSONField(help_text="the engine's settled answer")
    settled_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    settled_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(commission__gte=0), name="settlement_commission_non_negative"),
            models.CheckConstraint(condition=Q(rake__gte=0), name="settlement_rake_non_negative"),
            models.CheckConstraint(condition=Q(handle__gte=0), name="settlement_handle_non_negative"),
        ]

    def answer(self) -> RoundResult:
        """The engine's settled answer, typed: lines, house, pool change (never read by key)."""
        return RoundResult.of_json(self.document)


class SettlementLine(models.Model):
    """What one bet won or lost: the dealer pays or collects exactly this."""

    settlement = models.ForeignKey(Settlement, on_delete=models.PROTECT, related_name="lines")
    bet = models.OneToOneField(Bet, on_delete=models.PROTECT, related_name="settlement_line")
    result = models.CharField(max_length=24)
    net = models.BigIntegerField(help_text="the bettor's gain (+) or loss (−), commission taken")
    commission = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["bet_id"]
        constraints = [
            models.CheckConstraint(condition=Q(commission__gte=0), name="line_commission_non_negative"),
        ]


class PayCorrection(models.Model):
    """A settled round's pay list, confirmed by the dealer, that a supervisor later corrected.

    The settlement and its lines stay as the dealer confirmed them (financial records, never edited); this row,
    written once beside them, says what each corrected bet should have been paid or collected instead, who
    corrected it, why, and which dealer had confirmed the pay list. The money it moves is a ledger transaction
    of its own (``source_type`` ``pay_correction``), never an edit of the round's posting. A round corrected
    again gets another row, against the figures the last one left.
    """

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="pay_corrections")
    settlement = models.ForeignKey(Settlement, on_delete=models.PROTECT, related_name="corrections")
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                     help_text="the dealer who confirmed the pay list (the settlement's)")
    corrected_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    corrected_at = models.DateTimeField()
    reason = models.CharField(max_length=200)
    house_change = models.BigIntegerField(help_text="the house's gain (+) or loss (−) from the correction, minor "
                                                    "units: minus the change of the bettors' nets")
    lines = models.JSONField(help_text='[{"bet": id, "seat": n, "type": t, "was": net, "net": net}] per bet corrected')

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="pay_correction_has_reason"),
            models.CheckConstraint(condition=~Q(corrected_by=F("confirmed_by")),
                                   name="pay_correction_not_by_the_confirming_dealer"),
        ]
        indexes = [models.Index(fields=["corrected_at"], name="pay_correction_when")]
