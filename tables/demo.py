"""The demo floor: pits, a table of every game the engines play, staff of every role, an open
shift, dealers on their tables; and simulated play through the same services as the API.

A whole gaming day (the shifts before the open one, played, counted, closed and reconciled) is
``accounting.demo``: the paperwork is accounting's; this module gives it shifts, dealers and play,
and a clock (:func:`demo_clock`) that the services read, so an earlier shift's records carry its times.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, cast

from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher, get_hasher, make_password
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from casino.context import RequestContext, acting_as
from casino.core.models import StaffProfile
from casino.core.roles import Role
from casino.errors import DomainError
from tables.engines.errors import EngineError
from tables.engines.registry import available_games, get_engine
from tables.models import Assignment, Pit, Round, Shift, ShiftStatus, ShiftType, Table, TableStatus
from tables.services import floor, rounds
from tables.simulation.autoplay import AutoplayStuck, play_round

log = logging.getLogger(__name__)

DEMO_PASSWORD = "croupier-demo"
DEMO_PIN = "2468"  # every demo user's signing PIN (slips, counts, markers, approvals): published like the password
SHIFT_TYPES = [
    ("day", "Day", dt.time(6), dt.time(14)),
    ("swing", "Swing", dt.time(14), dt.time(22)),
    ("grave", "Graveyard", dt.time(22), dt.time(6)),
]
PITS = [("main", "Main pit"), ("salon", "Salon prive")]
# banked games in the main pit, pools and historical games in the salon
SALON_GAMES = {
    "chemin_de_fer",
    "faro",
    "stuss",
    "red_dog",
    "in_between",
    "carousel",
    "pony",
    "merry_go_round",
    "horse_race",
    "calcutta_horse_race",
    "trente_et_quarante",
    "pusoy",
}


def smallest_chip() -> int:
    """The smallest chip of the house's chip set (``CHIP_DENOMINATIONS``): what a tray can hold at the least."""
    denominations = cast(list[int], django_settings.CROUPIER["CHIP_DENOMINATIONS"])  # a list in settings
    return min(int(d) for d in denominations)


def with_chip(game: str, config: dict[str, Any]) -> dict[str, Any]:
    """A table's rules with its ``chip`` (where the game rounds commission, rake or a share to whole chips) set to
    the smallest chip of the house, so what the engine takes is what the dealer can take (docs/accounting.md,
    "Commission and rake in chips")."""
    if "chip" in config or not any(s.name == "chip" for s in get_engine(game).settings):
        return dict(config)
    return {**config, "chip": smallest_chip()}


@dataclass(frozen=True)
class TableSpec:
    """A demo table's limits (minor units), seats and rule settings."""

    min_bet: int = 500
    max_bet: int = 100_000
    seats: int = 7
    config: dict[str, Any] = field(default_factory=dict)


