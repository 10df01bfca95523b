"""A board: several panels of Rich content laid out and drawn by one widget.

Why not a widget per panel: every Textual widget costs each session a message pump (an
asyncio task and a queue), its own computed CSS, and places in the compositor's maps, and a
repaint walks all of them. A table screen's panels never scroll, take focus or change size
with their content, so the screen gains nothing from them being widgets: as eleven widgets
(panels and the rows holding them) they were a third of what a seated session held. A board
places its panels itself (its layout, given its size), keeps each panel's drawn rows, and
repaints only the rows an update changed.

Why not ``Static`` for a panel, either: on every update Textual's ``Static`` renders its
content again through its visual pipeline, then styles every line of the widget once more
(padding, background, borders, tint) whether or not it changed, and the screen repaints all
of it. A table screen updates several panels in every session at the table on each move, and
that styling was a third of the server's CPU. Here a row is styled when it is drawn and kept.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import ClassVar, Generic, NamedTuple, TypeVar

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import App
from textual.color import Color
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from shipwreck.tui.rows import Rows


class Spot(NamedTuple):
    """Where a panel goes on its board, and how it is drawn there."""

    name: str
    region: Region
    """In the board's own cells."""
    pad: int = 0
    """Blank columns left and right of the content."""
    style: str = ""
    """How the panel stands out, if it does: ``bar`` (on the theme's ``$boost``, as a title
    bar) or ``muted`` (in ``$text-muted``)."""


K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


