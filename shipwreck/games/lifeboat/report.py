"""A scenario's final state as lines of text (``shipwreck scenario run``, without ``--json``)."""

from __future__ import annotations

from typing import Any


def summary_lines(s: dict[str, Any]) -> list[str]:
    """The final state of a Lifeboat scenario (``Lifeboat.summary``), one line per character."""
    lines = [
        f"round {s['round']}, phase {s['phase']}, birds {s['birds']}, next: "
        + (", ".join(s["next"]) or "-")
    ]
    for cid, c in s["characters"].items():
        lines.append(
            f"{c['seat']}. {cid:<8} {c['state']:<11} wounds {c['wounds']}"
            f"  hidden [{', '.join(c['hidden'])}]  revealed [{', '.join(c['revealed'])}]"
        )
    if "scores" in s:
        lines.append("scores: " + ", ".join(f"{k} {v}" for k, v in s["scores"].items()))
    return lines
