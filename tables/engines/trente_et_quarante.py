"""Trente et Quarante (Rouge et Noir): two rows dealt to 31 or more; the row nearer 31 wins.

The croupier deals the noir row until its total (A=1, faces 10) reaches 31 or more, then the
rouge row the same way. Rouge and noir bet on the row with the lower total; couleur bets that
the first card dealt (the first of the noir row) has the colour of the winning row, inverse
that it has the other colour. Equal totals are a refait: a stand-off, except at 31, where the
house takes half of every bet. All bets pay even money.

>>> doc = {"game": "trente_et_quarante", "config": {},
...        "bets": [{"id": "b1", "seat": 2, "type": "rouge", "amount": 1000},
...                 {"id": "b2", "seat": 5, "type": "couleur", "amount": 400}],
...        "events": [{"card": c} for c in ["KS", "9C", "5H", "8D", "QH", "TD", "3S", "2C", "KD"]]}
>>> out = ENGINE.play(ENGINE.load(doc)).to_json()
>>> out["say"]
'Noir 32, rouge 35: noir wins; couleur wins'
>>> [(b["id"], b["result"], b["net"]) for b in out["bets"]], out["house"]["net"]
([('b1', 'lose', -1000), ('b2', 'win', 400)], 600)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from math import comb, factorial
from typing import Any

from tables.engines.baccarat import read_card_event
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
    banked_house,
    bet_result,
    expect_card,
    rounding_setting,
    settled,
)
from tables.engines.cards import Card, Shoe
from tables.engines.errors import EngineError
from tables.engines.inputs import BetField, Deck, FieldKind
from tables.engines.money import Rounding, divide, percent_of
from tables.engines.profile import Family, GameProfile, TurnOrder
from tables.engines.result import RoundResult
from tables.engines.speech import Speech, speech

NOIR, ROUGE = "noir", "rouge"
COULEUR, INVERSE = "couleur", "inverse"
ROWS = (NOIR, ROUGE)
TARGET = 31  # a row is complete once its total reaches 31
ROW_COLOUR = {NOIR: "black", ROUGE: "red"}


def card_value(card: Card) -> int:
    """A=1, 2–9 pip, T/J/Q/K=10."""
    if card.rank == "A":
        return 1
    if card.rank in "TJQK":
        return 10
    return int(card.rank)


INSURED = (BetField("insured", FieldKind.BOOL, "Insured against a refait of 31"),)


@dataclass
class Coup:
    """The two rows of one coup."""

    rows: dict[str, list[Card]] = field(default_factory=lambda: {NOIR: [], ROUGE: []})

    def total(self, row: str) -> int:
        return sum(card_value(c) for c in self.rows[row])

    def next_row(self) -> str | None:
        """The row the next card goes to, or None when both rows have reached 31."""
        for row in ROWS:
            if self.total(row) < TARGET:
                return row
        return None

    def say_next(self) -> Speech:
        row = self.next_row()
        noir = self.total(NOIR)
        if row == NOIR:
            return speech("deal_noir_row") if noir == 0 else speech("noir_deal", n=noir)
        if row == ROUGE:
            rouge = self.total(ROUGE)
            if rouge == 0:
                return speech("noir_total", n=noir).then(". ", speech("deal_rouge_row"))
            return speech("rouge_deal", n=rouge)
        return speech("coup_complete")

    def hands_doc(self) -> Json:
        return {
            row: {
                "cards": [str(c) for c in self.rows[row]],
                "total": self.total(row),
                "complete": self.total(row) >= TARGET,
            }
            for row in ROWS
        }


class TrenteEtQuarante(Engine):
    name = "trente_et_quarante"
    title = "Trente et Quarante"
    settings = (
        Setting("decks", SettingKind.INT, 6, "52-card packs in the shoe", minimum=1, maximum=8),
        Setting(
            "refait_31",
            SettingKind.CHOICE,
            "half",
            "what a refait at 31 does to every bet: half, the house takes half the stake "
            "(the prison rule is not offered)",
            choices=("half",),
        ),
        rounding_setting(
            "refait_rounding",
            Rounding.DOWN,
            "rounding of the half the house takes at a refait of 31 from an odd stake "
            "(down: the bettor keeps the odd chip)",
        ),
        Setting(
            "insurance", SettingKind.BOOL, False, "whether a bet may be insured against a refait of 31 (the assurance)"
        ),
        Setting(
            "insurance_bp",
            SettingKind.INT,
            100,
            "premium of the insurance, basis points of the stake",
            minimum=0,
            maximum=1000,
        ),
        rounding_setting(
            "insurance_rounding",
            Rounding.UP,
            "rounding of the premium to a whole minor unit (up: never less than the rate)",
        ),
        *LIMIT_SETTINGS,
    )
    bet_types = {
        ROUGE: BetSpec("the rouge row ends nearer 31 (lower total); 1:1", optional=("insured",), fields=INSURED),
        NOIR: BetSpec("the noir row ends nearer 31 (lower total); 1:1", optional=("insured",), fields=INSURED),
        COULEUR: BetSpec(
            "the first card of the noir row has the colour of the winning row; 1:1", optional=("insured",), fields=INSURED
        ),
        INVERSE: BetSpec("the first card of the noir row has the colour of the losing row; 1:1", optional=("insured",), fields=INSURED),
    }
    profile = GameProfile(Family.BANKED, Deck.STANDARD, before_deal=(ROUGE, NOIR, COULEUR, INVERSE), turn_order=TurnOrder.ANY)

    def check_bet(self, bet: Bet, config: Mapping[str, Any], *, where: str) -> None:
        if "insured" not in bet.extra:
            return
        if not isinstance(bet.get("insured"), bool):
            raise EngineError("bad_bet", f"bet {bet.id}: 'insured' must be true or false", field=f"{where}.insured", params={"bet": bet.id})
        if bet.get("insured") and not config["insurance"]:
            raise EngineError("bad_bet", f"bet {bet.id}: this table does not offer insurance", field=f"{where}.insured", params={"bet": bet.id})

    def replay(self, rnd: Round) -> Coup:
        shoe = Shoe(rnd.config["decks"])
        coup = Coup()
        for index, event in enumerate(rnd.events):
            row = coup.next_row()
            card = read_card_event(event, index, row, ROWS, shoe)
            assert row is not None  # read_card_event refuses a card after the coup is complete
            coup.rows[row].append(card)
        return coup

    def play(self, rnd: Round) -> RoundResult:
        coup = self.replay(rnd)
        row = coup.next_row()
        if row is not None:
            return awaiting(expect_card(row, coup.say_next()), hands=coup.hands_doc())
        return self.settle(rnd, coup)

    def settle(self, rnd: Round, coup: Coup) -> RoundResult:
        cfg = rnd.config
        noir, rouge = coup.total(NOIR), coup.total(ROUGE)
        refait = noir == rouge
        refait_31 = refait and noir == TARGET
        winner = None if refait else NOIR if noir < rouge else ROUGE
        first = coup.rows[NOIR][0]
        first_colour = "red" if first.is_red else "black"
        colour_winner = None if winner is None else COULEUR if ROW_COLOUR[winner] == first_colour else INVERSE
        rows = []
        for bet in rnd.bets:
            premium = 0
            extra: dict[str, Any] = {}
            if bet.get("insured"):
                premium = percent_of(bet.amount, cfg["insurance_bp"], Rounding(cfg["insurance_rounding"]))
                extra = {"insured": True, "premium": premium}
            side = winner if bet.type in ROWS else colour_winner
            if refait_31 and not bet.get("insured"):
                half = divide(bet.amount, 2, Rounding(cfg["refait_rounding"]))
                rows.append(bet_result(bet, "half", -half, **extra))
            elif refait:
                rows.append(bet_result(bet, "push", -premium, **extra))
            elif side == bet.type:
                rows.append(bet_result(bet, "win", bet.amount - premium, **extra))
            else:
                rows.append(bet_result(bet, "lose", -bet.amount - premium, **extra))
        outcome = {
            "winner": winner, NOIR: noir, ROUGE: rouge, "refait": refait, "refait_31": refait_31,
            "first_card": str(first), "first_colour": first_colour, "colour_winner": colour_winner,
        }  # fmt: skip
        if refait_31:
            say = speech("refait_31")
        elif refait:
            say = speech("refait", n=noir)
        else:
            say = speech(f"{winner}_wins", n=noir, m=rouge).then("; ", speech(f"{colour_winner}_wins"))
        return settled(hands=coup.hands_doc(), outcome=outcome, bets=rows, house=banked_house(rows), say=say)

    # -- house edge: exact over the shoe composition ------------------------------------------
    def house_edge(self, config: Mapping[str, Any], *, seed: int = 1) -> list[EdgeRow]:
        """Exact edges: every bet's is half the probability of a refait at 31 (see :func:`refait_31_probability`)."""
        cfg = self.resolve_config(config)
        p31 = refait_31_probability(cfg["decks"])
        method = (
            f"exact DP over card values and row totals, {cfg['decks']}-deck shoe ({52 * cfg['decks']} cards): "
            f"P(refait at 31) = {float(p31) * 100:.4f} %"
        )
        note = (
            "noir and rouge win equally often (the two rows are exchangeable) and the first card's colour is "
            "independent of the totals, so wins and losses cancel and the only loss is half a stake at a refait of 31; "
            "the half is taken as exact (an odd stake's rounding is ignored)"
        )
        rows = [EdgeRow(bet, p31 / 2, method, note=note) for bet in self.bet_types]
        if cfg["insurance"]:
            premium = Fraction(cfg["insurance_bp"], 10_000)
            insured_method = "exact: noir and rouge win equally often, so the premium is all an insured bet loses"
            rows += [
                EdgeRow(
                    f"{bet}+insured",
                    premium,
                    insured_method,
                    note="an insured bet loses only its premium at a refait of 31; premium rounding ignored",
                )
                for bet in self.bet_types
            ]
        return rows


