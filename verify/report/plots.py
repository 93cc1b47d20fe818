"""The certificate figures, as SVG text to put inline in a page.

matplotlib with its SVG backend and no pyplot: one ``Figure`` is reused for every plot
(clearing it is much cheaper than making a new one), text stays text
(``svg.fonttype = none``), and each figure gets its own id salt so that several
figures on one page never share an element id. Labels are passed through
:func:`_plain` so that a ``$`` in a user's case name is not read as mathtext.

A value of ρ that a log axis cannot show (0, ∞) is drawn at the edge of the axis with
its own marker and named in the legend, never dropped.
"""
from __future__ import annotations

import io
import math
import re
from typing import Any, Iterable, Mapping, Sequence

import matplotlib
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator

MAX_POINTS = 3000          # a scatter is downsampled to at most this many points
COLORS = {"float16": "#1f77b4", "bfloat16": "#9467bd", "float32": "#d62728",
          "float64": "#2ca02c"}
STAND_INS = ("zeros", "constant", "input", "scaled", "kernel")
STAND_IN_STYLE = {"zeros": ("s", "#7f7f7f"), "constant": ("D", "#bcbd22"),
                  "input": ("^", "#17becf"), "scaled": ("v", "#ff7f0e"),
                  "kernel": ("o", "#d62728")}
_RC = {"svg.fonttype": "none", "font.size": 9, "font.family": "sans-serif",
       "axes.spines.top": False, "axes.spines.right": False, "axes.grid": True,
       "grid.color": "#e4e4e4", "grid.linewidth": 0.6, "legend.frameon": False,
       "legend.fontsize": 8, "svg.image_inline": True}


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def decade(value: float, _pos: Any = None) -> str:
    """A tick label of a log axis as plain text (10⁻³), never mathtext: parsing
    mathtext labels is most of what a log plot costs to draw."""
    if value <= 0 or not math.isfinite(value):
        return ""
    exponent = math.log10(value)
    if abs(exponent - round(exponent)) > 1e-9:
        return ""
    e = int(round(exponent))
    if e in (0, 1):
        return str(10 ** e)
    return "10" + str(e).translate(_SUPERSCRIPT)


def _log_axis(axis: Any, lo: float, hi: float) -> None:
    """Decades only, labelled as plain text, no minor ticks."""
    span = max(1, math.ceil(math.log10(hi / lo)))
    step = max(1, math.ceil(span / 8))
    axis.set_major_locator(LogLocator(base=10.0 ** step, numticks=12))
    axis.set_major_formatter(FuncFormatter(decade))
    axis.set_minor_locator(NullLocator())


def _plain(text: Any) -> str:
    return str(text).replace("$", r"\$")


def _number(x: Any) -> float | None:
    """A float from a certificate value ("inf" is how JSON spells ∞); None if absent."""
    if isinstance(x, bool) or x is None:
        return None
    if isinstance(x, (int, float)):
        return float(x)
    if isinstance(x, str) and x.strip().lower() in ("inf", "infinity", "+inf"):
        return math.inf
    return None


def downsample(points: Sequence[Any], limit: int = MAX_POINTS) -> list[Any]:
    """At most ``limit`` points, evenly spaced through the sequence; the last one (the
    caller sorts, so it is the largest) is always kept."""
    n = len(points)
    if n <= limit:
        return list(points)
    step = n / (limit - 1)
    picked = [points[int(i * step)] for i in range(limit - 1)]
    return picked + [points[-1]]


EDGE = 1.6   # room beyond the ρ = 0 and ρ = ∞ markers on a log axis


