"""The app's screens: lobby, Lifeboat table, end of game, help, and "please enlarge"."""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, ClassVar, cast

from rich import box
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.markdown import Markdown
from rich.segment import Segment
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Key, Resize
from textual.geometry import Region, Size
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from shipwreck.games.lifeboat import GAME as LIFEBOAT
from shipwreck.games.lifeboat import LifeboatView
from shipwreck.games.registry import default_game
from shipwreck.games.registry import get as get_game
from shipwreck.lang import words as W
from shipwreck.lang.complete import command_list, complete
from shipwreck.lang.help import SHELL_COMMANDS, SHELL_TITLE, player_commands
from shipwreck.lang.help import CommandHelp as CommandEntry
from shipwreck.lang.rules_text import LEGEND
from shipwreck.runtime import Lobby, SeatSpec, TableCreateError
from shipwreck.runtime.lobby import LobbyChat, Row
from shipwreck.runtime.seat_link import SeatLink
from shipwreck.tui import registry
from shipwreck.tui.base import TABLE_TITLE, AppScreen, CommandHelp, EndOfGame, SeatScreen
from shipwreck.tui.board import Board, Spot, split
from shipwreck.tui.ladder_screen import rating_tag, show_ladder
from shipwreck.tui.learn import (
    LEGEND_KEY,
    RULES_KEY,
    RULES_USAGE,
    CardsScreen,
    LegendScreen,
    RulesScreen,
    rules_game,
)
from shipwreck.tui.lifeboat import render as R
from shipwreck.tui.pacer import RepaintPacer
from shipwreck.tui.remote import enter_remote, remote_ids
from shipwreck.tui.title import part, table_title
from shipwreck.tui.typed import (
    MAX_ERROR_ROWS,
    cut_visibly,
    error_width,
    fit_error,
    run_lobby_line,
    seat_counts,
    too_many_names,
)
from shipwreck.tui.widgets import CommandLine, EventLog, KeyLine, new_since

DEFAULT_BOTS = list(default_game().default_bots)
CHAT_KEYS = "Ctrl+↑/Ctrl+↓"
"""The keys that page a Lifeboat table's chat pane (PgUp/PgDn page its log), as its hint
names them ("Ctrl+↑: earlier" once the chat has more lines than rows)."""
LOBBY_HELP = Text(
    "new [4-6] [BOT|free …]     Lifeboat         new tutorial [sm] learn to play\n"
    "new sm [2-4] [BOT|free …]  Spanish Main     rules [sm]        how to win\n"
    "join ID [SEAT]             take a seat      watch ID          spectate\n"
    "open ID                    your seat again  say TEXT          lobby chat\n"
    "ladder [sm]                ratings          help              every command\n"
    "bot save NAME < FILE       your bot (ssh)   quit              end this session"
)
"""The lobby's commands, at the foot of its screen: 78 columns at most (80 columns less the
board's padding), so that no row wraps at 80×24; ``help`` has them all, and the table's. The
last row is typed in a shell (``ssh … bot save NAME < FILE``), named here so that a stranger
finds that bots can be written (fifth play-test); typed here, it says so."""


class SharedRender:
    """A renderable drawn once for all the sessions that show it at the same width: what
    ``make()`` renders, kept under ``key`` (which must name everything it draws).

    Every session in the lobby shows the same tables; drawn by each session for itself, a
    Rich table of thirty rows took 20 ms a session, and one change there took seconds of the
    server's time with two hundred sessions in the lobby (Textual 8.2.8, measured with
    ``bench/ssh_load.py --sessions 200``)."""

    KEEP = 16
    _drawn: ClassVar[OrderedDict[Hashable, list[Segment]]] = OrderedDict()

    def __init__(self, key: Hashable, make: Callable[[], RenderableType]) -> None:
        self.key = key
        self.make = make

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        o = options
        key = (self.key, o.max_width, o.height, o.ascii_only, o.legacy_windows, o.encoding)
        segments = self._drawn.get(key)
        if segments is None:
            segments = list(console.render(self.make(), options))
            self._drawn[key] = segments
            while len(self._drawn) > self.KEEP:
                self._drawn.popitem(last=False)
        else:
            self._drawn.move_to_end(key)
        yield from segments


