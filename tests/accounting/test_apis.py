"""The accounting API: who may do what (and the denials), clear 4xx on bad input, idempotent writes."""

from __future__ import annotations

import pytest

from accounting.models import Alert, DropCount, InventoryCount, LedgerTransaction, ShiftReconciliation, Slip
from accounting.services import alerts
from casino.audit.models import AuditRecord
from tests.accounting.helpers import cred, sig, staff
from tests.accounting.test_worked_shift import OPENER, work_the_shift
from tests.fixtures import as_user

URL = "/api/accounting"


def count_body(floor, kind="opener", chips=None, **more):
    return {
        "table": floor.table.pk,
        "shift": floor.shift.pk,
        "kind": kind,
        "chips": chips or OPENER,
        "dealer": sig(floor.dealer),
        "supervisor": sig(floor.manager),
        **more,
    }


def test_pit_manager_records_a_count_signed_by_dealer_and_supervisor(floor, manager_api):
    response = manager_api.post(f"{URL}/counts/", count_body(floor), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["table"], body["kind"], body["total"], body["dealer_signer"], body["supervisor_signer"]) == (
        "BAC1",
        "opener",
        250_000,
        cred(floor.dealer),
        cred(floor.manager),
    )
    assert AuditRecord.objects.filter(action="count.opener", table_code="BAC1").count() == 1


@pytest.mark.parametrize("who", ["dealer", "accountant", "auditor", "nobody", "other_manager"])
def test_only_the_tables_pit_manager_enters_counts(floor, who):
    # when anyone else tries
    response = as_user(getattr(floor, who)).post(f"{URL}/counts/", count_body(floor), format="json")
    # then 403 (another pit's manager: 404, no table, as his reads say) and nothing is written
    assert response.status_code == (404 if who == "other_manager" else 403)
    assert "error" in response.json()
    assert InventoryCount.objects.count() == 0
    assert LedgerTransaction.objects.count() == 0


def test_reads_are_for_pit_managers_accountants_and_auditors(floor):
    for user, code in (
        (floor.dealer, 403),
        (floor.nobody, 403),
        (floor.manager, 200),
        (floor.accountant, 200),
        (floor.auditor, 200),
    ):
        for path in ("counts/", "slips/", "drops/", "markers/", "table-closes/", "alerts/", "reconciliations/"):
            assert as_user(user).get(f"{URL}/{path}").status_code == code, (user.username, path)
    assert as_user(floor.manager).get(f"{URL}/accounts/").status_code == 403
    assert as_user(floor.accountant).get(f"{URL}/accounts/").status_code == 200


def test_pit_managers_see_only_their_pits_records(floor, manager_api):
    manager_api.post(f"{URL}/counts/", count_body(floor), format="json")
    assert len(manager_api.get(f"{URL}/counts/").json()["results"]) == 1
    assert as_user(floor.other_manager).get(f"{URL}/counts/").json()["results"] == []
    assert len(as_user(floor.accountant).get(f"{URL}/counts/").json()["results"]) == 1


@pytest.mark.parametrize(
    ("change", "field", "code"),
    [
        ({"chips": {"2500": "forty"}}, "chips.2500", "bad_chips"),
        ({"chips": {"333": 1}}, "chips.333", "unknown_denomination"),
        ({"chips": {"2500": -1}}, "chips.2500", "bad_chips"),
        ({"dealer": "E99999"}, "dealer", "invalid"),  # an employee id is no signature
        ({"dealer": {"username": "dealer"}}, "dealer", "signature_secret_required"),
        (
            {"dealer": "__admin__", "supervisor": "__admin__"},
            "supervisor",
            "same_signer",
        ),
        ({"supervisor": "__dealer__"}, "supervisor", "signer_role"),
        ({"kind": "middle"}, "kind", "invalid"),
        ({"table": "BAC1"}, "table", "invalid"),
    ],
)
def test_bad_count_input_is_a_clear_400_and_writes_nothing(floor, manager_api, change, field, code):
    swap = {"__admin__": sig(floor.admin), "__dealer__": sig(floor.dealer)}
    body = {**count_body(floor), **{k: swap.get(v, v) if isinstance(v, str) else v for k, v in change.items()}}
    response = manager_api.post(f"{URL}/counts/", body, format="json")
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert (error["field"], error["code"]) == (field, code)
    assert InventoryCount.objects.count() == 0
    assert LedgerTransaction.objects.count() == 0


def test_count_writes_are_idempotent(floor, manager_api):
    headers = {"HTTP_IDEMPOTENCY_KEY": "count-1"}
    first = manager_api.post(f"{URL}/counts/", count_body(floor), format="json", **headers)
    again = manager_api.post(f"{URL}/counts/", count_body(floor), format="json", **headers)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert InventoryCount.objects.count() == 1
    duplicate = manager_api.post(f"{URL}/counts/", count_body(floor), format="json")
    assert duplicate.status_code == 409
    assert duplicate.json()["error"]["code"] == "count_exists"


