"""Charts for the reports: matplotlib figures rendered to inline SVG.

Every chart is drawn with the Okabe–Ito palette (safe for the common forms of colour blindness),
never encodes a meaning by colour alone (markers and labels carry it too), labels its axes with
units, and is returned as an ``<svg>`` string ready to inline in a page: no XML prolog, no
metadata, no namespace URLs, and only the element ids that the drawing references, prefixed so
that many charts can share one page.

Every chart comes in two layouts. The wide one (the default, 900 px) fills a desktop page; inside
:func:`narrow_layout` the same call draws a phone's version, 355 px wide, with its legend below
the plot, long row names above their rows and long titles wrapped, and an inline style that lets
it grow with its column but never shrink below its natural size, so its text never gets smaller
than it was drawn (a chart wider than a phone, a big heat map, scrolls inside its box). A page
carries both and shows one by the width of the screen (reports/templates/style.css).
"""

from __future__ import annotations

import contextlib
import io
import itertools
import math
import re
import textwrap

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib import colors as mcolors  # noqa: E402
import matplotlib.ticker  # noqa: E402,F401

OKABE_ITO = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "green": "#009E73",
    "vermillion": "#D55E00",
    "sky": "#56B4E9",
    "purple": "#CC79A7",
    "yellow": "#F0E442",
    "black": "#000000",
}
PALETTE = [OKABE_ITO[k] for k in ("blue", "orange", "green", "vermillion", "sky", "purple",
                                  "yellow", "black")]
MARKERS = ["o", "s", "D", "^", "v", "P", "X", "*"]
GREY = "#6b6b6b"
LIGHT = "#d9d9d9"
# A sweep cell without a result: invalid, or not played (an interrupted or stopped sweep); the
# table of cells says which.
NO_RESULT = "no result"
TEXT = "#222222"

STYLE = {
    "svg.fonttype": "none",  # text stays text: small files, selectable, any script renders
    "font.family": "sans-serif",
    # the SVG names this stack and the reader's browser draws the text: the CJK fonts draw the
    # games' and roles' Chinese names wherever the reader has one of them
    "font.sans-serif": ["DejaVu Sans", "Helvetica", "Arial", "Liberation Sans",
                        "Noto Sans CJK TC", "Noto Sans CJK SC", "Source Han Sans TC",
                        "PingFang TC", "Microsoft JhengHei", "Microsoft YaHei"],
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.titleweight": "bold",
    "axes.titlelocation": "left",
    "axes.labelsize": 10,
    "axes.edgecolor": "#888888",
    "axes.labelcolor": TEXT,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.color": "#e6e6e6",
    "grid.linewidth": 0.8,
    "xtick.color": TEXT,
    "ytick.color": TEXT,
    "legend.frameon": False,
    "legend.fontsize": 9,
    "figure.dpi": 96,
}

_counter = itertools.count()

WIDTH = 9.4  # inches: 900 px at 96 dpi, the page's column
NARROW = 3.7  # inches: 355 px at 96 dpi, a phone's column (390 px less the page's margins)

_LAYOUT = {"narrow": False}


@contextlib.contextmanager
def narrow_layout():
    """Draw the charts of this block in their narrow (phone) layout."""
    before = _LAYOUT["narrow"]
    _LAYOUT["narrow"] = True
    try:
        yield
    finally:
        _LAYOUT["narrow"] = before


def narrow() -> bool:
    return _LAYOUT["narrow"]


def _wrap(text: str, width: int) -> str:
    """Wrap a title or label in the narrow layout (a wide one keeps its line)."""
    return textwrap.fill(text, width) if narrow() and len(text) > width else text


def _title(ax, title: str) -> None:
    ax.set_title(_wrap(title, 40))


def _finish_with_legend(fig, ax, title: str, xlabel: str, ylabel: str) -> str:
    """Labels, title and legend (beside the plot, or below it on a narrow screen), as SVG."""
    ax.set_xlabel(_wrap(xlabel, 45))
    ax.set_ylabel(_wrap(ylabel, 30))
    _title(ax, title)
    if narrow():
        _legend_below(fig, ax=ax)
        return _svg(fig, title)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), borderaxespad=0.3)
    fig.tight_layout()
    return _svg(fig, title)


