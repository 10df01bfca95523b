"""One help table per game: every command word -> (usage, one-line description, rule ids).

This is the data behind ``explain()`` and the help screen (:mod:`shipwreck.lang.complete`) and
the usage hint of syntax errors; :func:`markdown` renders it as the tables of
``docs/commands.md``. A test checks that the table's words are exactly the grammar's command
words.
"""

from __future__ import annotations

from typing import NamedTuple

from shipwreck.lang import registry


class CommandHelp(NamedTuple):
    usage: str
    """As typed, ``X`` a character, ``ITEM`` an item, ``CARD`` a card number (Spanish Main:
    ``SHIP``, ``ISLAND``, ``TARGET`` a ship or island, ``SEAT``, ``MAST``, ``COIN``, ``LEG``);
    ``|`` between forms, ``[...]`` optional, ``...`` one or more."""
    description: str
    """One line, lowercase, no final full stop."""
    rule: str
    """The rule ids (``LB-22, LB-24``, ``SM-17``) of docs/rules/; empty if none."""
    example: str = ""
    """One line as a player would type it (the lobby's and the tables' words)."""


_TIMER = "The table's timer (system seat only)"

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
        _TIMER,
        {
            "timeout": CommandHelp("timeout X", "X's open decision takes its safe default", ""),
        },
    ),
)

SPANISH_MAIN_SECTIONS: tuple[tuple[str, dict[str, CommandHelp]], ...] = (
    (
        "On your turn (one action per ship, then end the turn; SM-10)",
        {
            "move": CommandHelp(
                "move SHIP LEG... | move SHIP toward TARGET | move SHIP dock ISLAND",
                "sail the legs of the base move, each 'S' or 'L', the turn in degrees (+ to"
                " starboard, at most 90) and an optional distance: 'move dover S 0 S 30';"
                " or every leg toward a ship or island; or until docked at an island",
                "SM-12, SM-13, SM-14",
            ),
            "come": CommandHelp(
                "come about SHIP",
                "a docked ship, or one whose bow is against something, turns in place, bow"
                " where the stern was (her action)",
                "SM-16",
            ),
            "shoot": CommandHelp(
                "shoot SHIP at SHIP [with MAST...] [, at SHIP with MAST...]",
                "fire every cannon in range and clear at an enemy ship, or only the masts named;"
                " split them: 'shoot dover at scout with 1 2, at hulk with 3'",
                "SM-25",
            ),
            "explore": CommandHelp(
                "explore SHIP",
                "see the coins of the wild island she began the turn docked at, then 'load'",
                "SM-30",
            ),
            "repair": CommandHelp(
                "repair SHIP [mast MAST]",
                "docked at home: restore one eliminated mast (the bow-most, or the one named)",
                "SM-32",
            ),
            "end": CommandHelp(
                "end turn", "end your turn (with a ship still idle it asks: type it again)", "SM-10"
            ),
        },
    ),
    (
        "Answers",
        {
            "load": CommandHelp(
                "load SHIP COIN... | load SHIP none",
                "after exploring: the coins to take aboard, up to her free cargo",
                "SM-30",
            ),
            "tow": CommandHelp(
                "tow SHIP SHIP",
                "after a move, or as her move: take the derelict whose bow she touches in tow",
                "SM-17",
            ),
            "ram": CommandHelp(
                "ram SHIP SHIP", "after a move: ram the enemy ship your bow touches", "SM-18"
            ),
            "pass": CommandHelp(
                "pass",
                "no ram or tow after a move; no boarding party; take nothing",
                "SM-17, SM-20",
            ),
            "board": CommandHelp(
                "board kill | board steal",
                "after a ram: start a boarding party and say what the winner takes; or, having"
                " won one, take it",
                "SM-20",
            ),
            "eliminate": CommandHelp(
                "eliminate MAST", "your ship was hit: the mast it loses (1 = bow)", "SM-18, SM-25"
            ),
        },
    ),
    (
        "Free actions (no prompt needed)",
        {
            "break": CommandHelp(
                "break tow SHIP", "in your turn: let the tow go; the derelict stays yours", "SM-17"
            ),
            "drop": CommandHelp(
                "drop off CREW from SHIP",
                "docked, in your turn: put a crew ashore on the island",
                "SM-61",
            ),
            "pick": CommandHelp(
                "pick up CREW with SHIP",
                "docked, in your turn: take aboard your crew waiting there",
                "SM-61",
            ),
            "look": CommandHelp(
                "look SHIP at COIN",
                "a card that says so: once per turn, see one face-down coin (only you see it)",
                "SM-60",
            ),
            "trade": CommandHelp(
                "trade SHIP with SHIP",
                "a card that says so: once per turn, swap one coin at random with an enemy ship"
                " within S",
                "SM-60",
            ),
            "sacrifice": CommandHelp(
                "sacrifice CREW from SHIP",
                "a card that says so: once per turn, lose a crew to give the ship an extra action",
                "SM-60",
            ),
            "arm": CommandHelp(
                "arm SHIP with COIN",
                "a card that says so, docked at home: once per turn, a coin unloaded there"
                " becomes a 3S cannon for the ship (its gold is lost)",
                "SM-60",
            ),
            "cancel": CommandHelp(
                "cancel SHIP with SHIP | cancel CREW with SHIP",
                "a card that says so: once per turn, an enemy ship within S, or a crew aboard"
                " her, has no ability until your turn ends",
                "SM-60",
            ),
            "transfer": CommandHelp(
                "transfer CREW from SHIP to SHIP",
                "in your turn: move a crew between your ships docked at the same island",
                "SM-61",
            ),
        },
    ),
    (
        _TIMER,
        {
            "timeout": CommandHelp(
                "timeout SEAT", "the seat's open decision takes its safe default", ""
            ),
        },
    ),
)

