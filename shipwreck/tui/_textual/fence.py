"""The fence's records and their guards: what each patch changes, and whether it may.

A :class:`Patch` names Textual's (or Rich's) code it replaces or imitates (:class:`Source`, with
the sha256 of that code's source text as it was written against) and every private attribute
it reads or writes (:class:`Reads`). Its guard holds only if every digest matches Textual's
original code and every attribute is there; a patch whose guard fails is not installed, and
the app goes on with Textual's own code (correct, maybe slower). :class:`Fence` installs each
patch on its own and says which are active and, for the others, why not.
"""

from __future__ import annotations

import hashlib
import inspect
import logging
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

log = logging.getLogger(__name__)


class Source(msgspec.Struct, frozen=True):
    """Textual's code a patch replaces or imitates: ``owner.name`` (a function, a method or a
    property) and the sha256 of its source text."""

    owner: type[Any]
    name: str
    sha256: str

    @property
    def label(self) -> str:
        return f"{self.owner.__name__}.{self.name}"


class Reads(msgspec.Struct, frozen=True):
    """Private attributes a patch reads or writes on what ``probe`` makes: the class itself
    (``lambda: Compositor``) for its methods, an instance (``Widget``) for what ``__init__``
    sets."""

    label: str
    probe: Callable[[], object]
    names: tuple[str, ...]


class Patch(msgspec.Struct, frozen=True):
    """One change to Textual, or one use of its internals, with its guard.

    ``install`` makes the change (``None`` for code that only reads internals: it asks
    :meth:`Fence.active` before it does)."""

    name: str
    why: str
    sources: tuple[Source, ...]
    reads: tuple[Reads, ...] = ()
    install: Callable[[], None] | None = None


def source_of(owner: type[Any], name: str) -> Any:
    """``owner.name`` as defined on the class (a property's getter for a property)."""
    found = inspect.getattr_static(owner, name)
    if isinstance(found, property):
        return found.fget
    return getattr(found, "__func__", found)  # (a classmethod or staticmethod: its function)


def digest(code: Any) -> str:
    """The sha256 of a function's source text."""
    return hashlib.sha256(inspect.getsource(code).encode()).hexdigest()


def _missing(reads: Reads) -> list[str]:
    try:
        probe = reads.probe()
    except Exception as e:  # a class that can no longer be made as written against
        return [f"a {reads.label} can no longer be made ({type(e).__name__}: {e})"]
    absent = [name for name in reads.names if not _has(probe, name)]
    return [f"{reads.label} has no {', '.join(absent)}"] if absent else []


def _has(probe: object, name: str) -> bool:
    try:
        inspect.getattr_static(probe, name)
    except AttributeError:
        return False
    return True


ORIGINALS: dict[tuple[type[Any], str], Any] = {}
"""Textual's own code, by (class, name), for every source a patch has replaced in this process:
a guard checks Textual's code, not a patch's (tests also compare with Textual's own)."""


class Fence:
    """A set of patches, each installed at most once (the app's is ``_textual.FENCE``)."""

    def __init__(self, patches: Iterable[Patch], kind: str = "Textual") -> None:
        """``kind``: whose code the patches change (asyncssh has a fence of its own:
        ``server/asyncssh_fence.py``); named in the warnings and, but for Textual's, the report."""
        self.kind = kind
        self.patches = tuple(patches)
        names = [patch.name for patch in self.patches]
        if len(set(names)) != len(names):
            raise ValueError(f"two patches share a name: {names}")
        self.off: dict[str, str] = {}
        """Why each patch that is off is off (after :meth:`install`)."""
        self._done: set[str] = set()

    def problem(self, patch: Patch) -> str | None:
        """Why ``patch`` must stay off here, or None if its guard holds."""
        problems: list[str] = []
        for source in patch.sources:
            original = ORIGINALS.get((source.owner, source.name))
            try:
                found = digest(original or source_of(source.owner, source.name))
            except (AttributeError, OSError, TypeError) as e:
                problems.append(f"{source.label} is gone or unreadable ({e})")
                continue
            if found != source.sha256:
                problems.append(
                    f"{source.label} is not the code it was written for "
                    f"(sha256 {found[:12]}, expected {source.sha256[:12]})"
                )
        for reads in patch.reads:
            problems.extend(_missing(reads))
        return "; ".join(problems) or None

    def install(self) -> dict[str, str]:
        """Install every patch whose guard holds and that is not installed yet; why each other
        patch is off. Each one stands alone: one that is off leaves the others as they are."""
        for patch in self.patches:
            if patch.name in self._done or patch.name in self.off:
                continue
            problem = self.problem(patch)
            if problem is not None:
                self.off[patch.name] = problem
                log.warning("%s patch %s is off: %s", self.kind, patch.name, problem)
                continue
            if patch.install is not None:
                for source in patch.sources:
                    key = (source.owner, source.name)
                    ORIGINALS.setdefault(key, source_of(source.owner, source.name))
                patch.install()
            self._done.add(patch.name)
        return dict(self.off)

    def active(self, name: str) -> bool:
        """Whether the patch named ``name`` is installed (or, for one that only reads
        internals, was found safe to use)."""
        return name in self._done

    def report(self) -> str:
        """One line: ``patches: 11/11 active``, or which are off and why."""
        whose = "" if self.kind == "Textual" else f"{self.kind} "
        line = f"{whose}patches: {len(self._done)}/{len(self.patches)} active"
        if self.off:
            line += "; off: " + "; ".join(f"{name} ({why})" for name, why in self.off.items())
        return line
