"""A tutorial is one player's, private (play-test): the lobby lists it only to its player, and
``join``/``watch`` of it by anyone else is refused in one line, nothing changed."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from tui_helpers import shown_rows

from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import AppScreen
from shipwreck.tui.lobby.screen import LobbyScreen


def lobby_with_a_tutorial() -> tuple[Lobby, int, int]:
    """A lobby with bob's Lifeboat table and tutee's tutorial: (lobby, bob's id, tutorial id)."""
    lobby = Lobby(seed=1)
    specs = [SeatSpec("human"), *[SeatSpec("bot", "survivor")] * 3]
    table = lobby.create_table("lifeboat", specs, creator="bob")
    tutorial = lobby.create_tutorial("lifeboat", "tutee")
    return lobby, table.id, tutorial.id


def test_the_listing_shows_a_tutorial_to_its_player_only() -> None:
    lobby, public, private = lobby_with_a_tutorial()
    assert {r[0] for r in lobby.listing_for("tutee")} == {str(public), str(private)}
    for other in ("bob", "carol"):
        assert {r[0] for r in lobby.listing_for(other)} == {str(public)}
    tutorial = lobby.get(private)
    assert tutorial is not None
    assert lobby.entry_refusal(tutorial, "tutee") is None
    said = lobby.entry_refusal(tutorial, "carol")
    assert said is not None and "private" in said and "new tutorial" in said
    table = lobby.get(public)
    assert table is not None and lobby.entry_refusal(table, "carol") is None


async def type_line(pilot: Pilot[Any], line: str) -> None:
    await pilot.press(*line, "enter")
    await pilot.pause()


async def test_another_player_neither_sees_nor_joins_nor_watches_a_tutorial() -> None:
    """carol's lobby at 80x24 lists bob's table, not tutee's tutorial; 'watch N' and 'join N'
    of the tutorial say why in one line and leave her in the lobby, its seats as they were;
    bob's table she may watch."""
    lobby, public, private = lobby_with_a_tutorial()
    tutorial = lobby.get(private)
    assert tutorial is not None
    seats, listeners = [s.player for s in tutorial.seats], len(tutorial.listeners)
    app = ShipwreckApp(lobby, "carol", "SHA256:carol")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = "\n".join(shown_rows(app))
        assert "bob" in text and "tutee" not in text, text
        for word in ("watch", "join"):
            await type_line(pilot, f"{word} {private}")
            assert isinstance(app.screen, LobbyScreen), word
            screen = app.screen
            assert isinstance(screen, AppScreen)
            said = " ".join(screen.panel_text("error").split())
            assert f"table {private} is another player's tutorial, and private" in said, said
        assert [s.player for s in tutorial.seats] == seats
        assert len(tutorial.listeners) == listeners, "a screen follows the tutorial"
        await type_line(pilot, f"watch {public}")  # (another table: watched as ever)
        assert not isinstance(app.screen, LobbyScreen)
