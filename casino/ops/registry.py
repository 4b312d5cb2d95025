"""Where the other areas plug their figures into operations, so that ``casino.ops`` never imports them.

Health, metrics, stale-job alerts and backups are the casino's, but some of what they report
belongs to an area (the ledger's trial balance, the shift reconciliation). Each area registers
a callable here from its ``AppConfig.ready``; the operations code calls whatever is registered.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Finding:
    """A background job that is late: what, since when it last succeeded, and what it means for staff."""

    key: str  # worker, beat, outbox, audit_verification, reconciliation, …
    title: str  # "Shift reconciliation"
    since: dt.datetime | None  # its last success (None: never)
    late_after: int  # seconds without success after which it is late
    message: str  # in the staff's words: what is not happening and what to do
    severity: str = "warning"  # warning or critical (the accounting alert's severity)
    # what the words are made of, typed (casino.ops.words): ``period`` (seconds), ``count``, ``gaming_date`` and
    # ``shift_name`` (a shift waiting for its reconciliation); ``message`` is the English record
    facts: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "title": self.title, "since": self.since.isoformat() if self.since else None,
                "late_after_seconds": self.late_after, "message": self.message, "severity": self.severity,
                **self.facts}


StaleCheck = Callable[[dt.datetime, dict[str, Any]], Iterable[Finding | None]]  # (now, heartbeats by name)
AlertSink = Callable[[Finding], None]
Collector = Callable[[], Iterable[Any]]  # yields prometheus_client metric families
ManifestSection = Callable[[], Any]  # JSON; read inside the backup's snapshot
RestoreCheck = Callable[[Any], list[str]]  # (a DB-API cursor on the restored copy) -> what is wrong (none: sound)

stale_checks: list[StaleCheck] = []
alert_sinks: list[AlertSink] = []
collectors: list[Collector] = []
manifest_sections: dict[str, ManifestSection] = {}
restore_checks: dict[str, RestoreCheck] = {}
restore_check_words: dict[str, str] = {}  # what a check that passed vouches for, in the restore's report


def register_stale_check(check: StaleCheck) -> StaleCheck:
    if check not in stale_checks:
        stale_checks.append(check)
    return check


def register_alert_sink(sink: AlertSink) -> AlertSink:
    if sink not in alert_sinks:
        alert_sinks.append(sink)
    return sink


def register_collector(collector: Collector) -> Collector:
    if collector not in collectors:
        collectors.append(collector)
    return collector


def register_manifest_section(name: str, section: ManifestSection) -> None:
    manifest_sections[name] = section


def register_restore_check(name: str, check: RestoreCheck, *, words: str) -> None:
    """A check a restore runs directly in the restored copy, before the service's own commands (``words``: what
    it vouches for when it finds nothing)."""
    restore_checks[name] = check
    restore_check_words[name] = words
