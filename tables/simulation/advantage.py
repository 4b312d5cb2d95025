"""A seeded table of players over many shoes, for game protection's acceptance (tests/protection and
bench/game_protection.py): a Hi-Lo counter with a 1–8 bet spread, a back-counter, count-blind bettors, a
basic-strategy player and a careless one, at a blackjack table's rules.

Every card of every round is seen, as the dealer enters it; a burn card opens each shoe and the cut card is
at :data:`PENETRATION`. The player under study shares the table with one basic-strategy seat that plays every
round, so the game goes on while a back-counter watches.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from tables.engines.blackjack import BLACKJACK, BasicStrategy, Rules
from tables.protection.betting import DEFAULT_ALPHA, EdgeTable, TableRound, back_counting, bet_pattern
from tables.protection.count import HI_LO_BY_VALUE, true_count
from tables.protection.skill import DecisionCosts, decision_costs
from tables.simulation.blackjack import play_out

PENETRATION = 0.75
KINDS = ("counter", "back_counter", "flat", "basic", "careless")
# the counter's ramp: units bet at each true count (1 to 8: the 1–8 spread)
COUNTER_RAMP = ((5, 8), (4, 6), (3, 4), (2, 2))
BACK_COUNTER_ENTERS = 2  # sits in at this true count or over
BACK_COUNTER_LEAVES = 1  # leaves below it
Decide = Callable[[list[int], int, list[str]], str]


class Shoe:
    """A shuffled shoe of card values (ace 1, ten-cards 10) dealt to the cut card, one card burned at the start."""

    def __init__(self, decks: int, rng: random.Random, penetration: float = PENETRATION) -> None:
        self.decks = decks
        self.rng = rng
        self.base = [min(v, 10) for v in range(1, 14)] * 4 * decks
        self.cut = int(len(self.base) * penetration)
        self.number = 0
        self.cards: list[int] = []
        self.pos = 0
        self.running = 0
        self.shuffle()

    def shuffle(self) -> None:
        self.cards = list(self.base)
        self.rng.shuffle(self.cards)
        self.pos = 1  # the burn card
        self.running = 0
        self.number += 1

    def draw(self) -> int:
        if self.pos >= len(self.cards):  # a round that runs out of cards is finished from a fresh pack
            self.cards += self.rng.sample(self.base, len(self.base))
        card = self.cards[self.pos]
        self.pos += 1
        return card

    @property
    def true_count(self) -> float:
        return true_count(self.running, max(len(self.base) - self.pos, 0))

    @property
    def due(self) -> bool:
        return self.pos >= self.cut

    def seen(self, cards: Sequence[int]) -> None:
        self.running += sum(HI_LO_BY_VALUE[c] for c in cards)


@dataclass
class Seat:
    """One seat's round: its bet (units), hands and what was decided."""

    bet: float
    decide: Decide
    insure: bool = False
    hands: list[list[int]] = field(default_factory=list)
    stakes: list[float] = field(default_factory=list)
    done: list[bool] = field(default_factory=list)
    net: float = 0.0
    decisions: list[tuple[tuple[int, ...], str, tuple[str, ...]]] = field(default_factory=list)


