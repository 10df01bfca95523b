"""A bot's ``on offer:`` runs at a live table (issue 20: an offer to a bot stayed pending for
good, so four shipped bots' handlers never ran). LB-13: an offer waits for its target's
``accept`` or ``decline``; the bot seat's script gives it."""

from __future__ import annotations

import asyncio
import random

from paths import ROOT

from shipwreck.games.lifeboat.view import LifeboatView
from shipwreck.lang.bots import BotScript, load_source
from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.runtime.table import LoopTurns

HOARDER_SEAT = 1


def _to_my_turn_with_an_item(table: Table, seat: int = 0) -> tuple[LifeboatView, str]:
    """Play ``seat`` with random legal answers until it is its turn and it holds an item."""
    pick = random.Random(2)
    for _ in range(500):
        view = table.view(seat)
        assert isinstance(view, LifeboatView)
        me = next(c for c in view.characters if c.id == view.me)
        items = [*me.revealed, *(me.hidden or ())]
        if view.step == "turn" and view.actor == view.me and items and view.fight is None:
            return view, str(items[0]).split(":")[0]
        if view.choices:
            assert table.submit(seat, pick.choice(list(view.choices))).ok
    raise AssertionError("never my turn with an item")


def _offer_to_hoarder(table: Table) -> tuple[str, str]:
    """ann (seat 0) offers her first item to the hoarder's character as a gift (no ask): the
    hoarder's ``on offer:`` accepts gifts (``when trade.ask == none -> accept``)."""
    view, item = _to_my_turn_with_an_item(table)
    target = table.seat_name(HOARDER_SEAT)
    done = table.submit_text(0, f"offer {item} to {target}")
    assert done.ok, done.message
    return item, target


def _lobby_table(schedule: LoopTurns | None = None) -> Table:
    lobby = Lobby(seed=3, schedule=schedule)
    seats = [SeatSpec("human"), SeatSpec("bot", "hoarder"), SeatSpec("bot", "loyal")]
    seats.append(SeatSpec("bot", "survivor"))
    return lobby.create_table("lifeboat", seats, creator="ann", seed=5)


def test_lb13_a_bot_answers_an_offer_with_its_on_offer_handler() -> None:
    table = _lobby_table()
    before = len(table.commands)
    item, target = _offer_to_hoarder(table)
    answers = [(s, text) for s, text in table.commands[before:] if s == HOARDER_SEAT]
    assert "accept" in [t.split()[0] for _, t in answers], table.commands[before:]
    assert not any(p.kind == "offer" for p in table.rules.prompts(table.state))
    bot = table.bots[HOARDER_SEAT]
    entry = next(e for e in reversed(bot.trace) if e.decision == "offer")
    lines = (ROOT / "bots" / "hoarder.bot").read_text().splitlines()
    accepting = next(n for n, line in enumerate(lines, 1) if "ask == none -> accept" in line)
    assert entry.rule is not None and entry.rule.endswith(f"hoarder.bot:{accepting}"), entry
    assert entry.command == "accept" and entry.note == ""


async def test_lb13_at_a_live_table_the_bot_answers_on_a_later_turn_of_the_loop() -> None:
    """The server's way: bots move in slices on the loop's turns (LoopTurns), through a
    search-capable path (``Table._bot_think``). Before the fix the offer stayed pending and this
    timed out."""
    table = _lobby_table(LoopTurns())
    async with asyncio.timeout(30):
        while True:  # the bots' first moves
            waiting = table.waiting_for_players()
            if waiting:
                break
            await asyncio.sleep(0.01)
        pick = random.Random(2)
        while True:
            view = table.view(0)
            assert isinstance(view, LifeboatView)
            me = next(c for c in view.characters if c.id == view.me)
            items = [*me.revealed, *(me.hidden or ())]
            if view.step == "turn" and view.actor == view.me and items and view.fight is None:
                break
            if view.choices and any(p.seat == 0 for p in table.rules.prompts(table.state)):
                assert table.submit(0, pick.choice(list(view.choices))).ok
            await asyncio.sleep(0.005)
        item = str(items[0]).split(":")[0]
        target = table.seat_name(HOARDER_SEAT)
        before = len(table.commands)
        assert table.submit_text(0, f"offer {item} to {target}").ok
        while any(p.kind == "offer" for p in table.rules.prompts(table.state)):
            await asyncio.sleep(0.01)
    answers = [t for s, t in table.commands[before:] if s == HOARDER_SEAT]
    assert answers and answers[0].split()[0] == "accept"


def test_an_offer_a_bot_has_no_answer_for_stays_open_and_is_not_asked_at_every_turn() -> None:
    """A script without ``on offer:`` leaves the offer open (the safe default: LB-13 lets it
    wait) and the table goes on; its bot is asked again only once the game has moved on."""
    lobby = Lobby(seed=3)
    lobby.book.local["mute"] = _script('bot "Mute" for lifeboat\non turn:\n    else -> rest\n')
    seats = [SeatSpec("human"), SeatSpec("bot", "mute"), SeatSpec("bot", "loyal")]
    seats.append(SeatSpec("bot", "survivor"))
    table = lobby.create_table("lifeboat", seats, creator="ann", seed=5)
    _offer_to_hoarder(table)  # (to the mute bot in the hoarder's seat)
    assert any(p.kind == "offer" and p.seat == 1 for p in table.rules.prompts(table.state))
    asked = [e for e in table.bots[1].trace if e.decision == "offer"]
    assert len(asked) == 1 and asked[0].command is None
    table._run_bots()  # nothing changed: not asked again
    assert len([e for e in table.bots[1].trace if e.decision == "offer"]) == 1


def _script(source: str) -> BotScript:
    return load_source(source, "mute.bot")
