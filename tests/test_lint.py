"""The code base stays clean: ruff, and the engines' purity contract (import-linter)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def test_ruff_is_clean():
    done = subprocess.run([BIN / "ruff", "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_engines_import_nothing_from_django_or_the_apps():
    done = subprocess.run([BIN / "lint-imports"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout
