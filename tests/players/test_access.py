"""Roles: dealers rate only at their table during their assignment; only compliance reads the cash log."""

from __future__ import annotations

import pytest
from django.utils import timezone

from casino.audit.models import AuditRecord
from casino.errors import Forbidden
from players.models import CashTransaction, RatingSlip, SlipStatus
from players.services import cash, slips
from tables.models import Assignment
from tests.fixtures import as_user
from tests.players.helpers import compliance_user, make_player

SLIPS = "/api/rating-slips/"


def test_a_dealer_opens_and_closes_slips_at_their_own_table(floor, dealer_api):
    opened = dealer_api.post(SLIPS, {"table": floor.table.pk, "seat": 4}, format="json")
    assert opened.status_code == 201
    closed = dealer_api.post(f"{SLIPS}{opened.json()['id']}/close/", {}, format="json")
    assert (closed.status_code, closed.json()["status"]) == (200, "closed")


def test_a_dealer_cannot_open_a_slip_at_another_table(floor, dealer_api):
    response = dealer_api.post(SLIPS, {"table": floor.other_table.pk, "seat": 1}, format="json")
    assert (response.status_code, response.json()["error"]["code"]) == (403, "not_assigned")
    assert RatingSlip.objects.count() == 0


def test_a_dealer_cannot_close_pause_or_buy_in_on_a_slip_at_another_table(floor, dealer_api):
    # given a slip at BAC2, opened by its own dealer
    slip = slips.slip_open(actor=floor.other_dealer, table_id=floor.other_table.pk, seat=1)
    audits = AuditRecord.objects.count()
    # when BAC1's dealer tries to act on it
    for verb, body in (("close", {}), ("pause", {}), ("buy-ins/", {"method": "cash", "amount": 500})):
        response = dealer_api.post(f"{SLIPS}{slip.pk}/{verb.rstrip('/')}/", body, format="json")
        assert response.status_code == 403, (verb, response.json())
    # then nothing changed
    assert RatingSlip.objects.get(pk=slip.pk).status == SlipStatus.OPEN
    assert CashTransaction.objects.count() == 0
    assert AuditRecord.objects.count() == audits
    # nor may they read it
    assert dealer_api.get(f"{SLIPS}{slip.pk}/").status_code == 403
    assert dealer_api.get(SLIPS).json()["results"] == []


def test_a_relieved_dealer_can_no_longer_close_their_tables_slip(floor, dealer_api):
    slip = slips.slip_open(actor=floor.dealer, table_id=floor.table.pk, seat=2)
    Assignment.objects.filter(dealer=floor.dealer).update(relieved_at=timezone.now())
    response = dealer_api.post(f"{SLIPS}{slip.pk}/close/", {}, format="json")
    assert response.status_code == 403
    assert RatingSlip.objects.get(pk=slip.pk).status == SlipStatus.OPEN
    # the pit manager closes it
    assert as_user(floor.manager).post(f"{SLIPS}{slip.pk}/close/", {}, format="json").status_code == 200


@pytest.mark.parametrize("who", ["other_manager", "accountant", "auditor", "nobody"])
def test_others_may_not_open_slips_at_bac1(floor, who):
    with pytest.raises(Forbidden):
        slips.slip_open(actor=getattr(floor, who), table_id=floor.table.pk, seat=1)
    response = as_user(getattr(floor, who)).post(SLIPS, {"table": floor.table.pk, "seat": 1}, format="json")
    assert response.status_code == 403
    assert RatingSlip.objects.count() == 0


def test_compliance_may_not_open_slips(floor):
    response = as_user(compliance_user()).post(SLIPS, {"table": floor.table.pk, "seat": 1}, format="json")
    assert response.status_code == 403
    assert RatingSlip.objects.count() == 0


@pytest.mark.parametrize(
    "url",
    [
        "/api/cash-transactions/",
        "/api/cash-reports/",
        "/api/cash-transactions/daily/?gaming_date=2025-01-01",
        "/api/players/reports/cash_transactions/?format=csv",
        "/api/players/reports/cash_reports/",
    ],
)
@pytest.mark.parametrize("who", ["dealer", "manager", "accountant", "auditor", "nobody"])
def test_only_compliance_reads_the_cash_transaction_log(floor, url, who):
    # given a transaction in the log
    player = make_player(floor)
    cash.cash_transaction_record(actor=floor.manager, kind="front_money_deposit", amount=5000, player_id=player.pk)
    exports = AuditRecord.objects.filter(action="export").count()
    # when anyone but compliance asks for the log, its report lines or their exports
    response = as_user(getattr(floor, who)).get(url)
    # then 403 and no export recorded
    assert response.status_code == 403
    assert AuditRecord.objects.filter(action="export").count() == exports


@pytest.mark.parametrize(
    "url", ["/api/cash-transactions/", "/api/cash-reports/", "/api/players/reports/cash_transactions/?format=csv"]
)
@pytest.mark.parametrize("who", ["compliance", "admin"])
def test_compliance_and_admins_read_the_cash_transaction_log(floor, url, who):
    user = compliance_user() if who == "compliance" else floor.admin
    assert as_user(user).get(url).status_code == 200


@pytest.mark.parametrize(
    ("who", "status"), [("dealer", 403), ("auditor", 403), ("manager", 403), ("accountant", 200), ("admin", 200)]
)
def test_ratings_exports_are_for_accountants(floor, who, status):
    assert as_user(getattr(floor, who)).get("/api/players/reports/ratings/?format=json").status_code == status


@pytest.mark.parametrize(
    ("who", "status"), [("dealer", 403), ("accountant", 403), ("auditor", 403), ("nobody", 403), ("manager", 201)]
)
def test_players_are_created_by_pit_managers(floor, who, status):
    response = as_user(getattr(floor, who)).post("/api/players/", {"last_name": "Turing"}, format="json")
    assert response.status_code == status


def test_compliance_pages_are_for_compliance(floor):
    from django.test import Client

    web = Client()
    web.force_login(floor.manager)
    assert web.get("/players/compliance/").status_code == 403
    assert web.get("/players/").status_code == 200
    web.force_login(compliance_user())
    assert web.get("/players/compliance/").status_code == 200
