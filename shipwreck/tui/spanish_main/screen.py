"""The Spanish Main table: the sea map, the fleets, my coins, the log, the prompt.

Typed lines go through :meth:`Table.submit_text`, like Lifeboat's. While a line is being typed,
the screen tries to read it as a command; if it is a move, the table's :meth:`Table.preview`
says where it would end and the map draws that as a white ghost with its track, before anything
is sent. :meth:`SpanishMainScreen.show_preview` does the same for a command struct (tests, and
tools that have a struct rather than a line).

A preview costs a parse, the table's preview and a map drawn again, so it is not done per key:
the line reports changes once the keys queued are handled (`CommandLine`, on idle), and the
screen previews the line as it is then, at most once per `PREVIEW_INTERVAL` (a line still
changing is previewed again when the interval is up, so the last line typed is always shown).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import msgspec
from rich.console import RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Resize
from textual.geometry import Region, Size
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input, Static

from shipwreck.engine.core import Event, IllegalCommand
from shipwreck.games.registry import get as get_game
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main import fleets
from shipwreck.games.spanish_main.previews import MovePreview
from shipwreck.games.spanish_main.view import SpanishMainView, waiting_ships
from shipwreck.lang import CommandSyntaxError, parse_command
from shipwreck.lang.complete import command_list
from shipwreck.lang.complete import complete as complete_line
from shipwreck.lang.spanish_main import suggested_moves
from shipwreck.lang.text import whole_number
from shipwreck.lang.words import New
from shipwreck.runtime import SeatSpec
from shipwreck.runtime.seat_link import SeatLink
from shipwreck.tui import registry
from shipwreck.tui.base import CommandHelp, EndOfGame, SeatScreen, TypingCloses, player_label
from shipwreck.tui.board import Board, Spot
from shipwreck.tui.ladder_screen import short_rating
from shipwreck.tui.learn import LEGEND_KEY
from shipwreck.tui.pacer import after
from shipwreck.tui.spanish_main import render as R
from shipwreck.tui.spanish_main.fleet_builder import BUILD, build_seats
from shipwreck.tui.typed import too_many_names
from shipwreck.tui.widgets import CommandLine, EventLog

GAME = "spanish_main"
MOVES = (C.Move, C.MoveToward, C.MoveDock)
SHIPPED_BOTS = "sm_hauler, sm_raider, sm_random"
STYLE = Path(__file__).with_name("screen.tcss")
"""The sea screens' style, by absolute path: a subclass in another folder (the tutorial's)
would otherwise look for it beside itself."""
PREVIEW_INTERVAL = 0.1
"""Seconds between two previews of the line being typed, at least (at most ten a second:
a preview took as much of the server as a hundred keys, and a flood of keys made one each)."""


def lobby_seats(args: list[str]) -> list[SeatSpec] | str:
    """The seats of ``new sm [2-4] [BOT|free …]``: the creator first, then the bots named (in
    turn, as for Lifeboat) or, by default, free seats, which the engine's random player plays
    until someone joins. ``random`` means ``sm_random``. Returns why not, as a string. The
    lobby checks each bot's name when it creates the table (never a path)."""
    n = 2
    if args and whole_number(args[0]) is not None:
        n = whole_number(args.pop(0)) or 0
    elif args and args[0][:1].isdigit():
        return f"{args[0]!r} is not a seat count: new sm 2, new sm 3 or new sm 4"
    if not 2 <= n <= 4:
        return "Spanish Main is for 2 to 4 seats: new sm 2, new sm 3 or new sm 4"
    too_many = too_many_names(get_game(GAME), n, args)
    if too_many:
        return too_many
    names = ["sm_random" if b == "random" else b for b in args] or ["free"]
    seats = [SeatSpec("human")]
    for i in range(n - 1):
        b = names[i % len(names)]
        seats.append(SeatSpec("empty") if b == "free" else SeatSpec("bot", b))
    return seats


MapKey = tuple[int, int, str | None]
"""A map drawn: its width and height in cells, and the ship whose move it previews."""


