"""Measured skill in theoretical win: a rated player's recorded decisions give a measured house edge that replaces
the assumed one on the slip (and so in comps) from the casino's minimum of rounds, fixed at close beside the
assumed one."""

from __future__ import annotations

from fractions import Fraction

import pytest

from accounting.money import round_half_away
from casino.audit.models import AuditRecord
from players.models import SlipRating
from players.rating import PPM
from players.services import slips
from tables.engines.blackjack import Rules
from tables.engines.registry import get_engine
from tables.models import Table
from tables.protection.records import blackjack_decisions
from tables.protection.skill import decision_costs
from tests.players.helpers import make_player
from tests.players.skill_helpers import ASSUMED_EDGE, play_shoe_rounds, seed_edge


def _blackjack(floor):
    Table.objects.filter(pk=floor.table.pk).update(game="blackjack", config={})
    floor.table.refresh_from_db()
    seed_edge("blackjack", {})
    return floor.table


def _expected_cost_ppm(docs, game="blackjack", seat=1):
    """Each round's decision costs at the seat, by the calculator itself (the mean per round, in ppm)."""
    config = get_engine(game).resolve_config(docs[0]["config"])
    pontoon = game == "pontoon"
    costs = decision_costs(Rules.of(config, pontoon=pontoon))
    per_round = [
        sum(costs.cost(list(d.hand), d.up, d.action, d.allowed)
            for d in blackjack_decisions(config, doc["bets"], doc["events"], pontoon=pontoon) if d.seat == seat)
        for doc in docs
    ]
    return round(sum(per_round) / len(per_round) * PPM), sum(c != 0 for c in per_round)


@pytest.mark.parametrize(("minimum", "used"), [(20, "measured"), (25, "assumed")])
def test_a_careless_players_measured_edge_changes_the_theo_by_the_exact_amount(floor, settings, minimum, used):
    settings.CROUPIER = {**settings.CROUPIER, "MEASURED_EDGE_MIN_ROUNDS": minimum}
    table = _blackjack(floor)
    player = make_player(floor)
    slip = slips.slip_open(actor=floor.manager, table_id=table.pk, seat=1, player_id=player.pk)
    # given 40 rounds of 10.00 played carelessly (stands on 15, never doubles nor splits), through the services
    docs = play_shoe_rounds(table, floor.manager, kind="careless", rounds_played=24)
    cost_ppm, costly_rounds = _expected_cost_ppm(docs)
    assert costly_rounds > 0
    assert cost_ppm > 0
    # when the slip closes
    slips.slip_close(actor=floor.manager, slip_id=slip.pk)
    r = SlipRating.objects.get(slip=slip)
    skill = r.data["skill"]
    # then both edges are kept: the measured one is the assumed one plus the mean cost per round (ppm)
    handle = r.handle
    theo_assumed = round_half_away(handle * ASSUMED_EDGE)
    theo_measured = round_half_away(handle * (ASSUMED_EDGE + Fraction(cost_ppm, PPM)))
    assert (skill["rounds"], skill["cost_ppm"], skill["min_rounds"]) == (24, cost_ppm, minimum)
    assert skill["decisions"] >= 24
    assert Fraction(skill["assumed_edge"]) == ASSUMED_EDGE
    assert Fraction(skill["measured_edge"]) == ASSUMED_EDGE + Fraction(cost_ppm, PPM)
    assert (skill["theo_assumed"], skill["theo_measured"]) == (theo_assumed, theo_measured)
    assert theo_measured > theo_assumed
    # and the one used is the measured one from the minimum of rounds, else the assumed one, with the reason
    assert skill["used"] == used
    assert skill["reason"] == ("" if used == "measured" else "too_few_rounds")
    theo = theo_measured if used == "measured" else theo_assumed
    assert r.theoretical_win == theo
    assert Fraction(r.house_edge) == Fraction(skill[f"{used}_edge"])
    assert r.comp_value == theo * 30 // 100  # comps follow the theo used
    audit = AuditRecord.objects.get(object_type="rating_slip", object_id=str(slip.pk), action="slip.rate")
    assert (audit.after["edge_used"], audit.after["theo_assumed"], audit.after["theo_measured"]) == (
        used, theo_assumed, theo_measured)


def test_a_basic_strategy_player_measures_at_the_assumed_edge_and_the_figures_stay_fixed(floor, settings):
    settings.CROUPIER = {**settings.CROUPIER, "MEASURED_EDGE_MIN_ROUNDS": 10}
    table = _blackjack(floor)
    player = make_player(floor)
    slip = slips.slip_open(actor=floor.manager, table_id=table.pk, seat=1, player_id=player.pk)
    play_shoe_rounds(table, floor.manager, kind="basic", rounds_played=12, seed=4)
    slips.slip_close(actor=floor.manager, slip_id=slip.pk)
    r = SlipRating.objects.get(slip=slip)
    assert (r.data["skill"]["cost_ppm"], r.data["skill"]["used"]) == (0, "measured")
    assert r.theoretical_win == r.data["skill"]["theo_assumed"] == round_half_away(r.handle * ASSUMED_EDGE)
    # a later careless slip does not move the closed slip's figures (they were fixed at close)
    later = slips.slip_open(actor=floor.manager, table_id=table.pk, seat=1, player_id=player.pk)
    play_shoe_rounds(table, floor.manager, kind="careless", rounds_played=12, seed=5)
    slips.slip_close(actor=floor.manager, slip_id=later.pk)
    assert SlipRating.objects.get(slip=slip).theoretical_win == r.theoretical_win
    assert SlipRating.objects.get(slip=later).data["skill"]["cost_ppm"] > 0


def test_pontoon_decisions_are_costed_on_the_slip(floor, settings):
    settings.CROUPIER = {**settings.CROUPIER, "MEASURED_EDGE_MIN_ROUNDS": 10}
    Table.objects.filter(pk=floor.table.pk).update(game="pontoon", config={"banker_seat": 7})
    floor.table.refresh_from_db()
    player = make_player(floor)
    slip = slips.slip_open(actor=floor.manager, table_id=floor.table.pk, seat=3, player_id=player.pk)
    docs = play_shoe_rounds(floor.table, floor.manager, kind="careless", rounds_played=16, seed=6, seat=3)
    seed_edge("pontoon", docs[0]["config"])
    slips.slip_close(actor=floor.manager, slip_id=slip.pk)
    r = SlipRating.objects.get(slip=slip)
    cost_ppm, _ = _expected_cost_ppm(docs, "pontoon", seat=3)
    assert (r.data["skill"]["game"], r.data["skill"]["cost_ppm"], r.data["skill"]["used"]) == (
        "pontoon", cost_ppm, "measured")
    assert r.theoretical_win == round_half_away(r.handle * (ASSUMED_EDGE + Fraction(cost_ppm, PPM)))
