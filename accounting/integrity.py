"""The sealed financial records held to the audit trail, and the ledger held to its own invariants
(``AUDIT_RECORD_CHECKS``).

The database seals slips, counts, soft counts, markers and their payments and write-offs, table closes,
reconciliations and the ledger (accounting/migrations), but the tables' owner could still switch the guards
off and rewrite one. ``verify_audit`` therefore compares each of them with what the hash-chained audit trail
recorded when it was written, and checks the ledger itself:

- :func:`records_against_trail`: each slip's kind, number, chips, total and status; each count's kind, shift,
  chips and total; each soft count's parts; each marker's amount, player and what was paid on it; each
  payment and write-off; each table close's figures; each reconciliation's outcome, with its audit record.
  A record with no audit record at all (inserted by hand) is named too.
- :func:`ledger_against_records`: every transaction balances; each posting of a round equals the lines
  its settlement gives (the "postings equal the settlement" rule, ``accounting.services.ledger.round_line_codes``,
  here in SQL), each posting of a slip, count, soft count, marker, payment, write-off, close or reversal equals
  the lines its record gives, a reversal is one its ``ledger.reverse`` audit record states, and a record
  that posts has its posting; a full verification also sums the whole ledger (zero).

The records are held to the trail and the postings to the records, so a line changed in the ledger, or a
record changed with its posting, is found. A break names the record (reason ``record_mismatch`` or
``ledger_mismatch``) on the chain of its audit record.

A full verification compares every record. The hourly (incremental) one compares those of the shifts not yet
closed and of those that started within ``AUDIT_RECORD_CHECK_WINDOW`` (through the records' shift index), and
the few records that have no shift (payments at the cage, write-offs, postings without a shift) of that window:
its cost follows recent activity, not the history. The whole ledger's sum is read by the full one only.

PostgreSQL only (the comparisons run in the database, over JSON); on SQLite nothing is checked here. The
ledger's checks take a cursor, so that a restore runs them on the restored copy directly (casino/ops/backup.py).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import connection

from casino.audit.chain import Break

RECORD_MISMATCH = "record_mismatch"
LEDGER_MISMATCH = "ledger_mismatch"

# The shifts an incremental verification covers (the rounds' rule, tables/integrity.py).
_SHIFTS = "(SELECT sh.id FROM tables_shift sh WHERE sh.status <> 'closed' OR sh.starts_at >= %(since)s)"

_SLIP = ("s.kind || ' slip ' || upper(left(s.kind, 1)) || s.year || '-' || lpad(s.number::text, 6, '0') "
         "|| ' at ' || t.code || ' (slip ' || s.id || ')'")
_MARKER = "'marker M' || m.year || '-' || lpad(m.number::text, 6, '0') || ' (marker ' || m.id || ')'"


def _figure(record: str, column: str, key: str) -> str:
    return f"({record}->>'{key}')::bigint IS DISTINCT FROM {column}"


# The table close's figures as its audit record states them (the record's key, the close's column).
_CLOSE_FIGURES = [("opener", "opener_total"), ("closer", "closer_total"), ("fills", "fills"),
                  ("credits", "credits"), ("drop", "drop"), ("marker_payments", "marker_payments"),
                  ("markers_issued", "markers_issued"), ("count_win", "count_win"), ("rounds", "rounds"),
                  ("handle", "handle"), ("rounds_win", "rounds_win"), ("commission", "commission"),
                  ("rake", "rake"), ("pool_change", "pool_change"), ("variance", "variance"), ("shift", "shift_id")]

# (what is wrong, the query naming the records it is wrong for: the record in words, table code, audit chain,
# seq, record id); {scope} narrows an incremental verification to recent records.
_RECORD_CHECKS = [
    ("differs from its audit record", f"""
        SELECT DISTINCT ON (s.id) {_SLIP}, t.code, a.chain, a.seq, a.id
        FROM accounting_slip s JOIN tables_table t ON t.id = s.table_id
        JOIN audit_auditrecord a ON a.object_type = 'slip' AND a.object_id = s.id::text AND a.after ? 'total'
        WHERE ({_figure("a.after", "s.total", "total")} OR a.after->'chips' IS DISTINCT FROM s.chips
               OR a.after->>'kind' IS DISTINCT FROM s.kind
               OR a.after->>'reference' IS DISTINCT FROM
                  upper(left(s.kind, 1)) || s.year || '-' || lpad(s.number::text, 6, '0')) {{scope}}
        ORDER BY s.id, a.id""", "s.shift_id IN " + _SHIFTS),
    ("is in another status than its audit trail says", f"""
        SELECT {_SLIP}, t.code, a.chain, a.seq, a.id
        FROM accounting_slip s JOIN tables_table t ON t.id = s.table_id
        JOIN LATERAL (SELECT * FROM audit_auditrecord a WHERE a.object_type = 'slip' AND a.object_id = s.id::text
                      AND a.after ? 'status' ORDER BY a.id DESC LIMIT 1) a ON true
        WHERE a.after->>'status' IS DISTINCT FROM s.status {{scope}}""", "s.shift_id IN " + _SHIFTS),
    ("has no audit record", f"""
        SELECT {_SLIP}, t.code, NULL, NULL, NULL FROM accounting_slip s JOIN tables_table t ON t.id = s.table_id
        WHERE NOT EXISTS (SELECT 1 FROM audit_auditrecord a WHERE a.object_type = 'slip'
                          AND a.object_id = s.id::text) {{scope}}""", "s.shift_id IN " + _SHIFTS),
    ("differs from its audit record", """
        SELECT c.kind || ' count at ' || t.code || ' (count ' || c.id || ')', t.code, a.chain, a.seq, a.id
        FROM accounting_inventorycount c JOIN tables_table t ON t.id = c.table_id
        JOIN audit_auditrecord a ON a.object_type = 'inventory_count' AND a.object_id = c.id::text
             AND a.action IN ('count.opener', 'count.closer', 'count.roll')
        WHERE ((a.after->>'total')::bigint IS DISTINCT FROM c.total OR a.after->'chips' IS DISTINCT FROM c.chips
               OR (a.after->>'shift')::bigint IS DISTINCT FROM c.shift_id
               OR a.action NOT IN ('count.' || c.kind, CASE WHEN c.kind = 'opener' THEN 'count.roll' END)) {scope}
        """, "c.shift_id IN " + _SHIFTS),
    ("has no audit record", """
        SELECT c.kind || ' count at ' || t.code || ' (count ' || c.id || ')', t.code, NULL, NULL, NULL
        FROM accounting_inventorycount c JOIN tables_table t ON t.id = c.table_id
        WHERE NOT EXISTS (SELECT 1 FROM audit_auditrecord a WHERE a.object_type = 'inventory_count'
                          AND a.object_id = c.id::text) {scope}""", "c.shift_id IN " + _SHIFTS),
    ("differs from its audit record", f"""
        SELECT 'soft count at ' || t.code || ' (drop count ' || d.id || ')', t.code, a.chain, a.seq, a.id
        FROM accounting_dropcount d JOIN tables_table t ON t.id = d.table_id
        JOIN audit_auditrecord a ON a.object_type = 'drop_count' AND a.object_id = d.id::text
             AND a.action = 'drop.count'
        WHERE ({_figure("a.after", "d.cash", "cash")} OR {_figure("a.after", "d.chips", "chips")}
               OR {_figure("a.after", "d.markers", "markers")} OR {_figure("a.after", "d.total", "total")}
               OR {_figure("a.after", "d.shift_id", "shift")}) {{scope}}""", "d.shift_id IN " + _SHIFTS),
    ("has no audit record", """
        SELECT 'soft count at ' || t.code || ' (drop count ' || d.id || ')', t.code, NULL, NULL, NULL
        FROM accounting_dropcount d JOIN tables_table t ON t.id = d.table_id
        WHERE NOT EXISTS (SELECT 1 FROM audit_auditrecord a WHERE a.object_type = 'drop_count'
                          AND a.object_id = d.id::text) {scope}""", "d.shift_id IN " + _SHIFTS),
    ("differs from its audit record", f"""
        SELECT {_MARKER}, t.code, a.chain, a.seq, a.id
        FROM accounting_marker m JOIN tables_table t ON t.id = m.table_id
        JOIN audit_auditrecord a ON a.object_type = 'marker' AND a.object_id = m.id::text AND a.action = 'marker.issue'
        WHERE ({_figure("a.after", "m.amount", "amount")} OR a.after->>'player' IS DISTINCT FROM m.player
               OR {_figure("a.after", "m.shift_id", "shift")}
               OR a.after->>'reference' IS DISTINCT FROM 'M' || m.year || '-' || lpad(m.number::text, 6, '0'))
              {{scope}}""", "m.shift_id IN " + _SHIFTS),
    ("has another sum paid than the payments in its audit trail", f"""
        SELECT {_MARKER}, t.code, NULL, NULL, NULL
        FROM accounting_marker m JOIN tables_table t ON t.id = m.table_id
        WHERE m.paid IS DISTINCT FROM (SELECT COALESCE(sum((a.after->>'amount')::bigint), 0) FROM audit_auditrecord a
                                       WHERE a.object_type = 'marker' AND a.object_id = m.id::text
                                         AND a.action = 'marker.pay') {{scope}}""",
     f"(m.shift_id IN {_SHIFTS} OR m.id IN (SELECT p.marker_id FROM accounting_markerpayment p "
     "WHERE p.paid_at >= %(since)s))"),
    ("has no audit record", f"""
        SELECT {_MARKER}, t.code, NULL, NULL, NULL FROM accounting_marker m JOIN tables_table t ON t.id = m.table_id
        WHERE NOT EXISTS (SELECT 1 FROM audit_auditrecord a WHERE a.object_type = 'marker'
                          AND a.object_id = m.id::text AND a.action = 'marker.issue') {{scope}}""",
     "m.shift_id IN " + _SHIFTS),
    ("differs from its audit record", f"""
        SELECT 'payment ' || p.id || ' on ' || {_MARKER}, t.code, a.chain, a.seq, a.id
        FROM accounting_markerpayment p JOIN accounting_marker m ON m.id = p.marker_id
        JOIN tables_table t ON t.id = m.table_id
        LEFT JOIN audit_auditrecord a ON a.object_type = 'marker' AND a.object_id = m.id::text
             AND a.action = 'marker.pay' AND (a.after->>'payment')::bigint = p.id
        WHERE (a.id IS NULL OR {_figure("a.after", "p.amount", "amount")}
               OR (a.after->>'at_table')::boolean IS DISTINCT FROM p.at_table) {{scope}}""",
     f"(p.shift_id IN {_SHIFTS} OR p.paid_at >= %(since)s)"),
    ("differs from its audit record", f"""
        SELECT 'write-off ' || w.id || ' of ' || {_MARKER}, t.code, a.chain, a.seq, a.id
        FROM accounting_markerwriteoff w JOIN accounting_marker m ON m.id = w.marker_id
        JOIN tables_table t ON t.id = m.table_id
        LEFT JOIN audit_auditrecord a ON a.object_type = 'marker' AND a.object_id = m.id::text
             AND a.action = 'marker.write_off'
        WHERE (a.id IS NULL OR {_figure("a.after", "w.amount", "written_off")}
               OR a.after->>'reason' IS DISTINCT FROM w.reason) {{scope}}""", "w.written_off_at >= %(since)s"),
    ("differs from its audit record", f"""
        SELECT 'table close of ' || t.code || ' (close ' || c.id || ')', t.code, a.chain, a.seq, a.id
        FROM accounting_tableshiftclose c JOIN tables_table t ON t.id = c.table_id
        LEFT JOIN audit_auditrecord a ON a.object_type = 'table_shift_close' AND a.object_id = c.id::text
             AND a.action = 'table.shift_close'
        WHERE (a.id IS NULL OR a.after->>'table' IS DISTINCT FROM t.code
               OR {" OR ".join(_figure("a.after", "c." + column, key) for key, column in _CLOSE_FIGURES)}) {{scope}}
        """, "c.shift_id IN " + _SHIFTS),
    ("differs from its audit record", """
        SELECT 'reconciliation of ' || t.code || ' for shift ' || r.shift_id || ' (reconciliation ' || r.id || ')',
               t.code, a.chain, a.seq, a.id
        FROM accounting_reconciliation r JOIN tables_table t ON t.id = r.table_id
        LEFT JOIN LATERAL (SELECT * FROM audit_auditrecord a WHERE a.object_type = 'shift'
                           AND a.object_id = r.shift_id::text AND a.action = 'shift.reconcile'
                           ORDER BY a.id DESC LIMIT 1) a ON true
        WHERE (a.id IS NULL OR a.after->'tables_results'->t.code->>'status' IS DISTINCT FROM r.status
               OR (a.after->'tables_results'->t.code->>'variance')::bigint IS DISTINCT FROM r.variance
               OR a.after->'tables_results'->t.code->'causes' IS DISTINCT FROM
                  (SELECT COALESCE(jsonb_agg(x->'cause' ORDER BY n), '[]'::jsonb)
                   FROM jsonb_array_elements(r.causes) WITH ORDINALITY e(x, n))) {scope}""",
     "r.shift_id IN " + _SHIFTS),
    ("differs from its audit record", """
        SELECT 'reconciliation of shift ' || r.shift_id || ' (shift reconciliation ' || r.id || ')', '',
               a.chain, a.seq, a.id
        FROM accounting_shiftreconciliation r
        LEFT JOIN LATERAL (SELECT * FROM audit_auditrecord a WHERE a.object_type = 'shift'
                           AND a.object_id = r.shift_id::text AND a.action = 'shift.reconcile'
                           ORDER BY a.id DESC LIMIT 1) a ON true
        WHERE (a.id IS NULL OR (a.after->>'reconciliation')::bigint IS DISTINCT FROM r.id
               OR a.after->>'status' IS DISTINCT FROM r.status
               OR (a.after->>'tables')::bigint IS DISTINCT FROM r.tables
               OR (a.after->>'rounds')::bigint IS DISTINCT FROM r.rounds
               OR (a.after->>'causes')::bigint IS DISTINCT FROM r.causes) {scope}""",
     "r.shift_id IN " + _SHIFTS),
]


def _scoped(sql: str, scope: str, since: dt.datetime | None) -> tuple[str, dict[str, Any] | None]:
    if since is None:
        return sql.replace("{scope}", ""), None
    return sql.replace("{scope}", f"AND {scope}"), {"since": since}


def records_against_trail(*, since: dt.datetime | None = None) -> list[Break]:
    """Every sealed accounting record that disagrees with its audit record (or has none), once per cause; with
    ``since``, only those of the shifts not closed and of those that started at or after it."""
    if connection.vendor != "postgresql":
        return []
    breaks = []
    with connection.cursor() as cursor:
        for what, sql, scope in _RECORD_CHECKS:
            cursor.execute(*_scoped(sql, scope, since))
            for label, code, chain, seq, record_id in cursor.fetchall():
                breaks.append(Break(chain or (f"table:{code}" if code else "casino"), seq, record_id,
                                    RECORD_MISMATCH, f"{label} {what}"))
    return breaks


# -- the ledger ---------------------------------------------------------------------------------------------

# The transactions a check covers: all, or (incremental) those of the recent shifts and those without a shift
# posted since the window's start (index ledger_unshifted_by_time).
_TRANSACTIONS_ALL = "SELECT id, kind, source_type, source_id, table_id, shift_id, reverses_id FROM accounting_ledgertransaction"
_TRANSACTIONS_RECENT = f"""
    SELECT id, kind, source_type, source_id, table_id, shift_id, reverses_id FROM accounting_ledgertransaction
    WHERE shift_id IN {_SHIFTS}
    UNION ALL
    SELECT id, kind, source_type, source_id, table_id, shift_id, reverses_id FROM accounting_ledgertransaction
    WHERE shift_id IS NULL AND posted_at >= %(since)s"""


def _source(source_type: str) -> str:
    """The transaction's source id as a number for one source type (NULL for the others, never cast)."""
    return f"(CASE WHEN x.source_type = '{source_type}' THEN x.source_id END)::bigint"


