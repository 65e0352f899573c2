"""Shapes and how they become pictures: the shape types a board's layout is made of
(:class:`Drawing`), plain SVG from them (self-contained: no fonts or scripts to fetch), and the
same shapes on matplotlib axes (PNG, PDF, notebooks; matplotlib imported only when asked for).
:mod:`grader.output.render` lays boards out as these shapes."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"

# ---------------------------------------------------------------------------------------------
# shapes
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Style:
    """How a shape is painted (hashable, so shapes of one style group together in SVG)."""

    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0
    size: float = 0.0
    """Font size in pixels (text only)."""
    bold: bool = False
    anchor: str = "middle"
    """Text alignment: ``start``, ``middle`` or ``end``."""
    dash: tuple[float, ...] = ()
    """Dash pattern of a stroke in pixels (on, off, ...); empty: solid."""


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    style: Style


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    style: Style
    css: str = ""
    """A class for the SVG element (a chain's links: ``link strong``...)."""


@dataclass(frozen=True)
class Polyline:
    points: tuple[tuple[float, float], ...]
    style: Style
    css: str = ""
    """A class for the SVG element (a chain's links: ``link strong``...)."""


@dataclass(frozen=True)
class Polygon:
    """A closed, filled shape (an arrow head)."""

    points: tuple[tuple[float, float], ...]
    style: Style


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    r: float
    style: Style
    css: str = ""


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    """Centre line of the text (not the baseline)."""
    text: str
    style: Style


Shape = Rect | Line | Polyline | Polygon | Dot | Text


@dataclass
class Drawing:
    """Shapes in painting order on a canvas of ``width`` x ``height`` pixels."""

    width: float
    height: float
    shapes: list[Shape] = field(default_factory=list)
    title: str = ""

    def add(self, shape: Shape) -> None:
        self.shapes.append(shape)


# ---------------------------------------------------------------------------------------------
# SVG
# ---------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1 << 16)
def _num(value: float) -> str:
    """A coordinate to one decimal, without a trailing ".0" (a board repeats few of them)."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _group_attrs(style: Style) -> str:
    parts = []
    if style.fill is not None:
        parts.append(f'fill="{style.fill}"')
    else:
        parts.append('fill="none"')
    if style.stroke is not None:
        parts.append(f'stroke="{style.stroke}" stroke-width="{_num(style.width)}"')
        parts.append('stroke-linecap="round" stroke-linejoin="round"')
        if style.dash:
            parts.append(f'stroke-dasharray="{" ".join(_num(d) for d in style.dash)}"')
    if style.size:
        parts.append(f'font-size="{_num(style.size)}" text-anchor="{style.anchor}"')
        if style.bold:
            parts.append('font-weight="bold"')
    return " ".join(parts)


def _rect(shape: Rect) -> str:
    return (
        f'<rect x="{_num(shape.x)}" y="{_num(shape.y)}" width="{_num(shape.w)}" '
        f'height="{_num(shape.h)}"/>'
    )


def _css(css: str) -> str:
    return f' class="{css}"' if css else ""


def _line(shape: Line) -> str:
    return (
        f'<line{_css(shape.css)} x1="{_num(shape.x1)}" y1="{_num(shape.y1)}" '
        f'x2="{_num(shape.x2)}" y2="{_num(shape.y2)}"/>'
    )


def _polyline(shape: Polyline) -> str:
    points = " ".join(f"{_num(x)},{_num(y)}" for x, y in shape.points)
    return f'<polyline{_css(shape.css)} points="{points}"/>'


def _polygon(shape: Polygon) -> str:
    points = " ".join(f"{_num(x)},{_num(y)}" for x, y in shape.points)
    return f'<polygon points="{points}"/>'


def _dot(shape: Dot) -> str:
    return (
        f'<circle{_css(shape.css)} cx="{_num(shape.x)}" cy="{_num(shape.y)}" r="{_num(shape.r)}"/>'
    )


def _text(shape: Text) -> str:
    baseline = shape.y + shape.style.size * 0.36
    return f'<text x="{_num(shape.x)}" y="{_num(baseline)}">{escape(shape.text)}</text>'


_ELEMENT = {
    Rect: _rect,
    Line: _line,
    Polyline: _polyline,
    Polygon: _polygon,
    Dot: _dot,
    Text: _text,
}
"""The SVG element of each kind of shape."""


def drawing_svg(drawing: Drawing, css_class: str = "board") -> str:
    """The drawing as one ``<svg>`` element (usable as a file or inline in HTML)."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{css_class}" '
        f'width="{_num(drawing.width)}" height="{_num(drawing.height)}" '
        f'viewBox="0 0 {_num(drawing.width)} {_num(drawing.height)}" font-family="{FONT}">'
    ]
    if drawing.title:
        out.append(f"<title>{escape(drawing.title)}</title>")
    current: Style | None = None
    for shape in drawing.shapes:
        if shape.style is not current and shape.style != current:
            if current is not None:
                out.append("</g>")
            current = shape.style
            out.append(f"<g {_group_attrs(current)}>")
        out.append(_ELEMENT[type(shape)](shape))
    if current is not None:
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def drawing_figure(drawing: Drawing, dpi: float = 100.0):
    """A matplotlib Figure of the drawing, one pixel per SVG unit at ``dpi`` 100."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(drawing.width / 100.0, drawing.height / 100.0), dpi=dpi)
    FigureCanvasAgg(figure)
    draw_on(figure.add_axes((0, 0, 1, 1)), drawing)
    return figure


def draw_on(axes, drawing: Drawing, scale: float = 1.0) -> None:
    """Paint the drawing into matplotlib ``axes`` (line widths and fonts times ``scale``).

    The axes get the drawing's coordinates (y downwards) and no frame, so several boards can
    share one figure (see :func:`grader.output.render.boards_figure`).
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, Rectangle
    from matplotlib.patches import Polygon as PolygonPatch
    from matplotlib.text import Text as TextArtist

    px = 72.0 / 100.0 * scale  # points per pixel at the reference resolution
    axes.set_xlim(0, drawing.width)
    axes.set_ylim(drawing.height, 0)
    axes.set_aspect("equal")
    axes.set_axis_off()
    # artists are added as they are (the limits are set above: nothing to autoscale) and
    # left out of the figure's layout, which then places only the axes and their titles
    for z, shape in enumerate(drawing.shapes):
        style = shape.style
        if isinstance(shape, Rect):
            artist = Rectangle(
                (shape.x, shape.y),
                shape.w,
                shape.h,
                facecolor=style.fill or "none",
                edgecolor=style.stroke or "none",
                linewidth=style.width * px,
                zorder=z,
            )
        elif isinstance(shape, Line | Polyline):
            points = (
                ((shape.x1, shape.y1), (shape.x2, shape.y2))
                if isinstance(shape, Line)
                else shape.points
            )
            xs, ys = zip(*points, strict=True)
            artist = Line2D(
                xs,
                ys,
                color=style.stroke,
                linewidth=style.width * px,
                solid_capstyle="round",
                solid_joinstyle="round",
                zorder=z,
            )
            if style.dash and style.width:  # matplotlib counts dashes in line widths
                artist.set_dashes([d / style.width for d in style.dash])
                artist.set_dash_capstyle("butt")
        elif isinstance(shape, Polygon):
            artist = PolygonPatch(
                shape.points,
                closed=True,
                facecolor=style.fill or "none",
                edgecolor=style.stroke or "none",
                linewidth=style.width * px,
                zorder=z,
            )
        elif isinstance(shape, Dot):
            artist = Circle(
                (shape.x, shape.y),
                shape.r,
                facecolor=style.fill or "none",
                edgecolor=style.stroke or "none",
                linewidth=style.width * px,
                zorder=z,
            )
        else:
            align = {"start": "left", "middle": "center", "end": "right"}[style.anchor]
            artist = TextArtist(
                shape.x,
                shape.y,
                shape.text,
                ha=align,
                va="center_baseline",
                fontsize=style.size * px,
                fontweight="bold" if style.bold else "normal",
                color=style.fill,
                family="DejaVu Sans",  # ships with matplotlib
                zorder=z,
                clip_on=False,
            )
        artist.set_in_layout(False)
        axes.add_artist(artist)
