"""Verifying the audit trail and signing its checkpoints (the services behind ``verify_audit``).

A verification reads every chain in one consistent snapshot (REPEATABLE READ, read only, streamed
through a server-side cursor), holds each chain to the signed checkpoints and to any digest the
auditor kept, then stores the result and raises an :class:`AuditAlert` per broken chain. Reading
and writing are separate transactions: the walk can take a while and must not hold locks that
writers wait for.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import hashlib
import json
import logging
import os
import pickle
import re
import uuid
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import gettext

from casino import task_names
from casino.audit import boundary
from casino.audit.chain import Anchor, Break, WalkResult, walk
from casino.audit.models import AuditAlert, AuditCheckpoint, AuditRecord, AuditVerification, VerificationStatus
from casino.audit.record import FIELDS, GENESIS
from casino.audit.signing import DIGEST_FORMAT, checkpoint_key, key_id, sign, signature_valid
from casino.core import sql as core_sql
from casino.errors import InvalidInput
from casino.outbox import enqueue

log = logging.getLogger("casino.audit")

CHUNK = 10_000
# Without PostgreSQL's session locks (SQLite): a verification left "running" this long was lost with its
# worker, and a redelivered job may take it over.
STALE_AFTER = dt.timedelta(minutes=30)


# On PostgreSQL the walk reads the columns as they are stored, with COPY, in the chain's seq order: the least
# work for the server (formatting the time there cost it a third more than the read). ``NULL ''``: none of the
# nullable columns (the actor, before, after) is ever an empty text, and no other column is nullable. The
# session's time zone is UTC (Django sets it), so the time reads ``2026-03-01 21:14:05.120431+00``.
_CHAIN_SQL = (f"SELECT {', '.join(FIELDS)} FROM audit_auditrecord WHERE chain = %s AND seq >= %s "  # noqa: S608
              "ORDER BY seq")
_CREATED_AT = FIELDS.index("created_at")


def _iso(text: str) -> str:
    """PostgreSQL's text of a UTC timestamptz as Python's ``isoformat()`` (the hashed form): the fraction,
    which PostgreSQL writes without trailing zeros, to six digits, and none when there is none."""
    if len(text) >= 22 and text[10] == " " and text.endswith("+00") and text[4] == "-":
        if len(text) == 22:
            return f"{text[:10]}T{text[11:19]}+00:00"
        if text[19] == ".":
            return f"{text[:10]}T{text[11:-3]:0<15}+00:00"
    return dt.datetime.fromisoformat(text).astimezone(dt.UTC).isoformat()  # another zone or form: the slow way
_COPY_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_COPY_ESCAPE = re.compile(r"\\(.)")


def _copy_field(text: str) -> str:
    """One field of COPY's text format, unescaped (COPY TO writes only these escapes)."""
    return _COPY_ESCAPE.sub(lambda m: _COPY_ESCAPES.get(m.group(1), m.group(1)), text)


def _copy_rows(cursor: Any, sql: str, params: Sequence[Any]) -> Iterator[list[str]]:
    """The rows of ``COPY (sql) TO STDOUT`` as lists of text (``''`` for NULL), from a psycopg cursor."""
    with cursor.copy(f"COPY ({sql}) TO STDOUT (NULL '')", params) as copy:
        rest = b""
        for block in copy:
            data = rest + bytes(block)
            cut = data.rfind(b"\n")
            if cut < 0:
                rest = data
                continue
            rest = data[cut + 1:]
            for line in data[:cut].decode().split("\n"):
                fields = line.split("\t")
                if "\\" in line:
                    fields = [_copy_field(f) if "\\" in f else f for f in fields]
                fields[_CREATED_AT] = _iso(fields[_CREATED_AT])
                yield fields


def _chain_rows(cursor: Any, plan: Sequence[tuple[str, int]]) -> Iterator[list[str]]:
    """Every chain of ``plan`` (chain, first seq to read), one COPY each, in the plan's order."""
    for chain, first in plan:
        yield from _copy_rows(cursor, _CHAIN_SQL, [chain, first])


def _ordered_rows(*, chain: str | None = None, after_seq: int = 0) -> tuple[Iterator[Sequence[Any]], bool]:
    """Records in (chain, seq) order, streamed; and whether their JSON is still text. Call inside a transaction."""
    if connection.vendor != "postgresql":
        qs = AuditRecord.objects.all() if chain is None else AuditRecord.objects.filter(chain=chain, seq__gt=after_seq)
        return qs.order_by("chain", "seq").values_list(*FIELDS).iterator(chunk_size=CHUNK), False
    chains = audit_chains() if chain is None else [chain]
    return _chain_rows(core_sql.raw_cursor(), [(c, after_seq + 1) for c in chains]), True


