"""``python manage.py db_setup``: the database roles, then the migrations as the owner, then the service's grants.

PostgreSQL only (the embedded SQLite mode has one file and no roles: ``migrate`` as usual). From the
environment (docs/operations.md, "Database roles"):

* ``DATABASE_URL`` — what the service connects as: its user is the **service** role;
* ``DATABASE_OWNER_URL`` — what migrations connect as: its user is the **owner** role;
* ``DATABASE_ADMIN_URL`` — optional, a role that may create roles and databases (a superuser in CI):
  with it, both roles and the database are created if missing (idempotently), and a database made
  before the roles were is handed to the owner.

Then every migration runs as the owner and the service is granted what it needs on every table
(casino/core/dbroles.py). Run it on every deployment instead of ``migrate``. Exits non-zero with a
sentence if the service role turns out to be a superuser or to own tables.
"""

from __future__ import annotations

from typing import Any

import dj_database_url
import psycopg
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from casino.core import dbroles
from casino.env import env_str


def _conninfo(url: dict[str, Any], dbname: str | None = None) -> dict[str, Any]:
    return {k: v for k, v in {"host": url.get("HOST") or None, "port": url.get("PORT") or None,
                              "user": url.get("USER") or None, "password": url.get("PASSWORD") or None,
                              "dbname": dbname or url.get("NAME")}.items() if v is not None}


class Command(BaseCommand):
    help = "Create the owner and service roles (with DATABASE_ADMIN_URL), migrate as the owner, grant the service."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true",
                            help="only check that DATABASE_URL's role is a least-privileged service role")

    def handle(self, *args: Any, **options: Any) -> None:
        self.verbosity = options["verbosity"]
        service = connections["default"]
        if service.vendor != "postgresql":
            raise CommandError("db_setup is for PostgreSQL; the embedded SQLite mode runs `manage.py migrate`")
        if options["check"]:
            self._check(service)
            return
        owner_url = env_str("DATABASE_OWNER_URL", "")
        if not owner_url:
            raise CommandError("DATABASE_OWNER_URL must name the owner role that runs the migrations "
                               "(docs/operations.md, \"Database roles\")")
        owner: dict[str, Any] = dict(dj_database_url.parse(owner_url))
        svc: dict[str, Any] = dict(service.settings_dict)
        if owner["NAME"] != svc["NAME"]:
            raise CommandError("DATABASE_OWNER_URL and DATABASE_URL must name the same database")
        if owner["USER"] == svc["USER"]:
            raise CommandError("the owner and the service must be two different roles")
        admin_url = env_str("DATABASE_ADMIN_URL", "")
        if admin_url:
            self._roles(dict(dj_database_url.parse(admin_url)), owner, svc)
        self._migrate(owner, svc)
        self._check(service)

    def _roles(self, admin: dict[str, Any], owner: dict[str, Any], svc: dict[str, Any]) -> None:
        with psycopg.connect(**_conninfo(admin), autocommit=True) as conn, conn.cursor() as cursor:
            dbroles.ensure_roles(cursor, owner=owner["USER"], service=svc["USER"], owner_password=owner.get("PASSWORD"),
                                 service_password=svc.get("PASSWORD"))
            created = dbroles.ensure_database(cursor, name=svc["NAME"], owner=owner["USER"])
        if not created:
            with psycopg.connect(**_conninfo(admin, svc["NAME"]), autocommit=True) as conn, conn.cursor() as cursor:
                dbroles.take_ownership(cursor, owner=owner["USER"])
        self.stdout.write(f"roles: owner {owner['USER']}, service {svc['USER']}; database {svc['NAME']} "
                          f"{'created' if created else 'owned by the owner'}")

    def _migrate(self, owner: dict[str, Any], svc: dict[str, Any]) -> None:
        """Every migration on the default connection switched to the owner; then back to the service."""
        default = connections["default"]
        saved = {k: default.settings_dict.get(k) for k in ("USER", "PASSWORD")}
        default.close()
        default.settings_dict.update({"USER": owner["USER"], "PASSWORD": owner.get("PASSWORD") or ""})
        try:
            call_command("migrate", interactive=False, verbosity=max(0, self.verbosity - 1), database="default")
            with default.cursor() as cursor:
                dbroles.grant_service(cursor.cursor, service=svc["USER"], database=svc["NAME"])
        finally:
            default.close()
            default.settings_dict.update(saved)
        self.stdout.write(f"migrated as {owner['USER']}; {svc['USER']} granted")

    def _check(self, service: Any) -> None:
        with service.cursor() as cursor:
            problems = dbroles.role_is_least_privileged(cursor.cursor)
        if problems:
            raise CommandError(f"the service role {service.settings_dict['USER']} is not least-privileged: "
                               + "; ".join(problems))
        self.stdout.write(f"the service role {service.settings_dict['USER']} is least-privileged")
