"""Progressives: the house funds the start, contributions grow the liability, a hit pays it out and the
house funds the reset (Crazy Dragon $2,000, It's Good to be Bad $100,000, Light Speed $700)."""

from __future__ import annotations

import pytest

from accounting.models import Account, AccountKind, LedgerTransaction
from accounting.services.ledger import account_balance
from casino.audit.models import AuditRecord
from casino.errors import Conflict, InvalidInput
from slots.models import Progressive, ProgressiveHit
from slots.services import progressives as services
from tests.slots.helpers import (
    CRAZY_DRAGON_RESET,
    GOOD_TO_BE_BAD_RESET,
    LIGHT_SPEED_RESET,
    assert_ledger_balanced,
    balance,
    entries,
    liability,
    machine,
    progressive,
    read,
)


def _state(p: Progressive) -> tuple:
    p = Progressive.objects.get(pk=p.pk)
    return (p.amount, p.remainder, p.hits, ProgressiveHit.objects.count(), LedgerTransaction.objects.count(),
            AuditRecord.objects.count(), liability(p))


def test_a_new_progressive_starts_at_its_reset_value_funded_by_the_house(floor):
    # given a $1 Crazy Dragon machine
    m = machine(floor.manager)
    # when its system-wide progressive is set up
    p = progressive(floor.manager, machines_=[m])
    # then it shows $2,000, owed in the ledger and funded by the house's seed account
    assert p.amount == CRAZY_DRAGON_RESET
    txn = LedgerTransaction.objects.get(source_type="slot_progressive_seed", source_id=str(p.pk))
    assert entries(txn) == {"slots:progressive:crazy-dragon:seed": CRAZY_DRAGON_RESET,
                            "progressive:crazy-dragon": -CRAZY_DRAGON_RESET}
    assert Account.objects.get(code="progressive:crazy-dragon").kind == AccountKind.LIABILITY
    assert AuditRecord.objects.get(action="slots.progressive.create").after["machines"] == ["S-1001"]


@pytest.mark.parametrize(
    ("game", "reset", "denomination"),
    [("Crazy Dragon", CRAZY_DRAGON_RESET, 100), ("It's Good to be Bad", GOOD_TO_BE_BAD_RESET, 25),
     ("Light Speed", LIGHT_SPEED_RESET, 25)],
)
def test_a_hit_pays_the_current_amount_and_the_house_funds_the_reset(floor, game, reset, denomination):
    # given the rule book game's progressive over two machines, grown by play (2 % of 4,321.09 + 2 % of 987.65)
    a = machine(floor.manager, "S-1", game=game, denomination=denomination)
    b = machine(floor.manager, "S-2", game=game, denomination=denomination)
    p = progressive(floor.manager, "jackpot", name=game, machines_=[a, b], reset=reset, bp=200)
    for m, coin_in in ((a, 0), (b, 0), (a, 432_109), (b, 98_765)):
        read(m, floor.manager, coin_in)
    p.refresh_from_db()
    grown = 8_642 + 1_975  # 8642.18 → 8642 (carry 0.18), 1975.30 + 0.18 → 1975 (carry 0.48)
    assert (p.amount, p.remainder) == (reset + grown, 4_800)
    # when it is won at machine S-2 and hand-paid from the cage
    cage_before = balance("cage")
    hit = services.progressive_hit(progressive_id=p.pk, machine_id=b.pk, expected_amount=reset + grown,
                                   actor=floor.manager)
    # then the current amount is paid: the liability is debited, the cage credited
    assert (hit.seq, hit.amount, hit.reset_value, hit.paid_by, hit.machine) == (1, reset + grown, reset, "handpay", b)
    assert entries(hit.payout_transaction) == {"progressive:jackpot": reset + grown, "cage": -(reset + grown)}
    # and the house funds the reset: the liability is back at the reset value
    assert entries(hit.reset_transaction) == {"slots:progressive:jackpot:seed": reset, "progressive:jackpot": -reset}
    p.refresh_from_db()
    assert (p.amount, p.hits, p.remainder) == (reset, 1, 4_800)  # the carried fraction stays carried
    assert liability(p) == reset
    assert balance("cage") - cage_before == -(reset + grown)
    assert balance("slots:progressive:jackpot:seed") == 2 * reset  # start and reset
    assert balance("slots:machine:S-1:contributions") + balance("slots:machine:S-2:contributions") == grown
    # the ledger balances, and each account's balance is the sum of its entries
    assert_ledger_balanced()
    for code in ("progressive:jackpot", "cage", "slots:progressive:jackpot:seed"):
        assert account_balance(Account.objects.get(code=code)) == balance(code)
    audit = AuditRecord.objects.get(action="slots.progressive.hit")
    assert (audit.before, audit.after["paid"], audit.after["amount"]) == (
        {"amount": reset + grown, "hits": 0}, reset + grown, reset)


