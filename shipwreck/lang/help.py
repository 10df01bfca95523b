"""One help table per game: every command word -> (usage, one-line description, rule ids).

This is the data behind ``explain()`` and the help screen (:mod:`shipwreck.lang.complete`) and
the usage hint of syntax errors; :func:`markdown` renders it as the tables of
``docs/commands.md``. A test checks that the table's words are exactly the grammar's command
words.
"""

from __future__ import annotations

from typing import NamedTuple


class CommandHelp(NamedTuple):
    usage: str
    """As typed, ``X`` a character, ``ITEM`` an item, ``CARD`` a card number; ``|`` between
    forms, ``[...]`` optional."""
    description: str
    """One line, lowercase, no final full stop."""
    rule: str
    """The rule ids (``LB-22, LB-24``) of docs/rules/lifeboat.md; empty if none."""


LIFEBOAT_SECTIONS: tuple[tuple[str, dict[str, CommandHelp]], ...] = (
    (
        "On your turn (one of these; LB-12)",
        {
            "row": CommandHelp(
                "row", "draw 2 navigation cards (3 with an oar), then 'keep' some", "LB-20"
            ),
            "swap": CommandHelp(
                "swap X",
                "ask X for its seat; X agrees or resists (the unconscious and dead cannot refuse)",
                "LB-21",
            ),
            "rob": CommandHelp(
                "rob X ITEM | rob X hidden",
                "ask X for one of its revealed items, or a random hidden one (the Kid just takes"
                " it)",
                "LB-22, LB-24",
            ),
            "use": CommandHelp(
                "use umbrella [on X] | use medkit [on X]",
                "open the umbrella over yourself or pass it, open, to X; heal one wound of"
                " yourself or X",
                "LB-23, LB-31",
            ),
            "fire": CommandHelp(
                "fire flare", "draw three navigation cards; only their birds count", "LB-33"
            ),
            "rest": CommandHelp("rest", "do nothing this turn", "LB-12"),
        },
    ),
    (
        "Answers",
        {
            "keep": CommandHelp(
                "keep CARD... | keep none",
                "after rowing: which drawn cards go on the navigation table",
                "LB-20",
            ),
            "agree": CommandHelp(
                "agree", "someone wants your seat or an item: let them have it", "LB-21, LB-22"
            ),
            "resist": CommandHelp(
                "resist", "someone wants your seat or an item: refuse, and fight", "LB-21, LB-22"
            ),
            "join": CommandHelp(
                "join attacker | join defender",
                "a fight is open and you are not in it: take a side",
                "LB-25",
            ),
            "reveal": CommandHelp("reveal ITEM", "you are fighting: show a hidden weapon", "LB-25"),
            "done": CommandHelp("done", "you have finished with this fight (final)", "LB-25"),
            "take": CommandHelp(
                "take ITEM", "your pick from the supply cards passed to you", "LB-11"
            ),
            "choose": CommandHelp(
                "choose CARD", "you navigate: pick a card on the navigation table", "LB-40"
            ),
            "throw": CommandHelp(
                "throw preserver to X", "someone is overboard: throw them your preserver", "LB-42"
            ),
            "play": CommandHelp("play bait", "someone is overboard: feed the sharks", "LB-44"),
            "pass": CommandHelp(
                "pass", "nothing more to throw or play for those overboard", "LB-42"
            ),
            "drink": CommandHelp("drink", "you are thirsty: pay one water", "LB-50"),
            "wound": CommandHelp("wound", "you are thirsty: take a wound instead", "LB-50"),
        },
    ),
    (
        "Free actions (no prompt needed)",
        {
            "offer": CommandHelp(
                "offer ITEM to X [for ITEM]",
                "offer X an item, for nothing or for one of theirs (not in a fight or the supply)",
                "LB-13",
            ),
            "accept": CommandHelp(
                "accept [X]", "take the offer waiting for you (X's, if several wait)", "LB-13"
            ),
            "decline": CommandHelp(
                "decline [X]", "refuse the offer waiting for you (X's, if several wait)", "LB-13"
            ),
            "give": CommandHelp(
                "give preserver to X | give water to X",
                "put your preserver on X; in the thirst step, water an unconscious thirsty X",
                "LB-32, LB-50",
            ),
            "drop": CommandHelp(
                "drop ITEM", "throw one of your items overboard (not during a robbery)", "LB-13"
            ),
            "say": CommandHelp("say TEXT", "talk to the table", ""),
        },
    ),
    (
        "The table's timer (system seat only)",
        {
            "timeout": CommandHelp("timeout X", "X's open decision takes its safe default", ""),
        },
    ),
)

_SYSTEM_SECTIONS = frozenset({"The table's timer (system seat only)"})

_TABLES: dict[str, tuple[tuple[str, dict[str, CommandHelp]], ...]] = {
    "lifeboat": LIFEBOAT_SECTIONS,
}


def sections(game: str) -> tuple[tuple[str, dict[str, CommandHelp]], ...]:
    """The help table of ``game``, by section (KeyError for an unknown game)."""
    try:
        return _TABLES[game]
    except KeyError:
        raise KeyError(f"no help for game {game!r}") from None


def help_table(game: str) -> dict[str, CommandHelp]:
    """Command word -> its help, every section."""
    return {word: entry for _, table in sections(game) for word, entry in table.items()}


def player_commands(game: str) -> dict[str, CommandHelp]:
    """Command word -> its help, without the system seat's commands."""
    return {
        word: entry
        for title, table in sections(game)
        if title not in _SYSTEM_SECTIONS
        for word, entry in table.items()
    }


def markdown(game: str) -> str:
    """The tables of docs/commands.md, one per section."""
    lines: list[str] = []
    for title, table in sections(game):
        lines += [f"## {title}", "| command | what it does | rule |", "|---|---|---|"]
        for entry in table.values():
            forms = " / ".join(f"`{u.strip()}`" for u in entry.usage.split("|"))
            lines.append(f"| {forms} | {entry.description} | {entry.rule} |")
        lines.append("")
    return "\n".join(lines)
