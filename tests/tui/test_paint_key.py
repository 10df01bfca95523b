"""A change that leaves a seat's view and its table's seats as they were is not painted again
(issue 21: a ``say`` had each of six screens paint every panel to find nothing new), and no
panel is ever left stale by it.

Played here: a Lifeboat game with random legal moves, says (LB-52's public log line), chat,
whispers, players going away and coming back, a spectator watching. After every change, the
screen's panels are compared with what a full paint from scratch draws."""

from __future__ import annotations

import random

from tui_helpers import SIZE, drawn, lobby_with_table

from shipwreck.lang import format_command
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import SeatScreen

HUMANS = ("ann", "bob", "cy", "dee", "eve", "fay")


def panels(app: ShipwreckApp, screen: SeatScreen) -> dict[str, list[str]]:
    """Every panel's rows as drawn, but the title's (its clocks tick on their own)."""
    shown = [wid for wid in screen.PANELS if wid != "title" and screen.panel_region(wid)]
    return {wid: drawn(app, screen.PANELS[wid], wid) for wid in shown}


async def test_a_change_that_leaves_the_view_as_it_was_paints_nothing_and_nothing_goes_stale() -> (
    None
):
    lobby, table = lobby_with_table(HUMANS, seed=4)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    rng = random.Random(2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SeatScreen)
        paints = 0
        paint = screen.paint

        def counted(view: object) -> None:
            nonlocal paints
            paints += 1
            paint(view)

        screen.paint = counted  # type: ignore[method-assign]
        changes = skipped = 0
        away: set[str] = set()
        unwatch = None
        for step in range(160):
            if table.over:
                break
            roll = rng.random()
            before = paints
            if roll < 0.45:  # whoever must decide answers
                deciding = [s for s in range(6) if table.view(s).choices]
                seat = rng.choice(deciding)
                choice = rng.choice(list(table.view(seat).choices))
                assert table.submit_text(seat, format_command(choice)).ok
            elif roll < 0.7:  # a say: a public log line, the view as it was
                table.submit_text(rng.randrange(6), f"say ahoy {step}")
            elif roll < 0.8:
                to = rng.choice([None, 0, 3])
                assert table.say(rng.choice(HUMANS[1:]), f"chat {step}", 1, to=to) is None
            elif roll < 0.9:
                who = rng.choice(HUMANS[1:])
                table.set_connected(who, who in away)
                away ^= {who}
            elif unwatch is None:
                unwatch = table.watch("zed")
            else:
                unwatch()
                unwatch = None
            await pilot.pause()
            changes += 1
            skipped += paints == before
            shown = panels(app, screen)
            screen._painted = None  # paint everything again, from nothing kept
            screen._keys.clear()
            screen.refresh_all()
            await pilot.pause()
            assert panels(app, screen) == shown, f"a panel was stale after step {step}"
        assert changes >= 100
        assert 20 <= skipped < changes  # the says and the whispers to others painted nothing
