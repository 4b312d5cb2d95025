"""``python manage.py reconcile [--shift ID ...] [--due] [--force-open]``: reconcile shifts now.

Prints one JSON object per shift. Safe to run while the beat job runs: the same lock and the same
unique result (a shift already reconciled prints its existing result).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from accounting.models import Reconciliation
from accounting.services.reconcile import due_shift_ids, reconcile_shift
from casino.context import RequestContext, acting_as
from casino.errors import DomainError


class Command(BaseCommand):
    help = "Reconcile shifts: replay settled rounds, compare postings and counts, record variances."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--shift", type=int, action="append", default=[], help="a shift id (repeatable)")
        parser.add_argument("--due", action="store_true", help="every closed or long-ended shift not reconciled")
        parser.add_argument("--force-open", action="store_true", help="reconcile a shift that has not ended yet")

    def handle(self, *args: Any, **options: Any) -> None:
        ids = list(options["shift"]) + (due_shift_ids() if options["due"] else [])
        if not ids:
            raise CommandError("give --shift ID or --due")
        failed = False
        with acting_as(RequestContext(channel="command")):
            for shift_id in ids:
                try:
                    run = reconcile_shift(shift_id=shift_id, force_open=options["force_open"])
                except DomainError as exc:
                    self.stdout.write(json.dumps({"shift": shift_id, "error": exc.as_dict()}))
                    failed = True
                    continue
                tables = {
                    r.table.code: {
                        "status": r.status,
                        "variance": r.variance,
                        "causes": sorted({c["cause"] for c in r.causes}),
                    }
                    for r in Reconciliation.objects.filter(shift_id=shift_id).select_related("table")
                }
                self.stdout.write(
                    json.dumps(
                        {"shift": shift_id, "reconciliation": run.pk, "status": run.status, "tables": tables},
                        sort_keys=True,
                    )
                )
        if failed:
            raise CommandError("some shifts could not be reconciled (see above)")
