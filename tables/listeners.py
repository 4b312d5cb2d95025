"""Who is told, inside the round's own transaction, that a bet was placed or a round settled.

tables sits below accounting (the ledger's rows point at tables' shifts, tables and rounds), so
the round services cannot import accounting. Instead the apps above register their functions
here from their ``AppConfig.ready`` (accounting: ``accounting/apps.py``), and the services call
:func:`bet_placed` and :func:`round_settled`; a grep for either name finds both ends.

The same goes for the figures accounting keeps running per table and shift (``accounting.services.running``):
a settlement, every bet row written and a bet taken back reach it through :func:`round_settled`,
:func:`bets_recorded` and :func:`bet_withdrawn`.

Everything registered runs in the caller's transaction, so it commits or rolls back with the
round: the settlement's ledger posting is atomic with the settlement, and a job a listener asks
for is an outbox row of the same transaction (``casino.outbox.enqueue``), sent to the broker by
``transaction.on_commit`` once it commits. A settlement without a ledger to post it to is a
configuration error, not something to skip.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:
    from tables.models import Bet, PayCorrection, Settlement, Shift, Table


class SettlementListener(Protocol):
    def __call__(self, *, settlement: Settlement) -> Any: ...


class BetListener(Protocol):
    def __call__(self, *, bet: Bet) -> Any: ...


class BetsListener(Protocol):
    def __call__(self, *, bets: Sequence[Bet]) -> Any: ...


class OpeningCheck(Protocol):
    def __call__(self, *, table: Table, shift: Shift) -> Any: ...


class CorrectionListener(Protocol):
    def __call__(self, *, correction: PayCorrection) -> Any: ...


_ledger: list[SettlementListener] = []  # exactly one: the settlement's posting (accounting.services.ledger)
_settled: list[SettlementListener] = []  # checks after the posting (large loss…)
_placed: list[BetListener] = []  # checks on a placed bet (large bet…)
_recorded: list[BetsListener] = []  # every Bet row written (accounting's running figures: big bets)
_withdrawn: list[BetListener] = []  # a bet taken back before betting closed
_opening: list[OpeningCheck] = []  # checks before a round opens (a table closed for the shift…): they raise
_correcting: list[OpeningCheck] = []  # checks before a settled round's pay list is corrected: they raise
_corrections: list[CorrectionListener] = []  # exactly one: a pay correction's posting (accounting.services.ledger)


def register_ledger(post: SettlementListener) -> SettlementListener:
    """The function that posts a settlement to the ledger; registering another replaces it."""
    _ledger[:] = [post]
    return post


def register_round_settled(listener: SettlementListener) -> SettlementListener:
    if listener not in _settled:
        _settled.append(listener)
    return listener


def register_bet_placed(listener: BetListener) -> BetListener:
    if listener not in _placed:
        _placed.append(listener)
    return listener


def register_bets_recorded(listener: BetsListener) -> BetsListener:
    if listener not in _recorded:
        _recorded.append(listener)
    return listener


def register_bet_withdrawn(listener: BetListener) -> BetListener:
    if listener not in _withdrawn:
        _withdrawn.append(listener)
    return listener


def register_round_opening(check: OpeningCheck) -> OpeningCheck:
    if check not in _opening:
        _opening.append(check)
    return check


def round_opening(*, table: Table, shift: Shift) -> None:
    """Before a round opens at ``table`` in ``shift``: each registered check may refuse it (raise)."""
    for check in _opening:
        check(table=table, shift=shift)


def settlement_post(*, settlement: Settlement) -> None:
    """Post the settlement to the ledger, in the settlement's transaction."""
    if not _ledger:
        raise ImproperlyConfigured("no ledger is registered to post round settlements to (tables.listeners)")
    _ledger[0](settlement=settlement)


def round_settled(*, settlement: Settlement) -> None:
    for listener in _settled:
        listener(settlement=settlement)


def bet_placed(*, bet: Bet) -> None:
    for listener in _placed:
        listener(bet=bet)


def bets_recorded(*, bets: Sequence[Bet]) -> None:
    """Every Bet row written, whoever wrote it: placed at betting time, during the deal, or a stake a
    choice put down at settlement (``bet_placed`` is only the first: the large-bet check)."""
    if bets:
        for listener in _recorded:
            listener(bets=bets)


def bet_withdrawn(*, bet: Bet) -> None:
    for listener in _withdrawn:
        listener(bet=bet)


def register_pay_correction_ledger(post: CorrectionListener) -> CorrectionListener:
    """The function that posts a supervisor's pay correction to the ledger; registering another replaces it."""
    _corrections[:] = [post]
    return post


def register_pay_correcting(check: OpeningCheck) -> OpeningCheck:
    if check not in _correcting:
        _correcting.append(check)
    return check


def pay_correcting(*, table: Table, shift: Shift) -> None:
    """Before a settled round of ``table`` in ``shift`` has its pay list corrected: each check may refuse (raise)."""
    for check in _correcting:
        check(table=table, shift=shift)


def pay_correction_post(*, correction: PayCorrection) -> None:
    """Post the money a pay correction moves to the ledger, in the correction's transaction."""
    if not _corrections:
        raise ImproperlyConfigured("no ledger is registered to post pay corrections to (tables.listeners)")
    _corrections[0](correction=correction)
