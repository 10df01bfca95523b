"""The command line's own key bindings, run before the key is typed (``command_line``).

``CommandLine`` handles each key in its own ``_on_key`` so keys are handled strictly in the
order they arrive; it runs its own bindings (history, completion) first, then hands the key to
``Input._on_key``; its ``_on_idle`` draws the echo before ``Widget._on_idle`` runs. A
widget's bindings are in ``DOMNode._bindings``, which has no public name. Until the fence
switches this on, the bindings its classes declare (``BINDINGS``, the nearest class's for a
key, as Textual merges them) are used instead: the same, unless bindings are changed at run
time, which the command line does not do.
"""

from __future__ import annotations

from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode
from textual.widget import Widget
from textual.widgets import Input

from shipwreck.tui._textual.fence import Patch, Reads, Source

_on = False


def _switch_on() -> None:
    global _on
    _on = True


def own_bindings(node: DOMNode, key: str) -> list[Binding]:
    """``node``'s own bindings for ``key``."""
    if _on:
        return list(node._bindings.key_to_bindings.get(key, ()))
    for cls in type(node).__mro__:
        declared = BindingsMap(cls.__dict__.get("BINDINGS", [])).key_to_bindings.get(key)
        if declared:
            return list(declared)
    return []


KEYS = Patch(
    name="command_line",
    why="the command line runs its own bindings before typing a key, in the order keys came",
    sources=(
        Source(
            Widget,
            "_on_idle",
            "dcb1c9d1e74be9b2cb62c9a500af4889051a768bb7b61c9a6c1bdcd5b8640db4",
        ),
        Source(
            Input, "_on_key", "55068e7ce456e598b6417ac86e9c08abfaa76139e068a46bd3c49c4d9a7f43b1"
        ),
        Source(
            Input, "_on_paste", "4130f8efa484b77f2b53f6457f8f8f82e46aae9a5a40d83e8561dad48d5b57fa"
        ),
    ),
    reads=(Reads("DOMNode", DOMNode, ("_bindings",)),),
    install=_switch_on,
)
