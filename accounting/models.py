"""The double-entry chip ledger.

Amounts are signed integers in minor units: a debit is positive, a credit negative. Every
transaction's entries sum to zero — PostgreSQL checks it at commit with a deferred constraint
trigger, and posted rows can be neither updated nor deleted (migration 0002). A correction is a
new transaction that reverses the old one.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class AccountKind(models.TextChoices):
    ASSET = "asset", _("Asset")  # chips in a tray, the cage
    LIABILITY = "liability", _("Liability")  # pots, pools and carries owed to players, progressives
    REVENUE = "revenue", _("Revenue")  # table win, commission, rake
    EQUITY = "equity", _("Equity")  # bankroll issued to the floor


class Account(models.Model):
    code = models.CharField(max_length=80, unique=True)
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=10, choices=AccountKind.choices)
    table = models.ForeignKey("tables.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="accounts")
    denomination = models.PositiveIntegerField(null=True, blank=True, help_text="chip value, for tray accounts")

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return self.code


class LedgerTransaction(models.Model):
    kind = models.CharField(max_length=32)  # round, fill, credit, drop, reversal, …
    source_type = models.CharField(max_length=32)
    source_id = models.CharField(max_length=64)
    memo = models.CharField(max_length=200, blank=True)
    reverses = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by")
    table = models.ForeignKey("tables.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    shift = models.ForeignKey("tables.Shift", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    posted_at = models.DateTimeField()
    posted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["id"]
        constraints = [
            # posting is idempotent per source: a round posts at most once
            models.UniqueConstraint(fields=["source_type", "source_id"], name="ledger_one_posting_per_source"),
        ]
        # the postings without a shift (cage payments, write-offs, …) an hourly verification reads by time
        indexes = [models.Index(fields=["posted_at"], condition=Q(shift__isnull=True), name="ledger_unshifted_by_time")]


class Entry(models.Model):
    transaction = models.ForeignKey(LedgerTransaction, on_delete=models.PROTECT, related_name="entries")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries")
    amount = models.BigIntegerField(help_text="debit > 0, credit < 0, minor units")

    class Meta:
        ordering = ["id"]
        constraints = [models.CheckConstraint(condition=~Q(amount=0), name="entry_amount_non_zero")]


# -- chips ---------------------------------------------------------------------------------------


class ChipSet(models.Model):
    """The chip denominations in use: casino-wide (``scope="casino"``) or for one table (``table:<id>``).

    A table without its own set uses the casino's; with neither, ``settings.CROUPIER["CHIP_DENOMINATIONS"]``.
    """

    scope = models.CharField(max_length=40, unique=True)
    table = models.OneToOneField(
        "tables.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="chip_set"
    )
    denominations = models.JSONField(help_text="ascending chip values in minor units")
    updated_at = models.DateTimeField()
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(scope="casino", table__isnull=True) | Q(table__isnull=False),
                name="chipset_scope_matches_table",
            ),
        ]


# -- counts ------------------------------------------------------------------------------------


class CountKind(models.TextChoices):
    OPENER = "opener", pgettext_lazy("chip count", "Opening inventory")
    CLOSER = "closer", pgettext_lazy("chip count", "Closing inventory")


class InventoryCount(models.Model):
    """A table's chips by denomination at the start or end of a shift, signed by dealer and supervisor.

    ``chips`` maps a denomination (as a string) to a count of chips; ``total`` is their value. An opener
    carries its discrepancy against the table's previous closer. Append-only (migration 0004): a recount is a
    new count that ``supersedes`` it, with a reason and the same two signatures (accounting/services/counts.py).
    """

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="inventory_counts")
    shift = models.ForeignKey("tables.Shift", on_delete=models.PROTECT, related_name="inventory_counts")
    kind = models.CharField(max_length=8, choices=CountKind.choices)
    chips = models.JSONField()
    total = models.BigIntegerField()
    dealer_signer = models.ForeignKey("core.StaffProfile", on_delete=models.PROTECT, related_name="+")
    supervisor_signer = models.ForeignKey("core.StaffProfile", on_delete=models.PROTECT, related_name="+")
    previous_closer = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    rolled = models.BooleanField(default=False, help_text="copied from the previous closer, not counted")
    discrepancy_net = models.BigIntegerField(null=True, blank=True, help_text="opener − previous closer, value")
    discrepancy_gross = models.BigIntegerField(null=True, blank=True, help_text="Σ |Δ count| × denomination")
    # a recount is a new count that supersedes this one: the link is on the recount (the count it
    # replaces is sealed and never edited); the latest count of the chain is the table's count
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )
    reason = models.TextField(blank=True, default="", help_text="why a recount was made (a recount only)")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "shift", "kind"], condition=Q(supersedes__isnull=True),
                name="one_count_per_table_shift_kind",
            ),
            models.CheckConstraint(condition=Q(supersedes__isnull=True) | ~Q(reason=""), name="count_recount_has_reason"),
            models.CheckConstraint(condition=Q(kind__in=["opener", "closer"]), name="count_kind_known"),
            models.CheckConstraint(condition=Q(total__gte=0), name="count_total_non_negative"),
            models.CheckConstraint(
                condition=~Q(dealer_signer=F("supervisor_signer")), name="count_two_different_signers"
            ),
            models.CheckConstraint(
                condition=Q(discrepancy_gross__isnull=True) | Q(discrepancy_gross__gte=0),
                name="count_gross_discrepancy_non_negative",
            ),
        ]


class DropCount(models.Model):
    """The soft count of a table's drop box for a shift, entered by two counters. Append-only; a recount is a
    new record that ``supersedes`` it (the latest of the chain is the drop)."""

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="drop_counts")
    shift = models.ForeignKey("tables.Shift", on_delete=models.PROTECT, related_name="drop_counts")
    cash = models.BigIntegerField()
    chips = models.BigIntegerField()
    markers = models.BigIntegerField(help_text="value of the marker copies found in the box")
    total = models.BigIntegerField()
    counter_one = models.ForeignKey("core.StaffProfile", on_delete=models.PROTECT, related_name="+")
    counter_two = models.ForeignKey("core.StaffProfile", on_delete=models.PROTECT, related_name="+")
    supersedes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )  # a recount of the drop box, as for inventory counts
    reason = models.TextField(blank=True, default="", help_text="why a recount was made (a recount only)")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "shift"], condition=Q(supersedes__isnull=True), name="one_drop_count_per_table_shift"
            ),
            models.CheckConstraint(condition=Q(supersedes__isnull=True) | ~Q(reason=""), name="drop_recount_has_reason"),
            models.CheckConstraint(
                condition=Q(cash__gte=0, chips__gte=0, markers__gte=0), name="drop_parts_non_negative"
            ),
            models.CheckConstraint(condition=Q(total=F("cash") + F("chips") + F("markers")), name="drop_total_is_sum"),
            models.CheckConstraint(condition=~Q(counter_one=F("counter_two")), name="drop_two_different_counters"),
        ]


# -- fills, credits and markers ----------------------------------------------------------------


class SerialCounter(models.Model):
    """The last number used in a yearly series (fill slips, credit slips, markers)."""

    series = models.CharField(max_length=16)
    year = models.PositiveSmallIntegerField()
    last = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["series", "year"], name="one_counter_per_series_year")]


class SlipKind(models.TextChoices):
    FILL = "fill", _("Fill (cage → table)")
    CREDIT = "credit", _("Credit (table → cage)")


class SlipStatus(models.TextChoices):
    REQUESTED = "requested", _("Requested")
    ISSUED = "issued", _("Issued")
    RECEIVED = "received", _("Received")
    VOIDED = "voided", _("Voided")


class Slip(models.Model):
    """A fill or credit slip: requested by the pit, issued by the sender, received by the receiver.

    A fill is issued by the cage and received at the table; a credit is issued at the table and
    received by the cage. Each step is signed by a person proving it is them; the three signers differ.
    Numbers run 1, 2, … per kind and year, allocated in sequence. The ledger posts on receipt.
    """

    kind = models.CharField(max_length=8, choices=SlipKind.choices)
    year = models.PositiveSmallIntegerField()
    number = models.PositiveIntegerField()
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="slips")
    shift = models.ForeignKey("tables.Shift", on_delete=models.PROTECT, related_name="slips")
    chips = models.JSONField()
    total = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=SlipStatus.choices, default=SlipStatus.REQUESTED)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    request_signer = models.ForeignKey("core.StaffProfile", on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField()
    issue_signer = models.ForeignKey(
        "core.StaffProfile", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    issued_at = models.DateTimeField(null=True, blank=True)
    receive_signer = models.ForeignKey(
        "core.StaffProfile", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    received_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.TextField(blank=True)
    void_requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    void_requested_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_from = models.CharField(max_length=10, blank=True, help_text="the status the slip was voided in")

    class Meta:
        ordering = ["kind", "year", "number"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "year", "number"], name="slip_number_unique_per_kind_year"),
            models.CheckConstraint(condition=Q(kind__in=["fill", "credit"]), name="slip_kind_known"),
            models.CheckConstraint(condition=Q(status__in=["requested", "issued", "received", "voided"]),
                                   name="slip_status_known"),
            models.CheckConstraint(condition=Q(number__gte=1), name="slip_number_positive"),
            models.CheckConstraint(condition=Q(total__gt=0), name="slip_total_positive"),
            models.CheckConstraint(
                condition=~Q(status__in=["issued", "received"])
                | Q(issue_signer__isnull=False, issued_at__isnull=False),
                name="slip_issued_is_signed",
            ),
            models.CheckConstraint(
                condition=~Q(status="received") | Q(receive_signer__isnull=False, received_at__isnull=False),
                name="slip_received_is_signed",
            ),
            models.CheckConstraint(
                condition=~Q(status="voided")
                | (
                    Q(voided_at__isnull=False, voided_by__isnull=False)
                    & ~Q(void_reason="")
                    & ~Q(voided_by=F("void_requested_by"))
                ),
                name="slip_void_has_reason_and_second_person",
            ),
            models.CheckConstraint(
                condition=Q(issue_signer__isnull=True) | ~Q(issue_signer=F("request_signer")),
                name="slip_issuer_not_requester",
            ),
            models.CheckConstraint(
                condition=Q(receive_signer__isnull=True)
                | (~Q(receive_signer=F("request_signer")) & ~Q(receive_signer=F("issue_signer"))),
                name="slip_receiver_not_requester_or_issuer",
            ),
        ]
        indexes = [models.Index(fields=["table", "shift", "status"])]

    @property
    def reference(self) -> str:
        return f"{self.kind[0].upper()}{self.year}-{self.number:06d}"


class Marker(models.Model):
    """A player's credit instrument issued at a table for chips; ``paid`` grows with payments."""

    year = models.PositiveSmallIntegerField()
    number = models.PositiveIntegerField()
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="markers")
    shift = models.ForeignKey("tables.Shift", on_delete=models.PROTECT, related_name="markers")
    player = models.CharField(max_length=120, help_text="the player's name or account reference")
    amount = models.BigIntegerField()
    paid = models.BigIntegerField(default=0)
    supervisor_signer = models.ForeignKey("core.StaffProfile", on_delete=models.PROTECT, related_name="+")
    dealer_signer = models.ForeignKey("core.StaffProfile", on_delete=models.PROTECT, related_name="+")
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    issued_at = models.DateTimeField()

    class Meta:
        ordering = ["year", "number"]
        constraints = [
            models.UniqueConstraint(fields=["year", "number"], name="marker_number_unique_per_year"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="marker_amount_positive"),
            models.CheckConstraint(condition=Q(paid__gte=0) & Q(paid__lte=F("amount")), name="marker_paid_in_range"),
            models.CheckConstraint(
                condition=~Q(dealer_signer=F("supervisor_signer")), name="marker_two_different_signers"
            ),
        ]

    @property
    def reference(self) -> str:
        return f"M{self.year}-{self.number:06d}"


