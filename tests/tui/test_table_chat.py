"""Table chat lands in one place for everyone: a player's ``say`` and a spectator's ``say`` go
to the same panel (Lifeboat: the chat panel, at 80x24 too; Spanish Main: its log and chat),
never into the game's log for one and the chat for the other; a whisper reaches its two
parties only (play-test problem 10)."""

from __future__ import annotations

import pytest
from tui_helpers import lobby_with_table as lifeboat
from tui_helpers import screen_text, type_line

from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import SeatScreen
from shipwreck.tui.widgets import EventLog

SIZES = ((80, 24), (120, 40))


def panel(app: ShipwreckApp, wid: str) -> str:
    return "\n".join(line.plain for line in app.screen.query_one(f"#{wid}", EventLog).texts)


def spanish_main() -> tuple[Lobby, Table]:
    lobby = Lobby(seed=1)
    table = lobby.create_table(
        "spanish_main", [SeatSpec("human"), SeatSpec("empty")], creator="ann", seed=3
    )
    assert table.sit(1, "bob") is None
    return lobby, table


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ("lifeboat", "spanish_main"))
async def test_players_and_spectators_chat_in_the_same_place(
    size: tuple[int, int], game: str
) -> None:
    lobby, table = lifeboat(("ann", "bob")) if game == "lifeboat" else spanish_main()
    assert table.started, "the game runs: a player's 'say' was the game's before"
    where = "chat" if game == "lifeboat" else "log"
    ann = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    carol = ShipwreckApp(lobby, "carol")
    async with ann.run_test(size=size) as pa, carol.run_test(size=size) as pc:
        await type_line(pc, f"watch {table.id}")
        assert isinstance(carol.screen, SeatScreen) and carol.screen.seat is None
        assert isinstance(ann.screen, SeatScreen) and ann.screen.seat is not None
        await type_line(pa, "say Zc1 from a player")
        await type_line(pc, "say Zc2 from a spectator")
        await type_line(pa, "tell bob Zc3 psst")
        await pa.pause()
        await pc.pause()
        said = [(c.sender, c.to, c.text) for c in table.chat]
        assert said[:2] == [
            ("ann", None, "Zc1 from a player"),
            ("carol", None, "Zc2 from a spectator"),
        ]
        assert said[2][0] == "ann" and said[2][2] == "Zc3 psst"
        for app in (ann, carol):
            shown = panel(app, where)
            assert "Zc1 from a player" in shown and "Zc2 from a spectator" in shown, shown
            if game == "lifeboat":
                assert "Zc1" not in panel(app, "log"), "a player's say went to the game's log"
        assert "Zc3 psst" in panel(ann, where)
        assert "Zc3" not in screen_text(carol) and "Zc3" not in panel(carol, where)
        assert "Zc3 psst" not in [c.text for c in table.chat_for("carol")]
        assert "Zc3 psst" in [c.text for c in table.chat_for("bob")]
        if size == (80, 24):
            box = ann.screen.query_one(f"#{where}", EventLog).region
            assert box.width >= 20 and box.height >= 3, f"the chat is not on the screen: {box}"
