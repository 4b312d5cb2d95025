"""Roles decide access: each permission, and each denial (403 / 401)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from tables.models import Assignment, Round
from tests.fixtures import as_user
from tests.tables.helpers import counts, open_round


def test_anonymous_is_refused(floor, api):
    assert api.get("/api/rounds/").status_code in (401, 403)
    assert api.post("/api/rounds/", {"table": floor.table.pk}, format="json").status_code in (401, 403)


@pytest.mark.parametrize("who", ["accountant", "auditor", "nobody"])
def test_only_dealers_and_managers_open_rounds(floor, who):
    before = counts()
    response = as_user(getattr(floor, who)).post("/api/rounds/", {"table": floor.table.pk}, format="json")
    assert response.status_code == 403
    assert counts() == before


def test_pit_manager_runs_only_their_pits(floor):
    manager = as_user(floor.manager)
    assert manager.post("/api/rounds/", {"table": floor.table.pk}, format="json").status_code == 201
    response = manager.post("/api/rounds/", {"table": floor.other_table.pk}, format="json")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "role_required"


def test_dealer_outside_their_assignment_is_refused(floor, dealer_api):
    # given the dealer's assignment ended an hour ago
    Assignment.objects.filter(dealer=floor.dealer).update(ends_at=timezone.now() - dt.timedelta(minutes=1),
                                                          starts_at=timezone.now() - dt.timedelta(hours=2))
    response = dealer_api.post("/api/rounds/", {"table": floor.table.pk}, format="json")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "not_assigned"
    assert Round.objects.count() == 0


def test_relieved_dealer_is_refused_mid_round(floor, dealer_api, manager_api):
    rnd = open_round(dealer_api, floor.table)
    assignment = Assignment.objects.get(dealer=floor.dealer)
    assert manager_api.post(f"/api/assignments/{assignment.pk}/relieve/").status_code == 200
    response = dealer_api.post(f"/api/rounds/{rnd['id']}/close-betting/")
    assert response.status_code == 403


def test_round_visibility(floor, dealer_api):
    mine = open_round(dealer_api, floor.table)
    theirs = open_round(as_user(floor.other_dealer), floor.other_table)
    listed = {r["id"] for r in dealer_api.get("/api/rounds/").json()["results"]}
    assert listed == {mine["id"]}
    assert dealer_api.get(f"/api/rounds/{theirs['id']}/").status_code == 404
    for who in ("accountant", "auditor", "admin"):
        everything = {r["id"] for r in as_user(getattr(floor, who)).get("/api/rounds/").json()["results"]}
        assert everything == {mine["id"], theirs["id"]}
    other_pm = {r["id"] for r in as_user(floor.other_manager).get("/api/rounds/").json()["results"]}
    assert other_pm == {theirs["id"]}


def test_void_needs_a_reason_and_another_supervisor(floor, dealer_api, manager_api):
    rnd = open_round(dealer_api, floor.table)
    url = f"/api/rounds/{rnd['id']}"
    assert dealer_api.post(f"{url}/void/", {"reason": ""}, format="json").status_code == 400
    assert dealer_api.post(f"{url}/void/", {"reason": "card exposed in the shuffle"}, format="json").status_code == 200
    # the dealer cannot approve, nor can a manager of another pit
    assert dealer_api.post(f"{url}/void/approve/").status_code == 403
    assert as_user(floor.other_manager).post(f"{url}/void/approve/").status_code == 403
    approved = manager_api.post(f"{url}/void/approve/")
    assert approved.status_code == 200
    assert approved.json()["status"] == "voided"
    assert approved.json()["void_reason"] == "card exposed in the shuffle"


def test_manager_cannot_approve_their_own_void(floor, manager_api):
    rnd = open_round(manager_api, floor.table)
    url = f"/api/rounds/{rnd['id']}"
    manager_api.post(f"{url}/void/", {"reason": "misdeal"}, format="json")
    response = manager_api.post(f"{url}/void/approve/")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "same_person"


def test_table_limits_change_by_its_pit_manager_only(floor, manager_api, dealer_api):
    url = f"/api/tables/{floor.table.pk}/"
    assert dealer_api.patch(url, {"max_bet": 100_000}, format="json").status_code == 403
    assert as_user(floor.accountant).patch(url, {"max_bet": 100_000}, format="json").status_code == 403
    assert as_user(floor.other_manager).patch(url, {"max_bet": 100_000}, format="json").status_code in (403, 404)
    response = manager_api.patch(url, {"max_bet": 100_000}, format="json")
    assert response.status_code == 200
    assert response.json()["max_bet"] == 100_000
    assert manager_api.patch(url, {"max_bet": 10}, format="json").status_code == 400  # below the minimum
    assert manager_api.patch(url, {"config": {"decks": 99}}, format="json").status_code == 400


def test_accountant_and_auditor_read_but_do_not_write(floor):
    for who in ("accountant", "auditor"):
        client = as_user(getattr(floor, who))
        assert client.get("/api/games/").status_code == 200
        assert client.post("/api/shifts/", {"shift_type": 1, "gaming_date": "2026-01-01"},
                           format="json").status_code == 403


def test_dealer_cannot_assign_or_open_shifts(floor, dealer_api):
    body = {"dealer": floor.dealer.pk, "table": floor.table.pk, "shift": floor.shift.pk}
    assert dealer_api.post("/api/assignments/", body, format="json").status_code == 403
    assert dealer_api.post("/api/shifts/", {"shift_type": floor.shift.shift_type_id, "gaming_date": "2030-01-01"},
                           format="json").status_code == 403


def test_manager_assigns_a_dealer_once(floor, manager_api):
    body = {"dealer": floor.other_dealer.pk, "table": floor.table.pk, "shift": floor.shift.pk}
    response = manager_api.post("/api/assignments/", body, format="json")
    assert response.status_code == 409  # already dealing BAC2 for the whole shift
    assert response.json()["error"]["code"] == "dealer_busy"