def play_round(rules: Rules, seats: Sequence[Seat], draw: Callable[[], int]) -> tuple[int, list[int]]:
    """Deal and play one round at blackjack's rules (peek under an ace or a ten, the dealer to S17/H17); each
    seat's net (units) and decisions are filled in. Returns the up card and every card dealt."""
    dealt: list[int] = []

    def card() -> int:
        c = draw()
        dealt.append(c)
        return c

    firsts = [card() for _ in seats]
    up = card()
    for seat, first in zip(seats, firsts):
        seat.hands, seat.stakes, seat.done, seat.net, seat.decisions = [[first, card()]], [seat.bet], [False], 0.0, []
    hole = card()
    dealer_bj = {up, hole} == {1, 10}
    if up == 1:
        for seat in seats:
            if seat.insure:
                seat.net += seat.bet if dealer_bj else -seat.bet / 2
                seat.decisions.append(((), "insurance", ()))
    live = False
    num, den = rules.blackjack_pays
    for seat in seats:
        hand = seat.hands[0]
        natural = sum(hand) == 11 and 1 in hand
        if dealer_bj:
            seat.net += 0.0 if natural else -seat.bet
            seat.done[0] = True
        elif natural:
            seat.net += seat.bet * num / den
            seat.done[0] = True
    if dealer_bj:
        return up, dealt
    for seat in seats:
        i = 0
        splits = 0
        while i < len(seat.hands):
            hand = seat.hands[i]
            if seat.done[i]:
                i += 1
                continue
            split_hand = len(seat.hands) > 1
            if len(hand) == 1:
                hand.append(card())
            while True:
                hard = sum(hand)
                soft = 1 in hand and hard <= 11
                total = hard + 10 if soft else hard
                if hard > 21:
                    seat.net -= seat.stakes[i]
                    seat.done[i] = True
                    break
                if total == 21:
                    break
                n = len(hand)
                allowed = ["hit", "stand"]
                if split_hand and hand[0] == 1 and n == 2:  # split aces take one card, unless it is an ace to split
                    if not (rules.resplit_aces and hand[1] == 1 and splits < rules.max_splits):
                        break
                    allowed = ["split", "stand"]
                elif n == 2:
                    if (rules.double_after_split or not split_hand) and rules.may_double(total, soft):
                        allowed.append("double")
                    if hand[0] == hand[1] and splits < rules.max_splits:
                        allowed.append("split")
                    if rules.surrender and not split_hand:
                        allowed.append("surrender")
                action = seat.decide(hand, up, allowed)
                seat.decisions.append((tuple(hand), action, tuple(allowed)))
                if action == "stand":
                    break
                if action == "hit":
                    hand.append(card())
                elif action == "double":
                    seat.stakes[i] *= 2
                    hand.append(card())
                    if sum(hand) > 21:
                        seat.net -= seat.stakes[i]
                        seat.done[i] = True
                    break
                elif action == "split":
                    splits += 1
                    seat.hands.append([hand.pop()])
                    seat.stakes.append(seat.bet)
                    seat.done.append(False)
                    split_hand = True
                    hand.append(card())
                else:  # surrender
                    seat.net -= seat.stakes[i] / 2
                    seat.done[i] = True
                    break
            i += 1
        live = live or not all(seat.done)
    if not live:
        return up, dealt
    hard, ace = up + hole, up == 1 or hole == 1
    while True:
        if ace and hard <= 11 and (hard + 10 > 17 or (hard + 10 == 17 and not rules.dealer_hits_soft_17)):
            dealer = hard + 10
            break
        if hard >= 17:
            dealer = hard
            break
        c = card()
        hard += c
        ace = ace or c == 1
    for seat in seats:
        for hand, stake, done in zip(seat.hands, seat.stakes, seat.done):
            if done:
                continue
            hard = sum(hand)
            total = hard + 10 if 1 in hand and hard <= 11 else hard
            if dealer > 21 or total > dealer:
                seat.net += stake
            elif total < dealer:
                seat.net -= stake
    return up, dealt


