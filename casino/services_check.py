"""``make test``'s PostgreSQL and Redis: the configured ones when they answer, throwaway ones otherwise.

    python -m casino.services_check [-- COMMAND ARGS…]

Reads ``DATABASE_URL``, ``REDIS_URL`` and ``CELERY_BROKER_URL`` (the test settings' defaults when
unset: 127.0.0.1:5432 and 127.0.0.1:6379). When they all answer, runs the command as it is. When
one does not (a newcomer's machine with PostgreSQL and Redis installed but not running), it starts
a throwaway one of its own (``initdb`` into a temporary directory, ``redis-server`` on a free
port; ``casino/devservers.py``), runs the command against it through those variables, and
destroys it afterwards, whatever the command's outcome. Exit status: the command's. Without a
command, only checks (exit 1, in one line, when something is unreachable and cannot be started).

SIGTERM, SIGINT or SIGHUP (a CI timeout, Ctrl-C, a closed terminal) stop the command first (SIGINT, so
pytest runs its teardown; SIGTERM then SIGKILL if it does not end within ``GRACE`` seconds), then the
throwaway servers, and remove their folders; the exit status is then 128 + the signal's number.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from types import FrameType
from urllib.parse import urlparse

DEFAULTS = {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/croupier",
            "REDIS_URL": "redis://127.0.0.1:6379/14",
            "CELERY_BROKER_URL": "redis://127.0.0.1:6379/15"}
PORTS = {"DATABASE_URL": 5432, "REDIS_URL": 6379, "CELERY_BROKER_URL": 6379}
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
GRACE = 30.0  # seconds the command has to end after it is asked to (SIGINT), and again after SIGTERM


class Stopped(Exception):
    """This process was sent one of ``STOP_SIGNALS``."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _stop(signum: int, _frame: FrameType | None) -> None:
    raise Stopped(signum)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold the stop signals while a server is being made and recorded (so it is never made and then lost):
    one that arrived meanwhile is delivered when this ends."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def reachable(url: str, default_port: int) -> tuple[str, int, bool]:
    parsed = urlparse(url)
    host, port = parsed.hostname or "127.0.0.1", parsed.port or default_port
    try:
        with socket.create_connection((host, port), timeout=2):
            return host, port, True
    except OSError:
        return host, port, False


def _say(message: str) -> None:
    print(f"make test: {message}", file=sys.stderr, flush=True)


def _db_number(url: str, default: int) -> int:
    path = urlparse(url).path.strip("/")
    return int(path) if path.isdigit() else default


@contextlib.contextmanager
def services_for_tests(environ: dict[str, str]) -> Iterator[dict[str, str]]:
    """The environment to test with: ``environ`` itself, or pointing at throwaway servers started here
    for whatever is unreachable (stopped and removed on exit). Raises FileNotFoundError when one is
    needed and its server binaries are not installed."""
    # only when a server must be started
    from casino.devservers import ThrowawayPostgres, ThrowawayRedis

    env = dict(environ)
    urls = {name: env.get(name) or default for name, default in DEFAULTS.items()}
    down = {}
    for name, url in urls.items():
        host, port, ok = reachable(url, PORTS[name])
        if not ok:
            down[name] = f"{host}:{port}"
    started: list[ThrowawayPostgres | ThrowawayRedis] = []
    try:
        if "DATABASE_URL" in down:
            with _signals_held():
                pg = ThrowawayPostgres()
                started.append(pg)
            pg.start()
            env["DATABASE_URL"] = pg.create_database("croupier")
            _say(f"PostgreSQL is not reachable at {down['DATABASE_URL']}: testing against a throwaway cluster on "
                 f"127.0.0.1:{pg.port} (removed afterwards)")
        if "REDIS_URL" in down or "CELERY_BROKER_URL" in down:
            with _signals_held():
                redis = ThrowawayRedis()
                started.append(redis)
            redis.start()
            for name in ("REDIS_URL", "CELERY_BROKER_URL"):
                if name in down:
                    env[name] = redis.url(_db_number(urls[name], 0))
            where = ", ".join(sorted({down[n] for n in ("REDIS_URL", "CELERY_BROKER_URL") if n in down}))
            _say(f"Redis is not reachable at {where}: testing against a throwaway redis-server on "
                 f"127.0.0.1:{redis.port} (removed afterwards)")
        yield env
    finally:
        with _signals_held():  # a second signal must not cut the clean-up short
            for server in reversed(started):
                server.destroy()


def _run(args: list[str], env: dict[str, str]) -> int:
    """Run the command in a process group of its own; on a stop signal, end that group and re-raise."""
    child = subprocess.Popen(args, env=env, start_new_session=True)
    try:
        return child.wait()
    except Stopped:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, sig)
            try:
                with _signals_held():
                    child.wait(GRACE)
                break
            except subprocess.TimeoutExpired:
                continue
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)  # whatever the command left running in its group
        raise


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--"]:
        args = args[1:]
    environ = dict(os.environ)
    # Importing this package set DJANGO_SETTINGS_MODULE=casino.settings (the Celery app's default) in this
    # process; the tests take theirs from pyproject (casino.settings_test), never the service's own.
    if environ.get("DJANGO_SETTINGS_MODULE") == "casino.settings":
        del environ["DJANGO_SETTINGS_MODULE"]
    for signum in STOP_SIGNALS:
        signal.signal(signum, _stop)
    try:
        with services_for_tests(environ) as env:
            if not args:
                return 0
            return _run(args, env)
    except Stopped as stopped:
        _say(f"stopped by {stopped}: the command, and any server started for it, are stopped and removed")
        return 128 + stopped.signum
    except (FileNotFoundError, subprocess.CalledProcessError, subprocess.TimeoutExpired, RuntimeError,
            TimeoutError) as exc:
        detail = exc.stderr.decode(errors="replace").strip() if isinstance(exc, subprocess.CalledProcessError) and \
            exc.stderr else str(exc)
        _say(f"a service is not reachable and could not be started here ({detail}): install PostgreSQL and Redis, "
             f"or start them (.ci/run does), or point DATABASE_URL, REDIS_URL and CELERY_BROKER_URL at running ones")
        return 1


if __name__ == "__main__":
    sys.exit(main())