def _legend_below(fig, handles=None, labels=None, ax=None) -> None:
    """The narrow layout's legend: under the plot, in as many columns as fit, the figure grown
    to hold it; then lay the figure out."""
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    if not handles:
        fig.tight_layout()
        return
    longest = max(len(str(x)) for x in labels)
    per_column = 0.45 + 0.075 * longest  # inches: marker, gap and text at 9 pt
    ncol = max(1, min(len(labels), int((NARROW - 0.2) // per_column)))
    rows = math.ceil(len(labels) / ncol)
    extra = 0.16 + 0.22 * rows
    height = fig.get_figheight() + extra
    fig.set_figheight(height)
    fig.legend(handles, labels, loc="lower center", bbox_to_anchor=(0.5, 0.0), ncol=ncol,
               borderaxespad=0.3, frameon=False, fontsize=9)
    fig.tight_layout(rect=(0, extra / height, 1, 1))


def _titles_from_the_edge(fig) -> None:
    """The narrow layout: a title starts at the figure's left edge, not the plot's (long row
    names push the plot right, and a title wrapped to the phone's width would overflow it)."""
    for ax in fig.axes:
        title = ax.get_title(loc="left")
        box = ax.get_position()
        if title and box.width > 0:
            ax.set_title(title, loc="left", x=(8 / 96 / fig.get_figwidth() - box.x0) / box.width)


def _svg(fig, label: str) -> str:
    """Render `fig` to a cleaned inline SVG string (and close it)."""
    if narrow():
        _titles_from_the_edge(fig)
    salt = f"c{next(_counter)}"
    with matplotlib.rc_context({"svg.hashsalt": salt}):
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None,
                                                    "Format": None, "Type": None})
    plt.close(fig)
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, flags=re.S)
    svg = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", svg, count=0)
    svg = svg.replace(' version="1.1"', "", 1)
    referenced = set(re.findall(r'#([\w.\-]+)', " ".join(
        re.findall(r'(?:xlink:href|href)="#[^"]*"|url\(#[^)]*\)', svg))))
    prefix = f"{salt}-"

    def fix_id(match):
        name = match.group(1)
        return f'id="{prefix}{name}"' if name in referenced else ""

    svg = re.sub(r'\s?id="([^"]*)"', lambda m: (" " + fix_id(m)) if fix_id(m) else "", svg)
    svg = re.sub(r'((?:xlink:href|href)="#|url\(#)([\w.\-]+)',
                 lambda m: f"{m.group(1)}{prefix}{m.group(2)}" if m.group(2) in referenced
                 else m.group(0), svg)
    # Lines of the path data: keep the file small.
    svg = re.sub(r" \n(?=[LMCQz])", " ", svg)
    aria = label.replace('"', "'").replace("&", "and").replace("<", "").replace(">", "")
    style = ""
    if narrow():  # grow with the column (up to half again), never shrink: the text stays legible
        px = round(fig.get_figwidth() * 96)
        style = f'style="width:100%;min-width:{px}px;max-width:{round(1.5 * px)}px" '
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{aria}" {style}', 1)
    return svg.strip()


def _fig(height: float, width: float | None = None):
    if width is None:
        width = NARROW if narrow() else WIDTH
    with matplotlib.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(width, height))
    return fig, ax


def _style(fn):
    def wrapped(*args, **kwargs):
        with matplotlib.rc_context(STYLE):
            return fn(*args, **kwargs)
    wrapped.__name__ = fn.__name__
    wrapped.__doc__ = fn.__doc__
    return wrapped


def _pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%"


