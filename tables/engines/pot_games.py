"""Pot games: Red Dog (the high-card pool) and In-Between (Acey-Deucey), players against a pot.

One round document is one **deal**: every player antes into the pot (on top of what the pot
carries in from the last deal, the ``carry_in`` setting the service fills in from the ledger),
then each player in seat order bets against the pot, never more than the pot holds at that
moment. A winning bet takes its own amount out of the pot; a losing bet goes into it. When a
win empties the pot and players are still to bet, every player antes again. The house is not a
party to the bets; its income is the rake the table sets (none by default, as at a home game).

>>> doc = {"game": "in_between", "bets": [{"id": "a1", "seat": 1, "type": "ante", "amount": 1},
...                                        {"id": "a2", "seat": 2, "type": "ante", "amount": 1}],
...        "events": [{"card": "3S"}, {"card": "QH"}, {"bet": {"id": "b1", "seat": 1, "type": "pot_bet", "amount": 2}},
...                   {"card": "9D"}]}
>>> out = IN_BETWEEN.play(IN_BETWEEN.load(doc)).to_json()
>>> out["bets"][2]["result"], out["bets"][2]["net"], out["pot"], out["next"]["say"]
('win', 2, 0, 'Pot is empty: seat 1 antes 1')
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any, ClassVar

from tables.engines.base import (
    LIMIT_SETTINGS,
    Bet,
    BetSpec,
    EdgeRow,
    Engine,
    Json,
    Round,
    Setting,
    SettingKind,
    awaiting,
    bet_result,
    chip_setting,
    expect_action,
    expect_card,
    handover,
    parse_bet,
    rounding_setting,
    settled,
)
from tables.engines.cards import RANKS, Card, Shoe, full_deck, parse_card
from tables.engines.errors import BetSetError, EngineError
from tables.engines.inputs import Deck, amount_input, choice_input, fresh_bet_id, option
from tables.engines.money import Rounding, percent_of
from tables.engines.profile import Bank, Family, GameProfile, OnePerSeat
from tables.engines.result import RoundResult
from tables.engines.speech import Speech, speech

ANTE, POT_BET, FORFEIT = "ante", "pot_bet", "forfeit"
RAKE_ON = ("win", "pot")


@dataclass(frozen=True, slots=True)
class Step:
    """What the deal needs next: a card (``to`` says where) or a bet of one of ``bet_types`` from ``seat``."""

    kind: str  # "card" or "bet"
    seat: int
    to: str | None = None
    bet_types: tuple[str, ...] = ()


class PotDeal:
    """One deal at a pot table: the players, the pot, the pool's totals and the bets decided so far.

    Subclasses say which card or bet comes next (:meth:`step`) and what a card does.
    """

    def __init__(self, cfg: Mapping[str, Any], antes: Sequence[Bet], *, max_players: int) -> None:
        self.cfg = cfg
        seats = {bet.seat for bet in antes}  # one ante a seat: the profile's rule (Engine.parse_bets)
        if not 2 <= len(seats) <= max_players:
            raise BetSetError(
                "bad_bet",
                f"a deal needs 2 to {max_players} players, each with one ante in bets (got {len(seats)})",
                params={"max_players": max_players, "players": len(seats), "reason": "players"},
            )
        self.players = sorted(seats)
        self.carry_in: int = cfg["carry_in"]
        self.pot = self.carry_in
        self.stakes = self.paid = self.rake = 0  # a pot bet enters ``stakes`` when it settles
        self.rows: list[Json] = []
        self.ids: set[str] = set()
        self.reante: list[int] = []
        self.re_antes = 0
        self.current = 0  # index in ``players`` of the seat whose turn it is
        self.pending: Bet | None = None  # the current seat's pot bet, waiting on its card
        self.shoe = Shoe(1)
        for bet in sorted(antes, key=lambda b: b.seat):
            self._stake(bet)
            self.stakes += bet.amount
            self.pot += bet.amount
            self.rows.append(bet_result(bet, "anted", -bet.amount, handover=handover(at_bet=bet.amount)))

    # -- what comes next -------------------------------------------------------------------
    @property
    def seat(self) -> int:
        return self.players[self.current]

    def complete(self) -> bool:
        return not self.reante and self.current == len(self.players)

    def step(self) -> Step | None:
        if self.reante:
            return Step("bet", self.reante[0], bet_types=(ANTE,))
        if self.complete():
            return None
        return self.turn_step()

    def turn_step(self) -> Step:  # pragma: no cover - abstract
        raise NotImplementedError

    def bet_range(self) -> tuple[int, int]:
        """The smallest and largest pot bet allowed now: never more than the pot, nor the table maximum."""
        lo_cfg, hi_cfg = self.cfg["min_bet"] or 1, self.cfg["max_bet"]
        hi = self.pot if hi_cfg is None else min(self.pot, hi_cfg)
        return min(lo_cfg, self.pot), hi

    # -- taking bets and cards -------------------------------------------------------------
    def take_bet(self, bet: Bet) -> None:
        """Apply a bet placed now (an ante after the pot emptied, a pot bet, a forfeit), or refuse it."""
        if bet.id in self.ids:
            raise EngineError("duplicate_bet", f"bet id {bet.id} is used twice", params={"bet": bet.id})
        step = self.step()
        if step is None:
            raise EngineError("out_of_turn", "the deal is complete, no more bets")
        if step.kind != "bet":
            raise EngineError("out_of_turn", f"a card is due next ({self.say(step).text()}), not a bet")
        if bet.seat != step.seat:
            raise EngineError("out_of_turn", f"bet {bet.id}: it is seat {step.seat}'s turn, not seat {bet.seat}'s", params={"bet": bet.id, "seat": step.seat, "seat_given": bet.seat, "reason": "seat_turn"})
        if bet.type not in step.bet_types:
            raise EngineError(
                "out_of_turn", f"bet {bet.id}: seat {step.seat} owes {' or '.join(step.bet_types)} now, not {bet.type}", params={"bet": bet.id, "seat": step.seat, "owed": list(step.bet_types), "type": bet.type}
            )
        if bet.type == ANTE:
            if bet.amount != self.cfg["ante"]:
                raise EngineError("bad_amount", f"bet {bet.id}: the ante is {self.cfg['ante']}, not {bet.amount}", params={"bet": bet.id, "ante": self.cfg['ante'], "amount": bet.amount})
            self._stake(bet)
            self.stakes += bet.amount
            self.pot += bet.amount
            self.reante.pop(0)
            self.rows.append(bet_result(bet, "anted", -bet.amount, reante=True, handover=handover(at_bet=bet.amount)))
            return
        if bet.type == FORFEIT:
            if bet.amount != self.cfg["forfeit"]:
                raise EngineError(
                    "bad_amount", f"bet {bet.id}: passing forfeits {self.cfg['forfeit']}, not {bet.amount}", params={"bet": bet.id, "forfeit": self.cfg['forfeit'], "amount": bet.amount}
                )
            self._stake(bet)
            self.stakes += bet.amount
            self.pot += bet.amount
            self.rows.append(bet_result(bet, "forfeit", -bet.amount, handover=handover(at_bet=bet.amount)))
            self._next_seat()
            return
        lo, hi = self.bet_range()
        if bet.amount > self.pot:
            raise EngineError("over_pot", f"bet {bet.id}: {bet.amount} is more than the pot holds ({self.pot})", params={"bet": bet.id, "amount": bet.amount, "pot": self.pot})
        if bet.amount > hi:
            raise EngineError("over_table_max", f"bet {bet.id}: {bet.amount} is over the table maximum {hi}", params={"bet": bet.id, "amount": bet.amount, "max": hi})
        if bet.amount < lo:
            raise EngineError("under_table_min", f"bet {bet.id}: {bet.amount} is under the minimum {lo}", params={"bet": bet.id, "amount": bet.amount, "min": lo})
        self._stake(bet)
        self.pending = bet
        self.on_pot_bet(bet)

    def take_card(self, card: Card | str, to: Any) -> None:
        """Apply the next card (text as entered, or a :class:`Card`), checking ``to`` against the rules."""
        step = self.step()
        if step is None:
            raise EngineError("out_of_turn", "the deal is complete, no more cards")
        if step.kind != "card":
            raise EngineError("out_of_turn", f"a bet is due next ({self.say(step).text()}), not a card")
        if to is not None and to != step.to:
            if to not in self.card_targets():
                raise EngineError("bad_event", f"'to' must be one of {', '.join(self.card_targets())}", params={"targets": list(self.card_targets())})
            raise EngineError("out_of_turn", f"the next card goes to {step.to}, not {to}", params={"expected": step.to, "to": to})
        if not isinstance(card, Card):
            card = parse_card(card)
        self.shoe.take(card)
        self.on_card(card)

    def card_targets(self) -> tuple[str, ...]:
        """Every ``to`` a card of this game can carry."""
        raise NotImplementedError  # pragma: no cover - abstract

    def on_pot_bet(self, bet: Bet) -> None:
        """A pot bet was placed; games that settle some bets without a card do it here."""

    def on_card(self, card: Card) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- money -----------------------------------------------------------------------------
    def _stake(self, bet: Bet) -> None:
        self.ids.add(bet.id)

    def win(self, bet: Bet, amount: int, **extra: Any) -> None:
        """The pot pays ``amount`` to the bet (its stake comes back too); the rake, if any, comes off the win."""
        rake = 0
        if self.cfg["rake_on"] == "win":
            rake = percent_of(amount, self.cfg["rake_bp"], Rounding(self.cfg["rake_rounding"]), self.cfg["chip"])
        self.pot -= amount
        self.stakes += bet.amount
        self.paid += bet.amount + amount - rake
        self.rake += rake
        result = "win" if amount else "push"
        self.rows.append(bet_result(bet, result, amount - rake, 0, rake=rake, pot_before=self.pot + amount,
                                    handover=handover(pay=amount - rake, during_deal=True), **extra))
        self._next_seat()

    def lose(self, bet: Bet, **extra: Any) -> None:
        self.pot += bet.amount
        self.stakes += bet.amount
        self.rows.append(bet_result(bet, "lose", -bet.amount, 0, rake=0, pot_before=self.pot - bet.amount,
                                    handover=handover(take=bet.amount, during_deal=True), **extra))
        self._next_seat()

    def _next_seat(self) -> None:
        self.pending = None
        self.current += 1
        if self.pot == 0 and self.current < len(self.players):
            # the rule book: when a player has "bet the pot" and won, each player again antes to restore it
            self.reante = list(self.players)
            self.re_antes += 1

    def end_rake(self) -> int:
        """The rake on the pot at the end of the deal (``rake_on: pot``), before the pot carries."""
        if self.cfg["rake_on"] != "pot" or not self.complete():
            return 0
        return percent_of(self.pot, self.cfg["rake_bp"], Rounding(self.cfg["rake_rounding"]), self.cfg["chip"])

    def pool(self) -> Json:
        rake = self.rake + self.end_rake()
        return {
            "carry_in": self.carry_in,
            "stakes": self.stakes,
            "paid": self.paid,
            "rake": rake,
            "carry_out": self.pot - self.end_rake(),
        }

    # -- the document out ------------------------------------------------------------------
    def say(self, step: Step) -> Speech:
        if step.bet_types == (ANTE,):
            return speech("pot_empty_ante", seat=step.seat, amount=self.cfg["ante"])
        return self.say_turn(step)

    def say_turn(self, step: Step) -> Speech:  # pragma: no cover - abstract
        raise NotImplementedError

    def next_doc(self, step: Step, bet_id: str) -> Json:
        """The step in the dealer's words; ``bet_id`` is the id the engine gives a bet the next event places."""
        if step.kind == "card":
            return expect_card(step.to, self.say(step), seat=step.seat, pot=self.pot)
        if step.bet_types == (ANTE,):
            ante = {"bet": {"id": bet_id, "seat": step.seat, "type": ANTE, "amount": self.cfg["ante"]}}
            return expect_action(
                step.seat, [ANTE], self.say(step), pot_empty=True, amount=self.cfg["ante"], pot=self.pot,
                inp=choice_input(step.seat, [option(ANTE, ante, "Ante")]),
            )
        lo, hi = self.bet_range()
        more: Json = {"min_amount": lo, "max_amount": hi, "pot": self.pot}
        passes = []
        if FORFEIT in step.bet_types:
            more["forfeit"] = self.cfg["forfeit"]
            forfeit = {"bet": {"id": bet_id, "seat": step.seat, "type": FORFEIT, "amount": self.cfg["forfeit"]}}
            passes.append(option(FORFEIT, forfeit, "Pass (forfeit)"))
        template = {"bet": {"id": bet_id, "seat": step.seat, "type": POT_BET}}
        inp = amount_input(step.seat, "Bet against the pot", lo, hi, template, "bet.amount", options=passes)
        return expect_action(step.seat, list(step.bet_types), self.say(step), inp=inp, **more)

    def hands_doc(self) -> Json:  # pragma: no cover - abstract
        raise NotImplementedError

    def result(self, bet_id: str = "e1") -> RoundResult:
        pool = self.pool()
        step = self.step()
        if step is not None:
            return awaiting(
                self.next_doc(step, bet_id), hands=self.hands_doc(), bets=self.rows, pot=self.pot, pool=pool
            )
        seat_net: dict[str, int] = {}
        for row in self.rows:
            seat_net[str(row["seat"])] = seat_net.get(str(row["seat"]), 0) + row["net"]
        outcome = {"pot": pool["carry_out"], "re_antes": self.re_antes, "seat_net": seat_net}
        house = {"net": pool["rake"], "commission": 0, "rake": pool["rake"]}
        return settled(
            hands=self.hands_doc(),
            outcome=outcome,
            bets=self.rows,
            house=house,
            say=speech("pot_carries", amount=pool["carry_out"]),
            pot=pool["carry_out"],
            pool=pool,
        )


