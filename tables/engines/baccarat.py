"""Punto Banco baccarat: the fixed tableau, 5 % banker commission, tie and pair side bets.

The dealer enters cards in dealing order (P, B, P, B, then third cards as the tableau says);
the engine says after each card what must happen next and settles when the coup is complete.

>>> doc = {"game": "baccarat", "config": {}, "bets": [{"id": "b1", "seat": 1, "type": "banker", "amount": 2500}],
...        "events": [{"card": c} for c in ["9S", "KH", "5D", "3C", "2H", "4S"]]}
>>> out = ENGINE.play(ENGINE.load(doc)).to_json()
>>> out["outcome"]["winner"], out["bets"][0]["net"], out["bets"][0]["commission"], out["house"]["net"]
('banker', 2375, 125, -2375)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import Any

from tables.engines.base import (
    LIMIT_SETTINGS,
    BetSpec,
    EdgeRow,
    Engine,
    Json,
    Round,
    Setting,
    SettingKind,
    awaiting,
    banked_house,
    bet_result,
    chip_setting,
    expect_card,
    rounding_setting,
    settled,
)
from tables.engines.card_events import read_card_event as read_card
from tables.engines.cards import Card, Shoe
from tables.engines.errors import EngineError
from tables.engines.inputs import Deck
from tables.engines.money import Rounding, pay_ratio, percent_of
from tables.engines.profile import Family, GameProfile, Watch
from tables.engines.result import RoundResult
from tables.engines.speech import Speech, speech

PLAYER, BANKER = "player", "banker"


def card_value(card: Card) -> int:
    """A=1, 2–9 pip, T/J/Q/K=0."""
    if card.rank == "A":
        return 1
    if card.rank in "TJQK":
        return 0
    return int(card.rank)


def total(values: list[int]) -> int:
    return sum(values) % 10


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """The Punto Banco tableau (docs/games.md). ``player_third`` is None when the player stood."""
    if player_third is None:
        return banker_total <= 5
    if banker_total <= 2:
        return True
    if banker_total == 3:
        return player_third != 8
    if banker_total == 4:
        return 2 <= player_third <= 7
    if banker_total == 5:
        return 4 <= player_third <= 7
    if banker_total == 6:
        return player_third in (6, 7)
    return False


def player_draws(player_total: int) -> bool:
    return player_total <= 5


class Coup:
    """Where the cards of one coup go, and when it is complete."""

    ORDER = (PLAYER, BANKER, PLAYER, BANKER)

    def __init__(self) -> None:
        self.cards: dict[str, list[Card]] = {PLAYER: [], BANKER: []}
        self.values: dict[str, list[int]] = {PLAYER: [], BANKER: []}

    def totals(self) -> tuple[int, int]:
        return total(self.values[PLAYER]), total(self.values[BANKER])

    def natural(self) -> bool:
        """An 8 or 9 on either hand's first two cards (a third card never makes a natural)."""
        p = total(self.values[PLAYER][:2])
        b = total(self.values[BANKER][:2])
        return p >= 8 or b >= 8

    def next_hand(self) -> str | None:
        """Which hand the next card goes to, or None when the coup is complete."""
        dealt = len(self.cards[PLAYER]) + len(self.cards[BANKER])
        if dealt < 4:
            return self.ORDER[dealt]
        if self.natural():
            return None
        p, b = self.totals()
        n_player = len(self.cards[PLAYER])
        if n_player == 2 and dealt == 4 and player_draws(p):
            return PLAYER
        if len(self.cards[BANKER]) == 2:
            player_third = self.values[PLAYER][2] if n_player == 3 else None
            if banker_draws(b, player_third):
                return BANKER
        return None

    def add(self, hand: str, card: Card) -> None:
        self.cards[hand].append(card)
        self.values[hand].append(card_value(card))

    def say_next(self) -> Speech:
        nxt = self.next_hand()
        dealt = len(self.cards[PLAYER]) + len(self.cards[BANKER])
        if dealt < 4:
            return speech("deal_player_card" if nxt == PLAYER else "deal_banker_card", n=dealt + 1)
        p, b = self.totals()
        if nxt == PLAYER:
            return speech("player_draws", n=p)
        if nxt == BANKER:
            if len(self.cards[PLAYER]) == 3:
                return speech("banker_draws_third", n=b, m=self.values[PLAYER][2])
            return speech("player_stands", n=p).then(". ", speech("banker_draws", n=b))
        return speech("coup_complete")

    def hands_doc(self) -> Json:
        p, b = self.totals()
        return {
            PLAYER: {"cards": [str(c) for c in self.cards[PLAYER]], "total": p},
            BANKER: {"cards": [str(c) for c in self.cards[BANKER]], "total": b},
        }


