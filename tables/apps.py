from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Floor, tables and rounds"

    def ready(self) -> None:
        from casino.exceptions import register_refusal
        from tables.engines.errors import EngineError

        register_refusal(EngineError, status=400)  # an engine's refusal of a card, bet or choice
