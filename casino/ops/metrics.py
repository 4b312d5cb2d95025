"""``/metrics`` in Prometheus's text format, for the casino's monitoring (docs/operations.md).

Two kinds of figures:

* counted where they happen, in the web processes (requests by view, rounds settled, settlement
  and card-post latency, sign-in failures and lockouts). Under gunicorn each worker process
  writes them to files in ``PROMETHEUS_MULTIPROC_DIR`` and a scrape adds them up
  (``casino/gunicorn.conf.py`` empties the directory at start and forgets dead workers);
* read from PostgreSQL at scrape time, so every process and host agrees (outbox depth and age,
  job runs and failures, heartbeats, late jobs, the last audit verification, locked sign-ins, and
  what the areas register, such as reconciliation variances).

Access: a bearer token (``METRICS_TOKEN``) or a client address in ``METRICS_ALLOWED_NETWORKS``.
"""

from __future__ import annotations

import functools
import hmac
import ipaddress
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.db import DatabaseError
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.multiprocess import MultiProcessCollector

from casino.core.models import LoginThrottle
from casino.exceptions import error_body
from casino.ops import probes, registry, status
from casino.ops.jobs import BEAT
from casino.proxies import client_address_of

log = logging.getLogger("croupier.ops")

# Request latencies: dealer actions take milliseconds; reports and exports may take seconds.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 10.0, 30.0)

REQUESTS = Histogram("croupier_http_request_duration_seconds", "Time to answer a request, by view",
                     ["view", "method", "status"], buckets=LATENCY_BUCKETS)
ROUNDS_SETTLED = Counter("croupier_rounds_settled", "Rounds settled through the API, by game", ["game"])
SETTLE_SECONDS = Histogram("croupier_round_settle_duration_seconds", "Time to settle a round (the API call)",
                           buckets=LATENCY_BUCKETS)
CARD_POST_SECONDS = Histogram("croupier_card_post_duration_seconds",
                              "Time to post one card or choice to a round (the API call)", buckets=LATENCY_BUCKETS)
SIGNIN_FAILURES = Counter("croupier_signin_failures", "Failed sign-ins (wrong password, locked out, unknown user)")
SIGNIN_LOCKOUTS = Counter("croupier_signin_lockouts", "Lockouts started after repeated failed sign-ins")


