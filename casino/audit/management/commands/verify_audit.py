"""``python manage.py verify_audit``: walk every chain now; exit 1 and name the broken record if any.

Options: ``--full`` walks every chain from its first record (by default each from its last signed
checkpoint); ``--against DIGEST.json`` also holds the chains to a digest kept outside the database;
``--checkpoint`` signs the chains' heads after a clean verification; ``--digest`` prints the
current digest (the latest signed checkpoint of every chain) instead of verifying.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.audit.verification import audit_checkpoint_create, audit_digest, audit_verify, parse_digest
from casino.context import RequestContext, acting_as
from casino.errors import InvalidInput


class Command(BaseCommand):
    help = "Verify the audit trail's hash chains (and signed checkpoints); exit 1 if any chain is broken."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--against", metavar="DIGEST", help="a digest JSON file kept outside the database")
        parser.add_argument("--full", action="store_true",
                            help="walk every chain from its first record (default: from its last signed checkpoint)")
        parser.add_argument("--checkpoint", action="store_true", help="sign each chain's head if all is intact")
        parser.add_argument("--digest", action="store_true", help="print the digest (JSON) and do nothing else")

    def handle(self, *args: Any, **options: Any) -> None:
        with acting_as(RequestContext(channel="command")):
            if options["digest"]:
                self.stdout.write(json.dumps(audit_digest(), indent=2))
                return
            against = None
            if options["against"]:
                try:
                    against = parse_digest(json.loads(Path(options["against"]).read_text()))
                except (OSError, ValueError, InvalidInput) as exc:
                    raise CommandError(f"cannot read the digest {options['against']}: {exc}") from None
            verification = audit_verify(trigger="command", against=against, full=options["full"])
            for warning in verification.warnings:
                self.stderr.write(f"warning: {warning}")
            summary = (f"{verification.records} records in {verification.chains} chains, "
                       f"{verification.checkpoints} checkpoints (verification #{verification.pk})")
            if verification.skipped:
                summary += (f"; walked from each chain's last signed checkpoint: {verification.skipped} earlier "
                            f"records vouched for by their checkpoints (--full walks them too)")
            if not verification.ok:
                for b in verification.breaks:
                    self.stdout.write(f"BROKEN {b['chain']} seq {b['seq']} record {b['record_id']}: "
                                      f"{b['reason']}: {b['message']}")
                raise CommandError(
                    f"audit trail broken: first broken record {verification.first_broken_record_id} "
                    f"({verification.first_broken_chain} #{verification.first_broken_seq}, "
                    f"{verification.first_broken_reason}); {summary}")
            self.stdout.write(f"OK: {summary}")
            if options["checkpoint"]:
                signed = audit_checkpoint_create()
                self.stdout.write(f"signed {len(signed)} checkpoint(s)")