# What each posting should hold, from its record: (transaction, account code, amount), summed by code below.
_EXPECTED = f"""
    -- a settled round: accounting.services.ledger.round_line_codes over its settlement (the pool change it stored
    -- when it settled; RoundResult.pool_changes: the named pools of its answer)
    SELECT x.id, l.code, l.amount FROM txn x
    JOIN tables_settlement s ON s.round_id = {_source("round")}
    JOIN tables_round r ON r.id = s.round_id JOIN tables_table t ON t.id = r.table_id
    CROSS JOIN LATERAL (SELECT s.pool_change AS change,
                               COALESCE(jsonb_typeof(s.document->'pools') = 'object'
                                        AND s.document->'pools' <> '{{}}'::jsonb, false) AS named) p
    CROSS JOIN LATERAL (
        SELECT 'table:' || t.code || ':tray', s.house_net + p.change
        UNION ALL SELECT 'table:' || t.code || ':win', -(s.house_net - s.commission - s.rake)
        UNION ALL SELECT 'table:' || t.code || ':commission', -s.commission
        UNION ALL SELECT 'table:' || t.code || ':rake', -s.rake
        UNION ALL SELECT 'table:' || t.code || ':pool', -p.change WHERE NOT p.named
        UNION ALL SELECT 'table:' || t.code || ':pool:' || n.key,
                         -(COALESCE((n.value->>'carry_out')::bigint, 0) - COALESCE((n.value->>'carry_in')::bigint, 0))
                  FROM jsonb_each(CASE WHEN p.named THEN s.document->'pools' ELSE '{{}}'::jsonb END) n
    ) l(code, amount)
    UNION ALL
    -- a fill or credit slip: its chips into (out of) the tray by denomination, its total out of (into) the cage
    SELECT x.id, l.code, l.amount FROM txn x
    JOIN accounting_slip s ON s.id = (CASE WHEN x.source_type IN ('fill', 'credit') THEN x.source_id END)::bigint
         AND s.kind = x.source_type
    JOIN tables_table t ON t.id = s.table_id
    CROSS JOIN LATERAL (
        SELECT 'table:' || t.code || ':tray:' || c.key,
               (CASE s.kind WHEN 'fill' THEN 1 ELSE -1 END) * c.key::bigint * (c.value #>> '{{}}')::bigint
        FROM jsonb_each(s.chips) c
        UNION ALL SELECT 'cage', (CASE s.kind WHEN 'fill' THEN -1 ELSE 1 END) * s.total
    ) l(code, amount)
    UNION ALL
    -- an opener: the tray by denomination from the previous closer (or nothing), against the discrepancy
    -- account (or, for a table's first chips, the bankroll)
    SELECT x.id, l.code, l.amount FROM txn x
    JOIN accounting_inventorycount c ON c.id = {_source("count")}
    JOIN tables_table t ON t.id = c.table_id
    LEFT JOIN accounting_inventorycount prev ON prev.id = c.previous_closer_id
    CROSS JOIN LATERAL (
        SELECT 'table:' || t.code || ':tray:' || d.key, d.key::bigint * (
                   COALESCE((c.chips->>d.key)::bigint, 0) - COALESCE((prev.chips->>d.key)::bigint, 0))
        FROM (SELECT jsonb_object_keys(c.chips) UNION SELECT jsonb_object_keys(COALESCE(prev.chips, '{{}}'::jsonb))) d(key)
        UNION ALL SELECT CASE WHEN prev.id IS NULL THEN 'bankroll' ELSE 'table:' || t.code || ':discrepancy' END,
                         -(c.total - COALESCE(prev.total, 0))
    ) l(code, amount)
    UNION ALL
    -- a soft count: its cash and chips from the drop account to the cage
    SELECT x.id, l.code, l.amount FROM txn x
    JOIN accounting_dropcount d ON d.id = {_source("drop")} JOIN tables_table t ON t.id = d.table_id
    CROSS JOIN LATERAL (VALUES ('cage', d.cash + d.chips), ('table:' || t.code || ':drop', -(d.cash + d.chips))) l(code, amount)
    UNION ALL
    -- a marker: receivable, for chips out of the tray
    SELECT x.id, l.code, l.amount FROM txn x
    JOIN accounting_marker m ON m.id = {_source("marker")} JOIN tables_table t ON t.id = m.table_id
    CROSS JOIN LATERAL (VALUES ('markers', m.amount), ('table:' || t.code || ':tray', -m.amount)) l(code, amount)
    UNION ALL
    -- a payment on a marker: into the tray at a table, else the cage
    SELECT x.id, l.code, l.amount FROM txn x
    JOIN accounting_markerpayment mp ON mp.id = {_source("marker_payment")}
    LEFT JOIN tables_table t ON t.id = mp.table_id
    CROSS JOIN LATERAL (VALUES (CASE WHEN mp.at_table THEN 'table:' || t.code || ':tray' ELSE 'cage' END, mp.amount),
                               ('markers', -mp.amount)) l(code, amount)
    UNION ALL
    -- a write-off: markers receivable written off
    SELECT x.id, l.code, l.amount FROM txn x
    JOIN accounting_markerwriteoff w ON w.id = {_source("marker_write_off")}
    CROSS JOIN LATERAL (VALUES ('marker-write-offs', w.amount), ('markers', -w.amount)) l(code, amount)
    UNION ALL
    -- a table close: accounting.services.shifts.close_lines over the close's own figures
    SELECT x.id, l.code, l.amount FROM txn x
    JOIN accounting_tableshiftclose c ON c.id = {_source("table_close")}
    JOIN tables_table t ON t.id = c.table_id
    JOIN accounting_inventorycount o ON o.id = c.opener_id JOIN accounting_inventorycount cl ON cl.id = c.closer_id
    JOIN accounting_dropcount d ON d.id = c.drop_count_id
    CROSS JOIN LATERAL (
        SELECT 'table:' || t.code || ':tray:' || v.key, sum(v.amount)::bigint FROM (
            SELECT k.key, k.key::bigint * (k.value #>> '{{}}')::bigint FROM jsonb_each(cl.chips) k
            UNION ALL SELECT k.key, -k.key::bigint * (k.value #>> '{{}}')::bigint FROM jsonb_each(o.chips) k
            UNION ALL SELECT k.key, (CASE sl.kind WHEN 'fill' THEN -1 ELSE 1 END) * k.key::bigint
                                    * (k.value #>> '{{}}')::bigint
                      FROM accounting_slip sl CROSS JOIN LATERAL jsonb_each(sl.chips) k
                      WHERE sl.table_id = c.table_id AND sl.shift_id = c.shift_id AND sl.status = 'received'
        ) v(key, amount) GROUP BY v.key
        UNION ALL SELECT 'table:' || t.code || ':tray',
                         -(c.rounds_win + c.pool_change + c.marker_payments - c.markers_issued)
        UNION ALL SELECT 'table:' || t.code || ':drop', d.cash + d.chips
        UNION ALL SELECT 'markers', d.markers - c.markers_issued
        UNION ALL SELECT 'table:' || t.code || ':variance', -c.variance
    ) l(code, amount)
    UNION ALL
    -- a reversal: every line of the transaction it reverses, negated
    SELECT x.id, a.code, -e.amount FROM txn x
    JOIN accounting_entry e ON e.transaction_id = x.reverses_id JOIN accounting_account a ON a.id = e.account_id
    WHERE x.source_type = 'reversal'"""

