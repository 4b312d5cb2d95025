"""Measured skill at blackjack: each recorded decision against basic strategy for the table's rules, the cost of
a deviation in expected value, and the player's measured edge.

The expected value of each choice is computed for the hand in front of the player against the dealer's up card,
the dealer drawing to the table's rule (S17/H17) and, when the dealer peeked, known not to hold a blackjack; the
cards are drawn from the shoe's composition (the full shoe by default: an infinite deck of its proportions).
After the choice the hand is played on by the same basic strategy the engine's house edge is simulated with
(:class:`tables.engines.blackjack.BasicStrategy`), so the cost of a deviation is

    cost = EV(the basic-strategy choice) − EV(the choice made),

and the costs along a round add up to what the player's way of playing gives away against basic strategy (the
performance-difference identity: each choice is judged as if basic strategy followed, and a later deviation
is costed at its own turn). A player's measured house edge is the engine's house edge for basic strategy
(``manage.py house_edge``) plus the mean cost per round. A split is valued as two hands of one card each that
draw and play on without splitting again (resplits are a few hundredths of a percent).

>>> from tables.engines.blackjack import Rules, BLACKJACK
>>> costs = DecisionCosts(Rules.of(BLACKJACK.resolve_config({}), pontoon=False))
>>> round(costs.cost([10, 6], 10, "stand", ["hit", "stand"]), 4)  # stood on 16 against a ten: basic hits
0.0006
>>> round(costs.cost([10, 2], 6, "hit", ["hit", "stand"]), 4)  # hit 12 against a 6
0.0168
>>> round(costs.cost([6, 5], 10, "hit", ["hit", "stand", "double"]), 4)  # did not double 11 against a ten
0.0602
>>> costs.basic([10, 2], 6, ["hit", "stand"])
'stand'
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from tables.engines.blackjack import BasicStrategy, Rules
from tables.protection.stats import stdev

BUST = 22
FULL_SHOE: dict[int, float] = {v: (4 if v == 10 else 1) / 13 for v in range(1, 11)}
_ACTION = {"H": "hit", "S": "stand", "D": "double", "P": "split", "R": "surrender"}


def probabilities(left: Mapping[int, int]) -> dict[int, float]:
    """Card-value probabilities (ace 1, ten-cards 10) from the count of each value left in the shoe."""
    total = sum(left.values())
    if total <= 0:
        return dict(FULL_SHOE)
    return {v: left.get(v, 0) / total for v in range(1, 11)}


class DecisionCosts:
    """Expected values of every choice, and the cost of a deviation from basic strategy, for one table's rules."""

    def __init__(self, rules: Rules, probs: Mapping[int, float] | None = None) -> None:
        if rules.pontoon and not isinstance(self, PontoonDecisionCosts):
            raise ValueError("the decision costs are for blackjack's rules: Pontoon's are PontoonDecisionCosts")
        self.rules = rules
        self.probs = dict(probs or FULL_SHOE)
        self.strategy = BasicStrategy(
            dealer_hits_soft_17=rules.dealer_hits_soft_17, double_after_split=rules.double_after_split
        )
        self._dealer: dict[int, tuple[float, ...]] = {}
        self._stand: dict[tuple[int, int], float] = {}
        self._play_on: dict[tuple[int, bool, int], float] = {}
        self._cost: dict[tuple[tuple[int, ...], int, str, frozenset[str], bool], float] = {}

    # -- the dealer ------------------------------------------------------------------------------------------
    def dealer_totals(self, up: int) -> tuple[float, ...]:
        """P(dealer ends on 17, 18, 19, 20, 21, bust) with ``up`` showing; a peeked ace or ten has no blackjack
        under it."""
        got = self._dealer.get(up)
        if got is None:
            hole = dict(self.probs)
            if up == 1:  # the engine peeks under an ace or a ten
                hole[10] = 0.0
            elif up == 10:
                hole[1] = 0.0
            norm = sum(hole.values())
            dist = [0.0] * 6
            memo: dict[tuple[int, bool], list[float]] = {}
            for card, p in hole.items():
                if p:
                    for i, q in enumerate(self._dealer_from(up + card, up == 1 or card == 1, memo)):
                        dist[i] += p / norm * q
            got = self._dealer[up] = tuple(dist)
        return got

    def _dealer_from(self, hard: int, ace: bool, memo: dict[tuple[int, bool], list[float]]) -> list[float]:
        key = (hard, ace)
        if key in memo:
            return memo[key]
        if ace and hard <= 11 and (hard + 10 > 17 or (hard + 10 == 17 and not self.rules.dealer_hits_soft_17)):
            out = [0.0] * 6
            out[hard + 10 - 17] = 1.0
        elif hard >= 17:
            out = [0.0] * 6
            out[5 if hard > 21 else hard - 17] = 1.0
        else:
            out = [0.0] * 6
            for card, p in self.probs.items():
                if p:
                    for i, q in enumerate(self._dealer_from(hard + card, ace or card == 1, memo)):
                        out[i] += p * q
        memo[key] = out
        return out

    # -- the player ------------------------------------------------------------------------------------------
    def stand(self, total: int, up: int) -> float:
        """EV of standing on ``total`` (over 21 is a bust)."""
        if total > 21:
            return -1.0
        key = (total, up)
        got = self._stand.get(key)
        if got is None:
            dist = self.dealer_totals(up)
            win = dist[5] + sum(dist[i] for i in range(5) if 17 + i < total)
            lose = sum(dist[i] for i in range(5) if 17 + i > total)
            got = self._stand[key] = win - lose
        return got

    def play_on(self, hard: int, ace: bool, up: int) -> float:
        """EV of a hand of three cards or more (hit or stand only) played by basic strategy."""
        if hard > 21:
            return -1.0
        key = (hard, ace, up)
        got = self._play_on.get(key)
        if got is None:
            soft = ace and hard <= 11
            total = hard + 10 if soft else hard
            if total >= 21 or self.strategy.code(total, soft, 0, up, False, False, False) != "H":
                got = self.stand(total, up)
            else:
                got = self.hit(hard, ace, up)
            self._play_on[key] = got
        return got

    def hit(self, hard: int, ace: bool, up: int) -> float:
        return sum(p * self.play_on(hard + c, ace or c == 1, up) for c, p in self.probs.items() if p)

    def double(self, hard: int, ace: bool, up: int) -> float:
        return 2 * sum(p * self.stand(_total(hard + c, ace or c == 1), up) for c, p in self.probs.items() if p)

    def split(self, value: int, up: int) -> float:
        """Two hands of one ``value`` each, each drawing its second card and played on by basic strategy."""
        if value == 1:  # split aces take one card each
            return 2 * sum(p * self.stand(_total(1 + c, True), up) for c, p in self.probs.items() if p)
        out = 0.0
        for c, p in self.probs.items():
            if not p:
                continue
            hard, ace = value + c, value == 1 or c == 1
            soft = ace and hard <= 11
            total = hard + 10 if soft else hard
            can_double = self.rules.double_after_split and self.rules.may_double(total, soft)
            code = self.strategy.code(total, soft, 0, up, can_double, False, False)
            out += p * self._two_card(code, hard, ace, up, value)
        return 2 * out

    def _two_card(self, code: str, hard: int, ace: bool, up: int, pair: int) -> float:
        total = _total(hard, ace)
        if code == "S" or total == 21:
            return self.stand(total, up)
        if code == "H":
            return self.hit(hard, ace, up)
        if code == "D":
            return self.double(hard, ace, up)
        if code == "R":
            return -0.5
        return self.split(pair, up)

    def value(self, hand: Sequence[int], up: int, action: str) -> float:
        """EV of ``action`` on ``hand`` (card values, ace 1) against ``up``, in units of the hand's stake."""
        hard = sum(hand)
        ace = 1 in hand
        if action == "stand":
            return self.stand(_total(hard, ace), up)
        if action == "hit":
            return self.hit(hard, ace, up)
        if action == "double":
            return self.double(hard, ace, up)
        if action == "surrender":
            return -0.5
        if action == "split":
            return self.split(hand[0], up)
        raise ValueError(f"not a decision: {action!r}")

    def basic(self, hand: Sequence[int], up: int, allowed: Collection[str]) -> str:
        """Basic strategy's choice among ``allowed``."""
        return self.strategy.decide(hand, up, allowed)

    def cost(self, hand: Sequence[int], up: int, action: str, allowed: Collection[str]) -> float:
        """EV given away by ``action`` against basic strategy's choice (0 when they agree; negative when the
        deviation is worth more, as a counter's index play can be with the shoe's cards)."""
        key = (tuple(hand), up, action, frozenset(allowed), False)
        got = self._cost.get(key)
        if got is None:
            best = self.basic(hand, up, allowed)
            got = 0.0 if best == action else self.value(hand, up, best) - self.value(hand, up, action)
            self._cost[key] = got
        return got

    def insurance_cost(self, fraction: float) -> float:
        """EV given away by insuring ``fraction`` of the bet (basic strategy never insures): the insurance
        pays 2:1 when the hole card is a ten."""
        p10 = self.probs[10]
        return fraction * (1 - 3 * p10)


