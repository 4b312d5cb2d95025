"""Typed readers of environment variables that fail loudly on a bad value.

Settings read the environment only through these, so a typo such as ``DEBUG=ture`` stops the
process at start-up with the variable's name instead of silently meaning something else.
"""

from __future__ import annotations

import os
from typing import overload

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class EnvError(ValueError):
    pass


@overload
def env_str(name: str, default: str) -> str: ...
@overload
def env_str(name: str, default: None = None) -> str | None: ...
def env_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    return default if value is None else value


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise EnvError(f"{name}={value!r}: expected one of true/false/1/0/yes/no/on/off")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise EnvError(f"{name}={value!r}: expected a whole number") from None
    if minimum is not None and number < minimum:
        raise EnvError(f"{name}={value!r}: must be at least {minimum}")
    return number


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def ensure_private_dir(name: str) -> None:
    """Create the folder the variable ``name`` names (and its parents) if it is missing, readable by this
    user only; nothing when the variable is unset or empty."""
    path = os.environ.get(name)
    if not path:
        return
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except OSError as exc:
        raise EnvError(f"{name}={path!r}: the folder could not be created ({exc.strerror})") from None
