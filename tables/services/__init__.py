"""Writes to the floor. Every entry point is atomic and audits in the same transaction."""
