"""The admin cannot go around the services (issue: "Django admin edits skip the services' checks")."""

from __future__ import annotations

import pytest
from django.test import Client

from casino.audit.models import AuditRecord
from tables.models import Pit, Table
from tables.services import rounds


@pytest.fixture
def admin_client(floor):
    floor.admin.is_staff = floor.admin.is_superuser = True
    floor.admin.save(update_fields=["is_staff", "is_superuser"])
    client = Client()
    client.force_login(floor.admin)
    return client


def test_an_admin_cannot_change_a_tables_rules_during_a_live_round(floor, admin_client):
    # given a live round at BAC1
    rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    url = f"/admin/tables/table/{floor.table.pk}/change/"
    # when the admin posts a new config and limits through the admin
    answer = admin_client.post(url, {"code": "BAC1", "name": "x", "pit": floor.pit.pk, "game": "baccarat",
                                     "config": '{"decks": 1}', "min_bet": 1, "max_bet": 2, "seats": 7,
                                     "status": "open"})
    # then refused: the table is as it was (its rules change through the API's service, between rounds)
    assert answer.status_code == 403
    table = Table.objects.get(pk=floor.table.pk)
    assert (table.config, table.min_bet, table.max_bet, table.name) == ({}, 500, 500_000, floor.table.name)
    assert admin_client.get(url).status_code == 200  # it can still be looked at


@pytest.mark.parametrize("path", ["tables/round", "tables/shift", "tables/assignment", "accounting/slip",
                                  "accounting/marker", "accounting/entry", "accounting/alert"])
def test_floor_and_accounting_records_are_read_only_in_the_admin(floor, admin_client, path):
    assert admin_client.get(f"/admin/{path}/").status_code == 200
    assert admin_client.get(f"/admin/{path}/add/").status_code == 403


def test_a_pits_managers_changed_in_the_admin_are_audited_before_and_after(floor, admin_client):
    answer = admin_client.post(f"/admin/tables/pit/{floor.pit.pk}/change/",
                               {"managers": [floor.manager.pk, floor.other_manager.pk]})
    assert answer.status_code == 302
    record = AuditRecord.objects.get(action="admin.pit.change")
    assert (record.actor_username, record.before["managers"], record.after["managers"]) == (
        "admin", [floor.manager.pk], sorted([floor.manager.pk, floor.other_manager.pk]))
    assert Pit.objects.get(pk=floor.pit.pk).name == "Main pit"  # code and name are not editable here