def play_pontoon_round(rules: Rules, seats: Sequence[Seat], draw: Callable[[], int]) -> tuple[int, list[int]]:
    """Deal and play one round at Pontoon's rules as the engine's house edge plays them
    (:func:`tables.engines.blackjack.round_player`): each punter's first card, the banker's first (face down), each
    punter's second, the banker's second (its up card); a banker natural collects ``dealer_natural_collects`` × each
    bet (a punter's natural loses one bet); a punter's natural is paid ``bonus_pays.natural``; five cards of 21 or
    under and a three-card 7-7-7 or 6-7-8 collect at once; the banker draws to 17; ties lose. Returns the up card
    and every card dealt."""
    dealt: list[int] = []

    def card() -> int:
        c = draw()
        dealt.append(c)
        return c

    bonus = rules.bonus
    charlie = bonus.get("five_card_charlie", 0)
    firsts = [card() for _ in seats]
    hole = card()
    for seat, first in zip(seats, firsts):
        seat.hands, seat.stakes, seat.done, seat.net, seat.decisions = [[first, card()]], [seat.bet], [False], 0.0, []
    up = card()
    dealer_natural = {up, hole} == {1, 10}
    for seat in seats:
        hand = seat.hands[0]
        natural = sum(hand) == 11 and 1 in hand
        if dealer_natural:
            seat.net -= seat.bet if natural else seat.bet * rules.dealer_natural_collects
            seat.done[0] = True
        elif natural:
            seat.net += seat.bet * bonus.get("natural", 0)
            seat.done[0] = True
    if dealer_natural:
        return up, dealt
    live = False
    for seat in seats:
        i = 0
        splits = 0
        while i < len(seat.hands):
            hand = seat.hands[i]
            if seat.done[i]:
                i += 1
                continue
            split_hand = len(seat.hands) > 1
            if len(hand) == 1:
                hand.append(card())
            while True:
                hard = sum(hand)
                soft = 1 in hand and hard <= 11
                total = hard + 10 if soft else hard
                n = len(hand)
                if hard > 21:
                    seat.net -= seat.stakes[i]
                    seat.done[i] = True
                    break
                paid = _pontoon_bonus(hand, charlie, bonus) if total == 21 or n >= 5 else None
                if total == 21:
                    if paid is not None:
                        seat.net += seat.stakes[i] * paid
                        seat.done[i] = True
                    break
                allowed = ["hit", "stand"]
                if split_hand and hand[0] == 1 and n == 2:
                    if not (rules.resplit_aces and hand[1] == 1 and splits < rules.max_splits):
                        break
                    allowed = ["split", "stand"]
                elif n == 2:
                    if (rules.double_after_split or not split_hand) and rules.may_double(total, soft):
                        allowed.append("double")
                    if hand[0] == hand[1] and splits < rules.max_splits:
                        allowed.append("split")
                action = seat.decide(hand, up, allowed)
                seat.decisions.append((tuple(hand), action, tuple(allowed)))
                if action == "stand":
                    if paid is not None:  # a charlie collects
                        seat.net += seat.stakes[i] * paid
                        seat.done[i] = True
                    break
                if action == "hit":
                    hand.append(card())
                elif action == "double":
                    seat.stakes[i] *= 2
                    hand.append(card())
                    if sum(hand) > 21:
                        seat.net -= seat.stakes[i]
                        seat.done[i] = True
                    elif (paid := _pontoon_bonus(hand, charlie, bonus)) is not None:
                        seat.net += seat.stakes[i] * paid
                        seat.done[i] = True
                    break
                else:  # split
                    splits += 1
                    seat.hands.append([hand.pop()])
                    seat.stakes.append(seat.bet)
                    seat.done.append(False)
                    split_hand = True
                    hand.append(card())
            i += 1
        live = live or not all(seat.done)
    if not live:
        return up, dealt
    hard, ace = up + hole, up == 1 or hole == 1
    while True:
        if ace and hard <= 11 and hard + 10 >= 17:
            dealer = hard + 10
            break
        if hard >= 17:
            dealer = hard
            break
        c = card()
        hard += c
        ace = ace or c == 1
    for seat in seats:
        for hand, stake, done in zip(seat.hands, seat.stakes, seat.done):
            if done:
                continue
            hard = sum(hand)
            total = hard + 10 if 1 in hand and hard <= 11 else hard
            seat.net += stake if dealer > 21 or total > dealer else -stake
    return up, dealt


