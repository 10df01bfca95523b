"""Issue 17, item 3: the package's imports go one way, engine <- games <- lang <- runtime <- tui
<- server, and form no circle, counting imports inside functions (only those under
``if TYPE_CHECKING:``, which never run, are left out). Read from the source with ``ast``."""

from __future__ import annotations

import ast
from pathlib import Path

from paths import ROOT

PACKAGE = ROOT / "shipwreck"

LAYERS = ("engine", "games", "lang", "runtime", "tui", "server")
"""Lowest first: a module may import from its own layer and those before it."""

TOOLS = {"botseat": "runtime", "scenario": "runtime", "sim": "runtime", "replay": "tui"}
"""Modules beside the layers, and the layer each sits in."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def _known(name: str) -> str | None:
    """The package module ``name`` is (or is inside: ``a.b.Class`` -> ``a.b``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:`` (annotations only)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
            for stmt in node.body:
                out |= {id(n) for n in ast.walk(stmt)}
    return out


def imports(module: str) -> dict[str, int]:
    """The package modules ``module`` imports (at any depth), with a line of each."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_only(tree)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: dict[str, int] = {}
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([node.module] if node.module else [])])
            targets = [f"{base}.{a.name}" for a in node.names]
        for t in targets:
            found = _known(t) if t.startswith("shipwreck") else None
            if found is not None and found != module:
                out.setdefault(found, node.lineno)
    return out


GRAPH = {m: imports(m) for m in MODULES}


def layer(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) < 2:
        return None
    name = TOOLS.get(parts[1], parts[1])
    return LAYERS.index(name) if name in LAYERS else None


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_a_higher_layer() -> None:
    upward = [
        f"{m}:{line} imports {t}"
        for m, targets in sorted(GRAPH.items())
        for t, line in sorted(targets.items())
        if (a := layer(m)) is not None and (b := layer(t)) is not None and b > a
    ]
    assert upward == []


def test_no_import_circles() -> None:
    assert cycles(GRAPH) == []


def test_the_checks_see_an_upward_import_and_a_circle() -> None:
    """Both checks can fail: a circle hidden in a function is found, and so is a game
    importing the TUI."""
    graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert layer("shipwreck.games.registry") == 1 < layer("shipwreck.tui.app")
    source = "def f():\n    from shipwreck.tui.app import ShipwreckApp\n"
    tree = ast.parse(source)
    assert not _type_checking_only(tree)
    assert "shipwreck.tui.app" in {
        _known(f"{n.module}.{a.name}")
        for n in ast.walk(tree)
        if isinstance(n, ast.ImportFrom)
        for a in n.names
    }