def tables_panel(rows: list[Row], height: int) -> RenderableType:
    """The lobby's tables in ``height`` rows: open ones first, then running, then over; what
    does not fit is counted on the last row."""
    order = {"waiting": 0, "open": 1, "running": 2, "paused": 3, "over": 4, "empty": 5}
    rows = sorted(rows, key=lambda r: (order.get(r[4], 3), -int(r[0])))
    fit = max(0, height - 2)  # the header and its rule
    shown = rows if len(rows) <= fit else rows[: max(0, fit - 1)]
    t = RichTable(box=box.SIMPLE_HEAD, expand=True, show_edge=False, pad_edge=True)
    for name in ("id", "game", "seats", "round", "status"):
        t.add_column(name, no_wrap=True)
    t.add_column("players", no_wrap=True, overflow="ellipsis", ratio=1)
    for row in shown:
        style = {"open": "green", "waiting": "green", "paused": "yellow", "over": "dim"}
        style["empty"] = "dim"
        t.add_row(*row, style=style.get(row[4], ""))
    if len(shown) < len(rows):
        t.add_row("", f"… {len(rows) - len(shown)} more", style="dim")
    if not rows:
        t.add_row("", "no tables yet: 'new' starts one", style="dim")
    return t


def _rows(content: RenderableType, width: int, screen: Screen[Any]) -> int:
    """How many rows ``content`` takes at ``width`` columns (wrapped as a board draws it)."""
    console = screen.app.console
    return len(console.render_lines(content, console.options.update_width(max(1, width))))


_PACERS: weakref.WeakKeyDictionary[Lobby, RepaintPacer[LobbyScreen]] = weakref.WeakKeyDictionary()


def lobby_pacer(lobby: Lobby) -> RepaintPacer[LobbyScreen]:
    """The pacer of ``lobby``'s screens' repaints (see :mod:`shipwreck.tui.pacer`)."""
    pacer = _PACERS.get(lobby)
    if pacer is None:
        pacer = _PACERS[lobby] = RepaintPacer(LobbyScreen.post_repaint)
    return pacer