def test_contributions_go_on_after_a_hit(floor):
    # given a hit progressive
    m = machine(floor.manager)
    p = progressive(floor.manager, machines_=[m], bp=100)
    read(m, floor.manager, 0)
    read(m, floor.manager, 50_050)  # 500.50 at 1 %: 5.005 → 500, carry 0.5
    services.progressive_hit(progressive_id=p.pk, machine_id=m.pk, actor=floor.manager)
    # when play goes on
    read(m, floor.manager, 100_100)  # 5.005 + 0.5 carried → 501, carry 0
    # then it grows from the reset value, with the fraction carried across the hit
    p.refresh_from_db()
    assert (p.amount, p.remainder) == (CRAZY_DRAGON_RESET + 501, 0)
    assert liability(p) == p.amount
    assert_ledger_balanced()


def test_a_hit_credited_on_the_machine_comes_out_of_its_cash(floor):
    m = machine(floor.manager, denomination=25)
    p = progressive(floor.manager, "own", scope="machine", machines_=[m], reset=50_000, name="Own")
    hit = services.progressive_hit(progressive_id=p.pk, machine_id=m.pk, paid_by="machine", actor=floor.manager)
    assert entries(hit.payout_transaction) == {"progressive:own": 50_000, "slots:machine:S-1001:cash": -50_000}
    assert liability(p) == 50_000


def test_a_hit_at_a_different_amount_or_an_unlinked_machine_is_refused(floor):
    # given a progressive with one linked machine and one that is not
    m, other = machine(floor.manager, "S-1"), machine(floor.manager, "S-2")
    p = progressive(floor.manager, machines_=[m])
    before = _state(p)
    # when the attendant enters another amount than it stands at, or the wrong machine
    with pytest.raises(Conflict) as changed:
        services.progressive_hit(progressive_id=p.pk, machine_id=m.pk, expected_amount=CRAZY_DRAGON_RESET + 1,
                                 actor=floor.manager)
    with pytest.raises(Conflict) as unlinked:
        services.progressive_hit(progressive_id=p.pk, machine_id=other.pk, actor=floor.manager)
    with pytest.raises(InvalidInput) as paid_by:
        services.progressive_hit(progressive_id=p.pk, machine_id=m.pk, paid_by="cheque", actor=floor.manager)
    # then nothing is paid
    assert (changed.value.code, unlinked.value.code, paid_by.value.code) == ("amount_changed", "not_linked",
                                                                            "bad_choice")
    assert _state(p) == before


