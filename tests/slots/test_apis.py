"""/api/slots/…: the whole flow through the API, roles (and their denials), idempotency, bad input."""

from __future__ import annotations

import pytest

from accounting.models import LedgerTransaction
from casino.audit.models import AuditRecord
from slots.models import BonusMeter, Machine, MeterReading, Progressive
from tests.fixtures import as_user
from tests.slots.helpers import liability, machine, progressive, read


def _counts() -> tuple:
    return (Machine.objects.count(), MeterReading.objects.count(), Progressive.objects.count(),
            BonusMeter.objects.count(), LedgerTransaction.objects.count(), AuditRecord.objects.count())


def test_a_pit_manager_runs_a_progressive_through_the_api(floor):
    pm = as_user(floor.manager)
    # given a $1 Crazy Dragon machine and its $2,000 progressive at 1.5 %
    made = pm.post("/api/slots/machines/", {"asset_number": "CD-1", "game": "Crazy Dragon", "denomination": 100,
                                            "location": "Dragon bank"}, format="json")
    assert made.status_code == 201, made.json()
    mid = made.json()["id"]
    created = pm.post("/api/slots/progressives/", {"code": "crazy-dragon", "name": "Crazy Dragon", "scope": "system",
                                                   "reset_value": 200_000, "contribution_bp": 150,
                                                   "machines": [mid]}, format="json")
    assert created.status_code == 201, created.json()
    pid = created.json()["id"]
    assert created.json()["machines"] == [{"id": mid, "asset_number": "CD-1"}]
    # when two readings come in
    url = f"/api/slots/machines/{mid}/readings/"
    first = pm.post(url, {"coin_in": 0, "coin_out": 0, "jackpots": 0, "games_played": 0, "drop": 0}, format="json")
    second = pm.post(url, {"coin_in": 12_345, "coin_out": 10_000, "jackpots": 0, "games_played": 41, "drop": 12_000},
                     format="json")
    # then the second contributed 1.85 and carries 0.175 of a cent
    assert first.status_code == 201, first.json()
    assert second.status_code == 201, second.json()
    body = second.json()
    assert (body["seq"], body["d_coin_in"], body["win"]) == (2, 12_345, 2_345)
    assert body["contributions"] == [{"progressive": "crazy-dragon", "coin_in": 12_345, "rate_bp": 150,
                                      "remainder_before": 0, "amount": 185, "remainder_after": 1_750}]
    shown = pm.get(f"/api/slots/progressives/{pid}/").json()
    assert (shown["amount"], shown["remainder"], shown["carried"]) == (200_185, 1_750, "0.1750")
    # when it is hit for the amount it shows
    hit = pm.post(f"/api/slots/progressives/{pid}/hit/", {"machine": mid, "expected_amount": 200_185},
                  format="json")
    # then it paid 2,001.85 and is back at $2,000
    assert hit.status_code == 201, hit.json()
    assert (hit.json()["hit"]["amount"], hit.json()["progressive"]["amount"]) == (200_185, 200_000)
    assert liability(Progressive.objects.get(pk=pid)) == 200_000
    # and the machine page of the API has it all
    detail = pm.get(f"/api/slots/machines/{mid}/").json()
    assert detail["last_reading"]["seq"] == 2
    assert (detail["hold"]["win"], detail["hold"]["hold"], detail["hold"]["hold_percent"]) == (2_345, "469/2469",
                                                                                               "19.00")
    liabilities = pm.get("/api/slots/liabilities/").json()
    assert liabilities["total"] == 200_000
    assert liabilities["progressives"][0]["contributed"] == 185


