"""Chemin de fer: baccarat between a banker seat and the punters, with the three-situations chart.

Card values and the deal (punter, banker, punter, banker) are baccarat's. The banker is a
player who puts up the bank (a ``bank`` bet); punters bet ``punto`` against it, together
covering at most the bank. The punter who plays the hand may draw or stand on 5; the banker
chooses with 3 against a third card of 9 and with 5 against a 4; everywhere else the chart
decides. The house takes 5 % of the banker's winnings at once; when the banker loses, the
bank passes.

>>> doc = {"game": "chemin_de_fer", "config": {},
...        "bets": [{"id": "bank", "seat": 1, "type": "bank", "amount": 10000},
...                 {"id": "p1", "seat": 4, "type": "punto", "amount": 6000}],
...        "events": [{"card": "4S"}, {"card": "2H"}, {"card": "AD"}, {"card": "KC"},
...                   {"seat": 4, "action": "draw"}, {"card": "5C"}, {"card": "3H"}]}
>>> out = ENGINE.play(ENGINE.load(doc)).to_json()
>>> out["say"], out["bets"][0]["net"], out["bets"][1]["net"], out["house"]
('Banker wins 5 over 0', 5700, -6000, {'net': 300, 'commission': 300, 'rake': 0})
>>> out["outcome"]["bank_passes"], out["outcome"]["next_bank"]
(False, 15700)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from tables.engines import baccarat
from tables.engines.baccarat import BANKER, PLAYER, card_value, read_card_event, total
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
    rounding_setting,
    settled,
)
from tables.engines.cards import Card, Shoe
from tables.engines.errors import BetSetError, EngineError
from tables.engines.inputs import BetField, Deck, FieldKind
from tables.engines.money import Rounding, percent_of
from tables.engines.profile import Bank, Family, GameProfile
from tables.engines.result import RoundResult
from tables.engines.speech import Speech, speech

BANK, PUNTO = "bank", "punto"  # bet types: the banker's bank, a punter's stake against it
DRAW, STAND = "draw", "stand"
CHOICES = (DRAW, STAND)
HANDS = (PLAYER, BANKER)
DEAL_ORDER = (PLAYER, BANKER, PLAYER, BANKER)


class Cell(StrEnum):
    """What the chart says at one decision."""

    DRAW = "draw"
    STAND = "stand"
    OPTION = "option"  # the hand's seat chooses


class Drawing(StrEnum):
    CHART = "chart"  # the three-situations chart (docs/games.md)
    FREE = "free"  # seed variation: banker and punter use their own judgment at every decision


def punter_cell(punter_total: int, drawing: Drawing = Drawing.CHART) -> Cell:
    """The punter's decision on a two-card total of 0–7 (8 and 9 are naturals, never asked)."""
    if drawing is Drawing.FREE:
        return Cell.OPTION
    if punter_total <= 4:
        return Cell.DRAW
    if punter_total == 5:
        return Cell.OPTION
    return Cell.STAND


def banker_cell(banker_total: int, punter_third: int | None, drawing: Drawing = Drawing.CHART) -> Cell:
    """The three-situations chart. ``punter_third`` is None when the punter stood."""
    if drawing is Drawing.FREE:
        return Cell.OPTION
    if punter_third is None:
        return Cell.DRAW if banker_total <= 5 else Cell.STAND
    p = punter_third
    if banker_total <= 2:
        return Cell.DRAW
    if banker_total == 3:
        return Cell.OPTION if p == 9 else Cell.STAND if p == 8 else Cell.DRAW
    if banker_total == 4:
        return Cell.DRAW if 2 <= p <= 7 else Cell.STAND
    if banker_total == 5:
        return Cell.OPTION if p == 4 else Cell.DRAW if 5 <= p <= 7 else Cell.STAND
    if banker_total == 6:
        return Cell.DRAW if p in (6, 7) else Cell.STAND
    return Cell.STAND


@dataclass(frozen=True, slots=True)
class CheminDeFerTable:
    """Who holds the bank, who plays the hand, and how much of the bank is in action."""

    banker_seat: int
    punter_seat: int
    bank: int
    covered: int
    banco: bool  # one punter covers the whole bank

    def seat_of(self, hand: str) -> int:
        return self.punter_seat if hand == PLAYER else self.banker_seat


