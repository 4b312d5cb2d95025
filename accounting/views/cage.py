"""The cage screens: chip-tray counts (opener and closer), fill and credit slips, the drop box's soft
count and markers, for the pit and the cage cashier; accountants read them (docs/accounting.md, "Signing").

Server-rendered forms. Each write calls the same service the JSON API calls (accounting/services/counts.py,
slips.py), which checks who may do it, checks every signature (casino/signatures.py), posts and audits;
a refusal is shown in words on the same screen and writes nothing. Amounts are typed and shown in major
units with the currency; the services take minor units.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import F
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods

from accounting import signing
from accounting.models import CountKind, DropCount, InventoryCount, Marker, MarkerWriteOff, Slip, SlipKind, SlipStatus
from accounting.money import MoneyInputError, chip_words, chips_words, money_parse, money_words
from accounting.reports import Filters
from accounting.reports import labels as report_labels
from accounting.reports.definitions import AGING_BUCKETS, MarkerAgingReport
from accounting.selectors import credit_standing, credit_standings
from accounting.services import counts, credit, slips
from casino.core.roles import Role, has_role
from casino.errors import DomainError
from casino.idempotency import once_per_form
from casino.words import shift_words, when_words
from tables.access import manages_table
from tables.models import Shift, Table
from tables.selectors import current_shift, visible_tables
from tables.wording import REFUSALS, say
from tables.wording import currency as house_currency

CAGE = (Role.PIT_MANAGER, Role.ACCOUNTANT, Role.CASHIER, Role.COUNT_TEAM)  # admins hold every role
SCREEN_WORDED = frozenset({"overpayment"}) & frozenset(REFUSALS)  # refusals the screens' wording says
STATUS_WORDS = {
    SlipStatus.REQUESTED: gettext_lazy("Requested: waiting for the sender's signature"),
    SlipStatus.ISSUED: gettext_lazy("Issued: waiting for the receiver's signature"),
    SlipStatus.RECEIVED: gettext_lazy("Received: posted"),
    SlipStatus.VOIDED: gettext_lazy("Voided"),
}
KIND_WORDS = {SlipKind.FILL: gettext_lazy("Fill (chips from the cage to the table)"),
              SlipKind.CREDIT: gettext_lazy("Credit (chips from the table to the cage)")}


# -- access, place and words ------------------------------------------------------------------------


def _refused(request: HttpRequest) -> HttpResponse | None:
    if has_role(request.user, *CAGE):
        return None
    return render(
        request,
        "registration/forbidden.html",
        {"message": gettext("The cage screens are for the pit managers, the cage, the count team and the accountants.")},
        status=403,
    )


def _int(value: Any) -> int | None:
    text = str(value or "").strip()
    return int(text) if text.isdigit() and len(text) < 12 else None


def _cage_tables(user: Any) -> Any:
    """The tables a person works for here: the cage and the count team every table; a pit manager their pits."""
    if signing.floor_wide(user):
        return Table.objects.select_related("pit")
    return visible_tables(user)


def _place(request: HttpRequest) -> dict[str, Any]:
    """The table and shift the screen is about (chosen with ``?table=&shift=``) and the choices."""
    tables = list(_cage_tables(request.user).order_by("code"))
    wanted = _int(request.GET.get("table") or request.POST.get("table"))
    if wanted is None:
        table = tables[0] if tables else None
    else:  # a table the user may not see is no table (never another one in its place)
        table = next((t for t in tables if t.pk == wanted), None)
    shifts = list(Shift.objects.select_related("shift_type").order_by("-starts_at")[:12])
    wanted = _int(request.GET.get("shift") or request.POST.get("shift"))
    shift = next((s for s in shifts if s.pk == wanted), None)
    if shift is None and wanted is not None:
        shift = Shift.objects.select_related("shift_type").filter(pk=wanted).first()
    if shift is None:
        shift = current_shift() or (shifts[0] if shifts else None)
    if shift is not None and shift not in shifts:
        shifts.insert(0, shift)
    return {"tables": tables, "table": table, "shifts": shifts, "shift": shift}


def _query(place: Mapping[str, Any]) -> str:
    pairs = {k: place[k].pk for k in ("table", "shift") if place.get(k) is not None}
    return f"?{urlencode(pairs)}" if pairs else ""


def _back(name: str, place: Mapping[str, Any], **kwargs: Any) -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse(f"accounting-web:{name}", kwargs=kwargs or None) + _query(place))


def _words(exc: DomainError, labels: Mapping[str, Any]) -> str:
    """A service's refusal in the screen's words: the screens' wording of its code where there is one
    (``tables.wording``, figures from its ``params``), else its message, the field it is about named as the
    form names it."""
    if exc.code == "same_signer":
        return gettext("Two different people sign here: one person cannot sign twice.")
    if exc.code in SCREEN_WORDED:
        return say(exc.code, exc.params)
    text = exc.message
    if exc.field and text.startswith(exc.field):  # the field it names first is the form's box of that name
        rest = text[len(exc.field):].removeprefix(":").strip()
        label = labels.get(exc.field)
        text = f"{label}: {rest}" if label else rest
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


class _AlreadyDone(Exception):
    """The form was sent before and done (a double tap, a page sent again): nothing is written twice."""


def _attempt(request: HttpRequest, call: Callable[[], Any], labels: Mapping[str, Any]) -> tuple[Any, str | None]:
    """Run one service once per rendered form (``casino.idempotency.once_per_form``, the pit's guard); a
    refusal comes back in words once its transaction has rolled back (a wrong password or PIN is then
    counted, as the API counts it). A form sent again raises :class:`_AlreadyDone` (see :func:`_once`)."""
    try:
        result, again = once_per_form(request, call)
    except DomainError as exc:
        after_rollback = getattr(exc, "after_rollback", None)
        if after_rollback is not None:
            after_rollback()
        return None, _words(exc, labels)
    if again:
        raise _AlreadyDone
    return result, None


def _once(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A form of the view sent again after it was done shows the page as it stands, saying so."""

    @functools.wraps(view)
    def inner(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except _AlreadyDone:
            messages.info(request, gettext("That form was already sent and done: nothing was done twice."))
            return HttpResponseRedirect(request.get_full_path())

    return inner


def chips_label(denomination: int) -> str:
    """A row of a chip grid: ``€500 chips``."""
    return gettext("%(chip)s chips") % {"chip": chip_words(denomination)}


def slip_status_choices() -> list[tuple[str, str]]:
    """The slips' statuses as the filter offers them (``accounting.reports.labels``, the one wording)."""
    return [(v, str(lbl)) for v, lbl in report_labels.SLIP_STATUSES.items()]


class Refusal(Exception):
    """What the person typed cannot be sent (not a number…): shown in words, nothing called."""


def _signature(data: Mapping[str, Any], prefix: str, title: str, user: Any) -> dict[str, str]:
    """A signature dict of casino/signatures.py from a signing box: the person signed in signs with their
    session; anyone else types their username and their password or PIN."""
    if data.get(f"{prefix}_who", "me") == "me":
        return {"username": user.get_username()}
    username = str(data.get(f"{prefix}_username", "")).strip()
    secret = str(data.get(f"{prefix}_secret", ""))
    if not username:
        raise Refusal(gettext("%(title)s: type the username of the person who signs.") % {"title": title})
    if not secret:
        raise Refusal(gettext("%(title)s: %(username)s types their password or signing PIN.")
                      % {"title": title, "username": username})
    method = "pin" if data.get(f"{prefix}_with") == "pin" else "password"
    return {"username": username, method: secret}


def _signer_box(prefix: str, title: str, hint: str, data: Mapping[str, Any], *, me: bool) -> dict[str, Any]:
    """A signing box's state for the template (never the secret typed)."""
    who = str(data.get(f"{prefix}_who", "me" if me else "other"))
    return {
        "prefix": prefix,
        "title": title,
        "hint": hint,
        "who": who if who in ("me", "other") else "other",
        "username": str(data.get(f"{prefix}_username", "")),
        "with": "pin" if data.get(f"{prefix}_with") == "pin" else "password",
    }


def _minor(text: Any, title: str, *, required: bool = True) -> int:
    """Money as typed ("25", "1,000.00", "€1,000.00": accounting.money.money_parse) → minor units, exactly."""
    if not str(text or "").strip() and not required:
        return 0
    try:
        return money_parse(text)
    except MoneyInputError as exc:
        raise Refusal(gettext("%(title)s: %(reason)s") % {"title": title, "reason": exc.message}) from None


def _chip_rows(table: Table | None, data: Mapping[str, Any], *, beside: Mapping[str, int] | None = None,
               filled: Mapping[str, int] | None = None) -> tuple[list[dict[str, Any]], str]:
    """One row per denomination of the table's chip set: what was typed (or ``filled``), its amount, and
    the count ``beside`` it (the previous closer); and the total of the amounts."""
    rows, total = [], 0
    for d in counts.denominations_for(table):
        typed = data.get(f"chips_{d}")
        if typed is None and filled is not None:
            typed = str(filled.get(str(d), 0))
        count = _int(typed) or 0
        total += d * count
        rows.append({
            "denomination": d,
            "label": chips_label(d),
            "name": f"chips_{d}",
            "value": "" if typed is None else str(typed),
            "amount": money_words(d * count),
            "beside": (beside or {}).get(str(d), 0),
            "beside_amount": money_words(d * (beside or {}).get(str(d), 0)),
        })
    return rows, money_words(total)


def _chips_posted(table: Table, data: Mapping[str, Any]) -> dict[str, int]:
    chips: dict[str, int] = {}
    for d in counts.denominations_for(table):
        raw = str(data.get(f"chips_{d}", "")).strip()
        if not raw:
            continue
        if not raw.isdigit() or len(raw) > 9:
            raise Refusal(gettext("The count of %(chip)s chips must be a whole number of chips, 0 or more (not "
                                  "%(typed)s).") % {"chip": chip_words(d), "typed": raw})
        if int(raw):
            chips[str(d)] = int(raw)
    return chips


def _chips_shown(chips: Mapping[str, int]) -> list[dict[str, Any]]:
    return [
        {"label": chips_label(int(d)), "count": q, "amount": money_words(int(d) * q),
         "words": chips_words(int(d), q)}
        for d, q in sorted(chips.items(), key=lambda kv: -int(kv[0]))
    ]


def _who(profile: Any) -> str:
    return f"{profile.display_name} ({profile.user.get_username()})" if profile is not None else "—"


def _when(moment: dt.datetime | None) -> str:
    return when_words(moment, empty="—")


def _page(request: HttpRequest, template: str, place: Mapping[str, Any], section: str, **context: Any) -> HttpResponse:
    status = 400 if context.get("error") else 200
    return render(
        request,
        f"accounting/cage/{template}",
        {**place, "section": section, "query": _query(place), "currency": house_currency(),
         "desk_link": has_role(request.user, Role.CASHIER, Role.ACCOUNTANT), **context},
        status=status,
    )


# -- opener and closer ------------------------------------------------------------------------------


COUNT_LABELS = {"dealer": gettext_lazy("The dealer's signature"), "supervisor": gettext_lazy("The supervisor's signature"),
                "chips": gettext_lazy("Chips"), "tray_empty": gettext_lazy("The tray is empty")}


def superseded_view(count: Any, by: Any) -> dict[str, Any]:
    """A count a recount replaced, for the screens that show it struck through: its total and what replaced it,
    why and signed by whom."""
    if isinstance(count, InventoryCount):
        signers = (by.dealer_signer, by.supervisor_signer)
    else:
        signers = (by.counter_one, by.counter_two)
    return {
        "pk": count.pk,
        "total": money_words(count.total),
        "at": _when(count.recorded_at),
        "by_total": money_words(by.total),
        "reason": by.reason,
        "signed": gettext("%(one)s and %(two)s") % {"one": _who(signers[0]), "two": _who(signers[1])},
        "words": gettext("superseded by recount: %(reason)s, signed by %(one)s and %(two)s") % {
            "reason": by.reason, "one": _who(signers[0]), "two": _who(signers[1])},
    }


def _recount(request: HttpRequest, table: Table, count_id: int | None) -> tuple[Any, str | None]:
    """The recount form sent: the grid, the reason and the two signatures, to the service."""
    try:
        chips = _chips_posted(table, request.POST)
        dealer = _signature(request.POST, "dealer", gettext("The dealer's signature"), request.user)
        supervisor = _signature(request.POST, "supervisor", gettext("The supervisor's signature"), request.user)
    except Refusal as exc:
        return None, str(exc)
    return _attempt(
        request,
        lambda: counts.inventory_recount(
            actor=request.user, count_id=count_id, chips=chips, dealer=dealer, supervisor=supervisor,
            reason=str(request.POST.get("reason", "")), tray_empty=request.POST.get("tray_empty") == "yes",
        ),
        {**COUNT_LABELS, "reason": gettext("Reason")},
    )


def _count_view(count: InventoryCount | None, *, may_recount: bool = False) -> dict[str, Any] | None:
    if count is None:
        return None
    return {
        "pk": count.pk,
        "may_recount": may_recount,
        "recount_of": count.supersedes_id,
        "reason": count.reason,
        "kind": CountKind(count.kind).label,
        "rows": _chips_shown(count.chips),
        "total": money_words(count.total),
        "dealer": _who(count.dealer_signer),
        "supervisor": _who(count.supervisor_signer),
        "at": _when(count.recorded_at),
        "rolled": count.rolled,
        "discrepancy": money_words(count.discrepancy_gross) if count.discrepancy_gross else None,
        "net": money_words(count.discrepancy_net or 0),
        "shift": shift_words(count.shift),
    }


@login_required
@require_http_methods(["GET", "POST"])
@_once
def count_screen(request: HttpRequest) -> HttpResponse:
    """The table's opener and closer on a chip-tray grid, signed by the dealer and a supervisor."""
    if (refused := _refused(request)) is not None:
        return refused
    place = _place(request)
    table, shift = place["table"], place["shift"]
    chain = list(InventoryCount.objects.filter(table=table, shift=shift).select_related(
        "dealer_signer__user", "supervisor_signer__user", "shift__shift_type"
    ).order_by("id")) if table is not None and shift is not None else []
    later = {c.supersedes_id: c for c in chain if c.supersedes_id is not None}
    found = {c.kind: c for c in chain if c.pk not in later}  # the count in force of each kind
    recount_of = next((c for c in found.values() if c.pk == _int(request.GET.get("recount")
                                                                   or request.POST.get("recount"))), None)
    previous = counts.previous_closer(table, shift) if table is not None and shift is not None else None
    due = None if table is None or shift is None else (
        CountKind.OPENER if CountKind.OPENER not in found else CountKind.CLOSER if CountKind.CLOSER not in found else None
    )
    may_count = table is not None and manages_table(request.user, table)
    data: Mapping[str, Any] = request.POST if request.method == "POST" else {}
    error = None
    if request.method == "POST" and table is not None and shift is not None:
        action = request.POST.get("action")
        if action == "roll":
            done, error = _attempt(
                request,
                lambda: counts.inventory_roll(actor=request.user, table_id=table.pk, shift_id=shift.pk), COUNT_LABELS
            )
        elif action == "recount":
            done, error = _recount(request, table, _int(request.POST.get("recount")))
        else:
            try:
                chips = _chips_posted(table, request.POST)
                dealer = _signature(request.POST, "dealer", gettext("The dealer's signature"), request.user)
                supervisor = _signature(request.POST, "supervisor", gettext("The supervisor's signature"), request.user)
            except Refusal as exc:
                done, error = None, str(exc)
            else:
                done, error = _attempt(
                    request,
                    lambda: counts.inventory_count_record(
                        actor=request.user, table_id=table.pk, shift_id=shift.pk, kind=str(request.POST.get("kind")),
                        chips=chips, dealer=dealer, supervisor=supervisor,
                        tray_empty=request.POST.get("tray_empty") == "yes",
                    ),
                    COUNT_LABELS,
                )
        if error is None:
            if done.supersedes_id is not None:
                messages.success(request, gettext("%(kind)s of %(table)s counted again: %(total)s. The count it "
                                                   "replaces is kept, struck through.") % {
                    "kind": CountKind(done.kind).label, "table": table.code, "total": money_words(done.total)})
            else:
                messages.success(request, gettext("%(kind)s of %(table)s recorded: %(total)s.") % {
                    "kind": CountKind(done.kind).label, "table": table.code, "total": money_words(done.total)})
            return _back("cage-counts", place)
    elif request.method == "POST":
        error = gettext("Choose one of your tables and a shift first.")
    may_recount = may_count and shift is not None and table is not None and counts.recount_open(table, shift)
    if recount_of is not None and may_recount:
        due = None  # the form on the page is the recount's
        rows, grid_total = _chip_rows(table, data, beside=recount_of.chips, filled=recount_of.chips)
    else:
        recount_of = None
        prefill = previous.chips if due == CountKind.OPENER and previous is not None else None
        rows, grid_total = _chip_rows(table, data, beside=prefill, filled=prefill)
    return _page(
        request,
        "counts.html",
        place,
        "counts",
        error=error,
        opener=_count_view(found.get(CountKind.OPENER), may_recount=may_recount),
        closer=_count_view(found.get(CountKind.CLOSER), may_recount=may_recount),
        superseded={kind: [superseded_view(c, later[c.pk]) for c in chain if c.kind == kind and c.pk in later]
                    for kind in CountKind.values},
        recount=recount_of and {"pk": recount_of.pk, "kind": CountKind(recount_of.kind).label,
                                "total": money_words(recount_of.total)},
        reason=str(data.get("reason", "")),
        previous=_count_view(previous),
        due=due,
        due_label=CountKind(due).label if due else "",
        may_count=may_count,
        rows=rows,
        grid_total=grid_total,
        previous_beside=due == CountKind.OPENER and previous is not None,
        tray_empty_ticked=data.get("tray_empty") == "yes",
        dealer=_signer_box("dealer", gettext("The dealer"), gettext("The table's dealer counts with you and signs."), data,
                           me=False),
        supervisor=_signer_box("supervisor", gettext("The supervisor"), gettext("A pit manager of this table."), data,
                               me=True),
    )


# -- fills and credits ------------------------------------------------------------------------------


SLIP_LABELS = {"signer": gettext_lazy("The signature"), "reason": gettext_lazy("The reason"), "chips": gettext_lazy("Chips"),
               "request signer": gettext_lazy("the requester"), "issue signer": gettext_lazy("the sender")}


def _slip_row(slip: Slip) -> dict[str, Any]:
    return {
        "pk": slip.pk,
        "reference": slip.reference,
        "kind": SlipKind(slip.kind).label,
        "table": slip.table.code,
        "shift": shift_words(slip.shift),
        "total": money_words(slip.total),
        "status": SlipStatus(slip.status).label,
        "status_words": STATUS_WORDS[SlipStatus(slip.status)],
        "void_asked": slip.void_requested_by_id is not None and slip.status != SlipStatus.VOIDED,
        "requested_at": _when(slip.requested_at),
    }


def _visible_slips(request: HttpRequest) -> Any:
    return Slip.objects.filter(table__in=_cage_tables(request.user).values("pk")).select_related(
        "table", "shift__shift_type"
    )


@login_required
@require_http_methods(["GET", "POST"])
@_once
def slip_list(request: HttpRequest) -> HttpResponse:
    """Fill and credit slips by status; the pit requests a new one for its table."""
    if (refused := _refused(request)) is not None:
        return refused
    place = _place(request)
    table, shift = place["table"], place["shift"]
    status = request.GET.get("status", "open")
    kind = request.GET.get("kind", "")
    found = _visible_slips(request)
    if shift is not None and request.GET.get("all_shifts") != "1":
        found = found.filter(shift=shift)
    if status == "open":
        found = found.filter(status__in=[SlipStatus.REQUESTED, SlipStatus.ISSUED])
    elif status in SlipStatus.values:
        found = found.filter(status=status)
    if kind in SlipKind.values:
        found = found.filter(kind=kind)
    data: Mapping[str, Any] = request.POST if request.method == "POST" else {}
    error = None
    may_request = table is not None and shift is not None and manages_table(request.user, table) and has_role(
        request.user, Role.PIT_MANAGER
    )
    if request.method == "POST" and may_request:
        try:
            chips = _chips_posted(table, request.POST)
        except Refusal as exc:
            error = str(exc)
        else:
            slip, error = _attempt(
                request,
                lambda: slips.slip_request(actor=request.user, kind=str(request.POST.get("kind")), table_id=table.pk,
                                           shift_id=shift.pk, chips=chips),
                {**SLIP_LABELS, "chips": gettext("The chips")},
            )
            if error is None:
                done = (gettext("Fill slip %(reference)s requested for %(table)s: %(total)s.") if slip.kind == SlipKind.FILL
                        else gettext("Credit slip %(reference)s requested for %(table)s: %(total)s."))
                messages.success(request, done % {"reference": slip.reference, "table": table.code,
                                                  "total": money_words(slip.total)})
                return _back("cage-slip", place, pk=slip.pk)
    elif request.method == "POST":
        error = gettext("Only a pit manager of this table requests fills and credits.")
    rows, grid_total = _chip_rows(table, data)
    return _page(
        request,
        "slips.html",
        place,
        "slips",
        error=error,
        slips=[_slip_row(s) for s in found.order_by("-requested_at")[:100]],
        status=status,
        kind=kind,
        all_shifts=request.GET.get("all_shifts") == "1",
        statuses=[("open", gettext("Waiting (requested or issued)")), *slip_status_choices(), ("all", gettext("All"))],
        kinds=[("", gettext("Fills and credits")), *((v, str(lbl)) for v, lbl in report_labels.SLIP_KINDS.items())],
        may_request=may_request,
        rows=rows,
        grid_total=grid_total,
        request_kind=str(data.get("kind", SlipKind.FILL)),
        year=timezone.localdate().year,
    )


def _slip_steps(slip: Slip) -> list[dict[str, str]]:
    fill = slip.kind == SlipKind.FILL
    steps = [
        {"step": gettext("Requested by the pit"), "who": _who(slip.request_signer), "at": _when(slip.requested_at)},
        {"step": gettext("Issued by the cage") if fill else gettext("Issued by the table's dealer"), "who": _who(slip.issue_signer),
         "at": _when(slip.issued_at)},
        {"step": gettext("Received by the table's dealer") if fill else gettext("Received by the cage"),
         "who": _who(slip.receive_signer), "at": _when(slip.received_at)},
    ]
    if slip.void_requested_by_id is not None:
        steps.append({"step": gettext("Void asked for: “%(reason)s”") % {"reason": slip.void_reason}, "who": str(slip.void_requested_by),
                      "at": _when(slip.void_requested_at)})
    if slip.status == SlipStatus.VOIDED:
        steps.append({"step": gettext("Voided (second person)"), "who": str(slip.voided_by), "at": _when(slip.voided_at)})
    return steps


@login_required
@require_http_methods(["GET", "POST"])
@_once
def slip_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """One slip: its chips, who signed each step, and the next step (issue, receive, void)."""
    if (refused := _refused(request)) is not None:
        return refused
    slip = _visible_slips(request).select_related(
        "request_signer__user", "issue_signer__user", "receive_signer__user", "void_requested_by", "voided_by"
    ).filter(pk=pk).first()
    if slip is None:
        return render(request, "registration/forbidden.html", {"message": gettext("There is no such slip on your tables.")},
                      status=404)
    place = {**_place(request), "table": slip.table, "shift": slip.shift}
    data: Mapping[str, Any] = request.POST if request.method == "POST" else {}
    fill = slip.kind == SlipKind.FILL
    next_step = {SlipStatus.REQUESTED: "issue", SlipStatus.ISSUED: "receive"}.get(SlipStatus(slip.status))
    signer_title = {
        "issue": gettext("The cage cashier") if fill else gettext("The table's dealer"),
        "receive": gettext("The table's dealer") if fill else gettext("The cage cashier"),
    }.get(next_step or "", "")
    # the cage's step (a fill issued, a credit received) is signed at the cage by the cashier, with their PIN
    cage_step = next_step == ("issue" if fill else "receive")
    cashier = has_role(request.user, Role.CASHIER)
    pit_signs = has_role(request.user, Role.PIT_MANAGER) and manages_table(request.user, slip.table)
    error = None
    if request.method == "POST":
        action = request.POST.get("action")
        signature_title = (gettext("%(signer)s's signature") % {"signer": signer_title} if signer_title
                           else gettext("The signature"))
        labels = {**SLIP_LABELS, "signer": signature_title}
        call: Callable[[], Any] | None = None
        try:
            if action in ("issue", "receive") and action == next_step:
                if cage_step:
                    if not cashier:
                        raise Refusal(gettext("The cage signs this step, on the cage screen: a cage cashier."))
                    pin = str(request.POST.get("cashier_pin", ""))
                    if not pin:
                        raise Refusal(gettext("Your signature: type your signing PIN."))
                    signer = {"username": request.user.get_username(), "pin": pin}
                    labels["signer"] = gettext("Your signature")
                else:
                    if not has_role(request.user, Role.PIT_MANAGER):
                        raise Refusal(gettext("The table's dealer signs this step at the table, with a pit manager of it."))
                    signer = _signature(request.POST, "signer", signature_title, request.user)
                service = slips.slip_issue if action == "issue" else slips.slip_receive
                call = lambda: service(actor=request.user, slip_id=slip.pk, signer=signer)  # noqa: E731
                done = (gettext("Slip %(reference)s issued.") if action == "issue"
                        else gettext("Slip %(reference)s received and posted."))
            elif action == "void":
                if not has_role(request.user, Role.PIT_MANAGER):
                    raise Refusal(gettext("A void is asked for by the pit: ask a pit manager."))
                reason = str(request.POST.get("reason", ""))
                call = lambda: slips.slip_void_request(actor=request.user, slip_id=slip.pk, reason=reason)  # noqa: E731
                done = gettext("Slip %(reference)s void asked for: a second person approves it.")
            elif action == "refuse" and cage_step:
                if not cashier:
                    raise Refusal(gettext("The cage refuses a request: a cage cashier."))
                reason = str(request.POST.get("reason", ""))
                call = lambda: slips.slip_void_request(actor=request.user, slip_id=slip.pk, reason=reason)  # noqa: E731
                done = gettext("Slip %(reference)s refused by the cage: the pit's second person voids it.")
            elif action == "approve":
                call = lambda: slips.slip_void_approve(actor=request.user, slip_id=slip.pk)  # noqa: E731
                done = gettext("Slip %(reference)s voided.")
            else:
                raise Refusal(gettext("That step is not due on this slip any more: the page shows where it stands now."))
        except Refusal as exc:
            error = str(exc)
        if call is not None:
            _, error = _attempt(request, call, labels)
            if error is None:
                messages.success(request, done % {"reference": slip.reference})
                return _back("cage-slip", place, pk=slip.pk)
    return _page(
        request,
        "slip.html",
        place,
        "slips",
        error=error,
        slip=_slip_row(slip),
        kind_words=KIND_WORDS[SlipKind(slip.kind)],
        chips=_chips_shown(slip.chips),
        steps=_slip_steps(slip),
        next_step=next_step,
        signer=_signer_box("signer", signer_title, gettext("They type their own username and password or PIN."), data,
                           me=False) if next_step else None,
        cage_step=cage_step,
        may_sign=cashier if cage_step else pit_signs,
        may_refuse=cage_step and cashier and slip.void_requested_by_id is None,
        may_ask_void=(slip.status != SlipStatus.VOIDED and slip.void_requested_by_id is None and pit_signs),
        void_asked=slip.void_requested_by_id is not None and slip.status != SlipStatus.VOIDED,
        reason=str(data.get("reason", "")),
        void_reason=slip.void_reason,
        void_by=str(slip.void_requested_by or ""),
    )


@login_required
@require_http_methods(["GET"])
def slip_numbers(request: HttpRequest) -> HttpResponse:
    """Every number of a slip series accounted for: received, voided (with reasons), waiting, and gaps."""
    if (refused := _refused(request)) is not None:
        return refused
    place = _place(request)
    kind = request.GET.get("kind", SlipKind.FILL)
    kind = kind if kind in SlipKind.values else SlipKind.FILL
    this_year = timezone.localdate().year
    year = _int(request.GET.get("year")) or this_year
    year = year if 2000 <= year <= this_year + 1 else this_year
    floor = has_role(request.user, Role.ACCOUNTANT, Role.AUDITOR, Role.CASHIER)  # the cage keeps every number
    tables = None if floor else visible_tables(request.user)
    report = slips.slip_numbers(kind=kind, year=year, tables=tables)
    prefix = kind[0].upper()
    return _page(
        request,
        "numbers.html",
        place,
        "numbers",
        report=report,
        kind=kind,
        kind_label=SlipKind(kind).label,
        year=year,
        years=list(range(this_year, this_year - 5, -1)),
        kinds=SlipKind.choices,
        used=_ranges(report["used"]),
        outstanding=[f"{prefix}{year}-{n:06d}" for n in report["outstanding"]],
        voided=[{**v, "reference": f"{prefix}{year}-{v['number']:06d}"} for v in report["voided"]],
        gaps=[f"{prefix}{year}-{n:06d}" for n in report["gaps"]],
    )


def _ranges(numbers: list[int]) -> list[str]:
    """1, 2, 3, 5 → "1–3", "5"."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return [f"{a}–{b}" if a != b else str(a) for a, b in spans]


# -- the drop box -----------------------------------------------------------------------------------


DROP_LABELS = {"counter_one": gettext_lazy("The first counter's signature"),
               "counter_two": gettext_lazy("The second counter's signature"), "cash": gettext_lazy("Currency notes"),
               "chips": gettext_lazy("Chips"), "markers": gettext_lazy("Markers")}


@login_required
@require_http_methods(["GET", "POST"])
@_once
def drop_screen(request: HttpRequest) -> HttpResponse:
    """The soft count of a table's drop box for a shift, entered and signed by two counters."""
    if (refused := _refused(request)) is not None:
        return refused
    place = _place(request)
    table, shift = place["table"], place["shift"]
    data: Mapping[str, Any] = request.POST if request.method == "POST" else {}
    chain = list(DropCount.objects.filter(table=table, shift=shift).select_related(
        "counter_one__user", "counter_two__user").order_by("id")) if table is not None and shift is not None else []
    later = {d.supersedes_id: d for d in chain if d.supersedes_id is not None}
    recorded = next((d for d in chain if d.pk not in later), None)  # the soft count in force
    may_count = table is not None and shift is not None and has_role(request.user, Role.COUNT_TEAM)
    may_recount = bool(recorded and may_count and counts.recount_open(table, shift))
    recounting = may_recount and recorded is not None and recorded.pk == _int(
        request.GET.get("recount") or request.POST.get("recount"))
    error = None
    if request.method == "POST" and table is not None and shift is not None:
        try:
            cash = _minor(request.POST.get("cash"), gettext("Currency notes"), required=False)
            chips = _minor(request.POST.get("chips"), "Chips", required=False)
            markers = _minor(request.POST.get("markers"), "Markers", required=False)
            one = _signature(request.POST, "counter_one", gettext("The first counter's signature"), request.user)
            two = _signature(request.POST, "counter_two", gettext("The second counter's signature"), request.user)
        except Refusal as exc:
            error = str(exc)
        else:
            if request.POST.get("action") == "recount":
                drop, error = _attempt(
                    request,
                    lambda: counts.drop_recount(actor=request.user, drop_id=_int(request.POST.get("recount")),
                                                cash=cash, chips=chips, markers=markers, counter_one=one,
                                                counter_two=two, reason=str(request.POST.get("reason", ""))),
                    {**DROP_LABELS, "reason": gettext("Reason")},
                )
            else:
                drop, error = _attempt(
                    request,
                    lambda: counts.drop_count_record(actor=request.user, table_id=table.pk, shift_id=shift.pk,
                                                     cash=cash, chips=chips, markers=markers, counter_one=one,
                                                     counter_two=two),
                    DROP_LABELS,
                )
            if error is None:
                if drop.supersedes_id is not None:
                    messages.success(request, gettext("Drop box of %(table)s counted again: %(total)s. The count it "
                                                       "replaces is kept, struck through.") % {
                        "table": table.code, "total": money_words(drop.total)})
                else:
                    messages.success(request, gettext("Drop box of %(table)s counted: %(total)s.")
                                 % {"table": table.code, "total": money_words(drop.total)})
                return _back("cage-drop", place)
    elif request.method == "POST":
        error = gettext("Choose one of your tables and a shift first.")
    recent = DropCount.objects.filter(table__in=_cage_tables(request.user).values("pk")).select_related(
        "table", "shift__shift_type", "counter_one__user", "counter_two__user").order_by("-recorded_at")[:20]
    return _page(
        request,
        "drop.html",
        place,
        "drop",
        error=error,
        recorded=recorded and {
            "cash": money_words(recorded.cash), "chips": money_words(recorded.chips), "markers": money_words(recorded.markers),
            "total": money_words(recorded.total), "one": _who(recorded.counter_one), "two": _who(recorded.counter_two),
            "at": _when(recorded.recorded_at), "pk": recorded.pk, "reason": recorded.reason,
            "recount_of": recorded.supersedes_id,
        },
        superseded=[superseded_view(d, later[d.pk]) for d in chain if d.pk in later],
        may_recount=may_recount,
        recounting=recounting,
        reason=str(data.get("reason", "")),
        recent=[{"table": d.table.code, "shift": shift_words(d.shift), "total": money_words(d.total),
                 "counters": f"{_who(d.counter_one)}, {_who(d.counter_two)}", "at": _when(d.recorded_at)}
                for d in recent],
        may_count=may_count,
        values={k: str(data.get(k, "")) for k in ("cash", "chips", "markers")} if data or recorded is None
        or not recounting else {"cash": money_words(recorded.cash, symbol=False),
                                "chips": money_words(recorded.chips, symbol=False),
                                "markers": money_words(recorded.markers, symbol=False)},
        one=_signer_box("counter_one", gettext("The first counter"), gettext("A member of the count team."), data,
                        me=True),
        two=_signer_box("counter_two", gettext("The second counter"), gettext("Another member of the count team."),
                        data, me=False),
    )


# -- credit lines -----------------------------------------------------------------------------------


def _credit_labels() -> dict[str, str]:
    return {"approver": gettext("Your signature"), "limit": gettext("The credit line"),
            "player": gettext("The player")}


def standing_view(found: Any) -> dict[str, Any]:
    """A player's credit line in force for the screens: the line, what their markers use, what is left."""
    return {"player": found.player, "line": money_words(found.line.limit), "used": money_words(found.used),
            "available": money_words(found.available), "approver": _who(found.line.approver),
            "at": _when(found.line.approved_at), "over": found.used > found.line.limit}


@login_required
@require_http_methods(["GET", "POST"])
@_once
def credit_lines(request: HttpRequest) -> HttpResponse:
    """Players' credit lines for markers: each line in force with what is used and left; a pit manager or an
    accountant sets or changes one within the authority their signature carries (accounting/services/credit.py)."""
    if (refused := _refused(request)) is not None:
        return refused
    place = _place(request)
    may_set = has_role(request.user, *credit.APPROVERS)
    data: Mapping[str, Any] = request.POST if request.method == "POST" else {}
    error = None
    if request.method == "POST" and may_set:
        try:
            limit = _minor(request.POST.get("limit"), gettext("The credit line"))
        except Refusal as exc:
            error = str(exc)
        else:
            line, error = _attempt(
                request,
                lambda: credit.credit_line_set(actor=request.user, player=str(request.POST.get("player", "")),
                                               limit=limit, approver={"username": request.user.get_username()},
                                               reason=str(request.POST.get("reason", ""))),
                _credit_labels(),
            )
            if error is None:
                messages.success(request, gettext("Credit line of %(player)s set to %(line)s, approved by you.")
                                 % {"player": line.player, "line": money_words(line.limit)})
                return _back("cage-credit", place)
    elif request.method == "POST":
        error = gettext("Credit lines are set by pit managers and accountants.")
    cap = credit.approval_limit(request.user) if may_set else 0
    return _page(
        request,
        "credit.html",
        place,
        "credit",
        error=error,
        lines=[standing_view(found) for found in credit_standings()],
        may_set=may_set,
        cap=gettext("any amount") if cap is None else money_words(cap),
        values={k: str(data.get(k, "") or request.GET.get(k, "")) for k in ("player", "limit", "reason")},
    )


# -- markers ----------------------------------------------------------------------------------------


MARKER_LABELS = {"supervisor": gettext_lazy("The supervisor's signature"), "dealer": gettext_lazy("The dealer's signature"),
                 "accountant": gettext_lazy("The accountant's signature"), "second": gettext_lazy("The second signature"),
                 "reason": gettext_lazy("The reason"), "signer": gettext_lazy("The signature of who takes the money"),
                 "amount": gettext_lazy("The amount"), "player": gettext_lazy("The player")}


def _standing_of(player: str) -> dict[str, Any] | None:
    found = credit_standing(player) if player.strip() else None
    return standing_view(found) if found is not None else None


def _written_off(m: Marker) -> MarkerWriteOff | None:
    try:
        return m.write_off  # the reverse one-to-one of MarkerWriteOff.marker
    except MarkerWriteOff.DoesNotExist:
        return None


def _marker_row(m: Marker) -> dict[str, Any]:
    written_off = _written_off(m)
    return {
        "pk": m.pk, "reference": m.reference, "player": m.player, "table": m.table.code, "shift": shift_words(m.shift),
        "amount": money_words(m.amount), "paid": money_words(m.paid),
        "due": money_words(0 if written_off else m.amount - m.paid),
        "state": gettext("Written off") if written_off else gettext("Redeemed") if m.paid >= m.amount
        else gettext("Part paid") if m.paid else gettext("Outstanding"),
        "issued_at": _when(m.issued_at),
    }


def _aging(request: HttpRequest) -> dict[str, Any]:
    """What is owed on the markers of the tables one sees, by age (the report "Markers owed by age", today)."""
    seen = set(_cage_tables(request.user).values_list("code", flat=True))
    totals = [0] * len(AGING_BUCKETS)
    for row in MarkerAgingReport(Filters()).rows():
        if row[2] in seen:
            for i, value in enumerate(row[7:]):
                totals[i] += value or 0
    return {"buckets": [{"label": label, "owed": money_words(total)} for (label, _, _), total in zip(AGING_BUCKETS, totals)],
            "total": money_words(sum(totals))}


def _visible_markers(request: HttpRequest) -> Any:
    return Marker.objects.filter(table__in=_cage_tables(request.user).values("pk")).select_related(
        "table", "shift__shift_type", "supervisor_signer__user", "dealer_signer__user", "write_off"
    )


@login_required
@require_http_methods(["GET", "POST"])
@_once
def marker_list(request: HttpRequest) -> HttpResponse:
    """Markers outstanding and redeemed; the pit issues one at its table, signed by supervisor and dealer."""
    if (refused := _refused(request)) is not None:
        return refused
    place = _place(request)
    table, shift = place["table"], place["shift"]
    state = request.GET.get("state", "outstanding")
    found = _visible_markers(request)
    if state == "outstanding":
        found = found.filter(paid__lt=F("amount"), write_off__isnull=True)
    elif state == "redeemed":
        found = found.filter(paid=F("amount"))
    elif state == "written_off":
        found = found.filter(write_off__isnull=False)
    data: Mapping[str, Any] = request.POST if request.method == "POST" else {}
    may_issue = table is not None and shift is not None and manages_table(request.user, table) and has_role(
        request.user, Role.PIT_MANAGER)
    error = None
    if request.method == "POST" and may_issue:
        try:
            amount = _minor(request.POST.get("amount"), gettext("The amount"))
            supervisor = _signature(request.POST, "supervisor", gettext("The supervisor's signature"), request.user)
            dealer = _signature(request.POST, "dealer", gettext("The dealer's signature"), request.user)
        except Refusal as exc:
            error = str(exc)
        else:
            marker, error = _attempt(
                request,
                lambda: slips.marker_issue(actor=request.user, table_id=table.pk, shift_id=shift.pk,
                                           player=str(request.POST.get("player", "")), amount=amount,
                                           supervisor=supervisor, dealer=dealer),
                MARKER_LABELS,
            )
            if error is None:
                messages.success(request, gettext("Marker %(reference)s issued to %(player)s at %(table)s: %(amount)s.")
                                 % {"reference": marker.reference, "player": marker.player, "table": table.code,
                                    "amount": money_words(marker.amount)})
                return _back("cage-marker", place, pk=marker.pk)
    elif request.method == "POST":
        error = gettext("Only a pit manager of this table issues markers.")
    return _page(
        request,
        "markers.html",
        place,
        "markers",
        error=error,
        markers=[_marker_row(m) for m in found.order_by("-issued_at")[:100]],
        state=state,
        states=[("outstanding", gettext("Outstanding")), ("redeemed", gettext("Redeemed")),
                ("written_off", gettext("Written off")), ("all", gettext("All"))],
        may_issue=may_issue,
        aging=_aging(request),
        credit_lines=[standing_view(found) for found in credit_standings()],
        standing=_standing_of(str(data.get("player") or request.GET.get("player") or "")),
        values={k: str(data.get(k, "") or request.GET.get(k, "")) for k in ("player", "amount")},
        supervisor=_signer_box("supervisor", gettext("The supervisor"), gettext("A pit manager of this table."), data,
                               me=True),
        dealer=_signer_box("dealer", gettext("The dealer"), gettext("The table's dealer."), data, me=False),
    )


@login_required
@require_http_methods(["GET", "POST"])
@_once
def marker_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """One marker: who signed it, its payments, and a payment (redemption) at the cage or at the table."""
    if (refused := _refused(request)) is not None:
        return refused
    marker = _visible_markers(request).filter(pk=pk).first()
    if marker is None:
        return render(request, "registration/forbidden.html",
                      {"message": gettext("There is no such marker on your tables.")}, status=404)
    place = {**_place(request), "table": marker.table, "shift": marker.shift}
    data: Mapping[str, Any] = request.POST if request.method == "POST" else {}
    error = None
    if request.method == "POST" and request.POST.get("action") == "write_off":
        try:
            accountant = _signature(request.POST, "accountant", gettext("The accountant's signature"), request.user)
            second = _signature(request.POST, "second", gettext("The second signature"), request.user)
        except Refusal as exc:
            error = str(exc)
        else:
            reason = str(request.POST.get("reason", ""))
            done, error = _attempt(
                request,
                lambda: slips.marker_write_off(actor=request.user, marker_id=marker.pk, reason=reason,
                                               accountant=accountant, second=second),
                MARKER_LABELS,
            )
            if error is None:
                messages.success(request, gettext("Marker %(marker)s written off: %(amount)s.")
                                 % {"marker": marker.reference, "amount": money_words(done.amount)})
                return _back("cage-marker", place, pk=marker.pk)
    elif request.method == "POST":
        at_table = request.POST.get("where") == "table"
        try:
            amount = _minor(request.POST.get("amount"), gettext("The amount"))
            signer = _signature(request.POST, "signer", gettext("The signature of who takes the money"), request.user)
        except Refusal as exc:
            error = str(exc)
        else:
            _, error = _attempt(
                request,
                lambda: slips.marker_pay(actor=request.user, marker_id=marker.pk, amount=amount,
                                         at_table=at_table, signer=signer),
                MARKER_LABELS,
            )
            if error is None:
                paid = (gettext("%(amount)s paid on marker %(reference)s at the table.") if at_table
                        else gettext("%(amount)s paid on marker %(reference)s at the cage."))
                messages.success(request, paid % {"amount": money_words(amount), "reference": marker.reference})
                return _back("cage-marker", place, pk=marker.pk)
    written_off = _written_off(marker)
    if written_off is not None:
        written_off = MarkerWriteOff.objects.select_related("accountant_signer__user", "second_signer__user").get(
            pk=written_off.pk)
    payments = [
        {"amount": money_words(p.amount), "where": gettext("At the table %(table)s") % {"table": p.table.code} if p.at_table and p.table
         else gettext("At the cage"),
         "signer": _who(p.signer), "received_by": str(p.received_by), "at": _when(p.paid_at)}
        for p in marker.payments.select_related("signer__user", "table", "received_by").order_by("paid_at", "id")
    ]
    return _page(
        request,
        "marker.html",
        place,
        "markers",
        error=error,
        marker=_marker_row(marker),
        supervisor=_who(marker.supervisor_signer),
        dealer=_who(marker.dealer_signer),
        payments=payments,
        may_pay=marker.paid < marker.amount and written_off is None and has_role(request.user, *CAGE),
        may_write_off=marker.paid < marker.amount and written_off is None and has_role(request.user, Role.ACCOUNTANT),
        written_off=written_off and {
            "amount": money_words(written_off.amount), "reason": written_off.reason, "at": _when(written_off.written_off_at),
            "accountant": _who(written_off.accountant_signer), "second": _who(written_off.second_signer),
        },
        reason=str(data.get("reason", "")),
        accountant=_signer_box("accountant", gettext("The accountant"), gettext("An accountant."), data, me=True),
        second=_signer_box("second", gettext("The second person"), gettext("A pit manager or another accountant."), data,
                           me=False),
        left=money_words(marker.amount - marker.paid, symbol=False),  # as typed: no currency
        where=str(data.get("where", "cage")),
        amount_value=str(data.get("amount", "")),
        signer=_signer_box("signer", gettext("Who takes the money"),
                           gettext("At the cage: the cashier. At the table: the table's dealer."), data, me=True),
    )


# -- the cage desk (the cashier's screen) -----------------------------------------------------------


def _desk_row(slip: Slip) -> dict[str, Any]:
    return {**_slip_row(slip), "pit": slip.table.pit.name, "requested_by": _who(slip.request_signer),
            "chips": ", ".join(r["words"] for r in _chips_shown(slip.chips))}


def _desk(request: HttpRequest) -> dict[str, Any]:
    """What waits for the cage now: fills to issue, credits to receive, fills on their way to the tables and
    requests the cage refused (voided once the pit's second person approves)."""
    waiting = Slip.objects.filter(status__in=[SlipStatus.REQUESTED, SlipStatus.ISSUED]).select_related(
        "table__pit", "shift__shift_type", "request_signer__user").order_by("requested_at", "id")
    rows = [(s, _desk_row(s)) for s in waiting[:200]]
    open_rows = [(s, r) for s, r in rows if s.void_requested_by_id is None]
    return {
        "to_issue": [r for s, r in open_rows if s.kind == SlipKind.FILL and s.status == SlipStatus.REQUESTED],
        "to_receive": [r for s, r in open_rows if s.kind == SlipKind.CREDIT and s.status == SlipStatus.ISSUED],
        "on_the_way": [r for s, r in open_rows if s.status == SlipStatus.ISSUED and s.kind == SlipKind.FILL],
        "at_the_pit": [r for s, r in open_rows if s.status == SlipStatus.REQUESTED and s.kind == SlipKind.CREDIT],
        "refused": [r for s, r in rows if s.void_requested_by_id is not None],
        "cashier": has_role(request.user, Role.CASHIER),
    }


def _desk_refused(request: HttpRequest) -> HttpResponse | None:
    if has_role(request.user, Role.CASHIER, Role.ACCOUNTANT):
        return None
    return render(request, "registration/forbidden.html",
                  {"message": gettext("The cage desk is for the cage cashiers (accountants read it).")}, status=403)


@login_required
@require_http_methods(["GET"])
def cage_desk(request: HttpRequest) -> HttpResponse:
    """The cashier's screen: fill and credit requests arrive here live; each opens to be issued or received
    with the cashier's own PIN, or refused with a reason."""
    if (refused := _desk_refused(request)) is not None:
        return refused
    return _page(request, "desk.html", _place(request), "desk", **_desk(request))


@require_http_methods(["GET"])
def cage_desk_live(request: HttpRequest) -> HttpResponse:
    """The desk's live part, polled by htmx every few seconds."""
    if not request.user.is_authenticated:
        login = f"{reverse('login')}?next={reverse('accounting-web:cage-desk')}"
        if request.headers.get("HX-Request"):
            return HttpResponse(status=204, headers={"HX-Redirect": login})
        return HttpResponseRedirect(login)
    if (refused := _desk_refused(request)) is not None:
        return refused
    return render(request, "accounting/cage/_desk_live.html", _desk(request))
