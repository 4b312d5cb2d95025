"""The running figures (accounting.models.TableFigures): kept by the services in their own transaction,
equal to the records' recomputation after any mix of rounds, voids, bets taken back, fills, credits,
markers and counts; a rollback leaves them as they were; two tables never wait for each other; the
nightly check, the close and the reconciliation name any difference in an alert."""

from __future__ import annotations

import random
from typing import Any

import psycopg
import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounting import figures
from accounting.models import Alert, CountKind, Reconciliation, TableFigures, TableShiftClose
from accounting.selectors import table_shift_figures, table_shift_figures_many
from accounting.services import counts, reconcile, running, shifts, slips
from accounting.tasks import check_running_figures
from casino.audit.models import AuditRecord
from floor import selectors as dashboard
from tables import listeners
from tables.models import Bet, Round, RoundStatus, Settlement, Table
from tables.services import rounds
from tests.accounting.helpers import BANKER_WINS, play_round, random_baccarat_document, sig, staff
from tests.dbbackend.base import privileged_conninfo
from tests.tamper import as_owner, as_service

BIG = 500_000  # CROUPIER["LARGE_BET"] (the default): the table's maximum, so a big bet is placeable
RUNNING_ROW = "UPDATE accounting_tablefigures SET handle = handle + 100 WHERE table_id = %s AND shift_id = %s"


class Rollback(Exception):
    """Raised to undo one generated example (a savepoint inside the test's transaction)."""


def count(floor: Any, table: Table, dealer: Any, kind: str, chips: dict[str, int]) -> Any:
    return counts.inventory_count_record(actor=floor.manager if table == floor.table else floor.other_manager,
                                         table_id=table.pk, shift_id=floor.shift.pk, kind=kind, chips=chips,
                                         dealer=sig(dealer), supervisor=sig(_manager(floor, table)))


def _manager(floor: Any, table: Table) -> Any:
    return floor.manager if table == floor.table else floor.other_manager


def _dealer(floor: Any, table: Table) -> Any:
    return floor.dealer if table == floor.table else floor.other_dealer


def slip(floor: Any, people: Any, table: Table, kind: str, chips: dict[str, int], *, void: bool) -> None:
    manager, dealer = _manager(floor, table), _dealer(floor, table)
    s = slips.slip_request(actor=manager, kind=kind, table_id=table.pk, shift_id=floor.shift.pk, chips=chips)
    cage, table_side = sig(people.cashier), sig(dealer)
    slips.slip_issue(actor=manager, slip_id=s.pk, signer=cage if kind == "fill" else table_side)
    slips.slip_receive(actor=manager, slip_id=s.pk, signer=table_side if kind == "fill" else cage)
    if void:  # a received slip voided: its posting reversed, its figure taken off again
        slips.slip_void_request(actor=manager, slip_id=s.pk, reason="keyed on the wrong table")
        slips.slip_void_approve(actor=floor.accountant, slip_id=s.pk)


def a_round(table: Table, dealer: Any, seed: int, big: bool) -> None:
    """A random baccarat round from a seeded shoe, played through the services; one big bet if ``big``."""
    dealt = random_baccarat_document(random.Random(seed))
    if big:  # the amounts change no card: the round plays the same
        dealt["doc"]["bets"][0]["amount"] = BIG
    rnd = rounds.round_open(table_id=table.pk, actor=dealer)
    for bet in dealt["doc"]["bets"]:
        rounds.bet_place(round_id=rnd.pk, actor=dealer, seat=bet["seat"], type=bet["type"], amount=bet["amount"])
    rounds.betting_close(round_id=rnd.pk, actor=dealer)
    for event in dealt["doc"]["events"]:
        rounds.event_post(round_id=rnd.pk, actor=dealer, event=event)
    rounds.round_settle(round_id=rnd.pk, actor=dealer)


def a_void(floor: Any, table: Table, big: bool, take_back: bool) -> None:
    """A round with a bet (big or not, perhaps taken back first) voided with a pit manager's approval."""
    dealer = _dealer(floor, table)
    rnd = rounds.round_open(table_id=table.pk, actor=dealer)
    bet = rounds.bet_place(round_id=rnd.pk, actor=dealer, seat=1, type="banker", amount=BIG if big else 1_000)
    if take_back:
        rounds.bet_withdraw(round_id=rnd.pk, actor=dealer, bet_id=bet.client_id, reason="entered by mistake")
        rounds.bet_place(round_id=rnd.pk, actor=dealer, seat=2, type="player", amount=2_000)
    rounds.round_void_request(round_id=rnd.pk, actor=dealer, reason="misdeal")
    rounds.round_void_approve(round_id=rnd.pk, actor=_manager(floor, table))


