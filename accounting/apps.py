from django.apps import AppConfig


class AccountingConfig(AppConfig):
    name = "accounting"
    verbose_name = "Accounting"

    def ready(self) -> None:
        from accounting import hooks, ops
        from accounting.services import running
        from accounting.services.ledger import pay_correction_post, round_post
        from tables import listeners

        # the round services post every settlement to the ledger and tell accounting of bets and
        # results, in their own transaction (tables/listeners.py, docs/architecture.md)
        listeners.register_ledger(round_post)
        listeners.register_bet_placed(hooks.bet_placed)
        listeners.register_round_settled(hooks.round_settled)
        listeners.register_round_opening(hooks.round_opening)
        listeners.register_pay_correction_ledger(pay_correction_post)
        listeners.register_pay_correcting(hooks.pay_correcting)
        # the running figures of the table's shift, in the same transaction (accounting/services/running.py)
        listeners.register_round_settled(running.round_settled)
        listeners.register_bets_recorded(running.bets_recorded)
        listeners.register_bet_withdrawn(running.bet_withdrawn)

        ops.register()  # reconciliation lateness, stale-job alerts, variances, trial balance (casino/ops)
