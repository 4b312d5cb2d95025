"""Fills and credits: request → issue → receipt, each signed; numbered in sequence per kind and year;
a void needs a written reason and a second, independent person. Markers, their payments and write-offs."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy

from accounting import signing
from accounting.models import (
    LedgerTransaction,
    Marker,
    MarkerPayment,
    MarkerWriteOff,
    SerialCounter,
    Slip,
    SlipKind,
    SlipStatus,
)
from accounting.money import money_words
from accounting.services import credit, ledger, running
from accounting.services.counts import (
    chips_json,
    chips_of,
    chips_total,
    ensure_table_shift_open,
    open_shift,
    parse_chips,
)
from casino.audit.services import audit_log
from casino.core.roles import Role, has_role
from casino.errors import Conflict, Forbidden, InvalidInput, NotFound
from casino.signatures import distinct, signed_by, submitter_signs
from tables.access import ensure_manages, manages_table
from tables.services.locks import lock_table

# a slip's status inside a refusal ("slip F2026-000001 is issued, not requested"), in the reader's words
STATUS_WORDS = {"requested": pgettext_lazy("slip status", "requested"), "issued": pgettext_lazy("slip status", "issued"),
                "received": pgettext_lazy("slip status", "received"), "voided": pgettext_lazy("slip status", "voided")}


def _status_words(status: str) -> str:
    found = STATUS_WORDS.get(str(status))
    return str(found) if found is not None else str(status)


def serial_next(series: str, year: int) -> int:
    """The next number of a yearly series, in sequence: the counter row is locked until commit, so a
    rolled-back request frees its number and two requests never share one."""
    SerialCounter.objects.get_or_create(series=series, year=year)
    counter = SerialCounter.objects.select_for_update().get(series=series, year=year)
    SerialCounter.objects.filter(pk=counter.pk).update(last=F("last") + 1)
    return counter.last + 1


def _slip(slip_id: int) -> Slip:
    slip = Slip.objects.select_related("table__pit").filter(pk=slip_id).first()
    if slip is None:
        raise NotFound(gettext("no slip %(slip_id)s") % {"slip_id": slip_id}, code="unknown_slip")
    return slip


def _locked_slip(slip_id: int) -> Slip:
    slip = _slip(slip_id)
    lock_table(slip.table_id)  # table before slip, as every table-level writer does
    return Slip.objects.select_for_update().select_related("table__pit", "shift").get(pk=slip.pk)


def _step_actor(actor: Any, slip: Slip, *, cage: bool) -> None:
    """Who submits a step of a slip: a pit manager of the table; for the cage's steps (a fill issued, a credit
    received, a request refused) a cage cashier too. Another pit's slip is "no slip", as the reads say."""
    signing.ensure_writes_record(actor, slip.table, what="slip", pk=slip.pk, code="unknown_slip")
    if cage and has_role(actor, Role.CASHIER):
        return
    if not manages_table(actor, slip.table):
        who = "the cage or a pit manager" if cage else "a pit manager"
        raise Forbidden(gettext("only %(who)s of %(pit)s may do this")
            % {"who": who, "pit": slip.table.pit.name}, code="pit_manager_required")


def _step_signer(slip: Slip, signer: Any, *, actor: Any, cage: bool) -> Any:
    """The cage's signature is a cashier's; the table's is its dealer's in the slip's shift."""
    if cage:
        return signing.cage_cashier(signer, actor=actor, field="signer")
    return signing.table_dealer(signer, actor=actor, table=slip.table, shift=slip.shift, field="signer")


def _summary(slip: Slip) -> dict[str, Any]:
    return {
        "reference": slip.reference,
        "kind": slip.kind,
        "status": slip.status,
        "total": slip.total,
        "chips": slip.chips,
    }


