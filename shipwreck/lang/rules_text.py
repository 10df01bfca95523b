"""The rules as a player reads them in the app: a short "how to win" written for a newcomer,
then the project's own rules document (``docs/rules/``, shipped in the wheel) with what is
there for developers taken out: rule ids, "(filled)" marks, the note on sources, the oracles.

The documents stay the one source: the screen is made from them each time, so a rule changed
there is a rule changed here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from functools import cache

from shipwreck.games import registry as games
from shipwreck.games import title
from shipwreck.lang import registry
from shipwreck.resources import rules_dir


def game_named(word: str) -> str | None:
    """The game a player means by ``word`` after ``rules`` (a name or an alias), or None."""
    game = games.find(word)
    return game.name if game is not None else None


class _ByGame(Mapping[str, str]):
    """Game -> one of its language's texts, for every game that has it."""

    def __init__(self, field: Callable[[registry.AnyLang], str | None]) -> None:
        self.field = field

    def _texts(self) -> dict[str, str]:
        return {g.name: v for g in registry.all_langs() if (v := self.field(g))}

    def __getitem__(self, game: str) -> str:
        return self._texts()[game]

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts())

    def __len__(self) -> int:
        return len(self._texts())


LIFEBOAT_HOW_TO_WIN = """\
## How to win

- **The game ends when the boat reaches land**: the seagull track reaches **4** (navigation
  cards add or take away seagulls). Then everyone scores, and the highest score wins.
- **You score**: your survival bonus if you are alive; your treasure (cash, jewels,
  paintings), alive or dead; your **friend's** survival bonus if your friend is alive; your
  **enemy's** strength if your enemy is dead.
- Your friend and enemy are **secret**: only you know them. Your "you" panel shows them, what
  each is worth, your character's gift, and your **score now**: what you would score if the
  boat reached land this instant.
- **Each round**: take one supply card; take one action (`row`, `swap`, `rob`, `use` an item,
  or `rest`); then the **navigator** (the awake character nearest the stern, marked ⎈) picks a
  navigation card: its seagulls, who falls overboard, who is thirsty.
- Rowing (‖oar) and fighting (⚔) can make you thirsty: each thirst costs a water or a wound.
  Wounds equal to your strength knock you out; one more kills.
- Type a character by its short name, as the board shows it: `rob kid hidden`, `swap mate`.
"""

SPANISH_MAIN_HOW_TO_WIN = """\
## How to win

- **Bring home more than half of all the gold in play**, or be the last player with a ship
  that can still sail.
- Gold lies in face-down coins on the wild islands. **Dock** at one (sail until you touch it),
  **explore** it on your next turn to see and load its coins, then sail **home** and dock: the
  coins unload into your gold.
- On your turn each ship gets **one action**: move, shoot, explore or repair; then `end`.
- A ship's **move** is its base move: legs of **S** (5 units) or **L** (7 units), each turning up
  to 90°. Touching a ship or island stops it.
- Masts like `3:SLLS` are the ship's cannons, bow to stern: rank 3 (a die roll of 3 or more
  hits) and range S or L; `x` is a lost mast. A ship with no masts is derelict. `pts` is what a
  ship is worth (the tie-break).
"""

HOW_TO_WIN: Mapping[str, str] = _ByGame(lambda g: g.how_to_win)
"""Each game's "how to win", the first section of its rules screen."""

LIFEBOAT_LEGEND = """\
## The board

| mark | means |
|---|---|
| `mate: bot loyal` | who plays each character: a player, a bot (`loyal`), or `free` |
| `bots: M=loyal K=random` | narrow: the bots by their character's letter (M Mate, K Kid) |
| `#` | the seat, from the bow (1) to the stern |
| `character` (`who`): `mate` the First Mate | the bold word is the name you type: `swap mate` |
| `◂` | you |
| `⎈` beside a seat | the navigator: the awake one nearest the stern; picks the card |
| reversed name | whose turn it is, or who navigates now |
| `str` (`st`) | strength: what it adds to a fight; that many wounds knock it out |
| `●●○○` (`wounds`) | wounds out of strength: full = knocked out, one more = dead (`-` once dead) |
| `state` | `ok`; `unconscious` (`out`): no actions until a medkit wakes it; `dead` |
| `hid` | how many hidden items a character holds (only the holder knows what) |
| `marks`: `rowed`, `fought` (`row`, `fgt`) | done this round: a card's ‖oar or ⚔ makes it thirsty |
| `revealed` | items everyone sees it hold (an open umbrella, weapons shown in a fight) |
| `seagulls v v · ·` | the seagull track: at **4 = land**, the game ends and everyone scores |

## The "you" panel

| mark | means |
|---|---|
| `str`, `surv` (`survival`) | your strength; your survival bonus: what you score if alive |
| `hid` | your hidden items (only you see them) |
| `friend: kid +6 alive` | your secret friend: its survival bonus is yours if it is alive |
| `enemy: mate +8 dead` | your secret enemy: its strength is yours if it is dead |
| `score now` | what you would score if the boat reached land this instant, with its parts |

Three special cases change the sums:

- **Your friend is you**: your own survival bonus counts twice if you are alive.
- **Your enemy is you**: you score the strength of every character that dies, except you and
  your friend; your friend's survival bonus if it is alive; and **nothing for your own
  survival** (unless your friend is you too).
- **Your friend and enemy are both you**: your survival bonus once if you are alive, and the
  strength of every other character that dies.
- **Your friend is also your enemy** (someone else): its survival bonus if it is alive, or its
  strength if it is dead.

## Navigation cards

| mark | means |
|---|---|
| `#27` | the card's number: `keep 27`, `choose 27` |
| `≈ C,K` | who falls overboard (L Lauren, S Stephen, C Captain, M Mate, F Frenchy, K Kid) |
| `all`, `-` | everyone in the boat; nobody |
| `v +1` | a seagull: one step closer to land |
| `v̶ -1` | a crossed-out seagull: one step back |
| `thirst L,M` (`th`) | who is thirsty: each pays a water or takes a wound |
| `⚔` | everyone who fought this round is thirsty too |
| `‖oar` | everyone who rowed this round is thirsty too |

On a short terminal each card is one line (`#27 ≈C th F`); those that do not fit are counted
(`+2 more: F4`), and **F4** lists every card in words.
"""

