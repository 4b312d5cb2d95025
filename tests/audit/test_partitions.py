"""The audit records partitioned by month (PostgreSQL): every partition sealed and granted alike, (chain, seq)
unique across months, a shift that crosses a month's end, the partition job, and archiving and restoring a
month with the chains still verifiable across the boundary (docs/scaling.md, "Partitioning", "Archive")."""

from __future__ import annotations

import datetime as dt
import importlib
import json
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from accounting.selectors import table_shift_figures
from casino.audit import archive, boundary
from casino.audit.models import ArchiveKind, AuditArchive, AuditRecord, ChainHead
from casino.audit.record import hash_of
from casino.audit.services import audit_log
from casino.audit.tasks import audit_partitions
from casino.audit.verification import audit_checkpoint_create, audit_verify
from casino.core import partitions
from tests.accounting.helpers import BANKER_WINS, play_round
from tests.dbbackend.base import owner_conninfo
from tests.factories import build_floor
from tests.tamper import as_owner

REFUSED = "refused on|permission denied"


class Clock:
    """The application's clock set to a chosen moment (and moving on from there as real time does)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self._real = timezone.now
        self._offset = dt.timedelta()
        monkeypatch.setattr(timezone, "now", lambda: self._real() + self._offset)

    def set(self, moment: dt.datetime) -> None:
        self._offset = moment - self._real()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)


def month_after(month: dt.date, n: int = 1) -> dt.date:
    for _ in range(n):
        month = partitions.next_month(month)
    return month


def this_month() -> dt.date:
    """The real month (whatever the application's clock is set to)."""
    return partitions.month_start(dt.datetime.now(partitions.zone()))


def partition_of(record: AuditRecord) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT tableoid::regclass::text FROM audit_auditrecord WHERE id = %s", [record.pk])
        return cursor.fetchone()[0]


def refused(sql: str, params: list | None = None, match: str = REFUSED) -> None:
    with pytest.raises(DatabaseError, match=match), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params or [])


def log(n: int, chain: str = "casino") -> list[AuditRecord]:
    out = []
    for i in range(n):
        with transaction.atomic():
            out.append(audit_log(actor=None, action="test.note", object_type="note", object_id=i, after={"i": i},
                                 chain=chain))
    return out


def test_the_records_are_partitioned_by_month_and_every_partition_is_sealed_and_granted(db):
    with connection.cursor() as cursor:
        # given the migrated database: the records' table is partitioned, this month and three ahead exist
        assert partitions.is_partitioned(cursor, "audit_auditrecord")
        names = partitions.attached(cursor, "audit_auditrecord")
        wanted = [partitions.partition_name("audit_auditrecord", m)
                  for m in partitions.months(this_month(), month_after(this_month(), 3))]
        assert set(wanted) <= set(names)
        for name in names:
            # then each carries the append-only row trigger, its own TRUNCATE trigger and the chain-head trigger
            cursor.execute("SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass", [name])
            triggers = {row[0] for row in cursor.fetchall()}
            assert {"audit_auditrecord_append_only_row", f"{name}_truncate",
                    "audit_auditrecord_chain_head"} <= triggers
            # and its unique index, (chain, seq) within the month; nothing indexes the hash (migration 0007)
            cursor.execute("SELECT indexdef FROM pg_indexes WHERE tablename = %s", [name])
            indexes = [row[0] for row in cursor.fetchall()]
            assert [d for d in indexes if d.startswith("CREATE UNIQUE")
                    and not d.endswith("(id, created_at)")] == [f"CREATE UNIQUE INDEX {name}_chain_seq_uniq ON "
                                                                f"public.{name} USING btree (chain, seq)"]
            assert not [d for d in indexes if "(hash)" in d]
            # and the service may read and append, lock by id, never delete
            cursor.execute("SELECT has_table_privilege(current_user, %s, 'SELECT'), "
                           "has_table_privilege(current_user, %s, 'INSERT'), "
                           "has_table_privilege(current_user, %s, 'DELETE'), "
                           "has_column_privilege(current_user, %s, 'id', 'UPDATE'), "
                           "has_column_privilege(current_user, %s, 'action', 'UPDATE')", [name] * 5)
            assert cursor.fetchone() == (True, True, False, True, False)