def test_linking_and_unlinking_decide_who_contributes(floor):
    # given a system progressive with machine A; B is not linked yet
    a, b = machine(floor.manager, "S-1"), machine(floor.manager, "S-2")
    p = progressive(floor.manager, machines_=[a], bp=100)
    for m in (a, b):
        read(m, floor.manager, 0)
    read(b, floor.manager, 10_000)
    assert liability(p) == CRAZY_DRAGON_RESET  # B's play is not the progressive's
    # when B is linked and A unlinked
    services.progressive_link(progressive_id=p.pk, machine_id=b.pk, actor=floor.manager)
    services.progressive_unlink(progressive_id=p.pk, machine_id=a.pk, actor=floor.manager)
    read(a, floor.manager, 10_000)
    read(b, floor.manager, 30_000)
    # then only B's new coin in contributes
    assert liability(p) == CRAZY_DRAGON_RESET + 200
    assert [r.action for r in AuditRecord.objects.filter(action__startswith="slots.progressive.l")] == [
        "slots.progressive.link"]
    assert AuditRecord.objects.filter(action="slots.progressive.unlink").count() == 1
    # and linking twice, or unlinking what is not linked, is refused
    with pytest.raises(Conflict) as twice:
        services.progressive_link(progressive_id=p.pk, machine_id=b.pk, actor=floor.manager)
    with pytest.raises(Conflict) as not_linked:
        services.progressive_unlink(progressive_id=p.pk, machine_id=a.pk, actor=floor.manager)
    assert (twice.value.code, not_linked.value.code) == ("already_linked", "not_linked")


def test_a_machines_own_progressive_has_exactly_one_machine(floor):
    a, b = machine(floor.manager, "S-1"), machine(floor.manager, "S-2")
    with pytest.raises(InvalidInput) as two:
        progressive(floor.manager, "own", scope="machine", machines_=[a, b])
    p = progressive(floor.manager, "own", scope="machine", machines_=[a])
    with pytest.raises(Conflict) as link:
        services.progressive_link(progressive_id=p.pk, machine_id=b.pk, actor=floor.manager)
    assert (two.value.code, link.value.code) == ("one_machine", "one_machine")
    assert list(p.machines.all()) == [a]


def test_bad_progressive_settings_are_refused_and_nothing_is_posted(floor):
    m = machine(floor.manager)
    progressive(floor.manager, machines_=[m])
    before = (Progressive.objects.count(), LedgerTransaction.objects.count())
    cases = [
        ({"code": "crazy-dragon"}, Conflict, "progressive_code_taken"),
        ({"code": "Crazy Dragon"}, InvalidInput, "bad_code"),
        ({"code": "x", "reset": 0}, InvalidInput, "out_of_range"),
        ({"code": "x", "bp": 10_001}, InvalidInput, "out_of_range"),
        ({"code": "x", "amount": CRAZY_DRAGON_RESET - 1}, InvalidInput, "below_reset"),
        ({"code": "x", "scope": "casino"}, InvalidInput, "bad_choice"),
    ]
    for kwargs, error, code in cases:
        with pytest.raises(error) as refused:
            progressive(floor.manager, machines_=[m], **kwargs)
        assert refused.value.code == code, kwargs
    assert (Progressive.objects.count(), LedgerTransaction.objects.count()) == before


def test_a_machine_linked_to_a_progressive_cannot_be_retired(floor):
    from slots.services.machines import machine_update

    m = machine(floor.manager)
    p = progressive(floor.manager, machines_=[m])
    with pytest.raises(Conflict) as refused:
        machine_update(machine_id=m.pk, status="retired", actor=floor.manager)
    assert refused.value.code == "machine_linked"
    services.progressive_unlink(progressive_id=p.pk, machine_id=m.pk, actor=floor.manager)
    assert machine_update(machine_id=m.pk, status="retired", actor=floor.manager).status == "retired"
    with pytest.raises(Conflict) as link:
        services.progressive_link(progressive_id=p.pk, machine_id=m.pk, actor=floor.manager)
    assert link.value.code == "machine_retired"


