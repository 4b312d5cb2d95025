"""Writing the audit trail. Call :func:`audit_log` inside the transaction of the change it records.

Chains: a table's rounds, bets, cards and settlements go to the chain ``table:<code>``; all else
to ``casino``. Per-table chains let tables settle concurrently — only writers to the same chain
wait for each other (a transaction-scoped advisory lock on PostgreSQL; SQLite has one writer).
"""

from __future__ import annotations

import decimal
import functools
import hashlib
import json
import logging
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
log = logging.getLogger(__name__)


def chain_for_table(code: str) -> str:
    return f"table:{code}"


def compute_hash(rec: AuditRecord) -> str:
    """The record's hash in the one canonical form (casino/audit/record.py)."""
    return record.hash_of(rec)


def _stored_float(text: str) -> float | int:
    """A float as PostgreSQL's jsonb gives it back: exactly as written, except a whole number written with an
    exponent (``1e+16``), which jsonb keeps as the integer it is (``10000000000000000``), so the record hashes
    the value its column will hold and verifies."""
    if "e" in text or "E" in text:
        exact = decimal.Decimal(text)
        if exact == exact.to_integral_value():
            return int(exact)
    return float(text)


def _jsonable(value: Any) -> Any:
    if value is None:
        return None
    return json.loads(json.dumps(value, default=str), parse_float=_stored_float)


