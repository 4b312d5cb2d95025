"""gunicorn's settings for Croupier: ``gunicorn -c casino/gunicorn.conf.py casino.wsgi:application``.

Environment: ``HOST`` and ``PORT`` (bind), ``WEB_CONCURRENCY`` (worker processes, default 3),
``WEB_THREADS`` (threads per worker, default 1), ``WEB_TIMEOUT`` (seconds, default 60) and
``PROMETHEUS_MULTIPROC_DIR`` (default ``var/prometheus``): each worker process writes its metrics
there and ``/metrics`` adds them up. The directory is emptied when gunicorn starts (figures of a
previous run would be added to this one's) and a worker that exits is forgotten for the gauges
(its counters stay: they are part of the totals). ``LOG_FORMAT`` (``json`` by default in production):
gunicorn's own lines (start, workers booted and exited) are JSON objects too, like the service's.
Each worker process starts the stale-job watch (``casino/ops/watch.py``) once the application is loaded.
See docs/operations.md.
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


_production = os.environ.get("CROUPIER_MODE", "development") == "production"
if os.environ.get("LOG_FORMAT", "json" if _production else "text") == "json":
    # gunicorn's own loggers through the service's formatter: one JSON object per line in the whole stream
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "casino.ops.logs.JsonFormatter"}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}},
        "root": {"level": "INFO", "handlers": []},
        "loggers": {"gunicorn.error": {"level": "INFO", "handlers": ["console"], "propagate": False},
                    "gunicorn.access": {"level": "INFO", "handlers": ["console"], "propagate": False}},
    }


def on_starting(server: object) -> None:
    multiproc_dir.mkdir(parents=True, exist_ok=True)
    for stale in multiproc_dir.glob("*.db"):  # only prometheus_client's files, whatever else the directory holds
        stale.unlink()


def child_exit(server: object, worker: object) -> None:
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)  # type: ignore[attr-defined]


def post_worker_init(worker: object) -> None:
    # in the worker only: gunicorn reads this file before Django is set up
    from casino.ops import watch

    watch.start()
