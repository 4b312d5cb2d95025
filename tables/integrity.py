"""Rounds, bets and settlements held to each other and to the audit trail (``AUDIT_RECORD_CHECKS``).

The database seals a settled round (tables/migrations/0005), but the tables' owner could still switch
the guard off and rewrite one. ``verify_audit`` therefore also compares what the rounds say with what
was written when they were played: a settled round's state with its settlement's document, the
settlement's totals and lines with that document, the round's document with its bet rows, and all of
it with the hash-chained audit records of the settlement and of each bet. A round that disagrees is a
break of its table's chain (reason ``round_mismatch``), with the round named.

A full verification compares every round ever played. The hourly (incremental) one compares the rounds of
the shifts not yet closed and of those that started within ``AUDIT_RECORD_CHECK_WINDOW``: its cost follows
the floor's recent play, not the history; an older round rewritten is left to the next full verification,
as an older audit record is (docs/audit.md, "What verification catches").

PostgreSQL only (the comparisons run in the database, over JSON); on SQLite nothing is checked here.
"""

from __future__ import annotations

import datetime as dt

from django.db import connection

from casino.audit.chain import Break

# (what is wrong, the query naming the rounds it is wrong for: id, number, table code, audit chain, seq, record id)
_CHECKS = [
    ("has no settlement", """
        SELECT r.id, r.number, t.code, NULL, NULL, NULL FROM tables_round r JOIN tables_table t ON t.id = r.table_id
        WHERE r.status = 'settled' AND NOT EXISTS (SELECT 1 FROM tables_settlement s WHERE s.round_id = r.id)
        {scope}"""),
    ("states another result than its settlement", """
        SELECT r.id, r.number, t.code, NULL, NULL, NULL FROM tables_round r JOIN tables_table t ON t.id = r.table_id
        JOIN tables_settlement s ON s.round_id = r.id
        WHERE r.state IS DISTINCT FROM s.document {scope}"""),
    ("has a settlement whose totals are not its document's", """
        SELECT r.id, r.number, t.code, NULL, NULL, NULL FROM tables_round r JOIN tables_table t ON t.id = r.table_id
        JOIN tables_settlement s ON s.round_id = r.id
        WHERE s.document ? 'house' AND (s.house_net IS DISTINCT FROM (s.document->'house'->>'net')::bigint
              OR s.commission IS DISTINCT FROM COALESCE((s.document->'house'->>'commission')::bigint, 0)
              OR s.rake IS DISTINCT FROM COALESCE((s.document->'house'->>'rake')::bigint, 0)
              -- the pool change it stored as it settled (RoundResult.pool_change of this document)
              OR s.pool_change IS DISTINCT FROM COALESCE((s.document->'pool'->>'carry_out')::bigint, 0)
                                               - COALESCE((s.document->'pool'->>'carry_in')::bigint, 0)) {scope}"""),
    ("was settled otherwise than its audit record says", """
        SELECT r.id, r.number, t.code, a.chain, a.seq, a.id FROM tables_round r JOIN tables_table t ON t.id = r.table_id
        JOIN tables_settlement s ON s.round_id = r.id
        JOIN audit_auditrecord a ON a.object_type = 'round' AND a.object_id = r.id::text AND a.action = 'round.settle'
        WHERE (a.after->'house' IS DISTINCT FROM s.document->'house'
           OR a.after->'bets' IS DISTINCT FROM (
                SELECT COALESCE(jsonb_agg(jsonb_build_object('id', x->'id', 'result', x->'result', 'net', x->'net',
                                                             'commission', x->'commission') ORDER BY n), '[]'::jsonb)
                FROM jsonb_array_elements(s.document->'bets') WITH ORDINALITY e(x, n))) {scope}"""),
    ("has settlement lines other than its settlement document", """
        SELECT DISTINCT r.id, r.number, t.code, NULL::text, NULL::bigint, NULL::bigint
        FROM tables_settlementline l JOIN tables_settlement s ON s.id = l.settlement_id
        JOIN tables_bet b ON b.id = l.bet_id JOIN tables_round r ON r.id = s.round_id
        JOIN tables_table t ON t.id = r.table_id
        WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(s.document->'bets') x
                          WHERE x->>'id' = b.client_id AND (x->>'net')::bigint = l.net AND x->>'result' = l.result
                            AND COALESCE((x->>'commission')::bigint, 0) = l.commission) {scope}"""),
    ("has a document whose bets are not its bet rows", """
        SELECT r.id, r.number, t.code, NULL, NULL, NULL FROM tables_round r JOIN tables_table t ON t.id = r.table_id
        WHERE r.document IS NOT NULL AND (
              jsonb_array_length(r.document->'bets')
                <> (SELECT count(*) FROM tables_bet b WHERE b.round_id = r.id AND b.event_index IS NULL)
              OR EXISTS (SELECT 1 FROM jsonb_array_elements(r.document->'bets') d
                         WHERE NOT EXISTS (SELECT 1 FROM tables_bet b WHERE b.round_id = r.id
                                           AND b.event_index IS NULL AND b.client_id = d->>'id'
                                           AND b.amount = (d->>'amount')::bigint AND b.seat = (d->>'seat')::int
                                           AND b.type = d->>'type'))) {scope}"""),
    ("has a bet other than its audit record says", """
        SELECT DISTINCT r.id, r.number, t.code, a.chain, a.seq, a.id FROM tables_bet b
        JOIN tables_round r ON r.id = b.round_id JOIN tables_table t ON t.id = r.table_id
        JOIN audit_auditrecord a ON a.object_type = 'bet' AND a.object_id = b.id::text AND a.action = 'bet.place'
        WHERE ((a.after->>'amount')::bigint IS DISTINCT FROM b.amount OR (a.after->>'seat')::int IS DISTINCT FROM b.seat
           OR a.after->>'type' IS DISTINCT FROM b.type OR (a.after->>'round')::bigint IS DISTINCT FROM b.round_id)
        {scope}"""),
]


# The rounds an incremental verification compares: those of the shifts still open (or closing) and of those that
# started since the window's start (through the rounds' shift index; a shift has a few thousand rounds).
_RECENT = ("AND r.shift_id IN (SELECT sh.id FROM tables_shift sh WHERE sh.status <> 'closed' "
           "OR sh.starts_at >= %(since)s)")


def rounds_against_trail(*, since: dt.datetime | None = None) -> list[Break]:
    """Every round whose records disagree with each other or with the audit trail, once per cause; with
    ``since``, only the rounds of the shifts not closed and of those that started at or after it."""
    if connection.vendor != "postgresql":
        return []
    breaks = []
    scope = "" if since is None else _RECENT
    with connection.cursor() as cursor:
        for what, sql in _CHECKS:
            cursor.execute(sql.replace("{scope}", scope), {"since": since} if since is not None else None)
            for round_id, number, code, chain, seq, record_id in cursor.fetchall():
                breaks.append(Break(chain or f"table:{code}", seq, record_id, "round_mismatch",
                                    f"round #{number} at {code} (round {round_id}) {what}"))
    return breaks