# --- intervals (rates, differences, means) ----------------------------------------------------
@_style
def interval_chart(names, values, lows, highs, *, title: str, xlabel: str, scale: float = 100.0,
                   reference: float | None = None, reference_label: str = "",
                   value_format: str = "{:.1f}%", colors=None, markers=None,
                   full_range: tuple[float, float] | None = None, zero_line: bool = False,
                   hollow=None, legend: list[tuple[str, str, str, bool]] | None = None) -> str:
    """Horizontal dot-and-whisker chart: one row per name, the point and its interval.

    Values are multiplied by `scale` (100 for rates shown in percent or points). `reference`
    draws a dashed line (e.g. the even share). The value is written at the end of each row.
    """
    n = len(names)
    # narrow: long names go above their rows instead of taking the plot's width
    above = narrow() and max((len(str(x)) for x in names), default=0) > 10
    fig, ax = _fig(0.9 + (0.52 if above else 0.34) * max(n, 1))
    ys = np.arange(n)[::-1]
    values = np.array([np.nan if v is None else v for v in values], dtype=float) * scale
    lows = np.array([np.nan if v is None else v for v in lows], dtype=float) * scale
    highs = np.array([np.nan if v is None else v for v in highs], dtype=float) * scale
    colors = colors or [PALETTE[0]] * n
    markers = markers or ["o"] * n
    hollow = hollow or [False] * n
    for y, v, lo, hi, c, m, h in zip(ys, values, lows, highs, colors, markers, hollow):
        if np.isnan(v):
            continue
        if not (np.isnan(lo) or np.isnan(hi)):
            ax.plot([lo, hi], [y, y], color=c, linewidth=2.2, solid_capstyle="butt", zorder=2)
            ax.plot([lo, lo], [y - 0.18, y + 0.18], color=c, linewidth=1.4, zorder=2)
            ax.plot([hi, hi], [y - 0.18, y + 0.18], color=c, linewidth=1.4, zorder=2)
        ax.plot([v], [y], marker=m, markersize=6.5, color=c,
                markerfacecolor="white" if h else c, markeredgewidth=1.4, zorder=3,
                linestyle="none")
    finite = np.concatenate([values[~np.isnan(values)], lows[~np.isnan(lows)],
                             highs[~np.isnan(highs)]])
    if reference is not None:
        finite = np.append(finite, reference * scale)
    if zero_line:
        finite = np.append(finite, 0.0)
    if full_range is not None:
        left, right = full_range
    elif finite.size:
        left, right = float(finite.min()), float(finite.max())
        pad = max((right - left) * 0.08, 0.5 if scale == 100 else 0.01 * max(abs(right), 1))
        left, right = left - pad, right + pad
    else:
        left, right = 0.0, 1.0
    span = right - left
    room = 0.24 if narrow() else 0.16
    ax.set_xlim(left, right + room * span)  # room for the value labels
    for y, v in zip(ys, values):
        if np.isnan(v):
            ax.text(left + 0.01 * span, y, "no games", va="center", fontsize=9, color=GREY)
            continue
        # the values in a column of their own at the right: no clash with lines or whiskers
        ax.text(right + (room - 0.005) * span, y, value_format.format(v), va="center",
                ha="right", fontsize=9, color=TEXT)
    if reference is not None:
        ax.axvline(reference * scale, color=GREY, linestyle="--", linewidth=1.2, zorder=1)
        if reference_label:
            ax.text(reference * scale, n - 0.45, f" {reference_label}", color=GREY, fontsize=8.5,
                    va="bottom", ha="left")
    if zero_line:
        ax.axvline(0, color=GREY, linewidth=1.2, zorder=1)
    ax.set_yticks(ys)
    if above:
        ax.set_yticklabels([])
        ax.tick_params(axis="y", length=0)
        for y, name in zip(ys, names):
            ax.text(left, y + 0.3, str(name), va="bottom", ha="left", fontsize=9, color=TEXT)
        ax.set_ylim(-0.6, n - 0.05 + (0.35 if reference_label else 0))
    else:
        ax.set_yticklabels(names)
        ax.set_ylim(-0.7, n - 0.3 + (0.35 if reference_label else 0))
    ax.grid(axis="y", visible=False)
    ax.set_xlabel(_wrap(xlabel, 45))
    _title(ax, title)
    handles = [plt.Line2D([], [], color=c, marker=m, linestyle="-", markersize=6, label=text,
                          markerfacecolor="white" if h else c)
               for text, c, m, h in legend or []]
    if handles and narrow():
        _legend_below(fig, handles, [h.get_label() for h in handles])
        return _svg(fig, title)
    if handles:
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.13 - 0.9 / (n + 3)),
                  ncol=len(legend), borderaxespad=0.2)
    fig.tight_layout()
    return _svg(fig, title)