class LobbyScreen(AppScreen):
    """Open and running tables, table creation, lobby chat.

    Every session in the lobby shows the same list, so one change there repaints them all:
    their repaints are paced (a few per turn of the event loop, each screen at most twice a
    second, see :mod:`shipwreck.tui.pacer`), and the list is drawn once for all of them
    (:class:`SharedRender`). What a player types is drawn at once."""

    _chat_last: LobbyChat | None = None
    _rows: list[Row] | None = None
    _awaiting_layout = False
    PANELS = {"who": "board", "tables": "board", "help": "board", "error": "foot"}
    BINDINGS = [Binding(RULES_KEY, "rules", "rules"), Binding(LEGEND_KEY, "legend", "legend")]

    def __init__(self, notice: str = "") -> None:
        super().__init__()
        self.notice = notice
        """Shown on the message line once the screen is up (why the player is back here)."""

    def compose(self) -> ComposeResult:
        yield Board(self.board_layout, id="board")
        yield EventLog(id="lobby-chat", max_lines=200)
        yield Board(
            lambda size: [Spot("error", Region(0, 0, size.width, self.error_rows), pad=1)],
            id="foot",
        )
        yield CommandLine(
            completer=self.complete,
            run=self.run_typed,
            placeholder="lobby command (first time? try: new tutorial)",
            id="command",
            max_length=self._max_line(),
        )
        yield KeyLine()

    def board_layout(self, size: Size) -> list[Spot]:
        """Who I am, the tables, and the lobby's commands, as many rows as they wrap to at
        this width (at 80 columns, twice as many: every command stays on screen); the tables
        take what is left."""
        width, height = size
        board = self.query_one("#board", Board) if self.is_mounted else None
        shown = board.content("help") if board is not None else None
        help_rows = min(max(1, height - 4), _rows(shown or LOBBY_HELP, width - 2, self))
        tables = max(0, height - 1 - help_rows)
        return [
            Spot("who", Region(0, 0, width, 1), pad=1, style="bar"),
            Spot("tables", Region(0, 1, width, tables)),
            Spot("help", Region(0, 1 + tables, width, help_rows), pad=1, style="muted"),
        ]

    _unsub: Callable[[], None] = staticmethod(lambda: None)
    _unsub_turns: Callable[[], None] = staticmethod(lambda: None)
    """(Nothing to stop until ``on_mount`` subscribes: a session whose input ends while the
    lobby is composed unmounts a screen that never subscribed.)"""

    def on_mount(self) -> None:
        if not self.query("#board"):  # the session ended while the screen was being composed
            return
        board = self.query_one("#board", Board)
        board.update("who", self.shipwreck.signed_in_line())
        board.update("help", LOBBY_HELP)
        self.set_class(self.app.size.height < SeatScreen.COMPACT_BELOW, "-compact")
        assert self.pacer is not None  # (found in this session's context)
        lobby = self.shipwreck.lobby
        self._unsub = lobby.subscribe(self.notify_change)
        self._unsub_turns = lobby.subscribe_turns(self.shipwreck.user, self.notify_change)
        self.refresh_all()
        if self.notice:
            self.error_text(Text(self.notice, style="yellow"))
        self.query_one("#command", CommandLine).focus()

    _pacer: RepaintPacer[LobbyScreen] | None = None

    @property
    def pacer(self) -> RepaintPacer[LobbyScreen]:
        """(Kept: the lobby tells a screen of a change from any session's context, where
        ``self.app`` is that session's app.)"""
        if self._pacer is None:
            self._pacer = lobby_pacer(self.shipwreck.lobby)
        return self._pacer

    def notify_change(self, _source: object) -> None:
        """The lobby changed: repaint when the pacer says."""
        self.pacer.want(self)

    def post_repaint(self) -> bool:
        """Queue one repaint (the pacer's turn for this screen has come); whether it did."""
        super().notify_change(None)
        return self._repaint_due

    def _repaint(self) -> None:
        super()._repaint()
        self.pacer.done(self)

    def on_unmount(self) -> None:
        self._unsub()
        self._unsub_turns()
        self.pacer.forget(self)

    def on_screen_suspend(self) -> None:
        """Covered by a table or help: stop following the lobby (it would repaint every change)."""
        self._unsub()
        self._unsub_turns()
        self.pacer.forget(self)

    def on_screen_resume(self) -> None:
        self._unsub()
        self._unsub_turns()
        lobby, user = self.shipwreck.lobby, self.shipwreck.user
        self._unsub = lobby.subscribe(self.notify_change)
        self._unsub_turns = lobby.subscribe_turns(user, self.notify_change)
        self.refresh_all()

    def on_resize(self, event: Resize) -> None:
        self.set_class(event.size.height < SeatScreen.COMPACT_BELOW, "-compact")  # (CSS)
        self._rows = None  # as many tables as fit the new size, once the board has it
        self.call_after_refresh(self.refresh_all)

    def _my_turns(self) -> frozenset[str]:
        """The ids of the tables where the game waits for me (each table's row then says so,
        on my screen only)."""
        return frozenset(map(str, self.shipwreck.lobby.turn_ids(self.shipwreck.user)))

    def refresh_all(self) -> None:
        lobby = self.shipwreck.lobby
        rows = lobby.listing_for(self.shipwreck.user)
        mine = self._my_turns()
        if mine:
            rows = [(*r[:5], f"your turn · {r[5]}") if r[0] in mine else r for r in rows]
        if rows != self._rows:  # (a chat line, say)
            board = self.query_one("#board", Board)
            spot = board.spot("tables")
            height = spot.height if spot else 0
            key = ("tables", tuple(rows), height)
            board.update("tables", SharedRender(key, lambda: tables_panel(rows, height)))
            if spot is not None:
                self._rows = rows
            elif not self._awaiting_layout:  # not laid out: again once the board has its room
                self._awaiting_layout = True
                self.call_after_refresh(self._after_layout)
        log = self.query_one("#lobby-chat", EventLog)
        lines = new_since(lobby.chat, self._chat_last)
        for line in lines[-50:]:
            log.write(Text(f"{line.sender}: {line.text}"))
        if lines:
            self._chat_last = lines[-1]

    def _after_layout(self) -> None:
        self._awaiting_layout = False
        self.refresh_all()

    def error(self, text: str) -> None:
        self.error_text(Text(text, style="red"))

    error_rows = 1
    """Rows of the error line now (see ``SeatScreen.error_rows``)."""

    def error_text(self, text: Text) -> None:
        text = cut_visibly(self, text, error_width(self), MAX_ERROR_ROWS)
        fit_error(self, "foot", "error", text, self.error_rows)
        self.query_one("#foot", Board).update("error", text)

    def run_line(self, line: str) -> None:
        self.error("")
        app = self.shipwreck
        if not app.allow_command():
            self.error(f"slow down: at most {app.commands_per_second} commands a second")
            return
        if line:
            try:
                run_lobby_line(self, line)
            except TableCreateError as e:
                self.error(str(e))
        if self.is_current and self.pacer.forget(self):  # what I did, shown now (not paced)
            self.refresh_all()

    def action_help(self) -> None:
        self.shipwreck.push_screen(LobbyHelpScreen())

    def complete(self, text: str) -> list[str]:
        """The lobby's next words (Tab); several are listed on the error line."""
        options = lobby_completions(self.shipwreck.lobby, self.shipwreck.user, text)
        if len(options) > 1:
            self.error_text(Text("  ".join(options[:30]), style="cyan"))
        return options

    def show_rules(self, game: str | None = None) -> None:
        """``rules`` (or F2): Lifeboat's rules (``g`` there shows Spanish Main's);
        ``rules lifeboat``, ``rules sm``."""
        chosen = rules_game(game, default_game().name)
        if chosen is None:
            self.error(RULES_USAGE)
            return
        self.shipwreck.push_screen(RulesScreen(chosen))

    def action_rules(self) -> None:
        self.show_rules()

    def show_ladder(self, game: str | None = None) -> None:
        """``ladder [GAME]``: a game's ratings (:mod:`shipwreck.tui.ladder_screen`)."""
        show_ladder(self, game)

    def show_legend(self) -> None:
        """``legend`` (or F3): what the marks on a Lifeboat board mean."""
        self.shipwreck.push_screen(LegendScreen(default_game().name))

    def action_legend(self) -> None:
        self.show_legend()

    def create(self, word: W.New) -> None:
        """``new [4-6] [BOT|free …]`` (Lifeboat) or ``new sm …``: the lobby checks each bot's
        name (a shipped bot or one of the player's saved bots, never a path)."""
        seats = registry.get(word.game).lobby_seats(word)
        if isinstance(seats, str):
            self.error(seats)
            return
        table = self.shipwreck.lobby.create_table(
            word.game, seats, creator=self.shipwreck.user, gather=True
        )
        self.shipwreck.open_table(table)

    def new_tutorial(self, game: str) -> None:
        """``new tutorial [sm]``: a short scripted game with a coach (runtime/tutorial.py)."""
        app = self.shipwreck
        app.open_table(app.lobby.create_tutorial(game, app.user))

    def enter(self, word: W.JoinTable | W.Watch | W.Open) -> None:
        """``join ID [SEAT]``, ``watch ID``, ``open ID``."""
        app = self.shipwreck
        how = {W.JoinTable: "join", W.Watch: "watch", W.Open: "open"}[type(word)]
        number = word.table
        table = app.lobby.get(number)
        if table is None and app.lobby.elsewhere(number) and app.lobby.remote_tables:
            enter_remote(self, app.lobby.remote_tables, word, seat_to_join, free_seats_hint)
            return
        if table is None and app.lobby.elsewhere(number):
            self.error(
                f"table {number} runs in another process of this server, which your connection"
                " did not reach; sign in again to land on another (several run here)"
            )
            return
        if table is None:
            self.error(f"there is no table {number}; the list above shows the tables")
            return
        if refusal := app.lobby.entry_refusal(table, app.user):
            self.error(refusal)
            return
        if isinstance(word, W.Open) and table.seat_of_player(app.user) is None:
            free = f", 'join {number}' to sit" if table.free_seats() and not table.over else ""
            self.error(f"you have no seat at table {number}: 'watch {number}' to watch it{free}")
            return
        if isinstance(word, W.JoinTable) and table.seat_of_player(app.user) is None:
            seat = seat_to_join(table, word.seat)
            problem = table.sit(seat, app.user) if isinstance(seat, int) else seat
            if problem:
                self.error(problem + free_seats_hint(table) if isinstance(seat, int) else problem)
                return
        app.open_table(table, spectate=how == "watch")