@contextlib.contextmanager
def _snapshot() -> Iterator[bool]:
    """One consistent view of the records and checkpoints, streamed without a WITH HOLD copy. Yields whether
    the view is this transaction's own (not a caller's transaction, whose uncommitted rows no other
    connection could see)."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield outermost


def audit_chains() -> list[str]:
    """Every chain that has records, in order."""
    if connection.vendor == "postgresql":
        # A loose index scan over (chain, seq): one probe per chain instead of reading every record.
        with connection.cursor() as cursor:
            cursor.execute("""
                WITH RECURSIVE c(chain) AS (
                    (SELECT chain FROM audit_auditrecord ORDER BY chain LIMIT 1)
                    UNION ALL
                    SELECT (SELECT r.chain FROM audit_auditrecord r WHERE r.chain > c.chain ORDER BY r.chain LIMIT 1)
                    FROM c WHERE c.chain IS NOT NULL
                ) SELECT chain FROM c WHERE chain IS NOT NULL""")
            return [row[0] for row in cursor.fetchall()]
    return list(AuditRecord.objects.order_by("chain").values_list("chain", flat=True).distinct())


# -- anchors: signed checkpoints and kept digests ----------------------------------------------

def _anchors(against: list[Mapping[str, Any]] | None) -> tuple[dict[str, dict[int, list[Anchor]]], list[Break],
                                                                 list[str], int, dict[str, int]]:
    """Checkpoints whose signatures hold, as anchors; forged ones as breaks; unknown keys as warnings; and
    each chain's latest seq signed under the current key (where an incremental walk may begin)."""
    key = checkpoint_key()
    kid = key_id(key)
    anchors: dict[str, dict[int, list[Anchor]]] = defaultdict(lambda: defaultdict(list))
    problems: list[Break] = []
    warnings: list[str] = []
    count = 0
    signed: dict[str, int] = {}
    stored = AuditCheckpoint.objects.order_by("chain", "seq").values_list(
        "id", "chain", "seq", "record_hash", "created_at", "key_id", "signature")
    entries: list[tuple[str, str, int, str, Any, str, str]] = [
        (f"checkpoint #{pk}", chain, seq, h, at, k, sig) for pk, chain, seq, h, at, k, sig in stored]
    for i, entry in enumerate(against or []):
        try:
            entries.append((f"digest entry {i + 1}", str(entry["chain"]), int(entry["seq"]), str(entry["hash"]),
                            str(entry["signed_at"]), str(entry["key_id"]), str(entry["signature"])))
        except (KeyError, TypeError, ValueError):
            raise InvalidInput(gettext("digest entry %(number)s needs chain, seq, hash, signed_at, key_id and signature")
                               % {"number": i + 1}, code="bad_digest") from None
    for label, chain, seq, record_hash, signed_at, entry_key, signature in entries:
        count += 1
        if entry_key != kid:
            warnings.append(f"{label} ({chain}#{seq}) is signed with key {entry_key}, not the current key {kid}: "
                            f"its hash is still held to, its signature cannot be checked")
        elif not signature_valid(chain, seq, record_hash, signed_at, signature, key=key):
            problems.append(Break(chain, seq, None, "checkpoint_forged",
                                  f"{label} ({chain}#{seq}) does not carry a valid signature: Croupier did not "
                                  f"write it"))
            continue
        else:
            signed[chain] = max(seq, signed.get(chain, 0))
        anchors[chain][seq].append(Anchor(seq, record_hash, label))
    return anchors, problems, warnings, count, signed


# -- anchors outside the database ------------------------------------------------------------
#
# Every signed checkpoint is also appended to ``AUDIT_ANCHOR_DIR/checkpoints.jsonl`` and each chain's latest
# signed head kept in ``AUDIT_ANCHOR_DIR/heads.json``: files the database's roles cannot rewrite (the
# directory belongs to the operating-system user of the workers, on a volume the database server does not
# mount; docs/audit.md). Every verification holds the chains to them as to a digest kept by hand, so a
# chain that was signed and is now shorter, or gone with its checkpoints, is a break even after the whole
# trail was wiped from the database.

