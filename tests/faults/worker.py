"""A real Celery worker for the fault tests (started by ``tests.faults.helpers.Worker``).

``FAULTS_SLOW="module:function=seconds"`` wraps that function so that, the first time it runs in
this worker, it writes its process id to ``FAULTS_MARKER`` and sleeps: the test then kills that
process with SIGKILL in the middle of the job. Nothing here is imported by the service itself.
"""

from __future__ import annotations

import functools
import importlib
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings_test")

import django  # noqa: E402

django.setup()

from casino.celery import app  # noqa: E402


def _slow_down(spec: str, marker: Path) -> None:
    target, seconds = spec.rsplit("=", 1)
    module_name, name = target.split(":")
    module = importlib.import_module(module_name)
    original = getattr(module, name)

    @functools.wraps(original)
    def slow(*args, **kwargs):
        if not marker.exists():  # only the first run stalls; the redelivered one goes straight through
            marker.write_text(str(os.getpid()))
            time.sleep(float(seconds))
        return original(*args, **kwargs)

    setattr(module, name, slow)


def main() -> None:
    queue = os.environ["FAULTS_QUEUE"]
    if os.environ.get("FAULTS_SLOW"):
        _slow_down(os.environ["FAULTS_SLOW"], Path(os.environ["FAULTS_MARKER"]))
    app.conf.task_default_queue = queue
    app.worker_main(["worker", "--pool", "prefork", "--concurrency", "1", "--queues", queue, "--loglevel", "INFO",
                     "--without-gossip", "--without-mingle", "--without-heartbeat", "--hostname", f"{queue}@%h"])


if __name__ == "__main__":
    main()
