"""The screens: sign-in and the role's home, the dealer's table, the pit manager's floor and paperwork.

Thin, like the API: check who may look, call selectors, render. The dealer's screen changes things
through the JSON API (``/api/rounds/…``); the pit manager's forms post here and call the same services
the API calls (voids, alerts, tables, dealers, fills and credits), which check who may act and audit.
A refusal is shown in the user's words (``tables.wording``); another pit's table is a 403 page.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import parse_etags, url_has_allowed_host_and_scheme
from django.utils.translation import gettext, gettext_lazy, gettext_noop, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounting.models import Alert, CountKind, InventoryCount
from accounting.money import MoneyInputError, currency, money_parse, money_words
from accounting.money import digits as money_digits
from accounting.reports.definitions import REPORTS
from accounting.services import alerts as alert_services
from accounting.services import day as day_services
from accounting.services import slips
from accounting.services.counts import denominations_for, previous_closer
from casino.core.roles import Role, has_role, roles_of
from casino.errors import DomainError, Forbidden, InvalidInput
from casino.idempotency import once_per_form
from casino.languages import language_check, staff_language_set
from casino.middleware import SESSION_LANGUAGE
from floor import selectors as dashboard
from floor.templatetags.croupier import _url, accounting_home
from tables import wording
from tables.access import ensure_can_deal, manages_table, runs_the_day
from tables.engines.registry import get_engine
from tables.models import (
    LIVE_STATUSES,
    Assignment,
    Pit,
    Round,
    RoundStatus,
    Shift,
    ShiftStatus,
    ShiftType,
    Table,
    TableStatus,
)
from tables.selectors import current_shift, newest_open_shift, pit_tables
from tables.serializers import RoundSerializer
from tables.services import floor as floor_services
from tables.services import pay_corrections
from tables.services import rounds as round_services

FLOOR_VIEWERS = (Role.PIT_MANAGER, Role.ACCOUNTANT, Role.AUDITOR)


def _forbidden(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "registration/forbidden.html", {"message": message}, status=403)


@require_http_methods(["GET", "POST"])
def language_set(request: HttpRequest) -> HttpResponse:
    """The language picker (the menu's link, the dealer's one tap at the table): a signed-in person's pick
    is kept on their staff profile; before signing in, in Django's language cookie."""
    back = (request.POST.get("next") if request.method == "POST" else request.GET.get("next")) or "/"
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = "/"
    if request.method == "GET":
        return render(request, "registration/language.html", {"back": back})
    try:
        language = (staff_language_set(actor=request.user, language=request.POST.get("language"))
                    if request.user.is_authenticated else language_check(request.POST.get("language")))
    except InvalidInput as refused:
        messages.error(request, wording.say(refused.code, refused.params))
        return redirect(back)
    if request.user.is_authenticated:
        request.session[SESSION_LANGUAGE] = [request.user.pk, language]
    translation.activate(language)
    response = redirect(back)
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
                        samesite="Lax", secure=request.is_secure(), httponly=True)
    return response


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Each role lands on its own screen."""
    user = request.user
    held = roles_of(user)
    if has_role(user, Role.PIT_MANAGER):
        return redirect("pit-dashboard")
    if Role.SHIFT_MANAGER in held:  # runs the day: opens the shifts and rolls the tables
        return redirect("pit-day")
    if Role.DEALER in held:
        return redirect("dealer-home")
    if Role.CASHIER in held and _url("accounting-web:cage-desk"):
        return redirect("accounting-web:cage-desk")
    if Role.COUNT_TEAM in held and _url("accounting-web:cage-drop"):
        return redirect("accounting-web:cage-drop")
    if Role.ACCOUNTANT in held:
        return redirect(accounting_home() or reverse("reports-home"))
    if Role.COMPLIANCE in held and _url("players-compliance"):
        return redirect("players-compliance")
    if Role.AUDITOR in held and _url("audit-index"):
        return redirect("audit-index")
    return render(request, "registration/home.html", {"no_role": True})


@login_required
@require_GET
def reports_home(request: HttpRequest) -> HttpResponse:
    """The accountant's landing until the accounting pages exist: the reports the API serves."""
    if not has_role(request.user, Role.ACCOUNTANT):
        return _forbidden(request, gettext("Reports are for accountants."))
    page = accounting_home()
    if page:
        return redirect(page)
    reports: list[dict[str, Any]] = []
    if _url("reports"):
        reports = [
            {"name": r.name, "title": r.title, "url": reverse("report", kwargs={"name": r.name})}
            for r in REPORTS.values()
        ]
    return render(request, "registration/home.html", {"reports": reports})