class PontoonDecisionCosts(DecisionCosts):
    """The same costs at Pontoon's rules, as the engine's own house edge plays them (``tables.engines.blackjack.
    edge``): the banker draws to 17 and stands on every 17, its up card is its second card and a banker natural is
    settled before anyone decides (so the hole card makes no natural); ties lose; five cards of 21 or under
    collect ``five_card_charlie`` × 2^(cards − 5) at once; a three-card 21 of 7-7-7 or 6-7-8 collects its bonus at
    once. The reference strategy is the engine's: the casino chart for hit, stand, double and split, and with
    five cards or more drawing while the hand cannot bust (hard 11 or under), else standing to collect.

    A single pack is small, so each deviation is valued with the pack less the cards the player sees (the hand
    and the up card): an infinite deck of those proportions.

    >>> from tables.engines.blackjack import Rules, PONTOON
    >>> costs = PontoonDecisionCosts(Rules.of(PONTOON.resolve_config({"banker_seat": 1}), pontoon=True))
    >>> costs.basic([10, 6], 10, ["hit", "stand"]), costs.basic([2, 3, 2, 2, 4], 10, ["hit", "stand"])
    ('hit', 'stand')
    >>> round(costs.cost([10, 6], 7, "stand", ["hit", "stand"]), 4)  # stood on 16 against a 7
    0.0458
    >>> round(costs.cost([10, 5], 10, "stand", ["hit", "stand"]), 4)  # negative: here standing beats the chart
    -0.0188
    """

    def __init__(self, rules: Rules, probs: Mapping[int, float] | None = None, *, remove_seen: bool = True) -> None:
        super().__init__(rules, probs)
        bonus = rules.bonus
        self.charlie = float(bonus.get("five_card_charlie", 0))
        self.sevens = float(bonus.get("three_sevens", 0))
        self.six_seven_eight = float(bonus.get("six_seven_eight", 0))
        self.remove_seen = remove_seen and probs is None
        self._pack = {v: (16 if v == 10 else 4) * rules.decks for v in range(1, 11)}
        self._seen: dict[tuple[tuple[int, ...], int], PontoonDecisionCosts] = {}
        self._play_on_n: dict[tuple[int, bool, int, int], float] = {}

    def stand(self, total: int, up: int) -> float:
        """EV of standing on ``total`` against the banker: ties lose."""
        if total > 21:
            return -1.0
        key = (total, up)
        got = self._stand.get(key)
        if got is None:
            dist = self.dealer_totals(up)
            win = dist[5] + sum(dist[i] for i in range(5) if 17 + i < total)
            got = self._stand[key] = 2 * win - 1
        return got

    def _bonus(self, cards: Sequence[int]) -> float | None:
        """What a three-card 21 collects at once (7-7-7, 6-7-8), None for any other hand."""
        if len(cards) == 3 and sum(cards) == 21:
            if list(cards) == [7, 7, 7]:
                return self.sevens
            if sorted(cards) == [6, 7, 8]:
                return self.six_seven_eight
        return None

    def _settle(self, hard: int, ace: bool, n: int, up: int) -> float:
        """A hand that stands (or reaches 21) with ``n`` cards: a charlie collects, else it meets the banker."""
        if hard > 21:
            return -1.0
        if n >= 5:
            return self.charlie * float(2 ** (n - 5))
        return self.stand(_total(hard, ace), up)

    def play_on_n(self, hard: int, ace: bool, n: int, up: int) -> float:
        """EV of a hand of ``n`` ≥ 3 cards played on by the engine's strategy."""
        if hard > 21:
            return -1.0
        key = (hard, ace, n, up)
        got = self._play_on_n.get(key)
        if got is None:
            total = _total(hard, ace)
            if n >= 5:
                drawing = hard <= 11 and total != 21
            else:
                soft = ace and hard <= 11
                drawing = total < 21 and self.strategy.code(total, soft, 0, up, False, False, False) == "H"
            if drawing:
                got = sum(p * self.play_on_n(hard + c, ace or c == 1, n + 1, up) for c, p in self.probs.items() if p)
            else:
                got = self._settle(hard, ace, n, up)
            self._play_on_n[key] = got
        return got

    def _hit_hand(self, hand: Sequence[int], up: int) -> float:
        hard, ace, n = sum(hand), 1 in hand, len(hand)
        out = 0.0
        for c, p in self.probs.items():
            if p:
                bonus = self._bonus([*hand, c]) if n == 2 else None
                out += p * (bonus if bonus is not None else self.play_on_n(hard + c, ace or c == 1, n + 1, up))
        return out

    def _double_hand(self, hand: Sequence[int], up: int) -> float:
        hard, ace = sum(hand), 1 in hand
        out = 0.0
        for c, p in self.probs.items():
            if p:
                bonus = self._bonus([*hand, c])
                out += p * (bonus if bonus is not None else self.stand(_total(hard + c, ace or c == 1), up))
        return 2 * out

    def _split_pair(self, value: int, up: int) -> float:
        out = 0.0
        for c, p in self.probs.items():
            if not p:
                continue
            hand = [value, c]
            hard, ace = value + c, value == 1 or c == 1
            if value == 1:  # split aces take one card each
                out += p * self.stand(_total(hard, ace), up)
                continue
            soft = ace and hard <= 11
            total = hard + 10 if soft else hard
            can_double = self.rules.double_after_split and self.rules.may_double(total, soft)
            code = self.strategy.code(total, soft, 0, up, can_double, False, False)
            if total == 21 or code == "S":
                out += p * self.stand(total, up)
            elif code == "D":
                out += p * self._double_hand(hand, up)
            else:
                out += p * self._hit_hand(hand, up)
        return 2 * out

    def value(self, hand: Sequence[int], up: int, action: str) -> float:
        if action == "stand":
            return self._settle(sum(hand), 1 in hand, len(hand), up)
        if action == "hit":
            return self._hit_hand(hand, up)
        if action == "double":
            return self._double_hand(hand, up)
        if action == "split":
            return self._split_pair(hand[0], up)
        raise ValueError(f"not a Pontoon decision: {action!r}")

    def basic(self, hand: Sequence[int], up: int, allowed: Collection[str]) -> str:
        """The engine's strategy: the chart, and with five cards or more drawing only while it cannot bust."""
        if len(hand) >= 5 and "hit" in allowed:
            return "hit" if sum(hand) <= 11 else "stand"
        return self.strategy.decide(hand, up, allowed)

    def _for(self, hand: Sequence[int], up: int) -> PontoonDecisionCosts:
        """The calculator for the pack less the cards this player sees."""
        if not self.remove_seen:
            return self
        key = (tuple(sorted(hand)), up)
        got = self._seen.get(key)
        if got is None:
            left = dict(self._pack)
            for v in (*hand, up):
                left[v] = max(left[v] - 1, 0)
            if len(self._seen) > 4096:
                self._seen.clear()
            got = self._seen[key] = PontoonDecisionCosts(self.rules, probabilities(left), remove_seen=False)
        return got

    def cost(self, hand: Sequence[int], up: int, action: str, allowed: Collection[str]) -> float:
        key = (tuple(hand), up, action, frozenset(allowed), True)
        got = self._cost.get(key)
        if got is None:
            best = self.basic(hand, up, allowed)
            if best == action:
                got = 0.0
            else:
                calc = self._for(hand, up)
                got = calc.value(hand, up, best) - calc.value(hand, up, action)
            self._cost[key] = got
        return got

    def insurance_cost(self, fraction: float) -> float:
        raise ValueError("Pontoon has no insurance")