def observed(histogram: Histogram, *, settles: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Time a DRF view method that writes: only answers that did the work (2xx, not an idempotent
    replay) are observed; with ``settles``, each one also counts a round settled, by its game."""

    def decorate(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def wrapper(view: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            response = method(view, request, *args, **kwargs)
            if 200 <= response.status_code < 300 and not response.has_header("Idempotent-Replayed"):
                histogram.observe(time.perf_counter() - started)
                if settles:
                    data = response.data if isinstance(response.data, dict) else {}
                    ROUNDS_SETTLED.labels(game=str(data.get("game", ""))).inc()
            return response

        return wrapper

    return decorate


# -- sign-ins: counted from Django's signal and the lockout rows (casino/auth.py writes them) ----------

@receiver(user_login_failed, dispatch_uid="croupier-ops-signin-failed")
def _signin_failed(**_: Any) -> None:
    SIGNIN_FAILURES.inc()


@receiver(pre_save, sender=LoginThrottle, dispatch_uid="croupier-ops-lockout-before")
def _lockout_before(instance: LoginThrottle, **_: Any) -> None:
    # whether this key was locked before this save: only a save that locks it starts a lockout
    instance._ops_was_locked = bool(  # type: ignore[attr-defined]
        instance.pk and LoginThrottle.objects.filter(pk=instance.pk, locked_until__gt=timezone.now()).exists())


@receiver(post_save, sender=LoginThrottle, dispatch_uid="croupier-ops-lockout-after")
def _lockout_after(instance: LoginThrottle, **_: Any) -> None:
    locked = instance.locked_until is not None and instance.locked_until > timezone.now()
    if locked and not getattr(instance, "_ops_was_locked", False):
        SIGNIN_LOCKOUTS.inc()


# -- read from the database at scrape time ------------------------------------------------------------

def _gauge(name: str, documentation: str, value: float | None, labels: dict[str, str] | None = None) -> Metric:
    family = GaugeMetricFamily(name, documentation, labels=list(labels) if labels else None)
    if value is not None:
        family.add_metric(list(labels.values()) if labels else [], value)
    return family


def _age(moment: Any, now: Any) -> float | None:
    return None if moment is None else max(0.0, (now - moment).total_seconds())


def database_metrics() -> Iterator[Metric]:
    now = timezone.now()
    count, oldest = status.outbox_state()
    yield _gauge("croupier_outbox_pending", "Jobs written but not yet handed to the broker", count)
    yield _gauge("croupier_outbox_oldest_pending_age_seconds", "Age of the oldest job not yet handed to the broker",
                 _age(oldest, now) or 0.0)
    beats = status.heartbeats()
    runs = CounterMetricFamily("croupier_job_runs", "Runs of each background job (all workers)", labels=["task"])
    failures = CounterMetricFamily("croupier_job_failures", "Failed runs of each background job (all workers)",
                                   labels=["task"])
    success_age = GaugeMetricFamily("croupier_job_last_success_age_seconds",
                                    "Seconds since each background job last succeeded", labels=["task"])
    for name, row in sorted(beats.items()):
        if name == BEAT:
            continue
        runs.add_metric([name], row.runs)
        failures.add_metric([name], row.failures)
        if row.last_success_at is not None:
            success_age.add_metric([name], _age(row.last_success_at, now) or 0.0)
    yield from (runs, failures, success_age)
    worker, beat = status.worker_beat(beats), status.beat_beat(beats)
    yield _gauge("croupier_worker_heartbeat_age_seconds", "Seconds since a worker last ran the heartbeat job",
                 worker.age(now))
    yield _gauge("croupier_beat_heartbeat_age_seconds", "Seconds since beat last sent a job", beat.age(now))
    verification = status.last_verification()
    yield _gauge("croupier_audit_verification_age_seconds", "Seconds since the audit trail was last verified",
                 _age(verification.finished_at, now) if verification else None)
    yield _gauge("croupier_audit_verification_last_ok_age_seconds",
                 "Seconds since the last audit verification that found every chain sound",
                 _age(status.last_ok_verification_at(), now))
    yield _gauge("croupier_audit_chain_broken", "1 when the last audit verification found a broken chain",
                 None if verification is None else float(not verification.ok))
    yield _gauge("croupier_signin_locked", "Usernames and client addresses locked out now",
                 LoginThrottle.objects.filter(locked_until__gt=now).count())
    # labelled "check", not "job": Prometheus gives every scraped series its target's own "job" label
    late = GaugeMetricFamily("croupier_job_late", "1 for each background job that is late (see docs/operations.md)",
                             labels=["check"])
    for finding in status.stale_findings(now):
        late.add_metric([finding.key], 1.0)
    yield late


class _DatabaseCollector:
    def collect(self) -> Iterable[Metric]:
        try:
            metrics = list(database_metrics())
            for collector in registry.collectors:
                metrics.extend(collector())
        except DatabaseError as exc:  # the rest still answers; the scrape shows the database is down
            log.warning("metrics: database figures unavailable: %s", exc)
            return [_gauge("croupier_database_up", "1 when the metrics could read the database", 0.0)]
        return [_gauge("croupier_database_up", "1 when the metrics could read the database", 1.0), *metrics]


class _RedisCollector:
    """Whether the cache's and the job queue's Redis answer a PING now, from this web process (1 s at most each):
    with the heartbeats' ages, the alerting rules tell a Redis outage from a dead worker."""

    def collect(self) -> Iterable[Metric]:
        if settings.REDIS_URL:
            yield _gauge("croupier_redis_up", "1 when the cache's Redis answers a PING", float(
                probes.ping(settings.REDIS_URL).ok))
        url = probes.broker_url()
        if url is not None:
            yield _gauge("croupier_broker_up", "1 when the job queue's Redis answers a PING", float(probes.ping(url).ok))


class _Delegate:
    """This process's own registry inside the scrape's (without multi-process mode)."""

    def collect(self) -> Iterable[Metric]:
        return REGISTRY.collect()


def scrape_registry() -> CollectorRegistry:
    scrape = CollectorRegistry(auto_describe=False)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        MultiProcessCollector(scrape)
    else:
        scrape.register(_Delegate())
    scrape.register(_DatabaseCollector())
    scrape.register(_RedisCollector())
    return scrape


# -- access -----------------------------------------------------------------------------------------------

def _networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(n, strict=False) for n in settings.METRICS_ALLOWED_NETWORKS]


def metrics_allowed(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    header = request.headers.get("Authorization", "")
    if token and header.startswith("Bearer ") and hmac.compare_digest(header[7:].strip().encode(), token.encode()):
        return True
    try:
        addr = ipaddress.ip_address(client_address_of(request.META) or "")
    except ValueError:
        return False
    return any(addr in network for network in _networks())


def metrics_view(request: HttpRequest) -> HttpResponse:
    if not metrics_allowed(request):
        return JsonResponse(error_body("forbidden", "the metrics are for the monitoring system: send its token or "
                                       "scrape from an allowed network"), status=403)
    return HttpResponse(generate_latest(scrape_registry()), content_type=CONTENT_TYPE_LATEST,
                        headers={"Cache-Control": "no-store"})


def observe_request(view: str, method: str, status_code: int, seconds: float) -> None:
    REQUESTS.labels(view=view, method=method, status=str(status_code)).observe(seconds)