# -- the dealer --------------------------------------------------------------------------------


@login_required
@require_GET
def dealer_home(request: HttpRequest) -> HttpResponse:
    """The dealer's screen opens on the table they are assigned to now, and only that one."""
    if not has_role(request.user, Role.DEALER, Role.PIT_MANAGER):
        return _forbidden(request, gettext("The dealer screen is for dealers."))
    assignment = dashboard.dealer_assignment(request.user)
    if assignment is not None:
        return redirect("dealer-table", code=assignment.table.code)
    return render(request, "dealer/unassigned.html", {}, status=200)


@login_required
@require_GET
def dealer_table(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table.objects.select_related("pit"), code=code)
    try:
        ensure_can_deal(request.user, table)
    except Forbidden as exc:
        return _forbidden(request, exc.message)
    rnd = dashboard.live_round(table) or dashboard.last_round(table)
    boot = {
        "table": {
            "id": table.pk,
            "code": table.code,
            "name": table.name,
            "game": table.game,
            "seats": table.seats,
            "min_bet": table.min_bet,
            "max_bet": table.max_bet,
            "status": table.status,
        },
        "round": RoundSerializer(rnd).data if rnd is not None else None,
        "bet_types": [{**bet, "label": wording.label_words(bet["label"]),
                       "description": wording.description_words(bet["description"])}
                      for bet in dashboard.layout_bets(table.game)],
        "chips": denominations_for(table),
        "deck": dashboard.deck_of(table.game),
        "decks": dashboard.decks_of(table),
        "shoe": dashboard.shoe_of(table),
        "digits": settings.CROUPIER["MINOR_UNIT_DIGITS"],
        "currency": wording.currency(),
        "words": wording.catalogue(),
        "user": request.user.get_username(),
        "supervisors": dashboard.pit_supervisors(table, besides=request.user),
    }
    return render(request, "dealer/table.html",
                  {"table": table, "boot": boot, "game_title": wording.game_title(get_engine(table.game).title)})


# -- the pit manager -------------------------------------------------------------------------------


ALERTS_PER_PAGE = 20


def _floor(user: Any, shift_id: Any = None) -> dict[str, Any]:
    shifts = dashboard.recent_shifts()
    shift = dashboard.chosen_shift(shift_id, shifts)
    tables = list(pit_tables(user))
    rows = dashboard.floor_rows(tables, shift)
    return {
        "shift": shift,
        "shifts": shifts,
        "chosen": shift_id if shift is not None and str(shift_id) == str(shift.pk) else "",
        "rows": rows,
        "counts": dashboard.count_rows(rows, shift),
        "currency": currency(),
        "charts": {
            "by_hour": dashboard.win_by_hour(tables, shift),
            "by_table": dashboard.win_by_table(rows),
            "digits": settings.CROUPIER["MINOR_UNIT_DIGITS"],
            "currency": currency(),
        },
        "big_bets": dashboard.big_bets(tables, shift),
        "big_bets_count": dashboard.big_bets_count(rows),
        "alerts": dashboard.open_alerts(user, tables),
        "large_bet": settings.CROUPIER["LARGE_BET"],
        "players": dashboard.player_panels(tables, shift),
    }


@login_required
@require_GET
def pit_dashboard(request: HttpRequest) -> HttpResponse:
    if not has_role(request.user, Role.PIT_MANAGER):
        return _forbidden(request, gettext("The pit dashboard is for pit managers."))
    unknown = _unknown_shift(request)
    if unknown is not None:
        return unknown
    # the live part's validator: its first refresh is a 304 when nothing changed since the page
    return render(request, "pit/dashboard.html", {**_floor(request.user, request.GET.get("shift")),
                                                  "etag": _live_etag(request)})


def _unknown_shift(request: HttpRequest) -> HttpResponse | None:
    """``?shift=`` naming no shift is refused in words (never the open shift shown in its place)."""
    asked = request.GET.get("shift", "")
    if asked in ("", None) or (str(asked).isdigit() and Shift.objects.filter(pk=int(asked)).exists()):
        return None
    return render(request, "registration/forbidden.html", {
        "title": gettext("No such shift"),
        "message": gettext("There is no shift “%(shift)s”: choose one from the list of shifts on the pit dashboard.")
        % {"shift": asked}}, status=404)


