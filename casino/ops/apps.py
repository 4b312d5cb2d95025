from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "casino.ops"
    label = "ops"
    verbose_name = "Operations: health, metrics, job heartbeats, backups"

    def ready(self) -> None:
        from casino.ops import jobs, metrics  # noqa: F401  (connect the Celery and sign-in signals)
