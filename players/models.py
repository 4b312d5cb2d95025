"""Players, rating slips and the cash transaction log.

A rating slip records who sat at which seat from when to when (less the pauses); its figures are
measured from the rounds and bets recorded at that seat and fixed, once the slip is closed, in a
:class:`SlipRating`. Buy-ins, cash transactions, ratings and cash transaction report lines are
records: the database refuses to update or delete them (migration 0002), and a closed slip cannot
change. Amounts are integers in minor units.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class PlayerStatus(models.TextChoices):
    ACTIVE = "active", pgettext_lazy("player", "Active")
    INACTIVE = "inactive", pgettext_lazy("player", "Inactive")
    BANNED = "banned", pgettext_lazy("player", "Banned")
    SELF_EXCLUDED = "self_excluded", pgettext_lazy("player", "Self-excluded")


class Player(models.Model):
    """A known player. Anonymous play needs none: a slip may have no player (and a description)."""

    first_name = models.CharField(max_length=80, blank=True)
    last_name = models.CharField(max_length=80, blank=True)
    card_number = models.CharField(max_length=32, unique=True, null=True, blank=True, help_text="players' club card")
    birth_date = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=PlayerStatus.choices, default=PlayerStatus.ACTIVE)
    notes = models.TextField(blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()

    class Meta:
        ordering = ["last_name", "first_name", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(first_name="", last_name=""), name="player_has_a_name"),
            models.CheckConstraint(
                condition=Q(card_number__isnull=True) | ~Q(card_number=""), name="player_card_number_not_blank"
            ),
        ]
        indexes = [models.Index(fields=["last_name", "first_name"])]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return " ".join(p for p in (self.first_name, self.last_name) if p)


class DocumentKind(models.TextChoices):
    PASSPORT = "passport", _("Passport")
    NATIONAL_ID = "national_id", _("National identity card")
    DRIVING_LICENCE = "driving_licence", _("Driving licence")
    OTHER = "other", _("Other")


class PlayerDocument(models.Model):
    """An identity document seen by staff (number, issuer, expiry): what a cash transaction report needs."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="documents")
    kind = models.CharField(max_length=16, choices=DocumentKind.choices)
    number = models.CharField(max_length=40)
    issuer = models.CharField(max_length=60, help_text="issuing country or authority")
    expires_on = models.DateField(null=True, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "issuer", "number"], name="player_document_unique"),
            models.CheckConstraint(condition=~Q(number=""), name="player_document_has_number"),
        ]


# -- rating slips ----------------------------------------------------------------------------------


class SlipStatus(models.TextChoices):
    OPEN = "open", pgettext_lazy("rating slip", "Open")
    PAUSED = "paused", pgettext_lazy("rating slip", "Paused")
    CLOSED = "closed", pgettext_lazy("rating slip", "Closed")


LIVE_SLIP_STATUSES = (SlipStatus.OPEN, SlipStatus.PAUSED)