# Every pool bet at the Carousel games stakes exactly ``limit``: one 5.00 chip, paid in 1.00 chips.
CAROUSEL = {"limit": 500, "chip": 100}
# The pot games ante one table minimum; the house rakes 5 % of every win from the pot.
POT = {"ante": 500, "rake_bp": 500}
SPECS: dict[str, TableSpec] = {
    "baccarat": TableSpec(2_500, 2_500_000, 7),
    "chemin_de_fer": TableSpec(1_000, 500_000, 9),
    "blackjack": TableSpec(1_000, 500_000, 7),
    "pontoon": TableSpec(500, 10_000, 7, {"banker_seat": 1, "seats": 7}),
    "pai_gow_poker": TableSpec(1_000, 200_000, 6),
    "pusoy": TableSpec(1_000, 200_000, 3),
    "caribbean_stud": TableSpec(500, 50_000, 7),
    "let_it_ride": TableSpec(500, 50_000, 7),
    "red_dog": TableSpec(500, 50_000, 8, {**POT, "forfeit": 500}),
    "in_between": TableSpec(500, 50_000, 8, {**POT, "pair_pays": 1_000}),
    "faro": TableSpec(500, 100_000, 7),
    "stuss": TableSpec(500, 100_000, 7),
    "trente_et_quarante": TableSpec(1_000, 1_000_000, 10),
    "carousel": TableSpec(500, 10_000, 7, CAROUSEL),
    "pony": TableSpec(500, 10_000, 7, CAROUSEL),
    "merry_go_round": TableSpec(500, 10_000, 7, CAROUSEL),
    "horse_race": TableSpec(500, 50_000, 7),
    "calcutta_horse_race": TableSpec(500, 100_000, 7, {"min_bid": 500, "min_raise": 100}),
}
STAFF: list[tuple[str, Role | None]] = [
    ("admin", Role.ADMIN),
    ("pitboss", Role.PIT_MANAGER),
    ("salonboss", Role.PIT_MANAGER),
    ("accountant", Role.ACCOUNTANT),
    ("auditor", Role.AUDITOR),
    ("cashier", Role.CASHIER),  # the cage: issues fills and receives credits on the cage screen, takes marker payments
    ("counter1", Role.COUNT_TEAM),  # the count team: the two who count the drop boxes
    ("counter2", Role.COUNT_TEAM),
    # each pit's second pit manager: a void one of them asks for, the other approves
    ("pitboss2", Role.PIT_MANAGER),
    ("salonboss2", Role.PIT_MANAGER),
]


@dataclass
class DemoFloor:
    users: dict[str, Any] = field(default_factory=dict)
    tables: list[Table] = field(default_factory=list)
    shift: Shift | None = None


@functools.cache
def _demo_password_hash() -> str:
    # one (slow, by design) hash for every demo login: they all share the published demo password anyway
    return make_password(DEMO_PASSWORD)


@functools.cache
def _demo_pin_hash() -> str:
    # The demo's day checks a signing PIN a few hundred times (every count, slip and close): at the default
    # PBKDF2 work factor that was a third of the day's time. The PIN is published with the demo, so its hash
    # protects nothing: it keeps the algorithm, with fewer rounds (the hash names them; a check reads them there).
    hasher = get_hasher()
    if isinstance(hasher, PBKDF2PasswordHasher):
        return hasher.encode(DEMO_PIN, hasher.salt(), iterations=DEMO_PIN_ITERATIONS)
    return make_password(DEMO_PIN)


DEMO_PIN_ITERATIONS = 10_000


def _user(username: str, role: Role | None, n: int) -> Any:
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(username=username, defaults={"first_name": username.title()})
    if created:
        user.password = _demo_password_hash()
        if role is Role.ADMIN:
            user.is_staff = user.is_superuser = True
        user.save()
    if role is not None:
        user.groups.add(Group.objects.get_or_create(name=role.value)[0])
    profile, _ = StaffProfile.objects.get_or_create(user=user, defaults={"employee_id": f"D{n:04d}",
                                                                         "display_name": username})
    if not profile.pin_hash:  # a demo floor built before signing PINs gets them too
        StaffProfile.objects.filter(pk=profile.pk).update(pin_hash=_demo_pin_hash())
    return user


class DemoClock:
    """The time the services read while the demo plays an earlier shift (:func:`demo_clock`)."""

    def __init__(self, at: dt.datetime) -> None:
        self.at = at

    def __call__(self) -> dt.datetime:
        return self.at

    def set(self, at: dt.datetime) -> None:
        self.at = at

    def advance(self, delta: dt.timedelta) -> None:
        self.at += delta


@contextmanager
def demo_clock(at: dt.datetime) -> Iterator[DemoClock]:
    """Every ``timezone.now()`` reads this clock until the block ends: an earlier shift played by the
    demo has its rounds, counts, slips and audit records at that shift's times. For the demo loader
    only (a command run before the server starts), never in a request."""
    clock = DemoClock(at)
    real = timezone.now
    timezone.now = clock
    try:
        yield clock
    finally:
        timezone.now = real