def rates_chart(rows, title: str, *, reference: float | None = None, reference_label: str = "",
                full: bool = False, xlabel: str = "win rate (%), with 95% interval") -> str:
    """Rates (dicts with name, rate, low, high) as a dot-and-whisker chart in percent."""
    colors = [PALETTE[i % len(PALETTE)] for i in range(len(rows))] if len(rows) <= 8 else None
    markers = [MARKERS[i % len(MARKERS)] for i in range(len(rows))] if len(rows) <= 8 else None
    shown = [x for r in rows for x in (r["low"], r["high"]) if r["rate"] is not None]
    if shown and max(shown) - min(shown) > 0.25:
        full = True  # widely spread rates read best on the whole 0-100% scale
    return interval_chart([r["name"] for r in rows], [r["rate"] for r in rows],
                          [r["low"] for r in rows], [r["high"] for r in rows], title=title,
                          xlabel=xlabel, reference=reference, reference_label=reference_label,
                          colors=colors, markers=markers,
                          full_range=(0.0, 100.0) if full else None)


def differences_chart(rows, title: str, *, xlabel: str, alpha: float = 0.05,
                      sort: bool = False) -> str:
    """Differences (name, diff, low, high, significant) in points around a zero line; the
    significant ones are filled vermillion diamonds, the others open grey circles."""
    rows = sorted(rows, key=lambda r: r["diff"], reverse=True) if sort else list(rows)
    if any("significant" in r for r in rows):
        colors = [OKABE_ITO["vermillion"] if r.get("significant") else GREY for r in rows]
        markers = ["D" if r.get("significant") else "o" for r in rows]
        hollow = [not r.get("significant") for r in rows]
        legend = [("significant (Holm)", OKABE_ITO["vermillion"], "D", False),
                  ("not significant", GREY, "o", True)]
    else:  # estimates without a test: all alike
        colors, markers, hollow, legend = [OKABE_ITO["blue"]] * len(rows), None, None, None
    return interval_chart([r["name"] for r in rows], [r["diff"] for r in rows],
                          [r["low"] for r in rows], [r["high"] for r in rows], title=title,
                          xlabel=xlabel, value_format="{:+.1f}", colors=colors, markers=markers,
                          zero_line=True, hollow=hollow, legend=legend)


def means_chart(rows, title: str, *, xlabel: str) -> str:
    """Means (name, mean, low, high) with Student-t intervals."""
    return interval_chart([r["name"] for r in rows], [r["mean"] for r in rows],
                          [r["low"] for r in rows], [r["high"] for r in rows], title=title,
                          xlabel=xlabel, scale=1.0, value_format="{:.2f}")


@_style
def paired_rates_chart(names, rows_a, rows_b, title: str, *, labels=("A", "B"),
                       xlabel: str = "win rate (%), with 95% interval") -> str:
    """Two setups side by side: for each name, A (blue circle) above B (orange square)."""
    n = len(names)
    fig, ax = _fig(1.0 + 0.5 * max(n, 1))
    ys = np.arange(n)[::-1].astype(float)
    allv, labels_at = [], []
    for rows, offset, color, marker, lab in ((rows_a, 0.14, OKABE_ITO["blue"], "o", labels[0]),
                                             (rows_b, -0.14, OKABE_ITO["orange"], "s", labels[1])):
        first = True
        for y, row in zip(ys, rows):
            if row is None or row["rate"] is None:
                continue
            v, lo, hi = 100 * row["rate"], 100 * row["low"], 100 * row["high"]
            allv += [lo, hi]
            ax.plot([lo, hi], [y + offset] * 2, color=color, linewidth=2.2, solid_capstyle="butt")
            ax.plot([v], [y + offset], marker=marker, color=color, markersize=6.5,
                    linestyle="none", label=lab if first else None)
            labels_at.append((hi, y + offset, f"{v:.1f}%"))
            first = False
    if allv:
        left, right = min(allv), max(allv)
        pad = max((right - left) * 0.08, 0.5)
        ax.set_xlim(left - pad, right + pad + 0.14 * (right - left + 2 * pad))
        gap = 0.012 * (right - left + 2 * pad)
        for x, y, text in labels_at:
            ax.text(x + gap, y, text, va="center", fontsize=8.5, color=TEXT)
    ax.set_yticks(ys)
    ax.set_yticklabels(names)
    ax.set_ylim(-0.7, n - 0.3)
    ax.grid(axis="y", visible=False)
    ax.set_xlabel(_wrap(xlabel, 45))
    _title(ax, title)
    if narrow():
        _legend_below(fig, ax=ax)
        return _svg(fig, title)
    ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), ncol=2, borderaxespad=0.2)
    fig.tight_layout()
    return _svg(fig, title)