def lobby_games() -> frozenset[str]:
    """The words of ``new``'s game position (``tutorial`` too: ``new tutorial``)."""
    return frozenset({*W.game_names(), "tutorial"})


def lobby_completions(lobby: Lobby, user: str, text: str) -> list[str]:
    """Tab in the lobby: the grammar's next words, and where the grammar takes a table's
    number, the tables' ids that fit (``join``: tables with a free seat or mine; ``watch``:
    every table not over; ``open``: mine). Right after ``new``, the game names only, unless
    what is typed starts none (``new pred`` still completes a bot)."""
    words = text.split()
    partial = "" if not words or text[-1:].isspace() else words.pop()
    if len(words) == 1 and words[0] in ("join", "watch", "open"):
        tables = [t for t in lobby.tables.values() if not t.over]
        if words[0] == "join":
            tables = [t for t in tables if t.free_seats() or t.seat_of_player(user) is not None]
        elif words[0] == "open":
            tables = [t for t in tables if t.seat_of_player(user) is not None]
        ids = [t.id for t in tables] + remote_ids(lobby, user, words[0])  # (other workers')
        return sorted((str(i) for i in ids if str(i).startswith(partial)), key=int)
    options = W.complete_words("lobby", text)
    if words == ["new"]:
        games = [o for o in options if o in lobby_games()]
        return games or options
    return options