ANCHOR_LOG = "checkpoints.jsonl"
ANCHOR_HEADS = "heads.json"


def anchor_dir() -> Path | None:
    configured = getattr(settings, "AUDIT_ANCHOR_DIR", "")
    return Path(configured) if configured else None


def anchors_write(entries: list[dict[str, Any]]) -> None:
    """Append signed checkpoints to the anchor log and bring the heads file up to date (written whole, then
    renamed over the old one, so a reader never sees half of it)."""
    directory = anchor_dir()
    if directory is None or not entries:
        return
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / ANCHOR_LOG, "a", encoding="utf-8") as log_file:
        for entry in entries:
            log_file.write(json.dumps(entry, sort_keys=True, ensure_ascii=False) + "\n")
        log_file.flush()
        os.fsync(log_file.fileno())
    heads = {e["chain"]: e for e in anchors_read(heads_only=True)}
    for entry in entries:
        if entry["seq"] >= heads.get(entry["chain"], {"seq": -1})["seq"]:
            heads[entry["chain"]] = entry
    temporary = directory / f".{ANCHOR_HEADS}.{uuid.uuid4().hex}"
    temporary.write_text(json.dumps({"format": DIGEST_FORMAT, "checkpoints": sorted(heads.values(),
                                                                                  key=lambda e: e["chain"])},
                                    sort_keys=True, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(temporary, directory / ANCHOR_HEADS)


def anchors_read(*, heads_only: bool = False) -> list[dict[str, Any]]:
    """The anchored checkpoints (the heads file's, and unless ``heads_only`` every line of the log)."""
    directory = anchor_dir()
    if directory is None:
        return []
    entries: list[dict[str, Any]] = []
    heads = directory / ANCHOR_HEADS
    if heads.exists():
        entries += json.loads(heads.read_text(encoding="utf-8")).get("checkpoints", [])
    log_path = directory / ANCHOR_LOG
    if not heads_only and log_path.exists():
        with open(log_path, encoding="utf-8") as log_file:
            entries += [json.loads(line) for line in log_file if line.strip()]
    return entries


def _anchored(against: list[Mapping[str, Any]] | None) -> list[Mapping[str, Any]]:
    """The entries a verification holds the chains to besides the stored checkpoints: a digest given by hand,
    and what is anchored outside the database that the stored checkpoints do not already say."""
    seen: set[tuple[str, Any, Any]] = set(AuditCheckpoint.objects.values_list("chain", "seq", "record_hash"))
    out = list(against or [])
    for entry in anchors_read():
        key = (str(entry.get("chain")), entry.get("seq"), entry.get("hash"))
        if key not in seen:
            seen.add(key)
            out.append(entry)
    return out


# -- checks of records against the trail (rounds, bets, settlements: AUDIT_RECORD_CHECKS) -----------

def _record_checks(*, full: bool) -> list[Break]:
    """The checks of records against the trail: of everything in a full verification, else of the recent
    play (``AUDIT_RECORD_CHECK_WINDOW`` seconds back, and whatever is not closed)."""
    since = None if full else timezone.now() - dt.timedelta(seconds=settings.AUDIT_RECORD_CHECK_WINDOW)
    breaks: list[Break] = []
    for path in getattr(settings, "AUDIT_RECORD_CHECKS", []):
        breaks += import_string(path)(since=since)
    return breaks


# -- verification ----------------------------------------------------------------------------

def _fingerprint(b: Break) -> str:
    return hashlib.sha256(json.dumps([b.chain, b.seq, b.record_id, b.reason]).encode()).hexdigest()


def _raise_alerts(breaks: list[Break], *, verification: AuditVerification | None) -> list[AuditAlert]:
    """One alert per break, raised once however often it is found again; logged every time."""
    raised = []
    for b in breaks:
        log.error("audit trail broken: %s", b.message)
        alert, created = AuditAlert.objects.get_or_create(
            fingerprint=_fingerprint(b),
            defaults={"created_at": timezone.now(), "chain": b.chain, "seq": b.seq, "record_id": b.record_id,
                      "reason": b.reason, "message": b.message, "verification": verification,
                      "kind": "checkpoint_invalid" if b.reason == "checkpoint_forged" else "chain_broken"})
        if created:
            raised.append(alert)
    return raised


def _first(breaks: list[Break]) -> Break | None:
    """The break to headline: the earliest broken record written; failing that, the first problem."""
    with_records = [b for b in breaks if b.record_id is not None]
    if with_records:
        return min(with_records, key=lambda b: b.record_id or 0)
    return breaks[0] if breaks else None


def _chain_heads() -> dict[str, int]:
    """Every chain's last seq (one index probe per chain)."""
    if connection.vendor != "postgresql":
        return dict(AuditRecord.objects.values("chain").annotate(top=Max("seq")).values_list("chain", "top"))
    with connection.cursor() as cursor:
        cursor.execute("""
            WITH RECURSIVE c(chain) AS (
                (SELECT chain FROM audit_auditrecord ORDER BY chain LIMIT 1)
                UNION ALL
                SELECT (SELECT r.chain FROM audit_auditrecord r WHERE r.chain > c.chain ORDER BY r.chain LIMIT 1)
                FROM c WHERE c.chain IS NOT NULL
            ) SELECT chain, (SELECT max(seq) FROM audit_auditrecord r WHERE r.chain = c.chain) FROM c
              WHERE chain IS NOT NULL""")
        return dict(cursor.fetchall())


def _starts(anchors: dict[str, dict[int, list[Anchor]]], signed: dict[str, int]) -> dict[str, tuple[int, None]]:
    """Where an incremental walk begins each chain: at its latest checkpoint whose signature holds under the
    current key (a seq in ``signed``); the walk holds that record to every anchor at its seq."""
    return {chain: (seq - 1, None) for chain, seq in signed.items() if seq in anchors.get(chain, {})}


def _shares(plan: list[tuple[str, int, int]], workers: int) -> list[list[tuple[str, int]]]:
    """The chains dealt to ``workers`` walkers, largest first to the least loaded (chain, first seq)."""
    shares: list[list[tuple[str, int]]] = [[] for _ in range(max(1, workers))]
    load = [0] * len(shares)
    for chain, first, size in sorted(plan, key=lambda p: -p[2]):
        i = load.index(min(load))
        shares[i].append((chain, first))
        load[i] += size
    return [sorted(share) for share in shares if share] or [[]]


def _result_tuple(result: WalkResult) -> tuple[int, dict[str, tuple[int, str]], list[tuple[Any, ...]]]:
    return result.records, result.heads, [(b.chain, b.seq, b.record_id, b.reason, b.message) for b in result.breaks]


def _walker(write_fd: int, snapshot: str, share: list[tuple[str, int]], starts: dict[str, tuple[int, str | None]],
            anchors: dict[str, dict[int, list[Anchor]]]) -> None:
    """A forked walker: its own connection, in the parent's snapshot, walks its share and writes the result."""
    code = 0
    try:
        wrapper = connections.create_connection(DEFAULT_DB_ALIAS)
        wrapper.ensure_connection()
        raw = wrapper.connection
        with raw.cursor() as cursor:
            cursor.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            cursor.execute(f"SET TRANSACTION SNAPSHOT '{snapshot}'")
            result = walk(_chain_rows(cursor, share), anchors=anchors, starts=starts, json_text=True)
            cursor.execute("COMMIT")
        payload = pickle.dumps(("ok", _result_tuple(result)))
    except BaseException as exc:  # noqa: BLE001 (reported to the parent, which raises it)
        payload, code = pickle.dumps(("error", f"{type(exc).__name__}: {exc}")), 1
    try:
        with os.fdopen(write_fd, "wb") as out:
            out.write(payload)
    finally:
        os._exit(code)  # never run the parent's exit handlers (its connections are the parent's)


def _walk_parallel(shares: list[list[tuple[str, int]]], starts: dict[str, tuple[int, str | None]],
                   anchors: dict[str, dict[int, list[Anchor]]]) -> WalkResult:
    """Walk the first share here and each other in a forked process of its own, all in this transaction's
    snapshot (exported: every walker sees exactly the same records)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_export_snapshot()")
        snapshot = cursor.fetchone()[0]
    if not re.fullmatch(r"[0-9A-Fa-f-]+", snapshot):
        raise DatabaseError(f"unexpected snapshot id {snapshot!r}")
    children: list[tuple[int, int]] = []
    try:
        for share in shares[1:]:
            chains = {c for c, _ in share}
            read_fd, write_fd = os.pipe()
            pid = os.fork()
            if pid == 0:  # the walker
                os.close(read_fd)
                _walker(write_fd, snapshot, share, {c: v for c, v in starts.items() if c in chains},
                        {c: v for c, v in anchors.items() if c in chains})
            os.close(write_fd)
            children.append((pid, read_fd))
        mine = {c for c, _ in shares[0]} | (set(anchors) - {c for share in shares for c, _ in share})
        result = walk(_chain_rows(core_sql.raw_cursor(), shares[0]),
                      anchors={c: v for c, v in anchors.items() if c in mine},
                      starts={c: v for c, v in starts.items() if c in mine}, json_text=True)
        for pid, read_fd in children:
            with os.fdopen(read_fd, "rb") as pipe:
                data = pipe.read()
            os.waitpid(pid, 0)
            status, value = cast(tuple[str, Any], pickle.loads(data) if data else  # noqa: S301 (our own child)
                                 ("error", "the walker died"))
            if status != "ok":
                raise DatabaseError(f"an audit walker failed: {value}")
            records, heads, breaks = value
            result.records += records
            result.heads.update(heads)
            result.breaks += [Break(*b) for b in breaks]
        children.clear()
    finally:
        for pid, read_fd in children:  # a failure above: do not leave walkers behind
            with contextlib.suppress(OSError):
                os.close(read_fd)
            with contextlib.suppress(OSError):
                os.kill(pid, 9)
                os.waitpid(pid, 0)
    return result


@contextlib.contextmanager
def _no_gc() -> Iterator[None]:
    """The walk makes no reference cycles, only a list per row: the cycle collector would only slow it down."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def verify_workers() -> int:
    configured = getattr(settings, "AUDIT_VERIFY_WORKERS", 0)
    return configured if configured > 0 else min(4, os.cpu_count() or 1)


def _walk_all(against: list[Mapping[str, Any]] | None, *, full: bool) -> tuple[WalkResult, list[Break], list[str],
                                                                               int, int]:
    """Walk every chain (from its last signed checkpoint unless ``full``); returns the walk, the problems found
    besides it, warnings, how many checkpoints were held to and how many records before the starts were
    vouched for by their checkpoints instead of being read."""
    with _snapshot() as own:
        anchors, problems, warnings, checkpoints, signed = _anchors(_anchored(against))
        if connection.vendor != "postgresql":
            rows, json_text = _ordered_rows()
            result = walk(rows, anchors=anchors, json_text=json_text)
            return result, problems + _record_checks(full=full), warnings, checkpoints, 0
        heads = _chain_heads()
        # chains begin after the archived months (archive.py): a walk, full or not, starts there at the earliest
        live, archive_breaks = boundary.live_starts()
        problems += archive_breaks
        # a chain now shorter than its checkpoint is walked whole: the walk then says where it ends
        checkpointed = {} if full else _starts(anchors, {c: seq for c, seq in signed.items() if heads.get(c, 0) >= seq})
        starts: dict[str, tuple[int, str | None]] = dict(live)
        for chain, (seq, digest) in checkpointed.items():
            if chain not in starts or seq > starts[chain][0]:
                starts[chain] = (seq, digest)
        plan = [(chain, starts[chain][0] + 1 if chain in starts else 1, top - (starts[chain][0] if chain in starts
                                                                               else 0))
                for chain, top in heads.items()]
        skipped = sum(first - 1 for _, first, _ in plan)
        to_read = sum(size for _, _, size in plan)
        workers = verify_workers()
        parallel = (workers > 1 and len(plan) > 1 and to_read >= getattr(settings, "AUDIT_VERIFY_PARALLEL_MIN", 0)
                    and own)
        shares = _shares(plan, workers if parallel else 1)
        with _no_gc():
            if len(shares) > 1:
                result = _walk_parallel(shares, starts, anchors)
            else:
                result = walk(_chain_rows(core_sql.raw_cursor(), shares[0]), anchors=anchors,
                              starts=starts, json_text=True)
        problems += _record_checks(full=full)
    return result, problems, warnings, checkpoints, skipped


def _against_history(verification: AuditVerification, *, records: int, checkpoints: int) -> list[Break]:
    """An empty trail, or no anchor at all, where earlier verifications found records or held them to
    checkpoints: the trail (or its checkpoints and anchor files) was deleted. Without this a wiped trail
    whose anchor files went with it would verify as "0 records in 0 chains"."""
    earlier = AuditVerification.objects.filter(status=VerificationStatus.DONE).exclude(pk=verification.pk)
    found: list[Break] = []
    if records == 0:
        seen = earlier.filter(Q(records__gt=0) | Q(skipped__gt=0)).order_by("-finished_at", "-pk").first()
        if seen is not None:
            found.append(Break("", None, None, "trail_empty",
                               f"the audit trail is empty, but verification #{seen.pk} of "
                               f"{seen.finished_at:%Y-%m-%d %H:%M} UTC found {seen.records + seen.skipped} records "
                               f"in {seen.chains} chains: the trail was deleted"))
    if checkpoints == 0:
        held = earlier.filter(checkpoints__gt=0).order_by("-finished_at", "-pk").first()
        if held is not None:
            found.append(Break("", None, None, "anchors_missing",
                               f"no signed checkpoint is left, in the database or in the anchor directory, but "
                               f"verification #{held.pk} of {held.finished_at:%Y-%m-%d %H:%M} UTC held the trail "
                               f"to {held.checkpoints} checkpoints: the checkpoints and their anchor files were "
                               f"deleted"))
    return found


def _execute(verification: AuditVerification, against: list[Mapping[str, Any]] | None) -> AuditVerification:
    try:
        result, problems, warnings, checkpoints, skipped = _walk_all(against, full=verification.full)
        problems += _against_history(verification, records=result.records + skipped, checkpoints=checkpoints)
    except DatabaseError:
        # Hand the row back so a retry can take it; if even that fails the row goes stale and is taken over.
        with contextlib.suppress(DatabaseError):
            AuditVerification.objects.filter(pk=verification.pk, status=VerificationStatus.RUNNING).update(
                status=VerificationStatus.PENDING, started_at=None)
        raise
    breaks = sorted(result.breaks + problems, key=lambda b: (b.chain, b.seq or 0))
    first = _first(breaks)
    fields = {
        "status": VerificationStatus.DONE, "finished_at": timezone.now(), "ok": not breaks,
        "chains": len(result.heads), "records": result.records, "checkpoints": checkpoints, "skipped": skipped,
        "first_broken_record_id": first.record_id if first else None,
        "first_broken_chain": first.chain if first else "", "first_broken_seq": first.seq if first else None,
        "first_broken_reason": first.reason if first else "",
        "breaks": [b.as_dict() for b in breaks], "warnings": warnings,
    }
    with transaction.atomic():
        AuditVerification.objects.filter(pk=verification.pk).update(**fields)
        verification.refresh_from_db()
        _raise_alerts(breaks, verification=verification)
    if verification.ok:
        log.info("audit trail verified: %d records in %d chains", verification.records, verification.chains)
    return verification


def audit_verify(*, actor: Any = None, trigger: str = "command", against: list[Mapping[str, Any]] | None = None,
                 full: bool = False) -> AuditVerification:
    """Walk every chain now; store and return the result (``ok``, the first broken record of each chain).

    By default each chain is walked from its latest checkpoint signed with the current key (that record
    held to the signed hash, every record after it checked in full); ``full`` walks every chain from its
    first record. ``against``: checkpoint entries of a digest the auditor kept outside the database
    (``audit_digest()["checkpoints"]``); the chains are held to them as to the stored checkpoints.
    """
    now = timezone.now()
    verification = AuditVerification.objects.create(
        trigger=trigger, requested_by=actor if getattr(actor, "pk", None) else None, requested_at=now,
        status=VerificationStatus.RUNNING, started_at=now, full=full)
    return _execute(verification, against)


@transaction.atomic
def audit_verification_request(*, actor: Any, trigger: str = "api", full: bool = False) -> AuditVerification:
    """Ask for a verification: a pending result row now, the ``verify_audit`` job once this commits."""
    verification = AuditVerification.objects.create(
        trigger=trigger, requested_by=actor if getattr(actor, "pk", None) else None, requested_at=timezone.now(),
        full=full)
    enqueue(task_names.AUDIT_VERIFY, kwargs={"verification_id": verification.pk})  # sent once this commits (outbox)
    return verification


@contextlib.contextmanager
def _runner_lock(verification_id: int) -> Iterator[bool | None]:
    """PostgreSQL: whether this session now holds the verification's runner lock (a session advisory
    lock, dropped by the server when a runner's connection dies with its worker). Elsewhere ``None``."""
    if connection.vendor != "postgresql":
        yield None
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [0x0A0D18, verification_id])
        held = bool(cursor.fetchone()[0])
    try:
        yield held
    finally:
        if held:
            with contextlib.suppress(DatabaseError), connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [0x0A0D18, verification_id])


