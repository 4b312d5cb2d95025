"""Two database roles: an **owner** that migrates and a **service** that only reads, inserts and makes the
updates the triggers allow (docs/operations.md, "Database roles").

The owner owns the database, its schema and every table, trigger and function; only it could drop or
disable a guard, and nothing but ``migrate`` ever connects as it. The service (what the web process,
the workers and beat connect as) gets, on every table:

* ``SELECT`` and ``INSERT``;
* ``UPDATE``, except on the append-only tables: there only on ``id``, so that ``SELECT … FOR UPDATE`` can
  lock a row (their triggers refuse every UPDATE anyway: two locks, not one);
* ``DELETE`` only where a row is a session, a token, a sign-in count, a many-to-many link (a pit's
  managers, a user's roles) or plumbing the retention jobs purge once it is spent (an idempotency
  record past its window, an outbox message already sent: casino/idempotency.py, casino/outbox.py),
  never on a record;
* only ``SELECT`` on what the owner alone writes (:data:`OWNER_WRITES`) and on the archived months;
* ``EXECUTE`` on the functions that make monthly partitions, and on every monthly partition the same as on
  its table (the function that makes partitions copies the table's grants: casino/core/partitions.py);
* never ``TRUNCATE``, ``REFERENCES`` or ``TRIGGER``, and nothing it could own or alter. Not being a
  superuser, it cannot set ``session_replication_role`` either.

:func:`ensure_roles` needs a connection with ``CREATEROLE`` (a superuser in CI); :func:`grant_service`
runs as the owner, after every migration (the ``db_setup`` command, the test suite's database).
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from psycopg import sql

# Rows that are not records: deleting them is how they end (sign-out, revocation, a cleared count, an unlink,
# the retention jobs' purge of spent idempotency records and sent outbox messages).
EPHEMERAL = ("django_session", "authtoken_token", "core_loginthrottle", "core_idempotencyrecord", "core_outbox")
# Rows only the owner writes: each audit chain's head (moved by a trigger that runs as the owner) and the
# archive's manifests (written by ``archive_month``, which connects as the owner). The service reads them.
OWNER_WRITES = ("audit_chainhead", "audit_auditarchive", "core_privilegedchange")
ARCHIVE_SCHEMA = "croupier_archive"  # archived months' partitions (casino/core/partitions.py): read-only to the service


def _identifier(name: str) -> sql.Identifier:
    return sql.Identifier(name)


def ensure_roles(cursor: Any, *, owner: str, service: str, owner_password: str | None = None,
                 service_password: str | None = None, owner_createdb: bool = False) -> None:
    """Create the two roles if they are missing (idempotent, and safe when two processes race to do it);
    set their passwords when given. ``cursor``: a connection that may create roles, in autocommit."""
    # two processes setting up at once (the test suite's workers) take turns: ALTER ROLE on one role at the
    # same moment fails with "tuple concurrently updated"
    cursor.execute("SELECT pg_advisory_lock(hashtext('croupier.db_roles'))")
    try:
        _ensure_roles(cursor, owner=owner, service=service, owner_password=owner_password,
                      service_password=service_password, owner_createdb=owner_createdb)
    finally:
        cursor.execute("SELECT pg_advisory_unlock(hashtext('croupier.db_roles'))")


def _ensure_roles(cursor: Any, *, owner: str, service: str, owner_password: str | None,
                  service_password: str | None, owner_createdb: bool) -> None:
    # the owner inherits (it acts as pg_database_owner of its database); the service inherits nothing
    for role, password, extra in ((owner, owner_password, "INHERIT " + ("CREATEDB" if owner_createdb else "NOCREATEDB")),
                                  (service, service_password, "NOINHERIT NOCREATEDB")):
        cursor.execute(sql.SQL(
            "DO $$ BEGIN CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEROLE NOREPLICATION NOBYPASSRLS " + extra
            + "; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$;").format(_identifier(role)))
        cursor.execute(sql.SQL("ALTER ROLE {} NOSUPERUSER NOCREATEROLE NOREPLICATION NOBYPASSRLS " + extra)
                       .format(_identifier(role)))
        if password:
            cursor.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(_identifier(role), sql.Literal(password)))


def ensure_database(cursor: Any, *, name: str, owner: str) -> bool:
    """Create the database owned by ``owner`` if it is missing (True if created), else hand it and everything
    in its public schema to ``owner`` (a database created before the roles were). ``cursor``: a superuser's
    connection to another database, in autocommit."""
    cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
    if cursor.fetchone() is None:
        cursor.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(_identifier(name), _identifier(owner)))
        return True
    cursor.execute(sql.SQL("ALTER DATABASE {} OWNER TO {}").format(_identifier(name), _identifier(owner)))
    return False


def take_ownership(cursor: Any, *, owner: str) -> None:
    """Make ``owner`` own the schema and every table, sequence, view and function in it (as a superuser,
    connected to the database)."""
    cursor.execute(sql.SQL("ALTER SCHEMA public OWNER TO {}").format(_identifier(owner)))
    cursor.execute("""SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'S', 'v', 'm')""")
    kinds = {"r": "TABLE", "p": "TABLE", "S": "SEQUENCE", "v": "VIEW", "m": "MATERIALIZED VIEW"}
    for name, kind in cursor.fetchall():
        cursor.execute(sql.SQL("ALTER {} {} OWNER TO {}").format(sql.SQL(kinds[kind]), _identifier(name),
                                                                 _identifier(owner)))
    cursor.execute("""SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                      WHERE n.nspname = 'public'""")
    for (signature,) in cursor.fetchall():
        cursor.execute(sql.SQL("ALTER FUNCTION {} OWNER TO {}").format(sql.SQL(signature), _identifier(owner)))


def many_to_many_tables() -> set[str]:
    """The join tables Django makes for many-to-many fields (a pit's managers, a user's groups…)."""
    return {through._meta.db_table
            for model in apps.get_models() for field in model._meta.local_many_to_many
            if (through := field.remote_field.through) is not None and through._meta.auto_created}


def append_only_tables(cursor: Any) -> set[str]:
    """Tables whose rows are never updated (an ``…_append_only_row`` trigger guards them)."""
    cursor.execute("""SELECT DISTINCT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
                      JOIN pg_namespace n ON n.oid = c.relnamespace
                      WHERE n.nspname = 'public' AND t.tgname LIKE '%\\_append\\_only\\_row'""")
    return {row[0] for row in cursor.fetchall()}


def grant_service(cursor: Any, *, service: str, database: str) -> None:
    """Give ``service`` exactly what the service needs on every table (see the module's docstring). Run as the
    owner after every migration: new tables get their grants too. Idempotent."""
    role = _identifier(service)
    cursor.execute(sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(_identifier(database), role))
    cursor.execute(sql.SQL("GRANT USAGE ON SCHEMA public TO {}").format(role))
    cursor.execute(sql.SQL("REVOKE CREATE ON SCHEMA public FROM {}").format(role))
    cursor.execute(sql.SQL("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {}").format(role))
    cursor.execute(sql.SQL("GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA public TO {}").format(role))
    cursor.execute(sql.SQL("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {}").format(role))
    cursor.execute("""SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')""")
    tables = {row[0] for row in cursor.fetchall()}
    sealed = append_only_tables(cursor)
    for table in sorted(tables - sealed - {"django_migrations"}):
        cursor.execute(sql.SQL("GRANT UPDATE ON {} TO {}").format(_identifier(table), role))
    for table in sorted(sealed):
        # SELECT … FOR UPDATE (a lock, not a change) needs UPDATE on one column: the id, which the trigger
        # refuses to change like every other column
        cursor.execute(sql.SQL("GRANT UPDATE (id) ON {} TO {}").format(_identifier(table), role))
    for table in sorted(tables & (set(EPHEMERAL) | many_to_many_tables())):
        cursor.execute(sql.SQL("GRANT DELETE ON {} TO {}").format(_identifier(table), role))
    for table in sorted(tables & set(OWNER_WRITES)):
        cursor.execute(sql.SQL("REVOKE INSERT, UPDATE ON {} FROM {}").format(_identifier(table), role))
    # the owner's functions that make monthly partitions (the maintenance job runs them as the service)
    cursor.execute("""SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                      WHERE n.nspname = 'public' AND p.proname LIKE '%\\_add\\_month' AND p.prosecdef""")
    for (function,) in cursor.fetchall():
        cursor.execute(sql.SQL("GRANT EXECUTE ON FUNCTION {} TO {}").format(sql.SQL(function), role))
    cursor.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", [ARCHIVE_SCHEMA])
    if cursor.fetchone():  # archived months: read, never written (reports and audits over them)
        schema = _identifier(ARCHIVE_SCHEMA)
        cursor.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(schema, role))
        cursor.execute(sql.SQL("REVOKE ALL ON ALL TABLES IN SCHEMA {} FROM {}").format(schema, role))
        cursor.execute(sql.SQL("GRANT SELECT ON ALL TABLES IN SCHEMA {} TO {}").format(schema, role))


def role_is_least_privileged(cursor: Any) -> list[str]:
    """What is wrong with the role this connection uses, for a service: [] when nothing is."""
    problems = []
    cursor.execute("SELECT rolsuper, rolbypassrls, rolcreaterole FROM pg_roles WHERE rolname = current_user")
    superuser, bypass, createrole = cursor.fetchone()
    if superuser:
        problems.append("it is a superuser")
    if bypass or createrole:
        problems.append("it may bypass row security or create roles")
    cursor.execute("""SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                      WHERE n.nspname = 'public' AND pg_get_userbyid(c.relowner) = current_user""")
    if cursor.fetchone()[0]:
        problems.append("it owns tables (it could disable their triggers)")
    return problems