LOBBY_SECTIONS: tuple[tuple[str, dict[str, CommandHelp]], ...] = (
    (
        "In the lobby",
        {
            "new": CommandHelp(
                "new [4-6] [BOT...] | new sm [2-4] [BOT...] | new tutorial [sm]",
                "start a table and sit at it: Lifeboat (6 seats, shipped bots), Spanish Main"
                " ('sm') or a tutorial (Lifeboat's, or Spanish Main's with 'sm'); a BOT 'free'"
                " keeps a seat for a friend; 'new sm 2 fleet corsairs' sails fleets with crew"
                " (navy, armada, corsairs or smugglers, 30 points each; yours first, the other"
                " seats the other crewed fleets); 'new sm 2 fleet build' builds yours first,"
                " ship by ship, to 30 points",
                "",
                "new 4 free loyal",
            ),
            "join": CommandHelp(
                "join ID [SEAT]",
                "take a free seat at table ID (listed above); SEAT: its number or its id",
                "",
                "join 1",
            ),
            "watch": CommandHelp("watch ID", "watch table ID as a spectator", "", "watch 1"),
            "open": CommandHelp("open ID", "go back to your seat at table ID", "", "open 1"),
            "say": CommandHelp("say TEXT", "talk to everyone in the lobby", "", "say hello all"),
            "rules": CommandHelp(
                "rules [GAME]",
                "read how a game is played and won (GAME: lifeboat or sm)",
                "",
                "rules sm",
            ),
            "ladder": CommandHelp(
                "ladder [GAME]",
                "the ratings of a game's players and bots, and your place (GAME: lifeboat or sm)",
                "",
                "ladder sm",
            ),
            "help": CommandHelp("help", "this list", "", "help"),
            "quit": CommandHelp(
                "quit",
                "end this session (on a server, your seats wait for you to sign in again)",
                "",
                "quit",
            ),
        },
    ),
)

