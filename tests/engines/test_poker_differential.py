"""Our hand order against independent evaluators: every five-card hand vs phevaluator, samples vs treys.

phevaluator (a C extension) and treys (pure Python) both return a strength where a *lower*
value is a *better* hand. Agreement on every pair of hands is checked without comparing
pairs: sort all hands by our rank, then their values must never rise from one hand to the
next, stay equal exactly where ours are equal, and change exactly where ours change.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from tables.engines.poker import rank_codes

phevaluator = pytest.importorskip("phevaluator")
treys = pytest.importorskip("treys")

SUITS = "shdc"  # our code is rank_index * 4 + suit_index, the same layout as phevaluator's ids
RANKS = "23456789TJQKA"


def assert_same_order(ours: list[int], theirs: list[int]) -> None:
    """For every pair of hands, ours compare (>, =, <) exactly as theirs compare (<, =, >)."""
    pairs = sorted(zip(ours, theirs, strict=True))
    for (o1, t1), (o2, t2) in zip(pairs, pairs[1:]):
        if o1 == o2:
            assert t1 == t2, f"we tie ({o1}), they do not ({t1} vs {t2})"
        else:
            assert t2 < t1, f"we rank {o2} above {o1}, they rank {t2} vs {t1}"


@pytest.mark.slow
def test_every_five_card_hand_orders_as_phevaluator() -> None:
    # given: all 2,598,960 hands
    evaluate = phevaluator.evaluate_cards
    ours: list[int] = []
    theirs: list[int] = []

    # when
    for hand in combinations(range(52), 5):
        ours.append(rank_codes(hand))
        theirs.append(evaluate(*hand))

    # then
    assert len(ours) == 2_598_960
    assert len(set(ours)) == len(set(theirs)) == 7462
    assert_same_order(ours, theirs)


def test_random_seven_card_hands_order_as_phevaluator() -> None:
    # given
    rng = random.Random(11)
    hands = [rng.sample(range(52), 7) for _ in range(20_000)]

    # when
    ours = [rank_codes(h) for h in hands]
    theirs = [phevaluator.evaluate_cards(*h) for h in hands]

    # then
    assert_same_order(ours, theirs)


def test_random_hands_order_as_treys() -> None:
    # given
    rng = random.Random(12)
    evaluator = treys.Evaluator()
    new = treys.Card.new
    hands = [rng.sample(range(52), n) for n in (5, 6, 7) for _ in range(3000)]

    # when
    ours = [rank_codes(h) for h in hands]
    theirs = [evaluator.evaluate([new(RANKS[c >> 2] + SUITS[c & 3]) for c in h], []) for h in hands]

    # then
    assert_same_order(ours, theirs)
