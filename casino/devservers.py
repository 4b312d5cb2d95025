"""Throwaway PostgreSQL clusters and Redis servers, for the tests and benchmarks on one machine.

Each lives in a temporary directory on a free loopback port and is destroyed by whoever started
it, so runs that share a machine (several developers, CI, benchmarks) never touch each other's
data, and a newcomer's ``make test`` needs PostgreSQL and Redis installed but not running
(``casino/services_check.py``). Never used by the service itself.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def unique_name(prefix: str) -> str:
    """A database name nobody else on the machine uses: ``prefix`` and a random suffix."""
    return f"{prefix}_{uuid.uuid4().hex[:10]}"


def _pg_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")  # other layouts (Homebrew, other distributions) put it on PATH
    return Path(initdb).resolve().parent if initdb else None


class ThrowawayPostgres:
    """A PostgreSQL cluster of our own under /tmp on a free port, which a test may stop and start.

    The machine's shared cluster is never touched. As root, the server runs as the ``postgres`` user.
    """

    def __init__(self) -> None:
        found = _pg_bin()
        if found is None:
            raise FileNotFoundError("no PostgreSQL server binaries (initdb) under /usr/lib/postgresql or on PATH")
        self.bin: Path = found
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="croupier-pg-"))
        self.data = self.dir / "data"
        self.as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_owner:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_owner, str(self.bin / tool), *args], check=True, capture_output=True, timeout=120)

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}"

    def start(self) -> None:
        opts = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off")
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.dir / "log"), "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(f"{self.url}/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"{self.url}/{name}"

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError, subprocess.TimeoutExpired):
            self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


class ThrowawayRedis:
    """A Redis server of our own (no persistence) on a free loopback port."""

    def __init__(self) -> None:
        found = shutil.which("redis-server")
        if found is None:
            raise FileNotFoundError("no redis-server on PATH")
        self.binary: str = found
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="croupier-redis-"))
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self, timeout: float = 20) -> None:
        log = open(self.dir / "redis.log", "wb")  # noqa: SIM115 (the server holds it until stopped)
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.dir), "--daemonize", "no"], stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited:\n{(self.dir / 'redis.log').read_text()}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as conn:
                conn.sendall(b"PING\r\n")
                if conn.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.05)
        raise TimeoutError(f"redis-server did not answer on port {self.port} within {timeout:.0f} s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
