"""Table inventory counts (opener and closer, by denomination, two signatures), the roll of the last
closer into the next opener, the soft count of the drop box, and the chip denominations in use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounting import signing
from accounting.conf import int_knob, knob
from accounting.models import ChipSet, CountKind, DropCount, InventoryCount, TableShiftClose
from accounting.money import money_text, money_words
from accounting.services import ledger, running
from accounting.services.alerts import alert_raise, severity_for
from accounting.signing import writes_for
from casino.audit.services import audit_log
from casino.core.roles import Role, has_role
from casino.errors import Conflict, Forbidden, InvalidInput, NotFound
from casino.signatures import distinct, signed_by, submitter_signs
from casino.words import shift_words
from tables.access import ensure_manages
from tables.models import Shift, ShiftStatus, Table
from tables.services.locks import lock_table

Chips = dict[int, int]


# -- denominations -------------------------------------------------------------------------------


def denominations_for(table: Table | None) -> list[int]:
    """The table's own set, else the casino's, else the settings' default."""
    sets = {
        c.scope: c.denominations
        for c in ChipSet.objects.filter(scope__in=["casino"] + ([f"table:{table.pk}"] if table is not None else []))
    }
    if table is not None and f"table:{table.pk}" in sets:
        return list(sets[f"table:{table.pk}"])
    if "casino" in sets:
        return list(sets["casino"])
    denominations = cast(list[int], knob("CHIP_DENOMINATIONS"))  # a list in settings
    return sorted(int(v) for v in denominations)


@transaction.atomic
def denominations_set(*, actor: Any, denominations: Any, table_id: int | None = None) -> ChipSet:
    """Set the casino-wide denominations (admin) or one table's (its pit manager)."""
    values = denominations if isinstance(denominations, list) else None
    if not values or any(isinstance(v, bool) or not isinstance(v, int) or v <= 0 for v in values):
        raise InvalidInput(
            gettext("denominations must be a non-empty list of positive whole numbers (minor units)"),
            code="bad_denominations",
            field="denominations",
        )
    if len(set(values)) != len(values):
        raise InvalidInput(gettext("denominations must not repeat"), code="bad_denominations", field="denominations")
    table = None
    if table_id is None:
        if not has_role(actor):
            raise Forbidden(gettext("only an admin may set the casino's chip denominations"), code="admin_required")
        scope = "casino"
    else:
        table = lock_table(table_id)
        ensure_manages(actor, table)
        scope = f"table:{table.pk}"
    before = denominations_for(table)
    chip_set, _ = ChipSet.objects.update_or_create(
        scope=scope,
        defaults={"table": table, "denominations": sorted(values), "updated_at": timezone.now(), "updated_by": actor},
    )
    audit_log(
        actor=actor,
        action="chips.denominations",
        object_type="chip_set",
        object_id=chip_set.pk,
        table_code=table.code if table else "",
        before={"denominations": before},
        after={"scope": scope, "denominations": chip_set.denominations},
    )
    return chip_set


def parse_chips(raw: Any, *, table: Table, field: str = "chips", allow_empty: bool = True) -> Chips:
    """``{"2500": 40, "500": 12}`` → {2500: 40, 500: 12}; only the table's denominations, whole counts ≥ 0."""
    if not isinstance(raw, Mapping):
        raise InvalidInput(
            gettext("%(field)s must be an object of denomination → number of chips")
                % {"field": field}, code="bad_chips", field=field
        )
    allowed = set(denominations_for(table))
    chips: Chips = {}
    for key, count in raw.items():
        try:
            denomination = int(key)
        except (TypeError, ValueError):
            raise InvalidInput(
                gettext("%(field)s: “%(key)s” is not a chip denomination")
                    % {"field": field, "key": key}, code="bad_chips", field=f"{field}.{key}"
            ) from None
        if denomination not in allowed:
            raise InvalidInput(
                gettext("%(field)s: %(table)s uses no %(denomination)s chip (its denominations: %(items)s)")
                    % {"field": field, "table": table.code, "denomination": denomination, "items": ', '.join(map(str, sorted(allowed)))},
                code="unknown_denomination",
                field=f"{field}.{key}",
            )
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise InvalidInput(
                gettext("%(field)s.%(key)s must be a whole number of chips, 0 or more")
                    % {"field": field, "key": key}, code="bad_chips", field=f"{field}.{key}"
            )
        if denomination in chips:
            raise InvalidInput(gettext("%(field)s: denomination %(denomination)s is given twice")
                % {"field": field, "denomination": denomination}, code="bad_chips", field=field)
        if count:
            chips[denomination] = count
    if not chips and not allow_empty:
        raise InvalidInput(gettext("%(field)s must hold at least one chip")
            % {"field": field}, code="bad_chips", field=field)
    return chips


