"""Archiving closed months of audit records, verifying them where they are kept, and restoring them.

PostgreSQL only (the records are partitioned by month there, casino/core/partitions.py). Archiving month M
detaches its partition from ``audit_auditrecord`` and moves it, unchanged, into the ``croupier_archive``
schema of the same database, sealed (no INSERT, UPDATE, DELETE or TRUNCATE) and read-only to the service.
The month's manifest (an ``AuditArchive`` row, also the archived table's comment) records how many records
it holds, a SHA-256 over their hashes in (chain, seq) order, each chain's head before the month
(``starts``) and at its end (``heads``), signed with the checkpoint key; each chain's head at the month's
end is also signed as an ordinary checkpoint. The live chains then begin after those heads (boundary.py),
so verification of the live table continues from the archive exactly as it would from a checkpoint, and the
archived month is verified on its own from its ``starts``.

Months leave oldest first and come back newest first: then the live table always holds one unbroken stretch
of every chain, beginning at the latest archived month's ``heads``.

Everything here changes tables, so it runs as the tables' owner (``manage.py archive_month`` and
``restore_month`` connect with ``DATABASE_OWNER_URL``), never as the service.
"""

from __future__ import annotations

import datetime as dt
import getpass
import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext
from psycopg import sql

from casino.audit import boundary
from casino.audit.chain import Anchor, Break, walk
from casino.audit.models import ArchiveKind, AuditArchive, AuditCheckpoint, AuditRecord
from casino.audit.record import FIELDS, PG_CREATED_AT
from casino.audit.services import audit_log
from casino.audit.signing import checkpoint_key, key_id, sign, signature_valid
from casino.audit.verification import anchors_write, checkpoint_entry
from casino.core import partitions
from casino.errors import Conflict, InvalidInput

RECORDS = AuditRecord._meta.db_table
# DETACH and ATTACH lock the records' table exclusively for a moment; while a long read (a verification) holds it,
# they wait at most this long and fail (run the command again) instead of queueing every audited write behind them.
LOCK_TIMEOUT = "5s"
SCHEMA = partitions.ARCHIVE_SCHEMA
_COLUMNS = ", ".join(PG_CREATED_AT if f == "created_at" else f"{f}::text" if f in ("before", "after") else f
                     for f in FIELDS)

# What else must be true of a month before it leaves the live table, said by the areas above (tables: every
# shift that began in it is closed). Each takes the month's first and next month's first moment and returns
# what is wrong, in a sentence each.
MonthCheck = Callable[[dt.datetime, dt.datetime], list[str]]
_month_checks: list[MonthCheck] = []


def register_month_check(check: MonthCheck) -> MonthCheck:
    if check not in _month_checks:
        _month_checks.append(check)
    return check


@dataclass
class ArchiveReport:
    """What a verification of an archived month found (``ok`` when nothing)."""

    month: dt.date
    records: int = 0
    chains: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _require_postgresql() -> None:
    if connection.vendor != "postgresql":
        raise Conflict(gettext("archiving months needs PostgreSQL: the embedded SQLite mode keeps one plain table"),
                       code="archive_needs_postgresql")


def _require_owner(cursor: Any) -> None:
    cursor.execute("SELECT pg_has_role(current_user, relowner, 'USAGE') FROM pg_class WHERE oid = %s::regclass",
                   [RECORDS])
    if not cursor.fetchone()[0]:
        raise Conflict(gettext("archiving and restoring months change tables: run them as the tables' owner "
                               "(DATABASE_OWNER_URL), not as the service"), code="archive_needs_owner")


def _exists(cursor: Any, schema: str, table: str) -> bool:
    cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [f"{schema}.{table}"])
    return bool(cursor.fetchone()[0])


