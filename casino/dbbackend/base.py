"""Django's PostgreSQL backend, with writes deferred to the transaction's next boundary.

Some writes are made in every transaction and read by none of its later statements: the audit record
of a change (casino/audit/services.py), and on a dealer's request the event's row, the round's new state
and the idempotency key (``casino.core.sql.insert_later`` and ``update_later``). Sent when they are made, each costs a
round trip to the server; deferred, they ride in the same query string as the statement that closes
or splits the transaction, so they cost none:

* ``COMMIT``: the writes, then the commit, in one round trip. A write that fails fails the commit,
  and the transaction is rolled back whole, as if it had failed where it was made.
* ``SAVEPOINT`` and ``RELEASE SAVEPOINT``: the writes made so far go in just before, so each write
  belongs to the level of the transaction it was made at (as if it had been sent when made); a
  ``ROLLBACK TO SAVEPOINT`` then discards exactly the writes made since the savepoint (all that are
  pending: the savepoint's own boundaries flushed the rest), and a ``ROLLBACK`` all of them.
* a statement that names a table a writer writes (a read of the audit trail in the same transaction):
  the writes are sent first, on their own, so the transaction reads its own writes as before.

Code that reads those tables through the raw psycopg connection (a COPY) calls
:meth:`DatabaseWrapper.flush_deferred` first (``casino.core.sql.raw_cursor`` does).

A writer is any object with the :class:`DeferredWriter` methods, registered once per connection with
:meth:`DatabaseWrapper.deferred_writer`; this module knows nothing of what they write.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import psycopg
from django.db.backends.postgresql import base
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper


class DeferredWriter(Protocol):
    #: a statement naming one of these reads what the writer has pending: the writes go first
    tables: tuple[str, ...]

    def __bool__(self) -> bool:
        """Whether anything is pending."""

    def take(self) -> tuple[list[str], list[Any]]:
        """The pending statements (``%s`` placeholders) and their parameters, in order; nothing is pending after."""

    def taken(self, cursor: Any, *, committed: bool) -> None:
        """``cursor`` is at the first result of the statements :meth:`take` gave: check them and step past them
        (``cursor.nextset()`` once per statement). ``committed``: the same query string committed the transaction."""

    def discard(self) -> None:
        """Forget what is pending: the transaction, or the savepoint it was made in, was rolled back."""


W = TypeVar("W", bound=DeferredWriter)


class _FlushBeforeReads:
    """A cursor that sends the pending writes before a statement naming one of their tables."""

    db: DatabaseWrapper

    def _execute(self, sql: Any, params: Any, *ignored: Any) -> Any:
        if self.db.deferred_pending and self.db.reads_deferred(sql):
            self.db.flush_deferred()
        answer = super()._execute(sql, params, *ignored)  # type: ignore[misc]
        self.db.answered_at = time.monotonic()
        return answer

    def _executemany(self, sql: Any, param_list: Any, *ignored: Any) -> Any:
        if self.db.deferred_pending and self.db.reads_deferred(sql):
            self.db.flush_deferred()
        return super()._executemany(sql, param_list, *ignored)  # type: ignore[misc]


class Cursor(_FlushBeforeReads, CursorWrapper):
    pass


class DebugCursor(_FlushBeforeReads, base.CursorDebugWrapper):
    pass


#: A kept connection that answered a statement this recently is reused without Django's health check (a
#: ``SELECT 1`` round trip at the start of every request that touches the database); one idle for longer is
#: checked as before. A connection the server dropped inside that window fails its next statement, which closes
#: it (Django marks it unusable), and the request after that connects afresh.
HEALTH_CHECK_AFTER_IDLE_SECONDS = 5.0


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._writers: dict[str, DeferredWriter] = {}
        self._deferred_tables: tuple[str, ...] = ()
        self.answered_at = float("-inf")  # when this connection last answered a statement (time.monotonic)

    def is_usable(self) -> bool:
        """Whether the kept connection can serve: without a round trip when it answered a statement within
        :data:`HEALTH_CHECK_AFTER_IDLE_SECONDS` and psycopg holds it open, idle and unbroken; else Django's check."""
        conn = self.connection
        if (conn is not None and not conn.closed and not conn.broken
                and conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
                and time.monotonic() - self.answered_at < HEALTH_CHECK_AFTER_IDLE_SECONDS):
            return True
        usable = bool(super().is_usable())
        if usable:
            self.answered_at = time.monotonic()
        return usable

    # -- the writers --------------------------------------------------------------------------------

    def deferred_writer(self, name: str, factory: Callable[[], W]) -> W:
        """The connection's writer called ``name``, made by ``factory`` the first time."""
        writer = self._writers.get(name)
        if writer is None:
            writer = self._writers[name] = factory()
            self._deferred_tables = tuple({t for w in self._writers.values() for t in w.tables})
        return writer  # type: ignore[return-value]

    @property
    def deferred_pending(self) -> bool:
        return any(self._writers.values()) if self._writers else False

    def reads_deferred(self, sql: Any) -> bool:
        text = sql if isinstance(sql, str) else str(sql)
        return any(table in text for table in self._deferred_tables)

    def flush_deferred(self, then: str | None = None) -> None:
        """Send the pending writes (and ``then``, a statement without parameters, in the same round trip)."""
        writers = [w for w in self._writers.values() if w]
        if not writers:
            if then is not None:
                with self.cursor() as cursor:
                    cursor.execute(then)
            return
        statements: list[str] = []
        params: list[Any] = []
        for writer in writers:
            sql, args = writer.take()
            statements += sql
            params += args
        if then is not None:
            statements.append(then.replace("%", "%%"))
        text = ";\n".join(statements)
        self.ensure_connection()
        start = time.monotonic()
        with self.wrap_database_errors, psycopg.ClientCursor(self.connection) as raw:
            raw.execute(text, params)
            self.answered_at = time.monotonic()
            committed = then == "COMMIT"
            for writer in writers:
                writer.taken(raw, committed=committed)
            if self.queries_logged:  # as Django's debug cursor logs a statement
                self.queries_log.append({"sql": raw.mogrify(text, params), "time": f"{time.monotonic() - start:.3f}"})

    def _discard_deferred(self) -> None:
        for writer in self._writers.values():
            writer.discard()

    # -- the boundaries they ride on -----------------------------------------------------------------

    def _commit(self) -> None:
        if self.connection is None or not self.deferred_pending:
            return super()._commit()  # type: ignore[misc]  # not in django-stubs
        with self.wrap_database_errors:
            self.flush_deferred(then="COMMIT")  # (logged with the writes, when queries are)
            self.connection.commit()  # already committed: psycopg sees the connection idle and sends nothing
        return None

    def _rollback(self) -> None:
        self._discard_deferred()
        return super()._rollback()  # type: ignore[misc]  # not in django-stubs

    def _savepoint(self, sid: str) -> None:
        if not self.deferred_pending:
            return super()._savepoint(sid)  # type: ignore[misc]  # not in django-stubs
        self.flush_deferred(then=self.ops.savepoint_create_sql(sid))
        return None

    def _savepoint_commit(self, sid: str) -> None:
        if not self.deferred_pending:
            return super()._savepoint_commit(sid)  # type: ignore[misc]  # not in django-stubs
        self.flush_deferred(then=self.ops.savepoint_commit_sql(sid))
        return None

    def _savepoint_rollback(self, sid: str) -> None:
        self._discard_deferred()  # all pending were made since the savepoint or its last inner boundary
        return super()._savepoint_rollback(sid)  # type: ignore[misc]  # not in django-stubs

    def _close(self) -> None:
        self._discard_deferred()
        return super()._close()  # type: ignore[misc]  # not in django-stubs

    def make_cursor(self, cursor: Any) -> CursorWrapper:
        return Cursor(cursor, self)

    def make_debug_cursor(self, cursor: Any) -> CursorDebugWrapper:
        return DebugCursor(cursor, self)

