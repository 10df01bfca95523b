"""The action language: one text form for every command, typed by people and emitted by bots.

``parse(game, text)`` turns a line into the game's command struct; ``format(cmd)`` gives the
canonical text back, and ``parse(game, format(cmd)) == cmd``.
"""

from shipwreck.lang.commands import CommandSyntaxError, format_command, parse_command

__all__ = ["CommandSyntaxError", "format_command", "parse_command"]
