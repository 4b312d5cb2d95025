"""``python manage.py backup [--dir var/backups]``: a consistent pg_dump and its manifest, in a new folder.

The folder is 0700 and its files 0600; the manifest is signed with the audit checkpoints' key.
``--check FOLDER`` instead compares this database with that backup's (signed) manifest (row counts,
audit chain heads, migrations, trial balance) and exits 1 naming every difference: what ``restore``
runs against a restored copy. See docs/operations.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.errors import DomainError
from casino.ops.backup import backup_create, manifest_check, read_manifest


class Command(BaseCommand):
    help = "Back up the database (pg_dump of one snapshot, with a manifest), or --check it against a manifest."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dir", default=str(Path(settings.BASE_DIR) / "var" / "backups"),
                            help="where the backup's folder is written (default var/backups)")
        parser.add_argument("--check", metavar="FOLDER", help="compare this database with the backup in FOLDER")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["check"]:
                manifest = read_manifest(Path(options["check"]))
                problems = manifest_check(manifest)
                if problems:
                    for problem in problems:
                        self.stdout.write(f"DIFFERS {problem}")
                    raise CommandError(f"{len(problems)} difference(s) from the manifest of {options['check']}")
                self.stdout.write(f"OK: matches the manifest of {manifest['created_at']} "
                                  f"({len(manifest['row_counts'])} tables, {len(manifest['audit_chain_heads'])} "
                                  f"audit chains, trial balance)")
                return
            folder = backup_create(directory=Path(options["dir"]))
        except DomainError as exc:
            raise CommandError(exc.message) from None
        manifest = read_manifest(folder)
        rows, tables = sum(manifest["row_counts"].values()), len(manifest["row_counts"])
        self.stdout.write(f"{folder}\n  {manifest['dump']['bytes']} bytes, {rows} rows in {tables} tables, "
                          f"{len(manifest['audit_chain_heads'])} audit chains, taken at {manifest['created_at']}")
