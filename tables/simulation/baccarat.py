"""Settling baccarat coup after coup as a shoe is dealt, without the round-document envelope: for
replaying recorded shoes, simulations and the benchmark."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tables.engines.baccarat import BANKER, ENGINE, PLAYER, banker_draws, card_value
from tables.engines.cards import RANKS, SUITS, Card
from tables.engines.errors import EngineError
from tables.engines.money import Rounding, percent_of


class ShoeSettler:
    """Settle coup after coup as a shoe is dealt: the same rules as :class:`Baccarat` without the
    round-document envelope, for replaying recorded shoes and simulations.

    Cards are checked against the shoe (right spelling, no more copies than the decks hold) and
    against the tableau (exactly the cards it calls for). A coup that fails a check changes nothing.

    >>> shoe = ShoeSettler()
    >>> shoe.coup(["9S", "KH", "5D", "3C", "2H", "4S"], [("banker", 2500), ("player", 1000)])
    ('banker', [2375, -1000], 125)
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        cfg = ENGINE.resolve_config(config or {})
        self.decks: int = cfg["decks"]
        self.commission_bp: int = cfg["commission_bp"]
        self.rounding = Rounding(cfg["commission_rounding"])
        self.tie_pays: int = cfg["tie_pays"]
        self.pair_pays: int = cfg["pair_pays"]
        self.dealt: dict[str, int] = {}

    def coup(self, cards: list[str], stakes: list[tuple[str, int]]) -> tuple[str, list[int], int]:
        """(winner, each stake's net, total commission) of one coup dealt in order P, B, P, B, …"""
        value, rank = _VALUE, _RANK
        try:
            v = [value[c] for c in cards]
        except KeyError:
            bad = next(i for i, c in enumerate(cards) if c not in value)
            raise EngineError("bad_card", f"{cards[bad]!r} is not a card in canonical notation", event=bad, params={"card": str(cards[bad])}) from None
        n = len(v)
        if n < 4:
            raise EngineError("incomplete_coup", f"a coup has at least 4 cards, got {n}", params={"cards": n})
        p, b = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
        needed = 4
        if p < 8 and b < 8:
            if p <= 5:
                needed = 5
                p3 = v[4] if n > 4 else 0
                if n > 4:
                    p = (p + p3) % 10
                if banker_draws(b, p3):
                    needed = 6
                    if n > 5:
                        b = (b + v[5]) % 10
            elif b <= 5:
                needed = 5
                if n > 4:
                    b = (b + v[4]) % 10
        if n != needed:
            raise EngineError(
                "out_of_turn" if n > needed else "incomplete_coup",
                f"the tableau calls for {needed} cards in this coup, got {n}", params={"needed": needed, "cards": n},
            )
        dealt = self.dealt
        for i, c in enumerate(cards):
            if dealt.get(c, 0) + cards[:i].count(c) >= self.decks:
                raise EngineError(
                    "card_exhausted", f"{c}: the shoe holds {self.decks} deck(s), all already dealt", event=i, params={"card": str(c), "decks": self.decks}
                )
        for c in cards:
            dealt[c] = dealt.get(c, 0) + 1
        winner = PLAYER if p > b else BANKER if b > p else "tie"
        nets: list[int] = []
        commission_total = 0
        for kind, amount in stakes:
            if kind == "tie":
                nets.append(amount * self.tie_pays if winner == "tie" else -amount)
            elif kind == winner:
                if kind == BANKER:
                    commission = percent_of(amount, self.commission_bp, self.rounding)
                    commission_total += commission
                    nets.append(amount - commission)
                else:
                    nets.append(amount)
            elif kind == "player_pair":
                nets.append(amount * self.pair_pays if rank[cards[0]] == rank[cards[2]] else -amount)
            elif kind == "banker_pair":
                nets.append(amount * self.pair_pays if rank[cards[1]] == rank[cards[3]] else -amount)
            else:  # player or banker on a tie pushes; otherwise it lost
                nets.append(0 if winner == "tie" else -amount)
        return winner, nets, commission_total


_VALUE: dict[str, int] = {r + s: card_value(Card(r, s)) for r in RANKS for s in SUITS}
_RANK: dict[str, str] = {r + s: r for r in RANKS for s in SUITS}