def chips_total(chips: Mapping[Any, int]) -> int:
    return sum(int(d) * q for d, q in chips.items())


def chips_json(chips: Chips) -> dict[str, int]:
    return {str(d): q for d, q in sorted(chips.items())}


def chips_of(record: Any) -> Chips:
    return {int(d): q for d, q in (record.chips or {}).items()}


# -- shared checks --------------------------------------------------------------------------------


def open_shift(shift_id: Any) -> Shift:
    shift = Shift.objects.filter(pk=shift_id).first() if isinstance(shift_id, int) else None
    if shift is None:
        raise InvalidInput(gettext("no shift %(shift_id)s")
            % {"shift_id": shift_id}, code="unknown_shift", field="shift")
    if shift.status != ShiftStatus.OPEN:
        raise Conflict(gettext("the shift %(shift)s is closed") % {"shift": shift_words(shift)}, code="shift_closed", field="shift")
    return shift


def table_shift_closed(table: Table, shift: Shift) -> bool:
    """A close of the table's shift stands (recorded, and not reopened)."""
    return TableShiftClose.objects.standing().filter(table=table, shift=shift).exists()


def recount_open(table: Table, shift: Shift) -> bool:
    """Counts can be counted again: the shift is open and the table's shift not closed."""
    return shift.status == ShiftStatus.OPEN and not table_shift_closed(table, shift)


def ensure_table_shift_open(table: Table, shift: Shift) -> None:
    if table_shift_closed(table, shift):
        raise Conflict(gettext("%(table)s is already closed for the shift %(shift)s")
            % {"table": table.code, "shift": shift_words(shift)}, code="table_shift_closed")


def previous_closer(table: Table, shift: Shift) -> InventoryCount | None:
    """The table's closer from the latest shift that started before ``shift``."""
    return (
        InventoryCount.objects.filter(
            table=table, kind=CountKind.CLOSER, shift__starts_at__lt=shift.starts_at, superseded_by__isnull=True
        )
        .select_related("shift")
        .order_by("-shift__starts_at", "-id")
        .first()
    )


def _ensure_previous_closed(table: Table, shift: Shift) -> None:
    """The tray accounts hold the last closer only once that shift is closed: refuse to open on top of it."""
    earlier = (
        InventoryCount.objects.filter(table=table, kind=CountKind.OPENER, shift__starts_at__lt=shift.starts_at)
        .select_related("shift")
        .order_by("-shift__starts_at")
        .first()
    )
    if earlier is not None and not table_shift_closed(table, earlier.shift):
        raise Conflict(
            gettext("%(table)s is not closed for the earlier shift %(shift)s: close it first")
                % {"table": table.code, "shift": shift_words(earlier.shift)},
            code="previous_shift_not_closed",
        )


def discrepancy(opener: Chips, closer: Chips) -> tuple[int, int]:
    """(net, gross): net = Σ (opener − closer) × d; gross = Σ |opener − closer| × d (swaps count too)."""
    net = gross = 0
    for d in set(opener) | set(closer):
        diff = opener.get(d, 0) - closer.get(d, 0)
        net += diff * d
        gross += abs(diff) * d
    return net, gross


