"""Game files: export, read, replay to the identical final state; stepping in the app."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import pytest

from shipwreck import replay
from shipwreck.cli import main
from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.store import Store
from shipwreck.tui.replay import ReplayApp, ReplayScreen

BOTS = ("survivor", "loyal", "random", "hoarder", "predator")


def finished_game(tmp_path: Path, seed: int) -> tuple[Store, Table]:
    store = Store(tmp_path / f"s{seed}.db")
    lobby = Lobby(seed=seed)
    lobby.attach_store(store)
    seats = [SeatSpec("human")] + [SeatSpec("bot", b) for b in BOTS]
    table = lobby.create_table("lifeboat", seats, creator="ann")
    pick = random.Random(seed)
    while not table.over:
        assert table.submit(0, pick.choice(list(table.view(0).choices))).ok
    return store, table


@pytest.mark.parametrize("seed", range(100))
def test_export_then_replay_gives_the_identical_final_state(tmp_path: Path, seed: int) -> None:
    store, table = finished_game(tmp_path, seed)
    path = tmp_path / "game.json"
    replay.write(replay.export_table(store, table.id), path)
    again = replay.table_at(replay.read(path))
    assert msgspec.json.encode(again.state) == msgspec.json.encode(table.state)
    assert again.over


def test_cli_export_and_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store, table = finished_game(tmp_path, 5)
    out = tmp_path / "t.json"
    assert main(["export", str(table.id), "--db", store.path, "-o", str(out)]) == 0
    assert replay.read(out).commands == table.commands
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["replay", str(bad)]) == 2
    assert "not a game file" in capsys.readouterr().err
    assert main(["export", "99", "--db", store.path]) == 2


async def test_stepping_through_a_replay(tmp_path: Path) -> None:
    store, table = finished_game(tmp_path, 7)
    gf = replay.export_table(store, table.id)
    app = ReplayApp(gf)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.step == 0
        await pilot.press("right", "right", "right")
        assert screen.step == 3
        assert len(screen.table.commands) == 3
        await pilot.press("end")
        await pilot.pause()
        assert screen.table.over