class InBetweenDeal(PotDeal):
    """In-Between: two end cards, a bet, the middle card strictly between wins."""

    def __init__(self, cfg: Mapping[str, Any], antes: Sequence[Bet], *, max_players: int) -> None:
        super().__init__(cfg, antes, max_players=max_players)
        self.ends: dict[int, list[Card]] = {seat: [] for seat in self.players}
        self.middle: dict[int, Card] = {}

    def card_targets(self) -> tuple[str, ...]:
        return ("end", "middle")

    def turn_step(self) -> Step:
        seat = self.seat
        if len(self.ends[seat]) < 2:
            return Step("card", seat, "end")
        if self.pending is None:
            return Step("bet", seat, bet_types=(POT_BET,))
        return Step("card", seat, "middle")

    @staticmethod
    def gap(ends: Sequence[Card]) -> int | None:
        """Ranks strictly between the ends (ace high), or None for a pair."""
        lo, hi = sorted(c.high_index for c in ends)
        return None if lo == hi else hi - lo - 1

    def on_pot_bet(self, bet: Bet) -> None:
        ends = self.ends[bet.seat]
        gap = self.gap(ends)
        extra = {"ends": [str(c) for c in ends]}
        if gap is None:  # a pair: no third card, the bet comes back and the pot pays a fixed amount
            self.win(bet, min(self.cfg["pair_pays"], self.pot), reason="pair", **extra)
        elif gap == 0:
            self.lose(bet, reason="consecutive", **extra)

    def on_card(self, card: Card) -> None:
        seat = self.seat
        if len(self.ends[seat]) < 2:
            self.ends[seat].append(card)
            return
        bet = self.pending
        assert bet is not None
        self.middle[seat] = card
        lo, hi = sorted(c.high_index for c in self.ends[seat])
        extra = {"ends": [str(c) for c in self.ends[seat]], "middle": str(card)}
        if lo < card.high_index < hi:
            self.win(bet, bet.amount, reason="between", **extra)
        else:
            self.lose(bet, reason="post" if card.high_index in (lo, hi) else "outside", **extra)

    def say_turn(self, step: Step) -> Speech:
        ends = self.ends[step.seat]
        if step.kind == "card" and step.to == "end":
            return speech("turn_first_end" if not ends else "turn_second_end", seat=step.seat)
        if step.kind == "card":
            assert self.pending is not None
            return speech("turn_middle", seat=step.seat, card=str(ends[0]), card2=str(ends[1]),
                          amount=self.pending.amount)
        lo, hi = self.bet_range()
        gap = self.gap(ends)
        pair = {"seat": step.seat, "card": str(ends[0]), "card2": str(ends[1])}
        if gap is None:
            what = speech("ends_pair", **pair, ranks=ends[0].rank, amount=min(self.cfg["pair_pays"], self.pot))
        elif gap == 0:
            what = speech("ends_consecutive", **pair)
        else:
            what = speech("ends_gap", **pair, count=gap)
        return what.then(". ", speech("bet_range", amount=lo, amount2=hi))

    def hands_doc(self) -> Json:
        doc: Json = {}
        for seat in self.players:
            ends = self.ends[seat]
            middle = self.middle.get(seat)
            doc[f"seat:{seat}"] = {
                "ends": [str(c) for c in ends],
                "middle": str(middle) if middle else None,
                "gap": self.gap(ends) if len(ends) == 2 else None,
            }
        return doc


