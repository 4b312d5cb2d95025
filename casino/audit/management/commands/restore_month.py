"""``python manage.py restore_month YYYY-MM``: put an archived month's audit records back into the live table.

The latest archived month only (months come back newest first), and only if it verifies where it is kept:
its manifest's signature, its chains from the manifest's starting heads, its record count and checksum
(casino/audit/archive.py; docs/scaling.md, "Archive"). Runs as the tables' owner (``DATABASE_OWNER_URL``).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from casino.audit import archive
from casino.audit.management.commands.archive_month import as_owner
from casino.context import RequestContext, acting_as
from casino.errors import DomainError


class Command(BaseCommand):
    help = "Restore the latest archived month of audit records (YYYY-MM) into the live table, after verifying it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("month", help="the month, YYYY-MM")

    def handle(self, *args: Any, **options: Any) -> None:
        if connections["default"].vendor != "postgresql":
            raise CommandError("archived months exist only on PostgreSQL")
        try:
            with acting_as(RequestContext(channel="command")), as_owner():
                row = archive.restore_month(options["month"])
        except DomainError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"restored {row.month:%Y-%m}: {row.records} records back in {row.table}")