def shift_before(shift: Shift, opened_by: Any) -> Shift:
    """The casino's shift that ended when ``shift`` started (found or created, open)."""
    local_start = timezone.localtime(shift.starts_at)
    tz = timezone.get_current_timezone()
    for st in ShiftType.objects.order_by("starts"):
        if st.ends != local_start.time():
            continue
        start_date = local_start.date() if st.starts < st.ends else local_start.date() - dt.timedelta(days=1)
        starts = dt.datetime.combine(start_date, st.starts, tzinfo=tz)
        found, _ = Shift.objects.get_or_create(
            shift_type=st, gaming_date=start_date,
            defaults={"starts_at": starts, "ends_at": shift.starts_at, "opened_by": opened_by},
        )
        return found
    raise RuntimeError(f"no shift type ends at {local_start.time()}: the demo's shift types cover the day")


def assign_dealers(demo: DemoFloor, shift: Shift) -> dict[int, Any]:
    """Each demo table's dealer on ``shift`` for its whole length (table id → dealer)."""
    dealers: dict[int, Any] = {}
    for n, table in enumerate(demo.tables, start=1):
        dealer = demo.users[f"dealer{n}"]
        assignment = Assignment.objects.filter(dealer=dealer, table=table, shift=shift).first()
        if assignment is None:
            assignment = Assignment.objects.create(
                dealer=dealer, table=table, shift=shift, starts_at=shift.starts_at, ends_at=shift.ends_at,
                assigned_by=demo.users["pitboss"],
            )
        dealers[table.pk] = dealer
    return dealers


def _current_shift_type(now: dt.datetime) -> tuple[ShiftType, dt.date]:
    local = timezone.localtime(now)
    t = local.time()
    for st in ShiftType.objects.all():
        if st.starts <= st.ends and st.starts <= t < st.ends:
            return st, local.date()
        if st.starts > st.ends and (t >= st.starts or t < st.ends):  # past midnight
            return st, local.date() if t >= st.starts else local.date() - dt.timedelta(days=1)
    raise RuntimeError("the demo shift types cover the whole day")


@transaction.atomic
def build_demo_floor() -> DemoFloor:
    """Create (or find) the demo floor; running it twice changes nothing."""
    demo = DemoFloor()
    for i, (username, role) in enumerate(STAFF, start=1):
        demo.users[username] = _user(username, role, i)
    for code, name, begins, finishes in SHIFT_TYPES:
        ShiftType.objects.get_or_create(code=code, defaults={"name": name, "starts": begins, "ends": finishes})
    pits = {code: Pit.objects.get_or_create(code=code, defaults={"name": name})[0] for code, name in PITS}
    pits["main"].managers.add(demo.users["pitboss"], demo.users["pitboss2"])
    pits["salon"].managers.add(demo.users["salonboss"], demo.users["salonboss2"])
    now = timezone.now()
    shift_type, gaming_date = _current_shift_type(now)
    tz = timezone.get_current_timezone()
    starts = dt.datetime.combine(gaming_date, shift_type.starts, tzinfo=tz)
    ends = dt.datetime.combine(gaming_date, shift_type.ends, tzinfo=tz)
    if ends <= starts:
        ends += dt.timedelta(days=1)
    demo.shift, _ = Shift.objects.get_or_create(
        shift_type=shift_type,
        gaming_date=gaming_date,
        defaults={"starts_at": starts, "ends_at": ends, "opened_by": demo.users["pitboss"]},
    )
    for n, game in enumerate(available_games(), start=1):
        code = f"{game.replace('_', '-')[:24].upper()}-1"
        spec = SPECS.get(game, TableSpec())
        settings = {"config": with_chip(game, spec.config), "min_bet": spec.min_bet, "max_bet": spec.max_bet,
                    "seats": spec.seats}
        pit = pits["salon" if game in SALON_GAMES else "main"]
        table, created = Table.objects.get_or_create(
            code=code,
            defaults={
                "name": f"{get_engine(game).title} 1",
                "pit": pit,
                "game": game,
                "status": TableStatus.OPEN,
                **settings,
            },
        )
        if not created and not table.rounds.exists() and {k: getattr(table, k) for k in settings} != settings:
            # a floor built by an older demo and never played: bring its rules up to date (audited)
            table = floor.table_update(table_id=table.pk, actor=demo.users["admin"], **settings)
        demo.tables.append(table)
        dealer = _user(f"dealer{n}", Role.DEALER, 100 + n)
        demo.users[dealer.username] = dealer
        if (
            demo.shift.status == ShiftStatus.OPEN
            and not Assignment.objects.filter(dealer=dealer, shift=demo.shift, relieved_at__isnull=True).exists()
        ):
            Assignment.objects.create(
                dealer=dealer,
                table=table,
                shift=demo.shift,
                starts_at=demo.shift.starts_at,
                ends_at=demo.shift.ends_at,
                assigned_by=demo.users["pitboss"],
            )
    return demo


