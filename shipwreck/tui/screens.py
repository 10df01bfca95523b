"""The app's screens: lobby, Lifeboat table, end of game, help, and "please enlarge"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.table import Table as RichTable
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, Input, RichLog, Static

from shipwreck.lang.complete import command_list, complete
from shipwreck.runtime import SeatSpec, Table, TableCreateError
from shipwreck.tui import render_lifeboat as R
from shipwreck.tui.widgets import CommandLine

if TYPE_CHECKING:
    from shipwreck.tui.app import ShipwreckApp

DEFAULT_BOTS = ["random", "survivor", "loyal", "predator", "hoarder"]
LOBBY_HELP = (
    "new [4-6] [BOT|free …]     Lifeboat (you sit first; default: 6 seats, 5 shipped bots)\n"
    "new sm [2-4] [BOT|free …]  Spanish Main (bots sm_hauler, sm_raider, sm_random; or free)\n"
    "join ID [SEAT]  take a free seat  watch ID  watch as a spectator  open ID  back to your seat\n"
    "say TEXT        lobby chat        help      all commands          quit     leave the server"
)


class Changed(Message):
    """The lobby or a table changed (posted by their listeners, from any session)."""


class _Base(Screen[None]):
    @property
    def shipwreck(self) -> ShipwreckApp:
        from shipwreck.tui.app import ShipwreckApp

        assert isinstance(self.app, ShipwreckApp)
        return self.app

    def notify_change(self, _source: object) -> None:
        self.post_message(Changed())

    def _max_line(self) -> int:
        return int(getattr(self.app, "line_length", 500))


class LobbyScreen(_Base):
    """Open and running tables, table creation, lobby chat."""

    def compose(self) -> ComposeResult:
        yield Static(id="who")
        yield DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        yield Static(LOBBY_HELP, id="lobby-help")
        yield RichLog(id="lobby-chat", markup=False, wrap=True, max_lines=200)
        yield Static("", id="error")
        yield CommandLine(
            placeholder="lobby command (try: new)", id="command", max_length=self._max_line()
        )
        yield Footer()

    def on_mount(self) -> None:
        app = self.shipwreck
        self.query_one("#who", Static).update(app.signed_in_line())
        table = self.query_one("#tables", DataTable)
        table.add_columns("id", "game", "seats", "round", "status", "players")
        self._unsub = app.lobby.subscribe(self.notify_change)
        self.refresh_all()
        self.query_one("#command", CommandLine).focus()

    def on_unmount(self) -> None:
        self._unsub()

    def on_changed(self, _msg: Changed) -> None:
        self.refresh_all()

    def on_screen_suspend(self) -> None:
        """Covered by a table: stop following the lobby (it would repaint every change)."""
        self._unsub()

    def on_screen_resume(self) -> None:
        self._unsub()
        self._unsub = self.shipwreck.lobby.subscribe(self.notify_change)
        self.refresh_all()

    def refresh_all(self) -> None:
        lobby = self.shipwreck.lobby
        dt = self.query_one("#tables", DataTable)
        dt.clear()
        for t in lobby.tables.values():
            status = "over" if t.over else ("open" if t.free_seats() else "running")
            players = ", ".join(s.player for s in t.seats if s.player) or "-"
            dt.add_row(str(t.id), t.game, t.summary(), str(t.state.round), status, players)
        log = self.query_one("#lobby-chat", RichLog)
        log.clear()
        for line in lobby.chat[-50:]:
            log.write(Text(f"{line.sender}: {line.text}"))

    def error(self, text: str) -> None:
        self.query_one("#error", Static).update(Text(text, style="red"))

    @on(Input.Submitted, "#command")
    def run_command(self, event: Input.Submitted) -> None:
        line = event.value.strip()
        self.error("")
        app = self.shipwreck
        if not app.allow_command():
            self.error(f"slow down: at most {app.commands_per_second} commands a second")
            return
        word, _, rest = line.partition(" ")
        try:
            match word:
                case "":
                    return
                case "new":
                    self.create(rest.split())
                case "join" | "watch" | "open":
                    self.enter(word, rest.split())
                case "say":
                    problem = app.lobby.say(app.user, rest)
                    if problem:
                        self.error(problem)
                case "help":
                    app.push_screen(HelpScreen())
                case "quit":
                    app.exit()
                case _:
                    self.error(f"unknown lobby command {word!r}; try: new, join, watch, say, help")
        except TableCreateError as e:
            self.error(str(e))

    def create(self, args: list[str]) -> None:
        from shipwreck.tui import sea_screen

        if args and args[0] in sea_screen.NAMES:
            seats = sea_screen.lobby_seats(args[1:])
            if isinstance(seats, str):
                self.error(seats)
                return
            game = sea_screen.GAME
            table = self.shipwreck.lobby.create_table(game, seats, creator=self.shipwreck.user)
            self.shipwreck.open_table(table)
            return
        n = 6
        if args and args[0].isdigit():
            n = int(args.pop(0))
        if not 4 <= n <= 6:
            self.error("Lifeboat is for 4 to 6 seats: new 4, new 5 or new 6")
            return
        bots = args or DEFAULT_BOTS
        seats = [SeatSpec("human")]
        for i in range(n - 1):
            b = bots[i % len(bots)]
            seats.append(SeatSpec("empty") if b == "free" else SeatSpec("bot", b))
        table = self.shipwreck.lobby.create_table("lifeboat", seats, creator=self.shipwreck.user)
        self.shipwreck.open_table(table)

    def enter(self, how: str, args: list[str]) -> None:
        app = self.shipwreck
        if not args or not args[0].isdigit():
            self.error(f"{how} which table? e.g. '{how} 1'")
            return
        table = app.lobby.get(int(args[0]))
        if table is None:
            self.error(f"there is no table {args[0]}")
            return
        if how == "join" and table.seat_of_player(app.user) is None:
            free = table.free_seats()
            if len(args) > 1 and args[1].isdigit():
                seat = int(args[1]) - 1
            elif free:
                seat = free[0]
            else:
                self.error(f"table {table.id} has no free seat; 'watch {table.id}' instead")
                return
            problem = table.sit(seat, app.user)
            if problem:
                self.error(problem)
                return
        app.open_table(table, spectate=how == "watch")


class TableScreen(_Base):
    """One Lifeboat table, as one seat (or a spectator) sees it."""

    BINDINGS = [Binding("f1", "help", "help"), Binding("escape", "lobby", "lobby")]

    def __init__(self, table: Table, seat: int | None) -> None:
        super().__init__()
        self.table = table
        self.seat = seat
        self._ended = False
        self._log_shown = 0
        self._chat_shown = 0
        self._seats_text = ""

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="seats")
        with Horizontal(id="top"):
            yield Static(id="boat")
            yield Static(id="me")
        with Horizontal(id="middle"):
            yield Static(id="nav")
            yield Static(id="fight")
        with Horizontal(id="bottom"):
            yield RichLog(id="log", markup=False, wrap=True, max_lines=500)
            yield RichLog(id="chat", markup=False, wrap=True, max_lines=200)
        yield Static(id="prompt")
        yield Static("", id="error")
        yield CommandLine(
            completer=self.complete,
            placeholder=self.placeholder(),
            id="command",
            max_length=self._max_line(),
        )
        yield Footer()

    def placeholder(self) -> str:
        if self.seat is None:
            return "watching: 'lobby' to go back, 'help' for commands"
        return "command (Tab completes; 'help', 'tell X TEXT', 'lobby', 'leave')"

    def on_mount(self) -> None:
        self._unsub = self.table.subscribe(self.notify_change)
        self.refresh_all()
        self.query_one("#command", CommandLine).focus()
        self.set_interval(1.0, self.refresh_seats)  # the countdown

    def refresh_seats(self) -> None:
        """Who plays each seat (player, bot, autopilot, away) and my countdown."""
        t = self.table
        line = Text()
        for i, s in enumerate(t.seats):
            name = t.seat_name(i)
            if s.kind == "human":
                who = s.player or "?"
                if s.autopilot:
                    who += " (autopilot)"
                elif not s.connected:
                    who += " (away)"
            elif s.kind == "bot":
                who = f"bot {s.bot}"
            else:
                who = f"free seat (bot {s.bot})"
            line.append(f"{name}: ", style="bold" if i == self.seat else "")
            line.append(who + "   ", style="yellow" if s.autopilot else "")
        left = t.deadline(self.seat)
        if left is not None:
            line.append(f"⏱ {int(left)} s to decide", style="bold red" if left < 10 else "bold")
        if line.plain != self._seats_text:  # the 1 s countdown repaints only what changed
            self._seats_text = line.plain
            self.query_one("#seats", Static).update(line)

    def on_unmount(self) -> None:
        self._unsub()

    def on_changed(self, _msg: Changed) -> None:
        self.refresh_all()

    def complete(self, text: str) -> list[str]:
        if self.seat is None:
            return []
        options = complete(text, self.table.view(self.seat))
        if len(options) > 1:
            self.query_one("#error", Static).update(Text("  ".join(options), style="cyan"))
        return options

    def refresh_all(self) -> None:
        t, seat = self.table, self.seat
        view: Any = t.view(seat)
        me = f"you are {view.me}" if view.me else "spectator"
        self.query_one("#title", Static).update(
            Text(f"{t.name} · lifeboat · {me} · {self.shipwreck.signed_in_line()}", style="bold")
        )
        self.refresh_seats()
        self.query_one("#boat", Static).update(R.boat(view))
        self.query_one("#me", Static).update(R.me_panel(view))
        fight = R.fight(view)
        self.query_one("#fight", Static).update(fight if fight is not None else "")
        self.query_one("#nav", Static).update(R.navigation(view))
        self.query_one("#prompt", Static).update(R.prompt(view))
        events = t.log(seat)  # only what this seat may read; new lines are appended
        log = self.query_one("#log", RichLog)
        for e in events[max(self._log_shown, len(events) - 200) :]:
            log.write(Text(e.text))
        self._log_shown = len(events)
        lines = t.chat_for(seat)
        chat = self.query_one("#chat", RichLog)
        for c in lines[max(self._chat_shown, len(lines) - 100) :]:
            to = f" → {t.seat_name(c.to)}" if c.to is not None else ""
            chat.write(Text(f"{c.sender}{to}: {c.text}"))
        self._chat_shown = len(lines)
        if view.phase == "over" and not self._ended:
            self._ended = True
            self.app.push_screen(EndScreen(view))

    def error(self, text: str, style: str = "red") -> None:
        self.query_one("#error", Static).update(Text(text, style=style))

    @on(Input.Submitted, "#command")
    def run_command(self, event: Input.Submitted) -> None:
        line = event.value.strip()
        self.error("")
        if not self.shipwreck.allow_command():
            limit = self.shipwreck.commands_per_second
            self.error(f"slow down: at most {limit} commands a second")
            return
        word, _, rest = line.partition(" ")
        t = self.table
        if word == "":
            return
        if word == "help":
            self.app.push_screen(HelpScreen())
        elif word == "lobby":
            self.action_lobby()
        elif word == "leave":
            t.leave(self.shipwreck.user)
            self.action_lobby()
        elif word == "quit":
            self.app.exit()
        elif word in ("tell", "whisper", "chat"):
            self.chat(word, rest)
        elif self.seat is None:
            self.error("spectators cannot play; 'lobby' to go back")
        else:
            result = t.submit_text(self.seat, line)
            if not result.ok:
                self.error(result.message)

    def chat(self, word: str, rest: str) -> None:
        t = self.table
        to = None
        if word != "chat":
            name, _, rest = rest.partition(" ")
            seats = [s for s in range(len(t.seats)) if t.seat_name(s) == name]
            if not seats:
                self.error(f"tell whom? e.g. 'tell kid let us team up' (not {name!r})")
                return
            to = seats[0]
        problem = t.say(self.shipwreck.user, rest, self.seat, to)
        if problem:
            self.error(problem)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_lobby(self) -> None:
        self.app.pop_screen()

    def become_spectator(self, why: str) -> None:
        self.seat = None
        self.query_one("#command", CommandLine).placeholder = self.placeholder()
        self.refresh_all()
        self.error(why, style="yellow")


class EndScreen(ModalScreen[None]):
    """Every score broken down and everything revealed."""

    BINDINGS = [Binding("escape,enter,q", "close", "close")]

    def __init__(self, view: Any) -> None:
        super().__init__()
        self.view = view

    def compose(self) -> ComposeResult:
        with Vertical(id="end"):
            yield Static(R.scores(self.view))
            yield Static("press Enter to close", classes="hint")

    def action_close(self) -> None:
        self.dismiss()


class HelpScreen(ModalScreen[None]):
    """Every command, generated from the language's own command list."""

    BINDINGS = [Binding("escape,enter,q", "close", "close")]

    def compose(self) -> ComposeResult:
        t = RichTable(title="Lifeboat commands", expand=True)
        t.add_column("command", style="bold cyan", no_wrap=True)
        t.add_column("what it does")
        for usage, description in command_list("lifeboat"):
            t.add_row(usage, description)
        t.add_row("tell X TEXT", "whisper to one seat (table chat)")
        t.add_row("chat TEXT", "talk to the whole table without it entering the game log")
        t.add_row("lobby / leave", "back to the lobby (keeping / giving up your seat)")
        with VerticalScroll(id="help"):
            yield Static(t)
            yield Static("press Escape to close", classes="hint")

    def action_close(self) -> None:
        self.dismiss()


class TooSmallScreen(ModalScreen[None]):
    """Shown while the terminal is smaller than 80×24; keys are ignored."""

    def compose(self) -> ComposeResult:
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.update_size()

    def update_size(self) -> None:
        w, h = self.app.size
        self.query_one("#too-small", Static).update(
            Text(f"please enlarge your terminal to 80×24\n(it is {w}×{h})", justify="center")
        )

    def on_key(self, event: Any) -> None:
        event.stop()
        event.prevent_default()
