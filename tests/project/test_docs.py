"""The docs name everything a newcomer can use: every bot name, attribute, function and
decision is documented in docs/bots.md, and the README's three-line bot really works."""

from __future__ import annotations

import re

from paths import ROOT

from shipwreck.lang.bots import BotPlayer, load_source
from shipwreck.lang.bots import lifeboat_env as env
from shipwreck.sim import default_seats, play_bots

BOTS_MD = (ROOT / "docs" / "bots.md").read_text()
README = (ROOT / "README.md").read_text()


def test_every_bot_name_attribute_and_function_is_documented() -> None:
    missing = [n for n in env.NAME_HELP if f"`{n}`" not in BOTS_MD]
    missing += [a for a in env.ALL_ATTRS if f"`.{a}`" not in BOTS_MD]
    missing += [f for f in env.FUNCTIONS if f"`{f}(" not in BOTS_MD]
    missing += [d for d in env.DECISIONS if f"`on {d}:`" not in BOTS_MD]
    assert not missing, f"undocumented in docs/bots.md: {missing}"


def _blocks(text: str) -> list[str]:
    return re.findall(r"```\n(bot \".*?)```", text, flags=re.S)


def test_docs_and_readme_bots_load_and_play() -> None:
    blocks = _blocks(BOTS_MD) + _blocks(README)
    assert len(blocks) >= 3
    for source in blocks:
        script = load_source(source, "<docs>")
        seats = default_seats(script.game)
        players = [BotPlayer(script, seed=i) for i in range(seats)]
        result, _ = play_bots(script.game, 5, players, seats)
        assert result.scores
        for bp in players:  # every decision the example handles, it answers itself
            assert not [e for e in bp.trace if e.note and e.decision in script.handlers]
