"""The Hi-Lo count of a shoe: the running count, the true count and the penetration before each round.

Hi-Lo (Harvey Dubner, 1963; as taught by Stanford Wong, *Professional Blackjack*, and Arnold Snyder,
*Blackbelt in Blackjack*) tags 2–6 +1, 7–9 0, tens and aces −1; it is balanced (a full shoe counts 0). The true
count is the running count divided by the decks not yet seen.

>>> shoe = ShoeCount(decks=6)
>>> shoe.see("5H"); shoe.see("6D"); shoe.see("KS")
>>> shoe.running, shoe.seen, round(shoe.true_count, 3), round(shoe.penetration, 4)
(1, 3, 0.168, 0.0096)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

# rank (first letter of the card's text) → Hi-Lo tag
HI_LO: dict[str, int] = {
    "2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "7": 0, "8": 0, "9": 0,
    "T": -1, "J": -1, "Q": -1, "K": -1, "A": -1,
}  # fmt: skip
# blackjack value (ace 1, ten-cards 10) → Hi-Lo tag
HI_LO_BY_VALUE: dict[int, int] = {1: -1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 0, 8: 0, 9: 0, 10: -1}
CARDS_PER_DECK = 52


def true_count(running: int, cards_left: int) -> float:
    """The running count per deck left; a shoe with under half a deck left counts as half a deck, as
    counters do (the last cards are behind the cut card in any case)."""
    return running / max(cards_left / CARDS_PER_DECK, 0.5)


@dataclass
class ShoeCount:
    """What a counter knows of a shoe: the running count, the cards seen and burned, and the ranks left."""

    decks: int
    running: int = 0
    seen: int = 0
    burned: int = 0

    def __post_init__(self) -> None:
        self.ranks_seen: Counter[str] = Counter()

    @property
    def size(self) -> int:
        return self.decks * CARDS_PER_DECK

    @property
    def cards_left(self) -> int:
        return self.size - self.seen - self.burned

    @property
    def true_count(self) -> float:
        return true_count(self.running, self.cards_left)

    @property
    def penetration(self) -> float:
        """The share of the shoe dealt or burned."""
        return (self.seen + self.burned) / self.size

    def burn(self, cards: int = 1) -> None:
        """Cards burned face down: out of the shoe, unseen, so they change the penetration but not the count."""
        self.burned += cards

    def see(self, card: str) -> None:
        rank = card[0].upper()
        self.running += HI_LO[rank]
        self.seen += 1
        self.ranks_seen[rank] += 1

    def see_all(self, cards: Iterable[str]) -> None:
        for card in cards:
            self.see(card)

    def ranks_left(self) -> Counter[str]:
        """Each rank's cards not yet seen (burned cards, unseen, are still counted as left)."""
        return Counter({r: self.decks * 4 - self.ranks_seen[r] for r in HI_LO})


@dataclass(frozen=True)
class BeforeRound:
    """The count before one round, from the cards seen in the shoe so far."""

    running: int
    true_count: float
    penetration: float
    cards_left: int


def counts_before_rounds(decks: int, rounds: Iterable[Iterable[str]], *, burn: int = 0) -> list[BeforeRound]:
    """The count before each round of one shoe, given each round's cards (every card the dealer entered) in
    the order they were dealt; ``burn`` cards were burned when the shoe was opened.

    >>> [(b.running, b.cards_left) for b in counts_before_rounds(1, [["2S", "3S"], ["KD"], []], burn=1)]
    [(0, 51), (2, 49), (1, 48)]
    """
    shoe = ShoeCount(decks=decks)
    shoe.burn(burn)
    out = []
    for cards in rounds:
        out.append(BeforeRound(shoe.running, shoe.true_count, shoe.penetration, shoe.cards_left))
        shoe.see_all(cards)
    return out
