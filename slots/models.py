"""Slot machines as the back office sees them: machines, their meters, progressives and bonus meters.

The back office accounts for machines, not reels. A machine reports cumulative meters (coin in,
coin out, jackpots paid, games played, drop); each reading is kept with its difference from the
previous one. A meter never goes backwards, except across a RAM clear recorded with a supervisor.

Progressive jackpots (system-wide over linked machines, or one machine's own) and bonus meters that
hold credits owed to the player (the piggy bank, the snowman bonus) are liabilities in the ledger:
contributions and accruals credit them, a hit pays them out, a reset is funded by the house.

Money is integer minor units. Readings, contributions, hits and bonus-meter events are records: the
database refuses to UPDATE or DELETE them (migration 0002).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

# A contribution rate is in basis points of coin in; the fraction of a minor unit that a posting
# cannot carry is kept in the same unit (1/10 000 of a minor unit) and carried to the next one.
BASIS_POINTS = 10_000
# Meters are capped so that coin in × a rate in basis points stays inside a 64-bit integer.
METER_MAX = 10**14
METERS = ("coin_in", "coin_out", "jackpots", "games_played", "drop")
MONEY_METERS = ("coin_in", "coin_out", "jackpots", "drop")


# The kinds of the slot floor's ledger transactions (slots/services/postings.py posts them; the
# selectors read them back).
READING = "slot_reading"
PROGRESSIVE_SEED = "slot_progressive_seed"
PROGRESSIVE_HIT = "slot_progressive_hit"
PROGRESSIVE_RESET = "slot_progressive_reset"
BONUS = "slot_bonus"


class MachineStatus(models.TextChoices):
    ACTIVE = "active", pgettext_lazy("slot machine", "Active")
    OUT_OF_SERVICE = "out_of_service", pgettext_lazy("slot machine", "Out of service")
    RETIRED = "retired", pgettext_lazy("slot machine", "Retired")


class Machine(models.Model):
    """A slot machine on the floor, by its asset number. One denomination per machine (minor units a credit)."""

    asset_number = models.CharField(max_length=32, unique=True)
    game = models.CharField(max_length=80, help_text="the game or theme (Bank on It!, Crazy Dragon, …)")
    denomination = models.PositiveIntegerField(help_text="value of one credit, minor units")
    location = models.CharField(max_length=80, blank=True, help_text="bank, zone or position on the floor")
    status = models.CharField(max_length=16, choices=MachineStatus.choices, default=MachineStatus.ACTIVE)
    readings = models.PositiveIntegerField(default=0, help_text="meter readings recorded (the last one's seq)")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()

    class Meta:
        ordering = ["asset_number"]
        constraints = [
            models.CheckConstraint(condition=Q(denomination__gt=0), name="slot_machine_denomination_positive"),
            models.CheckConstraint(condition=~Q(asset_number=""), name="slot_machine_has_asset_number"),
            models.CheckConstraint(condition=~Q(game=""), name="slot_machine_has_game"),
        ]

    def __str__(self) -> str:
        return f"{self.asset_number} ({self.game})"


class MeterReading(models.Model):
    """One reading of a machine's cumulative meters, with the difference from the previous reading.

    The first reading is the baseline (differences zero). A RAM clear sets the meters back to zero:
    the reading after it counts from zero and must be signed by a supervisor with a reason.
    """

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="meter_readings")
    seq = models.PositiveIntegerField(help_text="1, 2, … per machine")
    read_at = models.DateTimeField(help_text="when the meters were read")
    coin_in = models.BigIntegerField()
    coin_out = models.BigIntegerField()
    jackpots = models.BigIntegerField(help_text="jackpots hand-paid, minor units")
    games_played = models.BigIntegerField()
    drop = models.BigIntegerField()
    d_coin_in = models.BigIntegerField()
    d_coin_out = models.BigIntegerField()
    d_jackpots = models.BigIntegerField()
    d_games_played = models.BigIntegerField()
    d_drop = models.BigIntegerField()
    ram_clear = models.BooleanField(default=False, help_text="the meters were cleared to zero before this reading")
    supervisor = models.ForeignKey(
        "core.StaffProfile", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.CharField(max_length=200, blank=True)
    transaction = models.OneToOneField(
        "accounting.LedgerTransaction", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["machine", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["machine", "seq"], name="slot_reading_seq_unique_per_machine"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="slot_reading_seq_positive"),
            models.CheckConstraint(
                condition=Q(coin_in__gte=0, coin_out__gte=0, jackpots__gte=0, games_played__gte=0, drop__gte=0)
                & Q(
                    coin_in__lte=METER_MAX,
                    coin_out__lte=METER_MAX,
                    jackpots__lte=METER_MAX,
                    games_played__lte=METER_MAX,
                    drop__lte=METER_MAX,
                ),
                name="slot_reading_meters_in_range",
            ),
            models.CheckConstraint(
                condition=Q(d_coin_in__gte=0, d_coin_out__gte=0, d_jackpots__gte=0, d_games_played__gte=0, d_drop__gte=0),
                name="slot_reading_deltas_non_negative",
            ),
            models.CheckConstraint(
                condition=Q(ram_clear=False) | (Q(supervisor__isnull=False) & ~Q(reason="")),
                name="slot_ram_clear_signed_with_reason",
            ),
        ]
        indexes = [models.Index(fields=["read_at"])]

    @property
    def win(self) -> int:
        """The meters' win over this reading's period: coin in − coin out − jackpots."""
        return self.d_coin_in - self.d_coin_out - self.d_jackpots


class ProgressiveScope(models.TextChoices):
    SYSTEM = "system", _("System-wide (linked machines)")
    MACHINE = "machine", _("One machine's own")


class Progressive(models.Model):
    """A progressive jackpot: ``amount`` is what it shows and what the ledger owes (``progressive:<code>``).

    Contributions are ``contribution_bp`` basis points of the linked machines' coin in; the fraction of
    a minor unit a posting cannot carry is ``remainder`` (in 1/10 000 of a minor unit) and goes into the
    next one. A hit pays ``amount`` and the house funds the reset to ``reset_value``.
    """

    code = models.SlugField(max_length=40, unique=True, help_text="the ledger account is progressive:<code>")
    name = models.CharField(max_length=80)
    scope = models.CharField(max_length=8, choices=ProgressiveScope.choices)
    reset_value = models.BigIntegerField(help_text="what it restarts at after a hit, minor units")
    contribution_bp = models.PositiveIntegerField(help_text="basis points of coin in (100 = 1 %)")
    amount = models.BigIntegerField(help_text="the current jackpot, whole minor units")
    remainder = models.BigIntegerField(default=0, help_text="carried fraction, 1/10 000 of a minor unit")
    hits = models.PositiveIntegerField(default=0)
    machines = models.ManyToManyField(Machine, blank=True, related_name="progressives")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["code"]
        constraints = [
            models.CheckConstraint(condition=Q(reset_value__gt=0), name="slot_progressive_reset_positive"),
            models.CheckConstraint(
                condition=Q(contribution_bp__gte=0, contribution_bp__lte=BASIS_POINTS),
                name="slot_progressive_rate_in_range",
            ),
            models.CheckConstraint(condition=Q(amount__gte=0), name="slot_progressive_amount_non_negative"),
            models.CheckConstraint(
                condition=Q(remainder__gte=0, remainder__lt=BASIS_POINTS), name="slot_progressive_remainder_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class ProgressiveContribution(models.Model):
    """One reading's contribution to one progressive, with the rounding made explicit.

    ``amount × 10 000 + remainder_after = remainder_before + coin_in × rate_bp`` (a database check):
    the posting is the whole minor units, rounded down, and the rest is carried, never lost.
    """

    reading = models.ForeignKey(MeterReading, on_delete=models.PROTECT, related_name="contributions")
    progressive = models.ForeignKey(Progressive, on_delete=models.PROTECT, related_name="contributions")
    coin_in = models.BigIntegerField(help_text="the reading's coin-in difference")
    rate_bp = models.PositiveIntegerField()
    remainder_before = models.BigIntegerField()
    amount = models.BigIntegerField(help_text="posted to the progressive, minor units")
    remainder_after = models.BigIntegerField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["reading", "progressive"], name="slot_one_contribution_per_reading"),
            models.CheckConstraint(
                condition=Q(
                    amount__gte=0,
                    coin_in__gte=0,
                    remainder_before__gte=0,
                    remainder_before__lt=BASIS_POINTS,
                    remainder_after__gte=0,
                    remainder_after__lt=BASIS_POINTS,
                ),
                name="slot_contribution_in_range",
            ),
            models.CheckConstraint(
                # with 0 ≤ remainder_after < 10 000 this makes amount the floor of the exact figure
                condition=Q(
                    remainder_after=F("remainder_before") + F("coin_in") * F("rate_bp") - F("amount") * BASIS_POINTS
                ),
                name="slot_contribution_rounding_exact",
            ),
        ]


class PaidBy(models.TextChoices):
    HANDPAY = "handpay", _("Hand-paid from the cage")
    MACHINE = "machine", _("Credited on the machine")


class ProgressiveHit(models.Model):
    """A progressive won at a machine: ``amount`` paid, then reset to ``reset_value`` (house-funded)."""

    progressive = models.ForeignKey(Progressive, on_delete=models.PROTECT, related_name="hit_records")
    seq = models.PositiveIntegerField(help_text="1, 2, … per progressive")
    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="progressive_hits")
    amount = models.BigIntegerField()
    reset_value = models.BigIntegerField()
    paid_by = models.CharField(max_length=8, choices=PaidBy.choices)
    payout_transaction = models.OneToOneField(
        "accounting.LedgerTransaction", on_delete=models.PROTECT, related_name="+"
    )
    reset_transaction = models.OneToOneField(
        "accounting.LedgerTransaction", on_delete=models.PROTECT, related_name="+"
    )
    note = models.CharField(max_length=200, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    hit_at = models.DateTimeField()

    class Meta:
        ordering = ["progressive", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["progressive", "seq"], name="slot_hit_seq_unique_per_progressive"),
            models.CheckConstraint(condition=Q(amount__gt=0, reset_value__gt=0), name="slot_hit_amounts_positive"),
        ]


class BonusUnit(models.TextChoices):
    CREDITS = "credits", _("Credits owed to the player (a liability)")
    COUNT = "count", _("A count (clicks, spins, losses, a level)")


class BonusMeter(models.Model):
    """A machine's own bonus meter: the piggy bank, the safe counter, the snowman, the loss meter, …

    ``unit=credits``: the meter holds credits owed to the player — ``value × denomination`` is a
    liability in the ledger (``slots:machine:<asset>:bonus:<name>``). ``unit=count``: clicks, spins,
    losses or a multiplier level — tracked and audited, no money. ``target`` is where the game
    pays or stops (50 safe clicks, 200 snowflakes, 29 losses, the 7× level).
    """

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="bonus_meters")
    name = models.SlugField(max_length=40)
    label = models.CharField(max_length=80)
    unit = models.CharField(max_length=8, choices=BonusUnit.choices)
    reset_value = models.BigIntegerField(help_text="what it goes back to after a hit (credits or count)")
    value = models.BigIntegerField()
    target = models.BigIntegerField(null=True, blank=True, help_text="where the game pays or stops (a count)")
    hits = models.PositiveIntegerField(default=0)
    events = models.PositiveIntegerField(default=0, help_text="events recorded (the last one's seq)")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["machine", "name"]
        constraints = [
            models.UniqueConstraint(fields=["machine", "name"], name="slot_bonus_meter_name_unique_per_machine"),
            models.CheckConstraint(
                condition=Q(reset_value__gte=0, value__gte=0, value__lte=METER_MAX, reset_value__lte=METER_MAX),
                name="slot_bonus_meter_values_in_range",
            ),
            models.CheckConstraint(
                condition=Q(target__isnull=True) | (Q(target__gt=0) & Q(value__lte=F("target"))),
                name="slot_bonus_meter_within_target",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.machine.asset_number} {self.label}"

    @property
    def owed(self) -> int:
        """Minor units owed to the player (credits meters only)."""
        return self.value * self.machine.denomination if self.unit == BonusUnit.CREDITS else 0


class BonusEventKind(models.TextChoices):
    CREATE = "create", _("Created")
    UPDATE = "update", _("Updated from the machine")
    HIT = "hit", _("Won (paid) and reset")
    RESET = "reset", _("Reset without a win")


class BonusMeterEvent(models.Model):
    """A change of a bonus meter: its value before and after, and the minor units posted to the ledger."""

    meter = models.ForeignKey(BonusMeter, on_delete=models.PROTECT, related_name="event_records")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=BonusEventKind.choices)
    value_before = models.BigIntegerField()
    value_after = models.BigIntegerField()
    paid = models.BigIntegerField(default=0, help_text="minor units paid to the player (a hit)")
    paid_by = models.CharField(max_length=8, choices=PaidBy.choices, blank=True)
    funded = models.BigIntegerField(default=0, help_text="minor units the house funded (seed or reset)")
    accrued = models.BigIntegerField(default=0, help_text="minor units set aside from play (meter growth)")
    released = models.BigIntegerField(default=0, help_text="minor units released back to the house (a reset)")
    supervisor = models.ForeignKey(
        "core.StaffProfile", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.CharField(max_length=200, blank=True)
    transaction = models.OneToOneField(
        "accounting.LedgerTransaction", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["meter", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["meter", "seq"], name="slot_bonus_event_seq_unique_per_meter"),
            models.CheckConstraint(
                condition=Q(value_before__gte=0, value_after__gte=0, paid__gte=0, funded__gte=0, accrued__gte=0)
                & Q(released__gte=0),
                name="slot_bonus_event_amounts_non_negative",
            ),
        ]


def bonus_account_code(machine: Machine, name: str) -> str:
    """The ledger account of a machine's bonus meter (a liability: the credits it holds are the players')."""
    return f"slots:machine:{machine.asset_number}:bonus:{name}"
