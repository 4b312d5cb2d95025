"""The JSON body's nesting check (``casino.parsers.json_depth``): the worst time per KB on adversarial bodies
up to the size limit, against ``json.loads`` in the same run.

Run from the repository root: ``python bench/body_check.py [--max-kb 256] [--repeat 5]``. For each shape the
check finds hard (the issue's ``"`` + ``\\"`` × n + ``[`` × 33, runs of quotes or backslashes, ``[]`` pairs,
deep brackets, deep objects, escaped brackets in a string, a long string before deep brackets, an array of
empty arrays) and each size from 1 KB doubling up to ``--max-kb`` (the default, 256 KB, is the body limit,
``MAX_BODY_BYTES``), it times the check, and ``json.loads`` of the same body. Most of these bodies are not
JSON, and ``json.loads`` refuses them within a few bytes, so the baseline is ``json.loads`` of a valid body of
the same size that the decoder finds costly (an array of empty arrays, the ``arrays`` shape). Linear means
the time per KB stays flat as the size doubles: ``growth`` is the time per KB at the largest size over that at
the smallest size of 4 KB or more (a quadratic check doubles it at every step: 64 for 4 KB → 256 KB).

Times are the least wall-clock time of ``--repeat`` runs (the run other jobs disturbed least). The last line
is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from casino.parsers import json_depth  # noqa: E402  (imports nothing of Django's settings when called)

LIMIT = 32


def shapes(size: int) -> dict[str, bytes]:
    """The worst shapes found for the check, each about ``size`` bytes (tests/integrity/test_body_check.py posts them too)."""
    return {
        "issue_28": b'"' + b'\\"' * ((size - 40) // 2) + b"[" * 33,
        "quotes": b'"' * size,
        "backslashes": b'"' + b"\\" * size,
        "pairs": b"[]" * (size // 2),
        "deep": b"[" * size,
        "deep_objects": b'{"a":' * (size // 5),
        "escaped_brackets": b'["' + b'\\"[' * (size // 3),
        "strings_then_deep": b'["' + b"x" * (size // 2) + b'",' + b"[" * 40,
        "arrays": b"[" + b"[]," * ((size - 2) // 3) + b"[]]",
    }


def least(run: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def loads(body: bytes) -> None:
    try:
        json.loads(body)
    except (ValueError, RecursionError):
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-kb", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    sizes = []
    kb = 1
    while kb <= args.max_kb:
        sizes.append(kb)
        kb *= 2
    if sizes[-1] != args.max_kb:
        sizes.append(args.max_kb)

    per_kb: dict[str, dict[int, float]] = {}  # shape → size in KB → ms per KB of the check
    loads_per_kb: dict[str, dict[int, float]] = {}
    for kb in sizes:
        for name, body in shapes(kb * 1024).items():
            check = least(lambda body=body: json_depth(body, limit=LIMIT), args.repeat)  # type: ignore[misc]
            decode = least(lambda body=body: loads(body), args.repeat)  # type: ignore[misc]
            per_kb.setdefault(name, {})[kb] = check * 1000 / (len(body) / 1024)
            loads_per_kb.setdefault(name, {})[kb] = decode * 1000 / (len(body) / 1024)

    top = sizes[-1]
    small = next((kb for kb in sizes if kb >= 4), sizes[0])
    print(f"{'shape':<18} {'check ms/KB at ' + str(top) + ' KB':>24} {'json.loads ms/KB':>17} {'growth':>7}")
    figures: dict[str, Any] = {}
    for name in per_kb:
        growth = per_kb[name][top] / per_kb[name][small] if per_kb[name][small] else float("nan")
        figures[name] = {"check_ms_per_kb": round(per_kb[name][top], 5),
                         "json_loads_ms_per_kb": round(loads_per_kb[name][top], 5), "growth": round(growth, 2)}
        print(f"{name:<18} {per_kb[name][top]:>24.4f} {loads_per_kb[name][top]:>17.4f} {growth:>7.2f}")
    worst_name, worst = max(((n, max(v.values())) for n, v in per_kb.items()), key=lambda item: item[1])
    baseline = loads_per_kb["arrays"][top]
    ratio = worst / baseline
    print(f"worst check {worst:.4f} ms/KB ({worst_name}); json.loads of a valid body of {top} KB "
          f"(arrays) {baseline:.4f} ms/KB; ratio {ratio:.2f}; a {top} KB body checked in at most "
          f"{worst * top:.1f} ms (load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs)")
    print(json.dumps({"bench": "body_check", "max_kb": top, "sizes_kb": sizes, "limit_depth": LIMIT,
                      "worst_ms_per_kb": round(worst, 5), "worst_shape": worst_name,
                      "worst_ms_at_max": round(worst * top, 3), "baseline": "json.loads of arrays",
                      "baseline_ms_per_kb": round(baseline, 5), "ratio": round(ratio, 3),
                      "max_growth": max(f["growth"] for f in figures.values()), "shapes": figures,
                      "load_average": round(os.getloadavg()[0], 2), "cpus": os.cpu_count()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
