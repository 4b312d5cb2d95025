"""A late background job as a person reads it, in their language: the jobs banner and the pit's stale-job alert
word the same facts (:meth:`casino.ops.registry.Finding.as_dict`: the job's ``key``, ``since`` its last success,
its ``period``, a ``count`` of jobs waiting, the shift waiting for its reconciliation), never the job's Celery
task path nor the English ``message`` kept as the record. A job is named by its finding's key (:data:`JOBS`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from casino.words import day_words, duration_words, when_words

# a scheduled job's name, by its finding's key (the job itself, never its task path)
JOBS = {
    "reconciliation": gettext_lazy("Shift reconciliation"),
    "reconciliation_overdue": gettext_lazy("Shift reconciliation"),
    "audit_verification": gettext_lazy("Audit trail verification"),
}


def _moment(value: Any) -> dt.datetime | None:
    if isinstance(value, dt.datetime):
        return value
    return dt.datetime.fromisoformat(value) if isinstance(value, str) and value else None


def _since(moment: dt.datetime, now: dt.datetime) -> str:
    """When, in the casino's time zone: the time alone today, the day and the time before."""
    local = timezone.localtime(moment)
    return f"{local:%H:%M}" if local.date() == timezone.localtime(now).date() else when_words(moment)


def finding_words(found: Any, now: dt.datetime | None = None) -> str:
    """A late job (a :class:`~casino.ops.registry.Finding` or its ``as_dict``) in the reader's words; how long
    ago is counted to ``now`` (the moment it is read)."""
    facts: Mapping[str, Any] = found.as_dict() if hasattr(found, "as_dict") else found
    key = str(facts.get("key") or "")
    now = now or timezone.now()
    last = _moment(facts.get("since"))
    words: dict[str, Any] = {"period": duration_words(facts.get("period") or 0)}
    if last is not None:
        words.update(since=_since(last, now), ago=duration_words((now - last).total_seconds()))
    if key == "worker":
        return (gettext("No job worker has answered since %(since)s (%(ago)s ago): exports stay queued, shift "
                        "reconciliations and audit checks do not run. Tell IT: the Croupier worker is not running.")
                if last else gettext("No job worker has answered yet: exports stay queued, shift reconciliations "
                                     "and audit checks do not run. Tell IT: the Croupier worker is not running.")
                ) % words
    if key == "beat":
        return (gettext("The job scheduler has not sent a job since %(since)s (%(ago)s ago): scheduled "
                        "reconciliations, audit checks and checkpoints do not start. Tell IT: Croupier's beat is not "
                        "running or cannot send.")
                if last else gettext("The job scheduler has not sent a job yet: scheduled reconciliations, audit "
                                     "checks and checkpoints do not start. Tell IT: Croupier's beat is not running "
                                     "or cannot send.")) % words
    if key == "broker":
        return (gettext("The job queue (Redis) cannot be reached, so no background job has run since %(since)s "
                        "(%(ago)s ago): rounds still settle and their jobs wait in the database, none lost, but "
                        "exports, shift reconciliations and audit checks wait until it is back. Tell IT: Croupier's "
                        "Redis is not reachable.")
                if last else gettext("The job queue (Redis) cannot be reached, so no background job has run yet: "
                                     "rounds still settle and their jobs wait in the database, none lost, but "
                                     "exports, shift reconciliations and audit checks wait until it is back. Tell "
                                     "IT: Croupier's Redis is not reachable.")) % words
    if key == "outbox" and last is not None:
        count = int(facts.get("count") or 0)
        return ngettext("%(count)s job waiting since %(since)s (%(ago)s ago) to be handed to the job queue: the "
                        "broker (Redis) may be down. Tell IT.",
                        "%(count)s jobs waiting since %(since)s (%(ago)s ago) to be handed to the job queue: the "
                        "broker (Redis) may be down. Tell IT.", count) % {**words, "count": count}
    if key == "audit_verification":
        return (gettext("The audit trail was last verified at %(since)s (%(ago)s ago); it is due every %(period)s. "
                        "Tell IT: the audit verification job is not running.")
                if last else gettext("The audit trail has not been verified yet; it is due every %(period)s. Tell "
                                     "IT: the audit verification job is not running.")) % words
    if key == "reconciliation_overdue" and last is not None and facts.get("gaming_date"):
        shift = day_words(dt.date.fromisoformat(str(facts["gaming_date"])))
        if facts.get("shift_name"):
            shift = f"{shift} · {facts['shift_name']}"
        return gettext("Shift %(shift)s has waited %(ago)s for its reconciliation (due every %(period)s): the "
                       "reconciliation job is failing or not running. Tell IT.") % {**words, "shift": shift}
    job = str(JOBS.get(key) or facts.get("title") or key)
    return (gettext("%(job)s has not run since %(since)s (%(ago)s ago); it is due every %(period)s. Tell IT: the "
                    "job is failing or not running.")
            if last else gettext("%(job)s has not run yet; it is due every %(period)s. Tell IT: the job is failing "
                                 "or not running.")) % {**words, "job": job}
