"""Play a round to the end as a table would: for the demo floor, load tests and benchmarks.

Only the engine decides what is legal: autoplay asks ``next`` what is due and supplies it —
the card the shoe gives (the top of a shuffled shoe, so a card is dealt at the first try), a
choice, the dice, a bid, a pot bet. *How* the people at the table choose is the game's
:class:`Behaviour`, plain data and small functions in :data:`BEHAVIOURS`: the bets players make
before the deal, basic strategy at blackjack, the house way at pai gow and pusoy, raising with a
pair at Caribbean stud, betting the pot on a wide spread at In-Between, count bets near the
likely number of survivors at Carousel, an auction at the Calcutta… Stakes follow the table's
limits (``min_bet``/``max_bet`` in the config).

:func:`autoplay` plays the bets it is given, answers every question ``next`` asks and, with
``bettors=True``, lets the players bet between stages where the game takes such bets (Faro
turns, Carousel rounds, the horse race's book). :func:`play_round` is a whole believable round:
the behaviour's opening bets, then :func:`autoplay` with bettors.

>>> import random
>>> from tables.engines.registry import get_engine
>>> doc = autoplay(get_engine("baccarat"), {}, [{"id": "b1", "seat": 1, "type": "player", "amount": 100}],
...                random.Random(7))
>>> get_engine("baccarat").play(get_engine("baccarat").load(doc)).status.value
'settled'
>>> doc = play_round(get_engine("red_dog"), {"ante": 500, "forfeit": 500, "min_bet": 500}, random.Random(3))
>>> get_engine("red_dog").play(get_engine("red_dog").load(doc)).status.value
'settled'
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tables.engines.base import Engine, Json
from tables.engines.blackjack.strategy import BasicStrategy
from tables.engines.cards import JOKER, RANKS, SUITS, parse_card
from tables.engines.errors import EngineError
from tables.engines.inputs import Deck
from tables.engines.registry import get_engine
from tables.engines.triangle import seat_order_key

# the most seats a game's layout has (the table may have fewer)
GAME_SEATS = {"pai_gow_poker": 6, "pusoy": 3, "red_dog": 8, "in_between": 10}


def _deck_of(game: str) -> Deck:
    """The deck the game's engine declares; a standard pack for a game no engine plays (a test's stand-in)."""
    try:
        return get_engine(game).profile.deck
    except EngineError:
        return Deck.STANDARD


def card_pool(game: str, config: Mapping[str, Any]) -> list[str]:
    """Every card the game's shoe holds, as strings (the deck its engine's profile names)."""
    deck = _deck_of(game)
    if deck is Deck.TRIANGLE:
        return [str(n) for n in range(1, 11) for _ in range(n)]
    decks = int(config.get("decks") or 1)
    ranks = RANKS.replace("A", "") if deck is Deck.STANDARD_NO_ACES else RANKS  # the aces are the horses
    cards = [r + s for r in ranks for s in SUITS] * decks
    if deck is Deck.STANDARD_JOKER:
        cards.append(JOKER)
    return cards


class AutoplayStuck(Exception):
    """The engine asked for something autoplay cannot supply."""


# -- the table: its seats, its shoe, its money --------------------------------------------------

STAKE_UNITS = (1, 1, 1, 1, 2, 2, 2, 3, 4, 5, 5, 10, 20)  # multiples of the table minimum players put down


@dataclass
class SimulatedTable:
    """What autoplay knows of the table it plays at: the rules, the seats, the shoe, a random source."""

    game: str
    config: Mapping[str, Any]  # resolved: every setting present
    seats: int
    rng: random.Random
    shoe: list[str] = field(default_factory=list)
    reserved: dict[str, str] = field(default_factory=dict)  # cards set aside for a place (a hole card)
    shuffle_mark: Any = None
    auction_log: list[str | None] = field(default_factory=list)  # the horse of every raise, for the auctioneer
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def __post_init__(self) -> None:
        if not self.shoe:
            self.reshuffle()

    def reshuffle(self) -> None:
        self.shoe = card_pool(self.game, self.config)
        self.rng.shuffle(self.shoe)
        self.reserved.clear()

    def take(self, place: str | None = None) -> str:
        """The next card for ``place``: one set aside for it, else the top of the shoe."""
        if place in self.reserved:
            return self.reserved.pop(place)
        if not self.shoe:
            raise AutoplayStuck(f"{self.game}: the shoe is empty")
        return self.shoe.pop()

    def new_id(self, prefix: str) -> str:
        return f"{prefix}{next(self._ids)}"

    # money ---------------------------------------------------------------------------------
    @property
    def minimum(self) -> int:
        return int(self.config.get("min_bet") or 100)

    @property
    def maximum(self) -> int:
        hi = self.config.get("max_bet")
        return int(hi) if hi else self.minimum * 100

    def stake(self, *, high: int | None = None) -> int:
        """A stake a player would put down: a few table minimums, within the limits."""
        hi = min(self.maximum, high) if high is not None else self.maximum
        return max(self.minimum, min(hi, self.minimum * self.rng.choice(STAKE_UNITS)))

    def players(self, chance: float, *, at_least: int = 1, seats: Sequence[int] | None = None) -> list[int]:
        """The seats that play this round: each with ``chance``, at least ``at_least`` of them."""
        pool = list(seats) if seats is not None else list(range(1, self.seat_count + 1))
        chosen = [s for s in pool if self.rng.random() < chance]
        missing = [s for s in pool if s not in chosen]
        self.rng.shuffle(missing)
        while len(chosen) < min(at_least, len(pool)):
            chosen.append(missing.pop())
        return sorted(chosen)

    @property
    def seat_count(self) -> int:
        return min(self.seats, GAME_SEATS.get(self.game, self.seats))


# -- behaviours: how the people at each game's table play --------------------------------------

OpeningBets = Callable[[SimulatedTable], list[Json]]
Choice = Callable[[SimulatedTable, Json, Json], Json]
BetsBetween = Callable[[SimulatedTable, Json, Json], list[Json]]


def no_bets(table: SimulatedTable) -> list[Json]:
    return []


def nothing_between(table: SimulatedTable, step: Json, out: Json) -> list[Json]:
    return []


def any_allowed(table: SimulatedTable, step: Json, out: Json) -> Json:
    return _action(step, table.rng.choice(list(step.get("allowed") or [None])))


def prefer(*order: str) -> Choice:
    """Take the first of ``order`` the step allows (``house_way`` before setting by hand…)."""

    def choose(table: SimulatedTable, step: Json, out: Json) -> Json:
        allowed = list(step.get("allowed") or [])
        for action in order:
            if action in allowed:
                return _action(step, action)
        return any_allowed(table, step, out)

    return choose


@dataclass(frozen=True)
class Behaviour:
    """One game's table: the bets before the deal, the answer to each ``action``, bets between stages."""

    opening: OpeningBets = no_bets
    choose: Choice = any_allowed
    between: BetsBetween = nothing_between  # with ``bettors``: bets offered along with a card step
    shuffle_mark: Callable[[Json], Any] | None = None  # a change of this mark means the pack was gathered up


