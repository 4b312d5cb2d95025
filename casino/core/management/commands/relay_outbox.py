"""Send the jobs the broker could not take when they were asked for (``casino.outbox``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from casino.outbox import pending_count, relay_outbox


class Command(BaseCommand):
    help = "Send pending outbox jobs to the Celery broker (beat does this every few seconds)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, default=None, help="send at most this many")

    def handle(self, *args: Any, limit: int | None = None, **options: Any) -> None:
        sent = relay_outbox(limit=limit)
        left = pending_count()
        self.stdout.write(f"sent {sent}, pending {left}")
        if left and limit is None:
            self.stderr.write("the broker refused some jobs: they stay pending (is Redis up?)")