def test_one_reading_feeds_a_system_progressive_and_the_machines_own_in_one_balanced_posting(floor):
    # given a 25¢ Light Speed machine linked to the $700 system-wide progressive (1 %) and its own (0.25 %)
    m = machine(floor.manager, "LS-1", game="Light Speed", denomination=25)
    system = progressive(floor.manager, "light-speed", name="Light Speed", machines_=[m], reset=LIGHT_SPEED_RESET,
                         bp=100)
    own = progressive(floor.manager, "ls-1-own", name="LS-1 own", scope="machine", machines_=[m], reset=5_000, bp=25)
    read(m, floor.manager, 0)
    # when 987.65 is played (1 % = 9.8765 → 9.87, carry 0.0065; 0.25 % = 2.469125 → 2.46, carry 0.009125)
    r = read(m, floor.manager, 98_765)
    # then one transaction: the machine's contributions debited 12.33, each liability credited its share
    assert entries(r.transaction) == {"slots:machine:LS-1:contributions": 987 + 246, "progressive:light-speed": -987,
                                      "progressive:ls-1-own": -246}
    assert sorted(r.contributions.values_list("progressive__code", "amount", "remainder_after")) == [
        ("light-speed", 987, 6_500), ("ls-1-own", 246, 9_125)]
    assert (liability(system), liability(own)) == (LIGHT_SPEED_RESET + 987, 5_000 + 246)
    # when the machine's own progressive is hit, credited on the machine
    hit = services.progressive_hit(progressive_id=own.pk, machine_id=m.pk, paid_by="machine", actor=floor.manager)
    # then the system progressive is untouched, the own one is back at 50.00, and every balance is exact
    assert entries(hit.payout_transaction) == {"progressive:ls-1-own": 5_246, "slots:machine:LS-1:cash": -5_246}
    assert entries(hit.reset_transaction) == {"slots:progressive:ls-1-own:seed": 5_000, "progressive:ls-1-own": -5_000}
    assert (liability(system), liability(own)) == (LIGHT_SPEED_RESET + 987, 5_000)
    assert balance("slots:machine:LS-1:contributions") == 1_233
    assert balance("slots:machine:LS-1:cash") == -5_246
    assert balance("slots:progressive:ls-1-own:seed") == 10_000  # the start and the reset
    assert balance("slots:progressive:light-speed:seed") == LIGHT_SPEED_RESET
    assert_ledger_balanced()


def test_a_long_progressive_name_is_cut_in_the_account_name_only(floor):
    # given an 80-character progressive name (the seed account's name would pass the ledger's 120)
    m = machine(floor.manager)
    name = "Crazy Dragon " + "x" * 67
    # when it is set up and hit
    p = progressive(floor.manager, "crazy-dragon", name=name, machines_=[m])
    services.progressive_hit(progressive_id=p.pk, machine_id=m.pk, actor=floor.manager)
    # then its accounts keep their exact codes and the seed account holds the start and the reset
    seed = Account.objects.get(code="slots:progressive:crazy-dragon:seed")
    assert (len(seed.name), seed.name.startswith(name)) == (120, True)
    assert balance(seed.code) == 2 * CRAZY_DRAGON_RESET
    assert liability(p) == CRAZY_DRAGON_RESET


def test_a_retried_hit_is_paid_once(floor):
    from tests.fixtures import as_user

    # given a progressive at $2,000
    m = machine(floor.manager)
    p = progressive(floor.manager, machines_=[m])
    pm = as_user(floor.manager)
    body = {"machine": m.pk, "expected_amount": CRAZY_DRAGON_RESET}
    # when the attendant's tablet sends the hit twice with one key, then once more with a new key
    first = pm.post(f"/api/slots/progressives/{p.pk}/hit/", body, format="json", HTTP_IDEMPOTENCY_KEY="h-1")
    again = pm.post(f"/api/slots/progressives/{p.pk}/hit/", body, format="json", HTTP_IDEMPOTENCY_KEY="h-1")
    state = _state(p)
    # then one hit was paid, and the replay is the first answer
    assert (first.status_code, again.status_code, again.json()) == (201, 201, first.json())
    assert ProgressiveHit.objects.count() == 1
    assert balance("cage") == -CRAZY_DRAGON_RESET
    assert liability(p) == CRAZY_DRAGON_RESET
    # and a new hit entered at an amount the progressive does not stand at is refused, nothing paid
    third = pm.post(f"/api/slots/progressives/{p.pk}/hit/", {**body, "expected_amount": CRAZY_DRAGON_RESET + 1},
                    format="json", HTTP_IDEMPOTENCY_KEY="h-2")
    assert (third.status_code, third.json()["error"]["code"]) == (409, "amount_changed")
    assert _state(p) == state
