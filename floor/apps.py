from django.apps import AppConfig


class FloorConfig(AppConfig):
    """The screens that span the apps (each role's home, the dealer's table, the pit floor), the
    ``croupier`` template tags every area's templates load, and the demo floor (docs/architecture.md)."""

    name = "floor"
    verbose_name = "Floor screens"