def test_fill_flow_through_the_api_with_denials(floor, manager_api):
    people = staff(floor)
    # an accountant may not request a fill; a pit manager may
    body = {
        "kind": "fill",
        "table": floor.table.pk,
        "shift": floor.shift.pk,
        "chips": {"2500": 4},
    }
    assert as_user(floor.accountant).post(f"{URL}/slips/", body, format="json").status_code == 403
    assert as_user(floor.dealer).post(f"{URL}/slips/", body, format="json").status_code == 403
    slip = manager_api.post(f"{URL}/slips/", body, format="json").json()
    issued = manager_api.post(f"{URL}/slips/{slip['id']}/issue/", {"signer": sig(people.cashier)}, format="json")
    assert issued.json()["status"] == "issued"
    # receiving out of turn (twice) is 409
    received = manager_api.post(f"{URL}/slips/{slip['id']}/receive/", {"signer": sig(floor.dealer)}, format="json")
    assert received.json()["status"] == "received"
    twice = manager_api.post(f"{URL}/slips/{slip['id']}/receive/", {"signer": sig(floor.dealer)}, format="json")
    assert (twice.status_code, twice.json()["error"]["code"]) == (409, "slip_received")
    assert LedgerTransaction.objects.filter(kind="fill").count() == 1
    numbers = manager_api.get(f"{URL}/slips/numbers/", {"kind": "fill"}).json()
    assert (numbers["used"], numbers["gaps"]) == ([1], [])


def test_the_count_team_enters_the_drop_and_dealers_may_not(floor):
    people = staff(floor)
    body = {
        "table": floor.table.pk,
        "shift": floor.shift.pk,
        "cash": 60_000,
        "chips": 0,
        "markers": 20_000,
        "counter_one": sig(people.counter),
        "counter_two": sig(people.counter2),
    }
    assert as_user(floor.dealer).post(f"{URL}/drops/", body, format="json").status_code == 403
    assert as_user(floor.auditor).post(f"{URL}/drops/", body, format="json").status_code == 403
    # the pit and accounting do not count the drop: the count team does
    for outsider in (floor.manager, floor.accountant):
        refused = as_user(outsider).post(f"{URL}/drops/", body, format="json")
        assert (refused.status_code, refused.json()["error"]["code"]) == (403, "count_team_required")
    same = as_user(people.counter).post(
        f"{URL}/drops/", {**body, "counter_two": sig(people.counter)}, format="json"
    )
    assert (same.status_code, same.json()["error"]["code"]) == (400, "same_signer")
    assert DropCount.objects.count() == 0
    made = as_user(people.counter).post(f"{URL}/drops/", body, format="json")
    assert made.status_code == 201
    assert made.json()["total"] == 80_000


def test_close_refusal_names_what_is_missing_and_the_worked_shift_closes(floor, manager_api):
    refused = manager_api.post(
        f"{URL}/table-closes/", {"table": floor.table.pk, "shift": floor.shift.pk}, format="json"
    )
    assert refused.status_code == 409
    assert refused.json()["error"]["missing"] == [
        "opening inventory count",
        "closing inventory count",
        "soft count of the drop",
    ]
    work_the_shift(floor)
    figures = manager_api.get(f"{URL}/table-closes/figures/", {"table": floor.table.pk, "shift": floor.shift.pk})
    assert (figures.json()["count_win"], figures.json()["hold_pct"], figures.json()["missing"]) == (9_000, "11.25", [])
    assert (
        as_user(floor.other_manager)
        .post(f"{URL}/table-closes/", {"table": floor.table.pk, "shift": floor.shift.pk}, format="json")
        .status_code
        == 403
    )
    closed = manager_api.post(f"{URL}/table-closes/", {"table": floor.table.pk, "shift": floor.shift.pk}, format="json")
    assert closed.status_code == 201
    assert (
        closed.json()["count_win"],
        closed.json()["hold"],
        closed.json()["hold_pct"],
        closed.json()["variance"],
    ) == (9_000, "9/80", "11.25", -125)