def _rows(cursor: Any, qualified: sql.Composable) -> Iterator[tuple[Any, ...]]:
    """The table's records in (chain, seq) order, as the walk reads them (server-side cursor)."""
    query = sql.SQL("SELECT " + _COLUMNS + " FROM {} ORDER BY chain, seq").format(qualified)  # noqa: S608
    with cursor.connection.cursor(name=f"archive_walk_{id(cursor)}") as named:
        named.execute(query)
        while batch := named.fetchmany(10_000):
            yield from batch


def _anchors() -> dict[str, dict[int, list[Anchor]]]:
    """The stored checkpoints whose signatures hold, by chain and seq."""
    key = checkpoint_key()
    kid = key_id(key)
    out: dict[str, dict[int, list[Anchor]]] = {}
    for pk, chain, seq, digest, at, k, signature in AuditCheckpoint.objects.values_list(
            "id", "chain", "seq", "record_hash", "created_at", "key_id", "signature"):
        if k == kid and signature_valid(chain, seq, digest, at, signature, key=key):
            out.setdefault(chain, {}).setdefault(seq, []).append(Anchor(seq, digest, f"checkpoint #{pk}"))
    return out


def _walk_table(cursor: Any, qualified: sql.Composable, starts: dict[str, tuple[int, str]]
                ) -> tuple[int, dict[str, tuple[int, str]], str, list[Break]]:
    """Walk a month's table: its record count, each chain's last (seq, hash), the checksum, the breaks."""
    digest = hashlib.sha256()

    def rows() -> Iterator[tuple[Any, ...]]:
        for row in _rows(cursor, qualified):
            digest.update(f"{row[1]}\t{row[2]}\t{row[-2]}\n".encode())  # chain, seq, hash
            yield row

    result = walk(rows(), anchors=_anchors(), starts=starts, json_text=True)
    # a chain's anchors above this month belong to later months: only what lies inside it is held here
    breaks = [b for b in result.breaks if b.reason not in ("truncated", "chain_missing")]
    return result.records, result.heads, digest.hexdigest(), breaks


def parse_month(value: str | dt.date) -> dt.date:
    try:
        return partitions.month_start(value)
    except ValueError as exc:
        raise InvalidInput(str(exc), code="bad_month") from None


def month_problems(month: dt.date) -> list[str]:
    """Why ``month`` cannot be archived now (nothing when it can)."""
    _require_postgresql()
    start, end = partitions.month_bounds(month)
    part = partitions.partition_name(RECORDS, month)
    problems = []
    if timezone.now() < end:
        problems.append(f"{month:%Y-%m} is not over yet: a month is archived once it has ended")
    with connection.cursor() as cursor:
        if _exists(cursor, SCHEMA, part):
            problems.append(f"{month:%Y-%m} is archived already")
            return problems
        if not _exists(cursor, "public", part):
            problems.append(f"{month:%Y-%m} has no partition of audit records to archive")
            return problems
        older = [p for p in partitions.attached(cursor, RECORDS) if p < part]
        for name in older:
            cursor.execute(sql.SQL("SELECT EXISTS (SELECT 1 FROM {})").format(sql.Identifier(name)))
            if cursor.fetchone()[0]:
                problems.append(f"an older month ({name.removeprefix(RECORDS + '_').replace('_', '-')}) is still "
                                f"in the live table: months are archived oldest first")
                break
    for check in _month_checks:
        problems += check(start, end)
    return problems


def _seal_sql(qualified: sql.Composable) -> list[sql.Composable]:
    """An archived month takes no new, changed or removed record, from anyone but the owner dropping it."""
    return [
        sql.SQL("CREATE TRIGGER archived_sealed BEFORE INSERT OR UPDATE OR DELETE ON {} FOR EACH ROW "
                "EXECUTE FUNCTION {}.archived_sealed()").format(qualified, sql.Identifier(SCHEMA)),
    ]


def _ensure_schema(cursor: Any) -> None:
    cursor.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(SCHEMA)))
    cursor.execute(sql.SQL("""CREATE OR REPLACE FUNCTION {}.archived_sealed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION 'archived months are closed: % refused on %', TG_OP, TG_TABLE_NAME
            USING ERRCODE = 'integrity_constraint_violation';
        END $$""").format(sql.Identifier(SCHEMA)))