def _action(step: Json, action: Any, **more: Any) -> Json:
    # the dealer's own decision at pusoy: ``next`` has seat null and position "dealer"; the event says "dealer"
    seat = "dealer" if step.get("position") == "dealer" else step.get("seat")
    event: Json = {"seat": seat, "action": action}
    if step.get("hand") is not None and isinstance(step["hand"], int):
        event["hand"] = step["hand"]
    event.update(more)
    return event


def layout_bets(
    weights: Mapping[str, int],
    *,
    chance: float = 0.7,
    side: Mapping[str, int] | None = None,
    side_chance: float = 0.0,
    at_least: int = 1,
) -> OpeningBets:
    """Each playing seat puts one stake on a bet drawn by ``weights``; a few add a small side bet."""
    kinds, odds = list(weights), list(weights.values())

    def opening(table: SimulatedTable) -> list[Json]:
        bets = []
        for seat in table.players(chance, at_least=at_least):
            bets.append({"seat": seat, "type": table.rng.choices(kinds, odds)[0], "amount": table.stake()})
            if side and table.rng.random() < side_chance:
                kind = table.rng.choices(list(side), list(side.values()))[0]
                bets.append({"seat": seat, "type": kind, "amount": table.minimum})
        return bets

    return opening


def one_per_seat(
    kind: str,
    *,
    chance: float = 0.7,
    at_least: int = 1,
    skip: Callable[[SimulatedTable], set[int]] | None = None,
    amount: Callable[[SimulatedTable], int] | None = None,
) -> OpeningBets:
    """Each playing seat puts down the game's one bet (a blackjack bet, an ante, a wager…)."""

    def opening(table: SimulatedTable) -> list[Json]:
        skipped = skip(table) if skip else set()
        seats = [s for s in range(1, table.seat_count + 1) if s not in skipped]
        stake = amount or (lambda t: t.stake())
        return [
            {"seat": s, "type": kind, "amount": stake(table)}
            for s in table.players(chance, at_least=at_least, seats=seats)
        ]

    return opening


