"""The demo's paperwork: a whole gaming day as the pit, the cage and the count team enter it.

``play_day`` plays the shifts before the open one and then the open one, each through the same
services as the API: every table's opener (counted the first time, rolled from the last closer
after), rounds, a voided round, fills and credits where a tray runs low or high, markers (one paid
back in chips at the table, one at the cage), and for the earlier shifts the soft count, the closer,
every table's close, the casino's close, the reconciliation, and a signed audit checkpoint; the open
shift ends with a void its pit manager asked for at the baccarat table, waiting for the pit's other pit
manager on the voids screen. So a fresh ``make run`` has figures in every report and on every screen.

Every signature is given in :class:`Clerk` (one place): today the services take staff credential
ids; when they take authenticated signatures, only the Clerk changes.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from accounting.models import InventoryCount, Marker, Slip, SlipKind
from accounting.selectors import TableShiftFigures, table_shift_figures, table_shift_figures_many
from accounting.services import counts, reconcile, shifts, slips
from accounting.services.counts import denominations_for
from casino.audit.verification import audit_checkpoint_create
from casino.context import RequestContext, acting_as
from casino.errors import DomainError
from tables.demo import DEMO_PIN, DemoClock, DemoFloor, assign_dealers, demo_clock, shift_before, simulate
from tables.engines.errors import EngineError
from tables.engines.registry import get_engine
from tables.models import Round, RoundStatus, Shift, Table
from tables.services import rounds

log = logging.getLogger(__name__)

MARKER_PLAYERS = ("Zoë Łukasz", "王伟", "Ana Núñez")
TRAY_MIN_BETS = 400  # an opener holds about this many table minimums in chips
SHORT_TABLE_GAME = "red_dog"  # the earliest shift's count at this table comes up short (a variance to explain)
SHORT_BY = 2_500


def _signature(user: Any) -> dict[str, str]:
    """Another person's signature: their username and signing PIN (the demo's, published like its password)."""
    return {"username": user.get_username(), "pin": DEMO_PIN}


def _own(user: Any) -> dict[str, str]:
    """The signature of the person signed in: their username alone (their session proves it)."""
    return {"username": user.get_username()}


def spread(value: int, denominations: list[int], *, cap: int = 40) -> dict[str, int]:
    """``value`` in chips, largest first, at most ``cap`` of a denomination but the smallest; what the
    smallest chip cannot make is left out (a count is in chips)."""
    chips: dict[str, int] = {}
    ordered = sorted(denominations, reverse=True)
    for i, d in enumerate(ordered):
        n = value // d if i == len(ordered) - 1 else min(value // d, cap)
        if n:
            chips[str(d)] = n
            value -= n * d
    return chips


def chips_value(chips: dict[str, int]) -> int:
    return sum(int(d) * n for d, n in chips.items())


@dataclass
class Clerk:
    """The people who sign the paperwork, and every service call that takes a signature."""

    demo: DemoFloor

    @property
    def cashier(self) -> Any:
        return self.demo.users["cashier"]

    def pit_manager(self, table: Table) -> Any:
        return self.demo.users["salonboss" if table.pit.code == "salon" else "pitboss"]

    def dealer(self, table: Table) -> Any:
        return self.demo.users[f"dealer{self.demo.tables.index(table) + 1}"]

    def opener(self, table: Table, shift: Shift, chips: dict[str, int]) -> Any:
        pm = self.pit_manager(table)
        return counts.inventory_count_record(
            actor=pm, table_id=table.pk, shift_id=shift.pk, kind="opener", chips=chips,
            dealer=_signature(self.dealer(table)), supervisor=_own(pm),
        )

    def roll(self, table: Table, shift: Shift) -> Any:
        return counts.inventory_roll(actor=self.pit_manager(table), table_id=table.pk, shift_id=shift.pk)

    def closer(self, table: Table, shift: Shift, chips: dict[str, int]) -> Any:
        pm = self.pit_manager(table)
        return counts.inventory_count_record(
            actor=pm, table_id=table.pk, shift_id=shift.pk, kind="closer", chips=chips,
            dealer=_signature(self.dealer(table)), supervisor=_own(pm),
        )

    def fill(self, table: Table, shift: Shift, chips: dict[str, int], *, receive: bool = True) -> Slip:
        """Requested by the pit, issued by the cage, received by the table's dealer (the ledger posts)."""
        pm = self.pit_manager(table)
        slip = slips.slip_request(actor=pm, kind=SlipKind.FILL, table_id=table.pk, shift_id=shift.pk, chips=chips)
        slip = slips.slip_issue(actor=self.cashier, slip_id=slip.pk, signer=_own(self.cashier))  # at the cage
        if receive:
            slip = slips.slip_receive(actor=pm, slip_id=slip.pk, signer=_signature(self.dealer(table)))
        return slip

    def credit(self, table: Table, shift: Shift, chips: dict[str, int]) -> Slip:
        """Requested by the pit, issued by the table's dealer, received by the cage."""
        pm = self.pit_manager(table)
        slip = slips.slip_request(actor=pm, kind=SlipKind.CREDIT, table_id=table.pk, shift_id=shift.pk, chips=chips)
        slip = slips.slip_issue(actor=pm, slip_id=slip.pk, signer=_signature(self.dealer(table)))
        return slips.slip_receive(actor=self.cashier, slip_id=slip.pk, signer=_own(self.cashier))  # at the cage

    def marker(self, table: Table, shift: Shift, player: str, amount: int) -> Marker:
        pm = self.pit_manager(table)
        return slips.marker_issue(
            actor=pm, table_id=table.pk, shift_id=shift.pk, player=player, amount=amount,
            supervisor=_own(pm), dealer=_signature(self.dealer(table)),
        )

    def pay_at_table(self, marker: Marker, amount: int) -> Any:
        table = marker.table
        return slips.marker_pay(actor=self.pit_manager(table), marker_id=marker.pk, amount=amount, at_table=True,
                                signer=_signature(self.dealer(table)), table_id=table.pk,
                                shift_id=marker.shift_id)

    def pay_at_cage(self, marker: Marker, amount: int) -> Any:
        return slips.marker_pay(actor=self.cashier, marker_id=marker.pk, amount=amount,
                                at_table=False, signer=_own(self.cashier))

    def drop(self, table: Table, shift: Shift, *, cash: int, markers: int) -> Any:
        return counts.drop_count_record(
            actor=self.demo.users["counter1"], table_id=table.pk, shift_id=shift.pk, cash=cash, chips=0,
            markers=markers, counter_one=_own(self.demo.users["counter1"]),
            counter_two=_signature(self.demo.users["counter2"]),
        )

    def close_table(self, table: Table, shift: Shift) -> Any:
        return shifts.table_shift_close(actor=self.pit_manager(table), table_id=table.pk, shift_id=shift.pk)

    def close_shift(self, shift: Shift) -> Shift:
        return shifts.shift_close(actor=self.demo.users["pitboss"], shift_id=shift.pk)

    def void_round(self, table: Table) -> Round | None:
        """A misdeal: the dealer opens a round, takes a bet, asks for a void; the pit manager approves."""
        dealer = self.dealer(table)
        try:
            with transaction.atomic():
                rnd = rounds.round_open(table_id=table.pk, actor=dealer)
                rounds.bet_place(round_id=rnd.pk, actor=dealer, seat=1, type=next(iter(_bet_types(table))),
                                 amount=table.min_bet, client_id="b1")
                rounds.round_void_request(round_id=rnd.pk, actor=dealer, reason="misdeal: a card was exposed")
                return rounds.round_void_approve(round_id=rnd.pk, actor=self.pit_manager(table))
        except (DomainError, EngineError) as exc:  # a first bet that needs more than a type and an amount
            log.info("demo: no void at %s: %s", table.code, exc)
            return None


    def pending_void(self, table: Table) -> Round | None:
        """The open shift's last round at the table: a bet taken, then its pit manager asks for a void, left
        for the pit's other pit manager to decide on the voids screen (the one who asks never decides)."""
        dealer, manager = self.dealer(table), self.pit_manager(table)
        try:
            with transaction.atomic():
                rnd = rounds.round_open(table_id=table.pk, actor=dealer)
                rounds.bet_place(round_id=rnd.pk, actor=dealer, seat=1, type=next(iter(_bet_types(table))),
                                 amount=table.min_bet, client_id="b1")
                return rounds.round_void_request(round_id=rnd.pk, actor=manager,
                                                 reason="exposed card: the first card was turned over in the shoe")
        except (DomainError, EngineError) as exc:
            log.info("demo: no void request at %s: %s", table.code, exc)
            return None