@transaction.atomic
def slip_request(*, actor: Any, kind: str, table_id: int, shift_id: int, chips: Any) -> Slip:
    """The pit asks for chips (fill) or sends chips back (credit): the supervisor signed in signs the request."""
    if kind not in SlipKind.values:
        raise InvalidInput(gettext("kind must be fill or credit"), code="bad_kind", field="kind")
    table = lock_table(table_id)
    signing.ensure_writes_table(actor, table)  # another pit's table: "no table", as the reads say
    ensure_manages(actor, table)
    shift = open_shift(shift_id)
    ensure_table_shift_open(table, shift)
    parsed = parse_chips(chips, table=table, allow_empty=False)
    requester = signed_by({"username": actor.get_username()}, actor=actor, field="requester", roles=(Role.PIT_MANAGER,))
    now = timezone.now()
    year = timezone.localdate(now).year
    slip = Slip.objects.create(
        kind=kind,
        year=year,
        number=serial_next(kind, year),
        table=table,
        shift=shift,
        chips=chips_json(parsed),
        total=chips_total(parsed),
        requested_by=actor,
        request_signer=requester,
        requested_at=now,
    )
    audit_log(
        actor=actor,
        action=f"{kind}.request",
        object_type="slip",
        object_id=slip.pk,
        table_code=table.code,
        after={**_summary(slip), "shift": shift.pk, "requester": requester.employee_id,
               "requester_username": actor.get_username()},
    )
    return slip


@transaction.atomic
def slip_issue(*, actor: Any, slip_id: int, signer: Any) -> Slip:
    """The sender hands the chips over and signs: the cage for a fill, the table's dealer for a credit. The
    person submitting signed the request or signs this step."""
    slip = _locked_slip(slip_id)
    cage = slip.kind == SlipKind.FILL  # the cage issues a fill; the table's dealer sends a credit
    _step_actor(actor, slip, cage=cage)
    if slip.status != SlipStatus.REQUESTED:
        raise Conflict(gettext("slip %(reference)s is %(status)s, not requested")
                       % {"reference": slip.reference, "status": _status_words(slip.status)}, code=f"slip_{slip.status}")
    issuer = _step_signer(slip, signer, actor=actor, cage=cage)
    distinct(("request signer", slip.request_signer), ("signer", issuer))
    submitter_signs(actor, slip.request_signer, issuer)
    updated = Slip.objects.filter(pk=slip.pk, status=SlipStatus.REQUESTED).update(
        status=SlipStatus.ISSUED, issue_signer=issuer, issued_at=timezone.now()
    )
    if updated != 1:
        raise Conflict(gettext("the slip changed meanwhile"), code="concurrent_change")
    slip.refresh_from_db()
    audit_log(
        actor=actor,
        action=f"{slip.kind}.issue",
        object_type="slip",
        object_id=slip.pk,
        table_code=slip.table.code,
        before={"status": SlipStatus.REQUESTED},
        after={**_summary(slip), "issuer": issuer.employee_id, "issuer_username": issuer.user.get_username()},
    )
    return slip


def _post_slip(slip: Slip, actor: Any) -> LedgerTransaction:
    cage = ledger.casino_accounts()["cage"]
    sign = 1 if slip.kind == SlipKind.FILL else -1  # a fill adds chips to the tray, a credit takes them
    lines = [(ledger.tray_account(slip.table, d), sign * d * q) for d, q in sorted(chips_of(slip).items())]
    lines.append((cage, -sign * slip.total))
    return ledger.ledger_post(
        kind=slip.kind,
        source_type=slip.kind,
        source_id=slip.pk,
        lines=lines,
        actor=actor,
        table=slip.table,
        shift=slip.shift,
        memo=f"{slip.reference} {slip.table.code}",
    )