@require_GET
def pit_live(request: HttpRequest) -> HttpResponse:
    """The dashboard's live part, polled by htmx every few seconds."""
    if not request.user.is_authenticated:
        # a poll after the session ended: send the whole page to the sign-in form, not into the tile grid
        login = f"{reverse('login')}?next={reverse('pit-dashboard')}"
        if request.headers.get("HX-Request"):
            return HttpResponse(status=204, headers={"HX-Redirect": login})
        return redirect(login)
    if not has_role(request.user, Role.PIT_MANAGER):
        return _forbidden(request, gettext("The pit dashboard is for pit managers."))
    # nothing changed since the part the browser holds (its ETag, sent back by static/croupier/pit.js): a 304
    # with no body, after one statement, instead of the whole floor read and rendered again
    etag = _live_etag(request)
    if etag.removeprefix("W/") in {tag.removeprefix("W/") for tag in parse_etags(request.headers.get("If-None-Match", ""))}:
        return _live_headers(HttpResponseNotModified(), etag)
    # with the menu (its count of new alerts) swapped in beside the live part: htmx's out-of-band swap
    context = {**_floor(request.user, request.GET.get("shift")), "oob": True, "etag": etag}
    return _live_headers(render(request, "pit/_live.html", context), etag)


def _live_etag(request: HttpRequest) -> str:
    return dashboard.live_etag(request.user, request.GET.get("shift"), translation.get_language(),
                               time_zone=timezone.get_current_timezone_name())


def _live_headers(response: HttpResponse, etag: str) -> HttpResponse:
    response.headers["ETag"] = etag
    response.headers["Cache-Control"] = "private, no-cache"  # asked again every time, never shared
    return response


@login_required
@require_GET
def pit_table(request: HttpRequest, code: str) -> HttpResponse:
    """A table's rounds, newest first; each opens to its full trail."""
    table = dashboard.visible_table(request.user, code) if has_role(request.user, *FLOOR_VIEWERS) else None
    if table is None:
        return _forbidden(request, gettext("You may not see table %(table)s: it is not one of your pits' tables.") % {"table": code})
    page = Paginator(dashboard.round_history(table), 50).get_page(request.GET.get("page"))
    shift = current_shift()
    manages = manages_table(request.user, table)
    return render(
        request,
        "pit/table.html",
        {
            "table": table,
            "page": page,
            "live": dashboard.live_round(table),
            "row": dashboard.floor_rows([table], shift)[0],
            "manages": manages,
            "shift": shift,
            "on_duty": dashboard.on_duty(table) if manages else None,
            "free_dealers": dashboard.free_dealers() if manages else [],
            "assignments": dashboard.table_assignments(table, shift) if manages else [],
            "chips": denominations_for(table) if manages else [],
            "slips": dashboard.table_slips(table, shift) if manages else [],
            "currency": currency(),
            "step": _step(),
        },
    )


@login_required
@require_GET
def pit_round(request: HttpRequest, pk: int) -> HttpResponse:
    """One round's full event trail: every event, who, when, the engine's state after it, the audit."""
    rnd = get_object_or_404(Round.objects.select_related("table__pit", "dealer", "shift", "void_requested_by", "voided_by",
                                                          "void_refused_by"), pk=pk)
    table = dashboard.visible_table(request.user, rnd.table.code) if has_role(request.user, *FLOOR_VIEWERS) else None
    if table is None:
        return _forbidden(request, gettext("You may not see table %(table)s: it is not one of your pits' tables.")
                          % {"table": rnd.table.code})
    settlement = getattr(rnd, "settlement", None) if rnd.status == RoundStatus.SETTLED else None
    return render(request, "pit/round.html", {
        "trail": dashboard.round_trail(rnd), "round": rnd, "manages": manages_table(request.user, rnd.table),
        "live": rnd.status in LIVE_STATUSES, "reasons": VOID_REASONS,
        "corrections": list(settlement.corrections.select_related("corrected_by", "confirmed_by"))
        if settlement is not None else [],
        "paid": pay_corrections.paid_nets(settlement) if settlement is not None else {},
        "step": _step(),
    })