def audit_log(*, actor: Any, action: str, object_type: str, object_id: Any, before: Any = None,
              after: Any = None, table_code: str = "", chain: str | None = None) -> AuditRecord:
    """Append one record to its chain, in the caller's transaction (it must have one).

    On PostgreSQL the record is written with the transaction's next boundary (its commit, or a savepoint
    set or released), in the same round trip, or before any statement of the transaction that reads the
    trail (casino/dbbackend); the returned record has its ``pk``, ``seq`` and ``hash`` from then on.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit_log must be called inside the transaction of the change it records")
    chain = chain or (chain_for_table(table_code) if table_code else CASINO_CHAIN)
    ctx = current()
    user = actor if getattr(actor, "pk", None) is not None else None
    # No actor is the system (a job, a command); an actor without an account is someone
    # unauthenticated (a failed login).
    role = primary_role(user) if user is not None or actor is None else "anonymous"
    rec = AuditRecord(
        chain=chain, created_at=timezone.now(), actor_id=None if user is None else user.pk,
        actor_username=getattr(user, "username", "") or "", actor_role=role,
        client_addr=ctx.client_addr or "", device=ctx.device or "", channel=ctx.channel,
        action=action, object_type=object_type, object_id=str(object_id), table_code=table_code,
        before=_jsonable(before), after=_jsonable(after), request_id=request_id(),
    )
    note(table=table_code, round=object_id if object_type == "round" else None)  # for the request's log line
    if connection.vendor == "postgresql":
        _append(rec)
        return rec
    # SQLite (the embedded mode) has one writer at a time: read the head, hash, insert
    last = sql.fetch_one(f"SELECT seq, hash FROM {sql.table(AuditRecord)} WHERE chain = %s ORDER BY seq DESC LIMIT 1",
                         [chain])
    rec.seq, rec.prev_hash = (last[0] + 1, last[1]) if last else (1, GENESIS)
    rec.hash = compute_hash(rec)
    return sql.insert(rec)


# -- PostgreSQL: no round trip of its own --------------------------------------------------------------------
#
# Every audited change appends a record, so what that costs is added to every card and every settlement.
# The append is a statement prepared once per connection (parsed and planned once): it reads the chain's head
# itself, in ``audit_chainhead`` (one key lookup, whatever the number of monthly partitions; the table's
# BEFORE INSERT trigger moves the head to each record it accepts, migration 0005) and hashes the record with
# PostgreSQL's sha256 over the canonical text that Python prepared around those two values
# (record.canonical_parts). The chain is locked first (a transaction-scoped advisory lock, its own statement,
# so that the append's snapshot, taken after, sees the last record committed under it): seq follows commit
# order, and tables settling at once wait only for writers to their own chain.
#
# The records of a transaction wait on the connection (casino/dbbackend) and go with its next boundary, in the
# same query string: their chains' locks in one order (no two transactions can wait for each other's chains),
# then the appends, then the COMMIT (or SAVEPOINT, RELEASE). The chain is locked for the length of the commit,
# not from the change to the end of the transaction. Python then recomputes each hash from the returned seq
# and prev_hash: the two cannot differ on a UTF8 database with a UTF8 connection (the only kind this appends
# on, checked once per connection, and the property tests hold the two forms to the same bytes); if they ever
# did before the commit, the transaction is refused, and after it, the error is logged (and the verification
# reports the record). Invariants unchanged: (chain, seq) unique, seq in commit order under the lock,
# append-only triggers on the table.

_APPEND_COLUMNS = ("chain", "created_at", "actor_id", "actor_username", "actor_role", "client_addr", "device",
                   "channel", "action", "object_type", "object_id", "table_code")
_APPEND_TYPES = ("text", "timestamptz", "bigint", *["text"] * 9, "jsonb", "jsonb", "text", "text", "text", "text",
                 "text", "text")
_STATEMENT = "croupier_audit_append"
_LOCK_STATEMENT = "croupier_audit_lock"
_LOCK_SPACE = 0x0A0D17  # the advisory locks' first key: the audit chains


@functools.cache
def _prepare_sql(table: str, heads: str) -> str:
    """The chain's lock and the append, prepared once per connection: parsed and planned once, not for every
    record."""
    n = len(_APPEND_COLUMNS)
    values = ", ".join(f"${i}" for i in range(1, n + 1))
    head, middle, tail, genesis, chain = (f"${n + i}" for i in range(4, 9))
    return (
        f"PREPARE {_LOCK_STATEMENT} (integer, integer) AS SELECT pg_advisory_xact_lock($1, $2); "
        f"PREPARE {_STATEMENT} ({', '.join(_APPEND_TYPES)}) AS "
        f"INSERT INTO {table} ({', '.join(_APPEND_COLUMNS)}, before, after, request_id, seq, prev_hash, hash) "
        f"SELECT {values}, ${n + 1}, ${n + 2}, ${n + 3}, h.seq + 1, h.hash, "
        f"encode(sha256(convert_to({head} || h.hash || {middle} || (h.seq + 1)::text || {tail}, 'UTF8')), 'hex') "
        f"FROM (SELECT coalesce(l.seq, 0) AS seq, coalesce(l.hash, {genesis}) AS hash FROM (SELECT 1) o "
        f"LEFT JOIN {heads} l ON l.chain = {chain}) h RETURNING id, seq, prev_hash, hash")


_LOCK_SQL = f"EXECUTE {_LOCK_STATEMENT} (%s, %s)"
_EXECUTE_SQL = f"EXECUTE {_STATEMENT} ({', '.join(['%s'] * len(_APPEND_TYPES))})"
# Connections (psycopg's) on which the statement is prepared; a prepared statement outlives a rollback.
_prepared: weakref.WeakSet[Any] = weakref.WeakSet()


class _Appends:
    """The records a connection's transaction has made and not yet sent (a writer of casino/dbbackend)."""

    tables = ("audit_auditrecord", "audit_chainhead")

    def __init__(self) -> None:
        self.pending: list[tuple[AuditRecord, list[Any], tuple[str, str, str]]] = []
        self.sent: list[tuple[AuditRecord, list[Any], tuple[str, str, str]]] = []
        self.locks = 0

    def __bool__(self) -> bool:
        return bool(self.pending)

    def add(self, rec: AuditRecord) -> None:
        created_at = rec.created_at.isoformat()
        before_text, after_text = record.json_text(rec.before), record.json_text(rec.after)
        parts = record.canonical_parts(
            rec.chain, created_at, rec.actor_id, rec.actor_username, rec.actor_role, rec.client_addr, rec.device,
            rec.channel, rec.action, rec.object_type, rec.object_id, rec.table_code, before_text, after_text,
            rec.request_id)
        params = [rec.chain, rec.created_at, rec.actor_id, rec.actor_username, rec.actor_role, rec.client_addr,
                  rec.device, rec.channel, rec.action, rec.object_type, rec.object_id, rec.table_code,
                  None if rec.before is None else before_text, None if rec.after is None else after_text,
                  rec.request_id, *parts, GENESIS, rec.chain]
        self.pending.append((rec, params, parts))

    def take(self) -> tuple[list[str], list[Any]]:
        self.sent, self.pending = self.pending, []
        keys = sorted({zlib.crc32(rec.chain.encode()) - 2**31 for rec, _, _ in self.sent})
        self.locks = len(keys)
        params = [value for key in keys for value in (_LOCK_SPACE, key)]
        for _, args, _ in self.sent:
            params += args
        return [_LOCK_SQL] * len(keys) + [_EXECUTE_SQL] * len(self.sent), params

    def taken(self, cursor: Any, *, committed: bool) -> None:
        sent, self.sent = self.sent, []
        for _ in range(self.locks):
            cursor.nextset()
        for rec, _, (head, middle, tail) in sent:
            rec.id, rec.seq, rec.prev_hash, rec.hash = cursor.fetchone()
            rec._state.adding = False
            rec._state.db = connection.alias
            cursor.nextset()
            expected = hashlib.sha256(f"{head}{rec.prev_hash}{middle}{rec.seq}{tail}".encode()).hexdigest()
            if rec.hash != expected:
                problem = (f"audit record {rec.chain}#{rec.seq} was hashed by the database as {rec.hash}, not as its "
                           f"canonical form gives ({expected})")
                if not committed:
                    raise RuntimeError(f"{problem}: refused")
                log.error("%s: written (the verification will report it)", problem)

    def discard(self) -> None:
        self.pending.clear()


def _append(rec: AuditRecord) -> None:
    raw = connection.connection
    if raw not in _prepared:
        info = raw.info
        if info.encoding != "utf-8" or info.parameter_status("server_encoding") != "UTF8":
            raise RuntimeError("the audit trail is hashed as UTF-8: the database and the connection must be UTF8 "
                               f"(the server's encoding is {info.parameter_status('server_encoding')!r})")
        with connection.cursor() as cursor:
            cursor.execute(_prepare_sql(sql.table(AuditRecord), sql.table(ChainHead)))
        _prepared.add(raw)
    deferred = getattr(connection, "deferred_writer", None)
    if deferred is not None:  # casino/dbbackend: with the transaction's next boundary
        deferred("audit", _Appends).add(rec)
        return
    appends = _Appends()  # Django's own backend: now, in a round trip of its own
    appends.add(rec)
    statements, params = appends.take()
    with connection.cursor() as cursor:
        cursor.execute(";\n".join(statements), params)
        appends.taken(cursor.cursor, committed=False)


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
