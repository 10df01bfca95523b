"""Where the files that ship beside the code live: ``grammar/``, ``bots/``, ``docs/rules/``.

In a checkout (or an editable install) they sit in the repository (``docs/rules/`` as
``rules``); an installed wheel carries them inside the package as ``shipwreck/_data/`` (see
``pyproject.toml``).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _find(name: str, checkout: str | None = None) -> Path:
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / (checkout or name)):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"cannot find the {name}/ folder beside the shipwreck package")


def grammar_dir() -> Path:
    return _find("grammar")


def bots_dir() -> Path:
    return _find("bots")


def rules_dir() -> Path:
    """The games' rules documents (one per game, named in its registry record)."""
    return _find("rules", "docs/rules")