@transaction.atomic
def slip_receive(*, actor: Any, slip_id: int, signer: Any) -> Slip:
    """The receiver signs for the chips (the table's dealer for a fill, the cage for a credit); posts. The
    person submitting signed an earlier step or signs this one."""
    slip = _locked_slip(slip_id)
    cage = slip.kind == SlipKind.CREDIT  # the table's dealer receives a fill; the cage a credit
    _step_actor(actor, slip, cage=cage)
    if slip.status != SlipStatus.ISSUED:
        raise Conflict(gettext("slip %(reference)s is %(status)s, not issued")
                       % {"reference": slip.reference, "status": _status_words(slip.status)}, code=f"slip_{slip.status}")
    receiver = _step_signer(slip, signer, actor=actor, cage=cage)
    distinct(("request signer", slip.request_signer), ("issue signer", slip.issue_signer),  # type: ignore[arg-type]  # an issued slip has both
             ("signer", receiver))
    submitter_signs(actor, slip.request_signer, slip.issue_signer, receiver)
    updated = Slip.objects.filter(pk=slip.pk, status=SlipStatus.ISSUED).update(
        status=SlipStatus.RECEIVED, receive_signer=receiver, received_at=timezone.now()
    )
    if updated != 1:
        raise Conflict(gettext("the slip changed meanwhile"), code="concurrent_change")
    slip.refresh_from_db()
    txn = _post_slip(slip, actor)
    running.slip_received(slip)  # the table's running fills or credits, in this transaction
    audit_log(
        actor=actor,
        action=f"{slip.kind}.receive",
        object_type="slip",
        object_id=slip.pk,
        table_code=slip.table.code,
        before={"status": SlipStatus.ISSUED},
        after={**_summary(slip), "receiver": receiver.employee_id, "receiver_username": receiver.user.get_username(),
               "ledger_transaction": txn.pk},
    )
    return slip


@transaction.atomic
def slip_void_request(*, actor: Any, slip_id: int, reason: Any) -> Slip:
    """Ask for a slip to be voided, with a written reason; another person must approve. The pit asks, or the
    cage when it refuses a request."""
    slip = _locked_slip(slip_id)
    _step_actor(actor, slip, cage=True)
    if slip.status == SlipStatus.VOIDED:
        raise Conflict(gettext("slip %(reference)s is already voided")
            % {"reference": slip.reference}, code="slip_voided")
    if slip.void_requested_by_id is not None:
        raise Conflict(gettext("a void of slip %(reference)s is already requested: it is approved or left, never asked for again")
            % {"reference": slip.reference}, code="void_already_requested")
    ensure_table_shift_open(slip.table, slip.shift)  # a closed shift's slips are fixed: nothing left dangling
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        raise InvalidInput(gettext("a void needs a written reason"), code="reason_required", field="reason")
    updated = Slip.objects.filter(pk=slip.pk, void_requested_by__isnull=True).update(
        void_reason=reason[:1000], void_requested_by=actor, void_requested_at=timezone.now()
    )
    if updated != 1:
        raise Conflict(gettext("the slip changed meanwhile"), code="concurrent_change")
    slip.refresh_from_db()
    audit_log(
        actor=actor,
        action=f"{slip.kind}.void_request",
        object_type="slip",
        object_id=slip.pk,
        table_code=slip.table.code,
        after={"reference": slip.reference, "reason": slip.void_reason},
    )
    return slip