class Kept(Generic[K, T]):
    """What was made for each key, at most ``keep`` of them, the least recently used dropped
    first: drawn rows kept for every session that draws the same thing."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self._kept: OrderedDict[K, T] = OrderedDict()

    def get(self, key: K, make: Callable[[], T]) -> T:
        """The value kept for ``key``, made by ``make()`` (and kept) if there is none."""
        kept = self._kept.get(key)
        if kept is None:
            kept = self._kept[key] = make()
            while len(self._kept) > self.keep:
                self._kept.popitem(last=False)
        else:
            self._kept.move_to_end(key)
        return kept

    def __len__(self) -> int:
        return len(self._kept)


class SharedRender:
    """A renderable drawn once for all the sessions that show it at the same width: what
    ``make()`` renders, kept under ``key`` (which must name everything it draws).

    Every session in the lobby shows the same tables; drawn by each session for itself, a
    Rich table of thirty rows took 20 ms a session, and one change there took seconds of the
    server's time with two hundred sessions in the lobby (Textual 8.2.8, measured with
    ``bench/ssh_load.py --sessions 200``). On a :class:`Board`, the panel's rows (padded,
    styled and filtered) are kept for all of them too (see :meth:`Board.shared_rows`)."""

    _drawn: ClassVar[Kept[Hashable, list[Segment]]] = Kept(16)

    def __init__(self, key: Hashable, make: Callable[[], RenderableType]) -> None:
        self.key = key
        self.make = make

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        o = options
        key = (self.key, o.max_width, o.height, o.ascii_only, o.legacy_windows, o.encoding)
        yield from self._drawn.get(key, lambda: list(console.render(self.make(), options)))


Layout = Callable[[Size], Sequence[Spot]]
"""Where each panel goes on a board of the given size; a panel left out is not drawn. A board
whose height the CSS leaves ``auto`` is as tall as its lowest panel."""


def split(width: int, *parts: int) -> list[tuple[int, int]]:
    """``width`` shared in proportion to ``parts`` (as CSS ``2fr 1fr`` would, rounded the same
    way: each edge at the whole cell below it): ``(x, width)`` of each part."""
    total, edges, acc = sum(parts), [0], 0
    for p in parts:
        acc += p
        edges.append(width * acc // total)
    return [(a, b - a) for a, b in zip(edges, edges[1:], strict=False)]


class StyleKeyed:
    """For a widget that draws its own rows and keeps them: what the rows depend on besides
    the size (its style, the app's line filters, the background) is worked out once each time
    the CSS is applied to it (``notify_style_update``), not on every frame: each walks the
    DOM, and together they were about a twentieth of a busy server's time. (A style set in
    code on such a widget would not be seen: none is.)"""

    _style_key: tuple[object, ...] | None = None

    def notify_style_update(self) -> None:
        super().notify_style_update()  # type: ignore[misc]
        self._style_key = None

    def style_key(self) -> tuple[object, ...]:
        if self._style_key is None:
            self._style_key = self.work_out_style_key()
        return self._style_key

    def work_out_style_key(self) -> tuple[object, ...]:
        assert isinstance(self, Widget)
        return (
            self.visual_style.rich_style,
            tuple(self.get_line_filters()),
            self.background_colors[1],
        )


class Board(StyleKeyed, Widget):
    """Panels drawn by one widget (see the module's docstring). ``layout`` says where each
    panel goes for a given size; :meth:`update` sets a panel's content."""

    DEFAULT_CSS = """
    Board {
        height: auto;
    }
    """
    PANEL_STYLES: ClassVar[dict[str, tuple[str, bool]]] = {
        "bar": ("boost", True),
        "muted": ("text-muted", False),
    }
    """A :attr:`Spot.style`: the theme's colour, and whether it is the background.
    (Not component classes: each is a styled node more in every board of every session.)"""

    def __init__(self, layout: Layout, **kw: object) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self._place = layout
        self._contents: dict[str, RenderableType] = {}
        self._spots: dict[str, Spot] = {}
        self._by_x: list[Spot] = []
        """The placed panels, left to right (the order a row is joined in)."""
        self._rows: dict[str, list[Strip]] = {}
        """Each placed panel's rows, drawn for ``_frame``."""
        self._frame: tuple[object, ...] = ()
        """What the rows were drawn for: size, style, line filters and background."""
        self._blank = Strip.blank(0)
        """A row of the board where no panel is."""
        self._drawn_as_cache: dict[Spot, tuple[object, ...]] = {}
        """Each placed panel's :meth:`_drawn_as`, for ``_frame``."""

    # ------------------------------------------------------------------ for screens and tests

    def update(self, name: str, content: RenderableType) -> None:
        """Show ``content`` in panel ``name``; repaint the rows of it that differ."""
        self._contents[name] = content
        spot = self._spots.get(name)
        if spot is None or not self._frame or self._current_frame() != self._frame:
            self.refresh()  # drawn in full at the next frame (or not placed at all)
            return
        old, new = self._rows[name], self._draw(spot)
        self._rows[name] = new
        x, y, width, _ = spot.region
        shift = self.content_offset
        for row, line in enumerate(new):
            if line != old[row]:  # (`refresh` takes regions relative to the content)
                self.refresh(Region(x, y + row, width, 1).translate(-shift))

    def content(self, name: str) -> RenderableType:
        """What panel ``name`` shows ("" if nothing yet)."""
        return self._contents.get(name, "")

    def spot(self, name: str) -> Region | None:
        """Where panel ``name`` is on the board, or ``None`` if it is not shown."""
        self._ensure_drawn()
        spot = self._spots.get(name)
        return spot.region if spot else None

    def relayout(self) -> None:
        """Place and draw every panel again: the screen changed how it lays the board out (its
        height may change, so the screen is arranged again)."""
        self._frame = ()
        self.refresh(layout=True)

    # ------------------------------------------------------------------ drawing

    def _current_frame(self) -> tuple[object, ...]:
        return (self.size, *self.style_key())

    def _ensure_drawn(self) -> tuple[object, ...]:
        frame = self._current_frame()
        if frame != self._frame:
            self._frame = frame
            self._drawn_as_cache.clear()
            self._spots = {s.name: s for s in self._place(self.size)}
            self._by_x = sorted(self._spots.values(), key=lambda s: s.region.x)
            self._rows = {name: self._draw(spot) for name, spot in self._spots.items()}
            blank = Strip.blank(self.size.width, self.visual_style.rich_style)
            self._blank = self._filtered([blank])[0]
        return frame

    def _style(self, spot: Spot) -> Style:
        base = self.visual_style.rich_style
        if not spot.style:
            return base
        variable, background = self.PANEL_STYLES[spot.style]
        return base + self.themed(variable, background=background)

    def themed(self, variable: str, background: bool = False) -> Style:
        """The theme's colour ``variable`` (as in ``$boost``) over this board's background, as
        CSS would blend it: a foreground colour, or with ``background`` a background."""
        background_color = self.background_colors[1]
        value = self.app.theme_variables[variable]
        if value.startswith("auto"):  # "auto 60%": what contrasts with the background
            alpha = float(value[4:].strip().rstrip("%") or 100) / 100
            color = background_color + background_color.get_contrast_text(alpha)
        else:
            color = background_color + Color.parse(value)
        return Style(bgcolor=color.rich_color) if background else Style(color=color.rich_color)

    _shared: ClassVar[Kept[Hashable, list[Strip]]] = Kept(256)
    """The rows of :class:`SharedRender` panels, for every board that draws one the same way."""

    def _draw(self, spot: Spot) -> list[Strip]:
        """Every row of one panel, padded and filtered, at its place's size."""
        content = self._contents.get(spot.name, "")
        if isinstance(content, SharedRender):
            return self.shared_rows(spot, content)
        if isinstance(content, Rows):
            rows = self._draw_lines(spot, content)
            if rows is not None:
                return rows
        return self._draw_rows(spot, content)

    def shared_rows(self, spot: Spot, content: SharedRender) -> list[Strip]:
        """A shared panel's rows, drawn by the first board to show it this way and kept for the
        others (rows are never changed in place). Each lobby session drew the tables' rows
        again from the shared segments (splitting, padding, filtering: about 10 ms each), and
        every seat taken while a hundred watched the lobby cost that a hundred times over."""
        key = (content.key, spot.region.height, self._drawn_as(spot))
        return self._shared.get(key, lambda: self._draw_rows(spot, content))

    def _drawn_as(self, spot: Spot) -> tuple[object, ...]:
        """Everything but the content that a row of panel ``spot`` depends on (its width,
        padding, style and the line filters and background applied), the same for every board
        that draws the panel alike; worked out once per frame (see :meth:`_ensure_drawn`)."""
        drawn_as = self._drawn_as_cache.get(spot)
        if drawn_as is None:
            drawn_as = self._drawn_as_cache[spot] = (
                spot.region.width,
                spot.pad,
                self._style(spot),
                self.background_colors[1],
                tuple(filter_key(f) for f in self.get_line_filters()),
                console_key(self.app),
            )
        return drawn_as

    _lines: ClassVar[Kept[Hashable, Strip]] = Kept(4096)
    """Rows of :class:`Rows` panels, each drawn once for every board that draws it alike."""

    def _draw_lines(self, spot: Spot, content: Rows) -> list[Strip] | None:
        """The rows of a :class:`Rows` panel, line by line, each drawn by the first board to
        show that line the same way and kept for the others (and for later moves: most lines
        of the boat stay as they were). A line drawn alone is drawn as it is among the others
        (each is one row, cut at the edge); ``None`` if a line would take more than one row
        (it holds a line break), to draw the panel whole."""
        _, _, width, height = spot.region
        lines = [Rows.as_row(line) for line in content.lines(max(0, width - 2 * spot.pad))]
        if any("\n" in line.plain for line in lines):
            return None
        drawn_as = self._drawn_as(spot)
        one = spot._replace(region=Region(0, 0, width, 1))
        rows: list[Strip] = []
        for line in [*lines[:height], *[None] * (height - len(lines))]:
            key = (drawn_as, text_key(line) if line is not None else None)  # (None: blank)
            draw = lambda line=line: self._draw_rows(one, line or Group())[0]  # noqa: E731
            rows.append(self._lines.get(key, draw))  # (Group(): no line, as Rich pads one)
        return rows

    def _draw_rows(self, spot: Spot, content: RenderableType) -> list[Strip]:
        _, _, width, height = spot.region
        style, pad = self._style(spot), spot.pad
        inner = max(0, width - 2 * pad)
        console = self.app.console
        options = console.options.update(width=inner, height=height)
        lines = console.render_lines(content, options, style=style, pad=True)[:height]
        side = Strip.blank(pad, style)
        rows = []
        for line in lines:
            strip = Strip(line).adjust_cell_length(inner, style)
            rows.append(Strip.join([side, strip, side]) if pad else strip)
        rows += [Strip.blank(width, style)] * (height - len(rows))
        return self._filtered(rows)

    def _filtered(self, rows: list[Strip]) -> list[Strip]:
        background = self.background_colors[1]
        for line_filter in self.get_line_filters():
            rows = [row.apply_filter(line_filter, background) for row in rows]
        return rows

    def render_lines(self, crop: Region) -> list[Strip]:
        self._ensure_drawn()
        width, blank = self.size.width, self._blank
        x1, x2 = crop.column_span
        lines = []
        for y in crop.line_range:
            parts, at = [], 0
            for spot in self._by_x:
                sx, sy, sw, sh = spot.region
                if sy <= y < sy + sh:
                    if sx > at:
                        parts.append(blank.crop(0, sx - at))
                    parts.append(self._rows[spot.name][y - sy])
                    at = sx + sw
            if at < width:
                parts.append(blank.crop(0, width - at))
            line = parts[0] if len(parts) == 1 else Strip.join(parts)
            lines.append(line.crop(x1, x2) if (x1, x2) != (0, width) else line)
        return lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        spots = self._place(Size(width, container.height))
        return max((s.region.bottom for s in spots), default=0)


def console_key(app: App[object]) -> Hashable:
    """What of ``app``'s console changes how rows are drawn (each session has its own)."""
    o = app.console.options
    return (o.ascii_only, o.legacy_windows, o.encoding)


def text_key(text: Text) -> Hashable:
    """All that ``text`` draws, as a key (a `Text` is not one: it can change)."""
    return (
        text.plain,
        tuple(text.spans),
        text.style,
        text.justify,
        text.overflow,
        text.no_wrap,
        text.end,
        text.tab_size,
    )


def filter_key(line_filter: object) -> Hashable:
    """A line filter as a key: its kind and settings (each app has its own filter objects, all
    alike), or the object itself if a setting cannot be a key."""
    try:
        settings = tuple(sorted(vars(line_filter).items()))
        hash(settings)
    except TypeError:
        return line_filter
    return (type(line_filter), settings)
