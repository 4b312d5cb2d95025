"""``makemessages`` that also extracts the marker the pure packages use (``--keyword=N_``, as the Makefile's
``locale`` target passes it): the score sheets' refusal templates (tables/scoring/refusals.py) are marked
``N_("…")`` because a pure package cannot import Django's ``gettext_noop``."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser
from django.core.management.commands import makemessages


class Command(makemessages.Command):
    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--keyword", action="append", default=[],
                            help="another function name whose first argument is a message to extract (xgettext's --keyword)")

    def handle(self, *args: Any, **options: Any) -> None:
        self.xgettext_options = [*self.xgettext_options, *(f"--keyword={name}" for name in options["keyword"])]
        super().handle(*args, **options)
