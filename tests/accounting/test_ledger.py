"""The ledger's invariants: balanced transactions, balances = Σ entries, append-only, balanced at commit."""

from __future__ import annotations

import random

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from accounting.models import Account, AccountKind, Entry, LedgerTransaction
from accounting.selectors import account_balances
from accounting.services import ledger
from casino.errors import Conflict
from tables.models import Round, Settlement
from tests.accounting.helpers import balances_by_code, ledger_is_balanced, random_baccarat_document, settle_directly

ROUNDS = 2_000
RANDOM_POSTINGS = 2_000


@pytest.mark.slow
def test_thousands_of_random_rounds_and_postings_keep_the_ledger_balanced(floor):
    # given 2 000 random baccarat rounds settled by the engine, and 2 000 random balanced postings
    rng = random.Random(20261122)
    docs = [random_baccarat_document(rng) for _ in range(ROUNDS)]
    settlements = settle_directly(floor, docs)
    accounts = [ledger.account_for(f"test:{i}", name=f"test {i}", kind=AccountKind.ASSET) for i in range(12)]

    # when every round posts through round_post and the random transactions through ledger_post
    for s in settlements:
        s.round.table = floor.table
        ledger.round_post(settlement=s)
    for n in range(RANDOM_POSTINGS):
        picked = rng.sample(accounts, rng.randint(2, 5))
        amounts = [rng.randint(-100_000, 100_000) or 1 for _ in picked[:-1]]
        lines = list(zip(picked, [*amounts, -sum(amounts)]))
        ledger.ledger_post(kind="test", source_type="test", source_id=n, lines=lines)

    # then every transaction balances (and the database agreed at each commit point)
    bad, total = ledger_is_balanced()
    assert bad == []
    assert total == ROUNDS + RANDOM_POSTINGS
    # every account's balance is the sum of its entries
    expected = balances_by_code()
    assert {row["code"]: row["balance"] for row in account_balances() if row["entries"]} == expected
    assert sum(expected.values()) == 0
    # the table's accounts carry exactly the rounds: tray = Σ house net, revenue = −Σ house net
    house_net = sum(d["state"]["house"]["net"] for d in docs)
    commission = sum(d["state"]["house"]["commission"] for d in docs)
    assert expected["table:BAC1:tray"] == house_net
    assert expected.get("table:BAC1:win", 0) == -(house_net - commission)
    assert expected.get("table:BAC1:commission", 0) == -commission
    # one posting per round: posting a round again is refused and writes nothing
    with pytest.raises(Conflict):
        ledger.round_post(settlement=settlements[0])
    assert LedgerTransaction.objects.count() == total


def test_posting_refuses_floats_and_unbalanced_lines_before_the_database(floor):
    cage, tray = ledger.casino_accounts()["cage"], ledger.tray_account(floor.table, 2500)
    with pytest.raises(TypeError, match="integers in minor units"):
        ledger.ledger_post(kind="t", source_type="t", source_id=1, lines=[(cage, 10.0), (tray, -10.0)])
    with pytest.raises(ValueError, match="entries sum to 5"):
        ledger.ledger_post(kind="t", source_type="t", source_id=1, lines=[(cage, 10), (tray, -5)])
    assert LedgerTransaction.objects.count() == 0
    assert Entry.objects.count() == 0


def _posted(floor) -> Entry:
    cage, tray = ledger.casino_accounts()["cage"], ledger.tray_account(floor.table, 2500)
    txn = ledger.ledger_post(kind="t", source_type="t", source_id=1, lines=[(cage, 2500), (tray, -2500)])
    return txn.entries.first()


def test_a_posted_entry_cannot_be_updated_by_sql(floor):
    # given a posted entry
    entry = _posted(floor)
    # when someone runs UPDATE directly (as the service: no such privilege, and the trigger behind it)
    with pytest.raises(DatabaseError, match="append-only|permission denied"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE accounting_entry SET amount = amount + 1 WHERE id = %s", [entry.pk])
    # then the entry is as it was
    entry.refresh_from_db()
    assert entry.amount == 2500


def test_a_posted_entry_cannot_be_deleted_by_sql(floor):
    entry = _posted(floor)
    with pytest.raises(DatabaseError, match="append-only|permission denied"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM accounting_entry WHERE id = %s", [entry.pk])
    with pytest.raises(DatabaseError, match="append-only|permission denied"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM accounting_ledgertransaction WHERE id = %s", [entry.transaction_id])
    assert Entry.objects.filter(pk=entry.pk).exists()


def test_an_unbalanced_transaction_fails_at_commit(floor):
    # given a transaction written around ledger_post with one entry only
    cage = ledger.casino_accounts()["cage"]
    with transaction.atomic(), connection.cursor() as cursor:
        sid = transaction.savepoint()
        txn = LedgerTransaction.objects.create(kind="t", source_type="t", source_id="x", posted_at=timezone.now())
        Entry.objects.create(transaction=txn, account=cage, amount=100)
        # when the deferred check runs (at commit; here forced with SET CONSTRAINTS)
        with pytest.raises(IntegrityError, match="does not balance"):
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        transaction.savepoint_rollback(sid)
    # then nothing of it remains
    assert LedgerTransaction.objects.count() == 0
    assert Entry.objects.count() == 0


def test_a_reversal_negates_every_entry_and_leaves_the_original(floor):
    entry = _posted(floor)
    rev = ledger.transaction_reverse(txn_id=entry.transaction_id, actor=floor.accountant, reason="keyed twice")
    assert sorted(rev.entries.values_list("amount", flat=True)) == [-2500, 2500]
    assert Entry.objects.get(pk=entry.pk).amount == 2500
    assert ledger.account_balance(Account.objects.get(code="cage")) == 0
    with pytest.raises(Conflict):
        ledger.transaction_reverse(txn_id=entry.transaction_id, actor=floor.accountant, reason="again")


def test_pool_rounds_post_each_named_pool(floor):
    # given a settled pool game whose engine names its pools (Carousel: count and pony)
    s = Settlement(  # unsaved: what round_post reads
        round=Round(pk=1, table=floor.table, shift=floor.shift, number=1), house_net=30, commission=0, rake=30,
        pool_change=60, settled_by=floor.dealer,
        document={
            "status": "settled", "next": None, "hands": {}, "outcome": {}, "bets": [],
            "house": {"net": 30, "commission": 0, "rake": 30},
            "pool": {"carry_in": 100, "carry_out": 160},
            "pools": {"count": {"carry_in": 100, "carry_out": 140}, "pony": {"carry_in": 0, "carry_out": 20}},
        },
    )
    # when it posts
    lines = {a.code: amt for a, amt in ledger.round_lines(s) if amt}
    # then the tray holds the rake and the carried chips; each pool owes its own carry
    assert lines == {
        "table:BAC1:tray": 90,
        "table:BAC1:rake": -30,
        "table:BAC1:pool:count": -40,
        "table:BAC1:pool:pony": -20,
    }
