from __future__ import annotations

from typing import Any

BANKER_WIN = ["9S", "KH", "5D", "3C", "2H", "4S"]  # player 6, banker 7


def open_round(client: Any, table: Any) -> dict:
    response = client.post("/api/rounds/", {"table": table.pk}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def counts() -> dict[str, int]:
    """Rows of everything a request could write: a refused request must leave these unchanged."""
    from accounting.models import Entry, LedgerTransaction
    from casino.audit.models import AuditRecord
    from casino.core.models import IdempotencyRecord
    from tables.models import Bet, Round, RoundEvent, Settlement, SettlementLine

    models = [Round, Bet, RoundEvent, Settlement, SettlementLine, LedgerTransaction, Entry, AuditRecord,
              IdempotencyRecord]
    return {m.__name__: m.objects.count() for m in models}