def _grantees(cursor: Any, qualified: str) -> list[str]:
    cursor.execute("""SELECT DISTINCT a.grantee::regrole::text FROM pg_class c, aclexplode(c.relacl) a
                      WHERE c.oid = %s::regclass AND a.grantee <> 0 AND a.grantee <> c.relowner""", [qualified])
    return [row[0] for row in cursor.fetchall()]


def _sign_heads(heads: dict[str, tuple[int, str]]) -> list[AuditCheckpoint]:
    """A signed checkpoint at each chain's head at the month's end, unless one at or after it exists."""
    key = checkpoint_key()
    kid = key_id(key)
    made = []
    for chain, (seq, digest) in sorted(heads.items()):
        if AuditCheckpoint.objects.filter(chain=chain, seq__gte=seq).exists():
            continue
        now = timezone.now()
        made.append(AuditCheckpoint.objects.create(chain=chain, seq=seq, record_hash=digest, created_at=now,
                                                   key_id=kid, signature=sign(chain, seq, digest, now, key=key)))
    return made


def archive_month(month: str | dt.date, *, by: str = "") -> AuditArchive:
    """Take a closed month's audit records out of the live table into the archive schema (see the module)."""
    month = parse_month(month)
    problems = month_problems(month)
    if problems:
        raise Conflict(gettext("%(month)s cannot be archived: %(problems)s")
                       % {"month": f"{month:%Y-%m}", "problems": "; ".join(problems)}, code="month_not_archivable")
    part = partitions.partition_name(RECORDS, month)
    previous = boundary.latest_archive()
    if previous is not None and not boundary.manifest_valid(previous):
        raise Conflict(gettext("the manifest of %(month)s does not carry a valid signature: verify the archive before "
                               "archiving more") % {"month": f"{previous.month:%Y-%m}"}, code="archive_manifest_invalid")
    starts = {c: (int(s), str(h)) for c, (s, h) in (previous.heads if previous else {}).items()}
    with transaction.atomic(), connection.cursor() as cursor:
        _require_owner(cursor)
        records, month_heads, checksum, breaks = _walk_table(cursor, sql.Identifier(part), starts)
        if breaks:
            raise Conflict(gettext("%(month)s cannot be archived: its chains are broken (%(problem)s); a broken month "
                                   "stays where verification reports it")
                           % {"month": f"{month:%Y-%m}", "problem": breaks[0].message}, code="month_chain_broken")
        heads = {**starts, **month_heads}
        made = _sign_heads(month_heads)
        _ensure_schema(cursor)
        grantees = _grantees(cursor, part)
        qualified = sql.Identifier(SCHEMA, part)
        cursor.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")  # never queue the floor's writes behind us
        cursor.execute(sql.SQL("ALTER TABLE {} DETACH PARTITION {}").format(sql.Identifier(RECORDS),
                                                                            sql.Identifier(part)))
        cursor.execute(sql.SQL("ALTER TABLE {} SET SCHEMA {}").format(sql.Identifier(part), sql.Identifier(SCHEMA)))
        for statement in _seal_sql(qualified):
            cursor.execute(statement)
        for grantee in grantees:  # the service reads an archived month, never writes it
            cursor.execute(sql.SQL("REVOKE ALL ON {} FROM {}").format(qualified, sql.SQL(grantee)))
            cursor.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(sql.Identifier(SCHEMA), sql.SQL(grantee)))
            cursor.execute(sql.SQL("GRANT SELECT ON {} TO {}").format(qualified, sql.SQL(grantee)))
        key = checkpoint_key()
        label = f"{month:%Y-%m}"
        stored_starts = {c: list(v) for c, v in starts.items()}
        stored_heads = {c: list(v) for c, v in heads.items()}
        archive = AuditArchive.objects.create(
            month=month, kind=ArchiveKind.ARCHIVED, at=timezone.now(), by=by or _who(), schema=SCHEMA, table=part,
            records=records, checksum=checksum, starts=stored_starts, heads=stored_heads, key_id=key_id(key),
            signature=boundary.manifest_signature(label, part, records, checksum, stored_starts, stored_heads,
                                                  key=key))
        cursor.execute(sql.SQL("COMMENT ON TABLE {} IS {}").format(qualified, sql.Literal(json.dumps(
            manifest(archive), sort_keys=True))))
        audit_log(actor=None, action="audit.archive_month", object_type="audit_archive", object_id=archive.pk,
                  after={"month": label, "table": f"{SCHEMA}.{part}", "records": records, "checksum": checksum})
    anchors_write([checkpoint_entry(cp) for cp in made])
    return archive