def _pontoon_bonus(hand: list[int], charlie: int, bonus: Mapping[str, int]) -> float | None:
    """What a Pontoon hand that stands (or makes 21) collects at once: a charlie, 7-7-7 or 6-7-8; else None."""
    if sum(hand) > 21:
        return None
    if len(hand) >= 5:
        return float(charlie * 2 ** (len(hand) - 5))
    if len(hand) == 3 and sum(hand) == 21:
        if hand == [7, 7, 7]:
            return float(bonus.get("three_sevens", 0))
        if sorted(hand) == [6, 7, 8]:
            return float(bonus.get("six_seven_eight", 0))
    return None


def round_of(rules: Rules) -> Callable[[Rules, Sequence[Seat], Callable[[], int]], tuple[int, list[int]]]:
    """The simulator's round for the rules: blackjack's or Pontoon's."""
    return play_pontoon_round if rules.pontoon else play_round


def basic_decider(rules: Rules) -> Decide:
    """Basic strategy as the engine's house edge plays it; at Pontoon, with five cards or more it draws only while
    the hand cannot bust."""
    strategy = BasicStrategy(dealer_hits_soft_17=rules.dealer_hits_soft_17, double_after_split=rules.double_after_split)
    pontoon = rules.pontoon

    def decide(hand: list[int], up: int, allowed: list[str]) -> str:
        if pontoon and len(hand) >= 5 and "hit" in allowed:
            return "hit" if sum(hand) <= 11 else "stand"
        return strategy.decide(hand, up, allowed)

    return decide


def careless_decider(rules: Rules) -> Decide:
    """A careless player: never doubles or splits (hits or plays the total instead), stands on any hard 15 or
    more, and hits soft 18 — the habits of a player who plays by feel."""
    basic = basic_decider(rules)

    def decide(hand: list[int], up: int, allowed: list[str]) -> str:
        plain = [a for a in allowed if a in ("hit", "stand")] or allowed
        hard = sum(hand)
        soft = 1 in hand and hard <= 11
        total = hard + 10 if soft else hard
        if not soft and total >= 15 and "stand" in plain:
            return "stand"
        if soft and total == 18 and "hit" in plain:
            return "hit"
        return basic(hand, up, plain)

    return decide


class Player:
    """The player under study: whether and how much to bet before each round, how to play, whether to insure."""

    def __init__(self, kind: str, rules: Rules, rng: random.Random) -> None:
        if kind not in KINDS:
            raise ValueError(f"not a kind of player: {kind!r}")
        self.kind = kind
        self.rng = rng
        self.decide = careless_decider(rules) if kind == "careless" else basic_decider(rules)
        self.insure = kind == "careless" and not rules.pontoon  # Pontoon has no insurance
        self.seated = kind != "back_counter"
        self.units = 1

    def bet(self, tc: float, new_shoe: bool) -> int:
        """Units bet this round, 0 when not playing it."""
        if self.kind == "counter":
            return next((units for at, units in COUNTER_RAMP if tc >= at), 1)
        if self.kind == "back_counter":
            if new_shoe:
                self.seated = False
            if not self.seated and tc >= BACK_COUNTER_ENTERS:
                self.seated = True
            elif self.seated and tc < BACK_COUNTER_LEAVES:
                self.seated = False
            return 2 if self.seated else 0
        if self.kind == "flat":
            # count-blind: comes and goes, and changes the bet now and then, whatever the cards
            if self.seated and self.rng.random() < 0.02:
                self.seated = False
            elif not self.seated and self.rng.random() < 0.1:
                self.seated = True
            if self.rng.random() < 0.05:
                self.units = self.rng.choice((1, 1, 2, 3, 5))
            return self.units if self.seated else 0
        return 1


@dataclass
class TableRun:
    """What the pit's records would hold for the player under study."""

    kind: str
    table_rounds: list[TableRound]
    bets: list[tuple[float, int]]  # (true count, units) of each round played
    round_costs: list[float]  # each played round's decision costs, units of its initial bet
    decisions: int
    deviations: int
    net: float  # units