_CHECKED_SOURCES = ("round", "fill", "credit", "count", "drop", "marker", "marker_payment", "marker_write_off",
                    "table_close", "reversal")

# (what is wrong, the check's own common table expressions after ``txn``, the query naming the transactions it
# is wrong for: id, what differs)
_LEDGER_CHECKS = [
    ("does not balance", "", """
        SELECT x.id, NULL::text FROM txn x JOIN accounting_entry e ON e.transaction_id = x.id
        GROUP BY x.id HAVING sum(e.amount) <> 0"""),
    ("is a reversal that no ledger.reverse audit record states", "", """
        SELECT x.id, NULL::text FROM txn x WHERE x.source_type = 'reversal' AND NOT EXISTS (
            SELECT 1 FROM audit_auditrecord a WHERE a.object_type = 'ledger_transaction' AND a.object_id = x.id::text
            AND a.action = 'ledger.reverse' AND (a.before->>'transaction')::bigint IS NOT DISTINCT FROM x.reverses_id)"""),
    ("does not post what its record says", f"""
        , expected AS ({_EXPECTED}),
        want AS (SELECT id, code, sum(amount)::bigint AS amount FROM expected GROUP BY id, code
                 HAVING sum(amount) <> 0),
        posted AS (SELECT x.id, a.code, sum(e.amount)::bigint AS amount FROM txn x
                   JOIN accounting_entry e ON e.transaction_id = x.id JOIN accounting_account a ON a.id = e.account_id
                   WHERE x.source_type IN ({", ".join(f"'{s}'" for s in _CHECKED_SOURCES)})
                   GROUP BY x.id, a.code)""", """
        SELECT id, string_agg(code || ' ' || COALESCE(posted.amount, 0) || ' where its record gives '
                              || COALESCE(want.amount, 0), '; ' ORDER BY code)
        FROM posted FULL JOIN want USING (id, code)
        WHERE posted.amount IS DISTINCT FROM want.amount GROUP BY id"""),
]

