"""What the round services call, inside their transaction, when a bet is placed or a round settles.

Cheap checks run here; anything that writes goes to a Celery task through the outbox
(``casino.outbox.enqueue``): the job is a row of this transaction and is sent once it commits, so
a broker outage never fails the dealer's request and never loses the job.
"""

from __future__ import annotations

from accounting.conf import int_knob
from casino.outbox import enqueue


def bet_placed(*, bet_id: int, amount: int) -> None:
    if amount >= int_knob("LARGE_BET"):
        from accounting.tasks import large_bet_alert

        enqueue(large_bet_alert.name, args=[bet_id])


def round_settled(*, round_id: int, house_net: int) -> None:
    if -house_net >= int_knob("LARGE_LOSS"):
        from accounting.tasks import round_result_alert

        enqueue(round_result_alert.name, args=[round_id])
