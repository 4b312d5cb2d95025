"""The house edge of blackjack and Pontoon by simulation: a fast single-seat round player with the
same rules as the engine and basic strategy, over a seeded shoe."""

from __future__ import annotations

import math
import random
from array import array
from collections.abc import Callable, Iterator
from itertools import chain
from operator import length_hint

from tables.engines.blackjack.rules import Rules
from tables.engines.blackjack.strategy import BasicStrategy

# -- simulation (house edge) and playing a round out (tests, benchmark, fixtures) -------------
SIMULATED_ROUNDS = 1_000_000
PENETRATION = 0.75


def round_player(rules: Rules) -> Callable[[Callable[[], int]], float]:
    """A function that plays one single-seat round from ``draw()`` (card values, ace 1) and
    returns the seat's net in units of its bet, with basic strategy and the same rules as the
    engine. Cards are drawn in physical order: player, dealer, player, dealer, then the draws.

    Most rounds take the fast path (tables of the first decision and of hit-or-stand per up
    card); a round whose first decision is a split goes through the general path. The tests
    replay both against the engine card for card.
    """
    strategy = BasicStrategy(dealer_hits_soft_17=rules.dealer_hits_soft_17, double_after_split=rules.double_after_split)
    code = strategy.code
    pontoon = rules.pontoon
    num, den = rules.blackjack_pays
    natural_pays = float(rules.bonus["natural"]) if pontoon else num / den
    natural_vs_natural = -1.0 if pontoon else 0.0
    collects = -float(rules.dealer_natural_collects) if pontoon else -1.0
    h17 = rules.dealer_hits_soft_17 and not pontoon
    das, rsa, max_splits = rules.double_after_split, rules.resplit_aces, rules.max_splits
    surrender = rules.surrender and not pontoon
    may_double = rules.may_double
    bonus = rules.bonus
    charlie, sevens, six_seven_eight = (
        bonus.get("five_card_charlie", 0),
        bonus.get("three_sevens", 0),
        bonus.get("six_seven_eight", 0),
    )

    def first_code(up: int, a: int, b: int) -> str:
        hard = a + b
        soft = (a == 1 or b == 1) and hard <= 11
        total = hard + 10 if soft else hard
        can_split = a == b and max_splits > 0
        return code(total, soft, a if can_split else 0, up, may_double(total, soft), can_split, surrender)

    # [up][first card][second card] → H S D P R; [up][total] → hit? for hands of three cards or more
    first = [[[""] * 11] * 11] + [
        [[""] * 11] + [["", *(first_code(up, a, b) for b in range(1, 11))] for a in range(1, 11)] for up in range(1, 11)
    ]
    hit_hard: list[list[bool]] = [[]] + [
        [4 <= t < 22 and code(t, False, 0, up, False, False, False) == "H" for t in range(23)] for up in range(1, 11)
    ]
    hit_soft: list[list[bool]] = [[]] + [
        [12 <= t < 22 and code(t, True, 0, up, False, False, False) == "H" for t in range(23)] for up in range(1, 11)
    ]

    def dealer_total(hard: int, ace: bool, draw: Callable[[], int]) -> int:
        while True:
            if ace and hard <= 11:
                total = hard + 10
                if total > 17 or (total == 17 and not h17):
                    return total
            elif hard >= 17:
                return hard
            card = draw()
            hard += card
            if card == 1:
                ace = True

    def play(draw: Callable[[], int]) -> float:
        p1 = draw()
        d1 = draw()
        p2 = draw()
        d2 = draw()
        natural = p1 + p2 == 11 and (p1 == 1 or p2 == 1)
        if d1 + d2 == 11 and (d1 == 1 or d2 == 1):
            return natural_vs_natural if natural else collects
        if natural:
            return natural_pays
        up = d2 if pontoon else d1
        action = first[up][p1][p2]
        if action == "P":
            return play_split(p1, p2, d1, d2, up, draw)
        if action == "R":
            return -0.5
        hard = p1 + p2
        ace = p1 == 1 or p2 == 1
        stake = 1.0
        n = 2
        last = p2
        if action == "D":
            last = draw()
            hard += last
            n = 3
            stake = 2.0
            if last == 1:
                ace = True
            if hard > 21:
                return -2.0
        elif action == "H":
            hits, hits_soft = hit_hard[up], hit_soft[up]
            while True:
                last = draw()
                hard += last
                n += 1
                if last == 1:
                    ace = True
                if hard > 21:
                    return -1.0
                if ace and hard <= 11:
                    if hard == 11:
                        break
                    if pontoon and n >= 5:  # a charlie that cannot bust draws on
                        continue
                    if not hits_soft[hard + 10]:
                        break
                else:
                    if hard == 21 or (pontoon and n >= 5 and hard > 11):
                        break
                    if pontoon and n >= 5:
                        continue
                    if not hits[hard]:
                        break
        total = hard + 10 if ace and hard <= 11 else hard
        if pontoon:
            if n >= 5:
                return float(stake * charlie * 2 ** (n - 5))
            if n == 3 and total == 21:
                if p1 == p2 == last == 7:
                    return stake * sevens
                if sorted((p1, p2, last)) == [6, 7, 8]:
                    return stake * six_seven_eight
        dealer = dealer_total(d1 + d2, d1 == 1 or d2 == 1, draw)
        if dealer > 21 or total > dealer:
            return stake
        if total < dealer or pontoon:
            return -stake
        return 0.0

    def play_split(p1: int, p2: int, d1: int, d2: int, up: int, draw: Callable[[], int]) -> float:
        hands = [[p1, p2]]
        stood: list[tuple[int, int, int, list[int]]] = []
        net = 0.0
        splits = 0
        i = 0
        while i < len(hands):
            h = hands[i]
            stake = 1
            if len(h) == 1:
                h.append(draw())
            while True:
                hard = sum(h)
                soft = 1 in h and hard <= 11
                total = hard + 10 if soft else hard
                n = len(h)
                if total > 21:
                    net -= stake
                    break
                is_split = len(hands) > 1
                if total == 21 or (stake == 2 and n == 3):
                    stood.append((total, stake, n, h))
                    break
                if is_split and h[0] == 1 and n == 2:
                    if rsa and h[1] == 1 and splits < max_splits:
                        splits += 1
                        hands.append([h.pop()])
                        h.append(draw())
                        continue
                    stood.append((total, stake, n, h))
                    break
                if pontoon and n >= 5:
                    if hard <= 11:
                        h.append(draw())
                        continue
                    stood.append((total, stake, n, h))
                    break
                can_split = n == 2 and h[0] == h[1] and splits < max_splits and (h[0] != 1 or not is_split or rsa)
                can_double = n == 2 and (das or not is_split) and may_double(total, soft)
                can_surrender = surrender and n == 2 and not is_split
                a = code(total, soft, h[0] if can_split else 0, up, can_double, can_split, can_surrender)
                if a == "H":
                    h.append(draw())
                elif a == "S":
                    stood.append((total, stake, n, h))
                    break
                elif a == "D":
                    stake = 2
                    h.append(draw())
                elif a == "P":
                    splits += 1
                    hands.append([h.pop()])
                    h.append(draw())
                else:
                    net -= 0.5
                    break
            i += 1
        live = []
        for total, stake, n, h in stood:
            if pontoon and n >= 5:
                net += stake * charlie * 2 ** (n - 5)
            elif pontoon and n == 3 and h == [7, 7, 7]:
                net += stake * sevens
            elif pontoon and n == 3 and sorted(h) == [6, 7, 8]:
                net += stake * six_seven_eight
            else:
                live.append((total, stake))
        if not live:
            return net
        dealer = dealer_total(d1 + d2, d1 == 1 or d2 == 1, draw)
        for total, stake in live:
            if dealer > 21 or total > dealer:
                net += stake
            elif total < dealer or (pontoon and total == dealer):
                net -= stake
        return net

    return play


