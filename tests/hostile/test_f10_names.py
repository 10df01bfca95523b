"""Audit F10: ``Alice`` and ``ALICE`` (and ``aIice``) were players apart from ``alice``; and the
issue's property: the names authentication lets through are exactly the valid ones."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import asyncssh
import pytest
from hypothesis import given
from hypothesis import strategies as st

from shipwreck.config import Config
from shipwreck.names import PLAYER_NAME, skeleton, valid_player_name
from shipwreck.server.service import Service
from shipwreck.server.ssh import ClientKey, LiveApps
from shipwreck.store import Store

from harness import Bystander, make_config
from sshclient import open_terminal

ALICE_KEY = asyncssh.generate_private_key("ssh-ed25519")
MALLORY_KEY = asyncssh.generate_private_key("ssh-ed25519")
LOOKALIKES = ["Alice", "ALICE", "aIice", "a1ice", "AL1CE"]


def test_lookalike_names_share_a_skeleton() -> None:
    assert {skeleton(n) for n in [*LOOKALIKES, "alice"]} == {skeleton("alice")}
    assert skeleton("b0b") == skeleton("BOB") != skeleton("bab")


async def test_a_name_like_a_taken_one_is_refused_without_the_owners_key(
    service: Service, bystander: Bystander
) -> None:
    alice = await open_terminal(service.port, "alice", ALICE_KEY)
    await alice.term.wait_for("signed in as alice")
    alice.close()
    for name in LOOKALIKES:
        impostor = await open_terminal(service.port, name, MALLORY_KEY)
        await impostor.term.wait_for("who is already here")
        line = impostor.term.plain_bytes().strip()
        assert line == (
            f"shipwreck: the name '{name}' is too like 'alice', who is already here; "
            f"pick another name, e.g. ssh -p {service.port} {name}2@127.0.0.1"
        )
        impostor.close()
        assert service.store.player(name) is None
    mine = await open_terminal(service.port, "ALICE", ALICE_KEY)  # the owner, miscapitalised
    await mine.term.wait_for(f"you are 'alice' here: ssh -p {service.port} alice@127.0.0.1")
    assert "SHA256:" not in mine.term.plain_bytes()
    mine.close()
    assert service.live.started_total == 2  # the bystander and alice, nobody else
    bystander.check()


def test_an_old_database_gets_skeletons_and_keeps_its_players(tmp_path: Path) -> None:
    """A database from before skeletons: the column is added and filled, names that already
    collide keep working for their owners, and the name is unique from then on."""
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE players (name TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, "
        "public_key TEXT NOT NULL, created REAL NOT NULL)"
    )
    for i, (name, fp) in enumerate([("Alice", "fa"), ("ALICE", "fb"), ("bob", "fc")]):
        db.execute("INSERT INTO players VALUES (?, ?, 'k', ?)", (name, fp, float(i)))
    db.commit()
    db.close()
    store = Store(path)
    assert store.identify("Alice", "fa", "k").ok and store.identify("ALICE", "fb", "k").ok
    refused = store.identify("alice", "fd", "k")
    assert not refused.ok and "too like 'Alice'" in refused.message
    assert not store.identify("B0B", "fd", "k").ok
    indexes = {row[1] for row in store.db.execute("PRAGMA index_list(players)")}
    assert "players_skeleton" in indexes
    store.close()
    reopened = Store(path)  # (migrating twice changes nothing)
    assert reopened.identify("ALICE", "fb", "k").ok
    reopened.close()


_ANY_KEY = ClientKey.from_ssh_key(MALLORY_KEY)


@pytest.fixture(scope="module")
def fresh_service() -> Iterator[Service]:
    """A server not listening: only its authentication is asked."""
    config: Config = make_config(Path("/nonexistent"))
    config.server.database = ":memory:"
    service = Service(config, live=LiveApps())
    yield service
    service.store.close()


@given(name=st.one_of(st.text(max_size=40), st.from_regex(PLAYER_NAME, fullmatch=True)))
def test_authentication_lets_through_exactly_the_valid_names(
    fresh_service: Service, name: str
) -> None:
    assert fresh_service.authorize(name, _ANY_KEY) == valid_player_name(name)
    if valid_player_name(name):
        assert name.isascii() and 1 <= len(name) <= 32
        assert all(c.isalnum() or c in "-_" for c in name)