@transaction.atomic
def slip_void_approve(*, actor: Any, slip_id: int) -> Slip:
    """A second, independent person approves: not the requester of the void, and not a signer of the slip.

    A slip already received was posted: its ledger transaction is reversed, never edited.
    """
    slip = _locked_slip(slip_id)
    signing.ensure_writes_record(actor, slip.table, what="slip", pk=slip.pk, code="unknown_slip")
    if not (manages_table(actor, slip.table) or has_role(actor, Role.ACCOUNTANT)):
        raise Forbidden(
            gettext("only a pit manager of %(pit)s or an accountant may approve a void")
                % {"pit": slip.table.pit.name}, code="approver_role"
        )
    if slip.status == SlipStatus.VOIDED:
        raise Conflict(gettext("slip %(reference)s is already voided")
            % {"reference": slip.reference}, code="slip_voided")
    if slip.void_requested_by_id is None:
        raise Conflict(gettext("no void was requested for slip %(reference)s")
            % {"reference": slip.reference}, code="no_void_request")
    if slip.void_requested_by_id == actor.pk:
        raise Forbidden(gettext("a void must be approved by someone other than who requested it"), code="same_person")
    signers = [s for s in (slip.request_signer, slip.issue_signer, slip.receive_signer) if s is not None]
    if any(s.user_id == actor.pk for s in signers):
        raise Forbidden(gettext("a signer of the slip may not approve its void"), code="not_independent")
    before = slip.status
    ensure_table_shift_open(slip.table, slip.shift)  # a closed shift's figures are fixed
    updated = Slip.objects.filter(pk=slip.pk, status=before).update(
        status=SlipStatus.VOIDED, voided_by=actor, voided_at=timezone.now(), voided_from=before
    )
    if updated != 1:
        raise Conflict(gettext("the slip changed meanwhile"), code="concurrent_change")
    reversal = None
    if before == SlipStatus.RECEIVED:
        original = LedgerTransaction.objects.get(source_type=slip.kind, source_id=str(slip.pk))
        reversal = ledger.transaction_reverse(
            txn_id=original.pk, actor=actor, reason=f"void of {slip.reference}: {slip.void_reason}"
        )
    slip.refresh_from_db()
    running.slip_voided(slip, was=before)  # a received slip no longer counts in fills or credits
    audit_log(
        actor=actor,
        action=f"{slip.kind}.void",
        object_type="slip",
        object_id=slip.pk,
        table_code=slip.table.code,
        before={"status": before},
        after={
            "status": slip.status,
            "reason": slip.void_reason,
            "requested_by": slip.void_requested_by_id,
            "reversal": reversal.pk if reversal else None,
        },
    )
    return slip


# -- markers ---------------------------------------------------------------------------------------


def _amount(value: Any, field: str = "amount") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise InvalidInput(gettext("%(field)s must be a positive whole number of minor units")
            % {"field": field}, code="bad_amount", field=field)
    return value


@transaction.atomic
def marker_issue(
    *,
    actor: Any,
    table_id: int,
    shift_id: int,
    player: Any,
    amount: Any,
    supervisor: Any,
    dealer: Any,
) -> Marker:
    """A player signs a marker at the table for chips from the tray; its copy goes into the drop box. The
    supervisor and the table's dealer sign it; the person submitting is one of them."""
    table = lock_table(table_id)
    signing.ensure_writes_table(actor, table)  # another pit's table: "no table", as the reads say
    ensure_manages(actor, table)
    shift = open_shift(shift_id)
    ensure_table_shift_open(table, shift)
    if not isinstance(player, str) or not player.strip():
        raise InvalidInput(gettext("player must name the player or their account"), code="player_required", field="player")
    amount = _amount(amount)
    supervisor = signed_by(supervisor, actor=actor, field="supervisor", roles=(Role.PIT_MANAGER,))
    dealer = signed_by(dealer, actor=actor, field="dealer", roles=(Role.DEALER,))
    distinct(("supervisor", supervisor), ("dealer", dealer))
    signing.bind_table_dealer(dealer, table=table, shift=shift)
    submitter_signs(actor, supervisor, dealer)
    credit.ensure_within_line(player.strip()[:120], amount)  # never over the player's credit line
    now = timezone.now()
    year = timezone.localdate(now).year
    marker = Marker.objects.create(
        year=year,
        number=serial_next("marker", year),
        table=table,
        shift=shift,
        player=player.strip()[:120],
        amount=amount,
        supervisor_signer=supervisor,
        dealer_signer=dealer,
        issued_by=actor,
        issued_at=now,
    )
    ledger.ledger_post(
        kind="marker",
        source_type="marker",
        source_id=marker.pk,
        actor=actor,
        table=table,
        shift=shift,
        memo=f"{marker.reference} {table.code}",
        lines=[(ledger.casino_accounts()["markers"], amount), (ledger.table_accounts(table)["tray"], -amount)],
    )
    running.marker_issued(marker)
    audit_log(
        actor=actor,
        action="marker.issue",
        object_type="marker",
        object_id=marker.pk,
        table_code=table.code,
        after={
            "reference": marker.reference,
            "player": marker.player,
            "amount": amount,
            "shift": shift.pk,
            "supervisor": supervisor.employee_id,
            "dealer": dealer.employee_id,
        },
    )
    return marker