def simulate(rules: Rules, rounds: int, seed: int) -> tuple[float, float]:
    """Mean net per round (units of the bet) over ``rounds`` simulated rounds, and its 95 % half-width."""
    rng = random.Random(seed)
    base = [min(v, 10) for v in range(1, 14)] * 4 * rules.decks
    size = len(base)
    reserve = size - int(size * PENETRATION)  # the cards behind the cut card

    def shuffled() -> list[int]:
        # sorting by random 32-bit keys shuffles in C; a tie (p < 1e-5 a shoe) keeps the prior order
        keys = array("I", rng.randbytes(4 * size))
        return [base[i] for i in sorted(range(size), key=keys.__getitem__)]

    def behind_the_shoe() -> Iterator[int]:
        # a round that runs past the last card is finished from the reshuffled discards
        while True:
            yield from shuffled()

    play = round_player(rules)
    total = 0.0
    squares = 0.0
    left = 0
    cards: Iterator[int] = iter(())
    draw: Callable[[], int] = cards.__next__
    for _ in range(rounds):
        if left <= reserve:
            cards = iter(shuffled())
            draw = chain(cards, behind_the_shoe()).__next__
        net = play(draw)
        left = length_hint(cards)
        total += net
        squares += net * net
    mean = total / rounds
    variance = max(squares / rounds - mean * mean, 0.0)
    return mean, 1.96 * math.sqrt(variance / rounds)