OPS = st.lists(
    st.one_of(
        st.tuples(st.just("round"), st.integers(0, 1), st.integers(0, 10_000), st.booleans()),
        st.tuples(st.just("void"), st.integers(0, 1), st.booleans(), st.booleans()),
        st.tuples(st.just("fill"), st.integers(0, 1), st.integers(1, 20), st.booleans()),
        st.tuples(st.just("credit"), st.integers(0, 1), st.integers(1, 5), st.booleans()),
        st.tuples(st.just("marker"), st.integers(0, 1), st.integers(1, 40), st.booleans()),
        st.tuples(st.just("count"), st.integers(0, 1), st.integers(1, 60), st.just(False)),
    ),
    min_size=1,
    max_size=10,
)


def records_sql_rows(shift_id: int) -> dict[int, dict[str, Any]]:
    """The set-based rebuild's rows for one shift (its SELECT alone: the running rows already exist)."""
    sql = figures.running_from_records_sql(connection.vendor, shifts=f"{{col}} = {int(shift_id)}", insert=False)
    with connection.cursor() as cursor:
        cursor.execute(sql, [figures.big_bet_threshold()])
        names = [c.name for c in cursor.description]
        return {row[0]: dict(zip(names[2:], row[2:])) for row in cursor.fetchall()}


@pytest.mark.django_db
@settings(max_examples=12, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ops=OPS)
def test_running_figures_equal_the_records_after_any_mix(floor, ops):
    # given both tables of the floor and a random mix of rounds (some with a big bet), voided rounds (some
    # with a big bet, some with a bet taken back), fills and credits (some voided once received), markers
    # (some paid back in chips at the table) and the counts in order (opener, closer, soft count)
    tables = [floor.table, floor.other_table]
    try:
        with transaction.atomic():
            people = staff(floor)
            counted = {t.pk: 0 for t in tables}
            for op, which, value, flag in ops:
                table = tables[which]
                dealer, manager = _dealer(floor, table), _manager(floor, table)
                if op == "round":
                    a_round(table, dealer, value, flag)
                elif op == "void":
                    a_void(floor, table, bool(value), flag)
                elif op in ("fill", "credit"):
                    slip(floor, people, table, op, {"2500": value}, void=flag)
                elif op == "marker":
                    marker = slips.marker_issue(actor=manager, table_id=table.pk, shift_id=floor.shift.pk,
                                                player="A. Player", amount=value * 1_000,
                                                supervisor=sig(manager), dealer=sig(dealer))
                    if flag:
                        slips.marker_pay(actor=manager, marker_id=marker.pk, amount=value * 500, at_table=True,
                                         signer=sig(dealer))
                elif op == "count" and counted[table.pk] < 3:
                    step = counted[table.pk]
                    if step < 2:
                        count(floor, table, dealer, (CountKind.OPENER, CountKind.CLOSER)[step], {"500": value * 10})
                    else:
                        counts.drop_count_record(actor=people.counter, table_id=table.pk, shift_id=floor.shift.pk,
                                                 cash=value * 1_000, chips=0, markers=0,
                                                 counter_one=sig(people.counter), counter_two=sig(people.counter2))
                    counted[table.pk] += 1

            # when the figures are read from the running rows and recomputed from the records
            kept = table_shift_figures_many(tables, floor.shift)
            recomputed = table_shift_figures_many(tables, floor.shift, recompute=True)
            rebuilt = records_sql_rows(floor.shift.pk)

            # then every figure of both tables is the same three ways, and the check finds no difference
            for table in tables:
                assert kept[table.pk].running() == recomputed[table.pk].running(), table.code
                assert kept[table.pk].count_win == recomputed[table.pk].count_win
                assert kept[table.pk].hold == recomputed[table.pk].hold
                assert kept[table.pk].statistical_hold == recomputed[table.pk].statistical_hold
                if table.pk in rebuilt:
                    assert rebuilt[table.pk] == recomputed[table.pk].running(), table.code
                else:  # no record at all: a table with no row has every figure at 0
                    assert recomputed[table.pk].running() == {**dict.fromkeys(figures.RUNNING_SUMS, 0),
                                                              **dict.fromkeys(figures.RUNNING_COUNTS)}
            assert running.differences(floor.shift) == []
            # and the big bets are what the dashboard lists (placed, not taken back, voided rounds' too)
            big = figures.big_bets_of(Bet.objects.filter(round__shift=floor.shift))
            assert sum(kept[t.pk].big_bets for t in tables) == big.count()
            listed = dashboard.big_bets(tables, floor.shift, limit=1_000)
            assert [b.pk for b in listed] == list(big.order_by("-placed_at", "-id").values_list("pk", flat=True))
            # and the hours of the win-by-hour chart add up to the shift's rounds
            by_hour = dashboard.win_by_hour(tables, floor.shift)
            assert sum(h["rounds"] for h in by_hour) == sum(kept[t.pk].rounds for t in tables)
            assert sum(h["win"] for h in by_hour) == sum(kept[t.pk].rounds_win for t in tables)
            raise Rollback
    except Rollback:
        pass


