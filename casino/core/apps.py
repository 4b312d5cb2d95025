from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "casino.core"
    label = "core"
    verbose_name = "Croupier core"

    def ready(self) -> None:
        from casino import embedded

        embedded.start()  # only under `runserver` in the embedded mode (no broker): beat's jobs in process
