"""The fence around Textual's internals (``shipwreck/tui/_textual/``): every patch has a guard
that holds on the installed Textual, a guard that fails keeps its patch off (and only that
one), nothing is installed at import, the server says at start-up which patches are active,
and no other module touches Textual's or Rich's private parts.

Conflicts with Textual are simulated by giving a record a wrong digest or a missing attribute,
never by changing Textual; the tests that install from scratch run in a fresh interpreter
(``conftest.py`` installs the patches in this one).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import time
from pathlib import Path

import msgspec
import rich
import textual
from paths import ROOT
from textual.reactive import Reactive
from textual.strip import Strip
from textual.widget import Widget

from shipwreck.tui._textual import FENCE, PATCHES, draw_now, strips
from shipwreck.tui._textual.fence import Fence, Reads

FENCE_DIR = ROOT / "shipwreck" / "tui" / "_textual"
WRONG = "0" * 64


def run_python(code: str, timeout: float = 120) -> str:
    """Run ``code`` in a fresh interpreter (no patches installed); its stdout."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_patch_has_a_guard() -> None:
    """Each record names Textual's code it replaces or imitates, with a sha256 of its source,
    and the private attributes it reads; its name is unique and it says why it exists."""
    assert len({patch.name for patch in PATCHES}) == len(PATCHES)
    for patch in PATCHES:
        assert patch.why and patch.install is not None, patch.name
        assert patch.sources, f"{patch.name} has no digest of the code it replaces"
        for source in patch.sources:
            assert re.fullmatch(r"[0-9a-f]{64}", source.sha256), (patch.name, source.label)
        assert all(reads.names for reads in patch.reads), patch.name


def test_with_the_installed_textual_every_patch_is_active() -> None:
    assert [FENCE.problem(patch) for patch in PATCHES] == [None] * len(PATCHES)
    assert FENCE.report() == f"patches: {len(PATCHES)}/{len(PATCHES)} active"
    assert all(FENCE.active(patch.name) for patch in PATCHES)
    assert FENCE.off == {}


def _private_attributes(tree: ast.AST) -> set[str]:
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
    }


def test_every_private_attribute_a_patch_uses_is_in_its_guard() -> None:
    """Every ``x._name`` in a fenced module is checked by a guard of that module's patches (as
    an attribute it reads, or as the code it replaces): draw_now's guard checks every flag it
    reads, the parser's the deadline it moves, and so on."""
    for module_file in sorted(FENCE_DIR.glob("*.py")):
        if module_file.name in ("__init__.py", "fence.py"):
            continue
        module = f"shipwreck.tui._textual.{module_file.stem}"
        guarded: set[str] = set()
        for patch in PATCHES:
            if patch.install is not None and patch.install.__module__ == module:
                guarded.update(source.name for source in patch.sources)
                guarded.update(name for reads in patch.reads for name in reads.names)
        assert guarded, f"{module} has no patch"
        used = _private_attributes(ast.parse(module_file.read_text()))
        assert used <= guarded, f"{module} reads {sorted(used - guarded)} unguarded"


def test_a_patch_whose_code_changed_is_off_and_the_others_are_on() -> None:
    """A record whose digest is not Textual's code's (as after a Textual upgrade that changed
    ``Strip.divide``) is reported off, with why, and not installed; every other patch is; and
    the app still runs on Textual's own ``divide``. Likewise draw_now: off, it draws nothing
    itself and Textual draws the screen its own way."""
    out = run_python(f"""
import asyncio
import msgspec
from textual.strip import Strip
from shipwreck.runtime import Lobby
from shipwreck.tui import ShipwreckApp
from shipwreck.tui._textual import PATCHES, draw_now, strips
from shipwreck.tui._textual.fence import Fence

textual_divide, textual_init = Strip.divide, Strip.__init__
wrong = {{"strip_divide", "draw_now"}}
records = [
    msgspec.structs.replace(
        p, sources=(msgspec.structs.replace(p.sources[0], sha256="{WRONG}"), *p.sources[1:])
    ) if p.name in wrong else p
    for p in PATCHES
]
fence = Fence(records)
print(sorted(fence.install()))
print(fence.report())
print(Strip.divide is textual_divide, Strip.__init__ is strips._init)
print(fence.active("strip_divide"), fence.active("strip_caches"), fence.active("draw_now"))

async def play() -> None:
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        print(draw_now.draw_now(app.screen))
        await pilot.press(*"help", "enter")
        await pilot.pause()
        print(any("new" in str(line.text) for line in app.screen._compositor.render_strips()))

asyncio.run(play())
""")
    lines = out.splitlines()
    assert lines[0] == "['draw_now', 'strip_divide']"
    n = len(PATCHES)
    assert lines[1].startswith(f"patches: {n - 2}/{n} active; off: ")
    assert "strip_divide (Strip.divide is not the code it was written for (sha256 " in lines[1]
    assert f"expected {WRONG[:12]})" in lines[1]
    assert "draw_now (Screen._on_timer_update is not the code" in lines[1]
    assert lines[2] == "True True", "the off patch was installed, or the others were not"
    assert lines[3] == "False True False"
    assert lines[4:] == ["False", "True"], "off, draw_now drew, or the app did not draw"