# -- the pit manager's paperwork: each form posts, calls one service, and comes back with its outcome ----------

# stored as written (the record's words); the screen shows each in the reader's language ({% translate r %})
VOID_REASONS = (gettext_noop("Misdeal"), gettext_noop("Exposed card"), gettext_noop("Wrong number of cards"),
                gettext_noop("Shoe or shuffle problem"), gettext_noop("Table equipment fault"))

# refusals the pit manager's screens word for the case at hand (the rest come from tables.wording)
PIT_WORDS = {
    "same_person": gettext_lazy("You asked for this void yourself: another pit manager of this pit must approve or "
                                "refuse it."),
    "pit_manager_required": gettext_lazy("Only a pit manager of this table's pit can do this."),
}


def _words(exc: DomainError) -> str:
    if exc.code == "bad_amount_text":  # the money parser's own words: what was typed, and how to write it
        return exc.message
    found = PIT_WORDS.get(exc.code)
    return str(found) if found is not None else wording.say(exc.code, exc.params)


def _not_your_pit(request: HttpRequest, table: Table) -> HttpResponse:
    return _forbidden(request, gettext("Table %(table)s is in %(pit)s, which is not one of your pits: only its own "
                                       "pit managers can act there.") % {"table": table.code, "pit": table.pit.name})


def _act(request: HttpRequest, back: str, action: Callable[[], Any], done: str) -> HttpResponse:
    """Run one service, once per rendered form (a double tap writes once); a refusal comes back on the page
    in words (a 403 page when the person may not act)."""
    try:
        _, again = once_per_form(request, action)
    except Forbidden as exc:
        return _forbidden(request, _words(exc))
    except DomainError as exc:
        messages.error(request, _words(exc))
    else:
        messages.success(request, gettext("Already done: %(done)s") % {"done": done} if again else done)
    return redirect(back)


def _managed_table(request: HttpRequest, code: str) -> Table | HttpResponse:
    if not has_role(request.user, Role.PIT_MANAGER):
        return _forbidden(request, gettext("These screens are for pit managers."))
    table = get_object_or_404(Table.objects.select_related("pit"), code=code)
    return table if manages_table(request.user, table) else _not_your_pit(request, table)


def _managed_round(request: HttpRequest, pk: int) -> Round | HttpResponse:
    if not has_role(request.user, Role.PIT_MANAGER):
        return _forbidden(request, gettext("These screens are for pit managers."))
    rnd = get_object_or_404(Round.objects.select_related("table__pit"), pk=pk)
    return rnd if manages_table(request.user, rnd.table) else _not_your_pit(request, rnd.table)


def _step() -> str:
    """The step of a money field: one minor unit in major units (0.01 with two decimals)."""
    digits = money_digits()
    return "1" if digits == 0 else f"0.{'0' * (digits - 1)}1"


def _minor(text: str, what: str) -> int:
    """Money as typed (``25``, ``1,000.00``, ``€1,000.00``: accounting.money.money_parse) in minor units;
    refused in words if it is not one amount."""
    try:
        return money_parse(text)
    except MoneyInputError as exc:
        raise InvalidInput(gettext("%(what)s: %(problem)s") % {"what": what, "problem": exc.message},
                           code="bad_amount_text", field=what) from None


def _signed_minor(text: str, what: str) -> int:
    """A net as typed: an amount, with a minus sign (− or -) when it is collected from the bettor."""
    text = text.strip()
    negative = text[:1] in ("-", "\u2212")
    amount = _minor(text[1:] if negative else text, what)
    return -amount if negative else amount


@login_required
@require_POST
def pit_pay_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """A supervisor corrects the pay list a dealer confirmed: each bet's net as it should have been, and why."""
    rnd = _managed_round(request, pk)
    if isinstance(rnd, HttpResponse):
        return rnd
    back = reverse("pit-round", args=[rnd.pk])
    bets = list(rnd.bets.order_by("id").values_list("client_id", "seat"))
    try:
        lines = [{"bet": bet, "net": _signed_minor(text, gettext("Seat %(seat)s") % {"seat": seat})}
                 for bet, seat in bets if (text := (request.POST.get(f"net-{bet}") or "").strip())]
    except InvalidInput as exc:
        messages.error(request, _words(exc))
        return redirect(back)
    reason = (request.POST.get("reason") or "").strip()
    return _act(request, back,
                lambda: pay_corrections.pay_correct(round_id=rnd.pk, actor=request.user, lines=lines, reason=reason),
                gettext("The pay list of %(table)s round #%(number)s is corrected, on record against the dealer who "
                        "confirmed it.") % {"table": rnd.table.code, "number": rnd.number})


