"""The server's garbage-collection schedule (see shipwreck.server.gc_policy)."""

from __future__ import annotations

import gc
import weakref

import msgspec
from paths import ROOT

from shipwreck.server.gc_policy import FREEZE_AFTER, FullCollector, tune_gc, untune_gc


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


def test_ended_sessions_never_make_collections_closer_than_the_min_gap() -> None:
    """A stream of ended sessions (or a stranger signing in and out) must not pause every
    table over and over: after a collection, the next waits ``min_gap`` seconds however many
    sessions end meanwhile (measured: 1.2 s a pause once 200 had left,
    ``bench/ssh_load.py --sessions 200``)."""
    clock, ended = Clock(), [0]
    collector = FullCollector(lambda: ended[0], every=600, after_ended=20, clock=clock, min_gap=60)
    clock.now, ended[0] = 60.0, 20
    assert collector.maybe_collect() is not None
    for t in range(1, 60):
        clock.now, ended[0] = 60.0 + t, 20 + 20 * t  # twenty more end every second
        assert collector.maybe_collect() is None, t
    clock.now = 120.0
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
        untune_gc(old)


class Cycle:
    def __init__(self) -> None:
        self.me = self


def test_what_survives_young_collections_is_frozen_and_a_full_collection_still_frees_it() -> None:
    """While the server's schedule is in force, the collector freezes what survived
    ``FREEZE_AFTER`` young collections (young collections no longer walk it); a cycle frozen
    and then dropped (an ended session's app) is still freed by the next full collection."""
    ended = [0]
    collector = FullCollector(lambda: ended[0], every=10**9, after_ended=1)
    old = gc.get_threshold()
    tune_gc()
    try:
        assert collector.maybe_collect() is None
        assert collector.freezes == 0  # no young collection yet: nothing to freeze
        session = Cycle()
        ref = weakref.ref(session)
        frozen = gc.get_freeze_count()
        for _ in range(FREEZE_AFTER):
            gc.collect(0)
        assert collector.maybe_collect() is None  # no full collection due: a freeze
        assert collector.freezes == 1
        assert gc.get_freeze_count() > frozen
        assert collector.maybe_collect() is None  # not again before more young collections
        assert collector.freezes == 1
        del session  # the session ends: its cycle is garbage among the frozen objects
        gc.collect(1)
        assert ref() is not None  # young collections do not look at frozen objects
        ended[0] = 1
        assert collector.maybe_collect() is not None  # due: unfreeze, collect, freeze
        assert ref() is None
        assert gc.get_freeze_count() > 0  # what survived is frozen again
    finally:
        untune_gc(old)


def test_without_the_servers_schedule_nothing_is_frozen() -> None:
    """A process that did not call ``tune_gc`` (tests running a server) collects as Python
    does: the collector never freezes, so a dropped cycle is freed by any full collection."""
    collector = FullCollector(lambda: 0, every=10**9, after_ended=1)
    kept = Cycle()
    ref = weakref.ref(kept)
    for _ in range(FREEZE_AFTER + 1):
        gc.collect(0)
    assert collector.maybe_collect() is None
    assert collector.freezes == 0
    assert gc.get_freeze_count() == 0
    del kept
    gc.collect()
    assert ref() is None


def test_the_servers_schedule_comes_from_server_toml() -> None:
    """The shipped server.toml documents the defaults, and the server uses what it says."""

    from shipwreck.config import Config, load_config
    from shipwreck.games.registry import default_timers
    from shipwreck.server.gc_policy import AFTER_ENDED, EVERY, MIN_GAP
    from shipwreck.server.service import Service

    shipped = load_config(ROOT / "server.toml")
    # [timers] lists every kind of decision at the games' own defaults (Config() has none
    # over them); every other setting is the default too, not only these two
    assert shipped.timers == default_timers()
    assert msgspec.structs.replace(shipped, timers={}) == Config()
    limits = shipped.limits
    assert (limits.full_gc_seconds, limits.full_gc_after_ended, limits.full_gc_min_seconds) == (
        EVERY,
        AFTER_ENDED,
        MIN_GAP,
    )
    config = Config()
    config.server.database = ":memory:"
    config.limits.full_gc_seconds, config.limits.full_gc_after_ended = 30, 3
    config.limits.full_gc_min_seconds = 5
    service = Service(config)
    try:
        collector = service.collector
        assert (collector.every, collector.after_ended, collector.min_gap) == (30, 3, 5)
    finally:
        service.store.close()
