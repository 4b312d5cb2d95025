"""Backups a casino's IT can check: a consistent ``pg_dump`` with a manifest, and a checked restore.

``backup_create`` opens one REPEATABLE READ, read-only transaction, exports its snapshot, reads the
manifest's figures in it (the time, every table's row count, each audit chain's head, the ledger's
trial balance and what else the areas register) and runs ``pg_dump --snapshot`` on that same
snapshot: the dump and its manifest describe exactly the same moment, however busy the floor is.

The manifest is signed (HMAC-SHA256 with the key that signs the audit checkpoints, kept outside the
database: casino/audit/signing.py), and it holds the dump's SHA-256: a dump rewritten with its manifest
recomputed no longer matches the signature. The folder is created 0700 and its files 0600 (they hold
password and PIN hashes and player data).

``backup_restore`` refuses an unsigned or mis-signed manifest, restores into a new database (never over
an existing one), checks the ledger's invariants directly in the copy (every transaction balances, the
ledger sums to zero, each posting equals its round's settlement or its record: what the areas register),
then checks it with the service's own commands run against the copy: the manifest's figures recomputed
must match, and ``verify_audit --full`` must pass. See docs/operations.md (backups, point-in-time recovery).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from casino.audit import signing
from casino.audit.models import AuditRecord
from casino.errors import Conflict, InvalidInput
from casino.ops import registry

FORMAT = "croupier-backup/1"
SIGNATURE_FORMAT = "croupier-backup-manifest/1"
DUMP = "database.dump"
MANIFEST = "manifest.json"


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _tables() -> list[str]:
    with connection.cursor() as cursor:
        return sorted(t.name for t in connection.introspection.get_table_list(cursor) if t.type == "t")


def manifest_figures() -> dict[str, Any]:
    """What the manifest vouches for, read in the caller's transaction (the backup's snapshot)."""
    with connection.cursor() as cursor:
        counts = {}
        for name in _tables():
            cursor.execute(f"SELECT count(*) FROM {_quote(name)}")  # noqa: S608 (catalogue names, quoted)
            counts[name] = cursor.fetchone()[0]
        cursor.execute(f"SELECT DISTINCT ON (chain) chain, seq, hash FROM {_quote(AuditRecord._meta.db_table)} "
                       "ORDER BY chain, seq DESC")
        heads = {chain: {"seq": seq, "hash": digest} for chain, seq, digest in cursor.fetchall()}
        cursor.execute("SELECT app, max(name) FROM django_migrations GROUP BY app ORDER BY app")
        migrations = dict(cursor.fetchall())
    return {"row_counts": counts, "audit_chain_heads": heads, "migrations": migrations,
            **{name: section() for name, section in sorted(registry.manifest_sections.items())}}


def _libpq_env(database: str | None = None) -> dict[str, str]:
    """The environment that points libpq tools (pg_dump, pg_restore) at the configured server."""
    s = connection.settings_dict
    env = {**os.environ, "PGDATABASE": database or s["NAME"], "PGHOST": s.get("HOST") or "127.0.0.1",
           "PGPORT": str(s.get("PORT") or 5432), "PGUSER": s.get("USER") or "postgres"}
    if s.get("PASSWORD"):
        env["PGPASSWORD"] = s["PASSWORD"]  # the environment, never the command line (visible in ps)
    if (s.get("OPTIONS") or {}).get("sslmode"):
        env["PGSSLMODE"] = s["OPTIONS"]["sslmode"]
    return env


def database_url(database: str) -> str:
    """The configured server's URL with another database name (for the checks run against a copy)."""
    s = connection.settings_dict
    auth = quote(s.get("USER") or "postgres", safe="")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"], safe="")
    return f"postgres://{auth}@{s.get('HOST') or '127.0.0.1'}:{s.get('PORT') or 5432}/{quote(database, safe='')}"


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise InvalidInput(gettext("%(tool)s is not installed (the PostgreSQL client tools are needed for backups)")
                           % {"tool": name}, code="tool_missing")
    return found


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _require_postgresql() -> None:
    if connection.vendor != "postgresql":
        raise InvalidInput(gettext("backups are of PostgreSQL; the embedded SQLite file is copied as it is"),
                           code="not_postgresql")