# blackjack and pontoon ------------------------------------------------------------------------


def _value(card: str) -> int:
    rank = parse_card(card).rank
    return 1 if rank == "A" else 10 if rank in "TJQK" else int(rank)


def _seat_hand(out: Json, seat: Any, hand: Any) -> Json:
    for key, h in (out.get("hands") or {}).items():
        if key != "dealer" and isinstance(h, dict) and h.get("seat") == seat and h.get("hand") == (hand or 0):
            return h
    return {}


def blackjack_choice(table: SimulatedTable, step: Json, out: Json) -> Json:
    allowed = list(step.get("allowed") or [])
    dealer = (out.get("hands") or {}).get("dealer") or {}
    up = dealer.get("cards") or []
    if "peek" in allowed:
        # the hole card was dealt with the others; the dealer looks at it now, so it is set aside for later
        hole = table.take("dealer")
        table.reserved["dealer"] = hole
        natural = {_value(up[0]), _value(hole)} == {1, 10}
        return {"action": "peek", "result": "blackjack" if natural else "no_blackjack"}
    if "insurance" in allowed:
        hand = _seat_hand(out, step.get("seat"), 0)
        even_money = hand.get("status") == "natural"
        if table.rng.random() < (0.5 if even_money else 0.1):
            return {"seat": step["seat"], "action": "insurance", "amount": int(step.get("max_amount") or 1)}
        return {"seat": step["seat"], "action": "no_insurance"}
    hand = _seat_hand(out, step.get("seat"), step.get("hand"))
    strategy = BasicStrategy(
        dealer_hits_soft_17=bool(table.config.get("dealer_hits_soft_17")),
        double_after_split=bool(table.config.get("double_after_split")),
    )
    action = strategy.decide([_value(c) for c in hand.get("cards") or []], _value(up[0]) if up else 10, allowed)
    return _action(step, action if action in allowed else "stand")


def pontoon_choice(table: SimulatedTable, step: Json, out: Json) -> Json:
    allowed = list(step.get("allowed") or [])
    if step.get("hand") == "dealer":  # the banking player draws at will: to 17
        total = ((out.get("hands") or {}).get("dealer") or {}).get("total") or 0
        return {"seat": step["seat"], "action": "hit" if total < 17 and "hit" in allowed else "stand"}
    hand = _seat_hand(out, step.get("seat"), step.get("hand"))
    cards = hand.get("cards") or []
    values = [_value(c) for c in cards]
    total = hand.get("total") or sum(values)
    if "split" in allowed and len(values) == 2 and values[0] == values[1] and values[0] in (1, 8):
        return _action(step, "split")
    if "double" in allowed and len(values) == 2 and total in (10, 11):
        return _action(step, "double")
    if len(cards) >= 5:  # a five-card trick collects when it stands
        return _action(step, "stand")
    return _action(step, "hit" if total < 16 and "hit" in allowed else "stand")


