"""The code base stays clean, as `make lint` checks it: ruff, import-linter (the engines' purity and
the one-way layers, docs/architecture.md) and mypy (strict on the engines, simulators and score sheets)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def test_ruff_is_clean():
    done = subprocess.run([BIN / "ruff", "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_import_contracts_are_kept():
    done = subprocess.run([BIN / "lint-imports"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_mypy_is_clean():
    done = subprocess.run([BIN / "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout
