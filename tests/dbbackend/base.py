from __future__ import annotations

import hashlib
import importlib.util
import re
from pathlib import Path
from typing import Any

import psycopg
from django.conf import settings
from django.core.management import call_command
from django.db.backends.postgresql import creation, operations

from casino.core import dbroles
from casino.dbbackend import base as croupier


def privileged_conninfo(settings_dict: dict[str, Any], dbname: str) -> dict[str, Any]:
    """The privileged role's connection (the one settings name before the suite switches to the service)."""
    admin = settings_dict["TEST"]["PRIVILEGED"]
    return {k: v for k, v in {"host": settings_dict.get("HOST") or None, "port": settings_dict.get("PORT") or None,
                              "user": admin["USER"], "password": admin.get("PASSWORD") or None,
                              "dbname": dbname}.items() if v is not None}


def template_name(test_database: str) -> str:
    """The template the test databases of a run are copied from: one per suite, whatever the xdist worker."""
    return re.sub(r"_gw\d+$", "", test_database) + "_template"


FIRST_PARTY = re.compile(r"\b(?:from|import)\s+((?:casino|tables|accounting|players|cardroom|slots|floor)(?:\.\w+)*)")


def schema_digest() -> str:
    """What the template is built from, as one digest: every installed app's migrations (Django's own
    included), the first-party modules or packages they import (the triggers' SQL, partitions: a package
    counts whole), the roles' grants and this file. A template marked with the same digest is the one these
    would build, so a later run copies it without migrating (within a run it is the same, whatever the worker)."""
    from django.apps import apps

    files = {Path(__file__).resolve(), Path(dbroles.__file__).resolve()}
    migrations = {path for app in apps.get_app_configs() for path in (Path(app.path) / "migrations").glob("*.py")}
    for path in migrations:
        for module in FIRST_PARTY.findall(path.read_text()):
            spec = importlib.util.find_spec(module)
            if spec is None or spec.origin is None:
                continue
            origin = Path(spec.origin).resolve()
            files.update(origin.parent.glob("*.py") if origin.name == "__init__.py" else [origin])
    digest = hashlib.sha256()
    for path in sorted(files | migrations):
        digest.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def owner_conninfo(settings_dict: dict[str, Any], dbname: str) -> dict[str, Any]:
    return {**privileged_conninfo(settings_dict, dbname), "user": settings_dict["TEST"]["OWNER"]}