def pontoon_punters(table: SimulatedTable) -> set[int]:
    return {int(table.config.get("banker_seat") or 0)}


# chemin de fer --------------------------------------------------------------------------------


def chemin_de_fer_bets(table: SimulatedTable) -> list[Json]:
    """One seat holds the bank; the punters cover it, one of them (banco) or several, never more than it."""
    rng = table.rng
    seats = list(range(1, table.seat_count + 1))
    banker = rng.choice(seats)
    bank = max(table.minimum, min(table.maximum, table.minimum * rng.choice((4, 5, 10, 10, 20, 40))))
    bets: list[Json] = [{"seat": banker, "type": "bank", "amount": bank}]
    punters = [s for s in seats if s != banker]
    rng.shuffle(punters)
    if rng.random() < 0.3:  # banco: one punter takes the whole bank
        return [*bets, {"seat": punters[0], "type": "punto", "amount": bank}]
    left = bank
    for seat in punters[: rng.randint(1, min(4, len(punters)))]:
        if left < table.minimum:
            break
        amount = table.stake(high=left)
        bets.append({"seat": seat, "type": "punto", "amount": amount})
        left -= amount
    return bets


# poker games ----------------------------------------------------------------------------------


def _pair_or_better(cards: Sequence[str]) -> bool:
    from tables.engines.poker import Category, category_of, rank5  # its tables take a moment to build: on use

    return category_of(rank5([parse_card(c) for c in cards])) >= Category.PAIR


def caribbean_choice(table: SimulatedTable, step: Json, out: Json) -> Json:
    """Raise with a pair or better, or ace-king; fold the rest."""
    cards = ((out.get("hands") or {}).get(f"seat:{step.get('seat')}") or {}).get("cards") or []
    ranks = {parse_card(c).rank for c in cards}
    strong = len(cards) == 5 and (_pair_or_better(cards) or {"A", "K"} <= ranks)
    return {"seat": step["seat"], "action": "raise" if strong else "fold"}


def let_it_ride_choice(table: SimulatedTable, step: Json, out: Json) -> Json:
    """Let it ride with a paying pair (tens or better) or better, or three (then four) to a flush."""
    hands = out.get("hands") or {}
    cards = list((hands.get(f"seat:{step.get('seat')}") or {}).get("cards") or [])
    cards += list((hands.get("community") or {}).get("cards") or [])
    parsed = [parse_card(c) for c in cards]
    ranks = Counter(c.rank for c in parsed)
    paying_pair = any(n >= 2 and r in "TJQKA" for r, n in ranks.items())
    trips = any(n >= 3 for n in ranks.values()) or sum(1 for n in ranks.values() if n >= 2) >= 2
    suited = len({c.suit for c in parsed}) == 1
    ride = paying_pair or trips or suited
    return {"seat": step["seat"], "action": "let_it_ride" if ride else "pull_back"}


# pot games ------------------------------------------------------------------------------------


def pot_game_antes(table: SimulatedTable) -> list[Json]:
    ante = int(table.config.get("ante") or 1)
    return [{"seat": s, "type": "ante", "amount": ante} for s in table.players(0.8, at_least=2)]


def _chip(table: SimulatedTable) -> int:
    return int(table.config.get("ante") or table.config.get("min_bet") or 1)


def _pot_amount(table: SimulatedTable, step: Json, share: float) -> int:
    """``share`` of the most the step allows, in whole chips, within the step's bounds."""
    lo, hi = int(step.get("min_amount") or 1), int(step.get("max_amount") or 1)
    chip = _chip(table)
    amount = int(hi * share) // chip * chip
    return max(lo, min(hi, amount))


def _red_dog_chance(cards: Sequence[str]) -> float:
    """How often a card turned from the cards not in the hand is beaten by the hand (same suit, higher)."""
    hand = [parse_card(c) for c in cards]
    best = {s: max((c.high_index for c in hand if c.suit == s), default=-1) for s in SUITS}
    seen = {(c.rank, c.suit) for c in hand}
    unseen = [(r, s) for r in RANKS for s in SUITS if (r, s) not in seen]
    return sum(1 for r, s in unseen if RANKS.index(r) < best[s]) / len(unseen)