class RatingSlip(models.Model):
    """A player (or an anonymous one) at one seat of one table, from ``opened_at`` to ``closed_at``."""

    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="slips")
    description = models.CharField(max_length=120, blank=True, help_text="who, when the player is anonymous")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="rating_slips")
    seat = models.PositiveSmallIntegerField()
    shift = models.ForeignKey(
        "tables.Shift",
        on_delete=models.PROTECT,
        related_name="rating_slips",
        help_text="the shift the slip was opened in",
    )
    status = models.CharField(max_length=8, choices=SlipStatus.choices, default=SlipStatus.OPEN)
    estimated_average_bet = models.BigIntegerField(null=True, blank=True, help_text="the floor's estimate, minor units")
    walk_with = models.BigIntegerField(null=True, blank=True, help_text="chips the player left with, minor units")
    notes = models.TextField(blank=True)
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField()
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-opened_at", "-id"]
        constraints = [
            # one player at a seat at a time: the seat's bets are that player's
            models.UniqueConstraint(
                fields=["table", "seat"], condition=Q(status__in=["open", "paused"]), name="one_live_slip_per_seat"
            ),
            models.CheckConstraint(condition=Q(seat__gte=1), name="slip_seat_positive"),
            models.CheckConstraint(
                condition=Q(status__in=["open", "paused"], closed_at__isnull=True, closed_by__isnull=True)
                | Q(status="closed", closed_at__isnull=False, closed_by__isnull=False),
                name="slip_closed_has_time_and_who",
            ),
            models.CheckConstraint(
                condition=Q(closed_at__isnull=True) | Q(closed_at__gte=F("opened_at")), name="slip_closes_after_opening"
            ),
            models.CheckConstraint(
                condition=Q(estimated_average_bet__isnull=True) | Q(estimated_average_bet__gt=0),
                name="slip_estimate_positive",
            ),
            models.CheckConstraint(
                condition=Q(walk_with__isnull=True) | Q(walk_with__gte=0), name="slip_walk_with_non_negative"
            ),
        ]
        indexes = [
            models.Index(fields=["table", "status"]),
            models.Index(fields=["player", "opened_at"]),
            models.Index(fields=["status", "opened_at"]),
        ]

    def __str__(self) -> str:
        return f"slip {self.pk} {self.table_id}:{self.seat}"

    @property
    def player_label(self) -> str:
        if self.player is not None:  # no query when there is no player_id
            return self.player.name
        return f"anonymous{f' ({self.description})' if self.description else ''}"


class SlipPause(models.Model):
    """A break in play (the player walked away): its time and its rounds do not count."""

    slip = models.ForeignKey(RatingSlip, on_delete=models.PROTECT, related_name="pauses")
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["started_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["slip"], condition=Q(ended_at__isnull=True), name="one_open_pause_per_slip"
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=F("started_at")), name="pause_ends_after_start"
            ),
        ]


class SlipRating(models.Model):
    """A closed slip's figures, fixed once (append-only). ``flags`` lists the integrity flags."""

    slip = models.OneToOneField(RatingSlip, on_delete=models.PROTECT, related_name="rating")
    active_seconds = models.PositiveIntegerField()
    paused_seconds = models.PositiveIntegerField()
    decisions = models.PositiveIntegerField(help_text="settled rounds in which the seat bet")
    table_decisions = models.PositiveIntegerField(help_text="settled rounds at the table in the active time")
    handle = models.BigIntegerField(help_text="Σ staked at the seat")
    average_bet = models.BigIntegerField(null=True, blank=True)
    average_bet_source = models.CharField(max_length=10, help_text="measured, estimate or none")
    estimated_average_bet = models.BigIntegerField(null=True, blank=True)
    measured_average_bet = models.BigIntegerField(null=True, blank=True)
    decisions_per_hour = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True)
    house_edge = models.CharField(max_length=80, blank=True, help_text="the handle-weighted edge, exact ('n/d')")
    theoretical_win = models.BigIntegerField()
    actual_win = models.BigIntegerField(null=True, blank=True, help_text="the house's result at the seat")
    buy_in_cash = models.BigIntegerField(default=0)
    buy_in_markers = models.BigIntegerField(default=0)
    reinvestment_percent = models.PositiveIntegerField()
    points_per_unit = models.PositiveIntegerField()
    comp_value = models.BigIntegerField()
    comp_points = models.BigIntegerField()
    flags = models.JSONField(default=list)
    data = models.JSONField(default=dict, help_text="by bet type, uncovered handle, overlaps…")
    rated_at = models.DateTimeField()

    class Meta:
        ordering = ["-rated_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(handle__gte=0, comp_value__gte=0, comp_points__gte=0), name="rating_amounts_non_negative"
            ),
        ]


# -- buy-ins and the cash transaction log -----------------------------------------------------------


class CashDirection(models.TextChoices):
    IN = "in", _("Cash in")
    OUT = "out", _("Cash out")


class CashKind(models.TextChoices):
    BUY_IN = "buy_in", _("Chips bought with cash at a table")
    CHIP_REDEMPTION = "chip_redemption", _("Chips redeemed for cash")
    FRONT_MONEY_DEPOSIT = "front_money_deposit", _("Front money deposited")
    FRONT_MONEY_WITHDRAWAL = "front_money_withdrawal", _("Front money withdrawn")
    MARKER_PAYMENT = "marker_payment", _("Marker paid in cash")
    CURRENCY_EXCHANGE = "currency_exchange", _("Currency exchanged")
    OTHER_IN = "other_in", _("Other cash in")
    OTHER_OUT = "other_out", _("Other cash out")


