"""Slot-machine services: machines and meter readings, progressives, bonus meters (docs/slots.md)."""