def test_a_missing_private_attribute_keeps_its_patch_off() -> None:
    """draw_now's guard checks the private attributes it reads, not only digests: one that is
    gone keeps it off (its install is never called), and says which."""
    calls: list[str] = []
    reads = Reads("Widget", Widget, ("_repaint_required", "_no_such_flag"))
    record = msgspec.structs.replace(
        draw_now.DRAW_NOW, reads=(reads,), install=lambda: calls.append("installed")
    )
    fence = Fence([record])
    assert fence.install() == {"draw_now": "Widget has no _no_such_flag"}
    assert calls == [] and not fence.active("draw_now")
    assert fence.report() == "patches: 0/1 active; off: draw_now (Widget has no _no_such_flag)"


def test_installing_twice_installs_once() -> None:
    calls: list[str] = []
    record = msgspec.structs.replace(strips.DIVIDE, install=lambda: calls.append("divide"))
    fence = Fence([record])
    assert fence.install() == {} and fence.install() == {}
    assert calls == ["divide"] and fence.report() == "patches: 1/1 active"


def test_importing_the_app_and_the_server_installs_nothing() -> None:
    out = run_python("""
import shipwreck.cli, shipwreck.server.service, shipwreck.tui
from textual.strip import Strip
from shipwreck.tui._textual import FENCE
print(Strip.__init__.__module__, FENCE.report())
""")
    assert out.split() == ["textual.strip", "patches:", f"0/{len(PATCHES)}", "active"]


