"""Playing blackjack and Pontoon rounds out, for tests, benchmarks and fixtures: a basic-strategy
chooser, :func:`play_out` (a whole round document from a shoe) and :class:`ShoeSettler` (round after
round as a shoe is dealt, without the document envelope)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tables.engines.base import (
    Bet,
    Engine,
    Json,
)
from tables.engines.blackjack.game import BLACKJACK
from tables.engines.blackjack.rules import A_NO_INSURANCE, A_PEEK, DEALER, MAIN_BET, PH_DONE, VALUES, Rules, is_natural
from tables.engines.blackjack.strategy import BasicStrategy
from tables.engines.blackjack.table import BlackjackTable
from tables.engines.errors import EngineError

Chooser = Callable[[Json, Json], Json]


def basic_chooser(rules: Rules) -> Chooser:
    """A chooser for :func:`play_out`: basic strategy, never insurance, the Pontoon banker draws to 17."""
    strategy = BasicStrategy(dealer_hits_soft_17=rules.dealer_hits_soft_17, double_after_split=rules.double_after_split)

    def choose(step: Json, out: Json) -> Json:
        allowed = step["allowed"]
        if A_NO_INSURANCE in allowed:
            return {"seat": step["seat"], "action": A_NO_INSURANCE.value}
        hands = out["hands"]
        if step["hand"] == DEALER:
            return {"seat": step["seat"], "action": "hit" if hands[DEALER]["total"] < 17 else "stand"}
        seat, index = step["seat"], step["hand"]
        hand = next(h for h in hands.values() if h.get("hand") == index and h.get("seat") == seat)
        values = [VALUES[c[0]] for c in hand["cards"]]
        if rules.pontoon and len(values) >= 5:
            action = "hit" if sum(values) <= 11 else "stand"
        else:
            dealer = hands[DEALER]["cards"]
            up = VALUES[dealer[-1][0]] if rules.pontoon else VALUES[dealer[0][0]]
            action = strategy.decide(values, up, allowed)
        return {"seat": seat, "action": action, "hand": index}

    return choose


def play_out(
    engine: Engine, config: Mapping[str, Any], bets: list[Json], draw: Callable[[], str], choose: Chooser | None = None
) -> tuple[Json, Json]:
    """Deal and play one round to the end, returning the round document and the engine's answer.

    Cards come from ``draw()`` in physical order: the initial deal, then (blackjack) the hole
    card, which is entered where the engine asks for it, then every draw. ``choose(next, out)``
    makes each seat's choice (basic strategy by default); the peek is answered from the hole card.
    Used by the tests, the benchmark and to build fixtures.
    """
    doc: Json = {"game": engine.name, "config": dict(config), "bets": bets, "events": []}
    events: list[Json] = doc["events"]
    rnd = engine.load(doc)
    rules = Rules.of(rnd.config, pontoon=engine.name == "pontoon")
    if choose is None:
        choose = basic_chooser(rules)
    hole: str | None = None  # dealt face down, entered when the engine asks for it
    initial = 2 * len({b["seat"] for b in bets if b["type"] == MAIN_BET}) + (2 if rules.pontoon else 1)
    while True:
        out = engine.play(engine.load(doc)).to_json()
        step = out["next"]
        if step is None:
            return doc, out
        if step["expect"] == "card":
            if hole is not None and step["to"] == DEALER:
                card, hole = hole, None
            else:
                card = draw()
                if initial:
                    initial -= 1
                    if not initial and not rules.pontoon:
                        hole = draw()
            events.append({"card": card, "to": step["to"]})
        elif A_PEEK in step["allowed"]:
            assert hole is not None
            up = out["hands"][DEALER]["cards"][0]
            result = "blackjack" if is_natural([up[0], hole[0]]) else "no_blackjack"
            events.append({"action": "peek", "result": result})
        else:
            events.append(choose(step, out))



class ShoeSettler:
    """Settle round after round as a shoe is dealt: the same :class:`BlackjackTable` the document path
    replays (every card checked against the turn and against the shoe, every choice against the
    rules, the dealer's draws against S17/H17), without the round-document envelope (no parsing
    of config and bets per round, no report) — for replaying recorded shoes and simulations.

    The shoe is the dealer's: cards are counted across rounds until :meth:`new_shoe`. A round
    that fails a check, or is not complete, changes nothing.

    >>> shoe = ShoeSettler()
    >>> shoe.round([(1, 100), (2, 500)], [{"card": "TS"}, {"card": "AH"}, {"card": "6H"}, {"card": "9D"},
    ...     {"card": "KD"}, {"seat": 1, "action": "stand"}, {"card": "KC"}, {"card": "8S"}])
    ([(1, 0, 'win', 100), (2, 0, 'win', 750)], -850)
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        self.rules = Rules.of(BLACKJACK.resolve_config(config or {}), pontoon=False)
        self.dealt: dict[str, int] = {}
        self._bets: dict[tuple[tuple[int, int], ...], list[Bet]] = {}

    def new_shoe(self) -> None:
        self.dealt = {}

    def round(
        self, stakes: Sequence[tuple[int, int]], events: Sequence[Mapping[str, Any]]
    ) -> tuple[list[tuple[int, int, str, int]], int]:
        """``stakes``: (seat, amount) of each main bet; ``events``: the cards and choices in
        document form. Returns each hand's (seat, hand, result, net), insurance as hand -1, and
        the house's net."""
        key = tuple(stakes)
        bets = self._bets.get(key)
        if bets is None:
            bets = [Bet(f"s{seat}", seat, MAIN_BET, amount) for seat, amount in stakes]
            if len(self._bets) < 4096:
                self._bets[key] = bets
        table = BlackjackTable(self.rules, bets)
        table.shoe._texts = dict(self.dealt)  # noqa: SLF001 - the round's shoe starts where the last ended
        for index, event in enumerate(events):
            table.apply(event, index)
        if table.phase is not PH_DONE:
            step = table.next_step()
            raise EngineError("incomplete_round", f"the round is not complete: {step['say'] if step else ''}")
        table.settle_hands()
        out = [(h.seat, h.index, h.result or "", h.net or 0) for s in table.seats for h in table.hands[s]]
        if table.peek is not None:
            won = table.peek == "blackjack"
            out += [(seat, -1, "win" if won else "lose", 2 * taken if won else -taken)
                    for seat, taken in table.insurance.items() if taken]
        self.dealt = table.shoe._texts  # noqa: SLF001
        return out, -sum(row[3] for row in out)
