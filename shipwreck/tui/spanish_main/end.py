"""The end of a Spanish Main game, as one seat sees it: its placing, and each player's gold at
home drawn as a bar towards the winning line (more than half of all the gold still in play,
SM-40), with the tie-break (ships afloat and their points, SM-41)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from shipwreck.games.spanish_main.view import SpanishMainView
from shipwreck.tui.spanish_main.render import owner_colour
from shipwreck.tui.standings import Part, bar, bar_width, key, ordinal, placing, rank

GOLD = Part("gold at home", "█", "yellow")
SHORT = Part("still needed to win", "·", "dim")


def final(view: SpanishMainView, width: int = 76) -> RenderableType:
    """My placing, then each player, best first (gold, then ships' points), my row marked."""
    n = len(view.seats)
    afloat = [[s for s in view.ships if s.owner == i] for i in range(n)]
    points = [sum(s.points for s in ships) for ships in afloat]
    standing: list[tuple[int, ...]] = [(view.gold[i], points[i]) for i in range(n)]
    order = sorted(range(n), key=lambda i: standing[i], reverse=True)
    goal = view.gold_in_play // 2 + 1  # (more than half the gold still in play, SM-40)
    head = Text(f"the game is over: {view.end_reason}\n", style="bold")
    if view.seat is not None and 0 <= view.seat < n:
        head.append(f"you came {placing(standing, standing[view.seat])}", style="bold cyan")
        head.append(f" with {view.gold[view.seat]} gold at home", style="bold cyan")
    rows: list[RenderableType] = [head, key([GOLD, SHORT]), Text("")]
    top = max([goal, *view.gold])
    cells = bar_width(width)
    for i in order:
        me = i == view.seat
        line = Text("▸ " if me else "  ", style="bold cyan")
        line.append(f"{ordinal(rank(standing, standing[i])):>4}  ")
        who = Text(view.seats[i], style=f"bold {owner_colour(i)}")
        if i in view.winners:
            who.append(" ★ winner", style="yellow")
        if me:
            who.append(" (you)", style="cyan")
        who.truncate(22, overflow="ellipsis", pad=True)
        line.append_text(who)
        line.append(f"{view.gold[i]:>3}  ", style="bold")
        need = max(0, goal - view.gold[i])
        line.append_text(bar([(GOLD, view.gold[i]), (SHORT, need)], cells / top, cells))
        coins = ", ".join(f"#{c}" for c in view.home_coins[i]) or "none"
        ships = ", ".join(s.name for s in afloat[i]) or "none"
        detail = Text(
            f"{gold_to_win(view.gold[i], goal)} (coins {coins})\n"
            f"ships afloat {len(afloat[i])} ({points[i]} pts, the tie-break): {ships}"
        )
        rows += [line, Padding(detail, (0, 0, 0, 8))]
    return Group(*rows)


def gold_to_win(gold: int, goal: int) -> str:
    """A player's gold against the winning line: ``gold 3 of the 7 that wins``, and once
    past it ``gold 11 (7 wins)`` (not "11 of the 7")."""
    return f"gold {gold} ({goal} wins)" if gold >= goal else f"gold {gold} of the {goal} that wins"
