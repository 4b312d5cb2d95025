"""Building blocks for the players tests: a clock the tests move, baccarat rounds at chosen times."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone

from players.models import Player
from tables.services import rounds
from tests.factories import UserFactory

# P 9S 5D 2H = 6, B KH 3C 4S = 7: the banker wins (tests/tables/test_round_flow.py)
BANKER_WINS = ["9S", "KH", "5D", "3C", "2H", "4S"]
# P 9S KD = 9 natural, B 2C 3H = 5: the player wins
PLAYER_WINS = ["9S", "2C", "KD", "3H"]


class Clock:
    """``timezone.now()`` as the test says: services, rounds and audit all read it."""

    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def at(self, minutes: float) -> dt.datetime:
        return self.start + dt.timedelta(minutes=minutes)

    def set(self, minutes: float) -> dt.datetime:
        self.now = self.at(minutes)
        return self.now

    start: dt.datetime


@contextmanager
def frozen_clock() -> Iterator[Clock]:
    real = timezone.now().replace(microsecond=0)
    clock = Clock(real)
    clock.start = real
    with mock.patch("django.utils.timezone.now", clock):
        yield clock


@pytest.fixture
def clock() -> Iterator[Clock]:
    with frozen_clock() as c:
        yield c


def play_round(table: Any, dealer: Any, bets: list[tuple[int, str, int]], cards: list[str]) -> Any:
    """Open, bet (seat, type, amount), close betting, deal, settle — all at the clock's time now."""
    rnd = rounds.round_open(table_id=table.pk, actor=dealer)
    for seat, bet_type, amount in bets:
        rounds.bet_place(round_id=rnd.pk, actor=dealer, seat=seat, type=bet_type, amount=amount)
    rounds.betting_close(round_id=rnd.pk, actor=dealer)
    for card in cards:
        rounds.event_post(round_id=rnd.pk, actor=dealer, event={"card": card})
    return rounds.round_settle(round_id=rnd.pk, actor=dealer)


def make_player(
    floor: Any, *, first: str = "Ada", last: str = "Lovelace", card: str | None = "C1001", **more: Any
) -> Player:
    from players.services.players import player_create

    return player_create(actor=floor.manager, first_name=first, last_name=last, card_number=card, **more)


def compliance_user(username: str = "compliance") -> Any:
    from casino.core.roles import Role

    return UserFactory(username=username, roles=[Role.COMPLIANCE])
