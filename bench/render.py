"""What one table change costs the apps that show it, in one process, without SSH.

    .venv/bin/python bench/render.py --apps 6 --changes 200
    .venv/bin/python bench/render.py --apps 6 --changes 200 --profile 25
    .venv/bin/python bench/render.py --play --changes 200

Six headless ``ShipwreckApp`` sessions (120×40) sit at one Lifeboat table; one of them types
``say`` lines, each a public table change every app must show (or, with ``--play``, whoever
must decide types one of its choices, key by key, as a game goes). Textual's headless driver
renders every frame in full (it only throws the bytes away), so this is the app-side cost of
the SSH load test without the network. Printed: CPU per change (all six apps), the objects
the garbage collector tracks per app, and the bytes each frame would have sent to a terminal
(counted with a driver that keeps them).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import pstats
import random
import time
from typing import Any

from textual.drivers.headless_driver import HeadlessDriver

from shipwreck.lang import format_command
from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.tui import ShipwreckApp

SIZE = (120, 40)


class CountingDriver(HeadlessDriver):
    """Counts what a terminal would have been sent."""

    sent = 0

    def write(self, data: str) -> None:
        CountingDriver.sent += len(data.encode())


async def run(args: argparse.Namespace) -> None:
    lobby = Lobby(seed=1)
    names = [f"p{i}" for i in range(args.apps)]
    seats = [SeatSpec("human")] + [SeatSpec("empty") for _ in names[1:]]
    table = lobby.create_table("lifeboat", seats, creator=names[0], seed=7)
    for n in names[1:]:
        assert table.sit(table.free_seats()[0], n) is None
    gc.collect()
    before = len(gc.get_objects())
    async with contextlib.AsyncExitStack() as stack:
        pilots = []
        for n in names:
            app = ShipwreckApp(lobby, n, open_table=table.id)
            app.driver_class = CountingDriver  # type: ignore[misc]
            pilots.append(await stack.enter_async_context(app.run_test(size=SIZE)))
        for p in pilots:
            await p.pause()
        gc.collect()
        per_app = (len(gc.get_objects()) - before) / args.apps
        seat = table.seat_of_player(names[0])
        assert seat is not None
        prof = cProfile.Profile() if args.profile else None
        CountingDriver.sent = 0
        cpu = time.process_time()
        if prof:
            prof.enable()
        rng = random.Random(1)
        for i in range(args.changes):
            if args.play:
                if table.over:
                    break
                for name, pilot in zip(names, pilots, strict=True):
                    choices = table.view(table.seat_of_player(name)).choices
                    if choices:
                        await pilot.press(*format_command(rng.choice(list(choices))), "enter")
                        break
            else:
                r = table.submit_text(seat, f"say hello{i}")
                assert r.ok, r.message
            for p in pilots:
                await p.pause()
        if prof:
            prof.disable()
        cpu = time.process_time() - cpu
        gc.collect()
        after = (len(gc.get_objects()) - before) / args.apps
    print(
        f"{args.apps} apps, {args.changes} changes: {cpu / args.changes * 1000:.1f} ms CPU per "
        f"change ({cpu / args.changes / args.apps * 1000:.2f} ms per app), "
        f"{CountingDriver.sent / args.changes / args.apps / 1024:.1f} KiB per app per change"
    )
    print(f"gc-tracked objects per app: {per_app:.0f} seated, {after:.0f} after the changes")
    if prof:
        st = pstats.Stats(prof)
        st.sort_stats("tottime").print_stats(args.profile)
        st.sort_stats("cumulative").print_stats(args.profile)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--apps", type=int, default=6)
    ap.add_argument("--changes", type=int, default=100)
    ap.add_argument("--play", action="store_true", help="play random choices, not say")
    ap.add_argument("--profile", type=int, default=0, metavar="K")
    args: Any = ap.parse_args()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