def manifest(archive: AuditArchive) -> dict[str, Any]:
    """The manifest of an archived month as a document (the archived table's comment carries it too)."""
    return {"format": boundary.MANIFEST_FORMAT, "month": f"{archive.month:%Y-%m}", "table": archive.table,
            "schema": archive.schema, "records": archive.records, "checksum": archive.checksum,
            "starts": archive.starts, "heads": archive.heads, "archived_at": archive.at.isoformat(),
            "key_id": archive.key_id, "signature": archive.signature}


def _who() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return ""


def _archived(month: dt.date) -> AuditArchive:
    for archive in boundary.archived_months():
        if archive.month == month:
            return archive
    raise Conflict(gettext("%(month)s is not archived") % {"month": f"{month:%Y-%m}"}, code="month_not_archived")


def verify_archived_month(month: str | dt.date) -> ArchiveReport:
    """Verify an archived month where it is kept: its manifest's signature, its records' chains from the
    manifest's ``starts`` (and every signed checkpoint inside it), its record count, checksum and ``heads``."""
    _require_postgresql()
    month = parse_month(month)
    archive = _archived(month)
    report = ArchiveReport(month=month)
    if not boundary.manifest_valid(archive):
        report.problems.append(f"the manifest of {month:%Y-%m} does not carry a valid signature (or was signed "
                               f"with another key)")
    starts = {c: (int(s), str(h)) for c, (s, h) in archive.starts.items()}
    with transaction.atomic(), connection.cursor() as cursor:
        if not _exists(cursor, archive.schema, archive.table):
            report.problems.append(f"the archived table {archive.schema}.{archive.table} is missing")
            return report
        records, heads, checksum, breaks = _walk_table(cursor, sql.Identifier(archive.schema, archive.table), starts)
    report.records, report.chains = records, len(heads)
    report.problems += [b.message for b in breaks]
    if records != archive.records:
        report.problems.append(f"the archive holds {records} records; its manifest says {archive.records}")
    if checksum != archive.checksum:
        report.problems.append("the archived records' checksum is not the manifest's: records were changed, "
                               "added or removed")
    expected = {c: (int(s), str(h)) for c, (s, h) in archive.heads.items()}
    for chain, head in heads.items():
        if expected.get(chain) != head:
            report.problems.append(f"{chain} ends at #{head[0]} in the archive; its manifest says "
                                   f"{expected.get(chain)}")
    return report


