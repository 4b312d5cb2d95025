from django.apps import AppConfig


class FloorConfig(AppConfig):
    """The screens that span the apps (each role's home, the dealer's table, the pit floor), the
    ``croupier`` template tags every area's templates load, and the demo floor (docs/architecture.md)."""

    name = "floor"
    verbose_name = "Floor screens"

    def ready(self) -> None:
        from accounting import labels
        from floor.labels import alert_text

        labels.alert_wording[:] = [alert_text]  # the alerts API words an alert as the screens do
