"""The pit dashboard's batched figures (one query per kind of record) equal the per-table ones."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounting.selectors import table_shift_figures, table_shift_figures_many
from tests.accounting.helpers import BANKER_WINS, play_round
from tests.accounting.test_worked_shift import work_the_shift


def test_batched_figures_equal_per_table_figures_in_a_fixed_number_of_queries(floor):
    # given a worked shift at BAC1 (counts, fill, credit, marker, rounds) and a round at BAC2
    work_the_shift(floor)
    play_round(floor.other_table, floor.other_dealer, [(1, "player", 1000)], BANKER_WINS)
    tables = [floor.table, floor.other_table]
    # when the figures are read for both tables at once
    with CaptureQueriesContext(connection) as queries:
        many = table_shift_figures_many(tables, floor.shift)
    # then each equals what the per-table selector reads, and the query count does not grow with tables
    for table in tables:
        assert many[table.pk].as_dict() == table_shift_figures(table, floor.shift).as_dict()
    assert len(queries) <= 10
