"""Game protection's analysis (tables/protection), without Django: each figure against a hand-computed or
brute-force value, and each flag on a pattern that should raise it and one that should not."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest

from tables.engines.baccarat import ENGINE as BACCARAT
from tables.engines.blackjack import BLACKJACK, PONTOON, Rules, simulate
from tables.engines.cards import full_deck
from tables.protection.betting import EdgeTable, TableRound, back_counting, bet_pattern
from tables.protection.count import HI_LO, ShoeCount, counts_before_rounds, true_count
from tables.protection.dealers import DealerActivity, dealer_profiles
from tables.protection.side_bets import pair_ev, pair_probability, side_bet_clustering
from tables.protection.skill import FULL_SHOE, DecisionCosts, PontoonDecisionCosts, decision_costs, measured_skill
from tables.protection.stats import binomial_sf, normal_sf, poisson_sf, ranks, spearman, spearman_p_greater

RULES = Rules.of(BLACKJACK.resolve_config({}), pontoon=False)


# -- the count -----------------------------------------------------------------------------------------------
def test_hi_lo_is_balanced_over_a_full_shoe():
    # given a six-deck shoe, every card seen
    shoe = ShoeCount(decks=6)
    shoe.see_all([str(c) for c in full_deck()] * 6)
    # then the running count is back to 0 and nothing is left
    assert (shoe.running, shoe.cards_left, shoe.penetration) == (0, 0, 1.0)
    assert sum(HI_LO.values()) == 0


def test_the_true_count_divides_by_the_decks_left_and_burned_cards_count_in_the_penetration():
    # given a burn card and two rounds of a one-deck shoe
    before = counts_before_rounds(1, [["2S", "3S", "4S", "5S"], ["KD", "7C"], []], burn=1)
    # then
    assert [(b.running, b.cards_left) for b in before] == [(0, 51), (4, 47), (3, 45)]
    assert before[1].true_count == pytest.approx(4 / (47 / 52))
    assert before[2].penetration == pytest.approx(7 / 52)
    assert true_count(3, 10) == 6.0  # under half a deck left counts as half a deck


# -- statistics ----------------------------------------------------------------------------------------------
def test_the_tails_match_their_sums():
    assert binomial_sf(3, 10, 0.1) == pytest.approx(
        sum(math.comb(10, k) * 0.1**k * 0.9 ** (10 - k) for k in range(3, 11)))
    assert poisson_sf(5, 1.0) == pytest.approx(1 - sum(math.exp(-1) / math.factorial(k) for k in range(5)))
    assert poisson_sf(60, 2.0) == pytest.approx(math.exp(-2) * 2**60 / math.factorial(60), rel=0.05)  # no 1 − 1
    assert normal_sf(0.0) == 0.5
    assert (binomial_sf(0, 5, 0.5), binomial_sf(6, 5, 0.5)) == (1.0, 0.0)


def test_ranks_share_ties_and_the_rank_correlation_needs_both_sides_to_vary():
    assert ranks([10, 20, 20, 5]) == [2.0, 3.5, 3.5, 1.0]
    assert spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert spearman([1, 2, 3, 4], [5, 5, 5, 5]) is None


def test_a_small_sample_is_judged_by_permutations():
    # given 8 pairs in the same order: 1 permutation in 8! is as extreme
    rho, p = spearman_p_greater(list(range(8)), list(range(8)), seed=1)
    assert rho == pytest.approx(1.0)
    assert p < 0.005
    # and unrelated pairs are not
    _, p = spearman_p_greater([1, 2, 3, 4, 5, 6, 7, 8], [4, 8, 1, 6, 2, 7, 3, 5], seed=1)
    assert p > 0.1


# -- the bets against the count ------------------------------------------------------------------------------
EDGES = EdgeTable.linear(house_edge=0.005)


def _walk(rng: random.Random, n: int) -> list[float]:
    """A true count that drifts like a shoe's, resetting every 60 rounds."""
    out, tc = [], 0.0
    for i in range(n):
        tc = 0.0 if i % 60 == 0 else tc + rng.gauss(0, 0.4)
        out.append(tc)
    return out


