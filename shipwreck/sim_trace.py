"""``shipwreck sim --bots … --trace SEAT|BOT [--game-no N]`` (and ``shipwreck arena … --trace``):
one game's decisions, as the bots' traces record them (docs/bots.md, "The trace").

The game is the one ``sim`` plays as game N of the same command (same seed, same seats, same
dice: :func:`~shipwreck.sim.play_seated`), so a surprising result in a summary can be read move
by move. Each decision is a line: the round, the decision, the rule that fired (``file:line``),
the command played, and, when the script's own command was not played, why the safe default
was (no handler, no rule matched, an error, over the step budget, refused by the game).
"""

from __future__ import annotations

from typing import Any

from shipwreck.lang.bots import BotError, BotScript, TraceEntry
from shipwreck.sim import load_scripts, play_seated, seat_bots

TRACE_ENTRIES = 100_000
"""Every decision of the game (a Lifeboat game has a few hundred a seat)."""


def traced_seats(who: str, labels: list[str], headers: list[str], order: list[int]) -> list[int]:
    """The seats ``who`` names: a seat's number (from 1), or a bot (its name as ``sim`` lists
    it, or as its header writes it) for every seat it plays. ValueError in one line if none."""
    if who.isdigit():
        seat = int(who) - 1
        if not 0 <= seat < len(order):
            raise ValueError(f"--trace {who}: the seats are 1 to {len(order)}")
        return [seat]
    wanted = who.lower()
    seats = [s for s, k in enumerate(order) if wanted in (labels[k].lower(), headers[k].lower())]
    if not seats:
        names = ", ".join(dict.fromkeys(labels))
        raise ValueError(
            f"--trace {who}: no seat plays that bot; give a seat (1-{len(order)}) "
            f"or one of: {names}"
        )
    return seats


def entry_line(e: TraceEntry) -> str:
    """One decision: ``round 3  turn      mine.bot:12  row``, and why a default was played."""
    line = f"  round {e.round:>2}  {e.decision:<9} {e.rule or '-':<18} {e.command or '(none)'}"
    if e.note:
        line += f"  <- {e.note}"
    if e.search:
        line += f"  [search: {e.search}]"
    return line


def trace_game(
    game: str,
    bot_files: list[str],
    seed: int,
    seats: int,
    game_no: int,
    who: str,
    options: dict[str, Any] | None = None,
) -> list[str]:
    """The lines ``sim --trace`` prints (see :func:`trace_scripts`). BotError for a script that
    fails ``bot check``; ValueError for ``who`` or ``game_no``. ``options``: the table's."""
    scripts, labels = load_scripts(game, bot_files)
    return trace_scripts(game, scripts, labels, seed, seats, game_no, who, options)


def trace_scripts(
    game: str,
    scripts: list[BotScript],
    labels: list[str],
    seed: int,
    seats: int,
    game_no: int,
    who: str,
    options: dict[str, Any] | None = None,
) -> list[str]:
    """Game ``game_no`` of ``sim``'s (or the arena's) seating of ``scripts`` (named ``labels``)
    from ``seed``: its seats, then each traced seat's result and decisions."""
    if game_no < 1:
        raise ValueError("--game-no counts from 1")
    g = game_no - 1
    order = seat_bots(g, seats, len(scripts))
    chosen = traced_seats(who, labels, [s.name for s in scripts], order)
    result, chars, players = play_seated(
        game, seed + g, scripts, order, TRACE_ENTRIES, options=options
    )
    seated = ", ".join(f"{s + 1} {chars[s]}: {labels[order[s]]}" for s in range(seats))
    lines = [f"game {game_no} (seed {seed + g}), seats {seated}"]
    for s in chosen:
        char = chars[s]
        won = " (won)" if char in result.winners else ""
        lines.append(f"seat {s + 1} ({char}, {labels[order[s]]}): score {result.scores[char]}{won}")
        lines += [entry_line(e) for e in players[s].trace]
    return lines


__all__ = ["BotError", "entry_line", "trace_game", "trace_scripts", "traced_seats"]
