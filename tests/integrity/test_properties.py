"""A property: whatever the floor and the accounting office do, in any order, by anyone, the books hold.

Hypothesis drives random sequences of floor and accounting actions (rounds, voids, counts, fills and
credits, markers, soft counts, closes) by random members of staff, each signature given rightly, wrongly,
by username alone or as a bare employee id. Refusals are expected; after every sequence:

* every ledger transaction balances;
* every signature on a count, slip, marker or soft count belongs to a person who proved it was them
  (a right password, or the person submitting), the signers of one record are different people, and the
  person who submitted it is one of them;
* nothing under a table's closed shift changed after it closed;
* the audit trail verifies (chains, and rounds held to it).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounting.models import DropCount, InventoryCount, Marker, MarkerPayment, Slip, TableShiftClose
from accounting.services import counts, shifts, slips
from casino.audit.verification import audit_verify
from casino.errors import DomainError
from tables.models import Bet, Round, Settlement, SettlementLine
from tables.services import rounds
from tests.accounting.helpers import BANKER_WINS, PLAYER_WINS, ledger_is_balanced, staff
from tests.accounting.test_worked_shift import CLOSER, OPENER

# (the casino's shift is closed at the end of each sequence, when it can be: closed early, nothing would follow)
ACTIONS = ["round", "round", "void", "opener", "closer", "fill", "credit", "marker", "pay", "drop", "close_table",
           "void_slip", "work_table", "close_table"]
MODES = ["password", "password", "session", "wrong", "employee_id"]
DONE: Counter[str] = Counter()
REFUSED: Counter[str] = Counter()
CODES: Counter[tuple[str, str]] = Counter()

# An action: what, whether by the people whose job it is (else by anyone), who, at which table, two signatures
# (a person and how their signature is given; in a plausible action only the way of giving it is random).
action = st.tuples(st.sampled_from(ACTIONS), st.sampled_from([True, True, True, False]), st.integers(0, 10),
                   st.integers(0, 1), st.lists(st.tuples(st.integers(0, 10), st.sampled_from(MODES)), min_size=2,
                                               max_size=2))
DEALER, OTHER_DEALER, MANAGER, OTHER_MANAGER, ACCOUNTANT, CASHIER, COUNTER, COUNTER2 = 0, 1, 2, 3, 4, 8, 9, 10
# who does it and who signs, by the action, when it is done by the people whose job it is (table 0's dealer and
# manager; table 1's are the next ones)
PLAUSIBLE = {
    "round": (DEALER, DEALER, MANAGER), "void": (DEALER, MANAGER, MANAGER), "opener": (MANAGER, DEALER, MANAGER),
    "closer": (MANAGER, DEALER, MANAGER), "fill": (MANAGER, CASHIER, DEALER), "credit": (MANAGER, DEALER, CASHIER),
    "marker": (MANAGER, MANAGER, DEALER), "pay": (MANAGER, DEALER, DEALER), "drop": (COUNTER, COUNTER, COUNTER2),
    "close_table": (MANAGER, MANAGER, MANAGER),
    "void_slip": (MANAGER, ACCOUNTANT, ACCOUNTANT), "work_table": (MANAGER, DEALER, COUNTER2),
}


def _at(index: int, table_i: int) -> int:
    """Table 1's dealer and manager stand where table 0's do."""
    return index + 1 if table_i == 1 and index in (DEALER, MANAGER) else index


class Run:
    """One sequence's world: the people, and what each record's signers proved."""

    def __init__(self, floor: Any) -> None:
        self.floor = floor
        people = staff(floor)
        self.people = [floor.dealer, floor.other_dealer, floor.manager, floor.other_manager, floor.accountant,
                       floor.auditor, floor.admin, floor.nobody, people.cashier, people.counter, people.counter2]
        self.proven: dict[tuple[str, int], set[int]] = {}
        self.sealed: dict[int, Any] = {}

    def signature(self, spec: tuple[int, str], actor: Any) -> tuple[Any, set[int]]:
        """The signature as given, and who it proves (nobody, if it proves nothing)."""
        person, mode = self.people[spec[0]], spec[1]
        if mode == "password":
            return {"username": person.username, "password": "pass"}, {person.pk}
        if mode == "session":
            return {"username": person.username}, {person.pk} if person.pk == actor.pk else set()
        if mode == "wrong":
            return {"username": person.username, "password": "guess"}, set()
        return person.staff.employee_id, set()

    def prove(self, kind: str, pk: int, *who: set[int]) -> None:
        self.proven.setdefault((kind, pk), set()).update(*who)


def _act(run: Run, name: str, actor: Any, table: Any, specs: list[tuple[int, str]]) -> None:
    floor = run.floor
    shift = floor.shift
    one, proves_one = run.signature(specs[0], actor)
    two, proves_two = run.signature(specs[1], actor)
    me = {actor.pk}
    if name == "round":
        rnd = rounds.round_open(table_id=table.pk, actor=actor)
        rounds.bet_place(round_id=rnd.pk, actor=actor, seat=1, type="player", amount=1000)
        rounds.betting_close(round_id=rnd.pk, actor=actor)
        for card in BANKER_WINS if rnd.pk % 2 else PLAYER_WINS:
            rounds.event_post(round_id=rnd.pk, actor=actor, event={"card": card})
        rounds.round_settle(round_id=rnd.pk, actor=actor)
    elif name == "void":
        rnd = rounds.round_open(table_id=table.pk, actor=actor)
        rounds.round_void_request(round_id=rnd.pk, actor=actor, reason="misdeal")
        rounds.round_void_approve(round_id=rnd.pk, actor=run.people[specs[0][0]])
    elif name in ("opener", "closer"):
        count = counts.inventory_count_record(actor=actor, table_id=table.pk, shift_id=shift.pk, kind=name,
                                              chips=OPENER if name == "opener" else CLOSER, dealer=one, supervisor=two)
        run.prove("count", count.pk, proves_one, proves_two)
    elif name in ("fill", "credit"):
        slip = slips.slip_request(actor=actor, kind=name, table_id=table.pk, shift_id=shift.pk, chips={"2500": 4})
        run.prove("slip", slip.pk, me)
        slips.slip_issue(actor=actor, slip_id=slip.pk, signer=one)
        run.prove("slip", slip.pk, proves_one)
        slips.slip_receive(actor=actor, slip_id=slip.pk, signer=two)
        run.prove("slip", slip.pk, proves_two)
    elif name == "marker":
        marker = slips.marker_issue(actor=actor, table_id=table.pk, shift_id=shift.pk, player="P. Smith",
                                    amount=20_000, supervisor=one, dealer=two)
        run.prove("marker", marker.pk, proves_one, proves_two)
    elif name == "pay":
        marker = Marker.objects.filter(table=table).order_by("-id").first()
        if marker is not None:
            payment = slips.marker_pay(actor=actor, marker_id=marker.pk, amount=1_000, at_table=specs[0][0] % 2 == 0,
                                       signer=one)
            run.prove("payment", payment.pk, proves_one, me)
    elif name == "drop":
        drop = counts.drop_count_record(actor=actor, table_id=table.pk, shift_id=shift.pk, cash=50_000, chips=0,
                                        markers=0, counter_one=one, counter_two=two)
        run.prove("drop", drop.pk, proves_one, proves_two)
    elif name == "work_table":  # what a table's shift needs to close: both counts and the soft count, well signed
        dealer, counter = run.people[specs[0][0]], run.people[specs[1][0]]
        for kind, chips in (("opener", OPENER), ("closer", CLOSER)):
            count = counts.inventory_count_record(actor=actor, table_id=table.pk, shift_id=shift.pk, kind=kind,
                                                  chips=chips, dealer={"username": dealer.username, "password": "pass"},
                                                  supervisor={"username": actor.username})
            run.prove("count", count.pk, {dealer.pk}, me)
        team = run.people[COUNTER]  # the count team counts the box
        drop = counts.drop_count_record(actor=team, table_id=table.pk, shift_id=shift.pk, cash=50_000, chips=0,
                                        markers=0, counter_one={"username": team.username},
                                        counter_two={"username": counter.username, "password": "pass"})
        run.prove("drop", drop.pk, {team.pk}, {counter.pk})
    elif name == "close_table":
        shifts.table_shift_close(actor=actor, table_id=table.pk, shift_id=shift.pk)
        run.sealed[table.pk] = _under(table, shift)
    elif name == "void_slip":
        slip = Slip.objects.filter(table=table).order_by("-id").first()
        if slip is not None:
            slips.slip_void_request(actor=actor, slip_id=slip.pk, reason="keyed the wrong table")
            slips.slip_void_approve(actor=run.people[specs[1][0]], slip_id=slip.pk)


def _under(table: Any, shift: Any) -> dict[str, list[Any]]:
    """Everything under a table's shift, as values (a marker's terms: what it shows paid moves with cage payments)."""
    rows = Round.objects.filter(table=table, shift=shift)
    return {
        "counts": list(InventoryCount.objects.filter(table=table, shift=shift).order_by("id").values()),
        "drops": list(DropCount.objects.filter(table=table, shift=shift).order_by("id").values()),
        "slips": list(Slip.objects.filter(table=table, shift=shift).order_by("id").values()),
        "markers": list(Marker.objects.filter(table=table, shift=shift).order_by("id").values(
            "id", "number", "player", "amount", "supervisor_signer", "dealer_signer", "issued_by", "issued_at")),
        "payments": list(MarkerPayment.objects.filter(table=table, shift=shift).order_by("id").values()),
        "rounds": list(rows.order_by("id").values()),
        "bets": list(Bet.objects.filter(round__in=rows).order_by("id").values()),
        "settlements": list(Settlement.objects.filter(round__in=rows).order_by("id").values()),
        "lines": list(SettlementLine.objects.filter(settlement__round__in=rows).order_by("id").values()),
        "closes": list(TableShiftClose.objects.filter(table=table, shift=shift).values()),
    }


def _signers_hold(run: Run) -> None:
    def check(kind: str, pk: int, signers: list[Any], submitter: int | None) -> None:
        people = [s.user_id for s in signers]
        assert len(set(people)) == len(people), (kind, pk, people)  # different people
        assert set(people) <= run.proven.get((kind, pk), set()), (kind, pk, people)  # each proved it
        if submitter is not None:
            assert submitter in people, (kind, pk)  # the submitter signs what they submit

    for c in InventoryCount.objects.select_related("dealer_signer", "supervisor_signer"):
        check("count", c.pk, [c.dealer_signer, c.supervisor_signer], c.recorded_by_id)
    for d in DropCount.objects.select_related("counter_one", "counter_two"):
        check("drop", d.pk, [d.counter_one, d.counter_two], d.recorded_by_id)
    for m in Marker.objects.select_related("supervisor_signer", "dealer_signer"):
        check("marker", m.pk, [m.supervisor_signer, m.dealer_signer], m.issued_by_id)
    for p in MarkerPayment.objects.select_related("signer"):
        check("payment", p.pk, [p.signer], None)
    for s in Slip.objects.select_related("request_signer", "issue_signer", "receive_signer"):
        signers = [x for x in (s.request_signer, s.issue_signer, s.receive_signer) if x is not None]
        check("slip", s.pk, signers, None)
        assert s.request_signer.user_id == s.requested_by_id


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(sequence=st.lists(action, min_size=4, max_size=18))
def _property(floor: Any, sequence: list[Any]) -> None:
    with transaction.atomic():  # each sequence starts from the same floor and leaves nothing behind
        run = Run(floor)
        tables = [floor.table, floor.other_table]
        for name, plausible, actor_i, table_i, specs in sequence:
            if plausible:
                who, first, second = (_at(i, table_i) for i in PLAUSIBLE[name])
                actor_i, specs = who, [(first, specs[0][1]), (second, specs[1][1])]
            try:
                with transaction.atomic():
                    _act(run, name, run.people[actor_i], tables[table_i], specs)
            except DomainError as refusal:
                REFUSED[name] += 1  # a refusal: the service said no and wrote nothing
                CODES[(name, refusal.code)] += 1
            else:
                DONE[name] += 1
        try:
            with transaction.atomic():
                shifts.shift_close(actor=floor.manager, shift_id=floor.shift.pk)
        except DomainError as refusal:
            CODES[("close_shift", refusal.code)] += 1
        else:
            DONE["close_shift"] += 1
        bad, _ = ledger_is_balanced()
        assert bad == []
        _signers_hold(run)
        for table in tables:
            if table.pk in run.sealed:
                assert _under(table, floor.shift) == run.sealed[table.pk], table.code
        verification = audit_verify()
        assert verification.ok, verification.breaks
        transaction.set_rollback(True)


def test_random_floor_and_accounting_actions_by_random_roles_keep_the_books(floor):
    DONE.clear()
    REFUSED.clear()
    _property(floor)
    # the sequences did things, not only get refused: rounds, signed records, tables closed mid-sequence
    assert min(DONE["round"], DONE["work_table"], DONE["close_table"]) > 0, (DONE, CODES)
    assert DONE["fill"] + DONE["credit"] + DONE["marker"] > 0, (DONE, CODES)
    assert sum(REFUSED.values()) > 0