@transaction.atomic
def marker_pay(
    *,
    actor: Any,
    marker_id: int,
    amount: Any,
    at_table: bool,
    signer: Any,
    table_id: int | None = None,
    shift_id: int | None = None,
) -> MarkerPayment:
    """A payment against a marker: in chips at a table (into its tray) or at the cage. Whoever takes the
    money signs for it (the table's dealer, or at the cage the cashier); the person submitting records it
    (``received_by``), which is their signature."""
    marker = Marker.objects.select_related("table__pit").filter(pk=marker_id).first()
    if marker is None:
        raise NotFound(gettext("no marker %(marker_id)s") % {"marker_id": marker_id}, code="unknown_marker")
    # another pit's marker is no marker, as the reads say: nothing about it (what is left to pay) is told
    signing.ensure_writes_record(actor, marker.table, what="marker", pk=marker_id, code="unknown_marker")
    amount = _amount(amount)
    table = shift = None
    if at_table:
        table = lock_table(table_id if table_id is not None else marker.table_id)
        signing.ensure_writes_table(actor, table)
        ensure_manages(actor, table)
        shift = open_shift(shift_id if shift_id is not None else marker.shift_id)
        ensure_table_shift_open(table, shift)
        payee = signing.table_dealer(signer, actor=actor, table=table, shift=shift, field="signer")
    else:
        if not has_role(actor, Role.PIT_MANAGER, Role.ACCOUNTANT, Role.CASHIER):
            raise Forbidden(gettext("a payment at the cage is recorded by the cage, a pit manager or an accountant"),
                            code="role_required")
        payee = signing.cage_cashier(signer, actor=actor, field="signer")
    marker = Marker.objects.select_for_update().get(pk=marker.pk)
    if MarkerWriteOff.objects.filter(marker=marker).exists():
        raise Conflict(gettext("%(reference)s is written off: it takes no payment")
            % {"reference": marker.reference}, code="marker_written_off")
    if marker.paid + amount > marker.amount:
        raise Conflict(
            gettext("%(reference)s has %(left)s left to pay; %(amount)s is too much")
            % {"reference": marker.reference, "left": money_words(marker.amount - marker.paid),
               "amount": money_words(amount)},
            code="overpayment",
            field="amount",
            params={"reference": marker.reference, "left": marker.amount - marker.paid, "amount": amount},
        )
    # the payment first, then the running total: the database holds ``paid`` to the sum of the payments
    payment = MarkerPayment.objects.create(
        marker=marker,
        amount=amount,
        at_table=bool(at_table),
        table=table,
        shift=shift,
        signer=payee,
        received_by=actor,
        paid_at=timezone.now(),
    )
    Marker.objects.filter(pk=marker.pk).update(paid=F("paid") + amount)
    running.marker_paid(payment)  # at a table: its running marker payments
    debit = ledger.table_accounts(table)["tray"] if at_table else ledger.casino_accounts()["cage"]
    ledger.ledger_post(
        kind="marker_payment",
        source_type="marker_payment",
        source_id=payment.pk,
        actor=actor,
        table=table,
        shift=shift,
        memo=f"payment on {marker.reference}",
        lines=[(debit, amount), (ledger.casino_accounts()["markers"], -amount)],
    )
    audit_log(
        actor=actor,
        action="marker.pay",
        object_type="marker",
        object_id=marker.pk,
        table_code=table.code if table else "",
        before={"paid": marker.paid},
        after={"paid": marker.paid + amount, "payment": payment.pk, "amount": amount, "at_table": at_table,
               "signer": payee.employee_id, "signer_username": payee.user.get_username()},
    )
    return payment