def test_shift_close_queues_reconciliation_and_on_demand_returns_it(
    floor, manager_api, django_capture_on_commit_callbacks
):
    work_the_shift(floor)
    manager_api.post(f"{URL}/table-closes/", {"table": floor.table.pk, "shift": floor.shift.pk}, format="json")
    # the open shift cannot be reconciled yet, and only the pit closes it
    early = as_user(floor.accountant).post(f"{URL}/reconciliations/run/", {"shift": floor.shift.pk}, format="json")
    assert (early.status_code, early.json()["error"]["code"]) == (409, "shift_not_ended")
    assert (
        as_user(floor.accountant).post(f"{URL}/shift-close/", {"shift": floor.shift.pk}, format="json").status_code
        == 403
    )
    # closing the shift queues the job (it runs once the request commits)
    with django_capture_on_commit_callbacks(execute=True):
        closed = manager_api.post(f"{URL}/shift-close/", {"shift": floor.shift.pk}, format="json")
    assert closed.json()["status"] == "closed"
    # on demand, the result is there
    done = as_user(floor.accountant).post(f"{URL}/reconciliations/run/", {"shift": floor.shift.pk}, format="json")
    assert done.status_code == 200
    assert done.json()["status"] == "variance"
    assert done.json()["tables_results"][0]["variance"] == -125
    assert ShiftReconciliation.objects.count() == 1
    assert (
        as_user(floor.dealer).post(f"{URL}/reconciliations/run/", {"shift": floor.shift.pk}, format="json").status_code
        == 403
    )


def test_reconcile_on_demand_queues_an_ended_shift(floor, django_capture_on_commit_callbacks):
    from django.utils import timezone

    from tables.models import Shift

    Shift.objects.filter(pk=floor.shift.pk).update(
        ends_at=timezone.now() - timezone.timedelta(days=2),
        starts_at=timezone.now() - timezone.timedelta(days=2, hours=8),
    )
    with django_capture_on_commit_callbacks(execute=True):
        queued = as_user(floor.accountant).post(f"{URL}/reconciliations/run/", {"shift": floor.shift.pk}, format="json")
    assert (queued.status_code, queued.json()) == (202, {"shift": floor.shift.pk, "status": "queued"})
    assert ShiftReconciliation.objects.get().status == "balanced"  # nothing happened in it


def test_pit_managers_list_and_acknowledge_their_alerts(floor, manager_api):
    mine = alerts.alert_raise(kind="large_bet", severity="warning", message="big", dedupe_key="a", table=floor.table)
    alerts.alert_raise(kind="large_bet", severity="warning", message="other", dedupe_key="b", table=floor.other_table)
    listed = manager_api.get(f"{URL}/alerts/", {"open": "true"}).json()["results"]
    assert [a["id"] for a in listed] == [mine.pk]
    assert as_user(floor.other_manager).post(f"{URL}/alerts/{mine.pk}/ack/", {}, format="json").status_code == 403
    assert as_user(floor.accountant).post(f"{URL}/alerts/{mine.pk}/ack/", {}, format="json").status_code == 403
    acked = manager_api.post(f"{URL}/alerts/{mine.pk}/ack/", {"note": "player known"}, format="json")
    assert acked.status_code == 200
    assert (acked.json()["acknowledged_by"], acked.json()["ack_note"]) == ("pm", "player known")
    assert manager_api.get(f"{URL}/alerts/", {"open": "true"}).json()["results"] == []
    assert Alert.objects.filter(acknowledged_at__isnull=False).count() == 1


def test_marker_and_void_endpoints(floor, manager_api):
    people = staff(floor)
    marker = manager_api.post(
        f"{URL}/markers/",
        {
            "table": floor.table.pk,
            "shift": floor.shift.pk,
            "player": "P",
            "amount": 10_000,
            "supervisor": sig(floor.manager),
            "dealer": sig(floor.dealer),
        },
        format="json",
    )
    assert marker.status_code == 201, marker.json()
    paid = manager_api.post(
        f"{URL}/markers/{marker.json()['id']}/payments/",
        {"amount": 4_000, "at_table": True, "signer": sig(floor.dealer)},
        format="json",
    )
    assert paid.status_code == 201
    over = manager_api.post(
        f"{URL}/markers/{marker.json()['id']}/payments/",
        {"amount": 7_000, "at_table": True, "signer": sig(floor.dealer)},
        format="json",
    )
    assert (over.status_code, over.json()["error"]["code"]) == (409, "overpayment")
    slip = manager_api.post(
        f"{URL}/slips/",
        {
            "kind": "credit",
            "table": floor.table.pk,
            "shift": floor.shift.pk,
            "chips": {"10000": 1},
        },
        format="json",
    ).json()
    no_reason = manager_api.post(f"{URL}/slips/{slip['id']}/void/", {"reason": ""}, format="json")
    assert (no_reason.status_code, no_reason.json()["error"]["field"]) == (400, "reason")
    manager_api.post(f"{URL}/slips/{slip['id']}/void/", {"reason": "table closed early"}, format="json")
    same = manager_api.post(f"{URL}/slips/{slip['id']}/void/approve/", format="json")
    assert same.status_code == 403
    approved = as_user(floor.accountant).post(f"{URL}/slips/{slip['id']}/void/approve/", format="json")
    assert approved.json()["status"] == "voided"
    assert Slip.objects.get().voided_from == "requested"
    assert people.cashier  # the cage took no part in a slip voided before issue
