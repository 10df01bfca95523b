"""Ratings (openskill Plackett–Luce) from real finished games, kept in a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from shipwreck.arena.ratings import Rating, ranks, rate_game, record_game
from shipwreck.lang.bots import shipped_bot
from shipwreck.sim import play_seated
from shipwreck.store import Entrant, Store
from shipwreck.store.db import CHAT_SCHEMA, SCHEMA

FIVE = ["hoarder", "loyal", "predator", "random", "survivor"]


def _real_game(seed: int) -> tuple[list[Entrant], list[int]]:
    """A whole Lifeboat game of the five shipped bots: who sat where, and their scores."""
    scripts = [shipped_bot(n) for n in FIVE]
    result, chars, _ = play_seated("lifeboat", seed, scripts, [0, 1, 2, 3, 4])
    return [Entrant("bot", n) for n in FIVE], [result.scores[chars[s]] for s in range(5)]


def test_a_real_finished_game_updates_every_seats_rating_and_a_restart_keeps_them(
    database: str,
) -> None:
    store = Store(database)
    seats, scores = _real_game(7)
    new = record_game(store.ratings, "lifeboat", seats, scores, "table 1")
    assert set(new) == set(seats)
    fresh = Rating()
    for e in seats:
        assert new[e].games == 1
        assert new[e].sigma < fresh.sigma  # every seat learned something
    # from equal ratings, a better score means a higher mu; equal scores an equal one
    for a in range(5):
        for b in range(5):
            if scores[a] > scores[b]:
                assert new[seats[a]].mu > new[seats[b]].mu
            elif scores[a] == scores[b]:
                assert new[seats[a]].mu == pytest.approx(new[seats[b]].mu)
    best = max(range(5), key=lambda s: scores[s])
    assert new[seats[best]].mu > fresh.mu
    store.close()

    again = Store(database)  # a restart: the ratings are on disk
    board = again.ratings.board("lifeboat")
    assert [r.entrant for r in board] == sorted(seats, key=lambda e: -new[e].ordinal)
    for row in board:
        assert (row.mu, row.sigma, row.games) == pytest.approx(
            (new[row.entrant].mu, new[row.entrant].sigma, 1)
        )
    seats2, scores2 = _real_game(8)
    second = record_game(again.ratings, "lifeboat", seats2, scores2, "table 2")
    assert all(r.games == 2 for r in second.values())
    history = again.ratings.history("lifeboat", Entrant("bot", "hoarder"))
    assert [(h.n, h.source) for h in history] == [(1, "table 1"), (2, "table 2")]
    assert history[1].mu == pytest.approx(second[Entrant("bot", "hoarder")].mu)
    assert again.ratings.board("spanish_main") == []  # per game
    again.close()


def test_ties_share_a_rank_and_move_alike() -> None:
    assert ranks([5, 9, 5, 1]) == [2, 1, 2, 4]
    assert ranks([3, 3, 3]) == [1, 1, 1]
    new = rate_game({}, ["a", "b", "c", "d"], [5, 9, 5, 1])
    assert new["a"] == new["c"]
    assert new["b"].mu > new["a"].mu > new["d"].mu
    # openskill's own tie handling left two tied winners below the third (its issue 155)
    top = rate_game({}, ["a", "b", "c", "d", "e"], [10, 10, 6, 4, 2])
    assert top["a"] == top["b"]
    assert top["a"].mu > top["c"].mu > top["d"].mu > top["e"].mu
    all_tied = rate_game({}, ["a", "b", "c"], [4, 4, 4])
    assert all(r.mu == pytest.approx(Rating().mu) for r in all_tied.values())


def test_a_game_that_names_its_winners_ranks_them_first() -> None:
    """SM-41: Spanish Main breaks a tie of gold; the named winner ranks above the other."""
    assert ranks([3, 3, 1], [False, True, False]) == [2, 1, 3]
    new = rate_game({}, ["red", "blue"], [3, 3], [False, True])
    assert new["blue"].mu > new["red"].mu


def test_a_bot_at_several_seats_gains_nothing_from_beating_itself() -> None:
    mirror = rate_game({}, ["a", "a"], [9, 1])
    assert mirror["a"].mu == pytest.approx(Rating().mu)
    assert mirror["a"].games == 1
    # two seats each beating the other bot's two count as more evidence than one seat each
    two = rate_game({}, ["a", "b", "a", "b"], [9, 1, 9, 1])
    one = rate_game({}, ["a", "b"], [9, 1])
    assert two["a"].mu - Rating().mu > one["a"].mu - Rating().mu > 0
    assert two["a"].sigma < Rating().sigma


def test_display_rating_is_openskills_ordinal() -> None:
    r = Rating(30.0, 2.0, 5)
    assert r.ordinal == pytest.approx(24.0)  # mu - 3 sigma
    assert r.shown() == "30.0 ± 2.0"
    assert Rating().ordinal == pytest.approx(0.0)


def test_a_database_made_before_ratings_gains_them_and_keeps_its_data(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    for schema in (SCHEMA, CHAT_SCHEMA):  # (their {id} and {real} words, where they have them)
        db.executescript(schema.replace("{id}", "INTEGER PRIMARY KEY").replace("{real}", "REAL"))
    db.execute(
        "INSERT INTO players (name, fingerprint, public_key, created) VALUES ('ann', 'f', 'k', 1)"
    )
    db.execute(
        "INSERT INTO tables (id, game, seed, seats, created) VALUES (1, 'lifeboat', 4, '[]', 1)"
    )
    db.commit()
    db.close()
    store = Store(path)
    assert store.player("ann") is not None
    assert store.tables() == [(1, "lifeboat", 4, "[]")]
    assert store.ratings.board("lifeboat") == []
    record_game(
        store.ratings,
        "lifeboat",
        [Entrant("player", "ann"), Entrant("bot", "loyal")],
        [10, 2],
        "table 1",
    )
    store.close()
    assert Store(path).ratings.get("lifeboat", Entrant("player", "ann")) is not None


def test_a_failed_write_stores_no_rating_at_all(database: str) -> None:
    store = Store(database)
    with pytest.raises(ValueError, match="player or a bot"):
        record_game(
            store.ratings,
            "lifeboat",
            [Entrant("bot", "loyal"), Entrant("robot", "x")],
            [3, 1],
            "table 1",
        )
    assert store.ratings.board("lifeboat") == []
    assert store.ratings.history("lifeboat", Entrant("bot", "loyal")) == []