@transaction.atomic
def marker_write_off(*, actor: Any, marker_id: int, reason: Any, accountant: Any, second: Any) -> MarkerWriteOff:
    """Write off what is left to pay on a marker as uncollectable, with a written reason: signed by an
    accountant and a second person (a pit manager or another accountant), the person submitting one of
    them. Markers receivable go down by what was left; the marker takes no payment after it."""
    if not has_role(actor, Role.ACCOUNTANT):
        raise Forbidden(gettext("a marker is written off by an accountant"), code="accountant_required")
    marker = Marker.objects.select_related("table").filter(pk=marker_id).first()
    if marker is None:
        raise NotFound(gettext("no marker %(marker_id)s") % {"marker_id": marker_id}, code="unknown_marker")
    marker = Marker.objects.select_for_update().select_related("table").get(pk=marker.pk)
    if MarkerWriteOff.objects.filter(marker=marker).exists():
        raise Conflict(gettext("%(reference)s is already written off")
            % {"reference": marker.reference}, code="marker_written_off")
    left = marker.amount - marker.paid
    if left <= 0:
        raise Conflict(gettext("%(reference)s is paid in full: nothing is left to write off")
            % {"reference": marker.reference}, code="marker_paid")
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        raise InvalidInput(gettext("a write-off needs a written reason"), code="reason_required", field="reason")
    first = signed_by(accountant, actor=actor, field="accountant", roles=(Role.ACCOUNTANT,))
    other = signed_by(second, actor=actor, field="second", roles=(Role.PIT_MANAGER, Role.ACCOUNTANT))
    distinct(("accountant", first), ("second", other))
    submitter_signs(actor, first, other)
    write_off = MarkerWriteOff.objects.create(
        marker=marker,
        amount=left,
        reason=reason[:1000],
        accountant_signer=first,
        second_signer=other,
        recorded_by=actor,
        written_off_at=timezone.now(),
    )
    accounts = ledger.casino_accounts()
    txn = ledger.ledger_post(
        kind="marker_write_off",
        source_type="marker_write_off",
        source_id=write_off.pk,
        actor=actor,
        memo=f"{marker.reference} written off",
        lines=[(accounts["marker_write_offs"], left), (accounts["markers"], -left)],
    )
    audit_log(
        actor=actor,
        action="marker.write_off",
        object_type="marker",
        object_id=marker.pk,
        table_code=marker.table.code,
        before={"paid": marker.paid, "left": left},
        after={"written_off": left, "reason": write_off.reason, "accountant": first.employee_id,
               "second": other.employee_id, "ledger_transaction": txn.pk},
    )
    return write_off


def slip_numbers(*, kind: str, year: int, tables: Any = None) -> dict[str, Any]:
    """Every number of a series accounted for: used (received), voided (with reasons), outstanding
    (requested or issued, not yet received), and gaps (numbers below the counter with no slip).

    ``tables``: the tables the reader may see (a pit manager's); the others' slips are not listed, and
    their numbers are not gaps either."""
    counter = SerialCounter.objects.filter(series=kind, year=year).values_list("last", flat=True).first() or 0
    series = Slip.objects.filter(kind=kind, year=year)
    seen = set(series.values_list("number", flat=True))
    if tables is not None:
        series = series.filter(table__in=tables)
    rows = list(series.values("number", "status", "void_reason", "table__code"))
    return {
        "kind": kind,
        "year": year,
        "last_number": counter,
        "used": sorted(r["number"] for r in rows if r["status"] == SlipStatus.RECEIVED),
        "outstanding": sorted(r["number"] for r in rows if r["status"] in (SlipStatus.REQUESTED, SlipStatus.ISSUED)),
        "voided": [
            {"number": r["number"], "reason": r["void_reason"], "table": r["table__code"]}
            for r in sorted(rows, key=lambda r: r["number"])
            if r["status"] == SlipStatus.VOIDED
        ],
        "gaps": [n for n in range(1, counter + 1) if n not in seen],
    }