def _post_opener(count: InventoryCount, prev: InventoryCount | None, actor: Any) -> None:
    """Bring the tray accounts from the previous closer to this opener: the difference is a discrepancy
    (or, for a table's first opener, chips issued from the bankroll)."""
    table = count.table
    opener, closer = chips_of(count), chips_of(prev) if prev else {}
    lines = [
        (ledger.tray_account(table, d), opener.get(d, 0) * d - closer.get(d, 0) * d)
        for d in sorted(set(opener) | set(closer))
    ]
    total = sum(amount for _, amount in lines)
    if not any(amount for _, amount in lines):
        return
    counter = ledger.shift_accounts(table)["discrepancy"] if prev else ledger.casino_accounts()["bankroll"]
    lines.append((counter, -total))
    ledger.ledger_post(
        kind="opener",
        source_type="count",
        source_id=count.pk,
        lines=lines,
        actor=actor,
        table=table,
        shift=count.shift,
        memo=f"{table.code} opener" + (" vs previous closer" if prev else " (first issue of chips)"),
    )


def _discrepancy_alert(count: InventoryCount) -> None:
    if count.discrepancy_gross is None:
        return
    severity = severity_for(
        count.discrepancy_gross,
        report=int_knob("COUNT_DISCREPANCY_REPORT"),
        escalate=int_knob("COUNT_DISCREPANCY_ESCALATE"),
    )
    if severity is None:
        return
    alert_raise(
        kind="count_discrepancy",
        severity=severity,
        dedupe_key=f"count_discrepancy:{count.pk}",
        table=count.table,
        shift=count.shift,
        message=f"{count.table.code} opener differs from the last closer by {money_text(count.discrepancy_gross)}"
        f" (net {money_text(count.discrepancy_net or 0)})",
        data={
            "count": count.pk,
            "previous_closer": count.previous_closer_id,
            "net": count.discrepancy_net,
            "gross": count.discrepancy_gross,
        },
    )


def _create_count(**fields: Any) -> InventoryCount:
    try:
        with transaction.atomic():
            count = InventoryCount.objects.create(**fields)
    except IntegrityError:
        kind = CountKind(fields["kind"]).label.lower()
        raise Conflict(
            gettext("the %(kind)s of %(table)s for this shift is already recorded")
                % {"kind": kind, "table": fields['table'].code}, code="count_exists"
        ) from None
    running.count_recorded(count)  # the table's running opener or closer, in this transaction
    return count


# -- services -------------------------------------------------------------------------------------


def _tray_signed(actor: Any, table: Any, shift: Any, *, chips: Any, tray_empty: bool, dealer: Any,
                 supervisor: Any) -> tuple[Any, Any, Any]:
    """A tray count's chips and its two signatures, as a count and a recount take them: no chip at all only with
    ``tray_empty`` (and ``tray_empty`` only with no chip), signed by the table's dealer in that shift and a pit
    manager, distinct, the person submitting one of them. Returns the parsed chips and the two signers."""
    parsed = parse_chips(chips, table=table)
    if not parsed and tray_empty is not True:
        raise InvalidInput(
            gettext("chips: the count holds no chip: confirm that the tray is empty, or count the chips"),
            code="empty_tray_unconfirmed", field="chips",
        )
    if parsed and tray_empty is True:
        raise InvalidInput(
            gettext("chips: the tray is said to be empty but the count holds %(amount)s in chips")
                % {"amount": money_words(chips_total(parsed))},
            code="tray_not_empty", field="tray_empty",
        )
    dealer = signed_by(dealer, actor=actor, field="dealer", roles=(Role.DEALER,))
    supervisor = signed_by(supervisor, actor=actor, field="supervisor", roles=(Role.PIT_MANAGER,))
    distinct(("dealer", dealer), ("supervisor", supervisor))
    signing.bind_table_dealer(dealer, table=table, shift=shift)
    submitter_signs(actor, dealer, supervisor)
    return parsed, dealer, supervisor


