from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from casino.ops.jobs import BEAT, WORKER
from casino.ops.models import JobHeartbeat


def heartbeat(name: str, *, ago: float | None, first_seen_ago: float | None = None, failures: int = 0) -> JobHeartbeat:
    """A job's heartbeat row as if it last succeeded ``ago`` seconds ago (None: never), first seen
    ``first_seen_ago`` seconds ago (by default ten minutes, or its last success if earlier)."""
    now = timezone.now()
    first_seen_ago = first_seen_ago if first_seen_ago is not None else max(ago or 0, 600)
    last = None if ago is None else now - dt.timedelta(seconds=ago)
    row, _ = JobHeartbeat.objects.update_or_create(name=name, defaults={
        "first_seen_at": now - dt.timedelta(seconds=first_seen_ago), "last_success_at": last,
        "last_started_at": last, "runs": 10, "failures": failures, "host": "celery@floor-1"})
    return row


def jobs_alive(*, worker: float = 5, beat: float = 5) -> None:
    heartbeat(WORKER, ago=worker)
    heartbeat(BEAT, ago=beat)


def scrape(client: Any, **headers: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """GET /metrics and parse it with prometheus_client's own parser: {(sample name, labels): value}."""
    response = client.get("/metrics", **headers)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def page(user: Any, path: str) -> str:
    """A screen's HTML as ``user`` sees it (signed in through the session, as in a browser)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    response = client.get(path, follow=True)
    assert response.status_code == 200, (path, response.status_code)
    return response.content.decode()