@dataclass(frozen=True, slots=True)
class Step:
    kind: str  # "card" or "action"
    hand: str


@dataclass
class Coup:
    """The cards and choices of one coup, and what the chart asks for next."""

    drawing: Drawing = Drawing.CHART
    cards: dict[str, list[Card]] = field(default_factory=lambda: {PLAYER: [], BANKER: []})
    choices: dict[str, str | None] = field(default_factory=lambda: {PLAYER: None, BANKER: None})

    def values(self, hand: str) -> list[int]:
        return [card_value(c) for c in self.cards[hand]]

    def totals(self) -> tuple[int, int]:
        return total(self.values(PLAYER)), total(self.values(BANKER))

    def two_card_total(self, hand: str) -> int:
        return total(self.values(hand)[:2])

    def natural(self) -> bool:
        return self.two_card_total(PLAYER) >= 8 or self.two_card_total(BANKER) >= 8

    def punter_third(self) -> int | None:
        return card_value(self.cards[PLAYER][2]) if len(self.cards[PLAYER]) == 3 else None

    def cell(self, hand: str) -> Cell:
        if hand == PLAYER:
            return punter_cell(self.two_card_total(PLAYER), self.drawing)
        return banker_cell(self.two_card_total(BANKER), self.punter_third(), self.drawing)

    def draws(self, hand: str) -> bool | None:
        """Whether the hand takes a third card; None while its seat has still to choose."""
        cell = self.cell(hand)
        if cell is Cell.OPTION:
            choice = self.choices[hand]
            return None if choice is None else choice == DRAW
        return cell is Cell.DRAW

    def next_step(self) -> Step | None:
        """The card or choice due next, or None when the coup is complete."""
        n_player, n_banker = len(self.cards[PLAYER]), len(self.cards[BANKER])
        if n_player + n_banker < 4:
            return Step("card", DEAL_ORDER[n_player + n_banker])
        if self.natural():
            return None
        for hand, n in ((PLAYER, n_player), (BANKER, n_banker)):
            if n == 2:
                draws = self.draws(hand)
                if draws is None:
                    return Step("action", hand)
                if draws:
                    return Step("card", hand)
        return None

    def say_next(self, table: CheminDeFerTable) -> Speech:
        step = self.next_step()
        if step is None:
            return speech("coup_complete")
        dealt = len(self.cards[PLAYER]) + len(self.cards[BANKER])
        if dealt < 4:
            return speech("deal_player_card" if step.hand == PLAYER else "deal_banker_card", n=dealt + 1)
        p, b = self.two_card_total(PLAYER), self.two_card_total(BANKER)
        third = self.punter_third()
        if step.hand == PLAYER:
            if step.kind == "action":
                return speech("punter_choice", seat=table.punter_seat, n=p)
            return speech("punter_draws", n=p)
        if step.kind == "action":
            if third is None:
                return speech("banker_choice_punter_stands", seat=table.banker_seat, n=b, m=p)
            return speech("banker_choice_punter_third", seat=table.banker_seat, n=b, m=third)
        if third is None:
            return speech("punter_stands", n=p).then(". ", speech("banker_draws", n=b))
        return speech("banker_draws_punter_third", n=b, m=third)

    def hands_doc(self, table: CheminDeFerTable) -> Json:
        p, b = self.totals()
        return {
            PLAYER: {
                "cards": [str(c) for c in self.cards[PLAYER]],
                "total": p,
                "seat": table.punter_seat,
                "choice": self.choices[PLAYER],
            },
            BANKER: {
                "cards": [str(c) for c in self.cards[BANKER]],
                "total": b,
                "seat": table.banker_seat,
                "choice": self.choices[BANKER],
            },
        }


def _event_kind(event: Mapping[str, Any]) -> str:
    if "card" in event:
        return "a card"
    if "action" in event:
        return f"an action ({event.get('action')!r})"
    if "bet" in event:
        return "a bet"
    return "this event"


