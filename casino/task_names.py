"""Every Celery task's name, written once: the task registers under it, and whoever queues the job
(a service through ``casino.outbox.enqueue``, the beat schedule in settings) names it from here.

A service therefore never imports its app's ``tasks`` module (which imports the services: the cycle
this module removes), and a grep for a constant finds the task, every place that queues it and its
beat entry. The names themselves are stored in outbox rows and in running beat schedules: never
rename one, add a new one.
"""

from __future__ import annotations

# casino
OUTBOX_RELAY = "casino.outbox.relay"
OUTBOX_PURGE = "casino.outbox.purge"
IDEMPOTENCY_PURGE = "casino.idempotency.purge"
AUDIT_VERIFY = "casino.audit.tasks.verify_audit"
AUDIT_CHECKPOINT = "casino.audit.tasks.audit_checkpoint"
AUDIT_PARTITIONS = "casino.audit.tasks.audit_partitions"

# accounting
RECONCILE_SHIFT = "accounting.reconcile_shift"
RECONCILE_DUE_SHIFTS = "accounting.reconcile_due_shifts"
LARGE_BET_ALERT = "accounting.large_bet_alert"
ROUND_RESULT_ALERT = "accounting.round_result_alert"
REPORT_EXPORT = "accounting.report_export"
CHECK_RUNNING_FIGURES = "accounting.check_running_figures"

# players
RATE_SLIP = "players.rate_slip"
WARM_HOUSE_EDGE = "players.warm_house_edge"