def test_the_partition_job_makes_the_coming_months_alike_and_nothing_twice(db):
    # given the partitions made by the migration (this month and three ahead)
    with connection.cursor() as cursor:
        before = set(partitions.attached(cursor, "audit_auditrecord"))
    # when the maintenance job runs, as the service, asking for six months ahead
    made = audit_partitions.apply(kwargs={"months_ahead": 6}).get()
    # then the missing months are made, each sealed, granted and unique like the others
    expected = {partitions.partition_name("audit_auditrecord", m)
                for m in partitions.months(month_after(this_month(), 4), month_after(this_month(), 6))}
    assert set(made) == expected - before
    assert made  # at least one month was missing
    newest = sorted(made)[-1]
    with connection.cursor() as cursor:
        assert set(partitions.attached(cursor, "audit_auditrecord")) == before | set(made)
        cursor.execute("SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass", [newest])
        assert {"audit_auditrecord_append_only_row", f"{newest}_truncate"} <= {row[0] for row in cursor.fetchall()}
        cursor.execute("SELECT has_table_privilege(current_user, %s, 'INSERT'), "
                       "has_table_privilege(current_user, %s, 'DELETE'), "
                       "has_column_privilege(current_user, %s, 'id', 'UPDATE')", [newest] * 3)
        assert cursor.fetchone() == (True, False, True)
    # and a second run makes nothing
    assert audit_partitions.apply(kwargs={"months_ahead": 6}).get() == []
    # and the service can make a table no other way
    refused("CREATE TABLE audit_auditrecord_2099_01 PARTITION OF audit_auditrecord "
            "FOR VALUES FROM ('2099-01-01') TO ('2099-02-01')")


def test_a_shift_across_a_months_end_writes_both_partitions_and_its_figures_and_chains_hold(db, clock):
    # given a shift that begins half an hour before next month begins
    boundary_moment, _ = partitions.month_bounds(month_after(this_month()))
    clock.set(boundary_moment - dt.timedelta(minutes=30))
    floor = build_floor()
    # when two rounds are played before midnight and two after, at the same table in the same shift
    settled = [play_round(floor.table, floor.dealer, [(1, "banker", 1000), (2, "player", 500)], BANKER_WINS)
               for _ in range(2)]
    clock.set(boundary_moment + dt.timedelta(minutes=30))
    settled += [play_round(floor.table, floor.dealer, [(1, "banker", 2000)], BANKER_WINS) for _ in range(2)]
    # then the table's chain has records in both months' partitions, in one unbroken chain
    table_chain = AuditRecord.objects.filter(chain="table:BAC1").order_by("seq")
    parts = {partition_of(r) for r in table_chain}
    assert parts == {partitions.partition_name("audit_auditrecord", this_month()),
                     partitions.partition_name("audit_auditrecord", month_after(this_month()))}
    assert [r.seq for r in table_chain] == list(range(1, table_chain.count() + 1))
    assert ChainHead.objects.get(chain="table:BAC1").seq == table_chain.count()
    # and the shift's figures count every round and every bet on both sides
    figures = table_shift_figures(floor.table, floor.shift)
    assert figures.rounds == 4
    assert figures.handle == 2 * 1500 + 2 * 2000
    # and the whole trail verifies, and its heads can be signed and verified again
    first = audit_verify()
    assert first.ok, first.breaks
    assert first.records == AuditRecord.objects.count()
    assert audit_checkpoint_create()
    assert audit_verify().ok