@login_required
@require_GET
def pit_voids(request: HttpRequest) -> HttpResponse:
    """Voids asked for at the pit manager's tables, each with its round's trail one tap away; and the latest decided."""
    if not has_role(request.user, Role.PIT_MANAGER):
        return _forbidden(request, gettext("These screens are for pit managers."))
    tables = list(pit_tables(request.user))
    return render(request, "pit/voids.html", {
        "pending": dashboard.pending_voids(tables), "decided": dashboard.decided_voids(tables),
    })


@login_required
@require_POST
def pit_void_request(request: HttpRequest, pk: int) -> HttpResponse:
    rnd = _managed_round(request, pk)
    if isinstance(rnd, HttpResponse):
        return rnd
    picked = (request.POST.get("reason") or "").strip()
    typed = (request.POST.get("other") or "").strip()
    back = reverse("pit-round", args=[rnd.pk])
    if picked and typed:  # never one silently in place of the other
        messages.error(request, gettext("Choose a reason from the list or write your own, not both: nothing was asked."))
        return redirect(back)
    reason = typed or picked
    return _act(request, back,
                lambda: round_services.round_void_request(round_id=rnd.pk, actor=request.user, reason=reason),
                gettext("You asked for a void of %(table)s round #%(number)s (“%(reason)s”): another pit manager "
                        "decides it.") % {"table": rnd.table.code, "number": rnd.number, "reason": reason})


@login_required
@require_POST
def pit_void_approve(request: HttpRequest, pk: int) -> HttpResponse:
    rnd = _managed_round(request, pk)
    if isinstance(rnd, HttpResponse):
        return rnd
    return _act(request, reverse("pit-voids"),
                lambda: round_services.round_void_approve(round_id=rnd.pk, actor=request.user),
                gettext("%(table)s round #%(number)s is voided: its bets are returned.")
                % {"table": rnd.table.code, "number": rnd.number})


@login_required
@require_POST
def pit_void_refuse(request: HttpRequest, pk: int) -> HttpResponse:
    rnd = _managed_round(request, pk)
    if isinstance(rnd, HttpResponse):
        return rnd
    reason = (request.POST.get("reason") or "").strip()
    return _act(request, reverse("pit-voids"),
                lambda: round_services.round_void_refuse(round_id=rnd.pk, actor=request.user, reason=reason),
                gettext("The void of %(table)s round #%(number)s is refused: the round goes on.")
                % {"table": rnd.table.code, "number": rnd.number})


@login_required
@require_GET
def pit_alerts(request: HttpRequest) -> HttpResponse:
    if not has_role(request.user, Role.PIT_MANAGER):
        return _forbidden(request, gettext("These screens are for pit managers."))
    alerts = dashboard.pit_alerts(request.user, pit_tables(request.user))
    pages = {name: Paginator(getattr(alerts, name), ALERTS_PER_PAGE).get_page(request.GET.get(f"{name}_page"))
             for name in ("open", "acknowledged")}
    return render(request, "pit/alerts.html", {"alerts": alerts, "pages": pages})


def _alert_for(request: HttpRequest, pk: int) -> Any:
    if not has_role(request.user, Role.PIT_MANAGER):
        return _forbidden(request, gettext("These screens are for pit managers."))
    alert = get_object_or_404(Alert.objects.select_related("table__pit"), pk=pk)
    if alert.table is not None and not manages_table(request.user, alert.table):
        return _not_your_pit(request, alert.table)
    return alert


@login_required
@require_POST
def pit_alert_acknowledge(request: HttpRequest, pk: int) -> HttpResponse:
    alert = _alert_for(request, pk)
    if isinstance(alert, HttpResponse):
        return alert
    note = request.POST.get("note") or ""
    return _act(request, reverse("pit-alerts"),
                lambda: alert_services.alert_acknowledge(alert_id=alert.pk, actor=request.user, note=note),
                gettext("Alert acknowledged: resolve it once its cause is dealt with."))