class MarkerPayment(models.Model):
    """A payment against a marker: in chips at a table (``at_table``, it counts against win) or at the cage."""

    marker = models.ForeignKey(Marker, on_delete=models.PROTECT, related_name="payments")
    amount = models.BigIntegerField()
    at_table = models.BooleanField()
    table = models.ForeignKey("tables.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    shift = models.ForeignKey("tables.Shift", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    signer = models.ForeignKey("core.StaffProfile", on_delete=models.PROTECT, related_name="+")
    received_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    paid_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="marker_payment_positive"),
            models.CheckConstraint(
                condition=Q(at_table=False) | Q(table__isnull=False, shift__isnull=False),
                name="marker_payment_at_table_has_table_and_shift",
            ),
        ]


class MarkerWriteOff(models.Model):
    """What was left to pay on a marker, written off as uncollectable: signed by an accountant and a second
    person, with a written reason. Once per marker; the marker takes no payment after it. Append-only."""

    marker = models.OneToOneField(Marker, on_delete=models.PROTECT, related_name="write_off")
    amount = models.BigIntegerField(help_text="what was left to pay, minor units")
    reason = models.TextField()
    accountant_signer = models.ForeignKey("core.StaffProfile", on_delete=models.PROTECT, related_name="+")
    second_signer = models.ForeignKey("core.StaffProfile", on_delete=models.PROTECT, related_name="+")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    written_off_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="marker_write_off_positive"),
            models.CheckConstraint(condition=~Q(reason=""), name="marker_write_off_has_reason"),
            models.CheckConstraint(
                condition=~Q(accountant_signer=F("second_signer")), name="marker_write_off_two_different_signers"
            ),
        ]


