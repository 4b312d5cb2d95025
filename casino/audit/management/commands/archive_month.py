"""``python manage.py archive_month YYYY-MM``: take a closed month's audit records out of the live table.

PostgreSQL only. The month's partition moves, unchanged and sealed, into the ``croupier_archive`` schema
with a signed manifest (casino/audit/archive.py; docs/scaling.md, "Archive"). Refused, with the reasons,
while the month is not over, while a shift that touched it is open, while an older month is still live, or
if its chains do not verify. Runs as the tables' owner: ``DATABASE_OWNER_URL`` (as ``db_setup`` does).

``--check`` only says whether the month could be archived now; ``--verify`` verifies an archived month where
it is kept (exit 1 if it does not); ``--list`` lists the archived months with their manifests.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import dj_database_url
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from casino.audit import archive, boundary
from casino.context import RequestContext, acting_as
from casino.env import env_str
from casino.errors import DomainError


@contextlib.contextmanager
def as_owner() -> Iterator[None]:
    """The default connection switched to ``DATABASE_OWNER_URL``'s role for the block, then back."""
    owner_url = env_str("DATABASE_OWNER_URL", "")
    if not owner_url:
        raise CommandError("DATABASE_OWNER_URL must name the tables' owner: archiving and restoring months "
                           "change tables (docs/operations.md, \"Database roles\")")
    owner: dict[str, Any] = dict(dj_database_url.parse(owner_url))
    default = connections["default"]
    if owner["NAME"] != default.settings_dict["NAME"]:
        raise CommandError("DATABASE_OWNER_URL and DATABASE_URL must name the same database")
    saved = {k: default.settings_dict.get(k) for k in ("USER", "PASSWORD")}
    default.close()
    default.settings_dict.update({"USER": owner["USER"], "PASSWORD": owner.get("PASSWORD") or ""})
    try:
        yield
    finally:
        default.close()
        default.settings_dict.update(saved)


class Command(BaseCommand):
    help = "Archive a closed month of audit records (YYYY-MM) into the archive schema, with a signed manifest."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("month", nargs="?", help="the month, YYYY-MM")
        parser.add_argument("--check", action="store_true", help="only say whether the month can be archived now")
        parser.add_argument("--verify", action="store_true", help="verify an archived month where it is kept")
        parser.add_argument("--list", action="store_true", help="list the archived months and their manifests")

    def handle(self, *args: Any, **options: Any) -> None:
        if connections["default"].vendor != "postgresql":
            raise CommandError("archiving months needs PostgreSQL: the embedded SQLite mode keeps one plain table")
        if options["list"]:
            for row in boundary.archived_months():
                self.stdout.write(json.dumps(archive.manifest(row), sort_keys=True))
            return
        if not options["month"]:
            raise CommandError("name the month: YYYY-MM")
        try:
            with acting_as(RequestContext(channel="command")):
                if options["verify"]:
                    self._verify(options["month"])
                elif options["check"]:
                    problems = archive.month_problems(archive.parse_month(options["month"]))
                    if problems:
                        raise CommandError(f"{options['month']} cannot be archived: " + "; ".join(problems))
                    self.stdout.write(f"{options['month']} can be archived")
                else:
                    with as_owner():
                        row = archive.archive_month(options["month"])
                    self.stdout.write(f"archived {row.month:%Y-%m}: {row.records} records in "
                                      f"{row.schema}.{row.table}, checksum {row.checksum}")
        except DomainError as exc:
            raise CommandError(str(exc)) from None

    def _verify(self, month: str) -> None:
        report = archive.verify_archived_month(month)
        for problem in report.problems:
            self.stdout.write(f"BROKEN {problem}")
        if not report.ok:
            raise CommandError(f"the archived month {month} does not verify")
        self.stdout.write(f"the archived month {month} verifies: {report.records} records in {report.chains} chains")
