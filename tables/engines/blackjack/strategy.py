"""Basic strategy: the published multi-deck charts, as data, and the decision they give."""

from __future__ import annotations

from collections.abc import Collection, Sequence

# -- basic strategy ------------------------------------------------------------------------
# Multi-deck basic strategy (4–8 decks) with late surrender, as published (Wizard of Odds,
# Griffin). Columns: dealer up card 2 3 4 5 6 7 8 9 T A. Codes: H hit, S stand, D double else
# hit, d double else stand, P split, R surrender else hit, r surrender else stand,
# p surrender else split, '-' (pairs only) play the hand by its total.
_HARD_S17 = {
    **dict.fromkeys(range(4, 9), "HHHHHHHHHH"),
    9: "HDDDDHHHHH",
    10: "DDDDDDDDHH",
    11: "DDDDDDDDDH",
    12: "HHSSSHHHHH",
    13: "SSSSSHHHHH",
    14: "SSSSSHHHHH",
    15: "SSSSSHHHRH",
    16: "SSSSSHHRRR",
    **dict.fromkeys(range(17, 22), "SSSSSSSSSS"),
}
_SOFT_S17 = {
    12: "HHHHHHHHHH",
    13: "HHHDDHHHHH",
    14: "HHHDDHHHHH",
    15: "HHDDDHHHHH",
    16: "HHDDDHHHHH",
    17: "HDDDDHHHHH",
    18: "SddddSSHHH",
    19: "SSSSSSSSSS",
    20: "SSSSSSSSSS",
    21: "SSSSSSSSSS",
}
_PAIRS_DAS = {
    1: "PPPPPPPPPP",
    2: "PPPPPP----",
    3: "PPPPPP----",
    4: "---PP-----",
    5: "----------",
    6: "PPPPP-----",
    7: "PPPPPP----",
    8: "PPPPPPPPPP",
    9: "PPPPP-PP--",
    10: "----------",
}
_PAIRS_NO_DAS = {**_PAIRS_DAS, 2: "--PPPP----", 3: "--PPPP----", 4: "----------", 6: "-PPPP-----"}
# what hitting soft 17 changes: (table, total or pair, up card) → code
_H17_CHANGES = (
    ("hard", 11, 1, "D"),
    ("hard", 15, 1, "R"),
    ("hard", 17, 1, "r"),
    ("soft", 18, 2, "d"),
    ("soft", 19, 6, "d"),
    ("pair", 8, 1, "p"),
)


def _column(up: int) -> int:
    return 9 if up == 1 else up - 2


class BasicStrategy:
    """The published multi-deck basic strategy for a rule set (S17/H17, DAS, surrender).

    ``decide`` takes a hand as card values (ace 1, tens 10) and the dealer's up card value, and
    returns one of ``hit stand double split surrender`` limited to what is allowed.

    >>> bs = BasicStrategy(dealer_hits_soft_17=False, double_after_split=True)
    >>> bs.decide([10, 6], 10, ["hit", "stand", "surrender"]), bs.decide([1, 7], 6, ["hit", "stand"])
    ('surrender', 'stand')
    """

    def __init__(self, *, dealer_hits_soft_17: bool, double_after_split: bool) -> None:
        hard = {t: list(row) for t, row in _HARD_S17.items()}
        soft = {t: list(row) for t, row in _SOFT_S17.items()}
        pairs = {v: list(row) for v, row in (_PAIRS_DAS if double_after_split else _PAIRS_NO_DAS).items()}
        if dealer_hits_soft_17:
            tables = {"hard": hard, "soft": soft, "pair": pairs}
            for table, key, up, code in _H17_CHANGES:
                tables[table][key][_column(up)] = code
        # indexed [total][up value], the ace column at index 1
        self.hard = {t: ["", row[9], *row[:9]] for t, row in hard.items()}
        self.soft = {t: ["", row[9], *row[:9]] for t, row in soft.items()}
        self.pairs = {v: ["", row[9], *row[:9]] for v, row in pairs.items()}
        self.hard[22] = ["S"] * 11  # a busted hand never asks, but keep lookups total

    def code(
        self, total: int, soft: bool, pair: int, up: int, can_double: bool, can_split: bool, can_surrender: bool
    ) -> str:
        """One of H S D P R for a hand given by its total (``pair`` is the paired value or 0)."""
        if pair and can_split:
            c = self.pairs[pair][up]
            if c == "P":
                return "P"
            if c == "p":
                return "R" if can_surrender else "P"
        c = (self.soft if soft else self.hard)[total][up]
        if c == "D":
            return "D" if can_double else "H"
        if c == "d":
            return "D" if can_double else "S"
        if c == "R":
            return "R" if can_surrender else "H"
        if c == "r":
            return "R" if can_surrender else "S"
        return c

    def decide(self, values: Sequence[int], up: int, allowed: Collection[str]) -> str:
        hard = sum(values)
        soft = 1 in values and hard <= 11
        total = hard + 10 if soft else hard
        pair = values[0] if len(values) == 2 and values[0] == values[1] else 0
        code = self.code(total, soft, pair, up, "double" in allowed, "split" in allowed, "surrender" in allowed)
        if "hit" not in allowed:  # split aces waiting on a resplit
            return "split" if code == "P" else "stand"
        return {"H": "hit", "S": "stand", "D": "double", "P": "split", "R": "surrender"}[code]
