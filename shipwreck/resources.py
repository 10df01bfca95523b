"""Where the files that ship beside the code live: ``grammar/`` and ``bots/``.

In a checkout (or an editable install) they sit at the top of the repository; an installed wheel
carries them inside the package as ``shipwreck/_data/`` (see ``pyproject.toml``).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _find(name: str) -> Path:
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"cannot find the {name}/ folder beside the shipwreck package")


def grammar_dir() -> Path:
    return _find("grammar")


def bots_dir() -> Path:
    return _find("bots")