def test_a_counters_bets_are_flagged_and_their_value_measured():
    # given bets that ramp 1 to 8 units with the count
    rng = random.Random(3)
    counts = _walk(rng, 1000)
    rounds = [(tc, 800 if tc >= 5 else 600 if tc >= 4 else 400 if tc >= 3 else 200 if tc >= 2 else 100) for tc in counts]
    # when
    pattern = bet_pattern(rounds, EDGES)
    # then
    assert pattern.flagged()
    assert (pattern.min_bet, pattern.max_bet, pattern.spread) == (100, 800, 8.0)
    assert pattern.rho is not None
    assert pattern.rho > 0.5
    assert pattern.ev_gain > 0
    assert pattern.mean_bet_high > pattern.mean_bet_low


def test_bets_that_drift_without_the_count_are_not_flagged():
    # given bets that change now and then whatever the count, on counts that drift too
    rng = random.Random(5)
    flagged = 0
    for _ in range(100):
        counts = _walk(rng, 600)
        bet, rounds = 100, []
        for tc in counts:
            if rng.random() < 0.05:
                bet = rng.choice((100, 200, 300, 500))
            rounds.append((tc, bet))
        flagged += bet_pattern(rounds, EDGES).flagged()
    # then the flag is raised at about its level (1 %), and the flat bettor never
    assert flagged <= 5
    flat = bet_pattern([(tc, 500) for tc in _walk(rng, 500)], EDGES)
    assert (flat.rho, flat.p_value, flat.flagged(), flat.spread) == (None, 1.0, False, 1.0)
    assert bet_pattern([], EDGES).rounds == 0


def test_the_edge_table_rounds_toward_zero_and_clamps():
    table = EdgeTable.linear(house_edge=0.005, span=3)
    assert (table.at(2.9), table.at(-0.5), table.at(9.0)) == (pytest.approx(0.005), -0.005, pytest.approx(0.01))


def test_entering_high_and_leaving_low_is_back_counting():
    # given shoes of 50 rounds; the player enters at +2 or more mid-shoe and leaves below +1
    rng = random.Random(7)
    rounds, seated = [], False
    for shoe in range(60):
        tc = 0.0
        for i in range(50):
            tc = 0.0 if i == 0 else tc + rng.gauss(0, 0.5)
            if i == 0:
                seated = False
            seated = (not seated and tc >= 2) or (seated and tc >= 1)
            rounds.append(TableRound(shoe, tc, seated))
    # when
    found = back_counting(rounds)
    # then
    assert found.flagged()
    assert found.mean_entry_tc >= 2 > 1 > found.mean_exit_tc
    assert found.played_high_share == 1.0 > found.table_high_share
    # and a player who sits through whole shoes has nothing to show
    steady = back_counting([TableRound(r.shoe, r.true_count, True) for r in rounds])
    assert (steady.entries, steady.exits, steady.p_value, steady.flagged()) == (0, 0, 1.0, False)


# -- baccarat's pairs ----------------------------------------------------------------------------------------
def test_the_pair_probability_is_exact():
    # given a small composition, every ordered pair of distinct cards enumerated
    left = {"A": 3, "K": 2, "5": 1}
    cards = [rank for rank, n in left.items() for _ in range(n)]
    pairs = list(itertools.permutations(range(len(cards)), 2))
    brute = Fraction(sum(cards[i] == cards[j] for i, j in pairs), len(pairs))
    # then
    assert pair_probability(left) == pytest.approx(float(brute))
    assert pair_probability({"A": 1}) == 0.0


def test_the_pair_ev_off_the_top_is_the_engines_house_edge():
    rows = {r.bet: r for r in BACCARAT.house_edge({}, seed=1)}
    decks = BACCARAT.resolve_config({})["decks"]
    assert pair_ev(dict.fromkeys("A23456789TJQK", 4 * decks), pays=11) == pytest.approx(-float(rows["player_pair"].edge))