def pot_game_choice(table: SimulatedTable, step: Json, out: Json) -> Json:
    allowed = list(step.get("allowed") or [])
    seat = step.get("seat")
    if allowed == ["ante"]:  # the pot is empty: everyone antes again
        return {"bet": {"id": table.new_id("r"), "seat": seat, "type": "ante", "amount": int(step["amount"])}}
    hand = (out.get("hands") or {}).get(f"seat:{seat}") or {}
    rng = table.rng
    if "ends" in hand:  # In-Between: bet by the spread between the two ends
        gap = hand.get("gap")
        share = 0.0 if gap is None or gap < 4 else 0.25 if gap < 7 else 0.6 if gap < 9 else 1.0
    else:  # Red Dog: bet by the hand's chance against the card to be turned
        chance = _red_dog_chance(hand.get("cards") or [])
        if chance < 0.4 and "forfeit" in allowed:
            return {
                "bet": {
                    "id": table.new_id("f"),
                    "seat": seat,
                    "type": "forfeit",
                    "amount": int(step.get("forfeit") or 1),
                }
            }
        share = 0.0 if chance < 0.5 else 0.3 if chance < 0.6 else 1.0
    share *= rng.choice((0.5, 1.0, 1.0))
    return {
        "bet": {"id": table.new_id("p"), "seat": seat, "type": "pot_bet", "amount": _pot_amount(table, step, share)}
    }


# faro and stuss -------------------------------------------------------------------------------


def faro_opening(table: SimulatedTable) -> list[Json]:
    return [_faro_bet(table, seat, dict.fromkeys(RANKS, 4)) for seat in table.players(0.5)]


def _faro_bet(table: SimulatedTable, seat: int, casekeeper: Mapping[str, int]) -> Json:
    live = [r for r, n in casekeeper.items() if n > 0]
    bet: Json = {"seat": seat, "type": "rank", "rank": table.rng.choice(live), "amount": table.stake()}
    if table.rng.random() < 0.2:
        bet["coppered"] = True
    return bet


def faro_between(table: SimulatedTable, step: Json, out: Json) -> list[Json]:
    """Between turns a player may put a stake on a rank still live; with three cards left, call the turn."""
    if not step.get("bets_open"):
        return []
    casekeeper = out.get("casekeeper") or {}
    rng = table.rng
    events = []
    if any(n > 0 for n in casekeeper.values()) and rng.random() < 0.25:
        bet = _faro_bet(table, rng.randint(1, table.seat_count), casekeeper)
        events.append({"bet": {"id": table.new_id("t"), **bet}})
    if "call_the_turn" in (step.get("bet_types") or []) and rng.random() < 0.6:
        left = [r for r, n in casekeeper.items() for _ in range(n)]
        rng.shuffle(left)
        events.append(
            {
                "bet": {
                    "id": table.new_id("c"),
                    "seat": rng.randint(1, table.seat_count),
                    "type": "call_the_turn",
                    "order": left,
                    "amount": table.stake(),
                }
            }
        )
    return events


# the Carousel games ---------------------------------------------------------------------------


def _expected_survivors(out: Json) -> float:
    """How many running hands should survive the next card each: a hand dies on a card it already holds."""
    hands = [h for h in (out.get("hands") or {}).values() if isinstance(h, dict)]
    dealt = Counter(int(c) for h in hands for c in h.get("cards") or [])
    left = {n: n - dealt[n] for n in range(1, 11)}
    total = sum(left.values()) or 1
    return sum(1 - sum(left[int(c)] for c in set(h.get("cards") or [])) / total for h in hands if h.get("alive"))


