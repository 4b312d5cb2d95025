"""Pure-Python game engines: no Django, no database, no clock (enforced by import-linter)."""
