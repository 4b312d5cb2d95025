"""Writing the audit trail. Call :func:`audit_log` inside the transaction of the change it records.

Chains: a table's rounds, bets, cards and settlements go to the chain ``table:<code>``; all else
to ``casino``. Per-table chains let tables settle concurrently — only writers to the same chain
wait for each other (a transaction-scoped advisory lock on PostgreSQL; SQLite has one writer).
"""

from __future__ import annotations

import hashlib
import json
import zlib
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from casino.audit.models import AuditRecord
from casino.context import current, note, request_id
from casino.core import sql
from casino.core.roles import primary_role

GENESIS = "0" * 64
CASINO_CHAIN = "casino"
# One encoder, built once: ``json.dumps`` with these options would build a new one per call, and
# verification hashes a million records in a tight loop. Same bytes as ``json.dumps(...)``.
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def chain_for_table(code: str) -> str:
    return f"table:{code}"


def canonical(record: dict[str, Any]) -> bytes:
    """The bytes that are hashed: every field but ``hash``, JSON with sorted keys."""
    return _ENCODER.encode(record).encode()


def hash_content(content: dict[str, Any]) -> str:
    """SHA-256 (hex) of a record's canonical content (:func:`record_content`)."""
    return hashlib.sha256(_ENCODER.encode(content).encode()).hexdigest()


def record_content(rec: AuditRecord) -> dict[str, Any]:
    content = {
        "chain": rec.chain, "seq": rec.seq, "created_at": rec.created_at.isoformat(),
        "actor_id": rec.actor_id, "actor_username": rec.actor_username, "actor_role": rec.actor_role,
        "client_addr": rec.client_addr, "device": rec.device, "channel": rec.channel,
        "action": rec.action, "object_type": rec.object_type, "object_id": rec.object_id,
        "table_code": rec.table_code, "before": rec.before, "after": rec.after, "prev_hash": rec.prev_hash,
    }
    if rec.request_id:  # records from before request ids hash without the key
        content["request_id"] = rec.request_id
    return content


def compute_hash(rec: AuditRecord) -> str:
    return hash_content(record_content(rec))


def _lock_chain(chain: str) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [0x0A0D17, zlib.crc32(chain.encode()) - 2**31])


def _jsonable(value: Any) -> Any:
    if value is None:
        return None
    return json.loads(json.dumps(value, default=str))


def audit_log(*, actor: Any, action: str, object_type: str, object_id: Any, before: Any = None,
              after: Any = None, table_code: str = "", chain: str | None = None) -> AuditRecord:
    """Append one record to its chain. Must run inside the caller's transaction."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit_log must be called inside the transaction of the change it records")
    chain = chain or (chain_for_table(table_code) if table_code else CASINO_CHAIN)
    _lock_chain(chain)
    # written once, not built by the ORM: every audited request reads its chain's head (casino/core/sql.py)
    last = sql.fetch_one(f"SELECT seq, hash FROM {sql.table(AuditRecord)} WHERE chain = %s ORDER BY seq DESC LIMIT 1",
                         [chain])
    seq, prev_hash = (last[0] + 1, last[1]) if last else (1, GENESIS)
    ctx = current()
    user = actor if getattr(actor, "pk", None) is not None else None
    # No actor is the system (a job, a command); an actor without an account is someone
    # unauthenticated (a failed login).
    role = primary_role(user) if user is not None or actor is None else "anonymous"
    rec = AuditRecord(
        chain=chain, seq=seq, created_at=timezone.now(), actor=user,
        actor_username=getattr(user, "username", "") or "", actor_role=role,
        client_addr=ctx.client_addr or "", device=ctx.device or "", channel=ctx.channel,
        action=action, object_type=object_type, object_id=str(object_id), table_code=table_code,
        before=_jsonable(before), after=_jsonable(after), prev_hash=prev_hash, request_id=request_id(),
    )
    rec.hash = compute_hash(rec)
    note(table=table_code, round=object_id if object_type == "round" else None)  # for the request's log line
    return sql.insert(rec)  # every audited change inserts one: written once (casino/core/sql.py)


def audit_export_logged(actor: Any, report: str, filters: Any = None, *, rows: int | None = None) -> AuditRecord:
    """Record that ``actor`` exported ``report`` with ``filters``; call it before sending the file.

    Every area that lets staff export data calls this (CSV, PDF, spreadsheets). It opens its own
    transaction if the caller has none, so a refused audit write refuses the export.
    """
    after: dict[str, Any] = {"report": report, "filters": filters or {}}
    if rows is not None:
        after["rows"] = rows
    with transaction.atomic():
        return audit_log(actor=actor, action="export", object_type="report", object_id=report[:64], after=after)
