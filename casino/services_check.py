"""``make test``'s PostgreSQL and Redis: the configured ones when they answer, throwaway ones otherwise.

    python -m casino.services_check [-- COMMAND ARGS…]

Reads ``DATABASE_URL``, ``REDIS_URL`` and ``CELERY_BROKER_URL`` (the test settings' defaults when
unset: 127.0.0.1:5432 and 127.0.0.1:6379). When they all answer, runs the command as it is. When
one does not (a newcomer's machine with PostgreSQL and Redis installed but not running), it starts
a throwaway one of its own (``initdb`` into a temporary directory, ``redis-server`` on a free
port; ``casino/devservers.py``), runs the command against it through those variables, and
destroys it afterwards, whatever the command's outcome. Exit status: the command's. Without a
command, only checks (exit 1, in one line, when something is unreachable and cannot be started).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from urllib.parse import urlparse

DEFAULTS = {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/croupier",
            "REDIS_URL": "redis://127.0.0.1:6379/14",
            "CELERY_BROKER_URL": "redis://127.0.0.1:6379/15"}
PORTS = {"DATABASE_URL": 5432, "REDIS_URL": 6379, "CELERY_BROKER_URL": 6379}


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
            pg = ThrowawayPostgres()
            started.append(pg)
            pg.start()
            env["DATABASE_URL"] = pg.create_database("croupier")
            _say(f"PostgreSQL is not reachable at {down['DATABASE_URL']}: testing against a throwaway cluster on "
                 f"127.0.0.1:{pg.port} (removed afterwards)")
        if "REDIS_URL" in down or "CELERY_BROKER_URL" in down:
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
        for server in reversed(started):
            server.destroy()


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--"]:
        args = args[1:]
    environ = dict(os.environ)
    # Importing this package set DJANGO_SETTINGS_MODULE=casino.settings (the Celery app's default) in this
    # process; the tests take theirs from pyproject (casino.settings_test), never the service's own.
    if environ.get("DJANGO_SETTINGS_MODULE") == "casino.settings":
        del environ["DJANGO_SETTINGS_MODULE"]
    try:
        with services_for_tests(environ) as env:
            if not args:
                return 0
            try:
                return subprocess.run(args, env=env, check=False).returncode
            except KeyboardInterrupt:
                return 130
    except (FileNotFoundError, subprocess.CalledProcessError, subprocess.TimeoutExpired, RuntimeError,
            TimeoutError) as exc:
        detail = exc.stderr.decode(errors="replace").strip() if isinstance(exc, subprocess.CalledProcessError) and \
            exc.stderr else str(exc)
        _say(f"a service is not reachable and could not be started here ({detail}): install PostgreSQL and Redis, "
             f"or start them (.ci/run does), or point DATABASE_URL, REDIS_URL and CELERY_BROKER_URL at running ones")
        return 1


if __name__ == "__main__":
    sys.exit(main())
