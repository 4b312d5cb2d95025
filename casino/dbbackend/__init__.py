"""Croupier's PostgreSQL backend: Django's, plus writes that ride on the transaction's next boundary (base.py)."""