def test_a_record_repeating_or_skipping_a_seq_in_another_month_is_refused(transactional_db, clock):
    # given a chain of three records this month
    records = log(3)
    last = records[-1]
    later = partitions.month_bounds(month_after(this_month(), 2))[0] + dt.timedelta(days=3)
    columns = ("chain", "seq", "created_at", "actor_id", "actor_username", "actor_role", "client_addr", "device",
               "channel", "action", "object_type", "object_id", "table_code", "before", "after", "prev_hash", "hash",
               "request_id")

    def insert(**changes: Any) -> tuple[str, list[Any]]:
        rec = AuditRecord(**{**{f: getattr(last, f) for f in columns}, **changes})
        rec.hash = hash_of(rec)
        values = [getattr(rec, f) for f in columns]
        for name in ("before", "after"):
            value = getattr(rec, name)
            values[columns.index(name)] = None if value is None else json.dumps(value)
        return (f"INSERT INTO audit_auditrecord ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})",
                values)

    # when the owner inserts, into a month two months on, a record repeating seq 3, one skipping seq 4, and one
    # that follows seq 3 but links to another hash
    for statement in (insert(created_at=later),
                      insert(created_at=later, seq=5, prev_hash=last.hash),
                      insert(created_at=later, seq=4, prev_hash="f" * 64)):
        # then each is refused: no unique index spans months, the chain's head does
        with pytest.raises(psycopg.errors.UniqueViolation, match="does not follow its chain's head"):
            as_owner(statement)
    # and the record that does follow is taken, in the later month's partition
    as_owner(insert(created_at=later, seq=4, prev_hash=last.hash))
    follower = AuditRecord.objects.get(chain="casino", seq=4)
    assert partition_of(follower) == partitions.partition_name("audit_auditrecord", month_after(this_month(), 2))
    assert ChainHead.objects.get(chain="casino").seq == 4
    # and the head itself moves only forward, never by the service, never back by the owner
    refused("UPDATE audit_chainhead SET seq = 1", match="permission denied")
    refused("INSERT INTO audit_chainhead (chain, seq, hash) VALUES ('x', 1, 'h')", match="permission denied")
    with pytest.raises(psycopg.Error, match="only moves forward"):
        as_owner("UPDATE audit_chainhead SET seq = 2 WHERE chain = 'casino'")
    with pytest.raises(psycopg.Error, match="refused on audit_chainhead"):
        as_owner("TRUNCATE audit_chainhead")
    assert audit_verify().ok


def test_a_record_carrying_another_records_hash_is_refused_by_its_chain_or_reported_by_the_verification(
        transactional_db):
    """The hash has no unique index (migration 0007): it hashes the chain and seq, which are unique. A record
    whose stored hash is another's cannot follow its chain's head unless it links to it, and then its hash is
    not its own content's, which is what the verification reports."""
    records = log(3)
    first, last = records[0], records[-1]
    columns = ("chain", "seq", "created_at", "actor_id", "actor_username", "actor_role", "client_addr", "device",
               "channel", "action", "object_type", "object_id", "table_code", "before", "after", "prev_hash", "hash",
               "request_id")

    def insert(**changes: Any) -> tuple[str, list[Any]]:
        values = {**{f: getattr(last, f) for f in columns}, **changes}
        for name in ("before", "after"):
            values[name] = None if values[name] is None else json.dumps(values[name])
        return (f"INSERT INTO audit_auditrecord ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})",
                [values[f] for f in columns])

    # when the owner inserts a copy of the first record (its seq, its hash) the chain refuses it
    with pytest.raises(psycopg.errors.UniqueViolation):
        as_owner(insert(**{f: getattr(first, f) for f in columns}))
    # and when it inserts seq 4, linked to seq 3 but carrying the first record's hash, the database takes it
    as_owner(insert(seq=4, prev_hash=last.hash, hash=first.hash))
    # then the verification reports it: its hash is not its content's
    result = audit_verify(full=True)
    assert not result.ok
    assert [(b["chain"], b["seq"], b["reason"]) for b in result.breaks][:1] == [("casino", 4, "hash")]


def test_the_migrations_chain_check_passes_whole_chains_and_refuses_a_broken_one(transactional_db):
    """Migration 0005 copies the records before the head trigger exists, then checks every chain at once: the
    check must take what the trigger takes and refuse what it refuses."""
    migration = importlib.import_module("casino.audit.migrations.0005_partitioned_records")
    # given two chains of whole records
    log(3)
    log(3, chain="table:T9")
    # then the check passes them
    as_owner(migration.CHAINS_UNBROKEN)
    # and when the owner removes a record from the middle of one, the check names the record after the gap
    as_owner("DELETE FROM audit_auditrecord WHERE chain = 'table:T9' AND seq = 2", triggers_off=["audit_auditrecord"])
    with pytest.raises(psycopg.errors.UniqueViolation, match=r"table:T9#3 does not follow its chain's head"):
        as_owner(migration.CHAINS_UNBROKEN)


