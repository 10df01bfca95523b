"""Bot seats at a table: a script decides from its view; the engine applies it like any command.

This is the one place a bot's decision meets the engine, for ``shipwreck sim`` now and for live
tables later. A missing or refused command becomes the decision's safe default, and the bot's
trace says why.
"""

from __future__ import annotations

from typing import Any

from shipwreck.engine.core import Event, IllegalCommand, Seat
from shipwreck.lang import format_command
from shipwreck.lang.bots import BotPlayer


def bot_move(
    rules: Any, state: Any, seat: Seat, kind: str, bot: BotPlayer
) -> tuple[Any | None, list[Event]]:
    """Let ``bot`` answer ``seat``'s ``kind`` prompt; fall back to the safe default.

    Returns the command that was applied (``None`` if none was) and its events.
    """
    decision = bot.decide(rules.view(state, seat), kind)
    cmd = decision.command
    if cmd is not None and kind != "offer" and type(cmd) in rules.free_types:
        # a free action (say, drop, offer…) would leave the decision open: not an answer
        fallback = rules.default(state, seat)
        bot.refused(decision, f"'{format_command(cmd)}' does not answer '{kind}'", fallback)
    elif cmd is not None:
        try:
            events: list[Event] = rules.apply(state, seat, cmd)
            return cmd, events
        except IllegalCommand as e:
            fallback = rules.default(state, seat)
            bot.refused(decision, str(e), fallback)
    else:
        fallback = rules.default(state, seat)
        bot.defaulted(decision, fallback)
    if fallback is None:  # a non-blocking prompt (an offer): leaving it is safe
        return None, []
    return fallback, rules.apply(state, seat, fallback)