def run_table(kind: str, rules: Rules, *, rounds: int, seed: int, costs: DecisionCosts | None = None) -> TableRun:
    """The table until the player under study has played ``rounds`` rounds."""
    rng = random.Random(seed)
    shoe = Shoe(rules.decks, rng)
    player = Player(kind, rules, rng)
    costs = costs or decision_costs(rules)
    play = round_of(rules)
    other = Seat(1, basic_decider(rules))
    mine = Seat(1, player.decide, insure=player.insure)
    run = TableRun(kind, [], [], [], 0, 0, 0.0)
    new_shoe = True
    while len(run.bets) < rounds:
        if shoe.due:
            shoe.shuffle()
            new_shoe = True
        tc = shoe.true_count
        units = player.bet(tc, new_shoe)
        new_shoe = False
        run.table_rounds.append(TableRound(shoe.number, tc, units > 0))
        seats = [other]
        if units:
            mine.bet = units
            seats = [mine, other]
        up, dealt = play(rules, seats, shoe.draw)
        shoe.seen(dealt)
        if units:
            run.bets.append((tc, units))
            run.net += mine.net
            cost = 0.0
            for hand, action, allowed in mine.decisions:
                run.decisions += 1
                c = costs.insurance_cost(0.5) if action == "insurance" else costs.cost(list(hand), up, action, allowed)
                if c:
                    run.deviations += 1
                cost += c
            run.round_costs.append(cost)
    return run


def flagged(run: TableRun, edges: EdgeTable, alpha: float = DEFAULT_ALPHA) -> bool:
    """Whether either count flag (bets following the count, entering and leaving with it) is raised."""
    return bet_pattern(run.bets, edges).flagged(alpha) or back_counting(run.table_rounds).flagged(alpha)


def flag_rate(
    kind: str, rules: Rules, edges: EdgeTable, *, trials: int, rounds: int, seed: int, alpha: float = DEFAULT_ALPHA
) -> tuple[int, int]:
    """(flagged, trials) over ``trials`` seeded tables of ``rounds`` rounds played each."""
    costs = decision_costs(rules)
    hits = sum(
        flagged(run_table(kind, rules, rounds=rounds, seed=seed * 100_003 + t, costs=costs), edges, alpha)
        for t in range(trials)
    )
    return hits, trials


@dataclass(frozen=True)
class StrategyGap:
    """The careless (or any) strategy against basic strategy on the same cards (common random numbers)."""

    rounds: int
    true_gap: float  # mean net of basic strategy − mean net of the strategy, units of the bet
    true_gap_ci95: float  # its 95 % half-width
    measured_cost: float  # mean of the strategy's decision costs on the same rounds
    measured_cost_se: float


def strategy_gap(kind: str, rules: Rules, *, rounds: int, seed: int) -> StrategyGap:
    """Both strategies play each round from the same place in the same shoe, one seat, one unit: the
    difference of their nets is the true cost of the strategy (its interval from the rounds' spread), and the
    decisions it made are costed by :class:`~tables.protection.skill.DecisionCosts`."""
    rng = random.Random(seed)
    shoe = Shoe(rules.decks, rng)
    costs = decision_costs(rules)
    play = round_of(rules)
    insure = kind == "careless" and not rules.pontoon
    basic = Seat(1, basic_decider(rules))
    other = Seat(1, careless_decider(rules) if kind == "careless" else basic_decider(rules), insure=insure)
    diff_sum = diff_sq = cost_sum = cost_sq = 0.0
    for _ in range(rounds):
        if shoe.due:
            shoe.shuffle()
        start = shoe.pos
        play(rules, [basic], shoe.draw)
        end = shoe.pos
        shoe.pos = start
        up, _ = play(rules, [other], shoe.draw)
        shoe.pos = max(end, shoe.pos)
        d = basic.net - other.net
        diff_sum += d
        diff_sq += d * d
        c = sum(
            costs.insurance_cost(0.5) if a == "insurance" else costs.cost(list(h), up, a, allowed)
            for h, a, allowed in other.decisions
        )
        cost_sum += c
        cost_sq += c * c
    mean_d = diff_sum / rounds
    mean_c = cost_sum / rounds
    sd_d = math.sqrt(max(diff_sq / rounds - mean_d**2, 0.0))
    sd_c = math.sqrt(max(cost_sq / rounds - mean_c**2, 0.0))
    return StrategyGap(rounds, mean_d, 1.96 * sd_d / math.sqrt(rounds), mean_c, sd_c / math.sqrt(rounds))