# --- distributions -----------------------------------------------------------------------------
@_style
def histogram_chart(counts, title: str, *, xlabel: str, mean: float | None = None,
                    series_label: str | None = None, trim: bool = True) -> str:
    """A distribution over 0, 1, 2, ...: bars of the share of games (%) at each value."""
    counts = np.asarray(counts, dtype=float)
    total = counts.sum()
    xs = np.arange(len(counts))
    if trim and total:
        nonzero = np.nonzero(counts)[0]
        lo, hi = int(nonzero[0]), int(nonzero[-1])
        xs, counts = xs[lo:hi + 1], counts[lo:hi + 1]
    shares = 100 * counts / total if total else counts
    fig, ax = _fig(2.9)
    ax.bar(xs, shares, width=0.8, color=OKABE_ITO["blue"], label=series_label)
    most = 10 if narrow() else 30  # bars narrow enough to carry their value
    for x, s in zip(xs, shares):
        if s >= 0.05 and len(xs) <= most:
            ax.text(x, s, f"{s:.1f}", ha="center", va="bottom", fontsize=8, color=TEXT)
    if mean is not None and math.isfinite(mean):
        ax.axvline(mean, color=OKABE_ITO["vermillion"], linestyle="--", linewidth=1.6,
                   label=f"mean {mean:.2f}")
    if len(xs) <= (12 if narrow() else 30):
        ax.set_xticks(xs)
    else:
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(nbins=8, integer=True))
    ax.set_xlabel(_wrap(xlabel, 45))
    ax.set_ylabel("share of games (%)")
    ax.grid(axis="x", visible=False)
    _title(ax, title)
    if narrow():
        _legend_below(fig, ax=ax)
        return _svg(fig, title)
    if mean is not None and math.isfinite(mean):
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), borderaxespad=0.3)
    fig.tight_layout()
    return _svg(fig, title)


@_style
def distributions_chart(series, title: str, *, xlabel: str, ylabel: str = "share (%)") -> str:
    """Several distributions over 0, 1, 2, ...: grouped bars (up to four series and 30 values),
    else step lines with markers; one colour and hatch or marker per series."""
    hi, lo = 0, None
    for s in series:
        counts = np.asarray(s["counts"], dtype=float)
        if counts.sum():
            nz = np.nonzero(counts)[0]
            hi = max(hi, int(nz[-1]))
            lo = int(nz[0]) if lo is None else min(lo, int(nz[0]))
    lo = lo or 0
    drawn = [s for s in series if np.asarray(s["counts"], dtype=float).sum()]
    bars = len(drawn) <= 4 and hi - lo + 1 <= 30
    fig, ax = _fig(3.2)
    hatches = ["", "//", "..", "xx"]
    width = 0.8 / max(len(drawn), 1)
    for i, s in enumerate(drawn):
        counts = np.asarray(s["counts"], dtype=float)
        xs = np.arange(len(counts))[lo:hi + 1]
        shares = 100 * counts[lo:hi + 1] / counts.sum()
        color = PALETTE[i % len(PALETTE)]
        if bars:
            ax.bar(xs - 0.4 + width * (i + 0.5), shares, width=width * 0.95, color=color,
                   hatch=hatches[i], edgecolor="white", linewidth=0.5, label=s["name"])
        else:  # many values: plain lines, a marker every few points tells them apart
            ax.plot(xs, shares, color=color, marker=MARKERS[i % len(MARKERS)], markersize=4.5,
                    markevery=max(1, len(xs) // 12), linewidth=1.5, label=s["name"])
    if hi - lo + 1 <= (12 if narrow() else 30):
        ax.set_xticks(np.arange(lo, hi + 1))
    else:
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(nbins=8 if narrow() else "auto",
                                                                 integer=True))
    if bars:
        ax.grid(axis="x", visible=False)
    return _finish_with_legend(fig, ax, title, xlabel, ylabel)


# --- sweeps ------------------------------------------------------------------------------------
def _numeric(levels) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in levels)