@transaction.atomic
def inventory_count_record(
    *,
    actor: Any,
    table_id: int,
    shift_id: int,
    kind: str,
    chips: Any,
    dealer: Any,
    supervisor: Any,
    tray_empty: bool = False,
) -> InventoryCount:
    """Record an opening or closing inventory count, signed by the table's dealer and a supervisor; the
    person submitting is one of them. A count of no chip at all is taken only with ``tray_empty`` (the
    signers confirm that the tray is empty), and ``tray_empty`` only with no chip."""
    table = lock_table(table_id)
    signing.ensure_writes_table(actor, table)  # another pit's table: "no table", as the reads say
    ensure_manages(actor, table)
    if kind not in CountKind.values:
        raise InvalidInput(gettext("kind must be opener or closer"), code="bad_kind", field="kind")
    shift = open_shift(shift_id)
    ensure_table_shift_open(table, shift)
    parsed, dealer, supervisor = _tray_signed(actor, table, shift, chips=chips, tray_empty=tray_empty,
                                              dealer=dealer, supervisor=supervisor)
    prev = None
    net = gross = None
    if kind == CountKind.OPENER:
        _ensure_previous_closed(table, shift)
        prev = previous_closer(table, shift)
        if prev is not None:
            net, gross = discrepancy(parsed, chips_of(prev))
    elif not InventoryCount.objects.filter(table=table, shift=shift, kind=CountKind.OPENER).exists():
        raise Conflict(
            gettext("%(table)s has no opener for this shift: record or roll it before the closer")
                % {"table": table.code}, code="opener_missing"
        )
    count = _create_count(
        table=table,
        shift=shift,
        kind=kind,
        chips=chips_json(parsed),
        total=chips_total(parsed),
        dealer_signer=dealer,
        supervisor_signer=supervisor,
        previous_closer=prev,
        discrepancy_net=net,
        discrepancy_gross=gross,
        recorded_by=actor,
        recorded_at=timezone.now(),
    )
    if kind == CountKind.OPENER:
        _post_opener(count, prev, actor)
        _discrepancy_alert(count)
    audit_log(
        actor=actor,
        action=f"count.{kind}",
        object_type="inventory_count",
        object_id=count.pk,
        table_code=table.code,
        after={
            "shift": shift.pk,
            "chips": count.chips,
            "total": count.total,
            "dealer": dealer.employee_id,
            "supervisor": supervisor.employee_id,
            "discrepancy_net": net,
            "discrepancy_gross": gross,
            **({"tray_empty": True} if tray_empty else {}),
        },
    )
    return count


@transaction.atomic
def inventory_roll(*, actor: Any, table_id: int, shift_id: int) -> InventoryCount:
    """Open a table's shift with its last closer as the opener (the tray stayed locked between shifts)."""
    table = lock_table(table_id)
    ensure_manages(actor, table)
    return roll_into(table, open_shift(shift_id), actor=actor)


def roll_into(table: Table, shift: Shift, *, actor: Any) -> InventoryCount:
    """The roll itself, the table locked and the actor's authority checked by the caller: the opener is the
    last closer, signed as it was (the same dealer and supervisor), with no difference to post."""
    ensure_table_shift_open(table, shift)
    _ensure_previous_closed(table, shift)
    prev = previous_closer(table, shift)
    if prev is None:
        raise Conflict(gettext("%(table)s has no earlier closer to roll: count the opener")
            % {"table": table.code}, code="nothing_to_roll")
    count = _create_count(
        table=table,
        shift=shift,
        kind=CountKind.OPENER,
        chips=prev.chips,
        total=prev.total,
        dealer_signer=prev.dealer_signer,
        supervisor_signer=prev.supervisor_signer,
        previous_closer=prev,
        rolled=True,
        discrepancy_net=0,
        discrepancy_gross=0,
        recorded_by=actor,
        recorded_at=timezone.now(),
    )
    audit_log(
        actor=actor,
        action="count.roll",
        object_type="inventory_count",
        object_id=count.pk,
        table_code=table.code,
        after={"shift": shift.pk, "from_closer": prev.pk, "chips": count.chips, "total": count.total},
    )
    return count


