"""A scenario's final state as lines of text (``shipwreck scenario run``, without ``--json``)."""

from __future__ import annotations

from typing import Any


def summary_lines(s: dict[str, Any]) -> list[str]:
    """The final state of a Spanish Main scenario (``SpanishMain.summary``), one line per ship."""
    lines = [
        f"round {s['round']}, {s['turn']}'s turn, step {s['step']}, next: "
        + (", ".join(s["next"]) or "-"),
        "gold: " + ", ".join(f"{k} {v}" for k, v in s["gold"].items()),
    ]
    for sid, c in s["ships"].items():
        where = f"docked at {c['docked']}" if c["docked"] else "at sea"
        extra = (" derelict" if c["derelict"] else "") + (
            f" towing {c['towing']}" if c["towing"] else ""
        )
        lines.append(
            f"{sid:<18} {c['owner']:<5} ({c['x']:g}, {c['y']:g}) heading {c['heading']:g}"
            f"  masts {c['masts']}  cargo {c['cargo']}  {where}{extra}"
        )
    if s["sunk"]:
        lines.append("sunk: " + ", ".join(s["sunk"]))
    if s["over"]:
        lines.append(f"over ({s['end_reason']}): winners " + ", ".join(s["winners"]))
    return lines
