"""``shipwreck arena --cluster``: a real Dask scheduler and two worker processes, started here,
play the same games as this process does, and the league comes out the same."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from shipwreck.arena.league import format_league, league
from shipwreck.arena.tournament import load_bots, play
from shipwreck.cli import main

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        assert len(cluster.workers) == 2
        yield cluster.scheduler_address


def test_a_dask_cluster_plays_the_same_games_as_this_process(scheduler: str) -> None:
    bots = load_bots("lifeboat", ["hoarder", "random", "survivor"])
    here = play("lifeboat", bots, 30, 11, 6)
    there = play("lifeboat", bots, 30, 11, 6, cluster=scheduler)
    assert [g.no for g in there.games] == list(range(30))
    assert there.games == here.games
    assert format_league(there, league(there)) == format_league(here, league(here))
    with distributed.Client(scheduler) as client:  # both workers compiled the bots: both played
        counts = client.run(_bots_compiled)
    assert len(counts) == 2
    assert all(n == 3 for n in counts.values())


def _bots_compiled() -> int:
    from shipwreck.arena.match import compiled

    return compiled.cache_info().currsize


def test_the_command_line_runs_on_the_cluster(
    scheduler: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["arena", "sm_hauler", "sm_raider", "--game", "spanish_main", "--games", "8"]
    assert main(args) == 0
    here = capsys.readouterr().out.splitlines()
    assert main([*args, "--cluster", scheduler]) == 0
    there = capsys.readouterr().out.splitlines()
    assert there[:-1] == here[:-1]
    assert there[-1].endswith(f"cluster={scheduler}")
    assert here[0] == "spanish_main: 8 games of 2 seats from seed 1"