class RedDogDeal(PotDeal):
    """Red Dog (high-card pool): hands of five (or four), a card turned against each bet."""

    def __init__(self, cfg: Mapping[str, Any], antes: Sequence[Bet], *, max_players: int) -> None:
        super().__init__(cfg, antes, max_players=max_players)
        self.hands: dict[int, list[Card]] = {seat: [] for seat in self.players}
        self.turned: dict[int, Card] = {}
        self.to_deal = len(self.players) * cfg["hand_size"]
        self.n_dealt = 0

    def turn_step(self) -> Step:
        if self.n_dealt < self.to_deal:
            seat = self.players[self.n_dealt % len(self.players)]  # one at a time, round the table in seat order
            return Step("card", seat, f"seat:{seat}")
        if self.pending is None:
            return Step("bet", self.seat, bet_types=(POT_BET, FORFEIT))
        return Step("card", self.seat, "turn")

    def card_targets(self) -> tuple[str, ...]:
        return (*(f"seat:{s}" for s in self.players), "turn")

    def beatable(self, seat: int) -> int:
        """How many of the cards the hand cannot see it beats (its chance is this over 52 less the hand)."""
        hand = self.hands[seat]
        beaten = 0
        for suit in {c.suit for c in hand}:
            ranks = [c.high_index for c in hand if c.suit == suit]
            beaten += max(ranks) - (len(ranks) - 1)  # the lower cards of the suit, less those in the hand
        return beaten

    def beaters(self, seat: int, card: Card) -> list[Card]:
        return sorted(
            (c for c in self.hands[seat] if c.suit == card.suit and c.high_index > card.high_index),
            key=lambda c: c.high_index,
        )

    def on_card(self, card: Card) -> None:
        if self.n_dealt < self.to_deal:
            self.hands[self.players[self.n_dealt % len(self.players)]].append(card)
            self.n_dealt += 1
            return
        bet = self.pending
        assert bet is not None
        self.turned[bet.seat] = card
        beaters = self.beaters(bet.seat, card)
        if beaters:
            self.win(bet, bet.amount, turned=str(card), beaten_by=str(beaters[0]))
        else:
            self.lose(bet, turned=str(card), beaten_by=None)

    def say_turn(self, step: Step) -> Speech:
        if step.kind == "card" and step.to == "turn":
            assert self.pending is not None
            return speech("turn_against_bet", seat=step.seat, amount=self.pending.amount)
        if step.kind == "card":
            return speech("deal_card_to_seat", n=len(self.hands[step.seat]) + 1, m=self.cfg["hand_size"], seat=step.seat)
        lo, hi = self.bet_range()
        return speech("bet_or_forfeit", seat=step.seat, amount=lo, amount2=hi, amount3=self.cfg["forfeit"])

    def hands_doc(self) -> Json:
        return {
            f"seat:{seat}": {
                "cards": [str(c) for c in self.hands[seat]],
                "turned": str(self.turned[seat]) if seat in self.turned else None,
            }
            for seat in self.players
        }


