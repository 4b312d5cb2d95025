from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Floor, tables and rounds"

    def ready(self) -> None:
        from casino.audit.archive import register_month_check
        from casino.exceptions import register_refusal
        from tables.engines.errors import EngineError
        from tables.selectors import shifts_open_in

        register_refusal(EngineError, status=400)  # an engine's refusal of a card, bet or choice
        register_month_check(shifts_open_in)  # a month's audit records are archived once its shifts are closed