def test_the_roles_decide_who_reads_and_who_writes(floor):
    m = machine(floor.manager)
    p = progressive(floor.manager, machines_=[m])
    before = _counts()
    reading = {"coin_in": 0, "coin_out": 0, "jackpots": 0, "games_played": 0, "drop": 0}
    writes = [
        ("/api/slots/machines/", {"asset_number": "X", "game": "Y", "denomination": 5}),
        (f"/api/slots/machines/{m.pk}/readings/", reading),
        (f"/api/slots/machines/{m.pk}/change/", {"location": "elsewhere"}),
        (f"/api/slots/progressives/{p.pk}/hit/", {"machine": m.pk}),
        ("/api/slots/bonus-meters/", {"machine": m.pk, "name": "x", "label": "X", "unit": "count",
                                      "reset_value": 0}),
    ]
    # accountants, auditors and dealers may not write
    for user in (floor.accountant, floor.auditor, floor.dealer):
        client = as_user(user)
        for url, body in writes:
            answer = client.post(url, body, format="json")
            assert answer.status_code == 403, (user.username, url)
            assert answer.json()["error"]["code"] in ("permission_denied", "forbidden")
    assert _counts() == before
    # accountants and auditors read; dealers and staff without a role do not
    for user, code in ((floor.accountant, 200), (floor.auditor, 200), (floor.dealer, 403), (floor.nobody, 403),
                       (floor.manager, 200)):
        client = as_user(user)
        for url in ("/api/slots/machines/", "/api/slots/progressives/", "/api/slots/readings/",
                    "/api/slots/bonus-meters/", "/api/slots/hold/", "/api/slots/liabilities/"):
            assert client.get(url).status_code == code, (user.username, url)
    from tests.client import APIClient

    assert APIClient().get("/api/slots/machines/").status_code in (401, 403)
    # admins write
    assert as_user(floor.admin).post(f"/api/slots/machines/{m.pk}/readings/", reading, format="json").status_code == 201


def test_a_retried_reading_is_recorded_once(floor):
    m = machine(floor.manager)
    progressive(floor.manager, machines_=[m])
    read(m, floor.manager, 0)
    pm = as_user(floor.manager)
    body = {"coin_in": 50_000, "coin_out": 40_000, "jackpots": 0, "games_played": 100, "drop": 30_000}
    # when the tablet sends the same reading twice with the same key
    first = pm.post(f"/api/slots/machines/{m.pk}/readings/", body, format="json", HTTP_IDEMPOTENCY_KEY="r-1")
    again = pm.post(f"/api/slots/machines/{m.pk}/readings/", body, format="json", HTTP_IDEMPOTENCY_KEY="r-1")
    # then the answer is replayed and one reading (one posting) exists
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert MeterReading.objects.filter(machine=m).count() == 2
    assert LedgerTransaction.objects.filter(source_type="slot_reading").count() == 1
    # and the same key for another body is refused
    other = pm.post(f"/api/slots/machines/{m.pk}/readings/", {**body, "coin_in": 60_000}, format="json",
                    HTTP_IDEMPOTENCY_KEY="r-1")
    assert (other.status_code, other.json()["error"]["code"]) == (409, "idempotency_key_reused")


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        ({"coin_in": "100"}, 400, "invalid", "coin_in"),
        ({"coin_in": 1.5}, 400, "invalid", "coin_in"),
        ({"coin_in": -1}, 400, "invalid", "coin_in"),
        ({"coin_in": 10**15}, 400, "invalid", "coin_in"),
        ({"drop": None}, 400, "invalid", "drop"),
        ({"read_at": "yesterday"}, 400, "invalid", "read_at"),
        ({"ram_clear": True}, 400, "reason_required", "reason"),
        ({"supervisor": {"username": "pm2", "password": "pass"}}, 400, "supervisor_unexpected", "supervisor"),
        ({"coin_out": 1}, 409, "meter_backwards", "coin_out"),
    ],
)
def test_bad_readings_are_refused_with_a_clear_error_and_nothing_written(floor, body, status, code, field):
    m = machine(floor.manager)
    read(m, floor.manager, 1_000, 500, 0, 10, 800)
    before = _counts()
    reading = {"coin_in": 2_000, "coin_out": 600, "jackpots": 0, "games_played": 20, "drop": 900, **body}
    answer = as_user(floor.manager).post(f"/api/slots/machines/{m.pk}/readings/", reading, format="json")
    assert answer.status_code == status, answer.json()
    error = answer.json()["error"]
    assert (error["code"], error.get("field")) == (code, field)
    assert _counts() == before


def test_unknown_things_are_404(floor):
    pm = as_user(floor.manager)
    reading = {"coin_in": 0, "coin_out": 0, "jackpots": 0, "games_played": 0, "drop": 0}
    assert pm.post("/api/slots/machines/999/readings/", reading, format="json").json()["error"]["code"] == \
        "unknown_machine"
    assert pm.post("/api/slots/machines/abc/readings/", reading, format="json").status_code == 404
    assert pm.post("/api/slots/progressives/999/hit/", {"machine": 1}, format="json").status_code == 404
    assert pm.post("/api/slots/bonus-meters/999/hit/", {}, format="json").status_code == 404
    assert pm.get("/api/slots/machines/999/").status_code == 404
    assert pm.get("/api/slots/reports/nope/").status_code in (403, 404)