def _pot_settings(*extra: Setting) -> tuple[Setting, ...]:
    return (
        Setting(
            "ante", SettingKind.INT, 1, "what each player puts into the pot at the deal and on a re-ante", minimum=1
        ),
        Setting(
            "carry_in",
            SettingKind.INT,
            0,
            "what the pot holds from the previous deal (the service fills it in from the ledger)",
            minimum=0,
        ),
        *extra,
        Setting(
            "rake_bp",
            SettingKind.INT,
            0,
            "the house's rake, basis points (0: a home game, no rake)",
            minimum=0,
            maximum=10_000,
        ),
        Setting(
            "rake_on",
            SettingKind.CHOICE,
            "win",
            "rake each win taken from the pot, or the pot at the end of the deal",
            choices=RAKE_ON,
        ),
        rounding_setting("rake_rounding", Rounding.DOWN, "rounding of the rake (down: never more than the rate)"),
        chip_setting("rake"),
        *LIMIT_SETTINGS,
    )


class PotGame(Engine):
    """Shared envelope of the pot games: antes in ``bets``, everything else as events."""

    deal_class: ClassVar[type[PotDeal]]

    def max_players(self, cfg: Mapping[str, Any]) -> int:
        return 10

    def check_bet(self, bet: Bet, config: Mapping[str, Any], *, where: str) -> None:
        if bet.type != ANTE:
            raise EngineError(
                "bad_bet",
                f"bet {bet.id}: only antes are placed before the deal; a {bet.type} is an event on its seat's turn",
                field=f"{where}.type", params={"bet": bet.id, "type": bet.type},
            )
        if bet.amount != config["ante"]:
            raise EngineError(
                "bad_amount", f"bet {bet.id}: the ante is {config['ante']}, not {bet.amount}", field=f"{where}.amount", params={"bet": bet.id, "ante": config['ante'], "amount": bet.amount}
            )

    def new_deal(self, cfg: Mapping[str, Any], antes: Sequence[Bet]) -> PotDeal:
        return self.deal_class(cfg, antes, max_players=self.max_players(cfg))

    def play(self, rnd: Round) -> RoundResult:
        deal = self.new_deal(rnd.config, rnd.bets)
        for index, event in enumerate(rnd.events):
            try:
                if "card" in event:
                    extra = set(event) - {"card", "to"}
                    if extra:
                        raise EngineError("bad_event", f"unknown field(s) {', '.join(sorted(extra))}", params={"fields": sorted(extra)})
                    deal.take_card(event["card"], event.get("to"))
                elif "bet" in event:
                    if set(event) != {"bet"}:
                        raise EngineError("bad_event", "a bet event holds only 'bet'")
                    deal.take_bet(parse_bet(event["bet"], self.spec_for, where=f"events[{index}].bet", event=index))
                else:
                    raise EngineError("bad_event", "expected a card or a bet")
            except EngineError as exc:
                raise exc.at(index) from None
        return deal.result(fresh_bet_id(rnd.bets, rnd.events))

    # -- figures -----------------------------------------------------------------------------
    def bet_edges(self, cfg: Mapping[str, Any]) -> list[EdgeRow]:  # pragma: no cover - abstract
        raise NotImplementedError

    def choose(self, deal: PotDeal, step: Step, bet_id: str) -> Bet:  # pragma: no cover - abstract
        raise NotImplementedError

    def house_edge(self, config: Mapping[str, Any], *, seed: int = 1) -> list[EdgeRow]:
        """The pot's edge over each bet (exact) and the house's rake per chip staked (seeded simulation)."""
        cfg = self.resolve_config(config)
        return [*self.bet_edges(cfg), simulate_rake(self, cfg, seed=seed)]


