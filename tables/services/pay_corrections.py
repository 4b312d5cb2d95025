"""A supervisor corrects a pay list the dealer confirmed (docs/game_protection.md, "Dealers").

The dealer confirms a round's pay list by settling it (``round_settle``: the settlement names them). When the
pay list turns out wrong (a bet paid that should have been collected, a payout miscounted), a pit manager of the
table, never the dealer who confirmed it, records what each bet should have been paid or collected, with a
reason. The settlement and its lines stay as they were (financial records are never edited): the correction is
a row written once beside them, its money a ledger transaction of its own, and an audit record. Each counts
against the dealer who confirmed the pay list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from casino.audit.services import audit_log
from casino.errors import Conflict, Forbidden, InvalidInput
from tables import listeners
from tables.access import ensure_manages
from tables.models import PayCorrection, RoundStatus, Settlement, status_words
from tables.services.locks import lock_round

NET_LIMIT = 10**15  # minor units: far beyond any bet, within what the ledger's integers hold


def paid_nets(settlement: Settlement) -> dict[str, int]:
    """Each bet's net as the pay list now stands: the settlement's, with every earlier correction applied."""
    nets = {line.bet.client_id: line.net for line in settlement.lines.select_related("bet")}
    for correction in settlement.corrections.order_by("id"):
        for line in correction.lines:
            nets[str(line["bet"])] = int(line["net"])
    return nets


@transaction.atomic
def pay_correct(*, round_id: int, actor: Any, lines: Sequence[Any], reason: Any) -> PayCorrection:
    """Record a supervisor's correction of a settled round's pay list: ``lines`` are ``{"bet": id, "net": n}``,
    each bet's net (the bettor's gain, + paid, − collected, minor units) as it should have been."""
    rnd = lock_round(round_id)
    ensure_manages(actor, rnd.table)
    if rnd.status != RoundStatus.SETTLED:
        raise Conflict(gettext("round #%(round)s is %(status)s: only a settled round's pay list can be corrected")
                       % {"round": rnd.number, "status": status_words(rnd.status)},
                       code=f"round_{rnd.status}")
    settlement = Settlement.objects.get(round=rnd)
    if settlement.settled_by_id == actor.pk:
        raise Forbidden(gettext("a pay list is corrected by someone other than the dealer who confirmed it"),
                        code="same_person")
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise InvalidInput(gettext("a correction needs a written reason"), code="reason_required", field="reason")
    if len(text) > 200:
        raise InvalidInput(gettext("the reason is at most 200 characters"), code="reason_too_long", field="reason")
    listeners.pay_correcting(table=rnd.table, shift=rnd.shift)
    nets = paid_nets(settlement)
    seats = {b.client_id: (b.seat, b.type) for b in rnd.bets.filter(client_id__in=list(nets))}
    changed = _changed_lines(lines, nets, seats)
    house_change = -sum(line["net"] - line["was"] for line in changed)
    correction = PayCorrection.objects.create(
        round=rnd, settlement=settlement, confirmed_by_id=settlement.settled_by_id, corrected_by=actor,
        corrected_at=timezone.now(), reason=text, house_change=house_change, lines=changed)
    listeners.pay_correction_post(correction=correction)  # its money, atomic with the record
    audit_log(actor=actor, action="round.pay_correct", object_type="round", object_id=rnd.pk,
              table_code=rnd.table.code,
              before={"bets": {line["bet"]: line["was"] for line in changed}},
              after={"correction": correction.pk, "bets": {line["bet"]: line["net"] for line in changed},
                     "house_change": house_change, "reason": text, "confirmed_by": settlement.settled_by_id})
    return correction


def _changed_lines(lines: Any, nets: dict[str, int], seats: dict[str, tuple[int, str]]) -> list[dict[str, Any]]:
    """The lines given, checked: each names a bet of the pay list once, with a whole net; those that change."""
    if not isinstance(lines, list | tuple) or not lines:
        raise InvalidInput(gettext("name at least one bet and its corrected net"), code="lines_required", field="lines")
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, line in enumerate(lines):
        bet = line.get("bet") if isinstance(line, dict) else None
        net = line.get("net") if isinstance(line, dict) else None
        if not isinstance(bet, str) or bet not in nets:
            raise InvalidInput(gettext("line %(line)s: no bet %(bet)s on this round's pay list") % {"line": i + 1, "bet": bet}, code="unknown_bet",
                               field=f"lines[{i}].bet")
        if bet in seen:
            raise InvalidInput(gettext("line %(line)s: the bet %(bet)s is named twice") % {"line": i + 1, "bet": bet}, code="duplicate_bet",
                               field=f"lines[{i}].bet")
        seen.add(bet)
        if isinstance(net, bool) or not isinstance(net, int) or abs(net) > NET_LIMIT:
            raise InvalidInput(gettext("line %(line)s: the net is a whole amount of money, paid or collected") % {"line": i + 1}, code="bad_net",
                               field=f"lines[{i}].net")
        if net != nets[bet]:
            seat, kind = seats.get(bet, (0, ""))
            out.append({"bet": bet, "seat": seat, "type": kind, "was": nets[bet], "net": net})
    if not out:
        raise InvalidInput(gettext("nothing to correct: every net given is the pay list's"), code="nothing_changed",
                           field="lines")
    return out