def test_pair_bets_that_cluster_where_the_pair_pays_are_flagged():
    # given 400 rounds, 20 of them with a positive pair EV; the player bets 15 of those and 5 of the rest
    rng = random.Random(2)
    rounds = [(0.05, i < 15) for i in range(20)] + [(-0.1, i < 5) for i in range(380)]
    rng.shuffle(rounds)
    found = side_bet_clustering(rounds)
    assert (found.side_bets, found.positive_rounds, found.side_bets_positive) == (20, 20, 15)
    assert found.flagged()
    # and pair bets in proportion to the positive rounds are not
    even = side_bet_clustering([(0.05, i < 1) for i in range(20)] + [(-0.1, i < 19) for i in range(380)])
    assert not even.flagged()


# -- measured skill ------------------------------------------------------------------------------------------
def test_the_dealers_totals_are_a_distribution():
    costs = DecisionCosts(RULES)
    for up in range(1, 11):
        assert sum(costs.dealer_totals(up)) == pytest.approx(1.0)
    assert costs.dealer_totals(6)[5] == pytest.approx(0.4232, abs=5e-4)  # S17, infinite deck (published tables)


def test_basic_strategy_costs_nothing_and_deviations_cost_what_the_published_values_say():
    costs = DecisionCosts(RULES)
    assert costs.cost([10, 6], 10, "hit", ["hit", "stand"]) == 0.0
    assert costs.cost([6, 5], 10, "hit", ["hit", "stand", "double"]) == pytest.approx(0.0602, abs=1e-4)
    assert costs.cost([8, 8], 10, "stand", ["hit", "stand", "split"]) > 0.05
    assert costs.cost([10, 2], 6, "hit", ["hit", "stand"]) == pytest.approx(
        costs.value([10, 2], 6, "stand") - costs.value([10, 2], 6, "hit"))
    assert costs.insurance_cost(0.5) == pytest.approx(0.5 / 13)
    with pytest.raises(ValueError, match="not a decision"):
        costs.value([10, 2], 6, "fold")


def test_the_calculators_basic_strategy_edge_agrees_with_the_engines_simulation():
    # given the calculator's expected value of a whole round at basic strategy (infinite deck)
    costs = DecisionCosts(RULES)
    p = FULL_SHOE
    ev = 0.0
    for up, pu in p.items():
        bj = p[10] if up == 1 else p[1] if up == 10 else 0.0
        rest = 0.0
        for a, b in itertools.product(range(1, 11), repeat=2):
            if {a, b} == {1, 10}:
                rest += p[a] * p[b] * 1.5
                continue
            hard, soft = a + b, 1 in (a, b) and a + b <= 11
            allowed = ["hit", "stand"] + (["double"] if RULES.may_double(hard + 10 * soft, soft) else []) + (
                ["split"] if a == b else [])
            rest += p[a] * p[b] * costs.value([a, b], up, costs.basic([a, b], up, allowed))
        ev += pu * (bj * -(1 - 2 * p[1] * p[10]) + (1 - bj) * rest)
    # then it is the engine's simulated six-deck edge within its interval and the infinite deck's few tenths
    mean, half = simulate(RULES, 200_000, seed=4)
    assert abs(ev - mean) <= half + 0.003


PONTOON_RULES = Rules.of(PONTOON.resolve_config({"banker_seat": 1}), pontoon=True)


def test_pontoon_is_not_costed_by_blackjacks_calculator_but_by_its_own():
    with pytest.raises(ValueError, match="Pontoon"):
        DecisionCosts(PONTOON_RULES)
    assert isinstance(decision_costs(PONTOON_RULES), PontoonDecisionCosts)
    assert type(decision_costs(RULES)) is DecisionCosts