@_style
def line_chart(levels, labels, series, title: str, *, xlabel: str, ylabel: str,
               target: float | None = None, target_label: str = "", scale: float = 100.0,
               highlight: list[int] | None = None, value_format: str = "{:.1f}") -> str:
    """How measures move along one varied key: a line per series with its interval band.

    `series`: dicts with name, values, lows, highs (None where a cell is invalid). Numeric levels
    are placed at their values; others evenly. `highlight`: level positions to ring (the fairest).
    """
    numeric = _numeric(levels)
    xs = np.array(levels, dtype=float) if numeric else np.arange(len(levels), dtype=float)
    fig, ax = _fig(3.4)
    first = np.array([])
    for i, s in enumerate(series):
        color, marker = PALETTE[i % len(PALETTE)], MARKERS[i % len(MARKERS)]
        v = np.array([np.nan if x is None else x for x in s["values"]], dtype=float) * scale
        lo = np.array([np.nan if x is None else x for x in s["lows"]], dtype=float) * scale
        hi = np.array([np.nan if x is None else x for x in s["highs"]], dtype=float) * scale
        ax.fill_between(xs, lo, hi, color=color, alpha=0.22, linewidth=0)
        ax.plot(xs, v, color=color, marker=marker, markersize=5.5, linewidth=1.8, label=s["name"])
        if i == 0:
            first = v
    for h in highlight or []:
        if not np.isnan(first[h]):
            ax.plot([xs[h]], [first[h]], marker="o", markersize=14, markerfacecolor="none",
                    markeredgecolor=TEXT, markeredgewidth=1.6, linestyle="none",
                    label="fairest" if h == highlight[0] else None)
    if not numeric or len(xs) < 2:
        ax.set_xlim(xs.min() - 0.35, xs.max() + 0.35)
    else:
        ax.margins(x=0.04)
    if isinstance(target, (list, tuple)):  # a target per level (e.g. 1/players)
        ts = np.array([np.nan if x is None else x for x in target], dtype=float) * scale
        ax.plot(xs, ts, color=GREY, linestyle="--", linewidth=1.2, label=target_label or None)
    elif target is not None:
        ax.axhline(target * scale, color=GREY, linestyle="--", linewidth=1.2,
                   label=target_label or None)
    invalid = [i for i in range(len(levels))
               if all(s["values"][i] is None for s in series)]
    for i in invalid:
        ax.axvspan(xs[i] - 0.3, xs[i] + 0.3, color=LIGHT, alpha=0.6, linewidth=0)
        ax.text(xs[i], 0.02, NO_RESULT, transform=ax.get_xaxis_transform(), ha="center",
                fontsize=8, color=GREY)
    ax.set_xticks(xs)
    crowded = sum(len(str(x)) for x in labels) >= (24 if narrow() else 60)
    ax.set_xticklabels(labels, rotation=30 if crowded else 0, ha="right" if crowded else "center")
    return _finish_with_legend(fig, ax, title, xlabel, ylabel)


def _text_color(rgba) -> str:
    r, g, b = rgba[:3]
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#000000" if luminance > 0.5 else "#ffffff"


