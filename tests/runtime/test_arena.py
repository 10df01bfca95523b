"""``shipwreck arena``: seeded tournaments between real bots on the real engine, rated with
openskill; worker processes and a real local Dask cluster give the same results."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from shipwreck.arena.league import ahead_from, format_league, league
from shipwreck.arena.match import ArenaBot, GameRecord, count_faults, fault, schedule
from shipwreck.arena.plot import svg
from shipwreck.arena.ratings import Rating
from shipwreck.arena.tournament import Tournament, load, load_bots, play
from shipwreck.cli import main
from shipwreck.lang.bots import TraceEntry, load_source, shipped_bot
from shipwreck.sim import play_seated, simulate_bots

LAZY = """bot "Lazy" for lifeboat
# rows on its turn; takes water when it is badly hurt (never, in practice); nothing else
on turn:
    else -> row
on supply:
    when me.wounds > 99 -> take water
"""


def _table(out: str) -> list[str]:
    """The league table's lines, without the timing line (which varies run to run)."""
    return [line for line in out.splitlines() if not line.startswith("games=")]


def test_seats_rotate_so_every_bot_holds_every_seat_equally() -> None:
    for bots, seats in ((2, 6), (4, 6), (7, 6), (3, 4)):
        jobs = schedule(bots * 3, 10, seats, bots)
        assert [j.seed for j in jobs] == list(range(10, 10 + bots * 3))
        for seat in range(seats):
            held = [j.order[seat] for j in jobs]
            assert sorted(set(held)) == list(range(bots))
            assert len({held.count(b) for b in range(bots)}) == 1  # equally often