def _amount(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInput(gettext("%(field)s must be a whole number of minor units, 0 or more")
            % {"field": field}, code="bad_amount", field=field)
    return value


def _counters_signed(actor: Any, counter_one: Any, counter_two: Any) -> tuple[Any, Any]:
    """A soft count's two signatures, as a count and a recount take them: two different members of the count
    team, the person submitting one of them."""
    one = signing.counter(counter_one, actor=actor, field="counter_one")
    two = signing.counter(counter_two, actor=actor, field="counter_two")
    distinct(("counter_one", one), ("counter_two", two))
    submitter_signs(actor, one, two)
    return one, two


@transaction.atomic
def drop_count_record(
    *,
    actor: Any,
    table_id: int,
    shift_id: int,
    cash: Any,
    chips: Any,
    markers: Any,
    counter_one: Any,
    counter_two: Any,
) -> DropCount:
    """Record the soft count of a table's drop box for a shift, entered by two counters.

    The counters are two different members of the count team (accounting/signing.py), the person
    submitting one of them; the count team counts every table's box (another pit's manager is answered
    "no table", as the reads answer them).
    """
    table = lock_table(table_id)
    signing.ensure_writes_table(actor, table)
    if not has_role(actor, Role.COUNT_TEAM):
        raise Forbidden(gettext("the soft count is entered by the count team"), code="count_team_required")
    shift = Shift.objects.filter(pk=shift_id).first() if isinstance(shift_id, int) else None
    if shift is None:
        raise InvalidInput(gettext("no shift %(shift_id)s")
            % {"shift_id": shift_id}, code="unknown_shift", field="shift")
    ensure_table_shift_open(table, shift)
    cash, chips, markers = _amount(cash, "cash"), _amount(chips, "chips"), _amount(markers, "markers")
    one, two = _counters_signed(actor, counter_one, counter_two)
    try:
        with transaction.atomic():
            drop = DropCount.objects.create(
                table=table,
                shift=shift,
                cash=cash,
                chips=chips,
                markers=markers,
                total=cash + chips + markers,
                counter_one=one,
                counter_two=two,
                recorded_by=actor,
                recorded_at=timezone.now(),
            )
    except IntegrityError:
        raise Conflict(
            gettext("the soft count of %(table)s for this shift is already recorded")
                % {"table": table.code}, code="drop_exists"
        ) from None
    running.drop_recorded(drop)  # the table's running drop, in this transaction
    if cash + chips:
        # cash and chips leave the drop box for the cage; the marker copies are already receivable
        ledger.ledger_post(
            kind="drop",
            source_type="drop",
            source_id=drop.pk,
            actor=actor,
            table=table,
            shift=shift,
            memo=f"{table.code} soft count",
            lines=[
                (ledger.casino_accounts()["cage"], cash + chips),
                (ledger.shift_accounts(table)["drop"], -(cash + chips)),
            ],
        )
    audit_log(
        actor=actor,
        action="drop.count",
        object_type="drop_count",
        object_id=drop.pk,
        table_code=table.code,
        after={
            "shift": shift.pk,
            "cash": cash,
            "chips": chips,
            "markers": markers,
            "total": drop.total,
            "counters": [one.employee_id, two.employee_id],
        },
    )
    return drop


# -- recounts -------------------------------------------------------------------------------------


def _reason(reason: Any) -> str:
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise InvalidInput(gettext("reason: say why the count is counted again"), code="reason_required", field="reason")
    if len(text) > 500:
        raise InvalidInput(gettext("reason: 500 characters at most"), code="reason_too_long", field="reason")
    return text


def _ensure_not_superseded(record: Any, *, model: Any) -> None:
    """Only the count in force is recounted: a recount of a superseded one would fork the chain."""
    later = model.objects.filter(supersedes=record).select_related("recorded_by").first()
    if later is not None:
        said = (gettext("this soft count was already superseded by a recount (%(reason)s): recount the latest one")
                if model is DropCount else
                gettext("this count was already superseded by a recount (%(reason)s): recount the latest one"))
        raise Conflict(said % {"reason": later.reason}, code="count_superseded")


def _post_opener_recount(new: InventoryCount, old: InventoryCount, actor: Any) -> None:
    """The tray accounts move from the opener recounted to the recount; the difference goes where the opener's
    did (the discrepancy against the last closer, or the bankroll for a table's first issue of chips)."""
    table = new.table
    was, now = chips_of(old), chips_of(new)
    lines = [(ledger.tray_account(table, d), (now.get(d, 0) - was.get(d, 0)) * d) for d in sorted(set(was) | set(now))]
    if not any(amount for _, amount in lines):
        return
    counter = ledger.shift_accounts(table)["discrepancy"] if new.previous_closer_id else ledger.casino_accounts()["bankroll"]
    lines.append((counter, -sum(amount for _, amount in lines)))
    ledger.ledger_post(kind="opener", source_type="count", source_id=new.pk, lines=lines, actor=actor, table=table,
                       shift=new.shift, memo=f"{table.code} opener recount")


def count_words(count: InventoryCount) -> dict[str, Any]:
    """What an audit record keeps of a count."""
    return {"count": count.pk, "chips": count.chips, "total": count.total,
            "dealer": count.dealer_signer.employee_id, "supervisor": count.supervisor_signer.employee_id}


@transaction.atomic
def inventory_recount(
    *,
    actor: Any,
    count_id: Any,
    chips: Any,
    dealer: Any,
    supervisor: Any,
    reason: Any,
    tray_empty: bool = False,
) -> InventoryCount:
    """Count a table's opener or closer again: a new count that supersedes the one in force, with a reason and
    the same two signatures as a count (the table's dealer in that shift and a pit manager of the table, the
    person submitting one of them), while the table's shift is open. The count recounted is kept as it was;
    the figures read the recount (docs/accounting.md, "Corrections")."""
    original = (
        InventoryCount.objects.select_related("table", "shift", "dealer_signer", "supervisor_signer")
        .filter(pk=count_id).first() if isinstance(count_id, int) and not isinstance(count_id, bool) else None
    )
    if original is None:
        raise NotFound(gettext("no count %(count_id)s") % {"count_id": count_id}, code="unknown_count", field="count")
    table = lock_table(original.table_id)
    if not writes_for(actor, table):  # another pit's count is no count, as the reads say
        raise NotFound(gettext("no count %(count_id)s") % {"count_id": count_id}, code="unknown_count", field="count")
    ensure_manages(actor, table)
    text = _reason(reason)
    shift = open_shift(original.shift_id)
    ensure_table_shift_open(table, shift)
    _ensure_not_superseded(original, model=InventoryCount)
    parsed, dealer, supervisor = _tray_signed(actor, table, shift, chips=chips, tray_empty=tray_empty,
                                              dealer=dealer, supervisor=supervisor)
    net = gross = None
    prev = original.previous_closer
    if original.kind == CountKind.OPENER and prev is not None:
        net, gross = discrepancy(parsed, chips_of(prev))
    try:
        with transaction.atomic():
            count = InventoryCount.objects.create(
                table=table, shift=shift, kind=original.kind, chips=chips_json(parsed), total=chips_total(parsed),
                dealer_signer=dealer, supervisor_signer=supervisor, previous_closer=prev,
                discrepancy_net=net, discrepancy_gross=gross, supersedes=original, reason=text,
                recorded_by=actor, recorded_at=timezone.now(),
            )
    except IntegrityError:
        raise Conflict(gettext("this count was already superseded by a recount: recount the latest one"),
                       code="count_superseded") from None
    running.count_recorded(count)  # the running opener or closer is the recount's, in this transaction
    if count.kind == CountKind.OPENER:
        _post_opener_recount(count, original, actor)
        _discrepancy_alert(count)
    audit_log(
        actor=actor,
        action="count.recount",
        object_type="inventory_count",
        object_id=count.pk,
        table_code=table.code,
        before=count_words(original),
        after={"shift": shift.pk, "kind": count.kind, "reason": text, **count_words(count),
               **({"tray_empty": True} if tray_empty else {})},
    )
    return count


def drop_words(drop: DropCount) -> dict[str, Any]:
    return {"drop": drop.pk, "cash": drop.cash, "chips": drop.chips, "markers": drop.markers, "total": drop.total,
            "counters": [drop.counter_one.employee_id, drop.counter_two.employee_id]}


@transaction.atomic
def drop_recount(
    *,
    actor: Any,
    drop_id: Any,
    cash: Any,
    chips: Any,
    markers: Any,
    counter_one: Any,
    counter_two: Any,
    reason: Any,
) -> DropCount:
    """Count a table's drop box again: a new soft count that supersedes the one in force, with a reason, entered
    by two members of the count team (the person submitting one of them), while the table's shift is open. The
    cash and chips the recount finds more or less go to or come back from the cage in the ledger."""
    original = (
        DropCount.objects.select_related("table", "shift", "counter_one", "counter_two")
        .filter(pk=drop_id).first() if isinstance(drop_id, int) and not isinstance(drop_id, bool) else None
    )
    if original is None:
        raise NotFound(gettext("no soft count %(drop_id)s") % {"drop_id": drop_id}, code="unknown_drop", field="drop")
    table = lock_table(original.table_id)
    if not writes_for(actor, table):
        raise NotFound(gettext("no soft count %(drop_id)s") % {"drop_id": drop_id}, code="unknown_drop", field="drop")
    if not has_role(actor, Role.COUNT_TEAM):
        raise Forbidden(gettext("the soft count is entered by the count team"), code="count_team_required")
    text = _reason(reason)
    shift = open_shift(original.shift_id)
    ensure_table_shift_open(table, shift)
    _ensure_not_superseded(original, model=DropCount)
    cash, chips, markers = _amount(cash, "cash"), _amount(chips, "chips"), _amount(markers, "markers")
    one, two = _counters_signed(actor, counter_one, counter_two)
    try:
        with transaction.atomic():
            drop = DropCount.objects.create(
                table=table, shift=shift, cash=cash, chips=chips, markers=markers, total=cash + chips + markers,
                counter_one=one, counter_two=two, supersedes=original, reason=text,
                recorded_by=actor, recorded_at=timezone.now(),
            )
    except IntegrityError:
        raise Conflict(gettext("this soft count was already superseded by a recount: recount the latest one"),
                       code="count_superseded") from None
    running.drop_recorded(drop)
    moved = (cash + chips) - (original.cash + original.chips)
    if moved:
        ledger.ledger_post(
            kind="drop", source_type="drop", source_id=drop.pk, actor=actor, table=table, shift=shift,
            memo=f"{table.code} soft count recount",
            lines=[(ledger.casino_accounts()["cage"], moved), (ledger.shift_accounts(table)["drop"], -moved)],
        )
    audit_log(
        actor=actor,
        action="drop.recount",
        object_type="drop_count",
        object_id=drop.pk,
        table_code=table.code,
        before=drop_words(original),
        after={"shift": shift.pk, "reason": text, **drop_words(drop)},
    )
    return drop