SIM_DEALS, SIM_PLAYERS = 5_000, 4


def simulate_rake(
    game: PotGame, cfg: Mapping[str, Any], *, seed: int, deals: int = SIM_DEALS, players: int = SIM_PLAYERS
) -> EdgeRow:
    """Deal ``deals`` rounds in a row (the pot carries), ``players`` players betting by ``game.choose``.

    Returns the rake per chip staked (antes, forfeits and pot bets all count as staked), with a
    95 % interval from the per-deal ratio estimator.
    """
    if cfg["rake_bp"] == 0:
        return EdgeRow(
            "rake (house)",
            Fraction(0),
            "exact: rake_bp is 0, the house takes nothing",
            note="the house's rake per chip staked (antes, forfeits and pot bets)",
        )
    rng = random.Random(seed)
    carry = cfg["carry_in"]
    rakes: list[int] = []
    stakes: list[int] = []
    n = 0
    pack = full_deck()
    for _ in range(deals):
        deal_cfg = dict(cfg, carry_in=carry)
        antes = [Bet(f"a{s}", s, ANTE, cfg["ante"]) for s in range(1, players + 1)]
        deal = game.new_deal(deal_cfg, antes)
        deck = pack[:]
        rng.shuffle(deck)
        while (step := deal.step()) is not None:
            n += 1
            if step.kind == "card":
                deal.take_card(deck.pop(), None)
            elif step.bet_types == (ANTE,):
                deal.take_bet(Bet(f"r{n}", step.seat, ANTE, cfg["ante"]))
            else:
                deal.take_bet(game.choose(deal, step, f"b{n}"))
        pool = deal.pool()
        rakes.append(pool["rake"])
        stakes.append(pool["stakes"])
        carry = pool["carry_out"]
    total_stakes = sum(stakes)
    ratio = sum(rakes) / total_stakes
    mean_stake = total_stakes / deals
    residual = sum((r - ratio * s) ** 2 for r, s in zip(rakes, stakes)) / (deals - 1)
    half = 1.96 * math.sqrt(residual / deals) / mean_stake
    method = (
        f"simulation: {deals} deals in a row at {players} players (seed {seed}), each betting the most "
        "allowed when its chance is better than even, else the least"
    )
    return EdgeRow(
        "rake (house)",
        ratio,
        method,
        ci95=(ratio - half, ratio + half),
        note="the house's rake per chip staked (antes, forfeits and pot bets)",
    )


