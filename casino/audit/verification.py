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
import hashlib
import json
import logging
import os
import uuid
from collections import defaultdict
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.module_loading import import_string

from casino import task_names
from casino.audit import boundary
from casino.audit.chain import Anchor, Break, WalkResult, walk
from casino.audit.models import AuditAlert, AuditCheckpoint, AuditRecord, AuditVerification, VerificationStatus
from casino.audit.record import FIELDS, GENESIS, PG_CREATED_AT
from casino.audit.signing import DIGEST_FORMAT, checkpoint_key, key_id, sign, signature_valid
from casino.errors import InvalidInput
from casino.outbox import enqueue

log = logging.getLogger("casino.audit")

CHUNK = 10_000
# Without PostgreSQL's session locks (SQLite): a verification left "running" this long was lost with its
# worker, and a redelivered job may take it over.
STALE_AFTER = dt.timedelta(minutes=30)


# On PostgreSQL the walk reads through its own server-side cursor with the time already in its
# hashed text form and the JSON as text (casino/audit/record.py).
_PG_COLUMNS = ", ".join(
    PG_CREATED_AT if f == "created_at" else f"{f}::text" if f in ("before", "after") else f for f in FIELDS)


def _ordered_rows(*, chain: str | None = None, after_seq: int = 0) -> tuple[Iterator[tuple[Any, ...]], bool]:
    """Records in (chain, seq) order, streamed; and whether their JSON is still text. Call inside a transaction."""
    if connection.vendor != "postgresql":
        qs = AuditRecord.objects.all() if chain is None else AuditRecord.objects.filter(chain=chain, seq__gt=after_seq)
        return qs.order_by("chain", "seq").values_list(*FIELDS).iterator(chunk_size=CHUNK), False
    where, params = ("", []) if chain is None else ("WHERE chain = %s AND seq > %s", [chain, after_seq])
    sql = f"SELECT {_PG_COLUMNS} FROM audit_auditrecord {where} ORDER BY chain, seq"  # noqa: S608 (no input)
    return _server_cursor(sql, params), True


def _server_cursor(sql: str, params: list[Any]) -> Iterator[tuple[Any, ...]]:
    connection.ensure_connection()
    with connection.connection.cursor(name=f"audit_walk_{uuid.uuid4().hex}", withhold=False) as cursor:
        cursor.execute(sql, params)
        while batch := cursor.fetchmany(CHUNK):
            yield from batch


@contextlib.contextmanager
def _snapshot() -> Iterator[None]:
    """One consistent view of the records and checkpoints, streamed without a WITH HOLD copy."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


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
                                                                 list[str], int]:
    """Checkpoints whose signatures hold, as anchors; forged ones as breaks; unknown keys as warnings."""
    key = checkpoint_key()
    kid = key_id(key)
    anchors: dict[str, dict[int, list[Anchor]]] = defaultdict(lambda: defaultdict(list))
    problems: list[Break] = []
    warnings: list[str] = []
    count = 0
    stored = AuditCheckpoint.objects.order_by("chain", "seq").values_list(
        "id", "chain", "seq", "record_hash", "created_at", "key_id", "signature")
    entries: list[tuple[str, str, int, str, Any, str, str]] = [
        (f"checkpoint #{pk}", chain, seq, h, at, k, sig) for pk, chain, seq, h, at, k, sig in stored]
    for i, entry in enumerate(against or []):
        try:
            entries.append((f"digest entry {i + 1}", str(entry["chain"]), int(entry["seq"]), str(entry["hash"]),
                            str(entry["signed_at"]), str(entry["key_id"]), str(entry["signature"])))
        except (KeyError, TypeError, ValueError):
            raise InvalidInput(f"digest entry {i + 1} needs chain, seq, hash, signed_at, key_id and signature",
                               code="bad_digest") from None
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
        anchors[chain][seq].append(Anchor(seq, record_hash, label))
    return anchors, problems, warnings, count


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

def _record_checks() -> list[Break]:
    breaks: list[Break] = []
    for path in getattr(settings, "AUDIT_RECORD_CHECKS", []):
        breaks += import_string(path)()
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


def _walk_all(against: list[Mapping[str, Any]] | None) -> tuple[WalkResult, list[Break], list[str], int]:
    with _snapshot():
        anchors, problems, warnings, checkpoints = _anchors(_anchored(against))
        starts, archive_breaks = boundary.live_starts()  # chains begin after the archived months (archive.py)
        problems += archive_breaks
        rows, json_text = _ordered_rows()
        result = walk(rows, anchors=anchors, starts=starts, json_text=json_text)
        problems += _record_checks()
    return result, problems, warnings, checkpoints


def _execute(verification: AuditVerification, against: list[Mapping[str, Any]] | None) -> AuditVerification:
    try:
        result, problems, warnings, checkpoints = _walk_all(against)
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
        "chains": len(result.heads), "records": result.records, "checkpoints": checkpoints,
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


def audit_verify(*, actor: Any = None, trigger: str = "command",
                 against: list[Mapping[str, Any]] | None = None) -> AuditVerification:
    """Walk every chain now; store and return the result (``ok``, the first broken record of each chain).

    ``against``: checkpoint entries of a digest the auditor kept outside the database
    (``audit_digest()["checkpoints"]``); the chains are held to them as to the stored checkpoints.
    """
    now = timezone.now()
    verification = AuditVerification.objects.create(
        trigger=trigger, requested_by=actor if getattr(actor, "pk", None) else None, requested_at=now,
        status=VerificationStatus.RUNNING, started_at=now)
    return _execute(verification, against)


@transaction.atomic
def audit_verification_request(*, actor: Any, trigger: str = "api") -> AuditVerification:
    """Ask for a verification: a pending result row now, the ``verify_audit`` job once this commits."""
    verification = AuditVerification.objects.create(
        trigger=trigger, requested_by=actor if getattr(actor, "pk", None) else None, requested_at=timezone.now())
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
        raise InvalidInput(f"not an audit digest: expected format {DIGEST_FORMAT}", code="bad_digest")
    entries = document.get("checkpoints")
    if not isinstance(entries, list):
        raise InvalidInput("the digest has no list of checkpoints", code="bad_digest")
    return entries