def test_arena_prints_a_league_table_and_plays_sims_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["arena", "hoarder", "random", "--games", "30", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "lifeboat: 30 games of 6 seats from seed 1"
    assert "rating" in lines[1] and "μ ± σ" in lines[1] and "spread" in lines[1]
    assert lines[2].split()[:2] == ["1", "hoarder"]  # the better bot on top
    assert lines[3].split()[:2] == ["2", "random"]
    assert "win rate by seat (seat 1 first):" in lines
    assert "default moves (from the bots' traces):" in lines
    assert lines[-1].startswith("games=30 seconds=") and "workers=1" in lines[-1]
    assert "\x1b" not in out  # not a terminal: no progress bar, no colour
    # the same games as `shipwreck sim --bots` (same seeds, same seats, same dice)
    sim = {s.bot: s for s in simulate_bots("lifeboat", 30, ["hoarder", "random"], seed=1).standings}
    t = play("lifeboat", load_bots("lifeboat", ["hoarder", "random"]), 30, 1, 6)
    for row in league(t).rows:
        other = sim[row.bot.lower()]
        assert row.seat_games == other.seat_games == 90
        assert row.wins == pytest.approx(other.wins)
        assert row.mean_score == pytest.approx(other.mean_score)


def test_results_are_the_same_whatever_the_number_of_workers() -> None:
    bots = load_bots("lifeboat", ["hoarder", "random", "loyal"])
    one = play("lifeboat", bots, 24, 7, 6, workers=1)
    two = play("lifeboat", bots, 24, 7, 6, workers=2)
    three = play("lifeboat", bots, 24, 7, 6, workers=3)
    assert [g.no for g in one.games] == list(range(24))
    assert one.games == two.games == three.games
    assert format_league(one, league(one)) == format_league(two, league(two))
    assert league(one).history == league(three).history
    other_seed = play("lifeboat", bots, 24, 8, 6, workers=2)
    assert other_seed.games != one.games


def test_json_file_rerates_to_the_same_table_and_replays_the_same_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "t.json"
    args = ["arena", "survivor", "predator", "--games", "12", "--seed", "4", "--seats", "5"]
    assert main([*args, "--json", str(f)]) == 0
    played = _table(capsys.readouterr().out)
    data = json.loads(f.read_text())
    assert [g["seed"] for g in data["games"]] == list(range(4, 16))
    first = data["games"][0]
    assert len(first["seats"]) == len(first["scores"]) == len(first["ranks"]) == 5
    assert {b["name"] for b in data["bots"]} == {"survivor", "predator"}
    assert all(b["source"].startswith("bot ") for b in data["bots"])  # replayable alone

    assert main(["arena", "--rerate", str(f)]) == 0
    assert _table(capsys.readouterr().out) == played

    assert main(["arena", "--replay", str(f)]) == 0
    assert capsys.readouterr().out.strip() == "all 12 games came out the same"

    data["games"][3]["scores"][0] += 1  # a record the games do not bear out
    f.write_text(json.dumps(data))
    assert main(["arena", "--replay", str(f)]) == 1
    assert capsys.readouterr().out.strip() == "1 of 12 games came out different: 3"


def test_default_moves_are_counted_from_the_bots_traces(tmp_path: Path) -> None:
    lazy = tmp_path / "lazy.bot"
    lazy.write_text(LAZY)
    t = play("lifeboat", load_bots("lifeboat", [str(lazy), "random"]), 6, 2, 6)
    rows = {r.bot: r for r in league(t).rows}
    assert rows["lazy"].faults.get("no handler", 0) > 0  # keep, navigate, respond, fight, …
    assert rows["lazy"].faults.get("no match", 0) > 0  # its one supply rule never holds
    assert "error" not in rows["lazy"].faults
    assert rows["random"].faults == {}
    lines = format_league(t, league(t))
    said = next(line for line in lines if line.strip().startswith("lazy") and "no" in line)
    assert f"no handler {rows['lazy'].faults['no handler']}" in said


def _inside_the_frame(root: ET.Element) -> None:
    """Every line and band of a chart lies inside its frame (the second rectangle)."""
    ns = "{http://www.w3.org/2000/svg}"
    frame = root.findall(f"{ns}rect")[1]
    x0, y0 = float(frame.get("x", 0)), float(frame.get("y", 0))
    x1, y1 = x0 + float(frame.get("width", 0)), y0 + float(frame.get("height", 0))
    for shape in root.findall(f".//{ns}polyline") + root.findall(f".//{ns}polygon"):
        for point in shape.get("points", "").split():
            x, y = map(float, point.split(","))
            assert x0 <= x <= x1 and y0 <= y <= y1, point


def test_plot_is_an_svg_with_a_line_per_bot(tmp_path: Path) -> None:
    bots = load_bots("lifeboat", ["hoarder", "random"])
    t = play("lifeboat", bots, 10, 1, 6)
    text = svg(league(t).history, "a <test> & more")
    root = ET.fromstring(text)  # well-formed, the title escaped
    ns = "{http://www.w3.org/2000/svg}"
    lines = root.findall(f".//{ns}polyline")
    assert len(lines) == 2
    for line in lines:
        assert len(line.get("points", "").split()) == 11  # the start and each of 10 games
    _inside_the_frame(root)
    # a rating that stays close: the newcomer's wide start still fits
    _inside_the_frame(ET.fromstring(svg({"A": [Rating(25.0, 1.0, n) for n in (1, 2, 3)]}, "")))
    legend = [e.text or "" for e in root.iter(f"{ns}text")]
    assert any(s.startswith("hoarder ") for s in legend)
    assert any(s.startswith("random ") for s in legend)
    out = tmp_path / "r.svg"
    assert main(["arena", "hoarder", "random", "--games", "4", "--plot", str(out)]) == 0
    assert ET.parse(out).getroot().tag == f"{ns}svg"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nosuch"], "there is no shipped bot 'nosuch'"),
        (["sm_raider"], "plays spanish_main, not lifeboat"),
        (["hoarder", "--seats", "9"], "lifeboat is played by 4 to 6 seats, not 9"),
        (["hoarder", "--games", "0"], "--games must be at least 1"),
        (["hoarder", "--workers", "0"], "--workers must be at least 1"),
        ([], "name at least one bot"),
        (["--rerate", "/nonexistent/t.json"], "cannot read"),
        (["hoarder", "--json", "/nonexistent/t.json"], "its folder does not exist"),
    ],
)
def test_mistakes_are_one_line_errors(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", "--games", "2", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err
    assert len(captured.err.strip().splitlines()) == 1
    assert captured.err.startswith("shipwreck arena: ")


def test_two_different_bots_with_one_name_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.bot", tmp_path / "b.bot"
    a.write_text(LAZY)
    b.write_text(LAZY.replace("else -> row", "else -> rest"))
    assert main(["arena", str(a), str(b), "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "two different bots both called 'lazy'" in err
    # the same bot twice is one entrant
    same = tmp_path / "same.bot"
    same.write_text(LAZY)
    assert [x.name for x in load_bots("lifeboat", [str(a), str(same), "random"])] == [
        "lazy",
        "random",
    ]


def test_a_script_that_fails_bot_check_is_refused_with_its_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.bot"
    bad.write_text('bot "Bad" for lifeboat\non turn:\n    else -> fly away\n')
    assert main(["bot", "check", str(bad)]) == 1
    checked = capsys.readouterr().out.strip()
    assert main(["arena", str(bad), "random", "--games", "1"]) == 2
    assert capsys.readouterr().err.strip() == f"shipwreck arena: {checked}"


def test_a_file_that_is_not_a_tournament_is_a_clean_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "x.json"
    f.write_text('{"hello": 1}')
    assert main(["arena", "--rerate", str(f)]) == 2
    assert "not a tournament file written by --json" in capsys.readouterr().err
    f.write_text("not json")
    assert main(["arena", "--replay", str(f)]) == 2
    assert "not JSON" in capsys.readouterr().err
    with pytest.raises(ValueError, match="not JSON"):
        load(f)


def test_a_terminal_sees_a_progress_bar(tmp_path: Path) -> None:
    """On a terminal (a real pty), a Rich bar shows games done, the rate and the time left;
    the final table follows."""
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS="100", LINES="30", TERM="xterm-256color")
    proc = subprocess.Popen(
        [sys.executable, "-m", "shipwreck", "arena", "hoarder", "random", "--games", "60"],
        stdout=slave,
        stderr=slave,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    assert proc.wait(timeout=60) == 0
    os.close(master)
    out = b"".join(chunks).decode("utf-8", "replace")
    assert "games/s" in out  # the bar's rate
    assert "/60" in out  # games done of all
    assert "lifeboat: 60 games of 6 seats from seed 1" in out


def test_ahead_from_finds_when_the_better_bot_is_ahead_with_confidence() -> None:
    """Synthetic records (rating logic only): A beats B in every game but one in six."""
    games = [
        GameRecord(
            no=g,
            seed=g,
            seats=["A", "B"],
            characters=["red", "blue"],
            scores=[1, 2] if g % 6 == 5 else [2, 1],
            winners=[g % 6 != 5, g % 6 == 5],
            ranks=[2, 1] if g % 6 == 5 else [1, 2],
            faults=[{}, {}],
        )
        for g in range(60)
    ]
    bots = [ArenaBot("A", "a.bot", ""), ArenaBot("B", "b.bot", "")]
    t = Tournament("spanish_main", 0, 2, bots, games)
    n = ahead_from(t, "A", "B")
    assert n is not None and 1 < n < 60
    assert ahead_from(t, "B", "A") is None
    ratings = league(t).history
    a, b = ratings["A"][n - 1], ratings["B"][n - 1]
    assert a.mu - b.mu > 1.96 * (a.sigma**2 + b.sigma**2) ** 0.5
    for m in range(n, 60):  # and ever since
        a, b = ratings["A"][m], ratings["B"][m]
        assert a.mu - b.mu > 1.96 * (a.sigma**2 + b.sigma**2) ** 0.5
    a, b = ratings["A"][n - 2], ratings["B"][n - 2]
    assert a.mu - b.mu <= 1.96 * (a.sigma**2 + b.sigma**2) ** 0.5


def test_each_kind_of_default_move_is_told_apart() -> None:
    """A guard that fails at run time is an 'error' (played for real, without the lint: the
    lint may come to refuse this script); the runner's other notes map to their reasons."""
    err = load_source(
        'bot "Err" for lifeboat\non turn:\n    when "knife" in me.hidden -> row\n'
        "    else -> rest\n",
        "err.bot",
    )
    _, _, players = play_seated("lifeboat", 3, [err, shipped_bot("random")], [0, 1] * 3)
    counted = count_faults(players[0].trace)
    assert counted["error"] > 0 and counted["no handler"] > 0
    assert count_faults(players[1].trace) == {}
    notes = {
        "line 3: over the budget of 5000 steps: safe default": "budget",
        "line 3: arithmetic needs whole numbers: safe default": "error",
        "no 'on keep:' handler: safe default": "no handler",
        "no rule matched: safe default": "no match",
        "refused (you cannot row now): safe default": "refused",
        "nothing to choose from: safe default": "other",
        "": None,
    }
    for note, kind in notes.items():
        assert fault(TraceEntry(1, "turn", None, None, note)) == kind, note
