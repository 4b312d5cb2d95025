"""Writing the audit trail. Call :func:`audit_log` inside the transaction of the change it records.

Chains: a table's rounds, bets, cards and settlements go to the chain ``table:<code>``; all else
to ``casino``. Per-table chains let tables settle concurrently — only writers to the same chain
wait for each other (a transaction-scoped advisory lock on PostgreSQL; SQLite has one writer).
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from casino.audit import record
from casino.audit.models import AuditRecord
from casino.audit.record import GENESIS
from casino.context import current, note, request_id
from casino.core import sql
from casino.core.roles import primary_role

CASINO_CHAIN = "casino"


def chain_for_table(code: str) -> str:
    return f"table:{code}"


def compute_hash(rec: AuditRecord) -> str:
    """The record's hash in the one canonical form (casino/audit/record.py)."""
    return record.hash_of(rec)


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
