"""Every accounting read limited to the reader's pits, detail views included (issue: "a pit manager reads
GET /api/accounting/reconciliations/{id}/ with every table of the shift, including other pits'")."""

from __future__ import annotations

from accounting.models import ShiftReconciliation
from accounting.services import counts, reconcile, slips
from tests.accounting.helpers import BANKER_WINS, play_round
from tests.accounting.test_worked_shift import work_the_shift
from tests.fixtures import as_user

URL = "/api/accounting"


def test_the_other_pits_tables_are_not_in_a_pit_managers_reconciliation(floor):
    # given a shift reconciled with BAC1 (main pit: a variance) and BAC2 (the salon: a round, no counts)
    work_the_shift(floor)
    play_round(floor.other_table, floor.other_dealer, [(1, "player", 1000)], BANKER_WINS)
    run = reconcile.reconcile_shift(shift_id=floor.shift.pk, force_open=True)
    assert (run.tables, run.rounds) == (2, 3)
    # when the main pit's manager reads it, in the list and in the detail
    detail = as_user(floor.manager).get(f"{URL}/reconciliations/{run.pk}/").json()
    listed = as_user(floor.manager).get(f"{URL}/reconciliations/").json()["results"][0]
    # then only BAC1, and the totals over BAC1
    for body in (detail, listed):
        assert [t["table"] for t in body["tables_results"]] == ["BAC1"]
        assert (body["tables"], body["rounds"], body["causes"], body["status"]) == (1, 2, 1, "variance")
    # the salon's manager sees BAC2 only; the accountant the whole shift as stored
    salon = as_user(floor.other_manager).get(f"{URL}/reconciliations/{run.pk}/").json()
    assert [t["table"] for t in salon["tables_results"]] == ["BAC2"]
    whole = as_user(floor.accountant).get(f"{URL}/reconciliations/{run.pk}/").json()
    assert [t["table"] for t in whole["tables_results"]] == ["BAC1", "BAC2"]
    stored = ShiftReconciliation.objects.get(pk=run.pk)
    assert (whole["tables"], whole["rounds"], whole["causes"]) == (stored.tables, stored.rounds, stored.causes)


def test_slip_numbers_and_chip_sets_of_another_pit_are_not_listed(floor):
    slip = slips.slip_request(actor=floor.manager, kind="fill", table_id=floor.table.pk, shift_id=floor.shift.pk,
                              chips={"2500": 4})
    slips.slip_void_request(actor=floor.manager, slip_id=slip.pk, reason="keyed the wrong table")
    slips.slip_void_approve(actor=floor.accountant, slip_id=slip.pk)
    counts.denominations_set(actor=floor.manager, table_id=floor.table.pk, denominations=[500, 2500])
    salon = as_user(floor.other_manager)
    numbers = salon.get(f"{URL}/slips/numbers/", {"kind": "fill"}).json()
    assert (numbers["voided"], numbers["gaps"], numbers["last_number"]) == ([], [], 1)
    assert as_user(floor.manager).get(f"{URL}/slips/numbers/", {"kind": "fill"}).json()["voided"] == [
        {"number": 1, "reason": "keyed the wrong table", "table": "BAC1"}]
    assert salon.get(f"{URL}/chip-sets/").json()["results"] == []
    assert salon.get(f"{URL}/chip-sets/effective/", {"table": floor.table.pk}).status_code == 404
    assert [c["table"] for c in as_user(floor.manager).get(f"{URL}/chip-sets/").json()["results"]] == ["BAC1"]
