"""The lobby: the tables, the chat, who is online, and the commands that make and join tables.

Every session in the lobby shows the same tables: they are drawn once per width for all of them
(:class:`SharedRender`), and repaints are paced (:func:`lobby_pacer`)."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Resize
from textual.geometry import Region, Size
from textual.screen import Screen

from shipwreck.games.registry import default_game
from shipwreck.lang import words as W
from shipwreck.lang.help import SHELL_COMMANDS, SHELL_TITLE, player_commands
from shipwreck.lang.help import CommandHelp as CommandEntry
from shipwreck.runtime import Lobby, SeatSpec, TableCreateError
from shipwreck.runtime.lobby import LobbyChat, Row
from shipwreck.tui import registry
from shipwreck.tui.base import TABLE_TITLE, AppScreen, CommandHelp, SeatScreen
from shipwreck.tui.board import Board, SharedRender, Spot
from shipwreck.tui.ladder_screen import show_ladder
from shipwreck.tui.learn import (
    LEGEND_KEY,
    RULES_KEY,
    RULES_USAGE,
    SEAT_CODES,
    LobbyLegendScreen,
    RulesScreen,
    rules_game,
)
from shipwreck.tui.lobby.words import free_seats_hint, lobby_completions, seat_to_join
from shipwreck.tui.pacer import RepaintPacer
from shipwreck.tui.remote import enter_remote
from shipwreck.tui.typed import (
    MAX_ERROR_ROWS,
    cut_visibly,
    error_width,
    fit_error,
    run_lobby_line,
)
from shipwreck.tui.widgets import CommandLine, EventLog, KeyLine, new_since

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


def tables_panel(rows: list[Row], height: int) -> RenderableType:
    """The lobby's tables in ``height`` rows: open ones first, then running, then over; what
    does not fit is counted on the last row."""
    order = {"waiting": 0, "open": 1, "running": 2, "paused": 3, "moving": 3, "over": 4}
    order["empty"] = 5
    rows = sorted(rows, key=lambda r: (order.get(r[4], 3), -int(r[0])))
    fit = max(0, height - 2)  # the header and its rule
    shown = rows if len(rows) <= fit else rows[: max(0, fit - 1)]
    t = RichTable(box=box.SIMPLE_HEAD, expand=True, show_edge=False, pad_edge=True)
    for name in ("id", "game", "seats", "round", "status"):
        t.add_column(name, no_wrap=True)
    t.add_column("players", no_wrap=True, overflow="ellipsis", ratio=1)
    for row in shown:
        style = {"open": "green", "waiting": "green", "paused": "yellow", "moving": "yellow"}
        style["over"] = "dim"
        style["empty"] = "dim"
        t.add_row(*row, style=style.get(row[4], ""))
    if len(shown) < len(rows):
        t.add_row("", f"… {len(rows) - len(shown)} more", style="dim")
    if not rows:
        t.add_row("", "no tables yet: 'new' starts one", style="dim")
    if rows and len(rows) < fit:  # every table shown, and a row to spare: the seat letters
        return Group(t, Text(f" {SEAT_CODES}  ·  F3: what the list says", style="dim"))
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
        if self.query("#board"):  # (not when the session ended while it was being composed)
            self.refresh_all()

    def on_resize(self, event: Resize) -> None:
        self.set_class(event.size.height < SeatScreen.COMPACT_BELOW, "-compact")  # (CSS)
        self._rows = None  # as many tables as fit the new size, once the board has it
        self.call_after_refresh(self.refresh_all)

    def _my_turns(self) -> frozenset[str]:
        """The ids of the tables where the game waits for me (each table's row then says so,
        on my screen only)."""
        return frozenset(map(str, self.shipwreck.lobby.turn_ids(self.shipwreck.user)))

    moving: Row | None = None
    """The row of the player's table while it moves between workers (tui/seat_return.py)."""

    def show_moving(self, row: Row | None) -> None:
        """List ``row`` (the player's table, moving) until it is back, or not (``None``)."""
        self.moving = row
        self._rows = None
        if self.is_mounted and self.children:  # (else its mount draws it)
            self.refresh_all()

    def refresh_all(self) -> None:
        lobby = self.shipwreck.lobby
        rows = lobby.listing_for(self.shipwreck.user)
        if self.moving is not None and all(r[0] != self.moving[0] for r in rows):
            rows = [*rows, self.moving]  # (no worker lists it while it moves)
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

    def error(self, text: str, style: str = "red") -> None:
        self.error_text(Text(text, style=style))

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
        if app.opening:  # a table's screen replaces this one: drawing the list is wasted
            self.pacer.forget(self)  # (the player's own join was the costliest part of
            return  # a crowd sitting down: the first to draw the changed list pays for it)
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
        """F3: what the lobby's list of tables says (a table's F3 explains its own board;
        play-test: the lobby's F3 showed the Lifeboat board's legend)."""
        self.shipwreck.push_screen(LobbyLegendScreen())

    def action_legend(self) -> None:
        self.show_legend()

    def create(self, word: W.New) -> None:
        """``new [4-6] [BOT|free …]`` (Lifeboat) or ``new sm …``: the lobby checks each bot's
        name (a shipped bot or one of the player's saved bots, never a path)."""
        game = registry.get(word.game)
        seats = game.lobby_seats(word)
        if isinstance(seats, str):
            self.error(seats)
            return
        screen = game.seats_screen(word, seats) if game.seats_screen is not None else None
        if screen is not None:  # (the creator completes the seats first: a fleet to build)
            self.shipwreck.lobby.check_creator(self.shipwreck.user)
            self.shipwreck.push_screen(screen, lambda done: self.sit_at_new(word.game, done))
            return
        self.sit_at_new(word.game, seats)

    def sit_at_new(self, game: str, seats: list[SeatSpec] | None) -> None:
        """A new table with ``seats`` (None: none after all), its creator seated at it."""
        if seats is None:
            return
        try:
            table = self.shipwreck.lobby.create_table(
                game, seats, creator=self.shipwreck.user, gather=True
            )
        except TableCreateError as e:
            self.error(str(e))
            return
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
        if table is None and isinstance(word, W.Open) and app.open_moving(self, number):
            return
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


class LobbyHelpScreen(CommandHelp):
    """The lobby's commands, each with an example."""

    def sections(self) -> list[tuple[str, list[CommandEntry]]]:
        keys = [
            CommandEntry("Tab", "complete a word", ""),
            CommandEntry("↑ ↓", "the lines you typed before", ""),
            CommandEntry(RULES_KEY.upper(), "how to win, and the whole rules (as 'rules')", ""),
            CommandEntry(LEGEND_KEY.upper(), "what the list of tables says (seats: HBB.)", ""),
        ]
        return [
            ("Lobby commands", list(player_commands("lobby").values())),
            (TABLE_TITLE, list(player_commands("table").values())),
            ("Keys", keys),
            (SHELL_TITLE, list(SHELL_COMMANDS.values())),
        ]