class DatabaseCreation(creation.DatabaseCreation):
    def create_test_db(self, verbosity: int = 1, autoclobber: bool = False, serialize: bool = True,
                       keepdb: bool = False) -> str:
        sd = self.connection.settings_dict
        test = sd["TEST"]
        test.setdefault("PRIVILEGED", {"USER": sd["USER"], "PASSWORD": sd.get("PASSWORD")})
        owner, service = test["OWNER"], test["SERVICE"]
        name = self._get_test_db_name()
        template = template_name(name)
        built_from = schema_digest()
        self.connection.close()
        with psycopg.connect(**privileged_conninfo(sd, "postgres"), autocommit=True) as conn, conn.cursor() as cur:
            dbroles.ensure_roles(cur, owner=owner, service=service)
            # one worker builds the run's template while the others wait, then each copies it
            cur.execute("SELECT pg_advisory_lock(hashtext(%s))", [template])
            try:
                cur.execute("SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
                            [template])
                built = cur.fetchone()
                if built is None or built[0] != built_from:
                    cur.execute(f'DROP DATABASE IF EXISTS "{template}" WITH (FORCE)')
                    cur.execute(f'CREATE DATABASE "{template}" OWNER "{owner}"')
                    cur.execute(f'ALTER DATABASE "{template}" SET synchronous_commit = off')
                    self._migrate(template, owner=owner, service=service, verbosity=verbosity)
                    cur.execute(f"COMMENT ON DATABASE \"{template}\" IS '{built_from}'")
                cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                cur.execute(f'CREATE DATABASE "{name}" OWNER "{owner}" TEMPLATE "{template}"')
                # A test database is thrown away after the run: its commits need not wait for the disk (a commit
                # still commits, visible to every session at once; only a crash of the server could lose the last
                # few). Transactional tests, the live server and the job workers commit thousands of times.
                cur.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
            finally:
                cur.execute("SELECT pg_advisory_unlock(hashtext(%s))", [template])
        # the copy has the template's tables, rows and grants; CONNECT is granted per database
        settings.DATABASES[self.connection.alias]["NAME"] = sd["NAME"] = name
        settings.DATABASES[self.connection.alias]["USER"] = sd["USER"] = owner
        sd["PASSWORD"] = ""
        with self.connection.cursor() as cursor:
            cursor.execute(f'GRANT CONNECT ON DATABASE "{name}" TO "{service}"')
        if serialize:
            self.connection._test_serialized_contents = self.serialize_db_to_string()
        self.connection.close()
        # every test from here on: the service
        settings.DATABASES[self.connection.alias]["USER"] = sd["USER"] = service
        self.connection.ensure_connection()
        return name

    def _migrate(self, database: str, *, owner: str, service: str, verbosity: int) -> None:
        """The migrations into ``database`` as the owner, then the service's grants; the connection closed after."""
        sd = self.connection.settings_dict
        settings.DATABASES[self.connection.alias]["NAME"] = sd["NAME"] = database
        settings.DATABASES[self.connection.alias]["USER"] = sd["USER"] = owner
        sd["PASSWORD"] = ""
        try:
            call_command("migrate", verbosity=max(verbosity - 1, 0), interactive=False,
                         database=self.connection.alias, run_syncdb=True)
            with self.connection.cursor() as cursor:
                dbroles.grant_service(cursor.cursor, service=service, database=database)
        finally:
            self.connection.close()

    def _destroy_test_db(self, test_database_name: str, verbosity: int) -> None:
        sd = self.connection.settings_dict
        with psycopg.connect(**privileged_conninfo(sd, "postgres"), autocommit=True) as conn, conn.cursor() as cur:
            cur.execute(f'DROP DATABASE IF EXISTS "{test_database_name}" WITH (FORCE)')
        privileged = sd["TEST"]["PRIVILEGED"]
        settings.DATABASES[self.connection.alias]["USER"] = sd["USER"] = privileged["USER"]
        sd["PASSWORD"] = privileged.get("PASSWORD") or ""


class DatabaseOperations(operations.DatabaseOperations):
    def execute_sql_flush(self, sql_list: list[str]) -> None:
        """Empty the tables as the privileged role, in its own session where no trigger fires: the service
        cannot TRUNCATE, and the append-only triggers refuse it to everyone else."""
        sd = self.connection.settings_dict
        statements = [deleting(statement) or statement for statement in sql_list]
        with psycopg.connect(**privileged_conninfo(sd, sd["NAME"]), autocommit=False) as conn, conn.cursor() as cur:
            cur.execute("SET session_replication_role = replica")
            for statement in statements:
                cur.execute(statement)
            conn.commit()


TRUNCATE = re.compile(r'TRUNCATE ((?:"[^"]+"(?:, )?)+)( CASCADE)?;')


def deleting(statement: str) -> str | None:
    """Django's ``TRUNCATE "a", "b";`` as ``DELETE FROM "a"; DELETE FROM "b";`` (one round trip), or None for
    anything else (``RESTART IDENTITY``: sequences reset, which only TRUNCATE does). Without triggers
    (``session_replication_role = replica``) no foreign key is checked, so the order does not matter and
    CASCADE adds nothing: every table named is emptied."""
    match = TRUNCATE.fullmatch(statement.strip())
    if match is None:
        return None
    return " ".join(f"DELETE FROM {table};" for table in re.findall(r'"[^"]+"', match.group(1)))


class DatabaseWrapper(croupier.DatabaseWrapper):
    creation_class = DatabaseCreation
    ops_class = DatabaseOperations
