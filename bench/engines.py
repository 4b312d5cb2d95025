"""Rounds settled per second by the baccarat and blackjack engines, against a bare card loop.

Run from the repository root: ``python bench/engines.py [rounds]``. Whole round documents
(bets and every event; blackjack with basic-strategy choices) are dealt beforehand from a
seeded shuffled shoe, so the clock measures only:

* the baseline: walking each document's events and reading each card string, the least any
  settlement has to do;
* settling: ``registry.play(doc)`` on the same documents, validation included (config, bets,
  every card against the shoe, every choice against the rules) — the path the API takes;
* baccarat's shoe path: :class:`~tables.engines.baccarat.ShoeSettler` settling the same coups
  as a shoe is dealt (every card checked against the shoe and the tableau, every bet paid with
  commission) without building round documents — the path a shoe replay or simulation takes.

Times are this process's CPU time (best of five runs), so other jobs on a shared machine do not
skew them. ``ratio`` is settle time / baseline time. The last line is one JSON object for scripts.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tables.engines import registry  # noqa: E402
from tables.engines.baccarat import ENGINE as BACCARAT  # noqa: E402
from tables.engines.baccarat import ShoeSettler
from tables.engines.blackjack import BLACKJACK, play_out  # noqa: E402
from tables.engines.cards import full_deck  # noqa: E402
from tables.engines.errors import EngineError  # noqa: E402

Doc = dict[str, Any]


class ShuffledShoe:
    """A seeded shoe of card strings, reshuffled when the cut card comes out."""

    def __init__(self, decks: int, rng: random.Random, penetration: float = 0.75) -> None:
        self.cards = [str(c) for c in full_deck()] * decks
        self.rng = rng
        self.cut = int(len(self.cards) * penetration)
        self.pos = len(self.cards)

    def new_round(self) -> None:
        """Reshuffle once the cut card is out; each round's document is checked against a full shoe."""
        if self.pos >= self.cut:
            self.rng.shuffle(self.cards)
            self.pos = 0

    def draw(self) -> str:
        card = self.cards[self.pos]
        self.pos += 1
        return card


def baccarat_docs(count: int, rng: random.Random) -> list[Doc]:
    shoe = ShuffledShoe(8, rng)
    docs = []
    for n in range(count):
        shoe.new_round()
        bets = [
            {
                "id": f"b{n}-{i}",
                "seat": i + 1,
                "type": rng.choice(["player", "banker", "tie"]),
                "amount": rng.choice([100, 500, 2500]),
            }
            for i in range(3)
        ]
        doc: Doc = {"game": "baccarat", "config": {}, "bets": bets, "events": []}
        while True:  # deal as the engine directs, so every document is a complete coup
            out = BACCARAT.play(BACCARAT.load(doc))
            if out["status"] == "settled":
                break
            doc["events"].append({"card": shoe.draw()})
        docs.append(doc)
    return docs


def blackjack_docs(count: int, rng: random.Random, seats: int = 3) -> list[Doc]:
    shoe = ShuffledShoe(6, rng)
    docs = []
    for n in range(count):
        shoe.new_round()
        bets = [
            {"id": f"b{n}-{s}", "seat": s, "type": "bet", "amount": rng.choice([100, 500, 2500])}
            for s in range(1, seats + 1)
        ]
        doc, _ = play_out(BLACKJACK, {}, bets, shoe.draw)
        docs.append(doc)
    return docs


def best_time(run: Callable[[], None], repeat: int = 5) -> float:
    """Least CPU seconds of ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def measure(docs: list[Doc]) -> tuple[float, float]:
    """(baseline seconds, settle seconds) for the whole list, best of several runs."""

    loops = 20  # the bare loop is so short that one pass is mostly clock noise

    def baseline() -> None:
        for _ in range(loops):
            for doc in docs:
                for event in doc["events"]:
                    event.get("card")

    def settle() -> None:
        play = registry.play
        for doc in docs:
            play(doc)

    return best_time(baseline) / loops, best_time(settle)


def measure_shoe_path(docs: list[Doc]) -> float:
    """Seconds to settle every baccarat coup through :class:`ShoeSettler`, best of several runs."""
    coups = [([e["card"] for e in d["events"]], [(b["type"], b["amount"]) for b in d["bets"]]) for d in docs]

    # where the dealer reshuffled: found once, outside the clock, by the shoe refusing a card
    new_shoe_at: set[int] = set()
    probe = ShoeSettler({"decks": 8})
    for i, (cards, stakes) in enumerate(coups):
        try:
            probe.coup(cards, stakes)
        except EngineError:
            new_shoe_at.add(i)
            probe.dealt.clear()
            probe.coup(cards, stakes)

    def settle() -> None:
        settler = ShoeSettler({"decks": 8})
        for i, (cards, stakes) in enumerate(coups):
            if i in new_shoe_at:
                settler.dealt.clear()
            settler.coup(cards, stakes)

    return best_time(settle)


def main(count: int = 2000, seed: int = 1) -> dict[str, float]:
    rng = random.Random(seed)
    results: dict[str, float] = {}
    for game, make, unit in (("baccarat", baccarat_docs, "coups"), ("blackjack", blackjack_docs, "rounds")):
        docs = make(count, rng)
        events = sum(len(d["events"]) for d in docs)
        for doc in docs[:50]:  # every document settles
            assert registry.play(doc)["status"] == "settled"
        base, settle = measure(docs)
        if game == "baccarat":
            shoe = measure_shoe_path(docs)
            results["baccarat_shoe_path_coups_per_s"] = round(count / shoe, 1)
            results["baccarat_shoe_path_ratio"] = round(shoe / base, 1)
            print(f"baccarat shoe path: settled {count / shoe:,.0f}/s ({shoe / count * 1e6:.1f} µs each), "
                  f"ratio {shoe / base:.1f} to the bare card loop")
        results[f"{game}_{unit}_per_s"] = round(count / settle, 1)
        results[f"{game}_baseline_per_s"] = round(count / base, 1)
        results[f"{game}_ratio"] = round(settle / base, 1)
        print(
            f"{game}: {count} {unit}, {events / count:.1f} events each; "
            f"settled {count / settle:,.0f}/s ({settle / count * 1e6:.1f} µs each), "
            f"bare card loop {count / base:,.0f}/s ({base / count * 1e6:.2f} µs each), "
            f"ratio {settle / base:.1f}"
        )
    return results


if __name__ == "__main__":
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    print(json.dumps(main(rounds)))