def test_pontoons_values_follow_its_rules():
    costs = PontoonDecisionCosts(PONTOON_RULES, remove_seen=False)
    blackjack = DecisionCosts(RULES)
    # ties lose: standing on 20 is worth less than at blackjack, where a tie pushes
    assert costs.value([10, 10], 10, "stand") < blackjack.value([10, 10], 10, "stand")
    # five cards of 21 or under collect twice the stake at once, six cards four times
    assert costs.value([2, 2, 3, 2, 4], 10, "stand") == 2.0
    assert costs.value([2, 2, 3, 2, 1, 1], 10, "stand") == 4.0
    # 7-7 drawing a 7 collects three times the stake: hitting 7-7 is worth more than hitting 6-8 (twice, on a 7)
    p7 = costs.probs[7]
    assert costs.value([7, 7], 10, "hit") - costs.value([6, 8], 10, "hit") == pytest.approx(p7 * 1.0, abs=0.05)
    # the reference strategy is the engine's: the chart, and with five cards drawing only while it cannot bust
    assert costs.basic([10, 6], 7, ["hit", "stand"]) == "hit"
    assert costs.basic([2, 2, 2, 2, 3], 10, ["hit", "stand"]) == "hit"
    assert costs.basic([2, 2, 3, 2, 4], 10, ["hit", "stand"]) == "stand"
    # a deviation costs what the engine's strategy gains over it; agreeing costs nothing
    assert costs.cost([10, 6], 7, "hit", ["hit", "stand"]) == 0.0
    assert costs.cost([10, 6], 7, "stand", ["hit", "stand"]) > 0
    # hitting a five-card 13 is worth more than the engine's stand (a sixth card pays four times): a negative cost
    charlie = [2, 2, 3, 2, 4]
    hit = sum(p * (4.0 if c <= 8 else -1.0) for c, p in costs.probs.items())
    assert costs.value(charlie, 10, "hit") == pytest.approx(hit)
    assert costs.cost(charlie, 10, "hit", ["hit", "stand"]) == pytest.approx(2.0 - hit)
    assert 2.0 - hit < 0
    with pytest.raises(ValueError, match="insurance"):
        costs.insurance_cost(0.5)


def test_pontoons_deviations_are_valued_with_the_pack_less_the_cards_seen():
    seen = PontoonDecisionCosts(PONTOON_RULES)
    full = PontoonDecisionCosts(PONTOON_RULES, remove_seen=False)
    calc = seen._for([10, 6], 7)
    assert calc.probs[10] == pytest.approx(15 / 49)
    assert calc.probs[6] == pytest.approx(3 / 49)
    assert seen.cost([10, 6], 7, "stand", ["hit", "stand"]) != full.cost([10, 6], 7, "stand", ["hit", "stand"])


def test_the_measured_edge_adds_the_mean_cost_to_the_engines_edge():
    skill = measured_skill([0.0, 0.06, 0.0, 0.02], decisions=6, deviations=2, basic_house_edge=0.0045)
    assert skill.cost_per_round == pytest.approx(0.02)
    assert skill.measured_house_edge == pytest.approx(0.0245)
    low, high = skill.interval
    assert low < skill.measured_house_edge < high


# -- dealers -------------------------------------------------------------------------------------------------
def test_a_dealer_with_many_more_voids_than_the_pit_stands_out_and_the_others_do_not():
    team = [DealerActivity(name, 500, 5.0, voids=2, undos=3) for name in ("ann", "bob", "cy", "dee")]
    team.append(DealerActivity("eve", 500, 8.0, voids=15, undos=3))
    profiles = {p.dealer: p for p in dealer_profiles(team)}
    assert profiles["eve"].flags() == ["voids"]
    assert profiles["eve"].rates["voids"] == 3.0
    assert profiles["eve"].expected["voids"] == pytest.approx(0.4)
    assert profiles["ann"].flags() == []
    assert profiles["eve"].rounds_per_hour == 62.5
    # one slow dealer among steady ones
    paced = dealer_profiles([DealerActivity(n, 400 + i, 4.0) for i, n in enumerate("abcdefgh")]
                            + [DealerActivity("slow", 200, 4.0)])
    assert paced[-1].flags() == ["pace"]
    assert paced[-1].pace_z < 0
