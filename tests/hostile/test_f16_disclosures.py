"""Audit F16: a refusal showed the owner's key fingerprint, every user name tried before login
was stored, ``_by_key``/``_by_address`` were never pruned, and ``allow_guests`` did nothing."""

from __future__ import annotations

from pathlib import Path

import asyncssh

from shipwreck.config import Config, load_config
from shipwreck.server.limits import Counts, TokenBuckets, WrongKeys
from shipwreck.server.service import Service
from shipwreck.server.ssh import ClientKey

from harness import BYSTANDER_KEY, Bystander, eventually
from sshclient import connect, open_terminal

ANN_KEY = asyncssh.generate_private_key("ssh-ed25519")
EVE_KEY = asyncssh.generate_private_key("ssh-ed25519")


async def test_a_taken_name_is_refused_without_the_owners_fingerprint(
    service: Service, bystander: Bystander
) -> None:
    ann = await open_terminal(service.port, "ann", ANN_KEY)
    await ann.term.wait_for("signed in as ann")
    ann.close()
    eve = await open_terminal(service.port, "ann", EVE_KEY)
    await eve.term.wait_for("belongs to another key")
    seen = eve.term.plain_bytes()
    assert ANN_KEY.get_fingerprint("sha256") not in seen and "SHA256:" not in seen
    assert f"pick another name, e.g. ssh -p {service.port} ann2@127.0.0.1" in seen
    eve.close()
    mine = BYSTANDER_KEY.get_fingerprint("sha256")
    await eventually(
        lambda: service.open_sessions() == ({mine: 1}, {"127.0.0.1": 1}),
        what="ann's and eve's entries pruned at zero",
    )
    bystander.check()


async def test_names_tried_at_authentication_are_not_stored(service: Service) -> None:
    """Authentication only reads: 10,000 names tried leave no entry; a refused sign-in does."""
    key = ClientKey.from_ssh_key(EVE_KEY)
    for i in range(10_000):
        assert service.authorize(f"user{i}", key)
    assert len(service._wrong_keys) == 0
    for _ in range(3):
        async with await connect(service.port, "nobody_here", EVE_KEY):
            pass
    assert len(service._wrong_keys) == 0


def test_the_bookkeeping_is_bounded() -> None:
    tries = WrongKeys(seconds=60, max_entries=100)
    for i in range(1000):
        tries.add(f"name{i}", now=float(i))
    assert len(tries) <= 100 and tries.count("name999", now=999.0) == 1
    assert tries.count("name0", now=999.0) == 0
    buckets = TokenBuckets(per_minute=60, burst=2, max_entries=100)
    for i in range(1000):
        assert buckets.take(f"10.0.{i // 256}.{i % 256}", now=float(i)) == 0.0
    assert len(buckets) <= 101
    counts = Counts()
    counts.add("a")
    counts.add("a")
    counts.remove("a")
    assert counts.as_dict() == {"a": 1}
    counts.remove("a")
    assert counts.as_dict() == {} and len(counts) == 0


def test_token_buckets_say_when_to_come_back() -> None:
    buckets = TokenBuckets(per_minute=30, burst=2)
    assert buckets.take("k", now=0.0) == 0.0 and buckets.take("k", now=0.0) == 0.0
    assert buckets.take("k", now=0.0) == 2.0  # one token every 2 s
    assert buckets.take("k", now=1.5) == 0.5
    assert buckets.take("k", now=2.0) == 0.0


def test_allow_guests_in_an_old_server_toml_is_ignored_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "server.toml"
    path.write_text("[server]\nallow_guests = false\n")
    warnings: list[str] = []
    assert load_config(path, warnings.append) == Config()
    assert warnings == [f"{path}: [server] allow_guests is no longer used; remove it"]
    shipped = (Path(__file__).parent.parent.parent / "server.toml").read_text()
    assert "allow_guests" not in shipped