class Plotter:
    """Makes the figures of one report with one reused matplotlib figure."""

    def __init__(self) -> None:
        self.fig = Figure(figsize=(6.4, 3.2))
        self.count = 0

    def _new(self, height: float, left: float = 0.75, right: float = 0.2) -> Any:
        """A fresh axes with fixed margins in inches (a layout engine would draw the
        figure twice to measure its labels)."""
        self.fig.clear()
        width = 6.4 + max(0.0, left - 0.75)
        self.fig.set_size_inches(width, height)
        self.fig.subplots_adjust(left=left / width, right=1 - right / width,
                                 bottom=0.55 / height, top=1 - 0.15 / height)
        return self.fig.add_subplot()

    def _svg(self, title: str) -> str:
        self.count += 1
        buf = io.StringIO()
        with matplotlib.rc_context({**_RC, "svg.hashsalt": f"fig{self.count}"}):
            self.fig.savefig(buf, format="svg", metadata={"Title": title, "Date": None,
                                                          "Creator": None})
        text = buf.getvalue()
        text = text[text.index("<svg"):]
        # the page sets the size; the viewBox keeps the proportions
        return re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"',
                      r'<svg\1 class="plot" role="img"', text, count=1)

    # ------------------------------------------------------------------ figures
    def error_vs_bound(self, points: Iterable[tuple[str, float, float]],
                       per_element: bool = False) -> str | None:
        """Log–log scatter of measured error against bound, one colour per dtype, with
        the line error = bound (ρ = 1). ``points``: (dtype, bound, error), each a sampled
        element's when ``per_element``, else a case's largest; an error of 0 is drawn on
        the bottom edge, an infinite one on the top edge. Points with a bound that is
        not finite and positive, or an error that is NaN or negative, are not drawn."""
        pts = [(d, b, e) for d, b, e in points
               if b is not None and e is not None and b > 0 and math.isfinite(b)
               and e >= 0]
        if not pts:
            return None
        with matplotlib.rc_context(_RC):
            ax = self._new(3.4)
            positive = [e for _, _, e in pts if 0 < e < math.inf]
            bounds = [b for _, b, _ in pts]
            lo = min(positive + bounds) / 10
            hi = max(positive + bounds) * 3
            for dtype in sorted({d for d, _, _ in pts}):
                mine = downsample(sorted((b, e) for d, b, e in pts if d == dtype))
                color = COLORS.get(dtype, "#333333")
                nz = [(b, e) for b, e in mine if 0 < e < math.inf]
                if nz:
                    ax.scatter([b for b, _ in nz], [e for _, e in nz], s=14, color=color,
                               alpha=0.75, label=_plain(dtype), linewidths=0)
                for edge, marker, label in ((0.0, "o", "error 0 (on the edge)"),
                                            (math.inf, "^", "error ∞ (on the top edge)")):
                    xs = [b for b, e in mine if e == edge]
                    if xs:
                        ax.scatter(xs, [lo if edge == 0 else hi] * len(xs), s=16,
                                   facecolors="none" if edge == 0 else color,
                                   edgecolors=color, marker=marker, clip_on=False,
                                   label=_plain(f"{dtype}: {label}"))
            ax.plot([lo, hi], [lo, hi], color="black", linewidth=1, label="ρ = 1 (error = bound)")
            ax.fill_between([lo, hi], [lo, hi], [hi, hi], color="#d62728", alpha=0.06,
                            linewidth=0)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlim(lo, hi)
            ax.set_ylim(lo, hi)
            _log_axis(ax.xaxis, lo, hi)
            _log_axis(ax.yaxis, lo, hi)
            what = "of the element" if per_element else "largest in the case"
            ax.set_xlabel(f"bound ({what})")
            ax.set_ylabel(f"measured error ({what})")
            ax.legend(loc="upper left")
            return self._svg("measured error against bound")

    def rho_per_row(self, rows: Sequence[str], series: Mapping[str, Sequence[Any]],
                    xlabel: str, title: str) -> str | None:
        """One row per case (or class), one marker per dtype, ρ on a log axis with the
        line ρ = 1; ρ = 0 sits on the left edge (hollow), ρ = ∞ on the right (▶)."""
        values = [_number(v) for vs in series.values() for v in vs]
        finite = [v for v in values if v is not None and 0 < v < math.inf]
        if not rows or not any(v is not None for v in values):
            return None
        lo = min(finite + [1.0]) / 3
        hi = max(finite + [1.0]) * 3
        with matplotlib.rc_context(_RC):
            ax = self._new(min(0.9 + 0.19 * len(rows), 14), left=_label_room(rows),
                           right=1.9)
            y = list(range(len(rows)))
            for dtype, vs in series.items():
                color = COLORS.get(dtype, "#333333")
                fin, zero, inf = [], [], []
                for i, v in zip(y, (_number(x) for x in vs)):
                    if v is None:
                        continue
                    (zero if v <= 0 else inf if v == math.inf else fin).append(
                        (min(max(v, lo), hi) if 0 < v < math.inf else
                         (lo if v <= 0 else hi), i))
                if fin:
                    ax.scatter([v for v, _ in fin], [i for _, i in fin], s=18, color=color,
                               label=_plain(dtype), zorder=3)
                if zero:
                    ax.scatter([v for v, _ in zero], [i for _, i in zero], s=18,
                               facecolors="none", edgecolors=color, zorder=3,
                               label=_plain(f"{dtype}: ρ = 0 (exact)"))
                if inf:
                    ax.scatter([v for v, _ in inf], [i for _, i in inf], s=24, color=color,
                               marker=">", zorder=3, label=_plain(f"{dtype}: ρ = ∞"))
            ax.axvline(1.0, color="black", linewidth=1)
            ax.set_xscale("log")
            ax.set_xlim(lo / EDGE, hi * EDGE)   # markers on the edges drawn whole
            _log_axis(ax.xaxis, lo, hi)
            ax.set_ylim(-0.7, len(rows) - 0.3)
            _row_labels(ax, [_short(r) for r in rows])
            ax.invert_yaxis()
            ax.set_xlabel(xlabel)
            # beside the axes: inside, it would hide the points near ρ = 1
            ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=7)
            return self._svg(title)

    def power(self, rows: Sequence[tuple[str, Mapping[str, Any]]]) -> str | None:
        """Test power: for each (dtype · output), ρ of the stand-ins (zeros, a constant,
        the input, the exact output scaled by 1 + ε) beside the kernel's. A useful bound
        puts every stand-in right of ρ = 1 and the kernel left of it."""
        if not rows:
            return None
        values = [_number(v) for _, r in rows for v in r.values()]
        finite = [v for v in values if v is not None and 0 < v < math.inf]
        lo = min(finite + [1.0]) / 3
        hi = max(finite + [1.0]) * 3
        with matplotlib.rc_context(_RC):
            ax = self._new(min(1.1 + 0.3 * len(rows), 12),
                           left=_label_room([label for label, _ in rows]), right=1.2)
            for kind in STAND_INS:
                marker, color = STAND_IN_STYLE[kind]
                xs, ys = [], []
                for i, (_, r) in enumerate(rows):
                    v = _number(r.get(kind))
                    if v is None:
                        continue
                    xs.append(lo if v <= 0 else hi if v == math.inf else v)
                    ys.append(i)
                if xs:
                    ax.scatter(xs, ys, marker=marker, color=color, s=30 if kind == "kernel"
                               else 22, label=kind, zorder=3,
                               edgecolors="black" if kind == "kernel" else "none")
            ax.axvline(1.0, color="black", linewidth=1)
            ax.set_xscale("log")
            ax.set_xlim(lo / EDGE, hi * EDGE)
            _log_axis(ax.xaxis, lo, hi)
            ax.set_ylim(-0.7, len(rows) - 0.3)
            _row_labels(ax, [label for label, _ in rows])
            ax.invert_yaxis()
            ax.set_xlabel("ρ (∞ drawn on the right edge, 0 on the left)")
            ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
            return self._svg("test power")

    def ratio_bars(self, rows: Sequence[tuple[str, Any]], xlabel: str,
                   title: str) -> str | None:
        """One bar per row, its ratio to a figure on a linear axis, with the line at 1
        (the figure itself); a bar past it is drawn red. Rows without a number are
        left out."""
        pts = [(label, v) for label, v in ((lb, _number(x)) for lb, x in rows)
               if v is not None and math.isfinite(v) and v >= 0]
        if not pts:
            return None
        with matplotlib.rc_context(_RC):
            ax = self._new(min(0.9 + 0.24 * len(pts), 12),
                           left=_label_room([lb for lb, _ in pts]))
            y = list(range(len(pts)))
            ax.barh(y, [v for _, v in pts], height=0.6,
                    color=["#d62728" if v > 1 else "#1f77b4" for _, v in pts])
            ax.axvline(1.0, color="black", linewidth=1)
            ax.set_xlim(0, max(1.1, max(v for _, v in pts) * 1.08))
            ax.set_ylim(-0.7, len(pts) - 0.3)
            _row_labels(ax, [lb for lb, _ in pts])
            ax.invert_yaxis()
            ax.set_xlabel(xlabel)
            return self._svg(title)

    def ranges(self, rows: Sequence[tuple[str, Any, Any]], xlabel: str,
               title: str) -> str | None:
        """One row per label: the range [lo, hi] of a positive quantity over repeated
        runs on a log axis (a dot where the runs agree), with the line at 1."""
        pts = [(label, _number(lo), _number(hi)) for label, lo, hi in rows]
        pts = [(label, lo, hi) for label, lo, hi in pts
               if lo is not None and hi is not None and 0 < lo <= hi < math.inf]
        if not pts:
            return None
        lo_all = min([lo for _, lo, _ in pts] + [1.0]) / 2
        hi_all = max([hi for _, _, hi in pts] + [1.0]) * 2
        with matplotlib.rc_context(_RC):
            ax = self._new(min(0.9 + 0.24 * len(pts), 12),
                           left=_label_room([lb for lb, _, _ in pts]))
            for i, (_, lo, hi) in enumerate(pts):
                color = "#2ca02c" if lo >= 1 else "#d62728" if hi < 1 else "#ff7f0e"
                ax.plot([lo, hi], [i, i], color=color, linewidth=3, solid_capstyle="round")
                ax.scatter([lo, hi], [i, i], color=color, s=14, zorder=3)
            ax.axvline(1.0, color="black", linewidth=1)
            ax.set_xscale("log")
            ax.set_xlim(lo_all, hi_all)
            _log_axis(ax.xaxis, lo_all, hi_all)
            ax.set_ylim(-0.7, len(pts) - 0.3)
            _row_labels(ax, [lb for lb, _, _ in pts])
            ax.invert_yaxis()
            ax.set_xlabel(xlabel)
            return self._svg(title)


def _row_labels(ax: Any, labels: Sequence[str]) -> None:
    """Row labels as plain texts left of the axes: tick objects cost several times more
    to make and draw, and a plot with sixty cases has sixty of them."""
    ax.set_yticks([])
    ax.tick_params(axis="y", length=0)
    transform = ax.get_yaxis_transform()
    for i, label in enumerate(labels):
        ax.text(-0.01, i, _plain(label), transform=transform, ha="right", va="center",
                fontsize=8)


def _label_room(labels: Sequence[str]) -> float:
    """Inches of left margin for row labels at 9 pt (about 0.075 in per character)."""
    longest = max((len(_short(str(x))) for x in labels), default=4)
    return min(0.3 + 0.068 * longest, 3.6)


def _short(text: str, width: int = 48) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"