def carousel_between(table: SimulatedTable, step: Json, out: Json) -> list[Json]:
    """A betting round: the players still in (or anyone, while the carry is zero) name a count, from the button."""
    betting = step.get("betting")
    if not isinstance(betting, dict):
        return []
    rng = table.rng
    lo, hi = betting.get("numbers") or [0, 0]
    amount = int(betting.get("amount") or table.config.get("limit") or 1)
    kinds = betting.get("bet_types") or []
    running = list(betting.get("running") or [])
    placed = {b.get("seat") for b in betting.get("placed") or [] if b.get("type") == "count"}
    if betting.get("seats") is None:  # anyone may join: the order starts at the button (the config's: next omits it)
        button = int(table.config.get("button") or 1)
        order = sorted(table.players(0.6, at_least=0), key=lambda s: seat_order_key(s, button))
    else:
        order = [s for s in betting["seats"] if rng.random() < 0.9]
    if "turn" in betting and betting.get("turn") is not None:
        # the engine takes count bets in turn: a seat sitting out before a later bettor passes
        button = int(table.config.get("button") or 1)
        seats = betting.get("seats") or range(1, int(table.config.get("seats") or table.seat_count) + 1)
        in_turn = sorted(seats, key=lambda s: seat_order_key(s, button))
        in_turn = in_turn[in_turn.index(betting["turn"]):]
        order = [s for s in in_turn if s in order]
        last = in_turn.index(order[-1]) if order else -1
        passing = {s for s in in_turn[:last] if s not in order}
    else:
        passing = set()
    guess = _expected_survivors(out)
    events: list[Json] = []
    for seat in sorted({*order, *passing}, key=lambda s: seat_order_key(s, int(table.config.get("button") or 1))):
        if seat in passing:
            events.append({"seat": seat, "action": "pass"})
            continue
        if seat in placed:
            continue
        number = max(lo, min(hi, round(guess + rng.gauss(0, 0.8))))
        events.append(
            {"bet": {"id": table.new_id("n"), "seat": seat, "type": "count", "number": number, "amount": amount}}
        )
    for seat in range(1, table.seat_count + 1):
        if "pony" in kinds and running and rng.random() < 0.35:
            events.append(
                {
                    "bet": {
                        "id": table.new_id("y"),
                        "seat": seat,
                        "type": "pony",
                        "hand": rng.choice(running),
                        "amount": amount,
                    }
                }
            )
        if "living_win" in kinds and running and rng.random() < 0.15:
            events.append(
                {
                    "bet": {
                        "id": table.new_id("w"),
                        "seat": seat,
                        "type": "living_win",
                        "hand": rng.choice(running),
                        "amount": table.stake(),
                    }
                }
            )
        if "high_card" in kinds and running and rng.random() < 0.3:
            events.append(
                {
                    "bet": {
                        "id": table.new_id("h"),
                        "seat": seat,
                        "type": "high_card",
                        "hand": rng.choice(running),
                        "amount": amount,
                    }
                }
            )
    return events


# horse races ----------------------------------------------------------------------------------


def horse_race_between(table: SimulatedTable, step: Json, out: Json) -> list[Json]:
    """The book is open: players back horses at the odds offered, favourites more often."""
    betting = step.get("betting")
    if not isinstance(betting, dict) or betting.get("placed"):
        return []
    odds = {h: int(o) for h, o in (betting.get("odds") or {}).items() if int(o) > 0}
    if not odds:
        return []
    horses = list(odds)
    weights = [1 / (odds[h] + 1) for h in horses]
    return [
        {
            "bet": {
                "id": table.new_id("h"),
                "seat": seat,
                "type": "horse",
                "horse": table.rng.choices(horses, weights)[0],
                "amount": table.stake(),
            }
        }
        for seat in table.players(0.6)
    ]


def course_voids(out: Json) -> int:
    """Row voids so far: after each the dealer gathers and shuffles the 48 cards again."""
    return len(((out.get("hands") or {}).get("course") or {}).get("void") or [])