@cache  # pure and a second or so per call: house_edge and its callers ask for the same shoes
def refait_31_probability(decks: int) -> Fraction:
    """Exact probability that both rows end on 31, from a full shoe of ``decks`` packs."""
    counts = dict.fromkeys(range(1, 10), 4 * decks)
    counts[10] = 16 * decks
    return double_hit_probability(counts, TARGET)


def double_hit_probability(counts: Mapping[int, int], target: int) -> Fraction:
    """P(both rows total exactly ``target``) when rows are dealt until they reach ``target``.

    A row totals exactly ``target`` iff its cards sum to ``target`` (every proper prefix is
    then below it), so every ordering of a multiset with that sum is a valid row. Two rows with
    multisets A and B (sizes a, b) are dealt in a/Πa_v! · b!/Πb_v! orders, each with chance
    Π falling(c_v, a_v+b_v) / falling(N, a+b). The sum over (A, B) runs as a DP over card
    values whose state is (sum of A, size of A, sum of B, size of B), weighted by the
    multinomial c_v! / (a_v! b_v! (c_v-a_v-b_v)!); the smallest value closes both gaps.
    """
    values = sorted((v for v, c in counts.items() if c > 0), reverse=True)
    n = sum(counts.values())
    states: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 1}
    for value in values[:-1]:
        c = counts[value]
        ways = [[comb(c, a) * comb(c - a, b) for b in range(c - a + 1)] for a in range(c + 1)]
        grown: dict[tuple[int, int, int, int], int] = defaultdict(int)
        for (sum_a, size_a, sum_b, size_b), weight in states.items():
            for a in range(min(c, (target - sum_a) // value) + 1):
                row, sum_a2, size_a2 = ways[a], sum_a + a * value, size_a + a
                for b in range(min(c - a, (target - sum_b) // value) + 1):
                    grown[sum_a2, size_a2, sum_b + b * value, size_b + b] += weight * row[b]
        states = grown
    value, c = values[-1], counts[values[-1]]
    by_sizes: dict[tuple[int, int], int] = defaultdict(int)
    for (sum_a, size_a, sum_b, size_b), weight in states.items():
        gap_a, gap_b = target - sum_a, target - sum_b
        if gap_a % value or gap_b % value:
            continue
        a, b = gap_a // value, gap_b // value
        if a + b <= c:
            by_sizes[size_a + a, size_b + b] += weight * comb(c, a) * comb(c - a, b)
    if not by_sizes:
        return Fraction(0)
    longest = max(a + b for a, b in by_sizes)
    numerator = sum(
        weight * factorial(a) * factorial(b) * _falling(n - a - b, longest - a - b)
        for (a, b), weight in by_sizes.items()
    )
    return Fraction(numerator, _falling(n, longest))


def _falling(n: int, k: int) -> int:
    product = 1
    for i in range(k):
        product *= n - i
    return product


ENGINE = TrenteEtQuarante()
