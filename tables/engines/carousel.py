"""Carousel, Pony and Merry-Go-Round: pool games on the 55-card triangle deck (rule book).

One round document is one *game*: the dealer deals a foundation card to each hand (horse),
then betting rounds and deal rounds alternate. In each betting round every player still in
stakes exactly the table ``limit`` on how many hands will survive the next deal (a hand
holding a pair dies); the bets on the right count split the whole pot, odd chips and unwon
pots carry, and the house takes ``rake_bp`` (10 %, rounded up) of every non-zero carry. The
game ends when one hand or none is left; its carry goes to the next game (``carry_in``).
Pony adds the pony pool on the last horse standing and the house-backed living-win bet
(6:1); Merry-Go-Round adds the per-round high card pool.

The first round of the rule book's example game (table limit 1 chip):

>>> cards = [{"card": c} for c in "3 4 6 7 8 9".split()]
>>> bets = [{"bet": {"id": f"r1s{s}", "seat": s, "type": "count", "number": n, "amount": 1}}
...         for s, n in zip(range(1, 6), [4, 4, 5, 6, 0])]
>>> deal = [{"card": c} for c in "10 10 10 6 8 7".split()]
>>> doc = {"game": "carousel", "config": {"limit": 1}, "events": cards + bets + deal}
>>> out = ENGINES["carousel"].play(ENGINES["carousel"].load(doc)).to_json()
>>> out["next"]["say"], [(b["seat"], b["result"], b["net"]) for b in out["bets"] if b["result"] == "win"]
('Betting round 2: take bets', [(3, 'win', 4)])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, ClassVar

from tables.engines.base import (
    LIMIT_SETTINGS,
    Bet,
    EdgeRow,
    Engine,
    Json,
    Round,
    awaiting,
    bet_result,
    expect_card,
    handover,
    parse_bet,
    settled,
)
from tables.engines.carousel_edge import edge_rows
from tables.engines.carousel_rules import (
    BASE_SETTINGS,
    COUNT_SPEC,
    HIGH_CARD_CARRY,
    HIGH_CARD_SPEC,
    LIVING_WIN_PAYS,
    LIVING_WIN_SPEC,
    PONY_CARRY,
    PONY_SPEC,
    SEATS,
)
from tables.engines.errors import BetSetError, EngineError
from tables.engines.inputs import Deck, card_input, fresh_bet_id, open_bet, option
from tables.engines.money import Rounding
from tables.engines.profile import Bank, Family, GameProfile, OpenBet, TurnOrder
from tables.engines.result import RoundResult
from tables.engines.speech import speech
from tables.engines.triangle import (
    COUNT,
    HIGH_CARD,
    LIVING_WIN,
    MAX_SEAT,
    PONY,
    Pool,
    TriangleShoe,
    parse_triangle_card,
    seat_order_key,
)

BET_LABELS = {COUNT: "Count (hands to survive)", PONY: "Pony (last hand standing)",
              LIVING_WIN: "Living win (house-backed)", HIGH_CARD: "High card"}


# -- one game, replayed event by event -----------------------------------------------------


class Phase(StrEnum):
    FOUNDATIONS = "foundations"
    BETTING = "betting"
    DEALING = "dealing"
    OVER = "over"


@dataclass(slots=True)
class Horse:
    """One hand: its stack of cards, and the round it died in (None while it runs)."""

    number: int
    cards: list[int] = field(default_factory=list)
    died_in: int | None = None

    @property
    def alive(self) -> bool:
        return self.died_in is None

    def as_dict(self) -> Json:
        return {"cards": [str(c) for c in self.cards], "alive": self.alive, "died_in_round": self.died_in}


def hand_name(number: int) -> str:
    return f"hand:{number}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def pony_winners(horses: Sequence[Horse], candidates: Sequence[int]) -> list[int]:
    """The horses that win the race among ``candidates`` (the last ones standing).

    Ties go to the higher card rank, comparing the stacks from the most recent card back;
    horses whose stacks tie all the way split the prize.

    >>> hs = [Horse(1, [3, 7, 7]), Horse(2, [5, 9, 9]), Horse(3, [4, 9, 9])]
    >>> pony_winners(hs, [1, 2, 3])
    [2]
    """
    if len(candidates) <= 1:
        return list(candidates)
    keys = {n: tuple(reversed(horses[n - 1].cards)) for n in candidates}
    best = max(keys.values())
    return [n for n in candidates if keys[n] == best]


class Game:
    """The state of one Carousel game after the events so far."""

    def __init__(self, engine: CarouselEngine, config: Mapping[str, Any]) -> None:
        self.engine = engine
        self.cfg = config
        self.n = config["foundations"]
        self.limit = config["limit"]
        self.bet_id: str | None = None  # the id the engine gives a bet placed by the next event
        self.chip = config["chip"]
        self.button = config["button"]
        self.seats: int | None = config.get("seats")  # the table's seats: with them, count bets go by turns
        self.bp = config["rake_bp"]
        self.rounding = Rounding(config["rake_rounding"])
        self.shoe = TriangleShoe()
        self.horses = [Horse(i) for i in range(1, self.n + 1)]
        self.phase = Phase.FOUNDATIONS
        self.round = 0  # the betting/deal round in progress (0 while dealing the foundations)
        self.queue: list[int] = []  # hands still to receive a card this deal round
        self.dealt_now: dict[int, int] = {}  # this deal round's card to each hand
        self.end: str | None = None
        self.pools = {COUNT: Pool(COUNT, config["carry_in"], config["carry_in"])}
        if engine.has_pony:
            self.pools[PONY] = Pool(PONY, config["pony_carry_in"], config["pony_carry_in"])
        if engine.has_high_card:
            self.pools[HIGH_CARD] = Pool(HIGH_CARD, config["high_card_carry_in"], config["high_card_carry_in"])
        self.bet_ids: set[str] = set()
        self.round_bets: list[Bet] = []  # bets taken in the betting round in progress
        self.game_bets: list[Bet] = []  # pony and living-win bets, settled at the end
        self.rows: list[Json] = []  # settled bet rows, in the order they were decided
        self.rounds: list[Json] = []
        self.players_declared: list[int] | None = None
        self.count_bettors: list[set[int]] = []  # seats with a count bet, per betting round
        self.passed: set[int] = set()  # seats that passed (sat out) the betting round in progress
        self.players_ever: set[int] = set()
        self.pony_result: Json | None = None

    # -- who and what ---------------------------------------------------------------------
    def running(self) -> list[int]:
        return [h.number for h in self.horses if h.alive]

    def carry(self) -> int:
        return self.pools[COUNT].carry

    def still_in(self) -> list[int] | None:
        """Seats allowed a count bet this round; None while the carry is zero (anyone may join)."""
        if self.carry() == 0:
            return None
        if self.round == 1:
            return sorted(self.players_declared or [], key=lambda s: seat_order_key(s, self.button))
        return sorted(self.count_bettors[-2], key=lambda s: seat_order_key(s, self.button))

    # -- events ---------------------------------------------------------------------------
    def apply(self, index: int, event: Mapping[str, Any]) -> None:
        kinds = [k for k in ("card", "bet", "players", "action") if k in event]
        if len(kinds) != 1:
            raise EngineError("bad_event", f"event {index}: expected a card, a bet, a pass or a players list", event=index)
        allowed = {"card": {"card", "to"}, "bet": {"bet"}, "players": {"players"}, "action": {"seat", "action"}}[kinds[0]]
        extra = set(event) - allowed
        if extra:
            raise EngineError("bad_event", f"event {index}: unknown field(s) {', '.join(sorted(extra))}", event=index, params={"fields": sorted(extra)})
        if kinds[0] == "card":
            self.take_card(index, event)
        elif kinds[0] == "bet":
            self.take_bet(index, event["bet"])
        elif kinds[0] == "action":
            self.take_pass(index, event)
        else:
            self.take_players(index, event["players"])

    def take_players(self, index: int, players: Any) -> None:
        if (
            self.phase is not Phase.FOUNDATIONS
            or any(h.cards for h in self.horses)
            or self.players_declared is not None
        ):
            raise EngineError(
                "out_of_turn",
                f"event {index}: the players still in are listed once, before the first card",
                event=index,
            )
        if (
            not isinstance(players, list)
            or not all(_is_int(s) and 1 <= s <= MAX_SEAT for s in players)
            or len(set(players)) != len(players)
        ):
            raise EngineError(
                "bad_event", f"event {index}: players must be a list of distinct seats 1 to {MAX_SEAT}", event=index, params={"max_seat": MAX_SEAT}
            )
        self.players_declared = list(players)

    def expected_to(self) -> int | None:
        if self.phase is Phase.FOUNDATIONS:
            return next(h.number for h in self.horses if not h.cards)
        if self.phase is Phase.BETTING:
            return self.running()[0]
        if self.phase is Phase.DEALING:
            return self.queue[0]
        return None

    def take_card(self, index: int, event: Mapping[str, Any]) -> None:
        target = self.expected_to()
        if target is None:
            raise EngineError(
                "out_of_turn", f"event {index}: the game is over ({self.end}), no more cards", event=index, params={"end": self.end}
            )
        to = event.get("to")
        if to is not None and to != hand_name(target):
            names = [hand_name(h.number) for h in self.horses]
            if to not in names:
                raise EngineError("bad_event", f"event {index}: 'to' must be one of {', '.join(names)}", event=index, params={"names": list(names)})
            raise EngineError(
                "out_of_turn", f"event {index}: the next card goes to hand {target}, not {to}", event=index, params={"expected": target, "to": to}
            )
        try:
            rank = parse_triangle_card(event["card"])
            self.shoe.take(rank)
        except EngineError as exc:
            raise exc.at(index) from None
        if self.phase is Phase.FOUNDATIONS:
            self.horses[target - 1].cards.append(rank)
            if target == self.n:
                self.open_betting()
            return
        if self.phase is Phase.BETTING:
            self.phase = Phase.DEALING
            self.queue = self.running()
            self.dealt_now = {}
        horse = self.horses[self.queue.pop(0) - 1]
        if rank in horse.cards:
            horse.died_in = self.round
        horse.cards.append(rank)
        self.dealt_now[horse.number] = rank
        if not self.queue:
            self.settle_round()

    def open_betting(self) -> None:
        self.round += 1
        self.phase = Phase.BETTING
        self.round_bets = []
        self.count_bettors.append(set())
        self.passed = set()

    # -- turns ----------------------------------------------------------------------------
    def in_turn(self) -> list[int] | None:
        """The seats that act this betting round, in turn from the button, or None when the engine
        cannot tell (no ``seats`` setting and anyone may join: bets need only come in seat order)."""
        allowed = self.still_in()
        if allowed is not None:
            return allowed
        if self.seats is None:
            return None
        return sorted(range(1, self.seats + 1), key=lambda s: seat_order_key(s, self.button))

    def turn(self) -> int | None:
        """The seat to act now in the betting round (bet or pass), or None: nobody is left to act,
        or the engine cannot tell (see :meth:`in_turn`)."""
        if self.phase is not Phase.BETTING:
            return None
        seats = self.in_turn()
        if seats is None:
            return None
        acted = self.count_bettors[-1] | self.passed
        return next((s for s in seats if s not in acted), None)

    def refuse_out_of_turn(self, index: int, seat: int, doing: str, **params: Any) -> None:
        """Refuse ``seat`` acting now if it is not its turn, naming the rule."""
        turn = self.turn()
        if self.in_turn() is None or seat == turn:
            return
        if seat in self.passed:
            raise EngineError(
                "out_of_turn", f"event {index}: seat {seat} passed this betting round and cannot {doing}",
                event=index, params={**params, "seat": seat, "reason": "passed"},
            )
        if turn is None:
            raise EngineError(
                "out_of_turn",
                f"event {index}: every seat has acted this betting round: seat {seat} cannot {doing}",
                event=index, params={**params, "seat": seat, "reason": "all_acted"},
            )
        first = turn == self.button
        raise EngineError(
            "out_of_turn",
            f"event {index}: seat {seat} cannot {doing} now: seat {turn} acts "
            + ("first: the button is at its seat" if first else f"next in seat order from the button (seat {self.button})"),
            event=index,
            params={**params, "seat": seat, "turn": turn, "button": self.button,
                    "reason": "turn_first" if first else "turn_next"},
        )

    def take_pass(self, index: int, event: Mapping[str, Any]) -> None:
        """``{"seat": 3, "action": "pass"}``: the seat to act places no count bet this betting round
        (it sits out: while the carry stands it has withdrawn from the game)."""
        seat, action = event.get("seat"), event.get("action")
        if action != "pass" or not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= MAX_SEAT:
            raise EngineError("bad_event", f"event {index}: the only choice here is a seat's pass: "
                              '{"seat": N, "action": "pass"}', event=index, params={"allowed": ["pass"]})
        if self.phase is not Phase.BETTING:
            raise EngineError("out_of_turn", f"event {index}: seat {seat} can pass only while bets are taken",
                              event=index, params={"seat": seat})
        if self.in_turn() is None:
            raise EngineError("out_of_turn", f"event {index}: passes are taken only where the engine knows the "
                              "table's seats (the seats setting) or the players still in", event=index,
                              params={"seat": seat})
        if seat in self.count_bettors[-1]:
            raise EngineError("out_of_turn", f"event {index}: seat {seat} has already bet this betting round",
                              event=index, params={"seat": seat, "reason": "has_bet"})
        self.refuse_out_of_turn(index, seat, "pass")
        self.passed.add(seat)

    # -- bets -----------------------------------------------------------------------------
    def take_bet(self, index: int, raw: Any) -> None:
        where = f"events[{index}].bet"
        bet = parse_bet(raw, self.engine.spec_for, where=where, event=index)
        if self.phase is not Phase.BETTING:
            doing = {
                Phase.FOUNDATIONS: "the foundations are being dealt",
                Phase.DEALING: f"betting is closed while round {self.round} is dealt",
                Phase.OVER: f"the game is over ({self.end})",
            }[self.phase]
            raise EngineError("out_of_turn", f"event {index}: bet {bet.id}: {doing}", event=index, params={"bet": bet.id})
        if bet.id in self.bet_ids:
            raise EngineError(
                "duplicate_bet", f"event {index}: bet id {bet.id} is used twice", event=index, field=f"{where}.id", params={"bet": bet.id}
            )
        if bet.type == LIVING_WIN:
            self.engine.check_limits(bet, self.cfg, event=index, where=where)
        elif bet.amount != self.limit:
            raise EngineError(
                "bad_amount",
                f"event {index}: bet {bet.id}: a {bet.type} bet stakes exactly the "
                f"table limit {self.limit}, not {bet.amount}",
                event=index,
                field=f"{where}.amount", params={"bet": bet.id, "type": bet.type, "limit": self.limit, "amount": bet.amount},
            )
        checks = {COUNT: self.check_count, PONY: self.check_pony, LIVING_WIN: self.check_pony}
        checks.get(bet.type, self.check_high_card)(index, bet, where)
        self.bet_ids.add(bet.id)
        if bet.type in (PONY, LIVING_WIN):
            self.game_bets.append(bet)
        else:
            self.round_bets.append(bet)

    def check_count(self, index: int, bet: Bet, where: str) -> None:
        number, running = bet.get("number"), len(self.running())
        if not _is_int(number) or not 0 <= number <= running:
            raise EngineError(
                "bad_bet",
                f"event {index}: bet {bet.id}: {running} hands are running, so a count bet "
                f"is on a number from 0 to {running}",
                event=index,
                field=f"{where}.number", params={"bet": bet.id, "running": running, "min": 0, "max": running},
            )
        bettors = self.count_bettors[-1]
        if bet.seat in bettors:
            raise EngineError(
                "bad_bet",
                f"event {index}: bet {bet.id}: seat {bet.seat} already bet this round (one spot per player)",
                event=index,
                field=f"{where}.seat", params={"bet": bet.id, "seat": bet.seat},
            )
        allowed = self.still_in()
        if allowed is not None and bet.seat not in allowed:
            if self.round == 1 and self.players_declared is None:
                who = (
                    'none listed: give the previous game\'s players as a {"players": [...]} event before the first card'
                )
            else:
                who = ", ".join(map(str, allowed)) or "nobody"
            raise EngineError(
                "join_refused",
                f"event {index}: bet {bet.id}: seat {bet.seat} may not join or rejoin "
                f"while the carry is {self.carry()} (players still in: {who})",
                event=index,
                field=f"{where}.seat", params={"bet": bet.id, "seat": bet.seat, "carry": self.carry(), "seats": allowed},
            )
        self.refuse_out_of_turn(index, bet.seat, "bet", bet=bet.id)
        key = seat_order_key(bet.seat, self.button)
        if any(seat_order_key(s, self.button) > key for s in bettors):
            last = max(bettors, key=lambda s: seat_order_key(s, self.button))
            raise EngineError(
                "out_of_turn",
                f"event {index}: bet {bet.id}: seat {bet.seat} bets after seat {last}: "
                f"players bet in seat order from the button (seat {self.button})",
                event=index,
                field=f"{where}.seat",
                params={"bet": bet.id, "seat": bet.seat, "after_seat": last, "button": self.button, "reason": "button_order"},
            )
        bettors.add(bet.seat)
        self.players_ever.add(bet.seat)

    def check_hand_field(self, index: int, bet: Bet, where: str, hands: Sequence[int]) -> None:
        hand = bet.get("hand")
        if not _is_int(hand) or hand not in hands:
            raise EngineError(
                "bad_bet",
                f"event {index}: bet {bet.id}: hand must be one of the running hands {', '.join(map(str, hands))}",
                event=index,
                field=f"{where}.hand", params={"bet": bet.id, "hands": list(hands)},
            )

    def check_pony(self, index: int, bet: Bet, where: str) -> None:
        if self.round != 1:
            raise EngineError(
                "out_of_turn",
                f"event {index}: bet {bet.id}: {bet.type} bets are taken in the first betting round only",
                event=index, params={"bet": bet.id, "type": bet.type},
            )
        self.check_hand_field(index, bet, where, self.running())
        if bet.type == PONY and any(b.type == PONY and b.seat == bet.seat for b in self.game_bets):
            raise EngineError(
                "bad_bet",
                f"event {index}: bet {bet.id}: seat {bet.seat} already has a pony bet",
                event=index,
                field=f"{where}.seat", params={"bet": bet.id, "seat": bet.seat},
            )

    def check_high_card(self, index: int, bet: Bet, where: str) -> None:
        self.check_hand_field(index, bet, where, self.running())
        if any(b.type == HIGH_CARD and b.seat == bet.seat for b in self.round_bets):
            raise EngineError(
                "bad_bet",
                f"event {index}: bet {bet.id}: seat {bet.seat} already has a high card bet this round",
                event=index,
                field=f"{where}.seat", params={"bet": bet.id, "seat": bet.seat},
            )

    # -- settling -------------------------------------------------------------------------
    def settle_pool(self, name: str, bets: Sequence[Bet], won: Any, round_no: int | None) -> Json:
        """Settle one pool: ``won(bet)`` says which bets share it; one row per bet."""
        winning = [b for b in bets if won(b)]
        summary = self.pools[name].settle(
            sum(b.amount for b in bets), len(winning), bp=self.bp, rounding=self.rounding, chip=self.chip
        )
        share = summary["share"]
        for bet in bets:
            if bet in winning:
                self.rows.append(
                    bet_result(bet, "win", share - bet.amount, 0, round=round_no, paid=share,
                               handover=handover(at_bet=bet.amount, pay=share, during_deal=round_no is not None),
                               **dict(bet.extra))
                )
            else:
                self.rows.append(bet_result(bet, "lose", -bet.amount, 0, round=round_no, paid=0,
                                            handover=handover(at_bet=bet.amount, during_deal=round_no is not None),
                                            **dict(bet.extra)))
        summary["winning_bets"] = [b.id for b in winning]
        return summary

    def settle_round(self) -> None:
        survivors = self.running()
        died = [n for n in self.dealt_now if not self.horses[n - 1].alive]
        count_bets = [b for b in self.round_bets if b.type == COUNT]
        summary: Json = {
            "round": self.round,
            "cards": {hand_name(n): str(r) for n, r in self.dealt_now.items()},
            "died": died,
            "survivors": len(survivors),
            "count": self.settle_pool(COUNT, count_bets, lambda b: b.get("number") == len(survivors), self.round),
        }
        if self.engine.has_high_card:
            top = max(self.dealt_now.values())
            high = [n for n, r in self.dealt_now.items() if r == top]
            winner = high[0] if len(high) == 1 else None
            hc_bets = [b for b in self.round_bets if b.type == HIGH_CARD]
            summary[HIGH_CARD] = {
                "high": top,
                "hands": high,
                "tie": winner is None,
                **self.settle_pool(HIGH_CARD, hc_bets, lambda b: b.get("hand") == winner, self.round),
            }
        self.rounds.append(summary)
        if len(survivors) <= 1:
            self.finish("one_left" if survivors else "none_left")
        elif self.shoe.remaining() < len(survivors):
            self.finish("shoe_exhausted")
        else:
            self.open_betting()

    def finish(self, end: str) -> None:
        self.phase = Phase.OVER
        self.end = end
        if not self.engine.has_pony:
            return
        survivors = self.running()
        if survivors:
            candidates = survivors
        else:  # all the remaining horses were eliminated at once
            candidates = [h.number for h in self.horses if h.died_in == self.round]
        winners = pony_winners(self.horses, candidates)
        pony_bets = [b for b in self.game_bets if b.type == PONY]
        # pony and living-win bets belong to the whole game, not to one betting round
        pony = self.settle_pool(PONY, pony_bets, lambda b: b.get("hand") in winners, None)
        self.pony_result = {"winners": winners, "tiebreak": len(candidates) > 1, **pony}
        living = winners[0] if len(winners) == 1 and self.horses[winners[0] - 1].alive else None
        pays = self.cfg.get("living_win_pays", 0)
        for bet in self.game_bets:
            if bet.type == LIVING_WIN:
                if bet.get("hand") == living:
                    self.rows.append(
                        bet_result(
                            bet,
                            "win",
                            bet.amount * pays,
                            0,
                            round=None,
                            paid=bet.amount * (pays + 1),
                            handover=handover(at_bet=bet.amount, pay=bet.amount * (pays + 1), via="house"),
                            hand=bet.get("hand"),
                        )
                    )
                else:
                    self.rows.append(bet_result(bet, "lose", -bet.amount, 0, round=None, paid=0, hand=bet.get("hand"),
                                                handover=handover(at_bet=bet.amount, via="house")))

    # -- output ---------------------------------------------------------------------------
    def hands_doc(self) -> Json:
        return {hand_name(h.number): h.as_dict() for h in self.horses}

    def pool_docs(self) -> tuple[Json, Json]:
        pools = {name: pool.as_dict() for name, pool in self.pools.items()}
        total = {k: sum(p[k] for p in pools.values()) for k in ("carry_in", "stakes", "paid", "rake", "carry_out")}
        return total, pools

    def next_button(self) -> int:
        if not self.players_ever:
            return int(self.button)
        return int(min(self.players_ever, key=lambda s: seat_order_key(s, self.button + 1)))

    def next_step(self, bet_id: str | None = None) -> Json:
        """What comes next; ``bet_id`` is the id the engine gives a bet placed by the next event."""
        if self.phase is Phase.FOUNDATIONS:
            target = self.expected_to()
            assert target is not None
            to = hand_name(target)
            return expect_card(to, speech("deal_to_hand", n=target), round=0, inp=card_input(to, Deck.TRIANGLE))
        if self.phase is Phase.DEALING:
            to = hand_name(self.queue[0])
            return expect_card(to, speech("deal_to_hand", n=self.queue[0]), round=self.round, inp=card_input(to, Deck.TRIANGLE))
        # Betting is open: bets may come, and the round's first card (due next either way) closes it.
        running = self.running()
        betting = {
            "bet_types": [t for t in self.engine.bet_types if t in (COUNT, HIGH_CARD) or self.round == 1],
            "amount": self.limit,
            "numbers": [0, len(running)],
            "running": running,
            "seats": self.still_in(),
            "carry": self.carry(),
            "placed": [{"id": b.id, "seat": b.seat, "type": b.type, **dict(b.extra)} for b in self.round_bets],
        }
        turn = self.turn()
        if self.in_turn() is not None:
            betting["turn"] = turn
        bets_open = [self.open_bet(t, running, betting["seats"], bet_id) for t in betting["bet_types"]]
        bets_open = [b for b in bets_open if b["seats"] != []]  # no seat may place it now
        # the seat to act may pass instead of betting (it sits this betting round out)
        passes = [option("pass", {"seat": turn, "action": "pass"}, speech("label_seat_passes", seat=turn))] if turn is not None else []
        to = hand_name(running[0])
        say = speech("betting_round", n=self.round)
        return expect_card(
            to, say, round=self.round, betting=betting,
            inp=card_input(to, Deck.TRIANGLE, bets_open=bets_open, options=passes),
        )

    def open_bet(self, bet_type: str, running: Sequence[int], seats: Sequence[int] | None,
                 bet_id: str | None) -> Json:
        """One bet type of this betting round, its fields narrowed to the hands still running."""
        spec = self.engine.bet_types[bet_type]
        amount = None if spec.limits_apply else self.limit
        if bet_type != COUNT:
            fields = [replace(spec.field("hand"), options=tuple((h, speech("label_hand", n=h)) for h in running))]
            doc = open_bet(bet_type, BET_LABELS[bet_type], fields, amount=amount, bet_id=bet_id)
            # one pony bet a game and one high card bet a round per seat
            held = self.game_bets if bet_type == PONY else self.round_bets if bet_type == HIGH_CARD else []
            doc["seats_taken"] = sorted({b.seat for b in held if b.type == bet_type})
            return doc
        # count bets go in seat order from the button, one per seat: only seats after the last to bet
        fields = [replace(spec.field("number"), maximum=len(running))]
        bettors = self.count_bettors[-1] if self.count_bettors else set()
        last = max(bettors, key=lambda s: seat_order_key(s, self.button)) if bettors else None
        order: Json = {"button": self.button, "after": last}  # with seats null: any seat after ``after``
        if self.in_turn() is not None:
            # the engine knows who acts: only the seat whose turn it is (none once every seat acted)
            turn = self.turn()
            seats = [turn] if turn is not None else []
            order["turn"] = turn
        elif seats is not None and last is not None:
            seats = [s for s in seats if seat_order_key(s, self.button) > seat_order_key(last, self.button)]
        doc = open_bet(bet_type, BET_LABELS[bet_type], fields, amount=amount, seats=seats, bet_id=bet_id)
        doc["order"] = order
        doc["seats_taken"] = sorted(bettors)
        return doc

    def output(self) -> RoundResult:
        pool, pools = self.pool_docs()
        if self.phase is not Phase.OVER:
            step = self.next_step(self.bet_id)
            return awaiting(step, hands=self.hands_doc(), bets=self.rows, pool=pool, pools=pools)
        rake = pool["rake"]
        banked = sum(r["net"] for r in self.rows if r["type"] == LIVING_WIN)
        house = {"net": rake - banked, "commission": 0, "rake": rake}
        survivors = self.running()
        last_players = sorted(
            self.count_bettors[-1] if self.count_bettors else set(), key=lambda s: seat_order_key(s, self.next_button())
        )
        next_config = {"button": self.next_button(), "carry_in": self.carry()}
        if self.engine.has_pony:
            next_config["pony_carry_in"] = self.pools[PONY].carry
        if self.engine.has_high_card:
            next_config["high_card_carry_in"] = self.pools[HIGH_CARD].carry
        outcome: Json = {
            "end": self.end,
            "survivors": survivors,
            "rounds": self.rounds,
            "next_game": {"config": next_config, "players": last_players},
        }
        if self.pony_result is not None:
            outcome[PONY] = self.pony_result
        if survivors and self.end == "one_left":
            say = speech("last_horse", n=survivors[0])
        elif survivors:
            say = speech("deck_out", list=list(survivors))
        else:
            say = speech("no_hand_left")
        say = say.then(". ", speech("carry", amount=self.carry()))
        return settled(
            hands=self.hands_doc(), outcome=outcome, bets=self.rows, house=house, pool=pool, pools=pools, say=say
        )


# -- the engines ---------------------------------------------------------------------------

class CarouselEngine(Engine):
    """Carousel and its variants: one round document is one game."""

    has_pony: ClassVar[bool] = False
    has_living_win: ClassVar[bool] = False
    has_high_card: ClassVar[bool] = False

    def open_bet_of(self, entry: Mapping[str, Any]) -> OpenBet:
        """Count bets go in seat order from the button: a seat before the last to bet may not bet."""
        bet = super().open_bet_of(entry)
        order = entry.get("order")
        if isinstance(order, Mapping) and order.get("turn") is not None:
            turn, button = int(order["turn"]), int(order["button"])
            rule = speech("why_bets_first" if turn == button else "why_bets_next", seat=turn, button=button)
            return OpenBet(bet.type, (turn,), bet.barred, rule)
        if bet.seats is not None or not isinstance(order, Mapping) or order.get("after") is None:
            return bet
        button, after = int(order["button"]), int(order["after"])
        barred = {s: speech("why_bets_before", seat=s, after=after, button=button)
                  for s in range(1, MAX_SEAT + 1) if seat_order_key(s, button) <= seat_order_key(after, button)}
        return OpenBet(bet.type, None, {**barred, **bet.barred})

    def carry_over(self, previous: Mapping[str, Any] | None) -> tuple[Json, list[Any] | None]:
        """A game hands the next its button and carries (``outcome.next_game.config``) and, while a
        carry is left, the players still in (a first ``players`` event: only they may bet)."""
        outcome = previous.get("outcome") if isinstance(previous, Mapping) else None
        next_game = outcome.get("next_game") if isinstance(outcome, Mapping) else None
        if not isinstance(next_game, Mapping):
            return super().carry_over(previous)
        known = {s.name for s in self.settings}
        config = {k: v for k, v in (next_game.get("config") or {}).items() if k in known}
        carries = any(v for k, v in config.items() if k.endswith("carry_in"))
        players = next_game.get("players") if carries else None
        return config, players if isinstance(players, list) else None
    def check_config(self, config: dict[str, Any]) -> None:
        chip = config["chip"]
        for name in ("limit", "carry_in", "pony_carry_in", "high_card_carry_in"):
            if name in config and config[name] % chip:
                raise EngineError(
                    "bad_config", f"config.{name} must be a whole number of chips ({chip})", field=f"config.{name}", params={"name": name, "chip": chip}
                )

    def parse_bets(self, raw_bets: Any, config: Mapping[str, Any]) -> tuple[Bet, ...]:
        if raw_bets:
            raise BetSetError(
                "bad_bet",
                f'{self.name} takes its bets as {{"bet": …}} events in each betting '
                "round (after the foundations), not in the top-level bets list",
                params={"game": self.name},
            )
        return ()

    def replay(self, rnd: Round) -> Game:
        game = Game(self, rnd.config)
        for index, event in enumerate(rnd.events):
            game.apply(index, event)
        return game

    def play(self, rnd: Round) -> RoundResult:
        game = self.replay(rnd)
        game.bet_id = fresh_bet_id(rnd.bets, rnd.events)
        return game.output()

    def house_edge(self, config: Mapping[str, Any], *, seed: int = 1) -> list[EdgeRow]:
        """The house's take per chip staked, by seeded simulation of a session of games (see ``simulate``)."""
        return edge_rows(self, self.resolve_config(config), seed=seed)


