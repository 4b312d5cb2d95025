"""gunicorn's settings for Croupier: ``gunicorn -c casino/gunicorn.conf.py casino.wsgi:application``.

Environment: ``HOST`` and ``PORT`` (bind), ``WEB_CONCURRENCY`` (worker processes, default 3),
``WEB_THREADS`` (threads per worker, default 1), ``WEB_TIMEOUT`` (seconds, default 60) and
``PROMETHEUS_MULTIPROC_DIR`` (default ``var/prometheus``): each worker process writes its metrics
there and ``/metrics`` adds them up. The directory is emptied when gunicorn starts (figures of a
previous run would be added to this one's) and a worker that exits is forgotten for the gauges
(its counters stay: they are part of the totals). See docs/operations.md.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
threads = int(os.environ.get("WEB_THREADS", "1"))
timeout = int(os.environ.get("WEB_TIMEOUT", "60"))
graceful_timeout = 20
accesslog = None  # every request has its own JSON line with its request id (casino/ops/requests.py)
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

# Set before the workers import the application: prometheus_client picks its storage at import.
multiproc_dir = Path(os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", str(ROOT / "var" / "prometheus")))


def on_starting(server: object) -> None:
    multiproc_dir.mkdir(parents=True, exist_ok=True)
    for stale in multiproc_dir.glob("*.db"):  # only prometheus_client's files, whatever else the directory holds
        stale.unlink()


def child_exit(server: object, worker: object) -> None:
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)  # type: ignore[attr-defined]