def read_card_event(
    event: Mapping[str, Any], index: int, expected_to: str | None, hands: tuple[str, ...], shoe: Shoe
) -> Card:
    """Parse a card event, check its ``to`` against where the rules send it, take it from the shoe."""
    return read_card(
        event, index, expected_to, shoe,
        not_a_card=lambda e: f"a card is due next, not {_describe(e)}",
        is_place=lambda to: to in hands, places_said=lambda: f"one of {', '.join(hands)}", places=hands,
        the="the ", complete="the coup is complete, no more cards",
    )


def _describe(event: Mapping[str, Any]) -> str:
    if "action" in event:
        return f"an action ({event.get('action')!r})"
    if "bet" in event:
        return "a bet"
    return "this event"


class Baccarat(Engine):
    name = "baccarat"
    title = "Punto Banco baccarat"
    settings = (
        Setting("decks", SettingKind.INT, 8, "52-card packs in the shoe", minimum=1, maximum=8),
        Setting(
            "commission_bp",
            SettingKind.INT,
            500,
            "commission on a winning banker bet, basis points",
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
            "commission_collection",
            SettingKind.CHOICE,
            "on_win",
            "take commission from each win, or track it per seat and collect at the end of the shoe",
            choices=("on_win", "end_of_shoe"),
        ),
        Setting("tie_pays", SettingKind.INT, 8, "tie pays N to 1", minimum=1, maximum=50),
        Setting("pair_pays", SettingKind.INT, 11, "player/banker pair side bets pay N to 1", minimum=1, maximum=50),
        Setting("pair_bets", SettingKind.BOOL, True, "whether the table offers the pair side bets"),
        *LIMIT_SETTINGS,
    )
    bet_types = {
        PLAYER: BetSpec("Player hand wins, pays 1:1; pushes on a tie"),
        BANKER: BetSpec("Banker hand wins, pays 1:1 less commission; pushes on a tie"),
        "tie": BetSpec("Both hands equal, pays tie_pays:1"),
        "player_pair": BetSpec("Player's first two cards are a pair, pays pair_pays:1"),
        "banker_pair": BetSpec("Banker's first two cards are a pair, pays pair_pays:1"),
    }
    profile = GameProfile(Family.BANKED, Deck.STANDARD, before_deal=(PLAYER, BANKER, "tie", "player_pair", "banker_pair"),
                          commission=True, watch=Watch.PAIRS, watch_bets=("player_pair", "banker_pair"))

    hands = (PLAYER, BANKER)

    def check_bet(self, bet: Any, config: Mapping[str, Any], *, where: str) -> None:
        if bet.type.endswith("_pair") and not config["pair_bets"]:
            raise EngineError(
                "bad_bet_type", f"bet {bet.id}: this table does not offer pair bets", field=f"{where}.type", params={"bet": bet.id}
            )

    def replay(self, rnd: Round) -> tuple[Coup, Shoe]:
        shoe = Shoe(rnd.config["decks"])
        coup = Coup()
        for index, event in enumerate(rnd.events):
            hand = coup.next_hand()
            card = read_card_event(event, index, hand, self.hands, shoe)
            assert hand is not None
            coup.add(hand, card)
        return coup, shoe

    def play(self, rnd: Round) -> RoundResult:
        coup, _ = self.replay(rnd)
        nxt = coup.next_hand()
        if nxt is not None:
            return awaiting(expect_card(nxt, coup.say_next()), hands=coup.hands_doc())
        return self.settle(rnd, coup)

    def settle(self, rnd: Round, coup: Coup) -> RoundResult:
        cfg = rnd.config
        p, b = coup.totals()
        winner = PLAYER if p > b else BANKER if b > p else "tie"
        pc, bc = coup.cards[PLAYER], coup.cards[BANKER]
        pairs = {"player_pair": pc[0].rank == pc[1].rank, "banker_pair": bc[0].rank == bc[1].rank}
        rows = []
        for bet in rnd.bets:
            if bet.type in (PLAYER, BANKER):
                if winner == "tie":
                    rows.append(bet_result(bet, "push", 0))
                elif winner != bet.type:
                    rows.append(bet_result(bet, "lose", -bet.amount))
                elif bet.type == BANKER:
                    commission = percent_of(bet.amount, cfg["commission_bp"], Rounding(cfg["commission_rounding"]),
                                            cfg["chip"])
                    extra = {"commission_collection": cfg["commission_collection"]}
                    rows.append(bet_result(bet, "win", bet.amount - commission, commission, **extra))
                else:
                    rows.append(bet_result(bet, "win", bet.amount))
            elif bet.type == "tie":
                if winner == "tie":
                    rows.append(bet_result(bet, "win", pay_ratio(bet.amount, cfg["tie_pays"], 1, Rounding.DOWN)))
                else:
                    rows.append(bet_result(bet, "lose", -bet.amount))
            else:
                if pairs[bet.type]:
                    rows.append(bet_result(bet, "win", bet.amount * cfg["pair_pays"]))
                else:
                    rows.append(bet_result(bet, "lose", -bet.amount))
        outcome = {
            "winner": winner,
            PLAYER: p,
            BANKER: b,
            "natural": len(pc) == 2 and len(bc) == 2 and (p >= 8 or b >= 8),
        }
        outcome.update(pairs)
        say = speech("tie") if winner == "tie" else speech(f"{winner}_wins", n=max(p, b), m=min(p, b))
        return settled(hands=coup.hands_doc(), outcome=outcome, bets=rows, house=banked_house(rows), say=say)

    # -- house edge: exact over the shoe composition ------------------------------------------
    def house_edge(self, config: Mapping[str, Any], *, seed: int = 1) -> list[EdgeRow]:
        cfg = self.resolve_config(config)
        probs = coup_probabilities(cfg["decks"])
        commission = Fraction(cfg["commission_bp"], 10_000)
        p_win, b_win, tie = probs[PLAYER], probs[BANKER], probs["tie"]
        method = f"exact enumeration over the {cfg['decks']}-deck shoe ({52 * cfg['decks']} cards)"
        rows = [
            EdgeRow(BANKER, -(b_win * (1 - commission) - p_win), method, note="ties push"),
            EdgeRow(PLAYER, -(p_win - b_win), method, note="ties push"),
            EdgeRow("tie", -(tie * cfg["tie_pays"] - (1 - tie)), method),
        ]
        if cfg["pair_bets"]:
            n = 4 * cfg["decks"]  # cards of one rank
            total_cards = 52 * cfg["decks"]
            p_pair = Fraction(n - 1, total_cards - 1)
            edge = -(p_pair * cfg["pair_pays"] - (1 - p_pair))
            rows += [EdgeRow("player_pair", edge, method), EdgeRow("banker_pair", edge, method)]
        return rows