@_style
def heatmap(xlabels, ylabels, values, lows, highs, title: str, *, xlabel: str, ylabel: str,
            target: float | None = None, colorbar_label: str, scale: float = 100.0,
            fairest: list[tuple[int, int]] | None = None, value_digits: int = 1,
            show_halfwidth: bool = True, centers=None,
            covers: list[tuple[int, int]] | None = None) -> str:
    """A measure over two varied keys. Values [y][x] (None: invalid cell, hatched grey).

    With a `target` the colours diverge from it (PuOr, colour-blind safe): the further from the
    target, the darker; otherwise cividis. Each cell is written as value ± half-width; the fairest
    cells get a thick outline, the cells of `covers` (the fair region) a dotted one.
    """
    v = np.array([[np.nan if x is None else x for x in row] for row in values], dtype=float) * scale
    lo = np.array([[np.nan if x is None else x for x in row] for row in lows], dtype=float) * scale
    hi = np.array([[np.nan if x is None else x for x in row] for row in highs], dtype=float) * scale
    ny, nx = v.shape
    if narrow():  # as wide as a phone, or wider (then it scrolls in its box) but legible
        width = max(NARROW, 1.5 + 0.62 * nx)
    else:
        width = max(min(WIDTH, 1.8 + 0.85 * nx), 4.8)
    fig, ax = _fig(1.3 + 0.5 * ny, width=width)
    colour = v
    if centers is not None:  # each cell against its own target: colour the difference
        colour = v - np.array([[np.nan if x is None else x for x in row] for row in centers],
                              dtype=float) * scale
        target, scale_target = 0.0, 1.0
    else:
        scale_target = scale
    finite = colour[~np.isnan(colour)]
    if target is not None:
        centre = target * scale_target
        reach = float(np.max(np.abs(finite - centre))) if finite.size else 1.0
        reach = max(reach, 1e-9)
        norm = mcolors.TwoSlopeNorm(vcenter=centre, vmin=centre - reach, vmax=centre + reach)
        cmap = plt.get_cmap("PuOr")
    else:
        vmin = float(finite.min()) if finite.size else 0.0
        vmax = float(finite.max()) if finite.size else 1.0
        norm = mcolors.Normalize(vmin=vmin, vmax=vmax if vmax > vmin else vmin + 1)
        cmap = plt.get_cmap("cividis")
    masked = np.ma.masked_invalid(colour)
    cmap = cmap.with_extremes(bad=LIGHT)
    image = ax.imshow(masked, cmap=cmap, norm=norm, aspect="auto", origin="lower")
    for yi in range(ny):
        for xi in range(nx):
            if np.isnan(v[yi, xi]):
                ax.add_patch(plt.Rectangle((xi - 0.5, yi - 0.5), 1, 1, fill=False, hatch="///",
                                           edgecolor="#aaaaaa", linewidth=0))
                ax.text(xi, yi, NO_RESULT, ha="center", va="center", fontsize=8, color="#555555")
                continue
            color = _text_color(cmap(norm(colour[yi, xi])))
            text = f"{v[yi, xi]:.{value_digits}f}"
            if show_halfwidth and not np.isnan(lo[yi, xi]):
                text += f"\n±{(hi[yi, xi] - lo[yi, xi]) / 2:.{value_digits}f}"
            ax.text(xi, yi, text, ha="center", va="center",
                    fontsize=8.5 if nx <= (5 if narrow() else 8) else 7.5,
                    color=color, linespacing=1.1)
    for xi, yi in covers or []:
        ax.add_patch(plt.Rectangle((xi - 0.4, yi - 0.4), 0.8, 0.8, fill=False, edgecolor=TEXT,
                                   linestyle=(0, (1.5, 1.5)), linewidth=1.3))
    for xi, yi in fairest or []:
        ax.add_patch(plt.Rectangle((xi - 0.46, yi - 0.46), 0.92, 0.92, fill=False,
                                   edgecolor=OKABE_ITO["green"], linewidth=3.0))
    ax.set_xticks(range(nx))
    crowded = sum(len(str(x)) for x in xlabels) >= (20 if narrow() else 50)
    ax.set_xticklabels(xlabels, rotation=30 if crowded else 0, ha="right" if crowded else "center")
    ax.set_yticks(range(ny))
    ax.set_yticklabels(ylabels)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(False)
    for spine in ax.spines.values():
        spine.set_visible(False)
    _title(ax, title)
    bar = fig.colorbar(image, ax=ax, fraction=0.05, pad=0.03)
    bar.set_label(_wrap(colorbar_label, 24))
    if target is not None:
        bar.ax.axhline(target * scale_target, color=TEXT, linewidth=1.2)
    fig.tight_layout()
    return _svg(fig, title)