@login_required
@require_POST
def pit_alert_resolve(request: HttpRequest, pk: int) -> HttpResponse:
    alert = _alert_for(request, pk)
    if isinstance(alert, HttpResponse):
        return alert
    note = request.POST.get("note") or ""
    return _act(request, reverse("pit-alerts"),
                lambda: alert_services.alert_resolve(alert_id=alert.pk, actor=request.user, note=note),
                gettext("Alert resolved."))


@login_required
@require_POST
def pit_table_status(request: HttpRequest, code: str) -> HttpResponse:
    table = _managed_table(request, code)
    if isinstance(table, HttpResponse):
        return table
    status = TableStatus.OPEN if request.POST.get("status") == "open" else TableStatus.CLOSED
    if status == TableStatus.CLOSED and request.POST.get("confirm") != "yes":
        messages.error(request, gettext("%(table)s is still open: tick the box to confirm the close first.")
                       % {"table": table.code})
        return redirect(reverse("pit-table", args=[table.code]))
    return _act(request, reverse("pit-table", args=[table.code]),
                lambda: floor_services.table_update(table_id=table.pk, actor=request.user, status=status),
                (gettext("%(table)s is open.") if status == TableStatus.OPEN else gettext("%(table)s is closed."))
                % {"table": table.code})


@login_required
@require_POST
def pit_table_limits(request: HttpRequest, code: str) -> HttpResponse:
    table = _managed_table(request, code)
    if isinstance(table, HttpResponse):
        return table

    def change() -> None:
        floor_services.table_update(table_id=table.pk, actor=request.user,
                                    min_bet=_minor(request.POST.get("min_bet", ""), gettext("Minimum bet")),
                                    max_bet=_minor(request.POST.get("max_bet", ""), gettext("Maximum bet")))

    return _act(request, reverse("pit-table", args=[table.code]), change,
                gettext("%(table)s's limits are changed.") % {"table": table.code})


@login_required
@require_POST
def pit_table_assign(request: HttpRequest, code: str) -> HttpResponse:
    table = _managed_table(request, code)
    if isinstance(table, HttpResponse):
        return table
    dealer = str(request.POST.get("dealer") or "")
    shift = current_shift()

    def assign() -> None:
        if shift is None:
            raise InvalidInput(gettext("no open shift"), code="no_open_shift")
        if not dealer.isdigit():
            raise InvalidInput(gettext("choose a dealer"), code="not_a_dealer")
        floor_services.assignment_create(dealer_id=int(dealer), table_id=table.pk, shift_id=shift.pk,
                                         starts_at=timezone.now(), ends_at=shift.ends_at, actor=request.user)

    return _act(request, reverse("pit-table", args=[table.code]), assign,
                gettext("The dealer is on %(table)s now.") % {"table": table.code})


@login_required
@require_POST
def pit_relieve(request: HttpRequest, pk: int) -> HttpResponse:
    assignment = get_object_or_404(Assignment.objects.select_related("table__pit", "dealer"), pk=pk)
    table = _managed_table(request, assignment.table.code)
    if isinstance(table, HttpResponse):
        return table
    back = request.POST.get("back") == "dealers"
    return _act(request, reverse("pit-dealers") if back else reverse("pit-table", args=[table.code]),
                lambda: floor_services.assignment_relieve(assignment_id=assignment.pk, actor=request.user),
                gettext("%(dealer)s is relieved from %(table)s.")
                % {"dealer": assignment.dealer.get_username(), "table": table.code})


@login_required
@require_GET
def pit_dealers(request: HttpRequest) -> HttpResponse:
    """Each of the pit manager's pits: its tables and who deals at each now; relieve, rotate."""
    if not has_role(request.user, Role.PIT_MANAGER):
        return _forbidden(request, gettext("These screens are for pit managers."))
    tables = list(pit_tables(request.user))
    pits: dict[int, dict[str, Any]] = {}
    for table in tables:
        pit = pits.setdefault(table.pit_id, {"pit": table.pit, "rows": []})
        pit["rows"].append({"table": table, "on_duty": dashboard.on_duty(table)})
    return render(request, "pit/dealers.html", {"pits": list(pits.values()), "free_dealers": dashboard.free_dealers(),
                                                "protection": dashboard.dealer_protection(tables)})


