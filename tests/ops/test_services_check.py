"""``make test`` on a newcomer's machine: PostgreSQL and Redis installed but not running."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# What the suite would do first: reach the database and Redis it was given, through the variables.
PROBE = """
import json, os, psycopg, redis
with psycopg.connect(os.environ["DATABASE_URL"]) as conn:
    version = conn.execute("SHOW server_version").fetchone()[0]
print(json.dumps({"database": os.environ["DATABASE_URL"], "redis": os.environ["REDIS_URL"],
                  "broker": os.environ["CELERY_BROKER_URL"], "version": version,
                  "redis_ping": redis.Redis.from_url(os.environ["REDIS_URL"]).ping(),
                  "settings": os.environ.get("DJANGO_SETTINGS_MODULE")}))
"""


@pytest.fixture
def tmp_dir():
    """A temporary directory the PostgreSQL server's own user can enter too (pytest's are private to us)."""
    path = Path(tempfile.mkdtemp(prefix="croupier-ops-check-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.slow
def test_unreachable_services_are_replaced_by_throwaway_ones_for_the_run(tmp_dir):
    # given a machine where nothing answers at the configured addresses
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_"))}
    env.update({"DATABASE_URL": "postgres://postgres@127.0.0.1:1/croupier", "REDIS_URL": "redis://127.0.0.1:2/14",
                "CELERY_BROKER_URL": "redis://127.0.0.1:2/15", "TMPDIR": str(tmp_dir)})
    # when make test's check runs the suite's command
    done = subprocess.run([sys.executable, "-m", "casino.services_check", "--", sys.executable, "-c", PROBE],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    # then the command ran against a throwaway PostgreSQL and Redis of its own, and said so
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["database"].startswith("postgres://postgres@127.0.0.1:")
    assert not seen["database"].startswith("postgres://postgres@127.0.0.1:1/")
    assert seen["redis"].endswith("/14")
    assert seen["broker"].endswith("/15")
    assert seen["redis_ping"] is True
    assert seen["settings"] is None  # the suite's own settings come from pyproject
    assert "PostgreSQL is not reachable at 127.0.0.1:1: testing against a throwaway cluster" in done.stderr
    assert "Redis is not reachable at 127.0.0.1:2: testing against a throwaway redis-server" in done.stderr
    # and both are gone afterwards: nothing left in the temporary directory, nothing listening
    assert list(tmp_dir.iterdir()) == []
    port = int(seen["redis"].rsplit(":", 1)[1].split("/")[0])
    import socket

    with pytest.raises(ConnectionRefusedError), socket.create_connection(("127.0.0.1", port), timeout=1):
        pass


def test_the_commands_exit_status_is_make_tests():
    done = subprocess.run([sys.executable, "-m", "casino.services_check", "--", sys.executable, "-c",
                           "raise SystemExit(3)"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 3


# The command make test would run: it records where it was pointed and its own and a child's process ids, then
# waits as a long suite does.
LONG_RUN = """
import json, os, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
with open(sys.argv[1] + ".tmp", "w") as f:
    json.dump({"database": os.environ["DATABASE_URL"], "redis": os.environ["REDIS_URL"],
               "pids": [os.getpid(), child.pid]}, f)
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not yet reaped by its parent) is not running
    with contextlib.suppress(FileNotFoundError):
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    return False


def _listening(url: str) -> bool:
    from urllib.parse import urlparse

    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname, parsed.port), timeout=1):
            return True
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stopped_run_leaves_no_server_process_or_folder_behind(tmp_dir, tmp_path, signum):
    # given make test's wrapper running a long command against throwaway PostgreSQL and Redis of its own
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_"))}
    env.update({"DATABASE_URL": "postgres://postgres@127.0.0.1:1/croupier", "REDIS_URL": "redis://127.0.0.1:2/14",
                "CELERY_BROKER_URL": "redis://127.0.0.1:2/15", "TMPDIR": str(tmp_dir)})
    seen = tmp_path / "seen.json"
    wrapper = subprocess.Popen([sys.executable, "-m", "casino.services_check", "--", sys.executable, "-c", LONG_RUN,
                                str(seen)], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        deadline = time.monotonic() + 240
        while not seen.exists():
            assert wrapper.poll() is None, wrapper.communicate()
            assert time.monotonic() < deadline, "the command did not start"
            time.sleep(0.2)
        started = json.loads(seen.read_text())
        assert _listening(started["database"])
        assert _listening(started["redis"])
        assert all(_alive(pid) for pid in started["pids"])
        # when it is sent the signal (a CI timeout, a closed terminal, Ctrl-C)
        wrapper.send_signal(signum)
        _, stderr = wrapper.communicate(timeout=90)
    finally:
        if wrapper.poll() is None:
            wrapper.kill()
            wrapper.communicate()
    # then it ends with 128 + the signal, saying so
    assert wrapper.returncode == 128 + signum, stderr
    assert f"stopped by {signal.Signals(signum).name}" in stderr
    # and nothing is left: not the command nor its child, not PostgreSQL nor Redis, not their folders
    assert [pid for pid in started["pids"] if _alive(pid)] == []
    assert not _listening(started["database"])
    assert not _listening(started["redis"])
    assert list(tmp_dir.iterdir()) == []
