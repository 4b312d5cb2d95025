"""``bench/record_checks.py`` at a small size: the history it copies is faithful (neither the hourly nor the full
record checks find a difference in it), and a ledger line changed in the recent shift is named by the hourly run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db  # the session's template is built before the first test that asks for a database
def test_the_benchmark_runs_at_a_small_size(bench_env):
    # its database a copy of the suite's migrated template (tests/fixtures.py: bench_env), nothing to migrate
    env = {k: v for k, v in bench_env.items() if k != "DATABASE_URL"}
    done = subprocess.run([sys.executable, "bench/record_checks.py", "--history", "2", "--rounds", "1"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["bench"] == "record_checks"
    assert figures["history_shifts"] == 2
    assert figures["rounds"] == 3 * 3  # the worked shift's two rounds and one more, and two copies of them
    assert figures["hourly_finds_a_changed_line"] is True
    assert figures["hourly_seconds"] > 0
    assert figures["full_seconds"] > 0