# -- shift close and reconciliation ------------------------------------------------------------


class TableShiftCloseQuerySet(models.QuerySet):
    def standing(self) -> models.QuerySet:
        """The closes in force: not reopened (a reopened close is kept, superseded by the next close)."""
        return self.filter(reopening__isnull=True)


class TableShiftClose(models.Model):
    """A table's shift, closed: the counts it used and the figures, fixed. Append-only. A shift manager may
    reopen it once (:class:`TableCloseReopening`) before the shift closes: it is then kept, superseded, and
    the table's shift is closed again with a new close.

    The database checks the two formulas (docs/accounting.md):
    count win = closer + credits + drop − opener − fills − marker payments at the table;
    variance = count win − rounds win − pool change.
    """

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="shift_closes")
    shift = models.ForeignKey("tables.Shift", on_delete=models.PROTECT, related_name="table_closes")
    # a close reopened and closed again may use the same counts (a close after a reopening counts again only
    # what was wrong): one count, one or two closes
    opener = models.ForeignKey(InventoryCount, on_delete=models.PROTECT, related_name="+")
    closer = models.ForeignKey(InventoryCount, on_delete=models.PROTECT, related_name="+")
    drop_count = models.ForeignKey(DropCount, on_delete=models.PROTECT, related_name="+")
    opener_total = models.BigIntegerField()
    closer_total = models.BigIntegerField()
    fills = models.BigIntegerField()
    credits = models.BigIntegerField()
    drop = models.BigIntegerField()
    marker_payments = models.BigIntegerField()
    markers_issued = models.BigIntegerField()
    count_win = models.BigIntegerField()
    rounds = models.PositiveIntegerField()
    handle = models.BigIntegerField()
    rounds_win = models.BigIntegerField(help_text="Σ settlement house_net")
    commission = models.BigIntegerField()
    rake = models.BigIntegerField()
    pool_change = models.BigIntegerField(help_text="Σ (carry_out − carry_in) of pots and pools")
    variance = models.BigIntegerField()
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField()

    objects = TableShiftCloseQuerySet.as_manager()

    class Meta:
        ordering = ["id"]
        # one close in force per table shift: the database refuses a close while another stands (migration 0013)
        indexes = [models.Index(fields=["table", "shift"], name="close_by_table_shift")]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    count_win=F("closer_total")
                    + F("credits")
                    + F("drop")
                    - F("opener_total")
                    - F("fills")
                    - F("marker_payments")
                ),
                name="close_count_win_formula",
            ),
            models.CheckConstraint(
                condition=Q(variance=F("count_win") - F("rounds_win") - F("pool_change")), name="close_variance_formula"
            ),
        ]