# Records that post, without their posting: (what, the query naming them: words, table code)
_UNPOSTED = [
    ("round", """
        SELECT 'round #' || r.number || ' at ' || t.code || ' (round ' || r.id || ')', t.code
        FROM tables_round r JOIN tables_table t ON t.id = r.table_id JOIN tables_settlement s ON s.round_id = r.id
        WHERE NOT EXISTS (SELECT 1 FROM accounting_ledgertransaction x WHERE x.source_type = 'round'
                          AND x.source_id = r.id::text) {scope}""", "r.shift_id IN " + _SHIFTS),
    ("slip", f"""
        SELECT {_SLIP}, t.code FROM accounting_slip s JOIN tables_table t ON t.id = s.table_id
        WHERE (s.status = 'received' OR (s.status = 'voided' AND s.voided_from = 'received'))
          AND NOT EXISTS (SELECT 1 FROM accounting_ledgertransaction x WHERE x.source_type = s.kind
                          AND x.source_id = s.id::text) {{scope}}""", "s.shift_id IN " + _SHIFTS),
    ("marker", f"""
        SELECT {_MARKER}, t.code FROM accounting_marker m JOIN tables_table t ON t.id = m.table_id
        WHERE NOT EXISTS (SELECT 1 FROM accounting_ledgertransaction x WHERE x.source_type = 'marker'
                          AND x.source_id = m.id::text) {{scope}}""", "m.shift_id IN " + _SHIFTS),
    ("payment", f"""
        SELECT 'payment ' || p.id || ' on ' || {_MARKER}, t.code FROM accounting_markerpayment p
        JOIN accounting_marker m ON m.id = p.marker_id JOIN tables_table t ON t.id = m.table_id
        WHERE NOT EXISTS (SELECT 1 FROM accounting_ledgertransaction x WHERE x.source_type = 'marker_payment'
                          AND x.source_id = p.id::text) {{scope}}""",
     f"(p.shift_id IN {_SHIFTS} OR p.paid_at >= %(since)s)"),
    ("write-off", f"""
        SELECT 'write-off ' || w.id || ' of ' || {_MARKER}, t.code FROM accounting_markerwriteoff w
        JOIN accounting_marker m ON m.id = w.marker_id JOIN tables_table t ON t.id = m.table_id
        WHERE NOT EXISTS (SELECT 1 FROM accounting_ledgertransaction x WHERE x.source_type = 'marker_write_off'
                          AND x.source_id = w.id::text) {{scope}}""", "w.written_off_at >= %(since)s"),
    ("soft count", """
        SELECT 'soft count at ' || t.code || ' (drop count ' || d.id || ')', t.code
        FROM accounting_dropcount d JOIN tables_table t ON t.id = d.table_id
        WHERE d.cash + d.chips <> 0 AND NOT EXISTS (SELECT 1 FROM accounting_ledgertransaction x
                                                    WHERE x.source_type = 'drop' AND x.source_id = d.id::text)
        {scope}""", "d.shift_id IN " + _SHIFTS),
    ("table close", """
        SELECT 'table close of ' || t.code || ' (close ' || c.id || ')', t.code
        FROM accounting_tableshiftclose c JOIN tables_table t ON t.id = c.table_id
        WHERE NOT EXISTS (SELECT 1 FROM accounting_ledgertransaction x WHERE x.source_type = 'table_close'
                          AND x.source_id = c.id::text) {scope}""", "c.shift_id IN " + _SHIFTS),
]


