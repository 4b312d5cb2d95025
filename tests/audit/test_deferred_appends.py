"""The audit records of a transaction ride on its commit (casino/dbbackend): no round trip of their own, and
no other difference a caller could see — each record belongs to the level of the transaction it was made at,
a rolled-back savepoint takes its records with it, the transaction reads its own records, and a record that
cannot be written fails the commit and rolls the whole change back."""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.db import DataError, connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from casino.audit.models import AuditRecord
from casino.audit.services import audit_log, chain_for_table
from casino.audit.verification import audit_verify

pytestmark = pytest.mark.django_db(transaction=True)


def note(n: int, *, table: str = "") -> AuditRecord:
    return audit_log(actor=None, action="test.note", object_type="note", object_id=n, after={"n": n},
                     table_code=table)


def stored(chain: str = "casino") -> list[tuple[int, str]]:
    return list(AuditRecord.objects.filter(chain=chain).order_by("seq").values_list("seq", "object_id"))


def test_the_records_go_in_the_same_round_trip_as_the_commit_with_their_chains_locked_in_one_order():
    # when a transaction records changes on two chains
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        first, second = note(1, table="BAC9"), note(2)
        # then nothing has been sent for them yet (but the statement they use, once per connection)
        sent_before_commit = [q["sql"] for q in queries if q["sql"].split(" ")[0] not in ("PREPARE", "BEGIN")]
    assert sent_before_commit == []
    # and the commit carried them: one query string, both chains' locks (in key order), both appends, COMMIT
    sent = [q["sql"] for q in queries if q["sql"].split(" ")[0] not in ("PREPARE", "BEGIN")]
    assert len(sent) == 1
    statements = [s.strip() for s in sent[0].split(";\n")]
    assert [s.split(" (")[0] for s in statements] == [
        "EXECUTE croupier_audit_lock", "EXECUTE croupier_audit_lock", "EXECUTE croupier_audit_append",
        "EXECUTE croupier_audit_append", "COMMIT"]
    keys = [int(s.rsplit(",", 1)[1].strip(" )")) for s in statements[:2]]
    assert keys == sorted(keys)
    # and the records returned now carry what the database gave them
    assert (first.chain, first.seq, second.chain, second.seq) == (chain_for_table("BAC9"), 1, "casino", 1)
    assert AuditRecord.objects.get(pk=second.pk).hash == second.hash
    assert audit_verify(trigger="test", full=True).ok


def test_a_rolled_back_savepoint_takes_its_records_and_only_its_records():
    with transaction.atomic():
        note(1)
        try:
            with transaction.atomic():
                note(2)
                with transaction.atomic():
                    note(3)
                raise ValueError("the inner change is refused")
        except ValueError:
            pass
        with transaction.atomic():
            note(4)
        note(5)
    # then the chain holds 1, 4 and 5, numbered without a gap, and verifies
    assert stored() == [(1, "1"), (2, "4"), (3, "5")]
    assert audit_verify(trigger="test", full=True).ok


def test_a_transaction_reads_its_own_records():
    with transaction.atomic():
        rec = note(1)
        # when the transaction reads the trail before it commits
        found = AuditRecord.objects.filter(chain="casino").values_list("seq", "object_id").first()
        # then its record is there, numbered, and the one returned is filled in
        assert found == (1, "1")
        assert rec.seq == 1
        transaction.set_rollback(True)
    # and a rollback takes it back
    assert stored() == []


def test_a_record_that_cannot_be_written_fails_the_commit_and_the_change_is_rolled_back():
    users = get_user_model()
    with transaction.atomic():
        users.objects.create(username="first")  # audited on the casino chain

    def change_with_a_refused_record() -> None:
        with transaction.atomic():
            users.objects.create(username="second")
            audit_log(actor=None, action="test.note", object_type="note", object_id="x", after={"text": "a\x00b"})

    # when a change is recorded with a value the database refuses to store (JSON's NUL character)
    with pytest.raises(DataError, match="Unicode escape"):
        change_with_a_refused_record()
    # then neither the change nor any record of the transaction is there, and the connection is usable
    assert not users.objects.filter(username="second").exists()
    assert stored() == [(1, str(users.objects.get(username="first").pk))]
    assert audit_verify(trigger="test", full=True).ok


def test_without_the_croupier_backend_each_record_is_written_when_it_is_made():
    # Django's own PostgreSQL backend (no deferred writers): a round trip per record, at once
    with mock.patch.object(type(connections["default"]), "deferred_writer", None), transaction.atomic():
        rec = note(1)
        assert rec.seq == 1
        assert rec.pk is not None
    assert stored() == [(1, "1")]