class TableCloseReopening(models.Model):
    """A table's close reopened for correction by a shift manager, with a reason, before the casino's shift
    closed: the close is kept (superseded), its ledger posting reversed, and the table's shift is open again
    until it is closed anew. At most once per table shift, never after the shift closed, never edited: the
    database holds all three (migration 0013)."""

    close = models.OneToOneField(TableShiftClose, on_delete=models.PROTECT, related_name="reopening")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="+")
    shift = models.ForeignKey("tables.Shift", on_delete=models.PROTECT, related_name="+")
    reason = models.TextField()
    reversal = models.OneToOneField(
        LedgerTransaction, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="the reversal of the close's posting",
    )
    reopened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reopened_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "shift"], name="one_reopening_per_table_shift"),
            models.CheckConstraint(condition=~Q(reason=""), name="reopening_has_reason"),
        ]


class TableFigures(models.Model):
    """A table's running figures for a shift: :mod:`accounting.figures`' definitions kept up to date.

    Each settlement, bet, fill, credit, marker, count, soft count or void that changes a figure adds its
    part here in its own transaction (``accounting.services.running``), with one ``INSERT … ON CONFLICT
    DO UPDATE SET x = x + delta``: the row of one table and shift is all it locks, so tables never wait
    for each other. The pit dashboard and the revenue report read these rows (one per table and shift)
    instead of summing the records; the nightly check and the reconciliation recompute them from the
    records and raise an alert on any difference. A table shift with no row has every figure at 0 and no
    count. Never deleted; sealed with its table's shift (migration 0006).
    """

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="+")
    shift = models.ForeignKey("tables.Shift", on_delete=models.PROTECT, related_name="+")
    rounds = models.BigIntegerField(default=0, help_text="settled rounds")
    handle = models.BigIntegerField(default=0)
    rounds_win = models.BigIntegerField(default=0, help_text="Σ settlement house_net")
    commission = models.BigIntegerField(default=0)
    rake = models.BigIntegerField(default=0)
    pool_change = models.BigIntegerField(default=0, help_text="Σ (carry_out − carry_in) of pots and pools")
    fills = models.BigIntegerField(default=0, help_text="received fill slips")
    credits = models.BigIntegerField(default=0, help_text="received credit slips")
    marker_payments = models.BigIntegerField(default=0, help_text="paid in chips at this table")
    markers_issued = models.BigIntegerField(default=0)
    big_bets = models.BigIntegerField(default=0, help_text="bets at or above the large-bet threshold, not taken back")
    opener = models.BigIntegerField(null=True, blank=True, help_text="opening inventory count's total")
    closer = models.BigIntegerField(null=True, blank=True, help_text="closing inventory count's total")
    drop = models.BigIntegerField(null=True, blank=True, help_text="the soft count's total")

    class Meta:
        ordering = ["shift", "table"]
        constraints = [models.UniqueConstraint(fields=["table", "shift"], name="one_running_figures_per_table_shift")]