def auction(table: SimulatedTable, step: Json, out: Json) -> Json:
    """The Calcutta auction: a seat opens on a horse, others raise now and then, then the hammer falls."""
    rng = table.rng
    minimum = int(step.get("minimum") or 1)
    raise_by = int(table.config.get("min_raise") or 1)
    high = step.get("high_bid")
    seats = list(range(1, table.seat_count + 1))
    if high is None:
        horse = rng.choice(list(step.get("horses") or ["S"]))
        amount = minimum + raise_by * rng.randint(0, 4)
        return {"bid": {"seat": rng.choice(seats), "horse": horse, "amount": amount}}
    sell = step.get("sell") or {}
    bids_so_far = sum(1 for e in table.auction_log if e == sell.get("horse"))
    others = [s for s in seats if s != high.get("seat")]
    if others and rng.random() < 0.7 ** (bids_so_far + 1):
        table.auction_log.append(sell.get("horse"))
        return {
            "bid": {
                "seat": rng.choice(others),
                "horse": sell.get("horse"),
                "amount": minimum + raise_by * rng.randint(0, 2),
            }
        }
    return {"bet": {"id": table.new_id("buy"), **sell}}


def throw_dice(table: SimulatedTable, step: Json, out: Json) -> Json:
    return {"dice": [table.rng.randint(1, 6) for _ in range(3)]}


BACCARAT = {"banker": 46, "player": 42, "tie": 8, "player_pair": 2, "banker_pair": 2}
TRENTE = {"noir": 40, "rouge": 40, "couleur": 10, "inverse": 10}

BEHAVIOURS: dict[str, Behaviour] = {
    "baccarat": Behaviour(
        opening=layout_bets(BACCARAT, side={"tie": 2, "player_pair": 1, "banker_pair": 1}, side_chance=0.2)
    ),
    "chemin_de_fer": Behaviour(opening=chemin_de_fer_bets),
    "blackjack": Behaviour(opening=one_per_seat("bet"), choose=blackjack_choice),
    "pontoon": Behaviour(opening=one_per_seat("bet", skip=pontoon_punters), choose=pontoon_choice),
    "pai_gow_poker": Behaviour(opening=one_per_seat("wager"), choose=prefer("house_way")),
    "pusoy": Behaviour(opening=one_per_seat("wager"), choose=prefer("house_way")),
    "caribbean_stud": Behaviour(opening=one_per_seat("ante"), choose=caribbean_choice),
    "let_it_ride": Behaviour(opening=one_per_seat("ride"), choose=let_it_ride_choice),
    "red_dog": Behaviour(opening=pot_game_antes, choose=pot_game_choice),
    "in_between": Behaviour(opening=pot_game_antes, choose=pot_game_choice),
    "faro": Behaviour(opening=faro_opening, between=faro_between),
    "stuss": Behaviour(opening=faro_opening, between=faro_between),
    "trente_et_quarante": Behaviour(opening=layout_bets(TRENTE)),
    "carousel": Behaviour(between=carousel_between),
    "pony": Behaviour(between=carousel_between),
    "merry_go_round": Behaviour(between=carousel_between),
    "horse_race": Behaviour(between=horse_race_between, shuffle_mark=course_voids),
    "calcutta_horse_race": Behaviour(shuffle_mark=course_voids),
}
DEFAULT_BEHAVIOUR = Behaviour()


def behaviour_for(game: str) -> Behaviour:
    return BEHAVIOURS.get(game, DEFAULT_BEHAVIOUR)


# -- playing ------------------------------------------------------------------------------------


def opening_bets(engine: Engine, config: Mapping[str, Any], rng: random.Random, *, seats: int = 7) -> list[Json]:
    """The bets the players at the table make before the deal, with ids ``b1``, ``b2``…

    A bet this table's rules do not take (pair bets turned off, say) is left out."""
    table = _table(engine, config, rng, seats)
    bets = [{"id": f"b{i}", **bet} for i, bet in enumerate(behaviour_for(engine.name).opening(table), start=1)]
    while bets:
        try:
            engine.load({"game": engine.name, "config": dict(config), "bets": bets, "events": []})
        except EngineError as exc:
            at = re.match(r"bets\[(\d+)\]", exc.field or "")
            if at is None:
                break  # the set as a whole: the round will say so
            bets.pop(int(at.group(1)))
            continue
        break
    return [{"id": f"b{i}", **{k: v for k, v in bet.items() if k != "id"}} for i, bet in enumerate(bets, start=1)]


