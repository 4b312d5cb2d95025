"""The shape of the code the engines helper owns: game rules live in the engines, files stay small."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME_WORDS = re.compile(r"pontoon|carousel|chemin|blackjack|baccarat|insurance|red[ _-]?dog|in[_-]between", re.I)


def test_no_round_service_names_a_game_or_a_game_rule():
    # given every module of the round services
    offenders = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sorted((ROOT / "tables" / "services").rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), start=1)
        if GAME_WORDS.search(line)
    ]
    # then none names a game or one of its rules: the engines answer for them
    assert offenders == []