class TableHourFigures(models.Model):
    """The rounds' part of a table's running figures by clock hour of settlement (the pit dashboard's
    win-by-hour chart): rounds, handle and rounds win, added with the table's :class:`TableFigures` in
    the settlement's own statement. Their sum over a table's shift is its running row's."""

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="+")
    shift = models.ForeignKey("tables.Shift", on_delete=models.PROTECT, related_name="+")
    hour = models.DateTimeField(help_text="the clock hour the rounds settled in (its start, the casino's time zone)")
    rounds = models.BigIntegerField(default=0)
    handle = models.BigIntegerField(default=0)
    rounds_win = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["shift", "hour", "table"]
        constraints = [models.UniqueConstraint(fields=["table", "shift", "hour"], name="one_hour_figures_per_table_shift")]
        indexes = [models.Index(fields=["shift", "hour"], name="hour_figures_by_shift")]


class BigBet(models.Model):
    """A bet at or above the large-bet threshold when it was placed: the pit dashboard's list of big bets
    reads these (a handful per shift) instead of the shift's bets. Written with the bet; a bet taken back
    keeps its row and drops out of the list through its withdrawal."""

    bet = models.OneToOneField("tables.Bet", on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="+")
    shift = models.ForeignKey("tables.Shift", on_delete=models.PROTECT, related_name="+")
    placed_at = models.DateTimeField()

    class Meta:
        ordering = ["-placed_at", "-bet"]
        indexes = [models.Index(fields=["shift", "placed_at"], name="big_bets_by_shift")]


class ReconciliationStatus(models.TextChoices):
    BALANCED = "balanced", _("Balanced")
    VARIANCE = "variance", _("Variance")


class ShiftReconciliation(models.Model):
    """A shift's reconciliation, written last in the run's transaction: its presence means "reconciled".

    The tables' results are :class:`Reconciliation` rows of the same shift. Append-only.
    """

    shift = models.OneToOneField("tables.Shift", on_delete=models.PROTECT, related_name="reconciliation")
    status = models.CharField(max_length=10, choices=ReconciliationStatus.choices)
    tables = models.PositiveIntegerField()
    rounds = models.PositiveIntegerField()
    causes = models.PositiveIntegerField(help_text="number of causes recorded across the tables")
    created_at = models.DateTimeField()


