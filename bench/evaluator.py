"""Seven-card hand evaluations per second: ours against phevaluator (C) and treys (pure Python).

Run from the repository root: ``python bench/evaluator.py [hands]``. Every evaluator ranks
the same random seven-card hands in the same run, each from its own card representation
prepared beforehand (our int codes, phevaluator's ids, treys' bit-packed ints), so the clock
measures evaluation only. The last line is one JSON object for scripts.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tables.engines.cards import Card  # noqa: E402
from tables.engines.poker import card_of, rank7, rank_codes  # noqa: E402


def per_second(run: Callable[[], None], count: int, repeat: int = 3) -> float:
    """Best of ``repeat`` timings, as evaluations per second."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def main(count: int = 200_000, seed: int = 1) -> dict[str, float]:
    rng = random.Random(seed)
    hands = [rng.sample(range(52), 7) for _ in range(count)]
    results: dict[str, float] = {}

    def ours() -> None:
        for h in hands:
            rank_codes(h)

    results["ours_per_s"] = per_second(ours, count)

    card_hands: list[list[Card]] = [[card_of(c) for c in h] for h in hands[: count // 4]]

    def ours_cards() -> None:
        for h in card_hands:
            rank7(h)

    results["ours_from_cards_per_s"] = per_second(ours_cards, len(card_hands))

    try:
        from phevaluator import evaluate_cards
    except ImportError:  # pragma: no cover - optional reference
        evaluate_cards = None
    if evaluate_cards is not None:
        # phevaluator's int ids are rank_index * 4 + suit_index, the same layout as our codes
        def ph() -> None:
            for h in hands:
                evaluate_cards(*h)

        results["phevaluator_per_s"] = per_second(ph, count)

    try:
        import treys
    except ImportError:  # pragma: no cover - optional reference
        treys = None
    if treys is not None:
        evaluator = treys.Evaluator()
        treys_hands = [
            [treys.Card.new("23456789TJQKA"[c >> 2] + "shdc"[c & 3]) for c in h] for h in hands[: count // 8]
        ]

        def tr() -> None:
            for h in treys_hands:
                evaluator.evaluate(h[:2], h[2:])

        results["treys_per_s"] = per_second(tr, len(treys_hands))

    if "treys_per_s" in results:
        results["ratio_vs_treys"] = results["ours_per_s"] / results["treys_per_s"]
    if "phevaluator_per_s" in results:
        results["ratio_vs_phevaluator"] = results["ours_per_s"] / results["phevaluator_per_s"]
    return results


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    out = main(n)
    print(f"seven-card evaluations per second, {n:,} random hands, best of 3 runs")
    print(f"  ours (rank_codes, int codes)      {out['ours_per_s']:>12,.0f}")
    print(f"  ours (rank7, Card objects)        {out['ours_from_cards_per_s']:>12,.0f}")
    if "phevaluator_per_s" in out:
        print(f"  phevaluator (C extension)         {out['phevaluator_per_s']:>12,.0f}")
    if "treys_per_s" in out:
        print(f"  treys (pure Python)               {out['treys_per_s']:>12,.0f}")
    if "ratio_vs_treys" in out:
        print(f"  ours / treys                      {out['ratio_vs_treys']:>12.1f}x")
    if "ratio_vs_phevaluator" in out:
        print(f"  ours / phevaluator                {out['ratio_vs_phevaluator']:>12.2f}x")
    print(json.dumps({k: round(v, 3) for k, v in out.items()}))