class Carousel(CarouselEngine):
    name = "carousel"
    title = "Carousel"
    settings = (*BASE_SETTINGS, SEATS, *LIMIT_SETTINGS)
    bet_types = {COUNT: COUNT_SPEC}
    profile = GameProfile(Family.POOL, Deck.TRIANGLE, before_deal=(), during_deal=(COUNT,), pools=(COUNT,),
                          bank=Bank.NOBODY, turn_order=TurnOrder.BUTTON)


class Pony(CarouselEngine):
    name = "pony"
    title = "Pony"
    has_pony = True
    has_living_win = True
    settings = (*BASE_SETTINGS, SEATS, PONY_CARRY, LIVING_WIN_PAYS, *LIMIT_SETTINGS)
    bet_types = {COUNT: COUNT_SPEC, PONY: PONY_SPEC, LIVING_WIN: LIVING_WIN_SPEC}
    # the living-win bet is the house's (6:1), beside the players' pools
    profile = GameProfile(Family.POOL, Deck.TRIANGLE, before_deal=(), during_deal=(COUNT, PONY, LIVING_WIN),
                          pools=(COUNT, PONY), bank=Bank.NOBODY, turn_order=TurnOrder.BUTTON)


class MerryGoRound(CarouselEngine):
    name = "merry_go_round"
    title = "Merry-Go-Round"
    has_pony = True
    has_high_card = True
    settings = (*BASE_SETTINGS, SEATS, PONY_CARRY, HIGH_CARD_CARRY, *LIMIT_SETTINGS)
    bet_types = {COUNT: COUNT_SPEC, PONY: PONY_SPEC, HIGH_CARD: HIGH_CARD_SPEC}
    profile = GameProfile(Family.POOL, Deck.TRIANGLE, before_deal=(), during_deal=(COUNT, PONY, HIGH_CARD),
                          pools=(COUNT, PONY, HIGH_CARD), bank=Bank.NOBODY, turn_order=TurnOrder.BUTTON)


ENGINES: dict[str, CarouselEngine] = {e.name: e for e in (Carousel(), Pony(), MerryGoRound())}
