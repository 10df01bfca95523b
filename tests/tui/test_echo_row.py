"""The command line's echo drawn without Rich's console is the row Textual draws (issue 21:
echoing a typed key was a third of a key's cost on the server).

``echo_row`` imitates ``Input.render_line`` for the usual line; every case it takes must give
the same strip, and every case it does not imitate (a selection, a suggestion, a wide or
control character, an empty line) must be left to Textual."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Input

from shipwreck.tui._textual import FENCE
from shipwreck.tui._textual.echo import EchoStyles, echo_row
from shipwreck.tui.widgets import CommandLine


class LineApp(App[None]):
    def compose(self) -> ComposeResult:
        yield CommandLine(run=lambda _line: None, id="command", placeholder="type here")
        yield Input(id="other")


def textual_row(line: CommandLine) -> object:
    return Input.render_line(line, 0)


CASES = ["a", "say hello", "move rat dock SL", "x" * 150, "shoot A at B, at C with 2"]


@pytest.mark.parametrize("width", [80, 30])
async def test_the_echo_is_textuals_row_for_every_cursor_place_focus_and_blink(width: int) -> None:
    assert FENCE.active("echo_row")
    app = LineApp()
    async with app.run_test(size=(width, 10)) as pilot:
        line = app.query_one(CommandLine)
        compared, scrolled = 0, 0
        for value in CASES:
            for focus in (True, False):
                (line if focus else app.query_one("#other", Input)).focus()
                await pilot.pause()
                line.value = value
                for at in sorted({0, 1, len(value) // 2, len(value) - 1, len(value)}):
                    line.cursor_position = at
                    for blink_on in (True, False):
                        line._cursor_visible = blink_on
                        await pilot.pause()
                        mine = echo_row(line, EchoStyles())
                        assert mine is not None, (value, focus, at)
                        assert mine == textual_row(line), (value, focus, at, blink_on)
                        assert mine.text == textual_row(line).text  # type: ignore[attr-defined]
                        compared += 1
                        scrolled = max(scrolled, line.scroll_offset.x)
        assert compared == 88  # 5 lines x 2 focus x their cursor places x 2 blink states
        assert scrolled > 0  # (the long line scrolled: the crop was compared too)


async def test_lines_it_does_not_imitate_are_left_to_textual() -> None:
    app = LineApp()
    async with app.run_test(size=(80, 10)) as pilot:
        line = app.query_one(CommandLine)
        line.focus()
        await pilot.pause()
        for value in ["", "dé", "tab\there", "水"]:
            line.value = value
            await pilot.pause()
            assert echo_row(line, EchoStyles()) is None, value
            assert line.render_line(0) == textual_row(line)
        line.value = "say hello"
        line.selection = line.selection.__class__(0, 3)
        await pilot.pause()
        assert echo_row(line, EchoStyles()) is None
        assert line.render_line(0) == textual_row(line)


async def test_the_styles_kept_follow_the_focus() -> None:
    """The cursor's style is looked up once, but again when the focus moves (a line that
    loses the focus draws no cursor) and when the CSS is applied again."""
    app = LineApp()
    async with app.run_test(size=(80, 10)) as pilot:
        line = app.query_one(CommandLine)
        line.focus()
        line.value = "row"
        await pilot.pause()
        focused = line.render_line(0)
        assert focused == textual_row(line)
        app.query_one("#other", Input).focus()
        await pilot.pause()
        assert line.render_line(0) == textual_row(line) != focused
        line.focus()
        await pilot.pause()
        app.theme = "textual-light"
        await pilot.pause()
        assert line.render_line(0) == textual_row(line) != focused
