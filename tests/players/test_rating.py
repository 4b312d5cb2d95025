"""A rating slip over recorded rounds: average bet, pace, theoretical and actual win, worked by hand."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction

import pytest

from accounting.money import round_half_away
from casino.audit.models import AuditRecord
from players import rating
from players.models import RatingSlip, SlipRating
from players.selectors import rate_slips
from players.services import slips
from tests.players.helpers import BANKER_WINS, PLAYER_WINS, make_player, play_round

# the baccarat engine's exact edges for 8 decks, 5 % commission, tie 8:1 (exact enumeration of the shoe)
BANKER_EDGE = Fraction(114753351728, 10847218479825)  # 1.0579 %
PLAYER_EDGE = Fraction(241149546272, 19524993263685)  # 1.2351 %
TIE_EDGE = Fraction(103841353768, 723147898655)  # 14.3596 %


def test_a_slip_over_recorded_rounds_gives_the_figures_worked_out_by_hand(
    floor, clock, django_capture_on_commit_callbacks
):
    # given a player seated at BAC1 seat 1 by the dealer, with the floor's estimate of 30.00
    player = make_player(floor)
    slip = slips.slip_open(
        actor=floor.dealer, table_id=floor.table.pk, seat=1, player_id=player.pk, estimated_average_bet=3000
    )
    # and four rounds: two before a 15-minute pause, one during it, one after
    clock.set(1)  # banker 25.00 at seat 1 wins 23.75 (5 % commission); seat 2 is someone else
    play_round(floor.table, floor.dealer, [(1, "banker", 2500), (2, "player", 1000)], BANKER_WINS)
    clock.set(2)  # banker 25.00 and tie 5.00 at seat 1 both lose: the player's natural 9 wins
    play_round(floor.table, floor.dealer, [(1, "banker", 2500), (1, "tie", 500), (2, "player", 1000)], PLAYER_WINS)
    clock.set(10)
    slips.slip_pause(actor=floor.dealer, slip_id=slip.pk)
    clock.set(12)  # while paused: a bet at seat 1 (not the rated player's time) — excluded, and flagged
    play_round(floor.table, floor.dealer, [(1, "player", 4000)], BANKER_WINS)
    clock.set(25)
    slips.slip_resume(actor=floor.dealer, slip_id=slip.pk)
    clock.set(26)  # player 50.00 at seat 1 loses
    play_round(floor.table, floor.dealer, [(1, "player", 5000)], BANKER_WINS)
    clock.set(40)

    # when the dealer closes the slip (the rating job computes the house edge and fixes the figures)
    with django_capture_on_commit_callbacks(execute=True):
        slips.slip_close(actor=floor.dealer, slip_id=slip.pk)

    # then, by hand: active time 0–10 and 25–40 min = 1500 s (the 15-minute pause and its round excluded)
    active_seconds, decisions = 1500, 3  # rounds 1, 2 and 4
    handle = 2500 + (2500 + 500) + 5000  # 10 500
    average_bet = Fraction(handle, decisions)  # 3500 exactly
    per_hour = Fraction(decisions * 3600, active_seconds)  # 7.2
    hours = Fraction(active_seconds, 3600)
    edge = (5000 * BANKER_EDGE + 500 * TIE_EDGE + 5000 * PLAYER_EDGE) / handle  # weighted by handle
    theo = round_half_away(average_bet * per_hour * hours * edge)
    assert theo == round_half_away(5000 * BANKER_EDGE + 500 * TIE_EDGE + 5000 * PLAYER_EDGE) == 186  # 186.45
    actual = -(2375 - 2500 - 500 - 5000)  # the house's result from the seat's bets
    comp_value = theo * 30 // 100  # 30 % of theo, rounded down: 55.80 → 55
    points = comp_value * 10 // 100  # 10 points per currency unit (100 minor units), rounded down

    r = SlipRating.objects.get(slip=slip)
    assert (r.active_seconds, r.paused_seconds, r.decisions, r.table_decisions) == (1500, 900, 3, 3)
    assert (r.handle, r.average_bet, r.average_bet_source) == (10_500, 3500, "measured")
    assert (r.measured_average_bet, r.estimated_average_bet) == (3500, 3000)
    assert r.decisions_per_hour == Decimal("7.20")
    assert Fraction(r.house_edge) == edge
    assert (r.theoretical_win, r.actual_win) == (theo, actual) == (186, 5625)
    assert (r.comp_value, r.comp_points) == (comp_value, points) == (55, 5)
    assert (r.reinvestment_percent, r.points_per_unit) == (30, 10)
    assert r.flags == ["bets_while_paused"]
    assert {(t["bet_type"], t["handle"], t["actual_win"]) for t in r.data["by_type"]} == {
        ("banker", 5000, 125),
        ("tie", 500, 500),
        ("player", 5000, 5000),
    }
    assert RatingSlip.objects.get(pk=slip.pk).status == "closed"
    actions = list(
        AuditRecord.objects.filter(object_type="rating_slip", object_id=str(slip.pk)).values_list("action", flat=True)
    )
    assert actions == ["slip.open", "slip.pause", "slip.resume", "slip.close", "slip.rate"]


def test_the_live_figures_exclude_a_running_pause(floor, clock):
    # given a slip with one round, then paused for 20 minutes and still paused
    slip = slips.slip_open(actor=floor.dealer, table_id=floor.table.pk, seat=3)
    clock.set(5)
    play_round(floor.table, floor.dealer, [(3, "banker", 1000)], BANKER_WINS)
    clock.set(10)
    slips.slip_pause(actor=floor.dealer, slip_id=slip.pk)
    clock.set(30)
    # when it is rated now
    fig = rate_slips([RatingSlip.objects.get(pk=slip.pk)])[0].figures
    # then only the 10 minutes before the pause count: 1 decision in 1/6 hour = 6.00 per hour
    assert (fig.active_seconds, fig.paused_seconds, fig.decisions) == (600, 1200, 1)
    assert fig.decisions_per_hour == Decimal("6.00")
    assert (fig.average_bet, fig.actual_win) == (1000, -950)
    assert fig.theoretical_win is None  # the edge is not cached yet: a request never computes it
    assert fig.edge_pending


def test_a_slip_on_a_seat_with_no_rounds_is_flagged(floor, clock, django_capture_on_commit_callbacks):
    # given a slip at BAC2 (no round is ever dealt there) with the floor's estimate of 100.00
    slip = slips.slip_open(
        actor=floor.other_manager, table_id=floor.other_table.pk, seat=2, estimated_average_bet=10_000
    )
    clock.set(30)
    # when it is closed
    with django_capture_on_commit_callbacks(execute=True):
        slips.slip_close(actor=floor.other_manager, slip_id=slip.pk)
    # then it is flagged, with no pace and no theoretical win to claim
    r = SlipRating.objects.get(slip=slip)
    assert r.flags == ["no_rounds_at_table"]
    assert (r.decisions, r.table_decisions, r.theoretical_win, r.actual_win) == (0, 0, 0, None)
    assert (r.average_bet, r.average_bet_source) == (10_000, "estimate")


def test_a_seat_without_bets_at_a_busy_table_is_rated_on_the_estimate_and_flagged(floor, clock):
    # given the banker edge cached, a slip at seat 5 with an estimate of 20.00, and two rounds bet at seat 1 only
    from players.edges import edges_for

    edges_for("baccarat", floor.table.engine_config(), compute=True)
    slip = slips.slip_open(actor=floor.dealer, table_id=floor.table.pk, seat=5, estimated_average_bet=2000)
    clock.set(3)
    play_round(floor.table, floor.dealer, [(1, "banker", 1000)], BANKER_WINS)
    clock.set(6)
    play_round(floor.table, floor.dealer, [(1, "banker", 3000)], PLAYER_WINS)
    clock.set(20)
    # when it is closed (the edge is cached: the rating is fixed at once)
    slips.slip_close(actor=floor.dealer, slip_id=slip.pk)
    # then: the estimate × the table's 2 decisions × the edge of what the table bet (banker only)
    r = SlipRating.objects.get(slip=slip)
    assert r.flags == ["no_bets_at_seat"]
    assert (r.average_bet_source, r.average_bet, r.decisions, r.table_decisions) == ("estimate", 2000, 0, 2)
    assert r.decisions_per_hour == Decimal("6.00")  # 2 in 20 minutes
    assert r.theoretical_win == round_half_away(2000 * 2 * BANKER_EDGE) == 42  # 42.32
    assert r.actual_win is None


def test_an_estimate_far_from_the_measured_average_bet_is_flagged(floor, clock):
    from players.edges import edges_for

    edges_for("baccarat", floor.table.engine_config(), compute=True)
    # given an estimate of 100.00 while the seat bets 10.00 a round (10×, above the 2× factor)
    slip = slips.slip_open(actor=floor.dealer, table_id=floor.table.pk, seat=1, estimated_average_bet=10_000)
    clock.set(2)
    play_round(floor.table, floor.dealer, [(1, "player", 1000)], PLAYER_WINS)
    clock.set(4)
    slips.slip_close(actor=floor.dealer, slip_id=slip.pk)
    r = SlipRating.objects.get(slip=slip)
    # then the measured figure is the rating and the gap is flagged
    assert (r.average_bet, r.average_bet_source, r.estimated_average_bet) == (1000, "measured", 10_000)
    assert r.flags == ["average_bet_mismatch"]


def test_overlapping_slips_for_one_player_are_flagged(floor, clock):
    # given one player rated at BAC1 seat 1 and, overlapping, at BAC2 seat 4
    player = make_player(floor)
    first = slips.slip_open(actor=floor.dealer, table_id=floor.table.pk, seat=1, player_id=player.pk)
    clock.set(5)
    second = slips.slip_open(actor=floor.other_dealer, table_id=floor.other_table.pk, seat=4, card_number="C1001")
    clock.set(10)
    # when both are rated
    rated = {r.slip.pk: r.figures for r in rate_slips(RatingSlip.objects.filter(pk__in=[first.pk, second.pk]))}
    # then each names the other
    assert rated[first.pk].overlaps == [second.pk]
    assert rated[second.pk].overlaps == [first.pk]
    assert "overlapping_slip" in rated[first.pk].flags


# -- the arithmetic on its own ---------------------------------------------------------------------


T0 = dt.datetime(2025, 3, 1, 20, 0, tzinfo=dt.UTC)


def _at(minutes: float) -> dt.datetime:
    return T0 + dt.timedelta(minutes=minutes)


@pytest.mark.parametrize(
    ("pauses", "end", "expected"),
    [
        ([], 60, [(0, 60)]),
        ([(10, 20)], 60, [(0, 10), (20, 60)]),
        ([(10, None)], 60, [(0, 10)]),  # still paused: until now
        ([(0, 5), (30, 40)], 60, [(5, 30), (40, 60)]),
        ([(10, 20), (15, 25)], 60, [(0, 10), (25, 60)]),  # overlapping pauses (never written, still safe)
    ],
)
def test_active_spans(pauses, end, expected):
    spans = rating.active_spans(T0, _at(end), [(_at(a), None if b is None else _at(b)) for a, b in pauses])
    assert spans == [(_at(a), _at(b)) for a, b in expected]


@pytest.mark.parametrize(
    ("theo", "value", "points"), [(186, 55, 5), (0, 0, 0), (-500, 0, 0), (1000, 300, 30), (3, 0, 0)]
)
def test_comps_are_rounded_down(theo, value, points):
    assert rating.comp_for(theo, rating.CompRule(30, 10, 100)) == (value, points)


@pytest.mark.parametrize(
    ("estimate", "measured", "flag"), [(2000, 1000, False), (2001, 1000, True), (500, 1000, False), (499, 1000, True)]
)
def test_far_apart_is_integer_arithmetic(estimate, measured, flag):
    assert rating.far_apart(estimate, measured, 200) is flag


def test_the_dashboards_held_rounds_give_the_same_figures_as_a_fresh_reading(floor, clock):
    # given two slips at BAC1 and the dashboard's store filled after the first round
    from dataclasses import asdict

    from players.edges import edges_for
    from players.selectors import pit_panels

    edges_for("baccarat", floor.table.engine_config(), compute=True)
    a = slips.slip_open(actor=floor.dealer, table_id=floor.table.pk, seat=1)
    b = slips.slip_open(actor=floor.dealer, table_id=floor.table.pk, seat=2, estimated_average_bet=1500)
    clock.set(1)
    play_round(floor.table, floor.dealer, [(1, "banker", 1000), (2, "tie", 500)], BANKER_WINS)
    clock.set(2)
    pit_panels([floor.table], floor.shift)
    # when more rounds settle, one slip pauses, and the dashboard asks again (only new rounds are read)
    play_round(floor.table, floor.dealer, [(1, "player", 2000)], PLAYER_WINS)
    clock.set(3)
    slips.slip_pause(actor=floor.dealer, slip_id=b.pk)
    clock.set(4)
    play_round(floor.table, floor.dealer, [(1, "banker", 3000), (2, "player", 700)], PLAYER_WINS)
    clock.set(9)
    held = {r.slip.pk: asdict(r.figures) for r in pit_panels([floor.table], floor.shift)["open_slips"]}
    # then the figures equal a reading from scratch
    fresh = {r.slip.pk: asdict(r.figures) for r in rate_slips(RatingSlip.objects.filter(pk__in=[a.pk, b.pk]))}
    assert held == fresh
    assert (held[a.pk]["decisions"], held[a.pk]["handle"], held[b.pk]["decisions"]) == (3, 6000, 1)
    assert held[b.pk]["flags"] == ["average_bet_mismatch", "bets_while_paused"]  # estimate 15.00 vs 5.00


def test_the_rating_modules_examples_hold():
    import doctest

    assert doctest.testmod(rating).failed == 0