def test_bonus_meters_through_the_api(floor):
    m = machine(floor.manager, game="Bank on It!", denomination=25)
    pm = as_user(floor.manager)
    made = pm.post("/api/slots/bonus-meters/", {"machine": m.pk, "name": "piggy_bank", "label": "Piggy Bank",
                                                "unit": "credits", "reset_value": 150}, format="json")
    assert made.status_code == 201, made.json()
    mid = made.json()["id"]
    assert pm.post(f"/api/slots/bonus-meters/{mid}/value/", {"value": 170}, format="json").json()["owed"] == 4_250
    won = pm.post(f"/api/slots/bonus-meters/{mid}/hit/", {"expected_value": 170}, format="json")
    assert won.status_code == 201, won.json()
    assert (won.json()["value"], won.json()["hits"]) == (150, 1)
    assert [e["kind"] for e in won.json()["event_records"]] == ["create", "update", "hit", "reset"]
    down = pm.post(f"/api/slots/bonus-meters/{mid}/value/", {"value": 100}, format="json")
    assert (down.status_code, down.json()["error"]["code"]) == (409, "credits_only_grow")


def test_the_openapi_schema_has_the_slot_endpoints(floor):
    answer = as_user(floor.manager).get("/api/schema/", {"format": "json"})
    assert answer.status_code == 200
    paths = answer.json()["paths"]
    assert "/api/slots/machines/{id}/readings/" in paths
    assert "/api/slots/progressives/{id}/hit/" in paths


def test_the_accountant_exports_each_progressives_liability_and_each_machines_hold(floor):
    # given a Crazy Dragon machine read twice (1,000.00 in, hold 7.00 %) and hit once, and a 25¢ piggy bank
    from slots.services import bonus, progressives

    m = machine(floor.manager, "CD-1", game="Crazy Dragon", denomination=100)
    p = progressive(floor.manager, machines_=[m], bp=150)
    read(m, floor.manager, 0)
    read(m, floor.manager, 100_000, 92_000, 1_000, 300, 80_000)
    progressives.progressive_hit(progressive_id=p.pk, machine_id=m.pk, actor=floor.manager)
    piggy = machine(floor.manager, "BO-1", game="Bank on It!", denomination=25)
    bonus.bonus_meter_create(machine_id=piggy.pk, name="piggy_bank", label="Piggy Bank", unit="credits",
                             reset_value=150, actor=floor.manager)
    accountant = as_user(floor.accountant)
    # when the accountant asks for the liabilities report
    answer = accountant.get("/api/slots/reports/slot_liabilities/")
    # then each progressive and credits meter shows what play contributed, the house funded, was paid and is owed
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    keys = [c["key"] for c in body["columns"]]
    rows = [dict(zip(keys, row)) for row in body["rows"]]
    assert [(r["kind"], r["code"], r["contributed"], r["funded"], r["paid"], r["liability"], r["shown"])
            for r in rows[:2]] == [
        ("Progressive", "crazy-dragon", "15.00", "4000.00", "2015.00", "2000.00", "2000.00"),
        ("Bonus meter", "BO-1", "0.00", "37.50", "0.00", "37.50", "37.50"),  # the meter by its machine, not its code
    ]
    # and the hold report has each machine's win and hold, the CSV streams, and each export is audited
    hold = accountant.get("/api/slots/reports/slot_hold/", {"machine": "CD-1"}).json()
    keys = [c["key"] for c in hold["columns"]]
    row = dict(zip(keys, hold["rows"][0]))
    assert (row["machine"], row["coin_in"], row["win"], row["hold"], row["contributions"]) == (
        "CD-1", "1000.00", "70.00", "7.00", "15.00")
    csv = accountant.get("/api/slots/reports/slot_hold/", {"format": "csv"})
    assert csv.status_code == 200
    assert "CD-1" in b"".join(csv.streaming_content).decode()
    assert AuditRecord.objects.filter(action__contains="export").count() == 3
    # and a pit manager reads the floor but does not export
    assert as_user(floor.manager).get("/api/slots/reports/slot_hold/").status_code == 403
