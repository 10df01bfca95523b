"""What one table change costs the apps that show it, in one process, without SSH.

    .venv/bin/python bench/render.py --apps 6 --changes 200
    .venv/bin/python bench/render.py --apps 6 --changes 200 --profile 25
    .venv/bin/python bench/render.py --play --changes 200
    .venv/bin/python bench/render.py --memory      # also the memory each app holds (slower)
    .venv/bin/python bench/render.py --keys 400    # what echoing one typed key costs
    .venv/bin/python bench/render.py --no-patches  # on Textual's own code (the server's isn't)

Six ``ShipwreckApp`` sessions (120×40) sit at one Lifeboat table; one of them types ``say``
lines, each a public table change every app must show (or, with ``--play``, whoever must
decide types one of its choices, key by key, as a game goes). Their driver is Textual's
headless one, except that it says it is not headless, so each frame is turned into the bytes
a terminal would get (and counted, then dropped): the app-side cost of the SSH load test
without the network. Printed: CPU per change (all six apps), the objects the garbage
collector tracks per app (after the first, which pays for one-off caches), and the bytes a
terminal would get; with ``--memory``, the memory (tracemalloc) each app after the first
holds once seated, and the biggest holders by source line.
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
import tracemalloc
from typing import Any

from textual import events
from textual.drivers.headless_driver import HeadlessDriver

from shipwreck.lang import format_command
from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.tui import ShipwreckApp
from shipwreck.tui._textual import install_patches

SIZE = (120, 40)


class Sent:
    """What a terminal would have been sent, in bytes; ``frame`` is set at each write."""

    total = 0
    frame: asyncio.Event | None = None


def count_frames() -> None:
    """Make Textual's headless driver (which ``run_test`` always uses) say it is not headless,
    so that each frame is rendered to terminal bytes, and count those bytes."""

    def write(self: HeadlessDriver, data: str) -> None:
        Sent.total += len(data.encode())
        if Sent.frame is not None:
            Sent.frame.set()

    HeadlessDriver.is_headless = property(lambda self: False)  # type: ignore[assignment,method-assign]
    HeadlessDriver.write = write  # type: ignore[method-assign]


async def run(args: argparse.Namespace) -> None:
    lobby = Lobby(seed=1)
    names = [f"p{i}" for i in range(args.apps)]
    seats = [SeatSpec("human")] + [SeatSpec("empty") for _ in names[1:]]
    table = lobby.create_table("lifeboat", seats, creator=names[0], seed=7)
    for n in names[1:]:
        assert table.sit(table.free_seats()[0], n) is None
    memory: list[str] = []  # printed once the apps are gone (a running app captures stdout)
    if args.memory:
        tracemalloc.start()
    async with contextlib.AsyncExitStack() as stack:
        pilots = []
        for i, n in enumerate(names):
            if i == 1:  # the first app paid for the imports and the one-off caches
                await pilots[0].pause()
                gc.collect()
                before = len(gc.get_objects())
                snap0 = tracemalloc.take_snapshot() if args.memory else None
            app = ShipwreckApp(lobby, n, open_table=table.id)
            pilots.append(await stack.enter_async_context(app.run_test(size=SIZE)))
        for p in pilots:
            await p.pause()
        gc.collect()
        more = args.apps - 1
        per_app = (len(gc.get_objects()) - before) / more
        if snap0 is not None:
            diff = tracemalloc.take_snapshot().compare_to(snap0, "lineno")
            tracemalloc.stop()
            held = sum(d.size_diff for d in diff)
            memory.append(
                f"memory each app after the first holds, seated: {held / more / 1024:.0f} KiB"
            )
            for d in diff[:12]:
                frame = d.traceback[0]
                where = f"{frame.filename.split('site-packages/')[-1]}:{frame.lineno}"
                memory.append(f"  {d.size_diff / more / 1024:7.1f} KiB  {where}")
        seat = table.seat_of_player(names[0])
        assert seat is not None
        prof = cProfile.Profile() if args.profile else None
        Sent.total = 0
        cpu = time.process_time()
        if prof:
            prof.enable()
        rng = random.Random(1)
        if args.keys:  # one session types, a key at a time, each waiting for its echo
            Sent.frame = asyncio.Event()
            text = ("say hello there " * (args.keys // 16 + 1))[: args.keys]
            for ch in text:
                Sent.frame.clear()
                pilots[0].app.post_message(events.Key("space" if ch == " " else ch, ch))
                await asyncio.wait_for(Sent.frame.wait(), 5)
        for i in range(0 if args.keys else args.changes):
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
        after = (len(gc.get_objects()) - before) / more
    print(*memory, sep="\n")
    if args.keys:
        print(
            f"one app, {args.keys} keys typed one by one: {cpu / args.keys * 1000:.2f} ms CPU "
            f"per key, {Sent.total / args.keys:.0f} bytes of echo per key"
        )
        return
    print(
        f"{args.apps} apps, {args.changes} changes: {cpu / args.changes * 1000:.1f} ms CPU per "
        f"change ({cpu / args.changes / args.apps * 1000:.2f} ms per app), "
        f"{Sent.total / args.changes / args.apps / 1024:.1f} KiB per app per change"
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
    ap.add_argument("--keys", type=int, default=0, help="type this many keys instead (echo)")
    ap.add_argument("--profile", type=int, default=0, metavar="K")
    ap.add_argument("--memory", action="store_true", help="measure memory per app (tracemalloc)")
    ap.add_argument("--no-patches", action="store_true", help="on Textual's own code (no fence)")
    args: Any = ap.parse_args()
    print("patches: none installed" if args.no_patches else install_patches())
    count_frames()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
