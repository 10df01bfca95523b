"""What a typed line does, once read: the lobby's words, a table's words, or a game command.

The lines are read by the action language (:mod:`shipwreck.lang.words`, and the game's own
commands); here each struct is dispatched to what it does on the screen that took it. Some
words open screens that other parts of the app provide (``show_rules``, ``show_legend``,
``start_table``, ``new_tutorial``): a screen without one says so in one line.

An error that names a column (``column 5: unknown word ...``) is shown as the typed line with
a caret under that column and the reason after it (:func:`caret_error`), never as "column 5".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text

from shipwreck.games.registry import Game, default_game
from shipwreck.games.registry import get as get_game
from shipwreck.lang import words as W
from shipwreck.lang.bots.registry import is_shipped
from shipwreck.lang.commands import lower_ascii, parse_command
from shipwreck.lang.errors import CommandSyntaxError, Names, split_words
from shipwreck.lang.help import SHELL_WORDS
from shipwreck.lang.text import whole_number
from shipwreck.names import skeleton
from shipwreck.runtime.seat_link import when_answered
from shipwreck.tui.confirm import Confirm

if TYPE_CHECKING:
    from shipwreck.runtime import Lobby, Submitted
    from shipwreck.runtime.seat_link import SeatLink
    from shipwreck.tui.app import ShipwreckApp
    from shipwreck.tui.base import AnySeatScreen as SeatScreen  # (any game's table screen)
    from shipwreck.tui.lobby.screen import LobbyScreen

_COLUMN = re.compile(r"column (\d+): ")

NOT_HERE = {
    "show_rules": "the rules screen is not in this version yet",
    "show_legend": "the legend is not in this version yet",
    "start_table": "this table starts by itself: there is nothing to start",
    "new_tutorial": "the tutorial is not in this version yet",
    "show_ladder": "the ladder is shown in the lobby",
}
"""What a word answers when its screen has no method for it."""


# --------------------------------------------------------------------------- errors

MAX_ERROR_ROWS = 3
"""The most rows an error line takes (it wraps rather than being cut at the screen's edge)."""

END_OF_LINE = "\n"
"""Offered by :func:`complete_table_words` with the next words when the line is a whole
command already and a word offered would leave it unfinished: Tab then lists the words instead
of typing the only one (``offer painting to kid `` is whole; ``for`` would need an item)."""


def fit_error(
    screen: Any,
    board_id: str,
    spot: str,
    text: Text,
    rows: int,
    most: int = MAX_ERROR_ROWS,
    least: int = 1,
) -> int:
    """The rows the error panel ``spot`` of board ``board_id`` needs for ``text`` (wrapped,
    at least ``least``, at most ``most``); when it is not ``rows``, the board is laid out again
    (rarely: only when an error needs another row, or no longer does)."""
    from shipwreck.tui.board import Board

    board = screen.query_one(f"#{board_id}", Board)
    needed = max(least, min(most, rows_for(screen, text, board.size.width - 2)))
    if needed != rows:
        screen.error_rows = needed
        board.relayout()
    return needed


def cut_visibly(screen: Any, text: Text, width: int, room: int) -> Text:
    """``text`` as it fits ``room`` rows of ``width`` columns: whole, or its first rows with
    `` …`` at the end, so that a cut message (an echoed line too) says it was cut."""
    if not width or rows_for(screen, text, width) <= room:
        return text
    kept = text.wrap(screen.app.console, width - 2)[:room]
    return Text("\n").join(kept).append(" …")


def caret_error(line: str, message: str, style: str = "red") -> Text:
    """``message`` for the typed ``line``. When it starts with ``column N:``, the line is shown
    with its word at N marked, and under it a caret at N, then the reason::

        rob captian knife
            ^ unknown word 'captian'; did you mean 'rob captain knife'?

    A reason too long to follow the caret on one row starts under it on a row of its own."""
    m = _COLUMN.match(message)
    why = message[m.end() :] if m else message
    if m is None or not line:
        return Text(why, style=style)
    at = min(max(int(m.group(1)) - 1, 0), len(line))
    end = next((s + len(w) for s, w in split_words(line) if s <= at < s + len(w)), at)
    shown = Text(line, style="dim")
    shown.stylize(f"bold {style} underline", at, max(end, at + 1))
    return Text.assemble(shown, "\n", (" " * at + "^ " + why, style))


def error_width(screen: Any) -> int:
    """The columns the error line of ``screen`` has (its ``#foot`` board, less its padding);
    0 before it is laid out."""
    from shipwreck.tui.board import Board

    board: Board = screen.query_one("#foot", Board)
    return max(0, board.size.width - 2)


def rows_for(screen: Any, text: Text, width: int) -> int:
    """The rows ``text`` takes, wrapped to ``width``."""
    return len(text.wrap(screen.app.console, width)) if width > 0 and text.plain else 1


def show_syntax_error(screen: Any, line: str, message: str) -> None:
    """Show ``message`` about ``line`` on ``screen`` (its ``error_text``): with the line and a
    caret under the word when that fits in :data:`MAX_ERROR_ROWS`, else the reason alone (it
    names the word), so that the reason is never cut."""
    shown = caret_error(line, message)
    width = error_width(screen)
    if rows_for(screen, shown, width) > MAX_ERROR_ROWS:
        shown = caret_error("", message)
    screen.error_text(shown)


# --------------------------------------------------------------------------- the lobby


def lobby_number_hint(line: str) -> str | None:
    """The lobby's own words for a table or seat count that is not a number (``new ²``,
    ``join x``), or None."""
    words = [w for _, w in split_words(line)]
    if not words:
        return None
    how, args = words[0], words[1:]
    if how == "new":
        game = default_game()
        if args and args[0] in W.game_names():
            game = get_game(W.game_names()[args[0]])
            args = args[1:]
        if args and args[0][:1].isdigit() and whole_number(args[0]) is None:
            return f"{args[0]!r} is not a seat count: {seat_counts(game)}"
        n = whole_number(args[0]) if args else None
        for word in args:
            times = _TIMES.fullmatch(word)
            if times and (times.group(1) == "free" or is_shipped(times.group(1))):
                seats = n if n is not None else game.default_seats
                return f"{word!r}: name each seat's bot (or free) once, e.g. " + new_line(
                    game, seats, [times.group(1)] * (seats - 1)
                )
        return None
    if how in ("join", "watch", "open"):
        number = whole_number(args[0]) if args else None
        if number is None:
            return f"{how} which table? a table's id, e.g. '{how} 1'"
        if how == "join" and len(args) > 1 and whole_number(args[1]) is None:
            return f"{how} {number} SEAT: a seat's number or id, e.g. '{how} {number} 2'"
    return None


SHELL_HINT = (
    "bots are saved from your shell, not here: ssh … bot save NAME < FILE; then 'new 4 NAME'"
)
"""A lobby line starting with ``bot``: where it is typed (what ``help`` lists last)."""


def named_bots(line: str) -> W.New | None:
    """``new [GAME] [SEATS] WORD...`` whose words after the count are not all bot names by
    their form (``../bots/x.bot``): read as words for the lobby to refuse by its own rule (a
    bot is named, never a path: it says what a bot's name is). None if it is not so."""
    words = [w for _, w in split_words(line)]
    if not words or words[0] != "new":
        return None
    args = words[1:]
    game = W.game_names().get(args[0]) if args else None
    args = args[1:] if game else args
    seats = whole_number(args[0]) if args else None
    args = args[1:] if seats is not None else args
    if not args or any(w[:1].isdigit() for w in args) or "fleet" in args:
        return None  # (a fleet's name is the grammar's word: its own error says which)
    return W.New(game or default_game().name, seats, tuple(args))


_TIMES = re.compile(r"([a-z_]+)\s*[×x*]\s*(\d+)")
"""A shipped bot's name (or ``free``) "times" a count, as a stranger may write several seats:
``free×6``, ``loyal*3`` (a saved bot's own name, ``box2``, is left alone)."""


def new_line(game: Game, seats: int, names: list[str]) -> str:
    """The ``new`` line for ``game`` with ``seats`` seats and ``names`` (``new sm 3 free
    free``; the default game's name is not typed)."""
    word = "" if game is default_game() else f"{game.word} "
    return " ".join([f"new {word}{seats}", *names])


def too_many_names(game: Game, seats: int, names: list[str]) -> str | None:
    """Why ``new`` with more bots (or ``free``) named than there are other seats is refused
    (they were dropped without a word), or None."""
    others = seats - 1
    if len(names) <= others:
        return None
    return (
        f"{len(names)} seats named, but a table of {seats} has {others} besides yours: "
        + new_line(game, seats, names[:others])
        + (f", or more seats (up to {game.max_seats})" if seats < game.max_seats else "")
    )


def seat_counts(game: Game) -> str:
    """The ``new`` lines for each seat count ``game`` is played by: ``new sm 2, new sm 3 or new
    sm 4`` (the default game's name is not typed: ``new 4``)."""
    word = "" if game is default_game() else f"{game.word} "
    lines = [f"new {word}{n}" for n in range(game.min_seats, game.max_seats + 1)]
    return ", ".join(lines[:-1]) + " or " + lines[-1] if len(lines) > 1 else lines[0]


def first_word_folded(line: str) -> tuple[str, str]:
    """The first word of ``line`` in lower case, and the line with it so: first words are
    case-insensitive ('REST' is 'rest', 'Ladder XYZ' is 'ladder XYZ'); ("", line) if none."""
    words = split_words(line)
    if not words:
        return "", line
    start, typed = words[0]
    first = lower_ascii(typed)
    return first, line[:start] + first + line[start + len(first) :]


def run_lobby_line(screen: LobbyScreen, line: str) -> None:
    """Read ``line`` as a lobby word and do it."""
    try:
        word = W.parse_words("lobby", line)
    except CommandSyntaxError as e:
        first, folded = first_word_folded(line)  # ('Ladder XYZ': the error is about 'XYZ')
        hint = lobby_number_hint(folded)
        if hint is not None:
            screen.error(hint)
            return
        loose = named_bots(folded)
        if loose is not None:
            screen.create(loose)
            return
        if first in SHELL_WORDS:
            screen.error(SHELL_HINT)
            return
        if first not in W.first_words("lobby"):
            why = W.unknown_first_word(first, W.first_words("lobby"), "lobby command")
            show_syntax_error(screen, line, f"column 1: {why}")
            return
        show_syntax_error(screen, line, str(e))
        return
    app = screen.shipwreck
    match word:
        case W.New():
            screen.create(word)
        case W.Tutorial():
            _call(screen, "new_tutorial", word.game)
        case W.JoinTable() | W.Watch() | W.Open():
            screen.enter(word)
        case W.Say(text):
            problem = app.lobby.say(app.user, text)
            if problem:
                screen.error(problem)
        case W.Help():
            screen.action_help()
        case W.Rules(game):
            _call(screen, "show_rules", game)
        case W.Ladder(game):
            _call(screen, "show_ladder", game)
        case W.Quit():
            quit_asking(app, quit_in_lobby_question(app.lobby, app.user, app.local))


def _call(screen: Any, method: str, *args: Any) -> None:
    """``screen.method(*args)`` if the screen has it; else the one-line "not here"."""
    do: Callable[..., None] | None = getattr(screen, method, None)
    if do is None:
        screen.error(NOT_HERE[method])
        return
    do(*args)


# --------------------------------------------------------------------------- a table


def tell_names(table: SeatLink) -> Names:
    """Whom ``tell`` may name at ``table``: each seat's id, each seated player's name and
    each spectator's."""
    names: dict[str, None] = {}
    for i, s in enumerate(table.seats):
        names[table.seat_name(i)] = None
        if s.kind == "human" and s.player:
            names[s.player] = None
    names.update(dict.fromkeys(sorted(table.watchers)))
    return {"NAME": tuple(names)}


def find_seat(table: SeatLink, who: str) -> int | None:
    """The seat ``who`` names: a seat's id, or the name of the player sitting there."""
    for i in range(len(table.seats)):
        if table.seat_name(i) in (who, lower_ascii(who)):  # 'tell KID' is 'tell kid'
            return i
    for i, s in enumerate(table.seats):
        if s.kind == "human" and s.player and skeleton(s.player) == skeleton(who):
            return i
    return None


def find_watcher(table: SeatLink, who: str) -> str | None:
    """The spectator of ``table`` that ``who`` names (their player name), if any."""
    return next((w for w in table.watchers if skeleton(w) == skeleton(who)), None)


def person(table: SeatLink, player: str | None, seat: int | None) -> str:
    """How chat names someone: ``ann (lauren)``; a bot's seat by its id; a spectator
    ``carol (watching)``."""
    if seat is None:
        return f"{player} (watching)"
    name = table.seat_name(seat)
    return f"{player} ({name})" if player else name


def chat_line_text(
    table: SeatLink,
    sender: str,
    from_seat: int | None,
    to: int | None,
    to_player: str | None,
    text: str,
) -> str:
    """A chat line as shown: ``ann (lauren) → bob (kid): hi``."""
    whisper = to is not None or to_player is not None  # (to a spectator: to_player only)
    to_text = f" → {person(table, to_player, to)}" if whisper else ""
    return f"{person(table, sender, from_seat)}{to_text}: {text}"


def complete_table_words(screen: SeatScreen, text: str, options: list[str]) -> list[str]:
    """``options`` (the game's completions of ``text``) with the table's words: while the first
    word is typed, every word that starts so; after a table word, its own next words."""
    words = split_words(text)
    typing_first = not words or (len(words) == 1 and text[-1] not in " \t")
    table_words = W.first_words("table")
    if typing_first:
        partial = words[0][1] if words else ""
        return sorted({*options, *(w for w in table_words if w.startswith(partial))})
    first = words[0][1]
    game = screen.table.game
    if is_table_first_word(screen, first):
        return W.complete_words("table", text, tell_names(screen.table))
    typed = [w for _, w in words]
    if (
        options
        and text[-1] in " \t"
        and _is_command(game, typed)
        and not all(_is_command(game, [*typed, o]) for o in options)
    ):  # whole now, and a word offered would leave it unfinished (``for``): list, never type
        return [END_OF_LINE, *options]
    return options


def _is_command(game: str, words: list[str]) -> bool:
    """Do ``words`` make a whole command of ``game`` already?"""
    from shipwreck.lang.errors import Walker

    walker = Walker(game)
    return all(walker.feed(w) for w in words) and walker.complete()


def game_words(game: str) -> list[str]:
    """The words a command of ``game`` may start with."""
    return W.first_words(game)


TABLE_CHAT = frozenset({"say"})
"""Words that are always the table's, even where the game has one too (Lifeboat's ``say``):
table chat lands in one place for everyone, players and spectators alike (the chat panel, or
Spanish Main's log and chat), instead of the game's log for players only."""


def is_table_first_word(screen: SeatScreen, first: str) -> bool:
    """Is a line starting with ``first`` one of the table's words here? A word both the table
    and the game have is the table's for a spectator, and for everyone before the game starts
    (there is no game's log to say it in yet); :data:`TABLE_CHAT` is always the table's."""
    if first not in W.first_words("table"):
        return False
    return (
        first in TABLE_CHAT
        or first not in game_words(screen.table.game)
        or screen.seat is None
        or not screen.table.started
    )


def run_table_line(screen: SeatScreen, line: str) -> None:
    """Read ``line`` at a table: the table's words first, then the game's command."""
    t = screen.table
    words = split_words(line)
    if not words:
        return
    first, line = first_word_folded(line)
    commands = game_words(t.game)
    table_words = W.first_words("table")
    if is_table_first_word(screen, first):
        try:
            word = W.parse_words("table", line, tell_names(t))
        except CommandSyntaxError as e:
            show_syntax_error(screen, line, str(e))
            return
        do_table_word(screen, line, word)
    elif (lobby_line := in_the_lobby(t.game, first, line)) is not None:
        screen.error(lobby_line)
    elif first in commands:
        if screen.seat is None:
            screen.error(
                "you are watching this table: only its players play; 'say TEXT' talks to the"
                " table, 'lobby' goes back"
            )
            return
        seat = screen.seat
        when_answered(t.submit_text(seat, line), lambda done: refused(screen, seat, line, done))
    else:
        choices = sorted({*words_that_apply(screen, commands, table_words)} - {"timeout"})
        show_syntax_error(screen, line, "column 1: " + W.unknown_first_word(first, choices))


def in_the_lobby(game: str, first: str, line: str) -> str | None:
    """The one-line error for a lobby line typed at a table (``open 5``, ``new sm 2``, ``join
    3``, ``watch 2``, ``ladder``: play-test, ``unknown command 'open'``), saying to go to the
    lobby first; None if ``first`` is no lobby word, or the game reads the line as its own
    command (Lifeboat's ``join attacker``) and the lobby does not."""
    if first not in W.first_words("lobby") or first in W.first_words("table"):
        return None
    if first in game_words(game):
        try:
            W.parse_words("lobby", line)
        except CommandSyntaxError:
            return None  # (the game's word, as the game will say)
        try:
            parse_command(game, line)
            return None
        except CommandSyntaxError:
            pass
    shown = line if len(line) <= 40 else line[:39] + "…"
    return f"'{first}' is a lobby command: type 'lobby' first, then '{shown}'"


def refused(screen: SeatScreen, seat: int, line: str, done: Submitted) -> None:
    """Show why the table refused ``line`` (at once from a local table, when the owner's
    answer comes from a remote one), on the screen that sent it if it is still open."""
    if not done.ok and screen.is_attached:
        message = on_offer_now(screen.table.view(seat), line, done.message)
        show_syntax_error(screen, line, message)


def words_that_apply(screen: SeatScreen, commands: list[str], table_words: list[str]) -> list[str]:
    """The first words worth listing to whoever typed an unknown one, now: the game's
    commands only to a player; ``start`` only before the table starts, ``takeover`` only when
    there is a seat of mine to take back."""
    t, user = screen.table, screen.shipwreck.user
    mine = t.seat_of_player(user)
    unused = set()
    if t.started or screen.seat is None:
        unused.add("start")
    on_autopilot = screen.seat is not None and t.seats[screen.seat].autopilot
    if not on_autopilot and not (screen.seat is None and mine is not None):
        unused.add("takeover")
    return [
        w for w in (*(commands if screen.seat is not None else ()), *table_words) if w not in unused
    ]


def on_offer_now(view: object, line: str, message: str) -> str:
    """A command cut short or with a wrong word (``take``, ``take fish``): instead of every
    word the grammar knows there (all fourteen items), the choices of that command now, if
    any ("take bait, take water")."""
    if "; expected" not in message:
        return message
    from shipwreck.lang.commands import format_command

    first = [w for _, w in split_words(line)][:1]
    choices = map(format_command, getattr(view, "choices", ()))
    now = [c for c in choices if first and c.split(" ", 1)[0] == first[0].lower()]
    if not now:
        return message
    head, _, rest = message.partition("; expected")
    usage = rest[rest.find("; usage") :] if "; usage" in rest else ""
    shown = now if len(now) <= 6 else [*now[:6], "…"]
    return f"{head}; now: {', '.join(shown)}{usage}"


def do_table_word(screen: SeatScreen, line: str, word: W.TableWord) -> None:
    """Do one of the table's words."""
    t, app = screen.table, screen.shipwreck
    match word:
        case W.Help():
            screen.action_help()
        case W.Rules(game):
            _call(screen, "show_rules", game)
        case W.Legend():
            _call(screen, "show_legend")
        case W.ToLobby():
            screen.action_lobby()
        case W.Leave():
            ask_leave(screen)
        case W.Quit():
            ask_quit(screen)
        case W.Say(text) | W.Chat(text):
            when_answered(t.say(app.user, text, screen.seat, None), screen.show_problem)
        case W.Tell(who, text):
            tell(screen, who, text)
        case W.Start(with_bots):
            _call(screen, "start_table", with_bots)
        case W.Takeover():
            if screen.seat is None and t.seat_of_player(app.user) is not None:
                app.open_table(t, paced=False)  # from another session of mine: here now
            elif screen.seat is None:
                screen.error("you are watching: there is no seat of yours to take back")
            elif t.take_back(app.user):
                screen.error("you have your seat back", style="green")
            else:
                screen.error("your seat is yours already: nobody plays it for you")


def ask_leave(screen: SeatScreen) -> None:
    """``leave``: give up the seat, once the player says so (like Ctrl+C and Esc, which keep
    it); the lobby then says the seat was given up and how to sit again. A spectator just
    goes (there is no seat to lose)."""
    t, app = screen.table, screen.shipwreck
    if screen.seat is None:
        t.leave(app.user)
        screen.action_lobby()
        return

    def answer(yes: bool | None) -> None:
        if not yes or not screen.is_current:
            return
        t.leave(app.user)
        app.show_lobby(f"you left table {t.id}; 'join {t.id}' sits again if the seat is free")

    app.push_screen(Confirm(f"give up your seat at table {t.id}?"), answer)


QUIT_SEATED = "quit Shipwreck? your seat is kept, and the table's clock runs on ·"
"""Typed ``quit`` at a table where the player sits in a game not over."""


QUIT_LOCAL = (
    "quit Shipwreck? your game ends with it: a game played here, not on a server, is not saved ·"
)
"""Quitting ``shipwreck play`` (no server, no database) where the player sits in a game not over:
nothing keeps the seat (a stranger was told it was kept)."""


def ask_quit(screen: SeatScreen) -> None:
    """``quit`` typed at a table asks first where the player sits in a game not over, as
    Ctrl+C and Esc do (a play-tester lost their turn's time to a ``quit`` meant for the table);
    a spectator, or a player whose game is over, quits at once."""
    seated = screen.seat is not None and not screen.table.over
    question = QUIT_LOCAL if screen.shipwreck.local else QUIT_SEATED
    quit_asking(screen.shipwreck, question if seated else None)


def quit_in_lobby_question(lobby: Lobby, user: str, local: bool = False) -> str | None:
    """What ``quit`` typed in the lobby asks when ``user`` sits at a game not over (a stranger
    must not walk away from a game by one word), or None: nothing is lost, quit at once."""
    tables = [str(t.id) for t in lobby.seats_of(user)]
    if not tables:
        return None
    which = f"table {tables[0]}" if len(tables) == 1 else "tables " + ", ".join(tables)
    if local:
        return QUIT_LOCAL
    return f"quit Shipwreck? your seat at {which} is kept, and its clock runs on ·"


def quit_asking(app: ShipwreckApp, question: str | None) -> None:
    """Quit, once the player says yes to ``question`` (None: at once)."""
    if question is None:
        app.exit()
        return

    def answer(yes: bool | None) -> None:
        if yes:
            app.exit()

    app.push_screen(Confirm(question), answer)


def tell(screen: SeatScreen, who: str, text: str) -> None:
    """Whisper ``text`` to the seat ``who`` names: a player's name, a seat's id or the number
    the board shows for it (Lifeboat's ``#``)."""
    t, app = screen.table, screen.shipwreck
    to = find_seat(t, who)
    numbered = screen.numbered_seats()
    if to is None and numbered and who.isdigit():  # (the board's #: ``tell 2 hi``)
        to = numbered.get(int(who))
        if to is None:
            last = max(numbered)
            screen.error(f"there is no seat {who[:8]} on the board: seats 1 to {last} (its #)")
            return
    watcher = find_watcher(t, who) if to is None else None
    if to is None and watcher is None:
        others = _people_here(t, app.user)
        how = "a player, a seat or its number" if numbered else "a player or a seat"
        screen.error(f"{who[:32]!r} is not at this table: tell {how}{others}")
        return
    if to is not None and to == screen.seat:
        screen.error("that is your own seat: tell someone else")
        return
    if to is not None and not t.seats[to].player and t.seats[to].kind != "bot":
        others = _people_here(t, app.user)
        name = t.seat_name(to)
        screen.error(f"nobody sits at {name} (a free seat): nobody would read it{others}")
        return
    if watcher == app.user:
        screen.error("that is you: tell someone else")
        return
    when_answered(t.say(app.user, text, screen.seat, to, to_watcher=watcher), screen.show_problem)


def _people_here(t: SeatLink, me: str) -> str:
    """``; at this table: ann (lauren), carol (watching)``: whom ``me`` may tell (or "")."""
    players = [
        person(t, s.player, i) for i, s in enumerate(t.seats) if s.kind == "human" and s.player
    ]
    players += [person(t, w, None) for w in sorted(t.watchers) if w != me]
    return "; at this table: " + ", ".join(players) if players else ""
