"""The lobby's ``ladder [GAME]``: a game's ratings, best first, with the player's own place.

The ratings are the server's (:mod:`shipwreck.runtime.ladder`, kept by the store); a lobby
without a store (``shipwreck play`` on one's own terminal) has none, and the screen says so.
The screen reads the store once when it opens (and again for ``g``, the other game): it is a
picture of the ladder, not a live view, so a busy server pays nothing while it is open.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding

from shipwreck.games import title
from shipwreck.games.registry import all_games, default_game, find
from shipwreck.runtime import Lobby
from shipwreck.runtime.ladder import Place, ladder, nobody_rated, seat_rating
from shipwreck.runtime.seat_link import SeatLink
from shipwreck.tui.base import ClosingModal
from shipwreck.tui.learn import SCROLL_BINDINGS, ReadingBox

if TYPE_CHECKING:
    from shipwreck.tui.lobby.screen import LobbyScreen

TOP = 100
"""The places listed (the screen scrolls); the player's own place is added below if lower."""

USAGE = "ladder for which game? 'ladder lifeboat' or 'ladder sm'"


def short_rating(lobby: Lobby, table: SeatLink, seat: int) -> str:
    """The display rating of whoever plays ``seat`` in ``table``'s game, rounded (``"12"``),
    or ``""`` if they have none (the ladder screen has the details)."""
    rating = seat_rating(lobby.store.ratings if lobby.store is not None else None, table, seat)
    return "" if rating is None else str(round(rating.ordinal))


def rating_tag(lobby: Lobby, table: SeatLink, seat: int) -> str:
    """What a seats line adds to a seat whose player or bot has a rating: `` (rated 12)``."""
    short = short_rating(lobby, table, seat)
    return f" (rated {short})" if short else ""


def ladder_game(word: str | None) -> str | None:
    """The game ``ladder WORD`` asks for (the default game if none), or ``None`` if ``WORD``
    names no game."""
    if not word:
        return default_game().name
    found = find(word.strip().lower())
    return found.name if found is not None else None


def other_game(game: str) -> str:
    """The game after ``game`` round the registry (``g`` on the ladder)."""
    names = [g.name for g in all_games()]
    return names[(names.index(game) + 1) % len(names)] if game in names else names[0]


def _who(p: Place) -> str:
    return p.entrant.name + (" (bot)" if p.entrant.kind == "bot" else "")


def ladder_table(best: list[Place], mine: Place | None) -> RenderableType:
    """The places as a table: rank, who, the display rating, ``μ ± σ`` and games; the
    player's own row stands out, and comes last (after a gap) when it is below the top."""
    t = RichTable(box=box.SIMPLE_HEAD, expand=True, show_edge=False, pad_edge=False)
    t.add_column("#", justify="right", no_wrap=True)
    t.add_column("who", no_wrap=True, overflow="ellipsis", ratio=1)
    t.add_column("rating", justify="right", no_wrap=True)
    t.add_column("μ ± σ", no_wrap=True)
    t.add_column("games", justify="right", no_wrap=True)
    below = mine is not None and all(p.entrant != mine.entrant for p in best)
    for p in [*best, mine] if below and mine is not None else best:
        if p is mine and below:
            t.add_row("…", "", "", "", "", style="dim")
        style = "bold yellow" if mine is not None and p.entrant == mine.entrant else ""
        t.add_row(
            str(p.place),
            _who(p),
            f"{p.rating.ordinal:.1f}",
            p.rating.shown(),
            str(p.rating.games),
            style=style,
        )
    return t


def your_place(game: str, mine: Place | None) -> Text:
    """The line under the table: the player's place and how much their last game moved it."""
    if mine is None:
        return Text(
            f"you have no {title(game)} rating yet: finish a game with another player or a bot",
            style="dim",
        )
    moved = "" if mine.change is None else f", {mine.change:+.1f} in your last game"
    return Text(f"you are #{mine.place}{moved}", style="bold yellow")


def ladder_body(lobby: Lobby, game: str, player: str) -> RenderableType:
    """What the screen shows under its hint: how to read the rating, the table, your place."""
    if lobby.store is None:
        return Text(
            "no ladder here: ratings are kept by a Shipwreck server, for the games played there"
        )
    best, mine = ladder(lobby.store.ratings, game, player, top=TOP)
    intro = Text("rating = μ − 3σ: the skill the games are sure of", style="dim")
    if not best:
        empty = Text(nobody_rated(game))
        return Group(intro, Text(""), empty)
    return Group(intro, ladder_table(best, mine), Text(""), your_place(game, mine))


class LadderScreen(ClosingModal):
    """``ladder [GAME]``: a game's ratings, in the reading pages' box (:class:`ReadingBox`).
    Escape, Enter or q goes back to the lobby; ``g`` shows the next game's; ↑ ↓ PgUp PgDn
    scroll."""

    DEFAULT_CSS = """
    LadderScreen {
        align: center middle;
    }
    """
    BINDINGS = [Binding("g", "other_game", "other game"), *SCROLL_BINDINGS]

    def __init__(self, lobby: Lobby, player: str, game: str) -> None:
        super().__init__()
        self.lobby = lobby
        self.player = player
        self.game = game

    def hint(self) -> str:
        return (
            f"{title(self.game)} ladder — Escape: back · g: {title(other_game(self.game))}"
            " · ↑ ↓ PgUp PgDn scroll"
        )

    def compose(self) -> ComposeResult:
        yield ReadingBox(self.hint(), ladder_body(self.lobby, self.game, self.player))

    def action_scroll(self, rows: int) -> None:
        self.query_one(ReadingBox).scroll_rows(rows)

    def action_other_game(self) -> None:
        self.game = other_game(self.game)
        self.query_one(ReadingBox).show(
            self.hint(), ladder_body(self.lobby, self.game, self.player)
        )


def show_ladder(screen: LobbyScreen, word: str | None) -> None:
    """``ladder [GAME]`` typed in the lobby: the ladder over it, or a one-line error."""
    game = ladder_game(word)
    if game is None:
        screen.error(USAGE)
        return
    app = screen.shipwreck
    app.push_screen(LadderScreen(app.lobby, app.user, game))