def per_true_count_edges(rules: Rules, *, rounds: int, seed: int) -> dict[int, tuple[float, int]]:
    """The basic-strategy player's mean net (units) and rounds at each whole true count, one seat: the
    simulated counterpart of :class:`~tables.protection.betting.EdgeTable`."""
    rng = random.Random(seed)
    shoe = Shoe(rules.decks, rng)
    seat = Seat(1, basic_decider(rules))
    sums: dict[int, list[float]] = {}
    for _ in range(rounds):
        if shoe.due:
            shoe.shuffle()
        tc = int(shoe.true_count)
        _, dealt = play_round(rules, [seat], shoe.draw)
        shoe.seen(dealt)
        s = sums.setdefault(max(-6, min(6, tc)), [0.0, 0])
        s[0] += seat.net
        s[1] += 1
    return {tc: (s[0] / s[1], int(s[1])) for tc, s in sorted(sums.items())}


@dataclass
class RecordedShoe:
    """One shoe's rounds as the dealer would enter them: each a round document's bets and events."""

    burn: int
    rounds: list[tuple[list[dict[str, object]], list[dict[str, object]]]]


def counter_documents(
    config: dict[str, object], *, shoes: int, seed: int, counter_seat: int = 1, other_seat: int = 3, unit: int = 1_000
) -> list[RecordedShoe]:
    """Shoes of blackjack rounds in the engine's document form with a Hi-Lo counter at ``counter_seat`` (the
    1–8 ramp of :data:`COUNTER_RAMP`, ``unit`` minor units a unit) and a flat bettor at ``other_seat``, both
    playing basic strategy: what the demo's day deals and the tests record."""
    rng = random.Random(seed)
    resolved = BLACKJACK.resolve_config(dict(config))
    decks = int(resolved["decks"])
    cards = [r + s for r in "23456789TJQKA" for s in "SHDC"] * decks
    size = len(cards)
    cut = int(size * PENETRATION)
    out = []
    for _ in range(shoes):
        rng.shuffle(cards)
        pos = 1  # the burn card
        running = 0
        shoe = RecordedShoe(burn=1, rounds=[])
        while pos < cut:
            tc = true_count(running, size - pos)
            units = next((u for at, u in COUNTER_RAMP if tc >= at), 1)
            bets: list[dict[str, object]] = [
                {"id": "c", "seat": counter_seat, "type": "bet", "amount": units * unit},
                {"id": "f", "seat": other_seat, "type": "bet", "amount": 2 * unit},
            ]
            start = pos

            def draw() -> str:
                nonlocal pos
                card = cards[pos] if pos < size else rng.choice(cards)
                pos += 1
                return card

            doc, _ = play_out(BLACKJACK, resolved, [dict(b) for b in bets], draw)
            events = doc["events"]
            dealt = [e["card"] for e in events if "card" in e]
            if pos > size or len(dealt) != pos - start:
                break  # a round that would run out of cards is not dealt: the shoe ends here
            running += sum(HI_LO_BY_VALUE[min(VALUES_OF_RANKS[c[0]], 10)] for c in dealt)
            shoe.rounds.append((bets, events))
        out.append(shoe)
    return out


VALUES_OF_RANKS = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10, **{str(v): v for v in range(2, 10)}}
