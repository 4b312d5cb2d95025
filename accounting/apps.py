from django.apps import AppConfig


class AccountingConfig(AppConfig):
    name = "accounting"
    verbose_name = "Accounting"

    def ready(self) -> None:
        from accounting import ops

        ops.register()  # reconciliation lateness, stale-job alerts, variances, trial balance (casino/ops)