class CheminDeFer(Engine):
    name = "chemin_de_fer"
    title = "Chemin de fer"
    # the banker is a player (any seat may take the bank); the house only takes commission
    profile = GameProfile(Family.PLAYER_BANKED, Deck.STANDARD, before_deal=(BANK, PUNTO), bank=Bank.SEAT,
                          bank_bets=(BANK,), commission=True)
    settings = (
        Setting("decks", SettingKind.INT, 8, "52-card packs in the shoe", minimum=1, maximum=8),
        Setting(
            "commission_bp",
            SettingKind.INT,
            500,
            "house commission on the banker's winnings, basis points",
            minimum=0,
            maximum=2000,
        ),
        rounding_setting(
            "commission_rounding",
            Rounding.DOWN,
            "rounding of the commission to a whole minor unit (down: never more than the rate)",
        ),
        chip_setting("commission"),
        Setting(
            "drawing",
            SettingKind.CHOICE,
            Drawing.CHART.value,
            "chart: the three-situations chart, options only in its three cells; free: the banker and the "
            "punter who plays the hand choose at every decision outside a natural",
            choices=tuple(d.value for d in Drawing),
        ),
        *LIMIT_SETTINGS,
    )
    bet_types = {
        BANK: BetSpec("the banker's bank: exactly one per coup; only the part the punters cover is in action"),
        PUNTO: BetSpec(
            "a punter's stake against the bank; all punto stakes together may not exceed the bank", optional=("plays",),
            fields=(BetField("plays", FieldKind.BOOL, "Plays the hand"),),
        ),
    }

    # -- bets -----------------------------------------------------------------------------
    def check_bet(self, bet: Bet, config: Mapping[str, Any], *, where: str) -> None:
        plays = bet.get("plays")
        if "plays" in bet.extra and not isinstance(plays, bool):
            raise EngineError("bad_bet", f"bet {bet.id}: 'plays' must be true or false", field=f"{where}.plays", params={"bet": bet.id})

    def bank_seat(self, rnd: Round) -> int | None:
        """The seat of the coup's bank bet (any seat may take the bank; none yet before one is down)."""
        return next((b.seat for b in rnd.bets if b.type == BANK), None)

    def parse_bets(self, raw_bets: Any, config: Mapping[str, Any]) -> tuple[Bet, ...]:
        bets = super().parse_bets(raw_bets, config)
        self.table(bets)
        return bets

    def table(self, bets: tuple[Bet, ...]) -> CheminDeFerTable:
        """Check the bets against each other and find the banker, the punter who plays, the cover."""
        banks = [b for b in bets if b.type == BANK]
        if len(banks) != 1:
            raise BetSetError(
                "bad_bet", f"a coup needs exactly one 'bank' bet (the banker's bank), got {len(banks)}", params={"count": len(banks), "reason": "no_bank" if not banks else "two_banks"}
            )
        bank = banks[0]
        puntos = [b for b in bets if b.type == PUNTO]
        if not puntos:
            raise BetSetError(
                "bad_bet", "no punter covers any of the bank: a coup needs at least one 'punto' bet",
                params={"reason": "no_punto"},
            )
        for bet in puntos:
            if bet.seat == bank.seat:
                raise BetSetError(
                    "bad_bet", f"bet {bet.id}: seat {bet.seat} holds the bank and cannot bet against it", params={"bet": bet.id, "seat": bet.seat, "reason": "bank_seat"}
                )
        covered = sum(b.amount for b in puntos)
        if covered > bank.amount:
            raise BetSetError(
                "over_bank", f"the punters cover {covered} but the bank is only {bank.amount}", params={"covered": covered, "bank": bank.amount}
            )
        by_seat: dict[int, int] = {}
        for bet in puntos:  # insertion order keeps the earliest-listed seat first among equals
            by_seat[bet.seat] = by_seat.get(bet.seat, 0) + bet.amount
        named = {b.seat for b in puntos if b.get("plays") is True}
        if len(named) > 1:
            raise BetSetError(
                "bad_bet", f"only one punter plays the hand; seats {sorted(named)} are all marked", params={"seats": sorted(named)}
            )
        if named:
            punter_seat = named.pop()
        else:
            punter_seat = max(by_seat, key=lambda seat: by_seat[seat])  # max keeps the first of equal stakes
        banco = len(by_seat) == 1 and covered == bank.amount
        return CheminDeFerTable(bank.seat, punter_seat, bank.amount, covered, banco)

    # -- the coup ---------------------------------------------------------------------------
    def replay(self, rnd: Round, table: CheminDeFerTable) -> Coup:
        shoe = Shoe(rnd.config["decks"])
        coup = Coup(Drawing(rnd.config["drawing"]))
        for index, event in enumerate(rnd.events):
            step = coup.next_step()
            if step is None:
                raise EngineError(
                    "out_of_turn", f"event {index}: the coup is complete, nothing more is due", event=index
                )
            if step.kind == "card":
                if "action" in event and "card" not in event:
                    raise EngineError(
                        "out_of_turn",
                        f"event {index}: the chart decides here; the next card goes to the {step.hand}, not an action",
                        event=index, params={"hand": step.hand},
                    )
                coup.cards[step.hand].append(read_card_event(event, index, step.hand, HANDS, shoe))
            else:
                coup.choices[step.hand] = self.read_choice(event, index, step.hand, table)
        return coup

    def read_choice(self, event: Mapping[str, Any], index: int, hand: str, table: CheminDeFerTable) -> str:
        """Check a draw/stand choice: the right seat, at an option cell, a known action."""
        seat = table.seat_of(hand)
        who = "punter" if hand == PLAYER else "banker"
        if "action" not in event:
            raise EngineError(
                "out_of_turn",
                f"event {index}: the {who} (seat {seat}) must choose draw or stand, not {_event_kind(event)}",
                event=index, params={"role": who, "seat": seat},
            )
        extra = set(event) - {"seat", "action", "hand"}
        if extra:
            raise EngineError("bad_event", f"event {index}: unknown field(s) {', '.join(sorted(extra))}", event=index, params={"fields": sorted(extra)})
        if "hand" in event and event["hand"] != hand:
            if event["hand"] not in HANDS:
                raise EngineError("bad_event", f"event {index}: 'hand' must be one of {', '.join(HANDS)}", event=index, params={"hands": list(HANDS)})
            raise EngineError(
                "out_of_turn", f"event {index}: the {hand} chooses now, not the {event['hand']}", event=index, params={"hand": hand, "hand_given": event['hand']}
            )
        given = event.get("seat")
        if isinstance(given, bool) or not isinstance(given, int):
            raise EngineError("bad_event", f"event {index}: 'seat' must be a seat number", event=index)
        if given != seat:
            raise EngineError(
                "out_of_turn", f"event {index}: the {who} at seat {seat} chooses now, not seat {given}", event=index, params={"role": who, "seat": seat, "seat_given": given, "reason": "seat_turn"}
            )
        action = event["action"]
        if action not in CHOICES:
            raise EngineError(
                "illegal_action", f"event {index}: the {who} may draw or stand, not {action!r}", event=index, params={"role": who, "action": action}
            )
        return str(action)

    def play(self, rnd: Round) -> RoundResult:
        table = self.table(rnd.bets)
        coup = self.replay(rnd, table)
        step = coup.next_step()
        if step is None:
            return self.settle(rnd, coup, table)
        say = coup.say_next(table)
        if step.kind == "card":
            return awaiting(expect_card(step.hand, say), hands=coup.hands_doc(table))
        return awaiting(
            expect_action(table.seat_of(step.hand), CHOICES, say, hand=step.hand), hands=coup.hands_doc(table)
        )

    def settle(self, rnd: Round, coup: Coup, table: CheminDeFerTable) -> RoundResult:
        cfg = rnd.config
        p, b = coup.totals()
        winner = PLAYER if p > b else BANKER if b > p else "tie"
        commission = 0
        if winner == BANKER:
            commission = percent_of(table.covered, cfg["commission_bp"], Rounding(cfg["commission_rounding"]),
                                    cfg["chip"])
        rows = []
        for bet in rnd.bets:
            if bet.type == BANK:
                extra = {"covered": table.covered, "uncovered": table.bank - table.covered}
                if winner == "tie":
                    rows.append(bet_result(bet, "push", 0, **extra))
                elif winner == BANKER:
                    rows.append(bet_result(bet, "win", table.covered - commission, commission, **extra))
                else:
                    rows.append(bet_result(bet, "lose", -table.covered, **extra))
            elif winner == "tie":
                rows.append(bet_result(bet, "push", 0))
            elif winner == PLAYER:
                rows.append(bet_result(bet, "win", bet.amount))
            else:
                rows.append(bet_result(bet, "lose", -bet.amount))
        if winner == BANKER:
            next_bank: int | None = table.bank + table.covered - commission
        elif winner == "tie":
            next_bank = table.bank
        else:
            next_bank = None
        natural = coup.natural()
        outcome = {
            "winner": winner, PLAYER: p, BANKER: b, "natural": natural,
            "banker_seat": table.banker_seat, "punter_seat": table.punter_seat,
            "bank": table.bank, "covered": table.covered, "uncovered": table.bank - table.covered,
            "banco": table.banco, "punter_choice": coup.choices[PLAYER], "banker_choice": coup.choices[BANKER],
            "bank_passes": winner == PLAYER, "next_bank": next_bank,
        }  # fmt: skip
        if winner == "tie":
            say = speech("stand_off", n=p)
        elif winner == BANKER:
            say = speech("banker_wins", n=b, m=p)
        else:
            say = speech("punter_wins", n=p, m=b).then("; ", speech("bank_passes"))
        house = {"net": commission, "commission": commission, "rake": 0}
        return settled(hands=coup.hands_doc(table), outcome=outcome, bets=rows, house=house, say=say)

    # -- house edge -----------------------------------------------------------------------------
    def house_edge(self, config: Mapping[str, Any], *, seed: int = 1) -> list[EdgeRow]:
        """Exact edges of the bank and of a punto stake, per unit in action, with the customary choices."""
        cfg = self.resolve_config(config)
        probs = coup_probabilities(cfg["decks"], CUSTOMARY)
        commission = Fraction(cfg["commission_bp"], 10_000)
        p_win, b_win = probs[PLAYER], probs[BANKER]
        method = (
            f"exact enumeration over the {cfg['decks']}-deck shoe ({52 * cfg['decks']} cards), "
            f"option cells played the customary way: {CUSTOMARY.describe()}"
        )
        return [
            EdgeRow(
                BANK,
                -(b_win * (1 - commission) - p_win),
                method,
                note="per unit of the bank covered (the uncovered part is not in action); ties push",
            ),
            EdgeRow(PUNTO, -(p_win - b_win), method, note="ties push"),
        ]


