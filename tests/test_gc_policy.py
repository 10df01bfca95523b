"""The server's garbage-collection schedule (see shipwreck.server.gc_policy)."""

from __future__ import annotations

import gc
import weakref

from shipwreck.server.gc_policy import FullCollector, tune_gc


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_full_collection_comes_after_enough_ended_sessions_or_enough_time() -> None:
    clock, ended = Clock(), [0]
    collector = FullCollector(lambda: ended[0], every=600, after_ended=20, clock=clock)
    full_before = gc.get_stats()[2]["collections"]
    ended[0], clock.now = 19, 599.0
    assert collector.maybe_collect() is None  # neither limit reached: no pause
    assert gc.get_stats()[2]["collections"] == full_before
    ended[0] = 20
    assert collector.maybe_collect() is not None
    assert gc.get_stats()[2]["collections"] == full_before + 1
    assert collector.maybe_collect() is None  # counted again from this collection
    clock.now += 600
    assert collector.maybe_collect() is not None
    assert collector.collections == 2


def test_an_ended_sessions_cycles_are_freed_by_the_scheduled_collection() -> None:
    class Session:
        def __init__(self) -> None:
            self.me = self  # a cycle, as an ended app is

    ended = [0]
    collector = FullCollector(lambda: ended[0], every=10**9, after_ended=1)
    old = gc.get_threshold()
    tune_gc()
    try:
        assert gc.get_threshold()[2] >= 2**30  # Python never starts a full collection itself
        session = Session()
        ref = weakref.ref(session)
        gc.collect(1)  # it survives a young collection: now it is an old object
        del session  # the session ends; its cycle is garbage among the old objects
        gc.collect(1)
        assert ref() is not None  # young collections do not look at it
        ended[0] = 1
        assert collector.maybe_collect() is not None
        assert ref() is None
    finally:
        gc.unfreeze()
        gc.set_threshold(*old)


def test_the_servers_schedule_comes_from_server_toml() -> None:
    """The shipped server.toml documents the defaults, and the server uses what it says."""
    from pathlib import Path

    from shipwreck.config import Config, load_config
    from shipwreck.server.gc_policy import AFTER_ENDED, EVERY
    from shipwreck.server.service import Service

    shipped = load_config(Path(__file__).parent.parent / "server.toml")
    assert shipped == Config()  # every setting, not only these two
    assert (shipped.limits.full_gc_seconds, shipped.limits.full_gc_after_ended) == (
        EVERY,
        AFTER_ENDED,
    )
    config = Config()
    config.server.database = ":memory:"
    config.limits.full_gc_seconds, config.limits.full_gc_after_ended = 30, 3
    service = Service(config)
    try:
        assert (service.collector.every, service.collector.after_ended) == (30, 3)
    finally:
        service.store.close()
