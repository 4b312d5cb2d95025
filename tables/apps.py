from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Floor, tables and rounds"

    def ready(self) -> None:
        from casino.audit import exports
        from casino.audit.archive import register_month_check
        from casino.exceptions import register_refusal
        from tables import wording
        from tables.engines.errors import EngineError
        from tables.selectors import recorded_step, shifts_open_in

        register_refusal(EngineError, status=400)  # an engine's refusal of a card, bet or choice
        register_month_check(shifts_open_in)  # a month's audit records are archived once its shifts are closed
        # the audit trail words a round's recorded step as the dealer read it (an older record's re-derived)
        exports.step_wording[:] = [lambda record, step: wording.prompt(recorded_step(record, dict(step)))]
