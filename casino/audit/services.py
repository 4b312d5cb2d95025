"""Writing the audit trail. Call :func:`audit_log` inside the transaction of the change it records.

Chains: a table's rounds, bets, cards and settlements go to the chain ``table:<code>``; all else
to ``casino``. Per-table chains let tables settle concurrently — only writers to the same chain
wait for each other (a transaction-scoped advisory lock on PostgreSQL; SQLite has one writer).
"""

from __future__ import annotations

import functools
import hashlib
import json
import weakref
import zlib
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from casino.audit import record
from casino.audit.models import AuditRecord, ChainHead
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
    ctx = current()
    user = actor if getattr(actor, "pk", None) is not None else None
    # No actor is the system (a job, a command); an actor without an account is someone
    # unauthenticated (a failed login).
    role = primary_role(user) if user is not None or actor is None else "anonymous"
    rec = AuditRecord(
        chain=chain, created_at=timezone.now(), actor=user,
        actor_username=getattr(user, "username", "") or "", actor_role=role,
        client_addr=ctx.client_addr or "", device=ctx.device or "", channel=ctx.channel,
        action=action, object_type=object_type, object_id=str(object_id), table_code=table_code,
        before=_jsonable(before), after=_jsonable(after), request_id=request_id(),
    )
    note(table=table_code, round=object_id if object_type == "round" else None)  # for the request's log line
    if connection.vendor == "postgresql":
        return _append(rec)
    _lock_chain(chain)
    last = sql.fetch_one(f"SELECT seq, hash FROM {sql.table(AuditRecord)} WHERE chain = %s ORDER BY seq DESC LIMIT 1",
                         [chain])
    rec.seq, rec.prev_hash = (last[0] + 1, last[1]) if last else (1, GENESIS)
    rec.hash = compute_hash(rec)
    return sql.insert(rec)


# -- PostgreSQL: one round trip per record ------------------------------------------------------------------
#
# Every audited change appends a record, so what that costs is added to every card and every settlement.
# Three statements (lock the chain, read its head, insert) were three round trips and three parses. Here the
# append is a statement prepared once per connection (parsed and planned once), and the lock and its
# EXECUTE are one query string sent at once (Django's client-side binding runs both in one
# round trip; each statement still takes its own snapshot, so the head is read *after* the lock is held, as
# before): the INSERT reads the chain's last seq and hash itself and hashes the record with PostgreSQL's
# sha256 over the canonical text that Python prepared around those two values (record.canonical_parts). The
# head is the chain's row in ``audit_chainhead`` (one key lookup, whatever the number of monthly partitions),
# which the table's BEFORE INSERT trigger moves to each record it accepts (migration 0005).
# Python then recomputes the same hash from the returned seq and prev_hash and refuses the transaction if
# the two differ, so a record is never written with a hash the canonical form (and the verifier) would not
# give it. Invariants unchanged: (chain, seq) unique, seq in commit order under the lock, append-only
# triggers on the table.

_APPEND_COLUMNS = ("chain", "created_at", "actor_id", "actor_username", "actor_role", "client_addr", "device",
                   "channel", "action", "object_type", "object_id", "table_code")
_APPEND_TYPES = ("text", "timestamptz", "bigint", *["text"] * 9, "jsonb", "jsonb", "text", "text", "text", "text",
                 "text", "text")
_STATEMENT = "croupier_audit_append"


@functools.cache
def _prepare_sql(table: str, heads: str) -> str:
    """The append, prepared once per connection: parsed and planned once, not for every record."""
    n = len(_APPEND_COLUMNS)
    values = ", ".join(f"${i}" for i in range(1, n + 1))
    head, middle, tail, genesis, chain = (f"${n + i}" for i in range(4, 9))
    return (
        f"PREPARE {_STATEMENT} ({', '.join(_APPEND_TYPES)}) AS "
        f"INSERT INTO {table} ({', '.join(_APPEND_COLUMNS)}, before, after, request_id, seq, prev_hash, hash) "
        f"SELECT {values}, ${n + 1}, ${n + 2}, ${n + 3}, h.seq + 1, h.hash, "
        f"encode(sha256(convert_to({head} || h.hash || {middle} || (h.seq + 1)::text || {tail}, 'UTF8')), 'hex') "
        f"FROM (SELECT coalesce(l.seq, 0) AS seq, coalesce(l.hash, {genesis}) AS hash FROM (SELECT 1) o "
        f"LEFT JOIN {heads} l ON l.chain = {chain}) h RETURNING id, seq, prev_hash, hash")


_APPEND_SQL = (f"SELECT pg_advisory_xact_lock(%s, %s); "
               f"EXECUTE {_STATEMENT} ({', '.join(['%s'] * len(_APPEND_TYPES))})")
# Connections (psycopg's) on which the statement is prepared; a prepared statement outlives a rollback.
_prepared: weakref.WeakSet[Any] = weakref.WeakSet()


def _append(rec: AuditRecord) -> AuditRecord:
    created_at = rec.created_at.isoformat()
    before_text, after_text = record.json_text(rec.before), record.json_text(rec.after)
    head, middle, tail = record.canonical_parts(
        rec.chain, created_at, rec.actor_id, rec.actor_username, rec.actor_role, rec.client_addr, rec.device,
        rec.channel, rec.action, rec.object_type, rec.object_id, rec.table_code, before_text, after_text,
        rec.request_id)
    params: list[Any] = [0x0A0D17, zlib.crc32(rec.chain.encode()) - 2**31,
              rec.chain, rec.created_at, rec.actor_id, rec.actor_username, rec.actor_role, rec.client_addr,
              rec.device, rec.channel, rec.action, rec.object_type, rec.object_id, rec.table_code,
              None if rec.before is None else before_text, None if rec.after is None else after_text,
              rec.request_id, head, middle, tail, GENESIS, rec.chain]
    with connection.cursor() as cursor:
        raw = connection.connection
        if raw not in _prepared:
            cursor.execute(_prepare_sql(sql.table(AuditRecord), sql.table(ChainHead)))
            _prepared.add(raw)
        cursor.execute(_APPEND_SQL, params)
        cursor.nextset()  # past the lock's empty row
        row = cursor.fetchone()
    assert row is not None  # INSERT … SELECT from one row
    rec.id, rec.seq, rec.prev_hash, rec.hash = row
    expected = hashlib.sha256(f"{head}{rec.prev_hash}{middle}{rec.seq}{tail}".encode()).hexdigest()
    if rec.hash != expected:
        raise RuntimeError(f"audit record {rec.chain}#{rec.seq} was hashed by the database as {rec.hash}, not as "
                           f"its canonical form gives ({expected}): is the database's encoding UTF8?")
    rec._state.adding = False
    rec._state.db = connection.alias
    return rec


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
