from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "casino.audit"
    label = "audit"
    verbose_name = "Audit trail"

    def ready(self) -> None:
        from casino.audit import receivers  # noqa: F401  (connects the auth and permission hooks)
