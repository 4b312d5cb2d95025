"""The slot floor's ledger accounts and postings (``accounting.services.ledger``).

A progressive's jackpot is owed to the players: a liability, ``progressive:<code>`` (accounting's
``progressive_account``). So are the credits a bonus meter holds (``slots:machine:<asset>:bonus:<name>``).

* Contributions and bonus accruals come out of the machine's coin in: they are debited to the
  machine's contributions account, a contra-revenue (the ledger has no expense kind; a casino books
  progressive accruals as a reduction of gaming revenue), and credited to the liability.
* A reset is funded by the house: debited to a seed account (contra-revenue as well), credited to
  the liability — the progressive's for a progressive, the machine's for its bonus meters.
* A hit pays the liability out: a hand-pay leaves the cage; credits paid on the machine leave the
  machine's cash (``slots:machine:<asset>:cash``).
"""

from __future__ import annotations

from typing import Any

from accounting.models import Account, AccountKind, LedgerTransaction
from accounting.services.ledger import account_for, casino_accounts, ledger_post, progressive_account
from slots.models import BonusMeter, Machine, PaidBy, Progressive, bonus_account_code
from tables.models import Shift
from tables.selectors import shift_at

# accounting.models.Account: code and name lengths
CODE_MAX = 80
NAME_MAX = 120


def _account(code: str, name: str, kind: AccountKind) -> Account:
    # a long game, progressive or meter label is cut in the account's name (the code stays exact)
    return account_for(code, name=name[:NAME_MAX], kind=kind)


def liability_account(progressive: Progressive) -> Account:
    return progressive_account(progressive.code)


def seed_account(progressive: Progressive) -> Account:
    return _account(
        f"slots:progressive:{progressive.code}:seed",
        f"{progressive.name}: resets funded by the house (contra-revenue)",
        AccountKind.REVENUE,
    )


def contributions_account(machine: Machine) -> Account:
    return _account(
        f"slots:machine:{machine.asset_number}:contributions",
        f"{machine.asset_number}: coin in set aside for progressives and bonus meters (contra-revenue)",
        AccountKind.REVENUE,
    )


def machine_seed_account(machine: Machine) -> Account:
    return _account(
        f"slots:machine:{machine.asset_number}:seed",
        f"{machine.asset_number}: bonus-meter resets funded by the house (contra-revenue)",
        AccountKind.REVENUE,
    )


def machine_cash_account(machine: Machine) -> Account:
    return _account(
        f"slots:machine:{machine.asset_number}:cash", f"{machine.asset_number}: cash in the machine", AccountKind.ASSET
    )


def bonus_account(meter: BonusMeter) -> Account:
    return _account(
        bonus_account_code(meter.machine, meter.name),
        f"{meter.machine.asset_number} {meter.label}: credits owed",
        AccountKind.LIABILITY,
    )


def payout_account(machine: Machine, paid_by: str) -> Account:
    return casino_accounts()["cage"] if paid_by == PaidBy.HANDPAY else machine_cash_account(machine)


def open_shift() -> Shift | None:
    """The shift a slot posting made now belongs to, by the one rule of :func:`tables.selectors.shift_at`
    (the slot floor has no pit: the open shift whose hours cover now); None when no shift is open."""
    return shift_at()


def post(
    *, kind: str, source_id: Any, lines: list[tuple[Account, int]], memo: str, actor: Any
) -> LedgerTransaction | None:
    """One balanced transaction; nothing when every line is zero (a reading with no coin in)."""
    if not any(amount for _, amount in lines):
        return None
    return ledger_post(kind=kind, source_type=kind, source_id=source_id, lines=lines, memo=memo, actor=actor,
                       shift=open_shift())