KIND_DIRECTION = {
    CashKind.BUY_IN: CashDirection.IN,
    CashKind.CHIP_REDEMPTION: CashDirection.OUT,
    CashKind.FRONT_MONEY_DEPOSIT: CashDirection.IN,
    CashKind.FRONT_MONEY_WITHDRAWAL: CashDirection.OUT,
    CashKind.MARKER_PAYMENT: CashDirection.IN,
    CashKind.CURRENCY_EXCHANGE: CashDirection.IN,
    CashKind.OTHER_IN: CashDirection.IN,
    CashKind.OTHER_OUT: CashDirection.OUT,
}


class CashTransaction(models.Model):
    """One line of the multiple transaction log: cash in or out, who, where, which gaming day. Append-only."""

    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="cash_transactions"
    )
    slip = models.ForeignKey(
        RatingSlip,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cash_transactions",
        help_text="the slip of a buy-in",
    )
    description = models.CharField(max_length=120, blank=True, help_text="who, when the player is not known")
    direction = models.CharField(max_length=3, choices=CashDirection.choices)
    kind = models.CharField(max_length=24, choices=CashKind.choices)
    amount = models.BigIntegerField()
    gaming_date = models.DateField()
    shift = models.ForeignKey("tables.Shift", on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey("tables.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    location = models.CharField(max_length=40, help_text="the table's code or 'cage'")
    note = models.CharField(max_length=200, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["recorded_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="cash_transaction_amount_positive"),
            models.CheckConstraint(condition=Q(direction__in=["in", "out"]), name="cash_transaction_direction"),
        ]
        indexes = [
            models.Index(fields=["player", "gaming_date", "direction"]),
            models.Index(fields=["gaming_date", "direction"]),
        ]


class BuyInMethod(models.TextChoices):
    CASH = "cash", pgettext_lazy("buy-in", "Cash")
    MARKER = "marker", pgettext_lazy("buy-in", "Marker")


class BuyIn(models.Model):
    """Chips bought at the table during a slip: with cash (a cash transaction) or a marker. Append-only."""

    slip = models.ForeignKey(RatingSlip, on_delete=models.PROTECT, related_name="buy_ins")
    method = models.CharField(max_length=8, choices=BuyInMethod.choices)
    amount = models.BigIntegerField()
    cash_transaction = models.OneToOneField(
        CashTransaction, null=True, blank=True, on_delete=models.PROTECT, related_name="buy_in"
    )
    marker = models.OneToOneField(
        "accounting.Marker", null=True, blank=True, on_delete=models.PROTECT, related_name="buy_in"
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["recorded_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="buy_in_amount_positive"),
            models.CheckConstraint(
                condition=Q(method="cash", cash_transaction__isnull=False, marker__isnull=True)
                | Q(method="marker", marker__isnull=False, cash_transaction__isnull=True),
                name="buy_in_cash_or_marker",
            ),
        ]


class CashTransactionReport(models.Model):
    """A cash transaction report line: a player's cash in (or out) in one gaming day went above the
    threshold. Exactly one per player, day and direction (the database says so). Append-only."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="cash_reports")
    gaming_date = models.DateField()
    direction = models.CharField(max_length=3, choices=CashDirection.choices)
    threshold = models.BigIntegerField()
    total = models.BigIntegerField(help_text="the day's total when it went above the threshold")
    transactions = models.PositiveIntegerField(help_text="how many transactions made that total")
    crossing = models.OneToOneField(
        CashTransaction,
        on_delete=models.PROTECT,
        related_name="report_line",
        help_text="the transaction that took the total above the threshold",
    )
    alert = models.ForeignKey("accounting.Alert", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-gaming_date", "id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "gaming_date", "direction"], name="one_report_per_player_day"),
            models.CheckConstraint(condition=Q(total__gt=F("threshold")), name="report_total_above_threshold"),
        ]
