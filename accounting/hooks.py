"""What accounting does, inside the round's transaction, when a bet is placed or a round settles.

Registered into ``tables.listeners`` by :meth:`accounting.apps.AccountingConfig.ready` (tables sits
below accounting and never imports it). Cheap checks run here; anything that writes goes to a
Celery task through the outbox (``casino.outbox.enqueue``): the job is a row of this transaction
and is sent once it commits, so a broker outage never fails the dealer's request and never loses
the job. The settlement's ledger posting itself is ``accounting.services.ledger.round_post``, registered
beside these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext

from accounting.conf import int_knob
from accounting.selectors import close_of
from casino import task_names
from casino.errors import Conflict
from casino.outbox import enqueue
from casino.words import shift_words

if TYPE_CHECKING:
    from tables.models import Bet, Settlement, Shift, Table


def round_opening(*, table: Table, shift: Shift) -> None:
    """A table closed for a shift takes no new round in it: its figures are fixed (the database refuses it too)."""
    if close_of(table, shift) is not None:
        raise Conflict(gettext("%(table)s is closed for the shift %(shift)s: no more rounds in it")
                       % {"table": table.code, "shift": shift_words(shift)}, code="table_shift_closed")


def pay_correcting(*, table: Table, shift: Shift) -> None:
    """A table closed for a shift takes no correction of its rounds' pay lists: reopen its close first."""
    if close_of(table, shift) is not None:
        raise Conflict(gettext("%(table)s is closed for the shift %(shift)s: reopen the table's close to correct a pay list")
                       % {"table": table.code, "shift": shift_words(shift)}, code="table_shift_closed")


def bet_placed(*, bet: Bet) -> None:
    if bet.amount >= int_knob("LARGE_BET"):
        enqueue(task_names.LARGE_BET_ALERT, args=[bet.pk])


def round_settled(*, settlement: Settlement) -> None:
    if -settlement.house_net >= int_knob("LARGE_LOSS"):
        enqueue(task_names.ROUND_RESULT_ALERT, args=[settlement.round_id])