def backup_create(*, directory: Path) -> Path:
    """Dump the database and write its manifest into a new folder under ``directory``; returns the folder."""
    _require_postgresql()
    if connection.in_atomic_block:
        raise Conflict(gettext("a backup opens its own snapshot: run it outside a transaction"), code="in_transaction")
    pg_dump = _tool("pg_dump")
    started = timezone.now()
    target = directory / f"croupier-{connection.settings_dict['NAME']}-{started:%Y%m%dT%H%M%SZ}"
    directory.mkdir(parents=True, exist_ok=True)
    target.mkdir(mode=0o700, exist_ok=False)
    os.chmod(target, 0o700)  # whatever the umask
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            cursor.execute("SELECT pg_export_snapshot(), now(), current_setting('server_version')")
            snapshot, taken_at, server_version = cursor.fetchone()
        figures = manifest_figures()
        # pg_dump reads the same snapshot while this transaction holds it open; it writes to a file this process
        # created 0600 (pg_dump's own --file would follow the umask)
        with _private(target / DUMP, "wb") as out:
            done = subprocess.run([pg_dump, "--format=custom", f"--snapshot={snapshot}", "--no-password"],
                                  env=_libpq_env(), stdout=out, stderr=subprocess.PIPE, text=False)
    if done.returncode != 0:
        raise InvalidInput(gettext("pg_dump failed: %(error)s") % {"error": done.stderr.decode(errors="replace").strip()[:500]},
                           code="pg_dump_failed")
    manifest = {
        "format": FORMAT, "created_at": taken_at.isoformat(), "database": connection.settings_dict["NAME"],
        "server_version": server_version, "pg_dump": _version(pg_dump),
        "dump": {"file": DUMP, "bytes": (target / DUMP).stat().st_size, "sha256": _sha256(target / DUMP)},
        **figures,
    }
    with _private(target / MANIFEST, "w") as out:
        out.write(json.dumps(manifest_signed(manifest), indent=2, sort_keys=True) + "\n")
    return target


def _private(path: Path, mode: str) -> Any:
    """A new file only its owner may read or write (0600), opened in ``mode``."""
    return os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), mode)


def _signed_bytes(body: dict[str, Any]) -> bytes:
    return json.dumps([SIGNATURE_FORMAT, body], sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def manifest_signed(manifest: dict[str, Any], *, key: bytes | None = None) -> dict[str, Any]:
    """The manifest as JSON values with its ``signature``: HMAC-SHA256 of its canonical JSON under the audit
    checkpoints' key (``AUDIT_CHECKPOINT_KEY``, kept outside the database), and that key's public id."""
    key = key if key is not None else signing.checkpoint_key()
    body = json.loads(json.dumps({k: v for k, v in manifest.items() if k != "signature"}, default=str))
    return {**body, "signature": {"algorithm": "HMAC-SHA256", "key_id": signing.key_id(key),
                                  "hmac": hmac.new(key, _signed_bytes(body), hashlib.sha256).hexdigest()}}


def manifest_signature_problem(manifest: dict[str, Any], *, key: bytes | None = None) -> str | None:
    """Why the manifest's signature does not hold under this service's key (None: it holds)."""
    key = key if key is not None else signing.checkpoint_key()
    signature = manifest.get("signature")
    if not isinstance(signature, dict) or not isinstance(signature.get("hmac"), str):
        return "the manifest is not signed"
    if signature.get("key_id") != signing.key_id(key):
        return (f"the manifest is signed with another key (key id {signature.get('key_id')!r}; this service's is "
                f"{signing.key_id(key)!r}: AUDIT_CHECKPOINT_KEY)")
    body = {k: v for k, v in manifest.items() if k != "signature"}
    expected = hmac.new(key, _signed_bytes(body), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, signature["hmac"]):
        return "the manifest's signature does not match its content: it was changed after it was signed"
    return None


def _version(tool: str) -> str:
    return subprocess.run([tool, "--version"], capture_output=True, text=True, check=False).stdout.strip()


def read_manifest(folder: Path) -> dict[str, Any]:
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError) as exc:
        raise InvalidInput(gettext("no readable %(manifest)s in %(folder)s: %(error)s")
                           % {"manifest": MANIFEST, "folder": folder, "error": exc}, code="bad_backup") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise InvalidInput(gettext("%(path)s is not a Croupier backup manifest (%(format)s)")
                           % {"path": folder / MANIFEST, "format": FORMAT}, code="bad_backup")
    problem = manifest_signature_problem(manifest)
    if problem is not None:
        raise InvalidInput(gettext("%(path)s is refused: %(problem)s") % {"path": folder / MANIFEST, "problem": problem},
                           code="bad_signature")
    return manifest


COMPARED = ("row_counts", "audit_chain_heads", "migrations")


def manifest_differences(manifest: dict[str, Any], figures: dict[str, Any]) -> list[str]:
    """Where ``figures`` (read from a database) differ from what ``manifest`` vouches for."""
    problems: list[str] = []
    for key in (*COMPARED, *sorted(registry.manifest_sections)):
        _differences(key, manifest.get(key), json.loads(json.dumps(figures.get(key), default=str)), problems)
    return problems


def _differences(path: str, expected: Any, found: Any, out: list[str]) -> None:
    """Each leaf where ``found`` differs from ``expected``, by its dotted path (a trial balance's one account, not
    its two dictionaries of every account)."""
    if expected == found:
        return
    if isinstance(expected, dict) and isinstance(found, dict):
        for name in sorted(set(expected) | set(found)):
            _differences(f"{path}.{name}", expected.get(name), found.get(name), out)
        return
    out.append(f"{path}: the manifest says {expected!r}, the database has {found!r}")


