"""Reading recorded rounds for game protection: the cards of a round in the order entered, and each blackjack
decision as it stood when it was taken (the hand, the dealer's up card, what was allowed), replayed through the
engine's own table (:class:`tables.engines.blackjack.BlackjackTable`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tables.engines.base import Bet
from tables.engines.blackjack import PH_PLAYERS, VALUES, BlackjackTable, Rules
from tables.engines.errors import EngineError

DECISIONS = frozenset({"hit", "stand", "double", "split", "surrender"})


@dataclass(frozen=True)
class Decision:
    seat: int
    hand: tuple[int, ...]  # card values, ace 1
    up: int
    action: str
    allowed: tuple[str, ...]


def cards_of(events: Sequence[Any]) -> list[str]:
    """The cards of a round's events, in the order entered."""
    return [e["card"] for e in events if isinstance(e, Mapping) and isinstance(e.get("card"), str)]


def blackjack_decisions(config: Mapping[str, Any], bets: Sequence[Mapping[str, Any]], events: Sequence[Any],
                        *, pontoon: bool = False) -> list[Decision]:
    """Every hit, stand, double, split and surrender of a blackjack round, as it stood when taken. A round the
    engine cannot replay (a recording it refuses) gives the decisions up to the refusal."""
    rules = Rules.of(config, pontoon=pontoon)
    table = BlackjackTable(rules, [Bet.of(b) for b in bets])
    out: list[Decision] = []
    for index, event in enumerate(events):
        try:
            if isinstance(event, Mapping) and event.get("action") in DECISIONS and table.phase is PH_PLAYERS:
                hand = table.current
                if hand is not None and not hand.needs_card and table.dealer_ranks:
                    up_rank = table.dealer_ranks[-1] if pontoon else table.dealer_ranks[0]
                    out.append(Decision(hand.seat, tuple(VALUES[r] for r in hand.ranks), VALUES[up_rank],
                                        str(event["action"]), tuple(str(a) for a in table.allowed(hand))))
            table.apply(event, index)
        except (EngineError, KeyError, TypeError):
            break
    return out
