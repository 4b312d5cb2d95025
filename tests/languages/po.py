"""A reader of gettext catalogs (.po), enough for the tests: entries with their context, id, plural id,
translations and flags. The machine that runs the suite needs no gettext tools to read them."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

_LINE = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) (".*")$')


@dataclass
class Entry:
    msgid: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)  # index 0 for a singular entry
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False

    @property
    def key(self) -> str:
        """The key gettext files it under in a compiled catalog: ``context\\x04id``."""
        return self.msgid if self.msgctxt is None else f"{self.msgctxt}\x04{self.msgid}"


def _unquote(text: str) -> str:
    return str(ast.literal_eval(text))


def read(path: Path) -> list[Entry]:
    """Every entry of a catalog, the header (msgid "") first."""
    entries: list[Entry] = []
    current: Entry | None = None
    last = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            current = None
            continue
        if current is None:
            current = Entry()
            entries.append(current)
        if line.startswith("#~"):
            current.obsolete = True
            continue
        if line.startswith("#,"):
            current.flags.update(f.strip() for f in line[2:].split(","))
            continue
        if line.startswith("#"):
            continue
        m = _LINE.match(line)
        if m:
            last, value = m.group(1), _unquote(m.group(2))
        elif line.startswith('"'):
            value = _unquote(line)
        else:
            raise ValueError(f"{path}: cannot read {raw!r}")
        if last == "msgid":
            current.msgid += value
        elif last == "msgctxt":
            current.msgctxt = (current.msgctxt or "") + value
        elif last == "msgid_plural":
            current.msgid_plural = (current.msgid_plural or "") + value
        else:
            index = int(last[7:-1]) if last.startswith("msgstr[") else 0
            current.msgstr[index] = current.msgstr.get(index, "") + value
    return [e for e in entries if e.msgid or e.msgstr]
