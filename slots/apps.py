from django.apps import AppConfig


class SlotsConfig(AppConfig):
    name = "slots"
    verbose_name = "Slot machines"
