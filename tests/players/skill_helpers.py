"""A rated player's blackjack or Pontoon rounds played through the services from marked shoes, each decision made
by a chosen way of playing (the seeded simulation's basic or careless player), for the measured-edge tests."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from django.utils import timezone

from accounting.hold import _key, rules_of
from accounting.models import HouseEdgeCache
from tables.engines.base import Json
from tables.engines.blackjack import A_NO_INSURANCE, DEALER, VALUES, Rules
from tables.engines.registry import get_engine
from tables.models import Table
from tables.services import rounds, shoes
from tables.simulation.advantage import basic_decider, careless_decider
from tables.simulation.blackjack import play_out

ASSUMED_EDGE = Fraction(1, 200)  # the engine's basic-strategy edge the tests seed in the cache (0.5 %)


def seed_edge(game: str, config: dict[str, Any], edge: Fraction = ASSUMED_EDGE) -> None:
    """The house edge cache row the rating reads, so a test does not simulate a million rounds."""
    rules = rules_of(get_engine(game).resolve_config(config))
    HouseEdgeCache.objects.update_or_create(
        game=game, config_key=_key(rules),
        defaults={"config": rules, "rows": [{"bet": "bet", "edge": f"{edge.numerator}/{edge.denominator}",
                                             "method": "seeded for the test"}], "computed_at": timezone.now()},
    )


def chooser(rules: Rules, kind: str) -> Any:
    decide = careless_decider(rules) if kind == "careless" else basic_decider(rules)

    def choose(step: Json, out: Json) -> Json:
        allowed = step["allowed"]
        if A_NO_INSURANCE in allowed:
            return {"seat": step["seat"], "action": A_NO_INSURANCE.value}
        hands = out["hands"]
        if step["hand"] == DEALER:
            return {"seat": step["seat"], "action": "hit" if hands[DEALER]["total"] < 17 else "stand"}
        seat, index = step["seat"], step["hand"]
        hand = next(h for h in hands.values() if h.get("hand") == index and h.get("seat") == seat)
        dealer = hands[DEALER]["cards"]
        up = VALUES[dealer[-1][0]] if rules.pontoon else VALUES[dealer[0][0]]
        return {"seat": seat, "action": decide([VALUES[c[0]] for c in hand["cards"]], up, list(allowed)),
                "hand": index}

    return choose


def play_shoe_rounds(table: Table, actor: Any, *, kind: str, rounds_played: int, seat: int = 1, amount: int = 1_000,
                     seed: int = 3) -> list[Json]:
    """Mark a shoe, then ``rounds_played`` rounds with one bet at ``seat``, each through the services; a new shoe
    when the cut card comes. At Pontoon a deal that gives the seat a natural is dealt again (the bank would pass
    to it). Returns the round documents."""
    game = table.game
    engine = get_engine(game)
    rng = random.Random(seed)
    decks = int(engine.resolve_config({**table.engine_config(), **({"banker_seat": 2} if game == "pontoon" else {})})
                ["decks"])
    deck = [r + s for r in "23456789TJQKA" for s in "SHDC"] * decks
    docs: list[Json] = []
    pos = len(deck)
    while len(docs) < rounds_played:
        if pos > len(deck) * 3 // 4 - 12:
            shoes.shoe_open(table_id=table.pk, actor=actor, burn=1)
            rng.shuffle(deck)
            pos = 1
        rnd = rounds.round_open(table_id=table.pk, actor=actor)
        rules = Rules.of(rnd.config, pontoon=game == "pontoon")
        start = pos

        def draw() -> str:
            nonlocal pos
            pos += 1
            return deck[(pos - 1) % len(deck)]

        while True:
            bets = [{"id": "b", "seat": seat, "type": "bet", "amount": amount}]
            doc, out = play_out(engine, rnd.config, [dict(b) for b in bets], draw, chooser(rules, kind))
            if not (rules.pontoon and out["bets"][0].get("natural")):
                break
            rng.shuffle(deck)
            pos = start
        rounds.bet_place(round_id=rnd.pk, actor=actor, seat=seat, type="bet", amount=amount)
        rounds.betting_close(round_id=rnd.pk, actor=actor)
        for event in doc["events"]:
            rounds.event_post(round_id=rnd.pk, actor=actor, event=event)
        rounds.round_settle(round_id=rnd.pk, actor=actor)
        docs.append(doc)
    return docs
