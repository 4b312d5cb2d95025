"""The seeded simulation of issue 35's acceptance, at a small size (bench/game_protection.py runs it at full
size): the simulator plays blackjack card for card as the engine does; the counter and the back-counter are
flagged, count-blind bettors seldom; the careless player's measured skill matches the true cost of the way
they play, on the same cards."""

from __future__ import annotations

import random
from itertools import chain

import pytest

from tables.engines.blackjack import BLACKJACK, PONTOON, Rules, round_player
from tables.protection.betting import EdgeTable, back_counting, bet_pattern
from tables.simulation.advantage import (
    Seat,
    Shoe,
    basic_decider,
    flag_rate,
    play_pontoon_round,
    play_round,
    run_table,
    strategy_gap,
)

RULES = Rules.of(BLACKJACK.resolve_config({}), pontoon=False)  # the demo's blackjack tables: the engine's defaults
EDGES = EdgeTable.linear(house_edge=0.0045)
PONTOON_RULES = Rules.of(PONTOON.resolve_config({"banker_seat": 1}), pontoon=True)  # the engine's defaults: 1 pack


@pytest.mark.parametrize("config", [{}, {"dealer_hits_soft_17": True, "surrender": "late", "double_on": "any_two"}])
def test_the_simulator_plays_as_the_engines_round_player_card_for_card(config):
    # given the same cards for the engine's basic-strategy round player and the simulator's basic seat
    rules = Rules.of(BLACKJACK.resolve_config(config), pontoon=False)
    engine = round_player(rules)
    seat = Seat(1, basic_decider(rules))
    rng = random.Random(11)
    deck = [min(v, 10) for v in range(1, 14)] * 24
    for _ in range(5_000):
        rng.shuffle(deck)
        # when each plays a round from the top
        expected = engine(chain(deck, deck).__next__)
        play_round(rules, [seat], chain(deck, deck).__next__)
        # then the nets agree
        assert seat.net == expected


def test_the_counter_and_the_back_counter_are_flagged_and_count_blind_bettors_seldom():
    # 1,000 rounds played each; the full size (bench/game_protection.py) runs hundreds of tables
    assert flag_rate("counter", RULES, EDGES, trials=8, rounds=1_000, seed=1) == (8, 8)
    assert flag_rate("back_counter", RULES, EDGES, trials=3, rounds=1_000, seed=1) == (3, 3)
    flagged, trials = flag_rate("flat", RULES, EDGES, trials=20, rounds=1_000, seed=1)
    assert flagged <= 1
    for kind in ("basic", "careless"):
        assert flag_rate(kind, RULES, EDGES, trials=3, rounds=1_000, seed=1) == (0, 3)


def test_what_each_flag_sees():
    counter = run_table("counter", RULES, rounds=1_000, seed=2)
    pattern = bet_pattern(counter.bets, EDGES)
    assert (pattern.min_bet, pattern.max_bet) == (1, 8)
    assert pattern.ev_gain > 0.005  # the 1–8 ramp is worth over half a percent of the action
    assert counter.deviations == 0  # the counter plays basic strategy
    wonger = run_table("back_counter", RULES, rounds=1_000, seed=2)
    found = back_counting(wonger.table_rounds)
    assert found.rounds_seen > 3 * found.rounds_played
    assert found.mean_entry_tc >= 2
    assert found.mean_exit_tc < 1


def test_the_careless_players_measured_skill_is_the_true_cost_of_their_play():
    # given the careless strategy and basic strategy on the same cards
    gap = strategy_gap("careless", RULES, rounds=30_000, seed=5)
    # then the decisions' measured cost is the true difference within 0.2 percentage points and its interval
    assert gap.true_gap > 0.02
    assert abs(gap.measured_cost - gap.true_gap) <= 0.002 + gap.true_gap_ci95
    # and basic strategy measures as basic strategy, exactly
    basic = strategy_gap("basic", RULES, rounds=2_000, seed=5)
    assert (basic.true_gap, basic.measured_cost) == (0.0, 0.0)


def test_the_shoe_burns_a_card_and_reshuffles_at_the_cut_card():
    shoe = Shoe(6, random.Random(1))
    assert (shoe.pos, shoe.number, shoe.true_count) == (1, 1, 0.0)
    while not shoe.due:
        shoe.seen([shoe.draw()])
    assert shoe.pos == shoe.cut == 234
    shoe.shuffle()
    assert (shoe.number, shoe.running) == (2, 0)


@pytest.mark.parametrize("config", [{}, {"double_on": "any_two", "double_after_split": False}])
def test_the_pontoon_simulator_plays_as_the_engines_round_player_card_for_card(config):
    # given the same cards for the engine's Pontoon round player (its house edge) and the simulator's basic seat
    rules = Rules.of(PONTOON.resolve_config({"banker_seat": 1, **config}), pontoon=True)
    engine = round_player(rules)
    seat = Seat(1, basic_decider(rules))
    rng = random.Random(12)
    deck = [min(v, 10) for v in range(1, 14)] * 4
    for _ in range(5_000):
        rng.shuffle(deck)
        expected = engine(chain(deck, deck, deck).__next__)
        play_pontoon_round(rules, [seat], chain(deck, deck, deck).__next__)
        assert seat.net == expected


def test_the_careless_pontoon_players_measured_skill_is_the_true_cost_of_their_play():
    # given the careless strategy and the engine's Pontoon strategy on the same cards of one pack
    gap = strategy_gap("careless", PONTOON_RULES, rounds=30_000, seed=5)
    # then the decisions' measured cost is the true difference within 0.2 percentage points and its interval
    assert gap.true_gap > 0.01
    assert abs(gap.measured_cost - gap.true_gap) <= 0.002 + gap.true_gap_ci95
    basic = strategy_gap("basic", PONTOON_RULES, rounds=2_000, seed=5)
    assert (basic.true_gap, basic.measured_cost) == (0.0, 0.0)
    # and a table's recorded play costs the same decisions
    run = run_table("careless", PONTOON_RULES, rounds=500, seed=3)
    assert run.deviations > 0
    assert sum(run.round_costs) > 0
