"""Statements of the dealer's hot path, written once instead of built by the ORM on every request.

A card post runs a handful of statements; built through the ORM, each one costs 1–2 ms of Python
(filter, join and column compilation) before PostgreSQL sees it, several times what PostgreSQL
then spends on it (bench/api.py). The few statements every dealer request runs (the token and its
roles, the table and round locks, the dealer's assignment, the audit chain's head) are written
here once, from the models' own metadata, and their rows come back as ordinary model instances
through ``Model.from_db``. Everything else stays on the ORM.

Only the default database (writes, locks and sign-in never read a replica, casino/dbrouter.py).
Statements must run on SQLite too (the embedded mode), so row locks go through :func:`for_update`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, TypeVar, cast

from django.db import connection
from django.db.models import Model

M = TypeVar("M", bound=Model)


def table(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def columns(model: type[Model], alias: str, names: Sequence[str] | None = None) -> str:
    """The model's columns (or those of the fields ``names``) as ``alias."column", …``, in the order
    :func:`instance` reads them (written out once per model, alias and database kind)."""
    return _columns(model, alias, _key(names), connection.vendor)


@functools.cache
def _columns(model: type[Model], alias: str, names: tuple[str, ...] | None, vendor: str) -> str:
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column)}" for f in _fields(model, names))


def instance(model: type[M], row: Sequence[Any], start: int = 0, names: Sequence[str] | None = None) -> M:
    """The model instance of the columns that :func:`columns` listed, from ``row[start:]``; fields left
    out are deferred (loaded on first access, like ``.only()``). Values pass through the same
    converters the ORM applies (JSON, SQLite's dates and booleans)."""
    key = _key(names)
    attnames = _attnames(model, key)
    values = list(row[start:start + len(attnames)])
    for i, (field, converters) in enumerate(_cached_converters(model, key, connection.vendor)):
        for converter in converters:
            values[i] = converter(values[i], field, connection)
    return model.from_db(connection.alias, attnames, values)


@functools.cache
def _attnames(model: type[Model], names: tuple[str, ...] | None) -> list[str]:
    return [f.attname for f in _fields(model, names)]


@functools.cache
def _cached_converters(model: type[Model], names: tuple[str, ...] | None, vendor: str) -> list[tuple[Any, list[Any]]]:
    out = []
    for field in _fields(model, names):
        col = field.get_col(model._meta.db_table)
        out.append((field, [*connection.ops.get_db_converters(col), *col.get_db_converters(connection)]))
    return out


def width(model: type[Model], names: Sequence[str] | None = None) -> int:
    return len(_attnames(model, _key(names)))


def _key(names: Sequence[str] | None) -> tuple[str, ...] | None:
    """``names`` as the caches' key (a list is not hashable)."""
    return tuple(names) if names is not None else None


def for_update(of: str = "") -> str:
    """The row-lock clause for this database: nothing on SQLite, which locks the whole database
    for a write transaction anyway."""
    if not connection.features.has_select_for_update:
        return ""
    return f" FOR UPDATE OF {of}" if of and connection.features.has_select_for_update_of else " FOR UPDATE"


def moment(value: Any) -> Any:
    """A datetime as a statement parameter (SQLite keeps them as UTC text)."""
    return connection.ops.adapt_datetimefield_value(value)


def fetch_one(sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def fetch_each(statements: Sequence[str], params: Sequence[Any]) -> list[tuple[Any, ...] | None]:
    """The first row of each of ``statements`` (or None), run in order in one round trip to PostgreSQL (one
    query string, its results read one after the other); one statement at a time elsewhere (SQLite takes one
    per call). ``params`` are all the statements' parameters, in order."""
    if connection.vendor != "postgresql":
        rows: list[tuple[Any, ...] | None] = []
        start = 0
        for statement in statements:
            count = statement.count("%s")
            rows.append(fetch_one(statement, params[start:start + count]))
            start += count
        return rows
    with connection.cursor() as cursor:
        cursor.execute(";\n".join(statements), params)
        raw = cursor.cursor  # psycopg's client-side cursor: one result set per statement
        rows = [raw.fetchone()]
        for _ in statements[1:]:
            raw.nextset()
            rows.append(raw.fetchone())
        return rows


def _fields(model: type[Model], names: Sequence[str] | None) -> list[Any]:
    concrete = model._meta.concrete_fields
    if names is None:
        return list(concrete)
    return [f for f in concrete if f.name in names or f.attname in names]


def insert(obj: M) -> M:
    """INSERT one new model instance, as ``obj.save(force_insert=True)`` would, without the ORM's
    statement building: field defaults and ``pre_save`` (auto_now…) applied, values adapted by the
    fields, the new primary key read back. No signals are sent (none of these models has receivers).
    A constraint violation raises Django's IntegrityError, as the ORM's save would."""
    meta = obj._meta
    pk = meta.pk
    assert pk is not None  # every model has one
    fields = [f for f in meta.concrete_fields if not (f is pk and getattr(obj, f.attname) is None)]
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    quote = connection.ops.quote_name
    row = fetch_one(
        f"INSERT INTO {table(type(obj))} ({', '.join(quote(cast(str, f.column)) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(cast(str, pk.column))}",
        values)
    assert row is not None
    setattr(obj, pk.attname, row[0])
    obj._state.adding = False
    obj._state.db = connection.alias
    return obj


def insert_or_nothing(obj: M) -> M | None:
    """INSERT one new model instance as :func:`insert` does, unless a unique index already holds its key:
    then nothing is written, the transaction stays usable (no savepoint is needed) and None is returned."""
    meta = obj._meta
    pk = meta.pk
    assert pk is not None  # every model has one
    fields = [f for f in meta.concrete_fields if not (f is pk and getattr(obj, f.attname) is None)]
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    quote = connection.ops.quote_name
    row = fetch_one(
        f"INSERT INTO {table(type(obj))} ({', '.join(quote(cast(str, f.column)) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}) ON CONFLICT DO NOTHING RETURNING {quote(cast(str, pk.column))}",
        values)
    if row is None:
        return None
    setattr(obj, pk.attname, row[0])
    obj._state.adding = False
    obj._state.db = connection.alias
    return obj


class _Later:
    """Writes to one table that nothing in the transaction reads back, waiting on the connection for the
    transaction's next boundary (casino/dbbackend): they ride in the same round trip as its ``COMMIT``."""

    def __init__(self, table_name: str) -> None:
        self.tables = (table_name,)  # a statement naming the table sends them first
        self.pending: list[tuple[str, list[Any]]] = []
        self.sent = 0

    def __bool__(self) -> bool:
        return bool(self.pending)

    def add(self, statement: str, params: list[Any]) -> None:
        self.pending.append((statement, params))

    def take(self) -> tuple[list[str], list[Any]]:
        taken, self.pending = self.pending, []
        self.sent = len(taken)
        return [statement for statement, _ in taken], [p for _, params in taken for p in params]

    def taken(self, cursor: Any, *, committed: bool) -> None:
        for _ in range(self.sent):
            cursor.nextset()
        self.sent = 0

    def discard(self) -> None:
        self.pending.clear()


def _later(statement: str, params: list[Any], model: type[Model]) -> bool:
    """Queue ``statement`` for the transaction's next boundary where the backend can (True), else nothing."""
    writer = getattr(connection, "deferred_writer", None)
    if writer is None or not connection.in_atomic_block:
        return False
    name = model._meta.db_table
    writer(f"later:{name}", lambda: _Later(name)).add(statement, params)
    return True


def insert_later(obj: M) -> M:
    """INSERT a new model instance as :func:`insert` does, but with the transaction's next boundary (its
    ``COMMIT``, in the same round trip) where the backend defers writes (casino/dbbackend), for a row that
    nothing in the transaction reads back and whose id nobody needs: its ``pk`` stays None. A constraint or
    trigger refusing it fails the commit, which rolls the whole transaction back, as if it had failed here.
    Elsewhere (SQLite, outside a transaction) it is :func:`insert`."""
    meta = obj._meta
    pk = meta.pk
    assert pk is not None  # every model has one
    fields = [f for f in meta.concrete_fields if not (f is pk and getattr(obj, f.attname) is None)]
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    quote = connection.ops.quote_name
    statement = (f"INSERT INTO {table(type(obj))} ({', '.join(quote(cast(str, f.column)) for f in fields)}) "
                 f"VALUES ({', '.join(['%s'] * len(fields))})")
    if not _later(statement, values, type(obj)):
        return insert(obj)
    obj._state.adding = False
    obj._state.db = connection.alias
    return obj


def update_later(model: type[Model], pk: Any, **values: Any) -> None:
    """``model.objects.filter(pk=pk).update(**values)`` of plain fields (no expressions), with the transaction's
    next boundary where the backend defers writes (see :func:`insert_later`), else now. For a row the caller
    holds locked and that nothing later in the transaction reads (a statement naming its table sends the
    update first)."""
    meta = model._meta
    fields = [meta.get_field(name) for name in values]
    quote = connection.ops.quote_name
    params = [f.get_db_prep_save(values[f.name], connection) for f in fields]  # type: ignore[union-attr]
    assert meta.pk is not None
    statement = (f"UPDATE {table(model)} SET {', '.join(f'{quote(cast(str, f.column))} = %s' for f in fields)} "  # type: ignore[union-attr]
                 f"WHERE {quote(cast(str, meta.pk.column))} = %s")
    if not _later(statement, [*params, pk], model):
        model._default_manager.filter(pk=pk).update(**values)


def raw_cursor() -> Any:
    """A cursor of the psycopg connection under Django's, for what Django's cursor cannot do (COPY), after the
    transaction's deferred writes are sent (casino/dbbackend): what it reads includes them."""
    connection.ensure_connection()
    flush = getattr(connection, "flush_deferred", None)
    if flush is not None:
        flush()
    return connection.connection.cursor()