def test_a_settlement_rolled_back_leaves_the_figures_unchanged(floor, monkeypatch):
    # given a settled round at BAC1, and a second round dealt to the end
    play_round(floor.table, floor.dealer, [(1, "banker", 2_500)], BANKER_WINS)
    before = table_shift_figures(floor.table, floor.shift).running()
    rnd = rounds.round_open(table_id=floor.table.pk, actor=floor.dealer)
    rounds.bet_place(round_id=rnd.pk, actor=floor.dealer, seat=1, type="player", amount=BIG)
    rounds.betting_close(round_id=rnd.pk, actor=floor.dealer)
    for card in BANKER_WINS:
        rounds.event_post(round_id=rnd.pk, actor=floor.dealer, event={"card": card})
    after_bets = table_shift_figures(floor.table, floor.shift).running()
    assert after_bets == {**before, "big_bets": before["big_bets"] + 1}

    # when its settlement fails after the figures were added (a listener after them raises)
    def fails(*, settlement: Any) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(listeners, "_settled", [*listeners._settled, fails])
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            rounds.round_settle(round_id=rnd.pk, actor=floor.dealer)

    # then nothing of it is left: no settlement, the round still dealing, the figures as they were
    assert not Settlement.objects.filter(round=rnd).exists()
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.DEALING
    assert table_shift_figures(floor.table, floor.shift).running() == after_bets
    assert TableFigures.objects.get(table=floor.table, shift=floor.shift).rounds == 1


@pytest.mark.django_db(transaction=True)
def test_two_tables_never_wait_and_one_table_adds_up(floor):
    # given the statement every settlement runs, on two connections of the service role of their own
    sql = running._upsert_sql("postgresql")
    part = [0] * len(figures.RUNNING_SUMS) + [None] * len(figures.RUNNING_COUNTS)
    part[figures.RUNNING_SUMS.index("rounds")] = 1
    part[figures.RUNNING_SUMS.index("handle")] = 1_000
    sd = connection.settings_dict
    conninfo = {**privileged_conninfo(sd, sd["NAME"]), "user": sd["USER"]}
    with psycopg.connect(**conninfo) as one, psycopg.connect(**conninfo) as two:
        # when the first settles at BAC1 and has not committed yet
        one.execute(sql, [floor.table.pk, floor.shift.pk, *part])
        # then a settlement at BAC2 goes through at once (a lock on BAC1's row only)
        two.execute("SET lock_timeout = '2s'")
        two.execute(sql, [floor.other_table.pk, floor.shift.pk, *part])
        two.commit()
        # and one at BAC1 waits for the first: refused after the timeout, then added once the first commits
        with pytest.raises(psycopg.errors.LockNotAvailable):
            two.execute(sql, [floor.table.pk, floor.shift.pk, *part])
        two.rollback()
        one.commit()
        two.execute(sql, [floor.table.pk, floor.shift.pk, *part])
        two.commit()
    rows = {r.table_id: (r.rounds, r.handle) for r in TableFigures.objects.filter(shift=floor.shift)}
    assert rows == {floor.table.pk: (2, 2_000), floor.other_table.pk: (1, 1_000)}