@login_required
@require_POST
def pit_rotate(request: HttpRequest, code: str) -> HttpResponse:
    if not has_role(request.user, Role.PIT_MANAGER):
        return _forbidden(request, gettext("These screens are for pit managers."))
    pit = get_object_or_404(Pit, code=code)
    if not has_role(request.user) and not pit.managers.filter(pk=getattr(request.user, "pk", 0)).exists():
        return _forbidden(request, gettext("%(pit)s is not one of your pits: only its own pit managers can act there.")
                          % {"pit": pit.name})
    incoming = str(request.POST.get("dealer") or "")
    if request.POST.get("confirm") != "yes":
        messages.error(request, gettext("Nobody moved: tick the box to confirm the rotation of %(pit)s first.")
                       % {"pit": pit.name})
        return redirect(reverse("pit-dealers"))
    return _act(request, reverse("pit-dealers"),
                lambda: floor_services.dealer_rotate(pit_id=pit.pk, actor=request.user,
                                                     incoming_dealer_id=int(incoming) if incoming.isdigit() else None),
                gettext("The dealers of %(pit)s have rotated.") % {"pit": pit.name})


@login_required
@require_POST
def pit_chips(request: HttpRequest, code: str) -> HttpResponse:
    """Ask the cage for chips (a fill) or send chips back (a credit), by denomination; the cage issues it."""
    table = _managed_table(request, code)
    if isinstance(table, HttpResponse):
        return table
    kind = request.POST.get("kind") or ""
    shift = current_shift()

    def ask() -> None:
        if shift is None:
            raise InvalidInput(gettext("no open shift"), code="no_open_shift")
        chips: dict[str, int] = {}
        for denomination in denominations_for(table):
            text = (request.POST.get(f"chips-{denomination}") or "").strip()
            if text:
                if not text.isdigit():
                    raise InvalidInput(gettext("not a number of chips"), code="bad_chips")
                chips[str(denomination)] = int(text)
        slips.slip_request(actor=request.user, kind=kind, table_id=table.pk, shift_id=shift.pk, chips=chips)

    done = (gettext("The fill for %(table)s is requested: the cage issues it.") if kind == "fill"
            else gettext("The credit for %(table)s is requested: the cage issues it."))
    return _act(request, reverse("pit-table", args=[table.code]), ask, done % {"table": table.code})


# -- the gaming day: open the next shift, roll the tables ----------------------------------------------

ROLL_WORDS = {
    "table_not_open": gettext_lazy("%(table)s was not rolled: it is closed for play; open it first, then roll again."),
    "nothing_to_roll": gettext_lazy("%(table)s was not rolled: it has no earlier closer; count its opener on the "
                                    "cage screen."),
    "previous_shift_not_closed": gettext_lazy("%(table)s was not rolled: it is not closed for its earlier shift; "
                                              "close it there first."),
    "table_shift_closed": gettext_lazy("%(table)s was not rolled: it is already closed for this shift."),
}
DEALER_KEPT_WORDS = {
    "dealer_busy": gettext_lazy("%(table)s: its last dealer was not kept on it, as that dealer is dealing at another "
                                "table in an open shift."),
    "not_a_dealer": gettext_lazy("%(table)s: its last dealer was not kept on it, as that dealer is no longer an "
                                 "active dealer."),
}


def _signed(count: Any) -> str:
    return gettext("%(dealer)s and %(supervisor)s") % {"dealer": count.dealer_signer.display_name,
                                                        "supervisor": count.supervisor_signer.display_name}


def _day_rows(user: Any, shift: Any) -> list[dict[str, Any]]:
    """Each table of the person's floor: its last closer, its opener in the shift (and the difference), its dealer."""
    rows = []
    for table in day_services.floor_tables(user):
        closer = previous_closer(table, shift) if shift is not None else None
        opener = (InventoryCount.objects.filter(table=table, shift=shift, kind=CountKind.OPENER,
                                                superseded_by__isnull=True)
                  .select_related("dealer_signer", "supervisor_signer").first() if shift is not None else None)
        dealer = (Assignment.objects.filter(table=table, shift=shift, relieved_at__isnull=True)
                  .select_related("dealer").order_by("-starts_at").first() if shift is not None else None)
        rows.append({
            "table": table,
            "open": table.status == TableStatus.OPEN,
            "closer": closer,
            "closer_total": money_amount(closer.total) if closer else "",
            "closer_signed": _signed(closer) if closer else "",
            "opener": opener,
            "opener_total": money_amount(opener.total) if opener else "",
            "opener_signed": _signed(opener) if opener else "",
            "difference": money_amount(opener.discrepancy_net or 0) if opener and closer else "",
            "differs": bool(opener and opener.discrepancy_gross),
            "dealer": dealer.dealer.get_username() if dealer else "",
        })
    return rows


