"""``python manage.py restore FOLDER --database NAME``: restore a backup into a new database and check it.

The manifest must be signed with this service's key (``AUDIT_CHECKPOINT_KEY``) and the database must
not exist (a restore never overwrites one). After ``pg_restore``, the copy's ledger is checked directly
(every transaction balances, the ledger sums to zero, postings equal their rounds and records), then
with this service's own commands run against it: ``backup --check`` (row counts, audit chain heads,
migrations and trial balance as in the manifest) and ``verify_audit --full``. Exit 1 when anything
differs. ``--no-owner`` restores without the dump's owners and grants (into a server
that lacks those roles). The database is created and restored by the role of ``--admin-url``
(default: ``DATABASE_ADMIN_URL``), since the service's own role may not create databases; the checks
run as the service. Then point ``DATABASE_URL`` at the copy. See docs/operations.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.env import env_str
from casino.errors import DomainError
from casino.ops.backup import backup_restore


class Command(BaseCommand):
    help = "Restore a backup folder into a new database on the configured server, then verify the copy."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("folder", help="the backup's folder (database.dump and manifest.json)")
        parser.add_argument("--database", required=True, help="the new database's name (must not exist)")
        parser.add_argument("--no-owner", action="store_true", help="skip the dump's owners and grants")
        parser.add_argument("--admin-url", default=env_str("DATABASE_ADMIN_URL", ""),
                            help="a role that may create databases (default: DATABASE_ADMIN_URL)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = backup_restore(folder=Path(options["folder"]), database=options["database"],
                                    no_owner=options["no_owner"], admin_url=options["admin_url"])
        except DomainError as exc:
            raise CommandError(exc.message) from None
        for line in report.checks:
            self.stdout.write(f"ok  {line}")
        if not report.ok:
            for problem in report.problems:
                self.stdout.write(f"BAD {problem}")
            raise CommandError(f"the restored database {report.database} did not pass its checks (it is left for "
                               f"inspection; drop it when done)")
        self.stdout.write(f"restored into {report.database} ({report.url}); point DATABASE_URL at it to use it")