@pytest.mark.django_db(transaction=True)
def test_the_nightly_job_alerts_on_a_drifted_row_naming_table_shift_and_figure(floor):
    # given two settled rounds at BAC1, and its running handle then written 1.00 too high outside the services
    play_round(floor.table, floor.dealer, [(1, "banker", 2_500)], BANKER_WINS)
    play_round(floor.table, floor.dealer, [(1, "player", 1_000)], BANKER_WINS)
    play_round(floor.other_table, floor.other_dealer, [(1, "player", 1_000)], BANKER_WINS)
    assert running.check_recent()["differences"] == []  # nothing to say while the rows are right
    assert not Alert.objects.filter(kind=running.ALERT_KIND).exists()
    as_service((RUNNING_ROW, [floor.table.pk, floor.shift.pk]))

    # when the nightly job runs (the beat's task, as a worker runs it)
    result = check_running_figures.apply().get()

    # then one alert names BAC1, the shift and the handle, with both values; BAC2 is left alone
    assert result["differences"] == [{"table": "BAC1", "shift": floor.shift.pk, "figure": "handle",
                                      "running": 3_600, "records": 3_500}]
    alert = Alert.objects.get(kind=running.ALERT_KIND)
    assert (alert.table_id, alert.shift_id, alert.severity) == (floor.table.pk, floor.shift.pk, "critical")
    assert alert.data == {"table": "BAC1", "shift": floor.shift.pk, "figure": "handle", "running": 3_600,
                          "records": 3_500}
    assert "BAC1" in alert.message
    assert "handle" in alert.message
    assert str(floor.shift) in alert.message
    assert "36.00" in alert.message
    assert "35.00" in alert.message
    # and a second night says it once, not twice
    check_running_figures.apply().get()
    assert Alert.objects.filter(kind=running.ALERT_KIND).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_close_realigns_a_drifted_row_and_seals_it_and_the_reconciliation_names_a_later_drift(floor):
    # given BAC1's shift worked and counted, and its running handle written 1.00 too high
    people = staff(floor)
    count(floor, floor.table, floor.dealer, CountKind.OPENER, {"500": 100})
    play_round(floor.table, floor.dealer, [(1, "player", 1_000)], BANKER_WINS)
    count(floor, floor.table, floor.dealer, CountKind.CLOSER, {"500": 102})
    counts.drop_count_record(actor=people.counter, table_id=floor.table.pk, shift_id=floor.shift.pk, cash=0,
                             chips=0, markers=0, counter_one=sig(people.counter), counter_two=sig(people.counter2))
    as_service((RUNNING_ROW, [floor.table.pk, floor.shift.pk]))

    # when the pit manager closes the table
    close = shifts.table_shift_close(actor=floor.manager, table_id=floor.table.pk, shift_id=floor.shift.pk)

    # then the close fixed the records' handle, alerted the difference and held the running row to the records
    assert close.handle == 1_000
    alert = Alert.objects.get(kind=running.ALERT_KIND)
    assert alert.data["figure"] == "handle"
    assert (alert.data["running"], alert.data["records"]) == (1_100, 1_000)
    assert TableFigures.objects.get(table=floor.table, shift=floor.shift).handle == 1_000
    assert AuditRecord.objects.filter(action="figures.realign").count() == 1

    # and the sealed row refuses the service's change; only the owner, triggers off, can still write one
    with pytest.raises(psycopg.errors.IntegrityConstraintViolation):
        as_service((RUNNING_ROW, [floor.table.pk, floor.shift.pk]))
    as_owner((RUNNING_ROW.replace("+ 100", "+ 250"), [floor.table.pk, floor.shift.pk]),
             triggers_off=["accounting_tablefigures"])

    # when the shift is reconciled
    run = reconcile.reconcile_shift(shift_id=floor.shift.pk, force_open=True)

    # then BAC1's reconciliation names the drift as a cause, and a second alert names it with its new values
    result = Reconciliation.objects.get(shift=floor.shift, table=floor.table)
    assert run.status == "variance"
    drift = [c for c in result.causes if c["cause"] == "running_figures"]
    assert [(c["figure"], c["running"], c["records"]) for c in drift] == [("handle", 1_250, 1_000)]
    assert Alert.objects.filter(kind=running.ALERT_KIND).count() == 2
    # and the close keeps the records' figure: the drift is the running row's alone
    assert TableShiftClose.objects.get(table=floor.table).handle == 1_000
