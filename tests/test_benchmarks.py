"""Every benchmark in bench/ runs here at a small size (seconds each), so that a change that breaks one (a
new column its generated rows lack, a renamed service) fails the suite instead of the next person who
measures. ``make bench`` runs them at full size. Only that they run and what they print is checked here,
never how fast: speed is measured by the benchmarks themselves, on a machine doing nothing else.

Each runs as ``make bench`` runs it (``python bench/<name>.py``), with the small size's arguments below; its
databases are copies of this run's migrated template (tests/dbbackend: ``BENCH_TEMPLATE_DATABASE``) on
the suite's own PostgreSQL, its broker the suite's Redis.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]

# name: (the small size's arguments, keys its last line's JSON object must have)
BENCHES: dict[str, tuple[list[str], set[str]]] = {
    "api": (["--seconds", "2", "--tablets", "2", "--workers", "1", "--paced-seconds", "1", "--pace", "0.05",
             "--baseline-seconds", "1"],
            {"rounds_settled", "rounds_per_s", "requests", "requests_per_round", "errors", "latency_ms", "paced",
             "baseline", "card_p99_ms", "rounds_per_s_target", "throughput_ratio", "targets_met", "batched"}),
    "audit": (["2000", "12"],
              {"records", "verify_per_s", "scan_per_s", "verify_over_scan", "incremental_seconds",
               "rounds_per_s_with_audit", "rounds_per_s_without_audit", "audit_share_of_round",
               "bare_row_share_of_round_pct", "api_audit_share_of_round_pct"}),
    "body_check": (["--max-kb", "8", "--repeat", "1"],
                   {"worst_ms_per_kb", "worst_shape", "baseline_ms_per_kb", "ratio", "max_growth", "shapes"}),
    "dashboard": (["--sizes", "2000,4000", "--rounds-per-shift", "5", "--repeat", "2", "--baseline-repeat", "1"],
                  {"sizes", "statements", "dashboard_p95_ratio", "month_report_p95_ratio", "targets", "targets_met"}),
    "engines": (["100"], {"baccarat_coups_per_s", "baccarat_ratio", "blackjack_rounds_per_s", "blackjack_ratio",
                          "baccarat_shoe_path_ratio", "blackjack_shoe_path_ratio", "targets_met"}),
    "evaluator": (["2000"], {"ours_per_s", "ours_from_cards_per_s"}),
    "game_protection": (["--trials", "3", "--skill-rounds", "5000", "--edge-rounds", "20000"],
                        {"flags", "power", "flat_false_flag_share", "skill", "pontoon_skill", "basic_house_edge_pct",
                         "edge_by_true_count_pct", "targets_met"}),
    "export": (["--rows", "4000", "--repeat", "1"],
               {"rows", "copy_rows_per_s", "export_rows_per_s", "ratio", "python_rows_per_s", "peak_kib_export_all",
                "one_shift_rows"}),
    "mixed": (["--tables", "4", "--seconds", "2", "--round-seconds", "1", "--dashboards", "2", "--workers", "1",
               "--warmup", "1"],
              {"card_p99_ms", "dashboard_p95_ms", "export_s", "verify_s", "alone", "together", "errors", "targets",
               "targets_met"}),
    "players": (["--tables", "2", "--hours", "1", "--repeat", "2"],
                {"open_slips", "rounds", "bets", "ms", "queries", "panels_p95_ratio", "target_met"}),
    "request_cpu": (["--rounds", "8", "--warmup", "1"],
                    {"rounds", "requests", "cpu_ms_per_request", "by_kind", "baseline", "cpu_ratio_to_baseline"}),
    "settle": (["--rounds", "10"], {"rounds", "ms", "ratio_p50", "met"}),
}
# benchmarks whose small size a test of their own runs, checking more than their figures' keys
OWN_TESTS = {"record_checks": "tests/integrity/test_record_checks_bench.py"}


def test_every_benchmark_has_a_small_size() -> None:
    found = {path.stem for path in (ROOT / "bench").glob("*.py")} - {"common", "__init__"}
    assert found == set(BENCHES) | set(OWN_TESTS), "a benchmark in bench/ needs its small size in tests/test_benchmarks.py"
    for name, test in OWN_TESTS.items():
        assert f"bench/{name}.py" in (ROOT / test).read_text(), test


def numbers(value: Any) -> list[float]:
    if isinstance(value, dict):
        return [n for v in value.values() for n in numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in numbers(v)]
    return [value] if isinstance(value, int | float) and not isinstance(value, bool) else []


@pytest.mark.slow
@pytest.mark.django_db  # the session's template is built before the first test that asks for a database
@pytest.mark.parametrize("name", sorted(BENCHES))
def test_the_benchmark_runs_at_its_small_size_and_ends_with_its_figures(name: str, bench_env: dict[str, str]) -> None:
    args, keys = BENCHES[name]
    done = subprocess.run([sys.executable, f"bench/{name}.py", *args], cwd=ROOT, env=bench_env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert isinstance(figures, dict)
    assert keys <= figures.keys(), keys - figures.keys()
    if name == "api":  # every request the tablets made (measured or not) was answered as they expected
        assert figures["errors"] == 0
        # a machine too busy to settle a round, post a card at dealer pace or answer the baseline in the seconds
        # measured has no percentile or ratio to give (the run itself, and its answers, are what this test holds)
        if (figures["rounds_settled"] == 0 or not figures["paced"]["latency_ms"].get("card", {}).get("n")
                or not figures["baseline"].get("n")):
            return
    if name == "dashboard":  # the statements stated, and a refresh with nothing changed a 304 after fewer of them
        for size in figures["sizes"]:
            assert size["statuses"] == {"page": 200, "refresh": 200, "refresh_unchanged": 304}, size
            assert 0 < size["statements"]["refresh_unchanged"] < size["statements"]["refresh"], size
    if name == "mixed":  # every request answered; the export and the verification always finish
        assert figures["errors"] == 0
        assert figures["export_s"]["alone"], figures
        assert figures["export_s"]["mixed"], figures
        assert figures["verify_s"]["alone"], figures
        assert figures["verify_s"]["mixed"], figures
        # a machine too busy to reach a card (or a refresh) in the seconds measured has no percentile to give
        return
    assert all(figures[key] is not None for key in keys), figures
    assert all(math.isfinite(n) for key in keys for n in numbers(figures[key])), figures
