from __future__ import annotations

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
        self.connection.close()
        with psycopg.connect(**privileged_conninfo(sd, "postgres"), autocommit=True) as conn, conn.cursor() as cur:
            dbroles.ensure_roles(cur, owner=owner, service=service)
            cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            cur.execute(f'CREATE DATABASE "{name}" OWNER "{owner}"')
        # the migrations as the owner, then the service's grants
        settings.DATABASES[self.connection.alias]["NAME"] = sd["NAME"] = name
        settings.DATABASES[self.connection.alias]["USER"] = sd["USER"] = owner
        sd["PASSWORD"] = ""
        call_command("migrate", verbosity=max(verbosity - 1, 0), interactive=False, database=self.connection.alias,
                     run_syncdb=True)
        with self.connection.cursor() as cursor:
            dbroles.grant_service(cursor.cursor, service=service, database=name)
        if serialize:
            self.connection._test_serialized_contents = self.serialize_db_to_string()
        self.connection.close()
        # every test from here on: the service
        settings.DATABASES[self.connection.alias]["USER"] = sd["USER"] = service
        self.connection.ensure_connection()
        return name

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
        with psycopg.connect(**privileged_conninfo(sd, sd["NAME"]), autocommit=False) as conn, conn.cursor() as cur:
            cur.execute("SET session_replication_role = replica")
            for statement in sql_list:
                cur.execute(statement)
            conn.commit()


class DatabaseWrapper(croupier.DatabaseWrapper):
    creation_class = DatabaseCreation
    ops_class = DatabaseOperations