LEGEND: Mapping[str, str] = _ByGame(lambda g: g.legend)
"""What every glyph on the board and the cards means (the legend, help and ``legend``)."""

_ID = r"(?:LB|SM)-\d+(?:\s*(?:\.\.|–|-|,)\s*(?:(?:LB|SM)-)?\d+)*"
_CLEAN: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"\*\*{_ID}\*\*\s*"), ""),
    (re.compile(rf"\*\*{_ID}\s+"), "**"),
    (re.compile(r"as in LB-1\b"), "in the characters' table"),
    (re.compile(rf"\s*\((?:see\s+)?{_ID}\)"), ""),
    (re.compile(rf",\s*{_ID}\)"), ")"),
    (re.compile(rf"^(#+\s+){_ID}\s+", re.M), r"\1"),
    (re.compile(r"\s*\*\*\(filled\)\*\*|\s*\(filled[^)]*\)"), ""),
    (re.compile(rf"\s*(?:see\s+)?{_ID}"), ""),
)


_FOR_DEVELOPERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\s*The seed\s+calls .*?open a cell\"\.", re.S), ""),
    (re.compile(r" \(the seed\)"), ""),
    (re.compile(r"\s*\(`hit_rule[^)]*\)"), ""),
    (
        re.compile(r"A table option `redeal_self` \(default off\)"),
        "A table setting (off unless chosen)",
    ),
    (re.compile(r" \(its seeded RNG\)"), ""),
    (re.compile(r"by the seeded RNG"), "at random"),
    (re.compile(r" \(floats, not a grid\)"), " (no grid)"),
    (re.compile(r"\s*\(the PC adaptation's rule, the default\)"), ""),
)
"""Notes in the rules documents for whoever builds the game (where a rule comes from, what a
setting is called in code): a player's screen leaves them out or says them in plain words."""


def _drop_column(text: str, header: str) -> str:
    """Markdown tables: drop the column named ``header``."""
    out, drop = [], None
    for line in text.splitlines():
        if not line.startswith("|"):
            drop = None
            out.append(line)
            continue
        cells = line.strip().strip("|").split("|")
        if drop is None:
            names = [c.strip() for c in cells]
            drop = names.index(header) if header in names else -1
        if drop >= 0 and drop < len(cells):
            del cells[drop]
        out.append("|" + "|".join(cells) + "|")
    return "\n".join(out)


def reader_text(game: str) -> str:
    """The rules document of ``game`` (a game's name) as a player reads it."""
    text = (rules_dir() / games.get(game).rules_file).read_text(encoding="utf-8")
    first = text.index("\n## ")  # the title and the note on sources go
    body = text[first + 1 :]
    oracles = re.search(r"^## \d+\. Oracles", body, re.M)
    if oracles:
        body = body[: oracles.start()]
    for pattern, repl in (*_CLEAN, *_FOR_DEVELOPERS):
        body = pattern.sub(repl, body)
    body = _drop_column(body, "Russian")
    body = body.replace("| id |", "| you type |")
    return body.rstrip() + "\n"


@cache
def rules_markdown(game: str) -> str:
    """How to win, then the rules: the rules screen's whole text (Markdown)."""
    return f"# {title(game)}: the rules\n\n{HOW_TO_WIN[game]}\n{reader_text(game)}"


@cache
def item_effects(game: str) -> dict[str, str]:
    """What each item does, from the items table of ``game``'s rules document (a table whose
    first column is ``item id``): id -> "Name: effect", rule ids taken out. Empty for a game
    without one. The F4 list of a supply offer names each item with it (a stranger saw only
    the items' names there)."""
    text = (rules_dir() / games.get(game).rules_file).read_text(encoding="utf-8")
    out: dict[str, str] = {}
    columns: list[str] | None = None
    for line in text.splitlines():
        if not line.startswith("|"):
            columns = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if columns is None:
            columns = cells
            continue
        if columns[:1] != ["item id"] or set(cells[0]) <= {"-"}:
            continue
        row = dict(zip(columns, cells, strict=False))
        effect = re.sub(r"\s*\([A-Z]{2}-\d+\)", "", row.get("effect", "")).strip()
        out[cells[0].strip("`")] = f"{row.get('name', '')}: {effect}"
    return out