@dataclass(frozen=True, slots=True)
class OptionStrategy:
    """How the three option cells are played (True: draw). The default is the customary way,
    the one Punto Banco later fixed into its tableau."""

    punter_draws_on_5: bool = True
    banker_draws_3_against_9: bool = True
    banker_draws_5_against_4: bool = True

    def describe(self) -> str:
        def word(draws: bool) -> str:
            return "draws" if draws else "stands"

        return (
            f"punter {word(self.punter_draws_on_5)} on 5, banker {word(self.banker_draws_3_against_9)} "
            f"with 3 against a 9 and {word(self.banker_draws_5_against_4)} with 5 against a 4"
        )

    def punter_draws(self, p: int) -> bool:
        cell = punter_cell(p)
        return self.punter_draws_on_5 if cell is Cell.OPTION else cell is Cell.DRAW

    def banker_draws(self, b: int, punter_third: int | None) -> bool:
        cell = banker_cell(b, punter_third)
        if cell is Cell.OPTION:
            return self.banker_draws_3_against_9 if b == 3 else self.banker_draws_5_against_4
        return cell is Cell.DRAW


CUSTOMARY = OptionStrategy()


def coup_probabilities(decks: int, strategy: OptionStrategy = CUSTOMARY) -> dict[str, Fraction]:
    """Exact probabilities of punter win, banker win and tie from a full shoe, option cells per ``strategy``.

    Cards are counted by baccarat value (0 holds tens and faces); every ordered sequence of up
    to six cards is weighted by the ways the shoe can deal it, all scaled to six draws.
    """
    return dict(_coup_probabilities(decks, strategy))


def _coup_probabilities(decks: int, strategy: OptionStrategy) -> dict[str, Fraction]:
    player_rule = tuple(strategy.punter_draws(p) for p in range(8))
    banker_rule = tuple((b, t, strategy.banker_draws(b, t)) for b in range(8) for t in (None, *range(10)))
    return baccarat.drawing_probabilities(decks, player_rule, banker_rule)


ENGINE = CheminDeFer()