def test_update_delete_and_truncate_of_a_partition_are_refused_to_the_service_and_the_owner(transactional_db):
    # given committed records in this month's partition
    records = log(2)
    part = partition_of(records[0])
    # when the service changes them through the table or the partition itself, then each is refused
    refused("UPDATE audit_auditrecord SET action = 'x' WHERE id = %s", [records[0].pk])
    refused(f"UPDATE {part} SET id = id WHERE id = %s", [records[0].pk])  # the one column it may lock by
    refused(f"UPDATE {part} SET action = 'x' WHERE id = %s", [records[0].pk])
    refused(f"DELETE FROM {part} WHERE id = %s", [records[0].pk])
    refused(f"TRUNCATE {part}")
    # and the owner, who may do anything the triggers allow, is refused too, on the partition as on the table
    for statement in (f"UPDATE {part} SET action = 'x'", f"DELETE FROM {part}", f"TRUNCATE {part}",
                      "DELETE FROM audit_auditrecord"):
        with pytest.raises(psycopg.Error, match="append-only"):
            as_owner(statement)
    assert [r.action for r in AuditRecord.objects.order_by("id")] == ["test.note", "test.note"]


# -- archive -----------------------------------------------------------------------------------------------------

@pytest.fixture
def owner_url(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """``DATABASE_OWNER_URL`` for the commands; the archive schema is dropped afterwards (not a model table)."""
    sd = connection.settings_dict
    info = owner_conninfo(sd, sd["NAME"])
    url = f"postgres://{info['user']}@{info.get('host', '127.0.0.1')}:{info.get('port', 5432)}/{info['dbname']}"
    monkeypatch.setenv("DATABASE_OWNER_URL", url)
    yield url
    # what a test left archived is dropped, and the months' partitions made again for the tests after it
    with psycopg.connect(**info, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {partitions.ARCHIVE_SCHEMA} CASCADE")
        for month in partitions.months(this_month(), month_after(this_month(), 3)):
            conn.execute("SELECT audit_auditrecord_add_month(%s, %s)", [month, "UTC"])


def two_months_of_records(clock: Clock) -> tuple[dt.date, dt.date, list[AuditRecord], list[AuditRecord]]:
    """Records in the two months after this one (partitions made ahead), then the clock in the third."""
    first, second = month_after(this_month()), month_after(this_month(), 2)
    clock.set(partitions.month_bounds(first)[0] + dt.timedelta(days=10))
    january = log(3) + log(2, chain="table:BAC1")
    clock.set(partitions.month_bounds(second)[0] + dt.timedelta(days=10))
    february = log(2) + log(1, chain="table:BAC1") + log(2, chain="table:BAC2")
    clock.set(partitions.month_bounds(month_after(second))[0] + dt.timedelta(days=1))
    return first, second, january, february


def test_an_open_month_a_live_older_month_and_an_open_shift_are_refused(db, clock):
    first, second, _, _ = two_months_of_records(clock)
    # given the clock in the second month: it is not over
    clock.set(partitions.month_bounds(second)[0] + dt.timedelta(days=20))
    assert any("not over" in p for p in archive.month_problems(second))
    # given the clock after it: the first month is still live, so the second waits
    clock.set(partitions.month_bounds(month_after(second))[0] + dt.timedelta(days=1))
    assert any("oldest first" in p for p in archive.month_problems(second))
    # given a shift of the first month still open (it began then and is not closed)
    clock.set(partitions.month_bounds(first)[0] + dt.timedelta(days=12))
    floor = build_floor()
    clock.set(partitions.month_bounds(month_after(second))[0] + dt.timedelta(days=1))
    problems = archive.month_problems(first)
    assert problems == [f"the shift {floor.shift} is not closed"]
    # and the command says why
    with pytest.raises(CommandError, match="cannot be archived"):
        call_command("archive_month", f"{first:%Y-%m}", "--check")


def test_a_month_is_archived_verified_where_it_is_kept_and_restored(transactional_db, clock, owner_url):
    first, second, january, february = two_months_of_records(clock)
    part = partitions.partition_name("audit_auditrecord", first)
    # when the first month is archived with the command (as the owner)
    call_command("archive_month", f"{first:%Y-%m}")
    # then its partition left the live table for the archive schema, with a signed manifest
    with connection.cursor() as cursor:
        assert part not in partitions.attached(cursor, "audit_auditrecord")
        cursor.execute(f"SELECT count(*) FROM {partitions.ARCHIVE_SCHEMA}.{part}")  # the service reads it
        assert cursor.fetchone()[0] == len(january)
    manifest = AuditArchive.objects.get(month=first, kind=ArchiveKind.ARCHIVED)
    assert manifest.records == len(january)
    assert boundary.manifest_valid(manifest)
    assert manifest.heads == {"casino": [3, january[2].hash], "table:BAC1": [2, january[4].hash]}
    assert {r.pk for r in AuditRecord.objects.all()}.isdisjoint({r.pk for r in january})
    # and the live trail verifies from the archive's boundary, and its heads can still be signed
    live = audit_verify()
    assert live.ok, live.breaks
    assert live.records == AuditRecord.objects.count()
    audit_checkpoint_create()
    assert audit_verify().ok
    # and the archived month verifies where it is kept
    report = archive.verify_archived_month(first)
    assert report.ok
    assert report.records == len(january)
    call_command("archive_month", f"{first:%Y-%m}", "--verify")
    # and nobody writes into it: the service has no grant, the owner meets the seal
    refused(f"UPDATE {partitions.ARCHIVE_SCHEMA}.{part} SET action = 'x'", match="permission denied")
    refused(f"INSERT INTO {partitions.ARCHIVE_SCHEMA}.{part} SELECT * FROM audit_auditrecord LIMIT 1",
            match="permission denied")
    for statement in (f"UPDATE {partitions.ARCHIVE_SCHEMA}.{part} SET action = 'x'",
                      f"DELETE FROM {partitions.ARCHIVE_SCHEMA}.{part}"):
        with pytest.raises(psycopg.Error, match="archived months are closed"):
            as_owner(statement)
    # and a record deleted from the live table just after the boundary is still found by the full walk, which
    # starts at the boundary (the hourly one starts at the last signed checkpoint, after it)
    as_owner(("DELETE FROM audit_auditrecord WHERE chain = 'casino' AND seq = 4", []),
             triggers_off=["audit_auditrecord"])
    broken = audit_verify(full=True)
    assert not broken.ok
    assert broken.first_broken_reason == "missing"
    assert broken.first_broken_chain == "casino"
    # when it is restored with the command
    call_command("restore_month", f"{first:%Y-%m}")
    # then the month is live again, sealed and granted as before
    with connection.cursor() as cursor:
        assert part in partitions.attached(cursor, "audit_auditrecord")
        cursor.execute("SELECT has_table_privilege(current_user, %s, 'INSERT'), "
                       "has_column_privilege(current_user, %s, 'id', 'UPDATE')", [part, part])
        assert cursor.fetchone() == (True, True)
    assert AuditRecord.objects.filter(pk__in=[r.pk for r in january]).count() == len(january)
    with pytest.raises(psycopg.Error, match="append-only"):
        as_owner(f"UPDATE {part} SET action = 'x'")
    assert boundary.archived_months() == []
    # and verification walks from the beginning again (the deleted record is still missing, nothing else)
    again = audit_verify(full=True)
    assert [b["reason"] for b in again.breaks] == ["missing"]


def test_a_changed_archive_does_not_verify_and_is_not_restored(transactional_db, clock, owner_url):
    first, _, january, _ = two_months_of_records(clock)
    part = partitions.partition_name("audit_auditrecord", first)
    call_command("archive_month", f"{first:%Y-%m}")
    # when the owner turns the seal off, alters a record of the archived month and removes another
    qualified = f"{partitions.ARCHIVE_SCHEMA}.{part}"
    as_owner((f"UPDATE {qualified} SET object_id = 'x' WHERE id = %s", [january[1].pk]),
             (f"DELETE FROM {qualified} WHERE id = %s", [january[4].pk]), triggers_off=[qualified])
    # then the archived month does not verify: the altered record, the count, the checksum, the chain's end
    report = archive.verify_archived_month(first)
    assert not report.ok
    assert any(f"casino#2 (record {january[1].pk}) was altered" in p for p in report.problems)
    assert any("holds 4 records; its manifest says 5" in p for p in report.problems)
    assert any("checksum" in p for p in report.problems)
    assert any("table:BAC1 ends at #1" in p for p in report.problems)
    # and the command says so
    with pytest.raises(CommandError, match="does not verify"):
        call_command("archive_month", f"{first:%Y-%m}", "--verify")
    # and it is not restored
    with pytest.raises(CommandError, match="stays archived"):
        call_command("restore_month", f"{first:%Y-%m}")
    # and a rewritten manifest is a break of the live verification
    manifest = AuditArchive.objects.get(month=first)
    as_owner(("UPDATE audit_auditarchive SET heads = %s WHERE id = %s", [json.dumps({}), manifest.pk]),
             triggers_off=["audit_auditarchive"])
    result = audit_verify()
    assert not result.ok
    assert "archive_forged" in {b["reason"] for b in result.breaks}
