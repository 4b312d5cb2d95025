"""Game protection's acceptance (issue 35) as a seeded simulation at the demo's blackjack rules (the engine's
defaults: six decks, S17, 3:2, double 9–11, double after split, no surrender), cut at 75 %.

Run from the repository root: ``python bench/game_protection.py [--trials N] [--rounds R] [--skill-rounds S]``.

* **Power and false flags**: ``--trials`` tables per kind of player, each until the player has played
  ``--rounds`` rounds (1,000 by the acceptance): the share flagged (bets following the count, or entering and
  leaving with it, each at p ≤ 0.01). The counter (Hi-Lo, 1–8 spread) and the back-counter (in at +2, out
  below +1) must be flagged at 95 % or more; the count-blind bettors (who come and go and change their bet at
  random) at 5 % or less. A 95 % interval (Wilson) is given with each share.
* **Measured skill**: each kind's measured house edge (the engine's basic-strategy edge, ``manage.py
  house_edge``, plus the mean cost of the player's decisions over every round they played in the trials)
  against the true edge of the way they play: the same engine edge plus the difference, on the same cards, of
  basic strategy's net and theirs (``--skill-rounds`` rounds, with its 95 % interval). The acceptance: within
  0.2 percentage points.
* **Pontoon's measured skill**: at the Pontoon engine's default rules (one pack, the banker drawing to 17, ties
  to the banker, five-card tricks), a basic-strategy punter (the engine's own strategy) and a careless one: each
  measured house edge (the engine's Pontoon edge plus the mean cost of the decisions, each deviation valued with
  the pack less the cards the player sees) against the true edge of the way they play, on the same cards, within
  0.2 percentage points.
* **Edge by true count**: the basic-strategy player's mean net at each true count, the simulated counterpart of
  the half a percent a point the betting figures assume.

The last line is one JSON object for scripts.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tables.engines.blackjack import BLACKJACK, PONTOON, Rules, simulate  # noqa: E402
from tables.protection.betting import DEFAULT_ALPHA, EdgeTable  # noqa: E402
from tables.protection.skill import DecisionCosts  # noqa: E402
from tables.simulation.advantage import KINDS, flagged, per_true_count_edges, run_table, strategy_gap  # noqa: E402

PLAYS_CARELESSLY = {"careless": "careless"}  # the kinds whose playing strategy is not basic strategy


def wilson(hits: int, n: int) -> list[float]:
    if not n:
        return [0.0, 1.0]
    p, z = hits / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=200, help="tables per kind of player")
    parser.add_argument("--rounds", type=int, default=1_000, help="rounds the player plays at each table")
    parser.add_argument("--skill-rounds", type=int, default=1_000_000, help="rounds of the same-cards comparison")
    parser.add_argument("--edge-rounds", type=int, default=1_000_000, help="rounds of the engine's basic edge")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.monotonic()
    rules = Rules.of(BLACKJACK.resolve_config({}), pontoon=False)
    base, base_half = simulate(rules, args.edge_rounds, args.seed)
    house_edge = -base
    edges = EdgeTable.linear(house_edge=house_edge)
    costs = DecisionCosts(rules)

    flags: dict[str, dict[str, object]] = {}
    measured: dict[str, tuple[float, int]] = {}
    for kind in KINDS:
        hits = 0
        cost_sum, played = 0.0, 0
        for t in range(args.trials):
            run = run_table(kind, rules, rounds=args.rounds, seed=args.seed * 1_000_003 + t, costs=costs)
            hits += flagged(run, edges, DEFAULT_ALPHA)
            cost_sum += sum(run.round_costs)
            played += len(run.round_costs)
        flags[kind] = {"flagged": hits, "tables": args.trials, "share": round(hits / args.trials, 4),
                       "ci95": wilson(hits, args.trials)}
        measured[kind] = (cost_sum / played, played)
        print(f"{kind:>12}: flagged {hits}/{args.trials}", flush=True)

    gaps = {strategy: strategy_gap(strategy, rules, rounds=args.skill_rounds, seed=args.seed)
            for strategy in {"basic", *PLAYS_CARELESSLY.values()}}
    skill: dict[str, dict[str, object]] = {}
    for kind in KINDS:
        gap = gaps[PLAYS_CARELESSLY.get(kind, "basic")]
        cost, played = measured[kind]
        true_edge, measured_edge = house_edge + gap.true_gap, house_edge + cost
        skill[kind] = {
            "measured_house_edge_pct": round(100 * measured_edge, 3),
            "true_house_edge_pct": round(100 * true_edge, 3),
            "true_gap_ci95_pct": round(100 * gap.true_gap_ci95, 3),
            "difference_pp": round(100 * (measured_edge - true_edge), 3),
            "rounds_measured": played,
            "within_0_2pp": abs(measured_edge - true_edge) <= 0.002,
        }
        print(f"{kind:>12}: measured {100 * measured_edge:.3f} %, true {100 * true_edge:.3f} % "
              f"± {100 * gap.true_gap_ci95:.3f}", flush=True)
    by_count = per_true_count_edges(rules, rounds=args.skill_rounds, seed=args.seed + 1)
    pontoon = pontoon_skill(args.skill_rounds, args.edge_rounds, args.seed)

    power = min(flags["counter"]["share"], flags["back_counter"]["share"])  # type: ignore[type-var]
    false_flags = flags["flat"]["share"]
    print(json.dumps({
        "rules": "blackjack engine defaults (the demo's tables), 6 decks cut at 75 %",
        "rounds_per_table": args.rounds,
        "alpha": DEFAULT_ALPHA,
        "basic_house_edge_pct": round(100 * house_edge, 3),
        "basic_house_edge_ci95_pct": round(100 * base_half, 3),
        "flags": flags,
        "power": power,
        "flat_false_flag_share": false_flags,
        "skill": skill,
        "pontoon_skill": pontoon,
        "edge_by_true_count_pct": {str(tc): [round(100 * ev, 2), n] for tc, (ev, n) in by_count.items()},
        "targets_met": bool(power >= 0.95 and false_flags <= 0.05  # type: ignore[operator]
                            and all(s["within_0_2pp"] for s in skill.values())
                            and all(s["within_0_2pp"] for s in pontoon.values() if isinstance(s, dict))),
        "seconds": round(time.monotonic() - started, 1),
    }))


def pontoon_skill(rounds: int, edge_rounds: int, seed: int) -> dict[str, object]:
    """The basic and the careless Pontoon punter: measured against true house edge (the banker's), same cards."""
    rules = Rules.of(PONTOON.resolve_config({"banker_seat": 1}), pontoon=True)
    base, half = simulate(rules, edge_rounds, seed)
    house_edge = -base
    out: dict[str, object] = {"rules": "Pontoon engine defaults, 1 pack cut at 75 %",
                              "basic_house_edge_pct": round(100 * house_edge, 3),
                              "basic_house_edge_ci95_pct": round(100 * half, 3)}
    for kind in ("basic", "careless"):
        gap = strategy_gap(kind, rules, rounds=rounds, seed=seed + 7)
        measured_edge, true_edge = house_edge + gap.measured_cost, house_edge + gap.true_gap
        out[kind] = {
            "measured_house_edge_pct": round(100 * measured_edge, 3),
            "true_house_edge_pct": round(100 * true_edge, 3),
            "true_gap_ci95_pct": round(100 * gap.true_gap_ci95, 3),
            "difference_pp": round(100 * (measured_edge - true_edge), 3),
            "rounds_measured": gap.rounds,
            "within_0_2pp": abs(measured_edge - true_edge) <= 0.002,
        }
        print(f"{'pontoon ' + kind:>16}: measured {100 * measured_edge:.3f} %, true {100 * true_edge:.3f} % "
              f"± {100 * gap.true_gap_ci95:.3f}", flush=True)
    return out


if __name__ == "__main__":
    main()