def audit_verification_run(*, verification_id: int) -> AuditVerification | None:
    """Run a requested verification once: a redelivered job finds it taken or done and does nothing.

    A job whose worker was killed midway leaves the row ``running``. The runner holds a lock for the
    row while it works; a redelivered job that gets the lock knows the first runner is gone and takes
    the row over at once (without PostgreSQL's session locks: once the row is ``STALE_AFTER`` old).
    """
    with _runner_lock(verification_id) as free:
        if free is False:  # a live runner has it
            return AuditVerification.objects.filter(pk=verification_id).first()
        now = timezone.now()
        running = Q(status=VerificationStatus.RUNNING)
        if free is None:
            running &= Q(started_at__lt=now - STALE_AFTER)
        claimed = AuditVerification.objects.filter(pk=verification_id).filter(
            Q(status=VerificationStatus.PENDING) | running).update(status=VerificationStatus.RUNNING, started_at=now)
        verification = AuditVerification.objects.filter(pk=verification_id).first()
        if not claimed or verification is None:
            return verification
        return _execute(verification, None)


# -- checkpoints -----------------------------------------------------------------------------

def audit_checkpoint_create() -> list[AuditCheckpoint]:
    """Sign the head of every chain that grew since its last checkpoint.

    The new records are first checked to link, one by one, to the last signed hash (or from the
    start of the chain if there is none), so a checkpoint never vouches for a broken chain: a
    chain that fails is not signed and raises an alert instead. Running it twice signs nothing new.
    """
    key = checkpoint_key()
    kid = key_id(key)
    created = []
    archived, _ = boundary.live_starts()  # a chain's older months may be archived: it begins after them
    for chain in audit_chains():
        with transaction.atomic():
            last = AuditCheckpoint.objects.filter(chain=chain).order_by("-seq").first()
            start = archived.get(chain, (0, GENESIS))
            if last is not None and last.seq > start[0] and last.key_id == kid and signature_valid(
                    chain, last.seq, last.record_hash, last.created_at, last.signature, key=key):
                start = (last.seq, last.record_hash)
            rows, json_text = _ordered_rows(chain=chain, after_seq=start[0])
            result = walk(rows, starts={chain: start}, json_text=json_text)
            if result.records == 0:
                continue
            if result.breaks:
                _raise_alerts(result.breaks, verification=None)
                continue
            seq, record_hash = result.heads[chain]
            now = timezone.now()
            checkpoint, made = AuditCheckpoint.objects.get_or_create(
                chain=chain, seq=seq, defaults={"record_hash": record_hash, "created_at": now, "key_id": kid,
                                                "signature": sign(chain, seq, record_hash, now, key=key)})
        if made:  # committed: now anchored outside the database too
            created.append(checkpoint)
            anchors_write([checkpoint_entry(checkpoint)])
    return created


