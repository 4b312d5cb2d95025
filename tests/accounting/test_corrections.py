"""Corrections with authority (docs/accounting.md, "Corrections"): an empty closer is taken only with an
explicit "the tray is empty" confirmation, and that confirmation only with no chip; refused in words,
nothing written."""

from __future__ import annotations

import pytest

from accounting.models import CountKind, InventoryCount
from accounting.services import counts
from casino.audit.models import AuditRecord
from casino.errors import InvalidInput
from tests.accounting.helpers import sig
from tests.accounting.test_worked_shift import OPENER, count
from tests.fixtures import as_user

pytestmark = pytest.mark.django_db


def closer(floor, chips, **extra):
    return counts.inventory_count_record(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk,
                                         kind=CountKind.CLOSER, chips=chips, dealer=sig(floor.dealer),
                                         supervisor=sig(floor.manager), **extra)


def test_an_empty_closer_needs_the_tray_is_empty_confirmation(floor):
    count(floor, CountKind.OPENER, OPENER)
    # when an empty grid is sent, or chips said to be an empty tray
    for chips, extra, code in (({}, {}, "empty_tray_unconfirmed"), ({"2500": 0}, {}, "empty_tray_unconfirmed"),
                               ({"2500": 1}, {"tray_empty": True}, "tray_not_empty")):
        with pytest.raises(InvalidInput) as refused:
            closer(floor, chips, **extra)
        assert refused.value.code == code
    # then nothing is written
    assert not InventoryCount.objects.filter(kind=CountKind.CLOSER).exists()
    # and with the confirmation the empty closer is recorded, and its audit record says so
    empty = closer(floor, {}, tray_empty=True)
    assert (empty.total, empty.chips) == (0, {})
    assert AuditRecord.objects.get(action="count.closer", object_id=str(empty.pk)).after["tray_empty"] is True


def test_the_api_refuses_an_unconfirmed_empty_closer_in_words(floor):
    count(floor, CountKind.OPENER, OPENER)
    api = as_user(floor.manager)
    body = {"table": floor.table.pk, "shift": floor.shift.pk, "kind": "closer", "chips": {},
            "dealer": sig(floor.dealer), "supervisor": {"username": "pm"}}
    refused = api.post("/api/accounting/counts/", body, format="json")
    assert refused.status_code == 400
    assert (refused.json()["error"]["code"], refused.json()["error"]["field"]) == ("empty_tray_unconfirmed", "chips")
    assert api.post("/api/accounting/counts/", {**body, "tray_empty": True}, format="json").status_code == 201