class SeaMap(Widget):
    """The map, drawn for whatever size the widget has (see :func:`R.sea_map`).

    Drawing the map is the costliest render there is (about 100 ms at 120×40 on a busy
    machine), and the same map is asked for again and again: a message that takes a second row
    below it and goes again changes its size back and forth, and a refused line repaints the
    screen. So the last few maps drawn are kept, by everything they show, and drawn once each."""

    KEEP = 4
    """Maps kept (two sizes, with and without a preview)."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view: SpanishMainView | None = None
        self.preview: MovePreview | None = None
        self.ship: str | None = None
        self._drawn: list[
            tuple[tuple[int, int, str | None], SpanishMainView, MovePreview | None, Text]
        ] = []

    def show(
        self, view: SpanishMainView, preview: MovePreview | None = None, ship: str | None = None
    ) -> None:
        if view == self.view and preview == self.preview and ship == self.ship:
            return  # (a refused line, a chat line: the map as it is)
        self.view, self.preview, self.ship = view, preview, ship
        self.refresh()

    LENDS_AT_MOST = 2
    """Rows the map lends a message below it at its scale (a longer one rescales it)."""

    def render(self) -> Text:
        view, preview = self.view, self.preview
        if view is None:
            return Text("")
        size = self.content_size
        lent = self.lent_rows()
        key = (size.width, size.height + lent, self.ship)
        text = next(
            (d[3] for d in self._drawn if d[0] == key and d[1] == view and d[2] == preview), None
        )
        if text is None:
            text = R.sea_map(view, size.width, size.height + lent, preview, self.ship)
            self._drawn = [*self._drawn[-(self.KEEP - 1) :], (key, view, preview, text)]
        if not lent:
            return text.copy()
        lines = text.split("\n", allow_blank=True)
        return Text("\n").join(lines[:-1][: size.height])  # the legend goes first

    def lent_rows(self) -> int:
        """The rows a message's third and fourth lines took from the map (its first two are
        kept for it: ``ERROR_ROWS_AT_LEAST``): it keeps the scale it had without them (a
        longer message rescaled the whole map, play-test), and gives up its legend row, then
        its bottom row."""
        screen = self.screen
        rows = getattr(screen, "error_rows", 1) - getattr(screen, "ERROR_ROWS_AT_LEAST", 1)
        return rows if 0 < rows <= self.LENDS_AT_MOST else 0


class SpanishMainScreen(SeatScreen[SpanishMainView]):
    """One Spanish Main table, as one seat (or a spectator) sees it."""

    CSS_PATH = STYLE
    BINDINGS = [
        Binding("f1", "help", "help"),
        Binding(LEGEND_KEY, "fleet", "ships & goal"),
        Binding("escape", "confirm_lobby", "lobby"),
    ]

    chat_style = "cyan"  # the table chat shares the log, in its own colour
    ERROR_ROWS_AT_LEAST = error_rows = 2  # errors come and go; the map keeps its scale

    def __init__(self, table: SeatLink, seat: int | None) -> None:
        super().__init__(table, seat)
        self._ghost: C.Move | C.MoveToward | C.MoveDock | None = None
        """The move command being previewed, if any."""
        self._preview_due: asyncio.TimerHandle | None = None
        """The preview of the typed line, when one is waiting for `PREVIEW_INTERVAL`."""
        self._previewed_at = -PREVIEW_INTERVAL
        """When the typed line was last previewed (`time.monotonic`)."""

    PANELS = {"title": "top", "seats": "side", "fleet": "side", "treasure": "side"}
    PANELS.update(prompt="foot", error="foot")

    def compose(self) -> ComposeResult:
        yield Board(self.top_layout, id="top")
        with Horizontal(id="sea-main"):
            yield SeaMap(id="sea")
            with Vertical(id="sea-side"):
                yield Board(self.side_layout, id="side")
                log = EventLog(id="log", max_lines=500, page_keys="PgUp/PgDn")
                log.border_title = "log and chat"
                yield log
        yield from self.compose_foot(changes=True)  # moves are previewed as they are typed

    def top_layout(self, size: Size) -> list[Spot]:
        """The title bar (the seat's clock first: see :meth:`SeatScreen.show_title`)."""
        return [Spot("title", Region(0, 0, size.width, 1), 1, "bar")]

    def placeholder(self) -> str:
        if self.seat is None:
            return "watching: 'lobby' to go back, 'help' for commands"
        return f"moves are drawn before Enter · {self.SEAT_WORDS}"

    def compacted(self, compact: bool) -> None:
        self.query_one("#side", Board).relayout()

    WIDE_FROM = 150
    """From this many columns the side is wider (class ``-wide``), so that no column of the
    fleet is cut (``towed by pescados-de-plata``)."""

    def on_resize(self, event: Resize) -> None:  # (Textual runs SeatScreen's too)
        wide = event.size.width >= self.WIDE_FROM
        if wide != self.has_class("-wide"):
            self.set_class(wide, "-wide")
            self.paint(self.view)

    COMPACT_SHIPS = 6
    """Rows of the fleet panel under its header on a compact screen (80×24), at most."""
    _fleet_room = COMPACT_SHIPS
    """Rows the fleet panel has under its header now (compact: as many as it draws)."""

    def prompt_rows(self) -> int:
        """What to decide, and two lines of choices (:class:`R.Packed`)."""
        return 3

    def side_layout(self, size: Size) -> list[Spot]:
        """The seats and the fleet as tall as this table needs: a header and a row per seat;
        a header, a row per ship and the "sunk:" line (compact: six rows at most, mine first,
        the fleets that do not fit in brief on the lines they take, see :func:`R.fleet` and
        :func:`R.fleet_height`), so that every ship is
        listed and the log keeps the rest of the side; then the coins
        (compact: two rows, and no blank rows between). Worked out when the board is sized or
        the screen turns compact; ships only sink, so those heights stay enough."""
        view, width, gap = self.view, size.width, 0 if self.compact else 1
        seats = len(view.seats) + 1
        if self.compact:  # (the rows the other fleets in brief leave go to the log)
            self._fleet_room = R.fleet_height(view, self.COMPACT_SHIPS, width)
            ships = self._fleet_room + 1
        else:
            ships = len(view.ships) + 2
        fleet = seats + gap
        treasure = fleet + ships + gap
        return [
            Spot("seats", Region(0, 0, width, seats)),
            Spot("fleet", Region(0, fleet, width, ships)),
            Spot("treasure", Region(0, treasure, width, 2 if self.compact else 5)),
        ]

    _fleet_ships: object = None
    """The ships the fleet's rows were last checked for (:meth:`_fit_fleet`)."""

    def _fit_fleet(self, view: SpanishMainView) -> None:
        """Compact, a ship sunk may need one more row for the fleet (the "sunk:" list): the
        side is laid out again then (the log gives the row up)."""
        side = self.query_one("#side", Board)
        if side.size.width and R.fleet_height(view, self.COMPACT_SHIPS, side.size.width) > (
            self._fleet_room
        ):
            side.relayout()

    @property
    def view(self) -> SpanishMainView:
        view = self.table.view(self.seat)
        assert isinstance(view, SpanishMainView)
        return view

    def paint(self, view: SpanishMainView) -> None:
        signed_in = self.shipwreck.signed_in_line()
        started = self.table.started  # (starting may change nothing else the title shows)
        top = (view.seat, view.round, view.turn, view.over, started)
        self.show_title(top, R.title(view, self.table.name, signed_in, started), view)
        players = self.players()
        ships = (view.seat, view.ships, view.sunk)
        lobby, table = self.shipwreck.lobby, self.table
        rated = [short_rating(lobby, table, i) for i in range(len(table.seats))]
        key = (players, ships, view.gold, rated)
        self.show("seats", key, lambda: R.seats(view, players, rated))
        wide = self.has_class("-wide")
        rows = self.COMPACT_SHIPS if self.compact else None
        if self.compact and ships != self._fleet_ships:
            self._fleet_ships = ships
            self._fit_fleet(view)
        self.show("fleet", (ships, wide, rows), lambda: R.fleet(view, wide, rows))
        self.show(
            "treasure",
            (ships, view.islands, view.gold_total, view.coins_lost, self.compact),
            lambda: R.treasure(view, self.compact),
        )
        self.show_prompt(view, lambda: R.prompt(view, suggested_moves(view)))
        self._draw(view)

    def event_line(self, event: Event) -> Text:
        return R.log_line(event)

    def end_screen(self, view: SpanishMainView) -> ModalScreen[None]:
        return SeaEndScreen(view)

    def help_screen(self) -> ModalScreen[None]:
        return SeaHelpScreen()

    def show_fleet(self) -> None:
        """The goal, how to read the fleet panel, and every ship's card (F3, ``ships``)."""
        self.app.push_screen(SeaFleetScreen(self.view))

    def show_legend(self) -> None:
        """``legend``: Spanish Main has none; the fleet screen (F3) is what explains its marks."""
        self.error(
            "Spanish Main has no legend: F3 (or 'ships') explains the fleet panel, F2 the rules",
            style="yellow",
        )
        self.action_fleet()

    def action_fleet(self) -> None:
        self.show_fleet()

    def run_line(self, line: str) -> None:
        if line in ("ships", "fleet"):  # (until the table's words have a grammar)
            self.error("")
            self.show_fleet()
        elif not self._end_turn_held(line):
            # (a move that would go nowhere is refused by the table, SM-13: nothing held)
            super().run_line(line)

    CONFIRM_IDLE_END = True
    """An ``end turn`` while a ship of mine may still act is asked again (play-test: a
    refused move, then ``end turn`` went through silently); the tutorial says when to end."""
    _end_warned: object = None
    """What the last held ``end turn`` was held for (round, turn and the ships waiting): an
    ``end turn`` again while they are the same (a chat line between or not) ends the turn."""

    def _end_turn_held(self, line: str) -> bool:
        """Is ``line`` an ``end turn`` to hold, with a one-line warning, because a ship of mine
        could still act? A second one, with the same ships waiting, is not held. (Only a person
        at this screen is asked: bots and the engine's ``end turn`` stay as they are.)"""
        if not self.CONFIRM_IDLE_END or self.seat is None:
            return False
        try:
            ends = isinstance(parse_command(GAME, line), C.EndTurn)
        except CommandSyntaxError:
            ends = False
        if not ends:
            return False
        view = self.view
        waiting = waiting_ships(view)
        key = (view.round, view.turn, tuple(waiting))
        if not waiting or key == self._end_warned:
            self._end_warned = None
            return False
        self._end_warned = key
        *others, last = waiting
        who = f"{', '.join(others)} and {last} have" if others else f"{last} has"
        self.error(f"{who} not acted; 'end turn' again to end it anyway", style="yellow")
        return True

    def players(self) -> list[str]:
        """Who plays each seat: a player (away, on autopilot), or a free seat's stand-in."""
        out = []
        for s in self.table.seats:
            if s.kind == "human":
                who = player_label(s, self.shipwreck.user)
            elif s.kind == "empty":  # (its stand-in: the random bot; short enough for 80×24)
                who = "free (bot random)" if self.compact else "free seat (bot random)"
            else:
                who = f"bot {s.bot}"
            out.append(who)
        return out

    # ------------------------------------------------------------------ the move preview

    def _draw(self, view: SpanishMainView) -> None:
        """The map, with the ghost of the move being typed if it is still possible."""
        sea = self.query_one("#sea", SeaMap)
        cmd = self._ghost
        if cmd is None or self.seat is None:
            sea.show(view)
            return
        try:
            preview = self.table.preview(self.seat, cmd)
        except IllegalCommand as e:
            sea.show(view)
            self.error(f"preview: {e}", style="yellow")
            return
        if not isinstance(preview, MovePreview):
            sea.show(view)
            return
        sea.show(view, preview, cmd.ship)
        where = f"{cmd.ship} would end with her bow at ({preview.x:.1f}, {preview.y:.1f})"
        where += f" heading {R.compass(preview.heading)}°"
        if preview.stop:
            where += f"; {preview.stop}"
        self.error(f"preview: {where}", style="white")

    def show_preview(self, cmd: object | None) -> None:
        """Draw where ``cmd`` (a move struct) would take its ship; ``None`` clears the ghost."""
        self._ghost = cmd if isinstance(cmd, MOVES) else None
        if self._ghost is None:
            self.error("")
        self._draw(self.view)

    @on(Input.Changed, "#command")
    def typing(self, _event: Input.Changed) -> None:
        """The line changed: preview it (once it reads as a move) when the last preview is
        `PREVIEW_INTERVAL` old; until then, changes wait for the preview already due."""
        if self.seat is None or self._preview_due is not None:
            return
        wait = self._previewed_at + PREVIEW_INTERVAL - time.monotonic()
        if wait > 0:
            self._preview_due = after(self, wait, self._preview_line)
        else:
            self._preview_line()

    def _preview_line(self) -> None:
        """Preview the line as it is now (not as it was when the change was reported)."""
        self._preview_due = None
        self._previewed_at = time.monotonic()
        if self.seat is None:
            return
        cmd: object = None
        text = self.query_one("#command", CommandLine).value.strip()
        if text.startswith("move"):
            try:
                cmd = parse_command(GAME, text, self.view)  # (a ship by her code too)
            except CommandSyntaxError:  # not (yet) a command
                cmd = None
        if cmd is not None or self._ghost is not None:
            self.show_preview(cmd)

    def complete(self, text: str) -> list[str]:
        """The next words, grammatical and legal now (the action language's completion)."""
        view = self.view
        options = [] if self.seat is None else complete_line(text, view, game=GAME)
        options = self.complete_words(text, options)
        self.show_options(options)
        return options

    # ------------------------------------------------------------------ commands

    def after_command(self) -> None:
        self._ghost = None
        self._draw(self.view)

    def become_spectator(self, why: str) -> None:
        self._ghost = None
        super().become_spectator(why)


def commands() -> list[tuple[str, str]]:
    """The action language's help table for this game (its one source of command help)."""
    return command_list(GAME)


class SeaEndScreen(EndOfGame[SpanishMainView]):
    """Gold, ships afloat and winners; every coin value is revealed on the map behind."""

    CSS_PATH = STYLE
    BOX_ID = "sea-end"

    def result(self) -> RenderableType:
        from shipwreck.tui.spanish_main.end import final
        from shipwreck.tui.standings import ToWidth

        return ToWidth(lambda width: final(self.view, width))


class SeaFleetScreen(TypingCloses):
    """How to win, what the fleet panel's notation means, and each ship's card (F3). Typing
    closes it and goes on the command line."""

    CSS_PATH = STYLE
    BINDINGS = [
        Binding("up", "scroll(-1)", show=False),
        Binding("down", "scroll(1)", show=False),
        Binding("pageup", "scroll(-10)", show=False),
        Binding("pagedown", "scroll(10)", show=False),
    ]

    def __init__(self, view: SpanishMainView) -> None:
        super().__init__()
        self.view = view

    def compose(self) -> ComposeResult:
        with Vertical(id="sea-fleet"):
            yield Static("Escape closes · ↑ ↓ PgUp PgDn scroll", classes="hint")
            with VerticalScroll(id="sea-fleet-text"):
                yield Static(R.fleet_info(self.view))

    def action_scroll(self, rows: int) -> None:
        self.query_one("#sea-fleet-text", VerticalScroll).scroll_relative(
            y=rows, animate=False, immediate=True
        )


class SeaHelpScreen(CommandHelp):
    """Every Spanish Main command."""

    CSS_PATH = STYLE
    GAME_TITLE = "Spanish Main"
    BOX_ID = "sea-help"
    HINT = (
        f"{CommandHelp.HINT} · F3: your ships and the goal · a move you type is drawn as a"
        " white ghost on the map before you press Enter"
    )

    def commands(self) -> list[tuple[str, str]]:
        return commands()


def _new_seats(word: New) -> list[SeatSpec] | str:
    """The seats of the lobby's ``new sm [2-4] [BOT|free …] [fleet NAME…]`` (:func:`lobby_seats`);
    with fleets named, every seat sails a crewed preset (:func:`fleets.table_fleets`). With
    ``fleet build`` the creator's fleet is built next (:mod:`.fleet_builder`), the other seats
    take the crewed presets named after it, or not named."""
    seats = lobby_seats([*([str(word.seats)] if word.seats else []), *word.bots])
    if isinstance(seats, str) or not word.fleets:
        return seats
    build = word.fleets[0] == BUILD
    named = word.fleets[1:] if build else word.fleets
    if BUILD in named:
        return "'build' comes first, for your own fleet: 'new sm 2 fleet build'"
    try:
        chosen = fleets.table_fleets(len(seats) - build, named)
    except fleets.FleetError as e:
        return str(e)
    chosen = [""] * build + chosen  # (the creator's is built before the table is made)
    return [msgspec.structs.replace(s, fleet=f) for s, f in zip(seats, chosen, strict=True)]


registry.register(registry.TuiGame(GAME, SpanishMainScreen, _new_seats, seats_screen=build_seats))