def seat_to_join(table: SeatLink, seat: int | str | None) -> int | str:
    """The seat ``join N [SEAT]`` asks for (a number from 1, a seat's id, or the first free
    one), or why there is none."""
    if isinstance(seat, int):
        return seat - 1
    free = table.free_seats()
    if seat is None:
        if free:
            return free[0]
        return f"table {table.id} has no free seat; 'watch {table.id}' instead"
    for i in range(len(table.seats)):
        if table.seat_name(i) == seat:
            return i
    return f"table {table.id} has no seat {seat[:32]!r}" + free_seats_hint(table)


def free_seats_hint(table: SeatLink) -> str:
    """The end of a refused ``join``: the free seats by id, as ``join`` takes them."""
    free = [table.seat_name(i) for i in table.free_seats()]
    if not free:
        return f"; no seat is free: 'watch {table.id}' instead"
    return f"; free: {', '.join(free)} (e.g. 'join {table.id} {free[0]}')"


class TableScreen(SeatScreen[LifeboatView]):
    """One Lifeboat table, as one seat (or a spectator) sees it.

    The full layout needs 33 rows; below ``COMPACT_BELOW`` (34) the screen is compact: no
    seats line, the boat without its title, three rows of cards as one-line chips, a
    borderless command line; so an 80×24 terminal shows every panel and a log."""

    BINDINGS = [
        Binding("f1", "help", "help"),
        Binding(LEGEND_KEY, "legend", "legend"),
        Binding(R.CARDS_KEY, "cards", "cards"),
        Binding("escape", "confirm_lobby", "lobby"),
        Binding("ctrl+up", "chat_page(-1)", "earlier chat", show=False),
        Binding("ctrl+down", "chat_page(1)", "later chat", show=False),
    ]

    PANELS = dict.fromkeys(("title", "seats", "boat", "me", "nav", "fight"), "board")
    PANELS.update(prompt="foot", error="foot")

    def compose(self) -> ComposeResult:
        yield Board(self.board_layout, id="board")
        yield EventLog(id="log", max_lines=500, page_keys="PgUp/PgDn")
        yield EventLog(id="chat", max_lines=200, page_keys=CHAT_KEYS)
        yield Board(self.foot_layout, id="foot")
        yield CommandLine(
            completer=self.complete,
            run=self.run_typed,
            placeholder=self.placeholder(),
            id="command",
            max_length=self._max_line(),
        )
        yield KeyLine()

    def board_layout(self, size: Size) -> list[Spot]:
        """The title, who sits where, the boat and my panel, the cards and the fight; compact:
        no seats line, and shorter boat and cards (see the class's docstring)."""
        width = size.width
        (lx, lw), (rx, rw) = split(width, 2, 1)
        spots = [
            Spot("title", Region(0, 0, width, 1), pad=1, style="bar"),  # the clock comes first
            Spot("seats", Region(0, 1, width, 1 if self.compact else 2), pad=1, style="muted"),
        ]
        y = spots[-1].region.bottom
        h = 8 if self.compact else 10  # the boat's title, header, rule and six seats
        spots += [Spot("boat", Region(lx, y, lw, h)), Spot("me", Region(rx, y, rw, h))]
        y += h
        h = 3 if self.compact else 8  # the track, a label and a row of cards
        if self.compact and not self._fight_open:  # the cards take the fight's room
            return [*spots, Spot("nav", Region(0, y, width, h), pad=1)]
        spots += [Spot("nav", Region(lx, y, lw, h), pad=1), Spot("fight", Region(rx, y, rw, h))]
        return spots

    _fight_open = False
    """Whether a fight is shown (compact, the cards are as wide as the screen without one)."""

    def fight_shown(self, open_: bool) -> None:
        """A fight opened or closed: compact, the board is laid out again for it."""
        if open_ != self._fight_open:
            self._fight_open = open_
            if self.compact:
                self.query_one("#board", Board).relayout()

    def prompt_rows(self) -> int:
        """What to decide, and the choices on two lines (wrapped, not cut), at every size."""
        return R.PROMPT_ROWS

    def compacted(self, compact: bool) -> None:
        for board in self.query(Board):
            board.relayout()

    def placeholder(self) -> str:
        if self.seat is None:
            return "watching: 'lobby' to go back, 'help' for commands"
        return f"Tab completes · 'help' · {self.SEAT_WORDS}"

    def refresh_seats(self) -> None:
        """Who plays each seat (player, bot, autopilot, away); my countdown is in the title
        (see `SeatScreen.refresh_clock`). Compact, the seats have one row: a bot is named by
        its name alone (``mate: loyal``, dim) when ``bot loyal`` would not fit, and is just
        ``bot`` only when the names do not fit either."""
        board = self.query_one("#board", Board)
        spot = board.spot("seats") if board.size.width else None
        width = spot.width - 2 if spot is not None else None  # (not laid out yet: any)
        line = self._seat_line(0)
        for brief in (1, 2, 3):
            if not self.compact or width is None or line.cell_len <= width:
                break
            line = self._seat_line(brief)
        self.show("seats", line, lambda: line)

    def on_resize(self, _event: Resize) -> None:  # (Textual runs SeatScreen's too)
        """The seats line is fitted to the width: once the board has its new size."""
        self.call_after_refresh(self.refresh_seats)

    def _seat_line(self, brief: int) -> Text:
        """The seats line; ``brief`` 0: each rated player's and bot's rating too; 1: a bot by
        its name alone (dim); 2: its name cut to what the row has room for (``loy…``, at
        least two letters), seats one space apart; 3: a bot as ``bot``."""
        t = self.table
        bots = [i for i, s in enumerate(t.seats) if s.kind == "bot"]
        cut = self._bot_name_room(bots) if brief == 2 else 0
        line = Text()
        for i, s in enumerate(t.seats):
            name = t.seat_name(i)
            style = "yellow" if s.autopilot else ""
            if s.kind == "human":
                who = s.player or "?"
                if s.autopilot:
                    who += " (autopilot)"
                elif not s.connected:
                    who += " (away)"
            elif s.kind == "bot":
                bot = s.bot or "bot"
                short = bot if len(bot) <= cut else bot[: max(2, cut - 1)] + "…"
                who = (f"bot {bot}", bot, short, "bot")[brief]
                style = "dim" if brief in (1, 2) else style
            else:
                who = f"free seat (bot {s.bot})" if t.started and not self.compact else "free seat"
            if brief == 0:  # (the shorter forms leave the ratings out)
                who += rating_tag(self.shipwreck.lobby, t, i)
            line.append(f"{name}: ", style="bold" if i == self.seat else "")
            line.append(who, style=style)
            line.append(" " if brief >= 2 else "  " if self.compact else "   ")
        line.rstrip()
        return line

    def _bot_name_room(self, bots: list[int]) -> int:
        """How many cells each bot's name may have for the compact seats line to fit its
        row (the rest of the line as :meth:`_seat_line` draws it with 1-letter names)."""
        board = self.query_one("#board", Board)
        spot = board.spot("seats") if board.size.width else None
        if spot is None or not bots:
            return 0
        rest = self._seat_line(3).cell_len - 3 * len(bots)  # ("bot" in each bot's place)
        return (spot.width - 2 - rest) // len(bots)

    def action_chat_page(self, pages: int) -> None:
        """Ctrl+↑ / Ctrl+↓: page the chat (PgUp / PgDn page the game's log)."""
        self.chat_log().page(pages)

    def complete(self, text: str) -> list[str]:
        options = [] if self.seat is None else complete(text, self.table.view(self.seat))
        options = self.complete_words(text, options)
        self.show_options(options)
        return options

    def paint(self, view: LifeboatView) -> None:
        me = part("spectator", "", rank=7)
        if view.me:
            me = part(f"you are {view.me}", view.me, "", rank=7)
        signed_in = self.shipwreck.signed_in_line()
        title = table_title(self.table.name, self.table.game, me, signed_in=signed_in)
        self.show_title((view.me, signed_in), title, view)
        self.refresh_seats()
        compact = self.compact
        people = (view.characters, view.actor, view.navigator, view.me)
        self.show("boat", people, lambda: R.boat(view, compact))
        mine = [c for c in view.characters if c.id == view.me]
        states = tuple((c.id, c.state) for c in view.characters)  # (my score now counts deaths)
        self.show("me", (mine, states), lambda: R.me_panel(view, compact))
        # The fight and the navigation cards: keyed on exactly what they draw.
        fight = view.fight and (view.fight, states)
        self.fight_shown(view.fight is not None)
        self.show("fight", fight, lambda: R.fight(view, compact) or "")
        nav = (view.birds, view.round, view.phase, view.navigation_table, view.drawn)
        started = self.table.started
        offer = (view.supply_offer, started)
        self.show("nav", (nav, offer, states), lambda: R.navigation(view, compact, started))
        ask = (view.prompts, view.phase, view.request, view.choices, people)
        self.show_prompt(ask, lambda: R.prompt(view, compact, self.prompt_rows()))

    def chat_log(self) -> EventLog:
        return self.query_one("#chat", EventLog)

    def action_cards(self) -> None:
        """F4: every navigation card I see, in words."""
        view = cast(LifeboatView, self.table.view(self.seat))  # (a Lifeboat table)
        self.shipwreck.push_screen(CardsScreen(R.cards_in_words(view), R.cards_title(view)))

    def end_screen(self, view: LifeboatView) -> ModalScreen[None]:
        return EndScreen(view)

    def help_screen(self) -> ModalScreen[None]:
        return HelpScreen(self.table.game)