class InBetween(PotGame):
    """In-Between (Acey-Deucey): bet that the third card falls strictly between the two turned up."""

    name = "in_between"
    title = "In-Between (Acey-Deucey)"
    deal_class = InBetweenDeal
    settings = _pot_settings(
        Setting(
            "pair_pays",
            SettingKind.INT,
            2,
            "what the pot pays when the two end cards pair (rule book: 2 chips; some games 3)",
            minimum=0,
        ),
    )
    bet_types = {
        ANTE: BetSpec("Each player's ante into the pot, at the deal and when the pot is emptied", limits_apply=False),
        POT_BET: BetSpec("The middle card falls strictly between the ends; pays 1:1 from the pot", limits_apply=False),
    }
    profile = GameProfile(Family.POT, Deck.STANDARD, before_deal=(ANTE,), during_deal=(POT_BET,),
                          one_per_seat=OnePerSeat((ANTE,), "an ante", "why_has_ante"), bank=Bank.NOBODY)

    def bet_edges(self, cfg: Mapping[str, Any]) -> list[EdgeRow]:
        method = "exact enumeration of the two ends and the middle card from one pack"
        pair_win = Fraction(cfg["pair_pays"], cfg["ante"])
        p_pair = Fraction(3, 51)
        rows: list[EdgeRow] = []
        overall = p_pair * pair_win
        for gap in range(12):
            p_gap = Fraction(2 * (12 - gap) * 16, 52 * 51)  # ordered pairs of ranks gap+1 apart, 4×4 cards each
            p_win = Fraction(4 * gap, 50)
            ev = 2 * p_win - 1
            overall += p_gap * ev
            label = "consecutive, lost at once" if gap == 0 else f"{gap} rank{'s' if gap > 1 else ''} between"
            rows.append(
                EdgeRow(
                    f"{POT_BET} (gap {gap})",
                    -ev,
                    method,
                    note=f"{label}; the pot's edge over the bettor (negative: the bettor's edge)",
                )
            )
        rows.append(
            EdgeRow(
                f"{POT_BET} (pair)",
                -pair_win,
                method,
                note=f"the bet comes back and the pot pays {cfg['pair_pays']} (one-ante stake)",
            )
        )
        rows.insert(
            0,
            EdgeRow(
                POT_BET,
                -overall,
                method,
                note="the pot's edge over a bettor staking one ante on every turn, whatever the "
                "ends (negative: the bettor's edge)",
            ),
        )
        return rows

    def choose(self, deal: PotDeal, step: Step, bet_id: str) -> Bet:
        assert isinstance(deal, InBetweenDeal)
        lo, hi = deal.bet_range()
        gap = deal.gap(deal.ends[step.seat])
        good = gap is not None and 4 * gap * 2 > 50
        return Bet(bet_id, step.seat, POT_BET, hi if good else lo)