def coup_probabilities(decks: int) -> dict[str, Fraction]:
    """Exact probabilities of player win, banker win and tie from a full shoe of ``decks`` packs."""
    return dict(drawing_probabilities(decks, PUNTO_BANCO_PLAYER, PUNTO_BANCO_BANKER))


PUNTO_BANCO_PLAYER = tuple(player_draws(p) for p in range(8))
PUNTO_BANCO_BANKER = tuple((b, t, banker_draws(b, t)) for b in range(8) for t in (None, *range(10)))


@cache  # pure; house edges ask for the same shoes again and again
def drawing_probabilities(decks: int, player_rule: tuple[bool, ...],
                          banker_rule: tuple[tuple[int, int | None, bool], ...]) -> dict[str, Fraction]:
    """Exact win/lose/tie probabilities of a baccarat-valued coup under any drawing rules.

    ``player_rule[p]``: whether the player (punter) draws on ``p`` (0–7); ``banker_rule``: rows
    ``(banker total, player's third card or None, draws)``. Punto Banco and chemin de fer (with
    its option cells played one way or the other) are both such rules. Cards are counted by value
    (0 holds the tens and faces); every ordered sequence of up to six cards is weighted by how many
    ways the shoe can deal it, all scaled to six draws so they share one denominator.
    """
    draws_after = {(b, t): d for b, t, d in banker_rule}
    counts = [16 * decks] + [4 * decks] * 9
    n = 52 * decks
    wins = {PLAYER: 0, BANKER: 0, "tie": 0}

    def record(p: int, b: int, weight: int) -> None:
        wins[PLAYER if p > b else BANKER if b > p else "tie"] += weight

    tail5, tail4 = n - 5, (n - 4) * (n - 5)
    for p1 in range(10):
        w1 = counts[p1]
        counts[p1] -= 1
        for b1 in range(10):
            w2 = w1 * counts[b1]
            if not w2:
                continue
            counts[b1] -= 1
            for p2 in range(10):
                w3 = w2 * counts[p2]
                if not w3:
                    continue
                counts[p2] -= 1
                for b2 in range(10):
                    w4 = w3 * counts[b2]
                    if not w4:
                        continue
                    counts[b2] -= 1
                    p, b = (p1 + p2) % 10, (b1 + b2) % 10
                    if p >= 8 or b >= 8:
                        record(p, b, w4 * tail4)
                    elif not player_rule[p]:
                        if draws_after[b, None]:
                            for b3 in range(10):
                                if counts[b3]:
                                    record(p, (b + b3) % 10, w4 * counts[b3] * tail5)
                        else:
                            record(p, b, w4 * tail4)
                    else:
                        for p3 in range(10):
                            c3 = counts[p3]
                            if not c3:
                                continue
                            pt = (p + p3) % 10
                            if draws_after[b, p3]:
                                counts[p3] -= 1
                                for b3 in range(10):
                                    if counts[b3]:
                                        record(pt, (b + b3) % 10, w4 * c3 * counts[b3])
                                counts[p3] += 1
                            else:
                                record(pt, b, w4 * c3 * tail5)
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    denominator = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    return {k: Fraction(v, denominator) for k, v in wins.items()}


ENGINE = Baccarat()
