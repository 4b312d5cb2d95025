"""Every accounting model in the admin: listed, filtered and searched; never added, changed or deleted."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import Client

from accounting.models import Marker, Slip
from accounting.services import slips

ACCOUNTING_MODELS = ["account", "ledgertransaction", "entry", "chipset", "inventorycount", "dropcount",
                     "serialcounter", "slip", "marker", "markerpayment", "markerwriteoff", "tableshiftclose", "shiftreconciliation",
                     "reconciliation", "alert", "reportexport", "houseedgecache", "creditline"]


@pytest.fixture
def admin_client(floor):
    floor.admin.is_staff = floor.admin.is_superuser = True
    floor.admin.save(update_fields=["is_staff", "is_superuser"])
    client = Client()
    client.force_login(floor.admin)
    return client


def test_every_accounting_model_is_in_the_admin():
    registered = {m._meta.model_name for m in admin.site._registry if m._meta.app_label == "accounting"}
    assert registered == set(ACCOUNTING_MODELS)


@pytest.mark.parametrize("name", ACCOUNTING_MODELS)
def test_each_is_listed_filtered_and_searched_never_added(floor, admin_client, name):
    # when the admin lists, searches and adds
    listed = admin_client.get(f"/admin/accounting/{name}/")
    searched = admin_client.get(f"/admin/accounting/{name}/", {"q": "BAC1"})
    added = admin_client.get(f"/admin/accounting/{name}/add/")
    # then the list and the search answer, the add is refused
    assert (listed.status_code, searched.status_code, added.status_code) == (200, 200, 403)


def test_a_slip_is_looked_at_never_changed_or_deleted(floor, admin_client):
    # given a fill slip and a marker
    slip = slips.slip_request(actor=floor.manager, kind="fill", table_id=floor.table.pk, shift_id=floor.shift.pk,
                              chips={"2500": 4})
    marker = slips.marker_issue(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk,
                                player="Ms Lee", amount=10_000, supervisor={"username": "pm"},
                                dealer={"username": "dealer", "password": "pass"})
    # when the admin filters, opens, then tries to change and to delete them
    filtered = admin_client.get("/admin/accounting/slip/", {"status__exact": "requested", "kind__exact": "fill"})
    opened = admin_client.get(f"/admin/accounting/slip/{slip.pk}/change/")
    changed = admin_client.post(f"/admin/accounting/slip/{slip.pk}/change/", {"total": 1, "status": "received"})
    deleted = admin_client.post(f"/admin/accounting/marker/{marker.pk}/delete/", {"post": "yes"})
    # then the records are shown and stay exactly as they were
    assert filtered.status_code == 200
    assert slip.reference.encode() in filtered.content
    assert opened.status_code == 200
    assert b'name="_save"' not in opened.content
    assert (changed.status_code, deleted.status_code) == (403, 403)
    kept = Slip.objects.get(pk=slip.pk)
    assert (kept.total, kept.status) == (10_000, "requested")
    assert Marker.objects.filter(pk=marker.pk).exists()