def manifest_check(manifest: dict[str, Any]) -> list[str]:
    """Compare this database with a manifest, in one consistent snapshot; the differences (none: it matches)."""
    _require_postgresql()
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        return manifest_differences(manifest, manifest_figures())


@dataclass
class RestoreReport:
    database: str
    url: str
    checks: list[str] = field(default_factory=list)  # what was checked and passed
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _manage(*args: str, database: str) -> subprocess.CompletedProcess[str]:
    """This service's own command, run against the restored copy (a process of its own: its default database),
    as the service's role and held to the same audit anchors as this process."""
    env = {**os.environ, "DATABASE_URL": database_url(database), "AUDIT_ANCHOR_DIR": str(settings.AUDIT_ANCHOR_DIR)}
    return subprocess.run([sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), *args], env=env,
                          capture_output=True, text=True, timeout=3600)


def _admin_conninfo(admin_url: str, database: str) -> dict[str, Any]:
    """Where a restore creates its database and runs ``pg_restore``: ``admin_url``'s role (one that may create
    databases and own what the dump owns: DATABASE_ADMIN_URL), or else the configured connection's."""
    env = _libpq_env(database)
    info: dict[str, Any] = {"host": env["PGHOST"], "port": env["PGPORT"], "user": env["PGUSER"],
                            "password": env.get("PGPASSWORD")}
    if admin_url:
        parts = urlsplit(admin_url)
        info = {"host": parts.hostname or info["host"], "port": str(parts.port or info["port"]),
                "user": unquote(parts.username or "") or info["user"],
                "password": unquote(parts.password) if parts.password else None}
    return {**info, "dbname": database}


def _pg_env(info: dict[str, Any]) -> dict[str, str]:
    env = {**os.environ, "PGHOST": info["host"], "PGPORT": str(info["port"]), "PGUSER": info["user"],
           "PGDATABASE": info["dbname"]}
    if info.get("password"):
        env["PGPASSWORD"] = info["password"]
    return env


def backup_restore(*, folder: Path, database: str, no_owner: bool = False, admin_url: str = "") -> RestoreReport:
    """Restore ``folder`` into the new database ``database`` on the configured server, then check it.

    The database is created and restored by ``admin_url``'s role (DATABASE_ADMIN_URL: the service's own role may
    not create databases), owned by the role that owns the live one; the checks then run as the service."""
    _require_postgresql()
    manifest = read_manifest(folder)
    dump = folder / manifest["dump"]["file"]
    if not dump.is_file() or _sha256(dump) != manifest["dump"]["sha256"]:
        raise InvalidInput(gettext("%(path)s is missing or differs from the one the manifest describes") % {"path": dump},
                           code="bad_backup")
    pg_restore = _tool("pg_restore")
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database])
        if cursor.fetchone():
            raise Conflict(gettext("the database %(database)s exists: a restore goes into a new one") % {"database": database},
                       code="database_exists")
        cursor.execute("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database()")
        (owner,) = cursor.fetchone()
    import psycopg

    admin = _admin_conninfo(admin_url, "postgres")
    with psycopg.connect(**admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {_quote(database)}" + ("" if no_owner else f" OWNER {_quote(owner)}"))
    options = ["--no-owner", "--no-privileges"] if no_owner else []
    done = subprocess.run([pg_restore, "--exit-on-error", "--no-password", f"--dbname={database}", *options,
                           str(dump)], env=_pg_env({**admin, "dbname": database}), capture_output=True, text=True)
    report = RestoreReport(database=database, url=database_url(database).split("@", 1)[-1])
    if done.returncode != 0:
        report.problems.append(f"pg_restore failed: {done.stderr.strip()[:1000]}")
        return report
    with psycopg.connect(**{**admin, "dbname": database}, autocommit=True) as conn:
        conn.execute("ANALYZE")  # the planner's statistics are not in a dump
    report.checks.append(f"restored {dump.name} ({manifest['dump']['bytes']} bytes, sha256 as in the signed "
                         f"manifest, key id {manifest['signature']['key_id']})")
    # the ledger's invariants, read directly in the copy (pg_restore loads the rows before the triggers exist,
    # so nothing checked them on the way in)
    with psycopg.connect(**{**admin, "dbname": database}, autocommit=True) as conn, conn.cursor() as cursor:
        for name, check in sorted(registry.restore_checks.items()):
            found = check(cursor)
            if found:
                report.problems += [f"{name}: {problem}" for problem in found]
            else:
                report.checks.append(f"{name}: {registry.restore_check_words.get(name, 'checked')}")
    checked = _manage("backup", "--check", str(folder), database=database)
    if checked.returncode != 0:
        report.problems.append(f"the copy differs from the manifest:\n{checked.stdout}{checked.stderr}".strip())
    else:
        report.checks.append(checked.stdout.strip())
    verified = _manage("verify_audit", "--full", database=database)
    if verified.returncode != 0:
        report.problems.append(f"verify_audit --full on the copy failed:\n{verified.stdout}{verified.stderr}".strip())
    else:
        report.checks.append(f"verify_audit --full on the copy: {verified.stdout.strip()}")
    return report