def decision_costs(rules: Rules) -> DecisionCosts:
    """The calculator for a table's rules: blackjack's, or Pontoon's."""
    return PontoonDecisionCosts(rules) if rules.pontoon else DecisionCosts(rules)


def _total(hard: int, ace: bool) -> int:
    return hard + 10 if ace and hard <= 11 else hard


@dataclass(frozen=True)
class MeasuredSkill:
    """A player's measured house edge from the costs of their decisions, beside the basic-strategy one."""

    rounds: int
    decisions: int
    deviations: int
    cost_per_round: float  # EV given away per round, in units of the initial bet
    cost_se: float  # its standard error over these rounds
    basic_house_edge: float  # the engine's house edge for basic strategy at these rules
    measured_house_edge: float  # basic_house_edge + cost_per_round

    @property
    def interval(self) -> tuple[float, float]:
        """A 95 % interval of the measured house edge (the rounds' sampling error; the engine's own edge taken
        as known)."""
        return (self.measured_house_edge - 1.96 * self.cost_se, self.measured_house_edge + 1.96 * self.cost_se)


def measured_skill(
    round_costs: Sequence[float], *, decisions: int, deviations: int, basic_house_edge: float
) -> MeasuredSkill:
    """``round_costs``: each round's summed decision costs (units of its initial bet), every round played."""
    n = len(round_costs)
    cost = sum(round_costs) / n if n else 0.0
    se = stdev(round_costs) / math.sqrt(n) if n > 1 else 0.0
    return MeasuredSkill(n, decisions, deviations, cost, se, basic_house_edge, basic_house_edge + cost)
