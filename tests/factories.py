"""factory_boy factories and a ready-made floor for tests."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import factory
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.utils import timezone

from casino.core.models import StaffProfile
from casino.core.roles import Role
from tables.models import Assignment, Pit, Shift, ShiftType, Table

User = get_user_model()


PASSWORD = "pass"
_hashed: dict[tuple[str, ...], str] = {}


def hashed_password() -> str:
    """Everyone's password (``PASSWORD``) hashed once a run by the first of the hashers settings name: a user is
    written whole in one INSERT, not saved again after ``set_password``."""
    hashers = tuple(settings.PASSWORD_HASHERS)
    if hashers not in _hashed:
        _hashed[hashers] = make_password(PASSWORD)
    return _hashed[hashers]


class UserFactory(factory.django.DjangoModelFactory):
    """A person with ``roles`` (the role groups the migrations create) and a staff profile; password ``PASSWORD``."""

    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.LazyFunction(hashed_password)

    @factory.post_generation
    def roles(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        names = [Role(role).value for role in extracted or ()]
        if names:
            groups = list(Group.objects.filter(name__in=names))
            groups += [Group.objects.create(name=name) for name in set(names) - {g.name for g in groups}]
            self.groups.add(*groups)
        StaffProfile.objects.create(user=self, employee_id=f"E{self.pk:05d}", display_name=self.username)


class PitFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Pit

    code = factory.Sequence(lambda n: f"pit{n}")
    name = factory.Sequence(lambda n: f"Pit {n}")


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    code = factory.Sequence(lambda n: f"T{n}")
    name = factory.LazyAttribute(lambda table: f"Table {table.code}")  # a name as a floor gives it, whatever the run
    pit = factory.SubFactory(PitFactory)
    game = "baccarat"
    config = factory.LazyFunction(dict)
    min_bet = 500
    max_bet = 500_000
    seats = 7
    status = "open"


def open_shift(opened_by: Any, *, code: str = "day", hours: int = 8) -> Shift:
    shift_type, _ = ShiftType.objects.get_or_create(code=code, defaults={"name": code.title(), "starts": dt.time(6),
                                                                         "ends": dt.time(14)})
    now = timezone.now()
    return Shift.objects.create(shift_type=shift_type, gaming_date=now.date(), starts_at=now - dt.timedelta(hours=1),
                                ends_at=now + dt.timedelta(hours=hours), opened_by=opened_by)


def assign(dealer: Any, table: Table, shift: Shift, by: Any) -> Assignment:
    return Assignment.objects.create(dealer=dealer, table=table, shift=shift, starts_at=shift.starts_at,
                                     ends_at=shift.ends_at, assigned_by=by)


@dataclass
class Floor:
    pit: Pit
    other_pit: Pit
    table: Table
    other_table: Table
    shift: Shift
    dealer: Any
    other_dealer: Any
    manager: Any
    other_manager: Any
    accountant: Any
    auditor: Any
    admin: Any
    nobody: Any


def build_floor() -> Floor:
    """Two pits; a baccarat table in each, each with its dealer; staff of every role; an open shift."""
    manager = UserFactory(username="pm", roles=[Role.PIT_MANAGER])
    other_manager = UserFactory(username="pm2", roles=[Role.PIT_MANAGER])
    pit, other_pit = PitFactory(code="main", name="Main pit"), PitFactory(code="salon", name="Salon prive")
    pit.managers.add(manager)
    other_pit.managers.add(other_manager)
    table = TableFactory(code="BAC1", pit=pit)
    other_table = TableFactory(code="BAC2", pit=other_pit)
    shift = open_shift(manager)
    dealer = UserFactory(username="dealer", roles=[Role.DEALER])
    other_dealer = UserFactory(username="dealer2", roles=[Role.DEALER])
    assign(dealer, table, shift, manager)
    assign(other_dealer, other_table, shift, other_manager)
    return Floor(
        pit=pit, other_pit=other_pit, table=table, other_table=other_table, shift=shift, dealer=dealer,
        other_dealer=other_dealer, manager=manager, other_manager=other_manager,
        accountant=UserFactory(username="accountant", roles=[Role.ACCOUNTANT]),
        auditor=UserFactory(username="auditor", roles=[Role.AUDITOR]),
        admin=UserFactory(username="admin", roles=[Role.ADMIN]),
        nobody=UserFactory(username="nobody"),
    )
