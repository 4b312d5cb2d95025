"""Fail fast, in one line, when the test suite's PostgreSQL or Redis is not reachable."""

from __future__ import annotations

import os
import socket
import sys
from urllib.parse import urlparse


def reachable(url: str, default_port: int) -> tuple[str, int, bool]:
    parsed = urlparse(url)
    host, port = parsed.hostname or "127.0.0.1", parsed.port or default_port
    try:
        with socket.create_connection((host, port), timeout=2):
            return host, port, True
    except OSError:
        return host, port, False


def main() -> int:
    checks = [("PostgreSQL", os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/croupier"), 5432),
              ("Redis", os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/14"), 6379)]
    for name, url, port in checks:
        host, port, ok = reachable(url, port)
        if not ok:
            print(f"make test: {name} is not reachable at {host}:{port} — start it (see the README or .ci/run)",
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
