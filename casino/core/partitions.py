"""Monthly range partitions of the append-only tables (PostgreSQL only; docs/scaling.md, "Partitioning").

A partitioned table here is split by calendar month of one timestamp column, in the casino's time
zone (``TIME_ZONE``): ``audit_auditrecord_2026_10`` holds October's records. Every partition is made
by one SQL function per table, ``<table>_add_month(month date, tz text)``, written by
:func:`add_month_function_sql` in the migration that partitions the table. It runs as the tables'
owner (``SECURITY DEFINER``) so that the service role, which may create nothing, can still make next
month's partition from the maintenance job; and it is the only way a partition is made, so every
partition gets the same things:

* the row triggers of the parent (PostgreSQL clones them: the append-only trigger, the chain's head),
* a TRUNCATE trigger of its own (statement triggers are not cloned, and a TRUNCATE of the partition
  itself would not fire the parent's),
* the per-partition unique indexes the table needs (a unique index of a partitioned table must hold the
  partition key, so "unique per month" is what an index can say; what makes it unique across months is
  the table's own business: the audit chain's head row, casino/audit/models.py ``ChainHead``),
* the parent's grants, table and column ones (the service's SELECT, INSERT and UPDATE (id)).

SQLite (the embedded mode) keeps plain tables; nothing here runs there.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings

ARCHIVE_SCHEMA = "croupier_archive"  # where archived months' partitions are kept (casino/audit/archive.py)
_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class Partitioned:
    """A table partitioned by month: its name, its partition key, what its rows are called (in refusals), and
    the column lists each partition makes unique."""

    table: str
    key: str
    what: str
    uniques: tuple[tuple[str, ...], ...] = ()

    def __post_init__(self) -> None:
        for name in (self.table, self.key, *(c for cols in self.uniques for c in cols)):
            if not _NAME.match(name):
                raise ValueError(f"not a plain SQL name: {name!r}")


def month_start(value: dt.date | dt.datetime | str) -> dt.date:
    """The first day of the month ``value`` falls in (a ``YYYY-MM`` text, a date, or a time in the casino's
    time zone)."""
    if isinstance(value, str):
        if not re.fullmatch(r"\d{4}-\d{2}", value):
            raise ValueError(f"a month is written YYYY-MM, not {value!r}")
        year, month = (int(part) for part in value.split("-"))
        if not 1 <= month <= 12:
            raise ValueError(f"there is no month {month}")
        return dt.date(year, month, 1)
    if isinstance(value, dt.datetime):
        value = value.astimezone(zone()).date() if value.tzinfo else value.date()
    return value.replace(day=1)


def next_month(month: dt.date) -> dt.date:
    return dt.date(month.year + month.month // 12, month.month % 12 + 1, 1)


def zone() -> ZoneInfo:
    return ZoneInfo(settings.TIME_ZONE or "UTC")


def month_bounds(month: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """The month's first moment and the next month's, in the casino's time zone."""
    tz = zone()
    start = month_start(month)
    return dt.datetime.combine(start, dt.time(), tz), dt.datetime.combine(next_month(start), dt.time(), tz)


def partition_name(table: str, month: dt.date) -> str:
    return f"{table}_{month.year:04d}_{month.month:02d}"


def months(first: dt.date, last: dt.date) -> list[dt.date]:
    out, month = [], month_start(first)
    while month <= month_start(last):
        out.append(month)
        month = next_month(month)
    return out


def add_month_function_sql(spec: Partitioned) -> list[str]:
    """The owner's function that makes one month's partition of ``spec.table`` (idempotent: an existing one,
    attached or archived, is left alone) and returns whether it made it."""
    t = spec.table
    uniques = "\n".join(
        f"    EXECUTE format('CREATE UNIQUE INDEX %I ON %I ({', '.join(cols)})', part || '_{'_'.join(cols)}_uniq', part);"
        for cols in spec.uniques)
    return [f"""
CREATE OR REPLACE FUNCTION {t}_add_month(month date, tz text) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  first date := date_trunc('month', month)::date;
  part text := '{t}_' || to_char(first, 'YYYY_MM');
  grant_row record;
BEGIN
  IF to_regclass('public.' || quote_ident(part)) IS NOT NULL
     OR to_regclass('{ARCHIVE_SCHEMA}.' || quote_ident(part)) IS NOT NULL THEN
    RETURN false;  -- there already, or archived (restore_month brings it back)
  END IF;
  EXECUTE format('CREATE TABLE %I PARTITION OF {t} FOR VALUES FROM (%L) TO (%L)', part,
                 (first::timestamp AT TIME ZONE tz), ((first + interval '1 month')::timestamp AT TIME ZONE tz));
{uniques}
  -- statement triggers are not cloned to partitions: TRUNCATE of the partition itself is refused here
  EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION {t}_append_only_truncate()',
                 part || '_truncate', part);
  -- the parent's grants (the service's SELECT and INSERT), then its column grants (UPDATE (id) for row locks)
  FOR grant_row IN
    SELECT a.privilege_type AS privilege, a.grantee::regrole::text AS grantee
      FROM pg_class c, aclexplode(c.relacl) a
     WHERE c.oid = '{t}'::regclass AND a.grantee <> 0 AND a.grantee <> c.relowner
  LOOP
    EXECUTE format('GRANT %s ON %I TO %s', grant_row.privilege, part, grant_row.grantee);
  END LOOP;
  FOR grant_row IN
    SELECT att.attname AS col, a.privilege_type AS privilege, a.grantee::regrole::text AS grantee
      FROM pg_attribute att, aclexplode(att.attacl) a
     WHERE att.attrelid = '{t}'::regclass AND att.attacl IS NOT NULL AND a.grantee <> 0
  LOOP
    EXECUTE format('GRANT %s (%I) ON %I TO %s', grant_row.privilege, grant_row.col, part, grant_row.grantee);
  END LOOP;
  RETURN true;
END $$;""",
            # the service runs the maintenance job: it may call this function, nothing else of the owner's
            f"REVOKE ALL ON FUNCTION {t}_add_month(date, text) FROM PUBLIC;"]


def drop_add_month_function_sql(spec: Partitioned) -> list[str]:
    return [f"DROP FUNCTION IF EXISTS {spec.table}_add_month(date, text);"]


def add_months(cursor: Any, spec: Partitioned, wanted: Sequence[dt.date]) -> list[str]:
    """Make the partitions of the ``wanted`` months that are missing; the names of those made."""
    made = []
    tz = settings.TIME_ZONE or "UTC"
    for month in wanted:
        cursor.execute(f"SELECT {spec.table}_add_month(%s, %s)", [month_start(month), tz])
        if cursor.fetchone()[0]:
            made.append(partition_name(spec.table, month))
    return made


def attached(cursor: Any, table: str) -> list[str]:
    """The partitions attached to ``table``, oldest first."""
    cursor.execute("""SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                      WHERE i.inhparent = %s::regclass ORDER BY c.relname""", [table])
    return [row[0] for row in cursor.fetchall()]


def is_partitioned(cursor: Any, table: str) -> bool:
    cursor.execute("SELECT relkind = 'p' FROM pg_class WHERE oid = to_regclass(%s)", [f"public.{table}"])
    row = cursor.fetchone()
    return bool(row and row[0])
