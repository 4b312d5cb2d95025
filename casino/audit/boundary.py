"""Where the live audit trail begins once older months are archived (docs/scaling.md, "Archive").

Archiving a month takes its records out of the live table (casino/audit/archive.py). Each chain then
begins, in the live table, after the archived month's last record: its ``heads`` in the manifest
(``AuditArchive``), signed with the checkpoint key. A verification of the live records continues each
chain from there (``walk(..., starts=...)``), as a walk continues from a signed checkpoint; a manifest
whose signature does not hold is a break, and its heads are not used.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import Any

from casino.audit.chain import Break
from casino.audit.models import ArchiveKind, AuditArchive
from casino.audit.signing import checkpoint_key, key_id

MANIFEST_FORMAT = "croupier-audit-archive/1"


def manifest_message(month: str, table: str, records: int, checksum: str, starts: Mapping[str, Any],
                     heads: Mapping[str, Any]) -> bytes:
    """The signed bytes of an archive manifest: a compact JSON array with sorted keys."""
    return json.dumps([MANIFEST_FORMAT, month, table, records, checksum, starts, heads], sort_keys=True,
                      separators=(",", ":"), ensure_ascii=False).encode()


def manifest_signature(month: str, table: str, records: int, checksum: str, starts: Mapping[str, Any],
                       heads: Mapping[str, Any], *, key: bytes | None = None) -> str:
    key = key if key is not None else checkpoint_key()
    return hmac.new(key, manifest_message(month, table, records, checksum, starts, heads), hashlib.sha256).hexdigest()


def manifest_valid(archive: AuditArchive) -> bool:
    """Whether the manifest was signed with the current checkpoint key and is unchanged since."""
    key = checkpoint_key()
    if archive.key_id != key_id(key):
        return False
    expected = manifest_signature(f"{archive.month:%Y-%m}", archive.table, archive.records, archive.checksum,
                                  archive.starts, archive.heads, key=key)
    return hmac.compare_digest(expected, archive.signature)


def archived_months() -> list[AuditArchive]:
    """The months whose records are out of the live table now (their latest row is ``archived``), oldest first."""
    latest: dict[Any, AuditArchive] = {}
    for row in AuditArchive.objects.order_by("id"):
        latest[row.month] = row
    return sorted((row for row in latest.values() if row.kind == ArchiveKind.ARCHIVED), key=lambda r: r.month)


def latest_archive() -> AuditArchive | None:
    months = archived_months()
    return months[-1] if months else None


def live_starts() -> tuple[dict[str, tuple[int, str]], list[Break]]:
    """Each chain's (seq, hash) just before its first live record, and the breaks of a manifest that does not
    hold. Chains that began after the last archived month start from the beginning (not listed)."""
    archive = latest_archive()
    if archive is None:
        return {}, []
    if not manifest_valid(archive):
        return {}, [Break("archive", None, None, "archive_forged",
                          f"the manifest of the archived month {archive.month:%Y-%m} does not carry a valid "
                          f"signature: where the live chains begin cannot be trusted")]
    return {chain: (int(seq), str(digest)) for chain, (seq, digest) in archive.heads.items()}, []