def play_round(
    engine: Engine, config: Mapping[str, Any], rng: random.Random, *, seats: int = 7, events: Sequence[Json] = ()
) -> Json:
    """A believable round: the players' bets before the deal, their choices, their bets between stages."""
    bets = opening_bets(engine, config, rng, seats=seats)
    return autoplay(engine, config, bets, rng, seats=seats, bettors=True, events=events)


def autoplay(
    engine: Engine,
    config: Mapping[str, Any],
    bets: Sequence[Json],
    rng: random.Random,
    *,
    max_events: int = 2000,
    seats: int = 7,
    bettors: bool = False,
    events: Sequence[Json] = (),
) -> Json:
    """A complete round document: ``bets``, then ``events`` (e.g. the carried ``players``), then an
    answer to everything ``next`` asks until the round is settled. With ``bettors`` the players
    also bet between stages where the game takes such bets."""
    doc: Json = {"game": engine.name, "config": dict(config), "bets": list(bets), "events": list(events)}
    table = _table(engine, config, rng, seats)
    behaviour = behaviour_for(engine.name)
    out = _play(engine, doc)
    for _ in range(max_events):
        if out["status"] == "settled":
            return doc
        if behaviour.shuffle_mark is not None:
            mark = behaviour.shuffle_mark(out)
            if table.shuffle_mark is not None and mark != table.shuffle_mark:
                table.reshuffle()
            table.shuffle_mark = mark
        step = out["next"] or {}
        kind = step.get("expect")
        if kind == "card":
            if bettors:
                for event in behaviour.between(table, step, out):
                    out = _offer(engine, doc, event) or out
            out = _deal(engine, doc, table, step)
        elif kind == "action":
            out = _answer(engine, doc, behaviour.choose(table, step, out), table, step)
        elif kind == "dice":
            out = _answer(engine, doc, throw_dice(table, step, out), table, step)
        elif kind == "bid":
            out = _answer(engine, doc, auction(table, step, out), table, step)
        else:
            raise AutoplayStuck(f"{engine.name}: cannot supply {kind!r}")
    raise AutoplayStuck(f"{engine.name}: no end after {max_events} events")


def _table(engine: Engine, config: Mapping[str, Any], rng: random.Random, seats: int) -> SimulatedTable:
    resolved = engine.resolve_config(config)
    return SimulatedTable(engine.name, resolved, min(seats, int(resolved.get("seats") or seats)), rng)


def _play(engine: Engine, doc: Json) -> Json:
    return engine.play(engine.load(doc)).to_json()


def _offer(engine: Engine, doc: Json, event: Json) -> Json | None:
    """Append ``event`` if the engine takes it; its answer, or None (the event is dropped)."""
    doc["events"].append(event)
    try:
        return _play(engine, doc)
    except EngineError:
        doc["events"].pop()
        return None


def _deal(engine: Engine, doc: Json, table: SimulatedTable, step: Json) -> Json:
    place = step.get("to")
    card = table.take(place)
    out = _offer(engine, doc, {"card": card})
    if out is not None:
        return out
    # the rules refuse this card here (rare): look through the shoe for one they take
    for i in range(len(table.shoe) - 1, -1, -1):
        out = _offer(engine, doc, {"card": table.shoe[i]})
        if out is not None:
            table.shoe.pop(i)
            table.shoe.insert(0, card)
            return out
    raise AutoplayStuck(f"{engine.name}: no card in the shoe is accepted at {step}")


def _answer(engine: Engine, doc: Json, event: Json, table: SimulatedTable, step: Json) -> Json:
    out = _offer(engine, doc, event)
    if out is not None:
        return out
    # the behaviour's choice was refused: any allowed choice the engine takes
    allowed = list(step.get("allowed") or [])
    table.rng.shuffle(allowed)
    for action in allowed:
        out = _offer(engine, doc, _action(step, action))
        if out is not None:
            return out
    raise AutoplayStuck(f"{engine.name}: {event} is refused at {step}")