def ledger_problems(cursor: Any, *, since: dt.datetime | None = None) -> list[tuple[str, str]]:
    """The ledger's invariants checked on ``cursor``'s database: (table code or "", what is wrong) for every
    transaction that does not balance or does not post what its record says, every record that posts without
    its posting, and (``since`` None: everything) the whole ledger when it does not sum to zero."""
    params = None if since is None else {"since": since}
    txn = f"WITH txn AS MATERIALIZED ({_TRANSACTIONS_ALL if since is None else _TRANSACTIONS_RECENT})"
    found: list[tuple[str, str]] = []
    for what, ctes, sql in _LEDGER_CHECKS:
        cursor.execute(f"""{txn} {ctes}
            SELECT p.id, p.detail, x.kind, x.source_type, x.source_id, COALESCE(t.code, '')
            FROM ({sql}) p(id, detail)
            JOIN accounting_ledgertransaction x ON x.id = p.id LEFT JOIN tables_table t ON t.id = x.table_id
            ORDER BY p.id""", params)
        for txn_id, detail, kind, source_type, source_id, code in cursor.fetchall():
            where = f" at {code}" if code else ""
            found.append((code, f"ledger transaction {txn_id} ({kind}, {source_type} {source_id}{where}) {what}"
                                + (f": {detail}" if detail else "")))
    for _kind, sql, scope in _UNPOSTED:
        cursor.execute(*_scoped(sql, scope, since))
        for label, code in cursor.fetchall():
            found.append((code, f"{label} has no posting in the ledger"))
    if since is None:
        cursor.execute("SELECT COALESCE(sum(amount), 0), count(*) FROM accounting_entry")
        total, lines = cursor.fetchone()
        if total != 0:
            found.append(("", f"the ledger does not sum to zero: its {lines} lines sum to {total}"))
    return found


def ledger_against_records(*, since: dt.datetime | None = None) -> list[Break]:
    """:func:`ledger_problems` on the service's database, as breaks of the chains the tables' records are on."""
    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        found = ledger_problems(cursor, since=since)
    return [Break(f"table:{code}" if code else "casino", None, None, LEDGER_MISMATCH, message)
            for code, message in found]