class EndScreen(EndOfGame[LifeboatView]):
    """Every score broken down and everything revealed."""

    def result(self) -> RenderableType:
        return R.scores(self.view)


class HelpScreen(CommandHelp):
    """Every Lifeboat command, generated from the language's own command list, then the
    legend of the board's marks."""

    GAME_TITLE = "Lifeboat"

    def __init__(self, game: str = LIFEBOAT.name) -> None:
        super().__init__()
        self.game = game

    def commands(self) -> list[tuple[str, str]]:
        return list(command_list(self.game))

    def keys(self) -> list[CommandEntry]:
        return [
            CommandEntry(LEGEND_KEY.upper(), "what the marks on the board mean (as 'legend')", ""),
            CommandEntry(CHAT_KEYS.replace("/", " / "), "read back through the chat, and on", ""),
        ]

    def extra(self) -> RenderableType | None:
        return Markdown(LEGEND[self.game])


class LobbyHelpScreen(CommandHelp):
    """The lobby's commands, each with an example."""

    def sections(self) -> list[tuple[str, list[CommandEntry]]]:
        keys = [
            CommandEntry("Tab", "complete a word", ""),
            CommandEntry("↑ ↓", "the lines you typed before", ""),
            CommandEntry(RULES_KEY.upper(), "how to win, and the whole rules (as 'rules')", ""),
            CommandEntry(LEGEND_KEY.upper(), "what the marks on a Lifeboat board mean", ""),
        ]
        return [
            ("Lobby commands", list(player_commands("lobby").values())),
            (TABLE_TITLE, list(player_commands("table").values())),
            ("Keys", keys),
            (SHELL_TITLE, list(SHELL_COMMANDS.values())),
        ]


