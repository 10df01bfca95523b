"""Lifeboat's table screen, its end screen and help, and the seats of ``new [4-6] …``."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import cast

from rich.console import RenderableType
from rich.markdown import Markdown
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Resize
from textual.geometry import Region, Size
from textual.screen import ModalScreen

from shipwreck.games.lifeboat import GAME as LIFEBOAT
from shipwreck.games.lifeboat import LifeboatView
from shipwreck.games.lifeboat.cards import CHAR
from shipwreck.games.registry import get as get_game
from shipwreck.lang import words as W
from shipwreck.lang.complete import command_list, complete
from shipwreck.lang.help import CommandHelp as CommandEntry
from shipwreck.lang.rules_text import LEGEND
from shipwreck.runtime import SeatSpec
from shipwreck.tui import registry
from shipwreck.tui.base import CommandHelp, EndOfGame, SeatScreen, player_label
from shipwreck.tui.board import Board, SharedRender, Spot, split
from shipwreck.tui.ladder_screen import rating_tag
from shipwreck.tui.learn import (
    LEGEND_KEY,
    CardsScreen,
)
from shipwreck.tui.lifeboat import render as R
from shipwreck.tui.title import part, table_title
from shipwreck.tui.typed import (
    seat_counts,
    too_many_names,
)
from shipwreck.tui.widgets import EventLog

BOT_NAME_KEPT = 4
"""A bot's name is cut on the compact seats line only if this many letters stay: ``surv…``,
not ``sur…``."""

CHAT_KEYS = "Ctrl+↑/Ctrl+↓"
"""The keys that page a Lifeboat table's chat pane (PgUp/PgDn page its log), as its hint
names them ("Ctrl+↑: earlier" once the chat has more lines than rows)."""


class TableScreen(SeatScreen[LifeboatView]):
    """One Lifeboat table, as one seat (or a spectator) sees it.

    The full layout needs 33 rows; below ``COMPACT_BELOW`` (34) the screen is compact: a
    one-row seats line, the boat without its title (seven rows, my panel beside it as tall:
    its title rule is my character's line), three rows of cards as one-line chips, a
    borderless command line; so an 80×24 terminal shows every panel and four rows of log."""

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
        log = EventLog(id="log", max_lines=500, page_keys="PgUp/PgDn")
        log.border_title = "log"
        yield log
        chat = EventLog(id="chat", max_lines=200, page_keys=CHAT_KEYS)
        chat.border_title = "chat"
        yield chat
        yield from self.compose_foot()

    def chat_wanted(self) -> bool:
        """Whether the chat pane is shown, at every size: only while someone else may read it
        or has written in it (another player seated, a spectator, a line said), so that at a
        table of bots the log has the whole width (play-test: three rows of log beside an
        empty chat box at 80x24; at 120x40 the box stayed, with no one to chat with)."""
        t, me = self.table, self.shipwreck.user
        others = any(
            s.kind == "human" and i != self.seat and s.player != me for i, s in enumerate(t.seats)
        )
        watched = any(w != me for w in t.watchers)
        return others or watched or self._chat_last is not None or bool(t.chat_for(me))

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
        h = 7 if self.compact else 10  # the title, header, rule, six seats; compact: header, seats
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
        its name alone (``mate: loyal``, dim) when ``bot loyal`` would not fit; then the bots
        go together at the end, each by its character's letter (``bots: M=loyal K=random``,
        the letters the cards use); only then is a name cut, and only when it keeps
        `BOT_NAME_KEPT` letters (play-test: ``sur… pre…`` read as nothing), else ``bot``."""
        board = self.query_one("#board", Board)
        spot = board.spot("seats") if board.size.width else None
        width = spot.width - 2 if spot is not None else None  # (not laid out yet: any)
        key = (self._seats_now(), self.seat, self.compact, width)
        if key == self._seats_drawn:  # (most changes at a table leave the seats as they were)
            return
        self._seats_drawn = key
        line = self._seat_line(0)
        for brief in (1, 2, 3, 4):
            if not self.compact or width is None or line.cell_len <= width:
                break
            if brief == 3 and self._bot_name_room(self._bots()) <= BOT_NAME_KEPT:
                continue  # (the names would be cut too short to read)
            line = self._seat_line(brief)
        self.show("seats", line, lambda: line)

    _seats_drawn: object = None
    """What the seats line was last made of (see :meth:`_seats_now`), with my seat, the
    layout and the width."""

    def _seats_now(self) -> tuple[object, ...]:
        """Everything :meth:`_seat_line` reads from the table and the lobby."""
        t, lobby = self.table, self.shipwreck.lobby
        return (
            t.started,
            tuple((s.kind, s.player, s.bot, s.connected, s.autopilot) for s in t.seats),
            tuple(t.seat_name(i) for i in range(len(t.seats))),
            tuple(rating_tag(lobby, t, i) for i in range(len(t.seats))),
        )

    def on_resize(self, _event: Resize) -> None:  # (Textual runs SeatScreen's too)
        """The seats line is fitted to the width: once the board has its new size."""
        self.call_after_refresh(self.refresh_seats)

    def _bots(self) -> list[int]:
        return [i for i, s in enumerate(self.table.seats) if s.kind == "bot"]

    def _seat_line(self, brief: int) -> Text:
        """The seats line; ``brief`` 0: each rated player's and bot's rating too; 1: a bot by
        its name alone (dim); 2: the bots together at the end by their characters' letters
        (``bots: M=loyal``); 3: a bot's name cut to what the row has room for (``loyal…``),
        seats one space apart; 4: a bot as ``bot``."""
        t = self.table
        cut = self._bot_name_room(self._bots()) if brief == 3 else 0
        gap = " " if brief >= 3 else "  " if self.compact else "   "
        line, grouped = Text(), Text()
        for i, s in enumerate(t.seats):
            name = t.seat_name(i)
            style = "yellow" if s.autopilot else ""
            if s.kind == "human":
                who = player_label(s, self.shipwreck.user)
            elif s.kind == "bot":
                bot = s.bot or "bot"
                if brief == 2:
                    letter = CHAR[name].letter if name in CHAR else f"{name}:"
                    grouped.append(f" {letter}")
                    grouped.append(f"={bot}" if name in CHAR else bot, style="dim")
                    continue
                short = bot if len(bot) <= cut else bot[: max(2, cut - 1)] + "…"
                who = (f"bot {bot}", bot, bot, short, "bot")[brief]
                style = "dim" if brief in (1, 3) else style
            else:
                who = f"free seat (bot {s.bot})" if t.started and not self.compact else "free seat"
                who = "free" if brief else who  # (its letters go to the bots' names)
            if brief == 0:  # (the shorter forms leave the ratings out)
                who += rating_tag(self.shipwreck.lobby, t, i)
            line.append(f"{name}: ", style="bold" if i == self.seat else "")
            line.append(who, style=style)
            line.append(gap)
        if grouped:
            line.append("bots:")
            line.append_text(grouped)
        line.rstrip()
        return line

    def _bot_name_room(self, bots: list[int]) -> int:
        """How many cells each bot's name may have for the compact seats line to fit its
        row (the rest of the line as :meth:`_seat_line` draws it with 1-letter names)."""
        board = self.query_one("#board", Board)
        spot = board.spot("seats") if board.size.width else None
        if spot is None or not bots:
            return 0
        rest = self._seat_line(4).cell_len - 3 * len(bots)  # ("bot" in each bot's place)
        return (spot.width - 2 - rest) // len(bots)

    def action_chat_page(self, pages: int) -> None:
        """Ctrl+↑ / Ctrl+↓: page the chat (PgUp / PgDn page the game's log)."""
        self.chat_log().page(pages)

    def complete(self, text: str) -> list[str]:
        options = [] if self.seat is None else complete(text, self.table.view(self.seat))
        options = self.complete_words(text, options)
        self.show_options(options)
        return options

    def numbered_seats(self) -> dict[int, int]:
        """The boat's ``#``: 1 at the bow (a character's place, which changes as they swap
        seats), and the table seat of the player holding her."""
        view = cast(LifeboatView, self.table.view(self.seat))
        return {c.seat: c.player for c in view.characters}

    def paint_key(self, view: LifeboatView) -> object:
        return (view, self.seat, self.compact, self.chat_wanted(), self._seats_now())

    def paint(self, view: LifeboatView) -> None:
        self.set_class(not self.chat_wanted(), "-no-chat")
        me = part("spectator", "", rank=7)
        if view.me:
            me = part(f"you are {view.me}", view.me, "", rank=7)
        signed_in = self.shipwreck.signed_in_line()
        title = table_title(self.table.name, self.table.game, me, signed_in=signed_in)
        self.show_title((view.me, signed_in), title, view)
        self.refresh_seats()
        compact = self.compact

        def shared(key: Hashable, make: Callable[[], RenderableType | None]) -> SharedRender:
            return SharedRender((LIFEBOAT.name, key, compact), lambda: make() or "")

        people = (view.characters, view.actor, view.navigator, view.me)
        self.show("boat", people, lambda: R.boat(view, compact))
        mine = [c for c in view.characters if c.id == view.me]
        states = tuple((c.id, c.state) for c in view.characters)  # (my score now counts deaths)
        self.show("me", (mine, states), lambda: R.me_panel(view, compact))
        # The fight and the navigation cards: keyed on exactly what they draw, so that they are
        # drawn once for every seat whose key is the same (`SharedRender`: most of the time the
        # whole table; a seat's own cards or offer are in its key, and so drawn for it alone).
        fight = view.fight and (view.fight, states)
        self.fight_shown(view.fight is not None)
        self.show("fight", fight, lambda: shared(("fight", fight), lambda: R.fight(view, compact)))
        nav = (view.birds, view.round, view.phase, view.navigation_table, view.drawn)
        started = self.table.started
        offer = (view.supply_offer, started)
        nav_key = ("nav", nav, offer, states)
        draw_nav = lambda: R.navigation(view, compact, started)  # noqa: E731
        self.show("nav", nav_key, lambda: shared(nav_key, draw_nav))
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
