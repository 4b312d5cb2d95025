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


def test_the_whole_floor_reads_the_same_statements_whatever_the_history_and_shows_the_selectors_figures(floor):
    from django.conf import settings

    from floor.views import _floor
    from tables.services import rounds

    def read() -> tuple[int, dict]:
        floor.admin.__dict__.pop("_croupier_roles", None)  # every refresh is a new request
        with CaptureQueriesContext(connection) as queries:
            found = _floor(floor.admin)
        return len(queries), found

    # given a floor with one settled round
    play_round(floor.table, floor.dealer, [(1, "player", 1000)], BANKER_WINS)
    first, _ = read()
    # when more rounds settle at both tables, one with a big bet, and a round is in play at the other
    big = settings.CROUPIER["LARGE_BET"]
    for _ in range(3):
        play_round(floor.table, floor.dealer, [(1, "banker", big), (2, "player", 1000)], BANKER_WINS)
    play_round(floor.other_table, floor.other_dealer, [(1, "player", 1000)], BANKER_WINS)
    live = rounds.round_open(table_id=floor.other_table.pk, actor=floor.other_dealer)
    then, found = read()
    # then the floor asked the database exactly as many times as before, a handful whatever the history
    assert then == first <= 14
    # and it shows each table's figures as the selector reads them, the round in play, and the big bets
    rows = {row.table.pk: row for row in found["rows"]}
    for table in (floor.table, floor.other_table):
        assert rows[table.pk].figures.as_dict() == table_shift_figures(table, floor.shift).as_dict()
    assert rows[floor.other_table.pk].live.pk == live.pk
    assert [r.pk for r in rows[floor.other_table.pk].figures.live_rounds] == [live.pk]
    assert rows[floor.table.pk].live is None
    assert rows[floor.table.pk].figures.live_rounds == []
    assert [b.amount for b in found["big_bets"]] == [big] * 3
    assert all(b.round.table.code == floor.table.code for b in found["big_bets"])