def money_amount(minor: int) -> str:
    return money_words(minor)


@login_required
@require_GET
def pit_day(request: HttpRequest) -> HttpResponse:
    """The gaming day: the open shifts, the next shift to open, and each table's roll from its last closer."""
    if not has_role(request.user, Role.PIT_MANAGER, Role.SHIFT_MANAGER):
        return _forbidden(request, gettext("These screens are for pit and shift managers."))
    shift = newest_open_shift()
    proposal = day_services.next_shift()
    open_shifts = list(Shift.objects.filter(status=ShiftStatus.OPEN).select_related("shift_type")
                       .order_by("starts_at"))
    return render(request, "pit/day.html", {
        "may": runs_the_day(request.user),
        "shift": shift,
        "open_shifts": open_shifts,
        "shift_types": list(ShiftType.objects.order_by("starts", "code")),
        "proposal": {"type": proposal[0], "date": proposal[1].isoformat()} if proposal else None,
        "today": timezone.localdate().isoformat(),
        "rows": _day_rows(request.user, shift),
    })


@login_required
@require_POST
def pit_day_open(request: HttpRequest) -> HttpResponse:
    if not has_role(request.user, Role.PIT_MANAGER, Role.SHIFT_MANAGER):
        return _forbidden(request, gettext("These screens are for pit and shift managers."))
    back = reverse("pit-day")
    type_text, date_text = str(request.POST.get("shift_type") or ""), str(request.POST.get("gaming_date") or "")
    shift_type = ShiftType.objects.filter(pk=int(type_text)).first() if type_text.isdigit() else None
    try:
        gaming_date = dt.date.fromisoformat(date_text)
    except ValueError:
        gaming_date = None
    if shift_type is None or gaming_date is None:
        messages.error(request, gettext("Choose the shift and its gaming day."))
        return redirect(back)
    return _act(request, back,
                lambda: day_services.day_open(actor=request.user, shift_type_id=shift_type.pk, gaming_date=gaming_date),
                gettext("The %(name)s shift of %(day)s is open: roll the tables into it below.")
                % {"name": shift_type.name, "day": gaming_date.isoformat()})


@login_required
@require_POST
def pit_day_roll(request: HttpRequest) -> HttpResponse:
    if not has_role(request.user, Role.PIT_MANAGER, Role.SHIFT_MANAGER):
        return _forbidden(request, gettext("These screens are for pit and shift managers."))
    back = reverse("pit-day")
    shift_text = str(request.POST.get("shift") or "")
    keep = request.POST.get("keep_dealers") == "yes"
    try:
        lines, again = once_per_form(request, lambda: day_services.tables_roll(
            actor=request.user, shift_id=int(shift_text) if shift_text.isdigit() else None, keep_dealers=keep))
    except Forbidden as exc:
        return _forbidden(request, _words(exc))
    except DomainError as exc:
        messages.error(request, _words(exc))
        return redirect(back)
    if again or lines is None:
        messages.success(request, gettext("Already done: the tables were rolled."))
        return redirect(back)
    rolled = [line for line in lines if line.opener is not None]
    messages.success(request, ngettext("%(n)d table rolled: each opener is its last closer, signed as that closer was.",
                                       "%(n)d tables rolled: each opener is its last closer, signed as that closer was.",
                                       len(rolled)) % {"n": len(rolled)})
    for line in lines:
        if line.refused and line.refused != "count_exists":
            words = ROLL_WORDS.get(line.refused) or gettext_lazy("%(table)s could not be rolled.")
            messages.warning(request, str(words) % {"table": line.table.code})
        if line.dealer_refused:
            words = DEALER_KEPT_WORDS.get(line.dealer_refused) or gettext_lazy(
                "%(table)s: its last dealer could not be kept on it.")
            messages.warning(request, str(words) % {"table": line.table.code})
    return redirect(back)