def _bet_types(table: Table) -> list[str]:

    return [name for name, spec in get_engine(table.game).bet_types.items() if not spec.required]


@dataclass
class DayResult:
    shifts: list[Shift] = field(default_factory=list)
    played: dict[str, int] = field(default_factory=dict)
    slips: int = 0
    markers: int = 0
    voids: int = 0
    checkpoints: int = 0


class Day:
    """One gaming day of paperwork around the demo's play."""

    def __init__(self, demo: DemoFloor, *, seed: int, before_open_end: Callable[[Shift], Any] | None = None) -> None:

        self.demo = demo
        self.before_open_end = before_open_end
        self.clerk = Clerk(demo)
        self.rng = random.Random(seed)
        self.result = DayResult()
        self.denominations = {t.pk: denominations_for(t) for t in demo.tables}

    def _denoms(self, table: Table, *, up_to: int | None = None) -> list[int]:
        ds = [d for d in self.denominations[table.pk] if d <= (up_to or table.max_bet)]
        return ds or self.denominations[table.pk][:1]

    def opener_chips(self, table: Table) -> dict[str, int]:
        return spread(TRAY_MIN_BETS * table.min_bet, self._denoms(table, up_to=50 * table.min_bet))

    # -- a shift ---------------------------------------------------------------------------------

    def open_tables(self, shift: Shift) -> None:
        for table in self.demo.tables:
            if table.inventory_counts.filter(shift=shift, kind="opener").exists():
                continue
            if table.inventory_counts.filter(kind="closer", shift__starts_at__lt=shift.starts_at).exists():
                self.clerk.roll(table, shift)
            else:
                self.clerk.opener(table, shift, self.opener_chips(table))

    def mid_shift(self, shift: Shift, *, marker_players: tuple[str, ...]) -> list[Marker]:
        """Markers at two tables (one paid back in chips here and now), trays trued up with fills and credits."""
        by_game = {t.game: t for t in self.demo.tables}
        made = []
        for game, player, paid in (("baccarat", marker_players[0], True), ("blackjack", marker_players[1], False)):
            table = by_game.get(game)
            if table is None:
                continue
            marker = self.clerk.marker(table, shift, player, 50 * table.min_bet)
            made.append(marker)
            self.result.markers += 1
            if paid:
                self.clerk.pay_at_table(marker, 20 * table.min_bet)
        self.true_up(shift, closing=False)
        return made

    def true_up(self, shift: Shift, *, closing: bool) -> None:
        """A fill where a tray has fallen under half its opener, a credit where it holds over twice it.
        When the floor needs neither, the baccarat table still takes a fill mid-shift and the fullest
        other tray sends a credit back at closing, so each shift has both kinds of slip."""
        found = table_shift_figures_many(self.demo.tables, shift)
        kinds: set[str] = set()
        for table in self.demo.tables:
            f = found[table.pk]
            if f.opener is None:
                continue
            tray = self.tray(f)
            if tray < f.opener.total // 2:
                chips = spread(f.opener.total - tray, self._denoms(table, up_to=20 * table.min_bet))
                if chips:
                    self.clerk.fill(table, shift, chips)
                    kinds.add("fill")
            elif tray > 2 * f.opener.total:
                chips = spread(tray - f.opener.total, self._denoms(table), cap=10)
                if chips:
                    self.clerk.credit(table, shift, chips)
                    kinds.add("credit")
        if not closing and "fill" not in kinds:
            table = next(t for t in self.demo.tables if t.game == "baccarat")
            self.clerk.fill(table, shift, spread(40 * table.min_bet, self._denoms(table, up_to=20 * table.min_bet)))
            kinds.add("fill")
        if closing and "credit" not in kinds:
            filled = set(Slip.objects.filter(shift=shift, kind=SlipKind.FILL).values_list("table_id", flat=True))
            others = [t for t in self.demo.tables if found[t.pk].opener is not None and t.pk not in filled]
            fullest = max(others, key=lambda t: self.tray(found[t.pk]) - _total(found[t.pk].opener))
            self.clerk.credit(fullest, shift, spread(10 * fullest.min_bet, self._denoms(fullest), cap=2))
        self.result.slips = Slip.objects.count()

    @staticmethod
    def tray(f: TableShiftFigures) -> int:
        """What the tray should hold before any chip is sold for cash: the opener, fills less credits,
        less the chips given for markers, plus marker payments in chips, the rounds' win and the pots."""
        assert f.opener is not None
        return (f.opener.total + f.fills - f.credits - f.markers_issued + f.marker_payments
                + f.rounds_win + f.pool_change)

    def count_and_close(self, shift: Shift, *, first: bool) -> None:
        """The soft count, the closers, every table's close, the casino's close and the reconciliation."""
        self.true_up(shift, closing=True)
        for table in self.demo.tables:
            f = table_shift_figures(table, shift)
            if f.opener is None:
                continue
            tray = self.tray(f)
            floor = f.opener.total // 2
            sold = round(self.rng.uniform(0.2, 0.5) * f.handle) // 100 * 100  # chips bought with cash
            cash = max(0, min(sold, tray - floor))
            short = SHORT_BY if first and table.game == SHORT_TABLE_GAME else 0
            closer = spread(tray - cash - short, self._denoms(table))
            self.clerk.drop(table, shift, cash=cash, markers=f.markers_issued)
            self.clerk.closer(table, shift, closer)
        for table in self.demo.tables:
            if table.inventory_counts.filter(shift=shift, kind="closer").exists():
                self.clerk.close_table(table, shift)

    def reconcile(self, shift: Shift) -> None:
        # the close queued the job (run in process in the embedded mode, by a worker otherwise); the demo
        # runs the service too, so its figures are there at once: the second run returns the first
        reconcile.reconcile_shift(shift_id=shift.pk)

    def play_shift(self, shift: Shift, rounds_n: int, *, clock: DemoClock, closed: bool, first: bool) -> None:
        start, end = shift.starts_at, shift.ends_at
        # an earlier shift is played from its start to its end; the open one from its start until now
        last = end - dt.timedelta(minutes=40) if closed else min(end, dt.datetime.now(dt.UTC))
        lead = min(dt.timedelta(minutes=10), (last - start) / 4)
        assign_dealers(self.demo, shift)
        clock.set(start + lead / 2)
        self.open_tables(shift)
        clock.set(start + lead)
        span = last if closed else last - lead / 4
        third = clock.at + (span - clock.at) / 3
        played = simulate(self.demo, rounds_n // 3, shift=shift, clock=clock, until=third, rng=self.rng)
        markers = self.mid_shift(shift, marker_players=MARKER_PLAYERS[:2] if first else MARKER_PLAYERS[1:])
        table = next((t for t in self.demo.tables if t.game == "blackjack"), self.demo.tables[0])
        if self.clerk.void_round(table) is not None:
            self.result.voids += 1
        more = simulate(self.demo, rounds_n - rounds_n // 3, shift=shift, clock=clock, until=span, rng=self.rng)
        for bag in (played, more):
            for game, n in bag.items():
                self.result.played[game] = self.result.played.get(game, 0) + n
        unpaid = list(Marker.objects.filter(pk__in=[m.pk for m in markers], paid=0))
        if unpaid and closed:
            self.clerk.pay_at_cage(unpaid[0], unpaid[0].amount)  # the player settles at the cage
        if not closed:
            if self.before_open_end is not None:  # what the apps above add to the open shift (players/demo.py)
                self.before_open_end(shift)
            baccarat = next((t for t in self.demo.tables if t.game == "baccarat"), self.demo.tables[0])
            self.clerk.pending_void(baccarat)  # for pitboss2 (or salonboss2) on the voids screen
            return
        clock.set(end - dt.timedelta(minutes=30))
        self.count_and_close(shift, first=first)
        clock.set(end - dt.timedelta(minutes=10))
        self.clerk.close_shift(shift)
        clock.set(end + dt.timedelta(minutes=5))
        self.reconcile(shift)


def play_day(demo: DemoFloor, *, rounds_per_shift: int, earlier_shifts: int = 2, seed: int = 1,
             before_open_end: Callable[[Shift], Any] | None = None) -> DayResult:
    """The ``earlier_shifts`` shifts before the open one, played and closed with their paperwork, then
    the open one (openers, play, markers, fills and credits so far). Idempotent per shift: a shift
    that already has rounds is left as it is. ``before_open_end``: called with the open shift once its play is
    dealt, before the void left pending at its baccarat table (which keeps that table's round live)."""
    assert demo.shift is not None
    day = Day(demo, seed=seed, before_open_end=before_open_end)
    chain = [demo.shift]
    for _ in range(earlier_shifts):
        chain.insert(0, shift_before(chain[0], demo.users["pitboss"]))
    with acting_as(RequestContext(channel="command", device="demo")):
        for i, shift in enumerate(chain):
            if Round.objects.filter(shift=shift).exclude(status=RoundStatus.VOIDED).exists():
                continue  # played by an earlier run
            closed = shift.pk != demo.shift.pk
            with demo_clock(shift.starts_at) as clock:
                day.play_shift(shift, rounds_per_shift, clock=clock, closed=closed, first=i == 0)
            day.result.shifts.append(shift)
        day.result.checkpoints = _checkpoint()
    return day.result


def _checkpoint() -> int:
    """Sign the audit trail's chain heads, as the beat does every few minutes."""

    return len(audit_checkpoint_create())


def _total(count: InventoryCount | None) -> int:
    return count.total if count is not None else 0