class Reconciliation(models.Model):
    """One table's result within a shift's reconciliation. Append-only.

    ``causes`` lists each variance with its cause: ``missing_count``, ``unposted_round``, ``mismatch``,
    ``live_round``, ``count_variance``, ``round_after_close``, ``hold_outside_interval``, ``running_figures``
    (a running figure differs from its records).
    """

    shift = models.ForeignKey("tables.Shift", on_delete=models.PROTECT, related_name="table_reconciliations")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="reconciliations")
    status = models.CharField(max_length=10, choices=ReconciliationStatus.choices)
    rounds = models.PositiveIntegerField()
    rounds_recomputed = models.PositiveIntegerField()
    rounds_mismatched = models.PositiveIntegerField()
    rounds_unposted = models.PositiveIntegerField()
    rounds_win = models.BigIntegerField()
    pool_change = models.BigIntegerField()
    count_win = models.BigIntegerField(null=True, blank=True)
    variance = models.BigIntegerField(null=True, blank=True)
    causes = models.JSONField(default=list)
    data = models.JSONField(default=dict, help_text="figures used (counts, fills, drop, statistical hold)")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["shift", "table"]
        constraints = [models.UniqueConstraint(fields=["shift", "table"], name="one_reconciliation_per_shift_table")]


# -- alerts --------------------------------------------------------------------------------------


class AlertSeverity(models.TextChoices):
    INFO = "info", pgettext_lazy("alert severity", "Info")
    WARNING = "warning", pgettext_lazy("alert severity", "Warning")
    CRITICAL = "critical", pgettext_lazy("alert severity", "Critical")


class Alert(models.Model):
    """Something a pit manager should look at: a variance, a large bet, an unusual result."""

    kind = models.CharField(max_length=40)
    severity = models.CharField(max_length=10, choices=AlertSeverity.choices)
    table = models.ForeignKey("tables.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    shift = models.ForeignKey("tables.Shift", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    message = models.CharField(max_length=300)
    data = models.JSONField(default=dict, blank=True)
    dedupe_key = models.CharField(max_length=120, unique=True, help_text="one alert per cause (kind:object)")
    created_at = models.DateTimeField()
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    ack_note = models.CharField(max_length=300, blank=True)
    # resolved once the cause is dealt with, after the acknowledgement: who, when and what was done
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolve_note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(acknowledged_by__isnull=True, acknowledged_at__isnull=True)
                | Q(acknowledged_by__isnull=False, acknowledged_at__isnull=False),
                name="alert_ack_has_who_and_when",
            ),
            models.CheckConstraint(
                condition=Q(resolved_by__isnull=True, resolved_at__isnull=True)
                | Q(resolved_by__isnull=False, resolved_at__isnull=False, acknowledged_at__isnull=False),
                name="alert_resolution_has_who_when_after_ack",
            ),
        ]
        indexes = [models.Index(fields=["acknowledged_at", "severity"]), models.Index(fields=["table", "created_at"])]


# -- engine edges and report exports --------------------------------------------------------------


class HouseEdgeCache(models.Model):
    """An engine's house edges for one game and rule settings (some engines simulate for seconds)."""

    game = models.CharField(max_length=40)
    config_key = models.CharField(max_length=64, help_text="SHA-256 of the normalized config")
    config = models.JSONField()
    rows = models.JSONField(help_text="[{bet, edge (fraction as 'n/d' or float text), method}]")
    computed_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "config_key"], name="one_edge_row_per_game_config")]


class ExportStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class ReportExport(models.Model):
    """A report written to a file by a Celery job, with its progress and a download link."""

    report = models.CharField(max_length=40)
    format = models.CharField(max_length=8)
    filters = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=8, choices=ExportStatus.choices, default=ExportStatus.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0, help_text="percent done")
    rows_done = models.PositiveIntegerField(default=0)
    rows_total = models.PositiveIntegerField(null=True, blank=True)
    file = models.FileField(upload_to="exports/%Y/%m/", blank=True)
    error = models.CharField(max_length=300, blank=True)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=100), name="export_progress_percent"),
            models.CheckConstraint(condition=~Q(status="done") | ~Q(file=""), name="export_done_has_file"),
        ]


class CreditLine(models.Model):
    """A player's credit line for markers, as approved: each approval (a new line, a higher or a lower one) is a
    new record and the latest is the line in force; append-only. Signed by an approver whose authority covers
    the amount (accounting/services/credit.py)."""

    player = models.CharField(max_length=120, db_index=True, help_text="the player's name or account, as on markers")
    limit = models.BigIntegerField(help_text="minor units")
    approver = models.ForeignKey("core.StaffProfile", on_delete=models.PROTECT, related_name="+")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    approved_at = models.DateTimeField()
    reason = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["player", "approved_at", "id"]
        constraints = [models.CheckConstraint(condition=Q(limit__gte=0), name="credit_line_limit_not_negative")]
