"""Screens that teach the game without leaving it: the rules (made from the project's own rules
documents, with a "how to win" first) and the Lifeboat legend of glyphs.

Both are long pages in a small box: the line that says how to close stays at the top, above the
scrolling text, so it is seen at 80×24 without scrolling.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.markdown import Markdown
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.events import Key
from textual.widgets import Static

from shipwreck.games import title
from shipwreck.games.registry import all_games, default_game
from shipwreck.lang.rules_text import LEGEND, game_named, rules_markdown
from shipwreck.tui.handoff import HandsKeysOn

RULES_KEY = "f2"
LEGEND_KEY = "f3"


def rules_game(word: str | None, default: str) -> str | None:
    """The game ``rules WORD`` asks for (``None``: the table's or the lobby's default); ``None``
    if ``WORD`` names no game."""
    if not word:
        return default
    return game_named(word.strip().lower())


RULES_USAGE = "rules for which game? 'rules lifeboat' or 'rules sm'"


class ReadingBox(Vertical):
    """The box of a page to read over the screen (the rules, the legend, the ladder): a hint
    line that stays at the top (how to close it, seen at 80×24 without scrolling) above the
    scrolling text."""

    DEFAULT_CSS = """
    ReadingBox {
        width: 96%;
        max-width: 104;
        height: 96%;
        border: thick $primary;
        background: $surface;
        padding: 0 1;
    }
    ReadingBox #reading-hint {
        height: 1;
        color: $text-muted;
    }
    ReadingBox #reading-body {
        height: 1fr;
    }
    """

    def __init__(self, hint: str, body: RenderableType) -> None:
        super().__init__(id="reading")
        self.hint = hint
        self.body = body

    def compose(self) -> ComposeResult:
        yield Static(self.hint, id="reading-hint")  # first: seen without scrolling
        with VerticalScroll(id="reading-body"):
            yield Static(self.body, id="reading-text")

    def scroll_rows(self, rows: int) -> None:
        body = self.query_one("#reading-body", VerticalScroll)
        body.scroll_relative(y=rows, animate=False, immediate=True)

    def show(self, hint: str, body: RenderableType) -> None:
        """Another page in the same box, from its top."""
        self.hint, self.body = hint, body
        self.query_one("#reading-hint", Static).update(hint)
        self.query_one("#reading-text", Static).update(body)
        self.query_one("#reading-body", VerticalScroll).scroll_home(animate=False)


SCROLL_BINDINGS = [
    Binding("up", "scroll(-1)", show=False),
    Binding("down", "scroll(1)", show=False),
    Binding("pageup", "scroll(-10)", show=False),
    Binding("pagedown", "scroll(10)", show=False),
]
"""The keys that scroll a :class:`ReadingBox` (its screen's ``action_scroll``)."""


class ReadingScreen(HandsKeysOn[None]):
    """A long text to read: Escape closes; ↑ ↓ PgUp PgDn Home End scroll. Typing closes it
    too, and what is typed goes on the command line below (:class:`HandsKeysOn`): a player who
    reads the rules and then types a command must not lose it on this page (play-test: four
    commands typed over F1-F4 vanished)."""

    DEFAULT_CSS = """
    ReadingScreen {
        align: center middle;
    }
    """
    BINDINGS = [
        Binding("escape", "close", "close"),
        *SCROLL_BINDINGS,
        Binding("home", "scroll(-100000)", show=False),
        Binding("end", "scroll(100000)", show=False),
    ]
    HINT = "Escape closes · ↑ ↓ PgUp PgDn scroll"
    OWN_KEYS: frozenset[str] = frozenset()
    """Printable keys this page keeps for itself (the rules' ``g``): every other closes it."""

    def __init__(self, title: str, markdown: str) -> None:
        super().__init__()
        self.title_text = title
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        body = Markdown(self.markdown, code_theme="ansi_dark")
        yield ReadingBox(f"{self.title_text} — {self.HINT}", body)

    def closes_on(self, event: Key) -> bool:
        return event.key == "escape" or (
            event.is_printable and event.character is not None and event.key not in self.OWN_KEYS
        )

    def action_scroll(self, rows: int) -> None:
        self.query_one(ReadingBox).scroll_rows(rows)

    def action_close(self) -> None:
        self.close_by_key()


class RulesScreen(ReadingScreen):
    """A game's rules: how to win, then the whole rules document, ids and notes left out. ``g``
    shows the other game's."""

    BINDINGS = [Binding("g", "other_game", "other game")]
    OWN_KEYS = frozenset({"g"})

    def __init__(self, game: str) -> None:
        super().__init__(f"{title(game)} rules", rules_markdown(game))
        self.HINT = f"{ReadingScreen.HINT} · g: {title(_next_game(game))}"
        self.game = game

    def action_other_game(self) -> None:
        self.app.switch_screen(RulesScreen(_next_game(self.game)))


def _next_game(game: str) -> str:
    """The game after ``game`` (with rules to read), round the registry: ``g`` on the rules."""
    names = [g.name for g in all_games() if g.rules_file]
    return names[(names.index(game) + 1) % len(names)] if game in names else names[0]


class LegendScreen(ReadingScreen):
    """What every glyph on the Lifeboat board and its cards means."""

    def __init__(self, game: str | None = None) -> None:
        game = game or default_game().name
        super().__init__(f"{title(game)}: what the marks mean", LEGEND[game])


SEAT_CODES = "seats: H a player · B a bot · . a free seat"
"""What the letters of the lobby's ``seats`` column mean, one letter a seat in seat order
(``HBB.``): under the list of tables, and in the lobby's legend."""

LOBBY_LEGEND = f"""\
## The list of tables

| column | means |
|---|---|
| `id` | the table's number: `join 3` sits there, `watch 3` watches, `open 3` goes back |
| `game` | Lifeboat or Spanish Main (a tutorial is yours alone) |
| `seats` | a letter a seat, in order: `H` a player, `B` a bot, `.` a free seat (`join ID`) |
| `round` | the round the game is in |
| `status` | see below |
| `players` | who plays there; `your turn` where a game waits for you |

A table's status:

- `waiting`: its host has not started it yet (free seats wait for players)
- `open`: running, with a free seat
- `running`: every seat taken
- `paused`: its one player is away
- `over`: the game has ended
- `empty`: everyone left before it started

Under the list: `{SEAT_CODES}`.

At a table, **F3** shows what its own marks mean: Lifeboat's board and cards, or Spanish
Main's ships and goal.
"""
"""What the lobby's marks mean: F3 in the lobby (a table's F3 explains that table's board)."""


class LobbyLegendScreen(ReadingScreen):
    """The lobby's F3: what its list of tables says (the seat letters ``HBB.``, the statuses)."""

    def __init__(self) -> None:
        super().__init__("The lobby: what the list says", LOBBY_LEGEND)


class CardsScreen(ReadingScreen):
    """The navigation cards a Lifeboat seat sees, in words, and the supply passed to it (F4:
    for when a short terminal shows only some of them)."""

    def __init__(self, markdown: str, title: str = "Navigation cards") -> None:
        super().__init__(title, markdown)
