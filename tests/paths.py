"""Where things are, for a test in any folder under ``tests/``: the checkout and this folder."""

from __future__ import annotations

import os
import shutil
import sysconfig
from pathlib import Path

TESTS = Path(__file__).resolve().parent
"""``tests/``: the scenario files, the test bots, the helper modules."""
ROOT = TESTS.parent
"""The checkout: ``shipwreck/``, ``docs/``, ``pyproject.toml``, ``server.toml``."""


def compiler_found() -> bool:
    """Is the C compiler Python was built with (what mypyc's build runs) on this machine? Then
    the install compiled the engine (``hatch_build.py``), or says why it could not."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0]) is not None
