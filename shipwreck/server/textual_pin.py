"""The Textual releases the server is tested with (``pyproject.toml`` pins the same range).

The SSH driver relies on Textual internals: older releases crash every session, newer ones may.
``shipwreck serve`` checks the installed version here, once, and refuses to start outside it.
"""

from __future__ import annotations

import re
from importlib import metadata

LOWEST = (8, 2, 8)
"""The lowest release that works (inclusive): the one the fence's patches are written against
(``shipwreck/tui/_textual/``; on 8.2.7 ``XTermParser._parse_extended_key`` returned one key, not
a list, and the input parser's guard keeps that patch off)."""
BELOW = (8, 3)
"""The first release not tested (exclusive)."""
REQUIREMENT = "textual>=8.2.8,<8.3"


def _release(version: str) -> tuple[int, ...] | None:
    """``8.2.8`` -> (8, 2, 8); None for a pre-release (``8.2.7rc1``, ``8.2.8.dev0``) or junk."""
    match = re.fullmatch(r"\s*v?(\d+(?:\.\d+)*)(?:\.post\d+)?(?:\+[\w.]+)?\s*", version)
    return tuple(int(part) for part in match.group(1).split(".")) if match else None


def textual_problem(version: str) -> str | None:
    """Why this Textual version can't run the server, or None if it can."""
    release = _release(version)
    if release is not None and LOWEST <= release < BELOW:
        return None
    return (
        f"Textual {version.strip() or '?'} is installed, but the server needs {REQUIREMENT} "
        f"(the range it is tested with); run: pip install '{REQUIREMENT}'"
    )


def installed_textual_problem() -> str | None:
    try:
        return textual_problem(metadata.version("textual"))
    except metadata.PackageNotFoundError:
        return textual_problem("")