def test_the_server_says_at_start_up_which_patches_are_active(tmp_path: Path) -> None:
    """``shipwreck serve`` logs ``patches: N/N active`` (and asyncssh's) before it listens."""
    server = subprocess.Popen(
        [sys.executable, "-m", "shipwreck", "serve", "--port", "0", "--listen", "127.0.0.1"]
        + ["--db", str(tmp_path / "t.db"), "--host-key", str(tmp_path / "host_key")],
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    assert server.stderr is not None
    lines: list[str] = []
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and not any("listening on" in s for s in lines):
            line = server.stderr.readline()
            if not line:
                break
            lines.append(line)
    finally:
        server.terminate()
        server.wait(timeout=30)
    said = [line.split(": ", 1)[1].strip() for line in lines if "patches: " in line]
    assert said == [
        f"patches: {len(PATCHES)}/{len(PATCHES)} active",
        "asyncssh patches: 2/2 active",  # (server/asyncssh_fence.py)
    ], lines
    assert "listening on" in lines[-1]


def _names_defined(tree: ast.AST) -> set[str]:
    """Private names a module defines itself: attributes it assigns, methods, class fields."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                target = item.target if isinstance(item, ast.AnnAssign) else None
                targets = item.targets if isinstance(item, ast.Assign) else [target]
                names.update(t.id for t in targets if isinstance(t, ast.Name))
    return {name for name in names if name.startswith("_") and not name.startswith("__")}


def _trees(folder: Path) -> dict[Path, ast.AST]:
    return {path: ast.parse(path.read_text()) for path in sorted(folder.rglob("*.py"))}


def test_no_textual_or_rich_internals_outside_the_fence() -> None:
    """Outside ``tui/_textual/`` nothing imports ``textual._*`` or ``rich._*``, and nothing
    uses a private attribute of Textual's or Rich's that the project does not define itself.

    (The SSH driver's ``self._app`` and ``self._size`` are the attributes every Textual
    driver is written with, and the driver also sets them; they pass as its own.)"""
    library: set[str] = set()
    for package in (textual, rich):
        for tree in _trees(Path(package.__file__).parent).values():
            library |= _names_defined(tree)
    project = {
        path: tree
        for path, tree in _trees(ROOT / "shipwreck").items()
        if FENCE_DIR not in path.parents
    }
    own: set[str] = set()
    for tree in project.values():
        own |= _names_defined(tree)
    own.add("_replace")  # a NamedTuple's public method
    found: list[str] = []
    for path, tree in project.items():
        where = path.relative_to(ROOT)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                modules = []
            found += [
                f"{where}:{node.lineno} imports {m}"
                for m in modules
                if re.match(r"(textual|rich)(\.\w+)*\._", m)
            ]
        for name in (_private_attributes(tree) & library) - own:
            found.append(f"{where} uses {name}")
    assert found == []


def test_the_fence_is_not_undone_by_textuals_own_strips() -> None:
    """A strip made before or after install behaves as Textual's (the lazy caches cache)."""
    strip = Strip.blank(5)
    assert strip.crop(0, 2) is strip.crop(0, 2)
    assert Strip.__init__ is strips._init


def _doc_blocks() -> list[str]:
    text = (ROOT / "docs" / "textual-notes.md").read_text()
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_the_textual_bugs_in_the_notes_still_reproduce_on_plain_textual() -> None:
    """The reproductions in docs/textual-notes.md, run as written on Textual without the
    patches, show the bugs. When one stops reproducing, Textual has fixed it: drop the patch
    (``pump_starter``, ``input_parser``; for bug 4, ``pacer.after``) and its note."""
    leak, _fix, kitty, pixels, timer = _doc_blocks()
    assert run_python(leak).strip() == "First screen still alive: True"
    assert int(run_python(timer).strip()) < 50  # (bug 4: the project uses pacer.after)
    assert run_python(kitty).count("ValueError") == 2
    done = subprocess.run([sys.executable, "-c", pixels], capture_output=True, text=True)
    assert "ZeroDivisionError" in done.stderr


def test_with_every_patch_off_the_app_still_plays() -> None:
    """Were every guard to fail (a Textual that changed everywhere), the app runs on Textual's
    own code: a table opens from a typed command, a line is said and shown, and Up brings it
    back (the command line's bindings, found without ``DOMNode._bindings``)."""
    out = run_python(f"""
import asyncio
import msgspec
from textual.strip import Strip
from shipwreck.runtime import Lobby
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.widgets import CommandLine
from shipwreck.tui._textual import PATCHES
from shipwreck.tui._textual.fence import Fence

fence = Fence(
    msgspec.structs.replace(
        p, sources=(msgspec.structs.replace(p.sources[0], sha256="{WRONG}"), *p.sources[1:])
    )
    for p in PATCHES
)
print(sorted(fence.install()) == sorted(p.name for p in PATCHES), Strip.__init__.__module__)

async def play() -> None:
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(*"new 6 free free free free free", "enter")
        await pilot.pause()
        print(type(app.screen).__name__)
        await pilot.press(*"say ahoy", "enter")
        await pilot.pause()
        rows = [str(strip.text) for strip in app.screen._compositor.render_strips()]
        print(any("ahoy" in row for row in rows))
        await pilot.press("up")
        await pilot.pause()
        print(app.screen.query_one("#command", CommandLine).value)

asyncio.run(play())
""")
    assert out.splitlines() == ["True textual.strip", "TableScreen", "True", "say ahoy"]


def _project_classes() -> list[type]:
    import importlib
    import inspect
    import pkgutil

    import shipwreck

    classes: list[type] = []
    for info in pkgutil.walk_packages(shipwreck.__path__, "shipwreck."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        classes += [
            cls
            for cls in vars(module).values()
            if inspect.isclass(cls) and cls.__module__ == info.name
        ]
    return classes


def test_every_override_of_a_textual_private_method_is_guarded() -> None:
    """A project class that overrides a private method of a Textual or Rich class (the
    command line's ``_on_key`` and ``_on_idle``) relies on that method's code, so the method is
    a source of a fenced patch, digest and all. (Attributes Textual itself puts on every
    subclass, such as ``_merged_bindings``, or for each reactive, are not overrides.)"""
    guarded = {(source.owner, source.name) for patch in PATCHES for source in patch.sources}
    overrides: set[tuple[type, str]] = set()
    for cls in _project_classes():
        library = [b for b in cls.__mro__[1:] if b.__module__.split(".")[0] in ("textual", "rich")]
        if not library:
            continue
        made_by_textual = set(vars(type("Probe", (library[0],), {})))
        reactives = [name for name, value in vars(cls).items() if isinstance(value, Reactive)]
        made_by_textual |= {f"_default_{name}" for name in reactives}
        for name in vars(cls):
            if not name.startswith("_") or name.startswith("__") or name in made_by_textual:
                continue
            owner = next((b for b in library if name in vars(b)), None)
            if owner is not None:
                overrides.add((owner, name))
    assert overrides, "the command line's overrides were not found: the check is broken"
    assert {f"{o.__name__}.{n}" for o, n in overrides - guarded} == set()
