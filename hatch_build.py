"""Build hook: compile the engine's hot modules with mypyc (issue 19): Lifeboat's rules and
Spanish Main's rules and geometry (the list: ``shipwreck/_native.py``).

Both ``pip install .`` and ``pip install -e .`` run it (``[tool.hatch.build.targets.wheel.hooks.
custom]`` in pyproject.toml). The module list lives once, in ``shipwreck/_native.py``, which also
decides at run time whether the compiled modules are used; this hook writes the record that
decision reads (the SHA-256 of each source compiled).

The compiling itself is the ``hatch-mypyc`` plugin (pinned in pyproject.toml): it builds the
extension modules in place, next to their sources, and adds them to the wheel. If compiling
fails (no C compiler, no Python headers), the install goes on with the pure-Python engine and
says so; ``SHIPWRECK_PURE_PYTHON=1`` at install time skips compiling.
"""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import hatch_mypyc.plugin as mypyc_plugin

HERE = Path(__file__).resolve().parent


def load_native() -> ModuleType:
    """``shipwreck/_native.py`` loaded from its file (the package itself is not importable while
    it is being built; that module needs only the standard library)."""
    path = HERE / "shipwreck" / "_native.py"
    spec = importlib.util.spec_from_file_location("_shipwreck_native", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class CompileEngine(mypyc_plugin.MypycBuildHook):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        native = load_native()
        if os.environ.get(native.PURE_ENV):  # (an earlier build's files would still be used)
            self.clean([version])
            self.app.display_info(f"shipwreck: {native.PURE_ENV} is set: engine not compiled")
            return
        record = native.ROOT / native.RECORD
        record.unlink(missing_ok=True)
        modules = native.COMPILED
        self.config["include"] = [
            "/" + native.source_of(m).relative_to(HERE).as_posix() for m in modules
        ]
        # Floats must come out as the pure-Python engine's, bit for bit (a game replays from its
        # seed on either build): no fused multiply-add where the C compiler would contract.
        os.environ["CFLAGS"] = (os.environ.get("CFLAGS", "") + " -ffp-contract=off").strip()
        try:
            super().initialize(version, build_data)
        except Exception as exc:  # the compiler's own output is in the message
            self.clean([version])
            said = (str(exc).strip().splitlines() or [repr(exc)])[-1]
            self.app.display_warning(
                "shipwreck: could not compile the engine with mypyc, so it runs as pure Python "
                f"(about 1.5x slower); the compiler said: {said[:200]}"
            )
            return
        digests = {m: native.digest(native.source_of(m)) for m in modules}
        record.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
        build_data["artifacts"].append("/" + record.relative_to(HERE).as_posix())
        self.app.display_info(f"shipwreck: compiled {len(modules)} engine modules with mypyc")

    def clean(self, versions: list[str]) -> None:
        super().clean(versions)
        native = load_native()
        (native.ROOT / native.RECORD).unlink(missing_ok=True)


def get_custom() -> type[CompileEngine]:
    """What hatchling loads (it would otherwise find two hook classes in this file)."""
    return CompileEngine