def restore_month(month: str | dt.date, *, by: str = "") -> AuditArchive:
    """Put the latest archived month back into the live table, after verifying it (see the module)."""
    _require_postgresql()
    month = parse_month(month)
    archive = _archived(month)
    latest = boundary.latest_archive()
    if latest is not None and latest.month != month:
        raise Conflict(gettext("%(latest)s was archived after %(month)s: months come back newest first")
                       % {"latest": f"{latest.month:%Y-%m}", "month": f"{month:%Y-%m}"}, code="restore_out_of_order")
    report = verify_archived_month(month)
    if not report.ok:
        raise Conflict(gettext("%(month)s does not verify, it stays archived: %(problems)s")
                       % {"month": f"{month:%Y-%m}", "problems": "; ".join(report.problems)}, code="archive_broken")
    start, end = partitions.month_bounds(month)
    qualified = sql.Identifier(archive.schema, archive.table)
    with transaction.atomic(), connection.cursor() as cursor:
        _require_owner(cursor)
        cursor.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
        cursor.execute(sql.SQL("DROP TRIGGER archived_sealed ON {}").format(qualified))
        cursor.execute(sql.SQL("COMMENT ON TABLE {} IS NULL").format(qualified))
        cursor.execute(sql.SQL("ALTER TABLE {} SET SCHEMA public").format(qualified))
        # attaching checks every row against the month's bounds, and clones the parent's row triggers back on
        cursor.execute(sql.SQL("ALTER TABLE {} ATTACH PARTITION {} FOR VALUES FROM ({}) TO ({})").format(
            sql.Identifier(RECORDS), sql.Identifier(archive.table), sql.Literal(start), sql.Literal(end)))
        _copy_grants(cursor, archive.table)
        restored = AuditArchive.objects.create(
            month=month, kind=ArchiveKind.RESTORED, at=timezone.now(), by=by or _who(), schema="public",
            table=archive.table, records=archive.records, checksum=archive.checksum, starts=archive.starts,
            heads=archive.heads, key_id=archive.key_id, signature=archive.signature)
        audit_log(actor=None, action="audit.restore_month", object_type="audit_archive", object_id=restored.pk,
                  after={"month": f"{month:%Y-%m}", "table": archive.table, "records": archive.records})
    return restored


def _copy_grants(cursor: Any, part: str) -> None:
    """The partition gets its table's grants again (the service's SELECT, INSERT and UPDATE (id))."""
    for grantee in _grantees(cursor, part):
        cursor.execute(sql.SQL("REVOKE ALL ON {} FROM {}").format(sql.Identifier(part), sql.SQL(grantee)))
    cursor.execute("""SELECT a.privilege_type, a.grantee::regrole::text FROM pg_class c, aclexplode(c.relacl) a
                      WHERE c.oid = %s::regclass AND a.grantee <> 0 AND a.grantee <> c.relowner""", [RECORDS])
    for privilege, grantee in cursor.fetchall():
        cursor.execute(sql.SQL("GRANT {} ON {} TO {}").format(sql.SQL(privilege), sql.Identifier(part),
                                                              sql.SQL(grantee)))
    cursor.execute("""SELECT att.attname, a.privilege_type, a.grantee::regrole::text
                      FROM pg_attribute att, aclexplode(att.attacl) a
                      WHERE att.attrelid = %s::regclass AND att.attacl IS NOT NULL AND a.grantee <> 0""", [RECORDS])
    for column, privilege, grantee in cursor.fetchall():
        cursor.execute(sql.SQL("GRANT {} ({}) ON {} TO {}").format(sql.SQL(privilege), sql.Identifier(column),
                                                                   sql.Identifier(part), sql.SQL(grantee)))


def partitions_ensure(months_ahead: int = 3) -> list[str]:
    """Make the audit records' partitions of last month, this month and the next ``months_ahead`` if missing
    (an archived month is not made again) — the beat's maintenance job; the service may run it: the function it
    calls runs as the owner. Nothing on SQLite. Last month: a record may be written with an earlier shift's
    time (the demo plays the shifts before the current one)."""
    if connection.vendor != "postgresql":
        return []
    this = partitions.month_start(timezone.now())
    first = partitions.month_start(this - dt.timedelta(days=1))
    last = this
    for _ in range(months_ahead):
        last = partitions.next_month(last)
    with connection.cursor() as cursor:
        return partitions.add_months(cursor, RECORDS_SPEC, partitions.months(first, last))


RECORDS_SPEC = partitions.Partitioned(table=RECORDS, key="created_at", what="audit records",
                                      uniques=(("chain", "seq"),))