class TooSmallScreen(ModalScreen[None]):
    """Shown while the terminal is smaller than 80×24; keys are ignored."""

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.update_size()

    def update_size(self, size: tuple[int, int] | None = None) -> None:
        w, h = size or self.app.size
        for notice in self.query("#too-small").results(Static):  # (none before it is composed)
            notice.update(
                Text(f"please enlarge your terminal to 80×24\n(it is {w}×{h})", justify="center")
            )

    def on_key(self, event: Key) -> None:
        event.stop()
        event.prevent_default()


def lifeboat_seats(word: W.New) -> list[SeatSpec] | str:
    """The seats of ``new [4-6] [BOT|free …]``: the creator first, then the bots named (in
    turn; by default the game's default bots), ``free`` seats left for friends."""
    game = get_game(word.game)
    n = game.default_seats if word.seats is None else word.seats
    if word.fleets:
        return f"fleets are Spanish Main's: new sm 2 fleet {word.fleets[0]}"
    if not game.min_seats <= n <= game.max_seats:
        return f"{game.title} is for {game.min_seats} to {game.max_seats} seats: " + seat_counts(
            game
        )
    too_many = too_many_names(game, n, list(word.bots))
    if too_many:
        return too_many
    bots = list(word.bots) or list(game.default_bots)
    seats = [SeatSpec("human")]
    for i in range(n - 1):
        b = bots[i % len(bots)]
        seats.append(SeatSpec("empty") if b == "free" else SeatSpec("bot", b))
    return seats


registry.register(registry.TuiGame(LIFEBOAT.name, TableScreen, lifeboat_seats))