def simulate_round(table: Table, dealer: Any, rng: random.Random) -> Round | None:
    """One round at a table through the services, as a dealer would play it; None if it cannot be played.

    The dealer opens the round (the service carries pots, pools, the button and the players still
    in from the previous round into its config), the players' bets go down, betting closes, the
    cards, choices and bets between stages are posted one by one, and the round is settled. The
    whole round is one transaction: a round that cannot be played leaves nothing behind.
    """
    engine = get_engine(table.game)
    try:
        with transaction.atomic(), acting_as(RequestContext(channel="command", device=f"demo:{table.code}")):
            rnd = rounds.round_open(table_id=table.pk, actor=dealer)
            players = (rnd.state or {}).get("carried_players")
            carried = [{"players": players}] if players else []  # betting_close posts it as event 0
            doc = play_round(engine, rnd.config, rng, seats=table.seats, events=carried)
            for bet in doc["bets"]:
                extra = {k: v for k, v in bet.items() if k not in ("id", "seat", "type", "amount")}
                rounds.bet_place(
                    round_id=rnd.pk,
                    actor=dealer,
                    seat=bet["seat"],
                    type=bet["type"],
                    amount=bet["amount"],
                    extra=extra,
                    client_id=bet["id"],
                )
            rounds.betting_close(round_id=rnd.pk, actor=dealer)
            for event in doc["events"][len(carried) :]:
                rounds.event_post(round_id=rnd.pk, actor=dealer, event=event)
            rounds.round_settle(round_id=rnd.pk, actor=dealer)
            rnd.refresh_from_db()
    except (AutoplayStuck, EngineError, DomainError) as exc:
        log.warning("demo: a round of %s at %s cannot be played: %s", table.game, table.code, exc)
        return None
    return rnd


def simulate(
    demo: DemoFloor,
    n_rounds: int,
    *,
    seed: int = 1,
    shift: Shift | None = None,
    clock: DemoClock | None = None,
    until: dt.datetime | None = None,
    rng: random.Random | None = None,
) -> dict[str, int]:
    """Play ``n_rounds`` rounds spread over the demo tables in turn; returns rounds settled per game.

    ``shift`` (default: the open one) names whose dealers deal; with a ``clock``, the rounds are spread
    evenly from the clock's time to ``until``.
    """
    rng = rng or random.Random(seed)
    played: dict[str, int] = {}
    shift = shift or demo.shift
    dealers = {
        a.table_id: a.dealer
        for a in Assignment.objects.filter(shift=shift, relieved_at__isnull=True).select_related("dealer")
    }
    tables = [t for t in demo.tables if t.status == TableStatus.OPEN and t.pk in dealers]
    step = (until - clock.at) / max(n_rounds, 1) if clock is not None and until is not None else None
    turn = 0
    while tables and sum(played.values()) < n_rounds:
        table = tables[turn % len(tables)]
        if clock is not None and step is not None:
            clock.advance(step)
        if simulate_round(table, dealers[table.pk], rng) is None:
            tables.remove(table)  # a table that cannot be played is left alone for the rest of the run
            continue
        played[table.game] = played.get(table.game, 0) + 1
        turn += 1
    return played