def checkpoint_entry(cp: AuditCheckpoint) -> dict[str, Any]:
    return {"chain": cp.chain, "seq": cp.seq, "hash": cp.record_hash, "signed_at": cp.created_at.isoformat(),
            "key_id": cp.key_id, "signature": cp.signature}


def audit_digest() -> dict[str, Any]:
    """The latest signed checkpoint of every chain, as a document an auditor keeps outside the database."""
    heads = AuditCheckpoint.objects.values("chain").annotate(top=Max("seq"))
    wanted = Q(pk__in=[])
    for head in heads:
        wanted |= Q(chain=head["chain"], seq=head["top"])
    checkpoints = AuditCheckpoint.objects.filter(wanted).order_by("chain")
    return {"format": DIGEST_FORMAT, "exported_at": timezone.now().isoformat(), "key_id": key_id(),
            "checkpoints": [checkpoint_entry(cp) for cp in checkpoints]}


def parse_digest(document: Any) -> list[Mapping[str, Any]]:
    """The checkpoint entries of a digest document (as :func:`audit_digest` wrote it)."""
    if not isinstance(document, dict) or document.get("format") != DIGEST_FORMAT:
        raise InvalidInput(gettext("not an audit digest: expected format %(format)s") % {"format": DIGEST_FORMAT},
                           code="bad_digest")
    entries = document.get("checkpoints")
    if not isinstance(entries, list):
        raise InvalidInput(gettext("the digest has no list of checkpoints"), code="bad_digest")
    return entries