SHELL_TITLE = "In your shell (ssh HOST COMMAND), not here"
SHELL_COMMANDS: dict[str, CommandHelp] = {
    "check": CommandHelp(
        "bot check < FILE", "check a bot script and list its problems (docs/bots.md)", ""
    ),
    "save": CommandHelp(
        "bot save NAME < FILE", "save it as your bot NAME; then 'new 4 NAME' seats it here", ""
    ),
    "status": CommandHelp("bot status NAME", "its ratings and its background ladder games", ""),
}
"""What the server answers to ``ssh HOST COMMAND`` (not lobby words), for the lobby's help: a
player finds there how to bring a bot of its own. A lobby line starting with one of
:data:`SHELL_WORDS` says where to type it."""

SHELL_WORDS = frozenset({"bot", "bots"})


TABLE_SECTIONS: tuple[tuple[str, dict[str, CommandHelp]], ...] = (
    (
        "At any table",
        {
            "help": CommandHelp("help", "this list (also F1)", "", "help"),
            "rules": CommandHelp("rules", "how this game is played and won", "", "rules"),
            "legend": CommandHelp(
                "legend", "what the signs on the cards and the board mean", "", "legend"
            ),
            "say": CommandHelp(
                "say TEXT",
                "talk to everyone at this table, players and spectators (also while it waits"
                " to start); 'tell' whispers to one",
                "",
                "say hello",
            ),
            "tell": CommandHelp(
                "tell WHO TEXT | whisper WHO TEXT",
                "whisper to one player (their name, their seat, or its # on Lifeboat's board)"
                " or one spectator",
                "",
                "tell bob let us team up",
            ),
            "chat": CommandHelp("chat TEXT", "the same as 'say'", "", "chat hi"),
            "start": CommandHelp(
                "start | start with bots",
                "your table waits for players: start it now (bots in the free seats)",
                "",
                "start with bots",
            ),
            "takeover": CommandHelp(
                "takeover", "take your seat back from the autopilot", "", "takeover"
            ),
            "lobby": CommandHelp(
                "lobby", "back to the lobby; your seat stays yours ('open N' returns) (Esc)", "", ""
            ),
            "leave": CommandHelp(
                "leave", "give up your seat for good (asks first) and go back to the lobby", "", ""
            ),
            "quit": CommandHelp("quit", "end this session (on a server, your seat waits)", "", ""),
        },
    ),
)

_SYSTEM_SECTIONS = frozenset({_TIMER})

_WORDS: dict[str, tuple[tuple[str, dict[str, CommandHelp]], ...]] = {
    "lobby": LOBBY_SECTIONS,
    "table": TABLE_SECTIONS,
}
"""The lobby's and the table's words; each game's help is in its language's record."""


def sections(game: str) -> tuple[tuple[str, dict[str, CommandHelp]], ...]:
    """The help table of ``game``, by section (KeyError for an unknown game)."""
    if game in _WORDS:
        return _WORDS[game]
    lang = registry.find(game)
    if lang is None or not lang.help:
        raise KeyError(f"no help for game {game!r}")
    found: tuple[tuple[str, dict[str, CommandHelp]], ...] = lang.help
    return found


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


def usage_forms(usage: str) -> list[str]:
    """The forms of a usage line, split at the ``|`` between forms (not those inside
    brackets: ``rules [lifeboat | sm] | help`` is two forms)."""
    forms, depth, start = [], 0, 0
    for i, ch in enumerate(usage):
        depth += {"[": 1, "]": -1}.get(ch, 0)
        if ch == "|" and depth == 0:
            forms.append(usage[start:i].strip())
            start = i + 1
    return [*forms, usage[start:].strip()]


def markdown(game: str) -> str:
    """The tables of docs/commands.md, one per section."""
    lines: list[str] = []
    for title, table in sections(game):
        lines += [f"## {title}", "| command | what it does | rule |", "|---|---|---|"]
        for entry in table.values():
            forms = " / ".join(f"`{u}`" for u in usage_forms(entry.usage))
            lines.append(f"| {forms} | {entry.description} | {entry.rule} |")
        lines.append("")
    return "\n".join(lines)