class RedDog(PotGame):
    """Red Dog (high-card pool): bet that a card in your hand beats the turned card in its suit."""

    name = "red_dog"
    title = "Red Dog (high-card pool)"
    deal_class = RedDogDeal
    settings = _pot_settings(
        Setting(
            "hand_size",
            SettingKind.INT,
            5,
            "cards dealt to each player (rule book: five; four with more than eight players)",
            minimum=4,
            maximum=5,
        ),
        Setting("forfeit", SettingKind.INT, 1, "what a player who does not bet forfeits to the pot", minimum=1),
    )
    bet_types = {
        ANTE: BetSpec("Each player's ante into the pot, at the deal and when the pot is emptied", limits_apply=False),
        POT_BET: BetSpec(
            "A card of the hand beats the turned card in its suit; pays 1:1 from the pot", limits_apply=False
        ),
        FORFEIT: BetSpec("The player does not bet and forfeits a chip to the pot", limits_apply=False),
    }
    profile = GameProfile(Family.POT, Deck.STANDARD, before_deal=(ANTE,), during_deal=(POT_BET, FORFEIT),
                          one_per_seat=OnePerSeat((ANTE,), "an ante", "why_has_ante"), bank=Bank.NOBODY)

    def max_players(self, cfg: Mapping[str, Any]) -> int:
        # each player's hand plus one turned card per player must come out of one pack
        return min(10, 52 // (int(cfg["hand_size"]) + 1))

    def bet_edges(self, cfg: Mapping[str, Any]) -> list[EdgeRow]:
        size = cfg["hand_size"]
        p_win = win_probability(size)
        method = f"exact: a {size}-card hand against a card turned from the rest of the pack"
        return [
            EdgeRow(
                POT_BET,
                1 - 2 * p_win,
                method,
                note=f"the pot's edge over a bettor staking the same on every hand (wins {float(p_win):.4%}; "
                "negative: the bettor's edge); the bettor who sees the hand does far better",
            ),
            EdgeRow(FORFEIT, Fraction(1), "exact: a forfeit always goes to the pot"),
        ]

    def choose(self, deal: PotDeal, step: Step, bet_id: str) -> Bet:
        assert isinstance(deal, RedDogDeal)
        lo, hi = deal.bet_range()
        better_than_even = 2 * deal.beatable(step.seat) > 52 - len(deal.hands[step.seat])
        return Bet(bet_id, step.seat, POT_BET, hi if better_than_even else lo)


def win_probability(hand_size: int) -> Fraction:
    """Chance that a random hand holds a higher card of the suit of a card turned from the rest of the pack."""
    total = Fraction(0)
    for index in range(len(RANKS)):
        higher = len(RANKS) - 1 - index
        total += 1 - Fraction(comb(51 - higher, hand_size), comb(51, hand_size))
    return total / len(RANKS)


IN_BETWEEN = InBetween()
RED_DOG = RedDog()
ENGINES = {IN_BETWEEN.name: IN_BETWEEN, RED_DOG.name: RED_DOG}
