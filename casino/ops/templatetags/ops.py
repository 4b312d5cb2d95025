"""``{% jobs_banner %}``: on the pit and accounting screens, what background jobs are not being run."""

from __future__ import annotations

from typing import Any

from django import template

from casino.ops.status import stale_findings
from casino.ops.words import finding_words

register = template.Library()


@register.inclusion_tag("_jobs_banner.html")
def jobs_banner() -> dict[str, Any]:
    findings = stale_findings()
    missing = any(f.key in ("worker", "beat", "outbox") for f in findings)
    return {"findings": findings, "lines": [finding_words(f) for f in findings], "missing": missing,
            "critical": any(f.severity == "critical" for f in findings)}
