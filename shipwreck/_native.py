"""Which engine runs: the mypyc-compiled modules, or the same modules as pure Python.

``pip install .`` (and ``pip install -e .``) compiles the modules in :data:`COMPILED` with mypyc
(``hatch_build.py``; issue 19: the engine plays about 1.5x as many games a second compiled). The
compiled modules sit next to their ``.py`` files and Python prefers them; the build also writes
:data:`RECORD`, the SHA-256 of each source it compiled.

The pure-Python modules stay the reference, and are chosen instead when

- :data:`PURE_ENV` is set (the tests run the rules once this way, ``tests/engine/test_native.py``),
- nothing was compiled (no C compiler at install time: the install says so and goes on), or
- any compiled module's source changed since the build (an edited checkout: the edit runs, not a
  stale build). ``pip install -e .`` compiles again.

It is all or nothing: compiled modules call each other directly, so mixing a compiled module with
the pure copy of another would give two copies of one module. :func:`install` runs first thing in
``shipwreck/__init__.py``, before any of these modules can be imported.

``hatch_build.py`` loads this file by its path while the package is being built (for the list,
the record's name and the digests), so it imports nothing but the standard library.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType

COMPILED = (
    "shipwreck.engine.rng",
    "shipwreck.games.lifeboat.cards",
    "shipwreck.games.lifeboat.rules",
    "shipwreck.games.lifeboat.scoring",
    "shipwreck.games.spanish_main.abilities",
    "shipwreck.games.spanish_main.geometry",
    "shipwreck.games.spanish_main.memo",
    "shipwreck.games.spanish_main.rules",
    "shipwreck.games.spanish_main.view",
    "shipwreck.lang.bots.compile",
    "shipwreck.lang.bots.spanish_main_env",
)
"""The modules mypyc compiles: Lifeboat's rules and what they call on every command, and Spanish
Main's rules with what they call on every move (the geometry: every move's sweep against the
sea's obstacles; the memo of a position; the abilities; a seat's view, which every decision
of a bot reads), and what a Spanish Main bot reads
(``spanish_main_env``: ``move SHIP to``'s previews and their bounds) with the bots' evaluator
(``lang.bots.compile``: a script's guards and expressions, every game's bots). (Modules that
define ``msgspec.Struct`` classes with fields, such as ``state`` and ``commands``, cannot be
compiled: mypyc turns their field defaults into class attributes msgspec refuses: hence
``spanish_main.previews`` and ``spanish_main.view_types``.)"""

RECORD = "_native.json"
"""Written by the build next to this file: ``{module: SHA-256 of the source it compiled}``."""

PURE_ENV = "SHIPWRECK_PURE_PYTHON"
"""Set (to anything but empty) to run the pure-Python engine; at build time, to skip compiling."""

ROOT = Path(__file__).resolve().parent


def source_of(module: str, root: Path = ROOT) -> Path:
    """``shipwreck.games.lifeboat.rules`` -> ``<root>/games/lifeboat/rules.py``."""
    return root.joinpath(*module.split(".")[1:]).with_suffix(".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def choose(
    root: Path = ROOT, env: Mapping[str, str] = os.environ, modules: Sequence[str] = COMPILED
) -> tuple[bool, str]:
    """Whether to run the compiled modules, and why (a short phrase for ``--version`` and logs)."""
    if env.get(PURE_ENV):
        return False, f"pure Python ({PURE_ENV} is set)"
    try:
        recorded = json.loads((root / RECORD).read_text())
    except (OSError, ValueError):
        return False, "pure Python (not compiled: pip install . compiles it where gcc is found)"
    for module in modules:
        src = source_of(module, root)
        try:
            same = isinstance(recorded, dict) and recorded.get(module) == digest(src)
        except OSError:
            same = False
        if not same:
            return False, (
                f"pure Python ({src.name} changed since it was compiled; "
                "pip install -e . compiles it again)"
            )
    return True, "compiled with mypyc"


class SourceFirst(importlib.abc.MetaPathFinder):
    """Imports the :data:`COMPILED` modules from their ``.py`` files, passing over the compiled
    files beside them (the normal finder takes an extension module first)."""

    def __init__(self, root: Path = ROOT, modules: Sequence[str] = COMPILED) -> None:
        self.root = root
        self.modules = frozenset(modules)

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules:
            return None
        return importlib.util.spec_from_file_location(fullname, source_of(fullname, self.root))


_chosen: tuple[bool, str] | None = None


def install() -> None:
    """Choose once per process; when it is pure Python, put :class:`SourceFirst` in front."""
    global _chosen
    if _chosen is not None:
        return
    _chosen = choose()
    if not _chosen[0] and not any(isinstance(f, SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFirst())


def build() -> str:
    """What runs in this process: ``compiled with mypyc`` or ``pure Python (why)``."""
    install()
    assert _chosen is not None
    return _chosen[1]


def compiled() -> bool:
    install()
    assert _chosen is not None
    return _chosen[0]
