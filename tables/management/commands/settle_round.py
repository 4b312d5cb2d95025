"""Replay a round document from stdin and print the engine's answer; no database is touched.

    python manage.py settle_round < round.json

Exit status 0 with the answer (docs/round_format.md, "What comes out"), or 2 with ``{"error": {…}}`` on bad input.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand

from tables.engines.errors import EngineError
from tables.engines.registry import play


def settle_text(text: str) -> tuple[int, dict[str, Any]]:
    """(exit status, JSON answer) for a round document given as text."""
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return 2, {"error": {"code": "malformed_json", "message": f"not valid JSON: {exc}", "event": None}}
    try:
        return 0, play(doc)
    except EngineError as exc:
        return 2, {"error": exc.as_dict()}
    except RecursionError:
        return 2, {"error": {"code": "bad_document", "message": "the document is nested too deeply", "event": None}}


class Command(BaseCommand):
    help = "Settle a round document read from stdin (no database); exit 2 with a JSON error on bad input."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--indent", type=int, default=2, help="JSON indentation of the answer (0: one line)")

    def handle(self, *args: Any, **options: Any) -> None:
        status, answer = settle_text(sys.stdin.read())
        self.stdout.write(json.dumps(answer, indent=options["indent"] or None, ensure_ascii=False))
        if status:
            sys.exit(status)
