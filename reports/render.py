"""Rendering reports: numbers (reports.numbers) + charts (reports.charts) -> one HTML file.

Public entry points:

* :func:`write_run_report` / :func:`render_run_report` — a run's balance report;
* :func:`write_sweep_report` / :func:`render_sweep_report` — a sweep's report;
* :func:`write_compare_report` / :func:`render_compare_report` — two results side by side.

Rendering computes no numbers: it lays out what reports.numbers gives (in the templates, the
charts and their captions). A page is self-contained: its CSS is inline, its charts are inline
SVG, and it has no script except a JSON block (``id="fairplay-numbers"``) holding every number
the page shows.
"""

from __future__ import annotations

import datetime as _dt
import json
from importlib import metadata
from pathlib import Path

import jinja2
from markupsafe import Markup

from simulator.studies.compare import compare
from simulator.fileio import write_atomically
from simulator.run.results import Result
from simulator.statistics import adaptive
from simulator.studies.sweep import Sweep

from . import charts, export, guidance, measures
from .numbers import compare_numbers, role_values_numbers, run_numbers, sweep_numbers

CONFIDENCE = measures.CONFIDENCE


# --- the template environment ------------------------------------------------------------------
def _version() -> str:
    try:
        return metadata.version("fairplay")
    except metadata.PackageNotFoundError:
        return "unknown"


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("reports", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"], default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters.update(pct=guidance.percent, interval=guidance.interval_text,
                       points=guidance.points_text, num=guidance.number_text,
                       p=guidance.p_text, approx=guidance.round_games, csv_link=_csv_link)
    return env


def _csv_link(table: dict | None) -> Markup:
    """A link that downloads a table as CSV from a data URI (no script, no file beside)."""
    if not table:
        return Markup("")
    return Markup('<a class="csv" download="{}" href="{}">Download CSV</a>').format(
        f"{table['name']}.csv", export.data_uri(table))


def _numbers_json(numbers: dict) -> Markup:
    text = json.dumps(numbers, ensure_ascii=False, allow_nan=False, sort_keys=False)
    # Inside <script>: "</" would end the element, "<!--" would open a comment.
    text = text.replace("</", "<\\/").replace("<!--", "<\\!--")
    return Markup(text)


def _page(template: str, numbers: dict, **context) -> str:
    env = environment()
    return env.get_template(template).render(
        numbers=numbers, numbers_json=_numbers_json(numbers), version=_version(),
        generated=_dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), **context)


def _write(text: str, path) -> Path:
    return write_atomically(path, text)


def _chart(kind: str, draw, caption: str, narrow=None) -> dict:
    """A chart in its two layouts: `draw()` is called once as is (wide) and once inside
    charts.narrow_layout() (a phone's), or `narrow()` there when the narrow one is drawn
    differently (a transposed heat map)."""
    wide = draw()
    with charts.narrow_layout():
        small = (narrow or draw)()
    return {"kind": kind, "svg": Markup(wide), "narrow": Markup(small), "caption": caption}


# --- a run -------------------------------------------------------------------------------------
_WHISKERS = {adaptive.AT_STOP: "95% intervals at the sequential stop",
             adaptive.REPEATED: "repeated 95% intervals (they hold after the sequential stop)"}


def _whiskers(rows: list[dict], plain: str) -> str:
    """What a rate chart's whiskers are: `plain` for plain 95% intervals; after a sequential stop
    the rows' own (reports.measures.rate_dict's "interval")."""
    kinds = {row["interval"] for row in rows}
    if kinds <= {"95% CI"}:
        return plain
    if len(kinds) == 1:
        kind = kinds.pop()
        return _WHISKERS.get(kind, kind)
    return "the intervals the table below names"


def _axis(rows: list[dict], plain: str) -> dict:
    """The x label of a rate chart after a sequential stop (its default otherwise)."""
    kinds = {row["interval"] for row in rows}
    return {} if kinds <= {"95% CI"} else \
        {"xlabel": plain.replace("95% interval", "its interval after the sequential stop")}


def run_charts(numbers: dict) -> dict:
    """The charts of a run report, keyed by section."""
    out: dict[str, list] = {}
    rates = numbers["rates"]
    team_game = numbers["setup"]["scoring"] == "team"
    if rates["team"]:
        teams = numbers["setup"]["teams"]
        even = numbers["team_reference"]
        out["team"] = [_chart("rates", lambda: charts.rates_chart(
            rates["team"], "Win rate by team", reference=even,
            reference_label="even game" if len(teams) == 2 else "equal share", full=True,
            **_axis(rates["team"], "win rate (%), with 95% interval")),
            f"Share of all games each team won; whiskers are "
            f"{_whiskers(rates['team'], '95% Wilson intervals')}. The dashed "
            f"line is an equal share ({guidance.percent(even, 0)}).")]
    if rates["seat"]:
        ref = numbers["seat_reference"]
        ref_label = "even share" if not team_game else "mean of seats"
        out["seat"] = [_chart("rates", lambda: charts.rates_chart(
            rates["seat"], "Win rate by seat", reference=ref, reference_label=ref_label,
            **_axis(rates["seat"], "win rate (%), with 95% interval")),
            "Share of games each seat won" + (" (its team's win)" if team_game else "")
            + "; whiskers are " + _whiskers(rates["seat"], "95% Wilson intervals")
            + ". Seats differ only by position and chance; the dashed line is the "
            + ref_label + ".")]
    # In an individual game every seat-game has the same even share (1/players), the line a
    # role or strategy is judged against; in a team game a role's share depends on its team.
    even = None if team_game else numbers["seat_reference"]
    even_words = "" if team_game else " The dashed line is the even share (1/players)."
    if rates["role"]:
        out["role"] = [_chart("rates", lambda: charts.rates_chart(
            rates["role"], "Win rate by role", reference=even, reference_label="even share",
            **_axis(rates["role"], "win rate (%), with 95% interval")),
            "Share of seat-games won by a seat that ended the game holding the role; whiskers "
            f"are {_whiskers(rates['role'], '95% intervals')} with the game as the unit."
            + even_words)]
    if rates["strategy"]:
        out["strategy"] = [_chart("rates", lambda: charts.rates_chart(
            rates["strategy"], "Win rate by strategy", reference=even,
            reference_label="even share",
            **_axis(rates["strategy"], "win rate (%), with 95% interval")),
            "Share of seat-games won by seats playing each strategy; whiskers are "
            f"{_whiskers(rates['strategy'], '95% intervals')} with the game as the unit."
            + even_words)]
    if rates["end"]:
        out["end"] = [_chart("rates", lambda: charts.rates_chart(
            rates["end"], "How games end", full=True,
            **({"xlabel": "share of games (%), with 95% interval"}
               | _axis(rates["end"], "share of games (%), with 95% interval"))),
            f"Share of games that ended by each condition, with "
            f"{_whiskers(rates['end'], '95% Wilson intervals')}.")]
    length = numbers["length"]
    if length["games"] and length["min"] != length["max"]:  # one length needs no chart
        out["length"] = [_chart("histogram", lambda: charts.histogram_chart(
            length["hist"], "Game length", xlabel=f"game length ({length['unit']})",
            mean=length["mean"]),
            f"Share of games lasting each number of {length['unit']}; the dashed line is the "
            f"mean.")]
    out["scores"] = [section_charts(sec, "points") for sec in numbers["scores"]]
    out["other"] = [section_charts(sec, "") for sec in numbers["other_measures"]]
    return out


def section_charts(section: dict, unit: str) -> list[dict]:
    """The charts of one game-specific tally section (scores and other measures)."""
    title, by = section["title"].replace("_", " "), section.get("by", "")
    values = f"{title} ({unit})" if unit else title
    figs = []
    series = section.get("series") or []
    if section["kind"] == "distribution" and series:
        if len(series) == 1:
            figs.append(_chart("histogram", lambda: charts.histogram_chart(
                series[0]["counts"], f"Distribution of {title}", xlabel=values,
                mean=series[0]["mean"]), section["meaning"] or section["tally"]))
        else:
            figs.append(_chart("distribution", lambda: charts.distributions_chart(
                series, f"Distribution of {title} by {by}", xlabel=values,
                ylabel="share of games (%)" if by == "seat" else f"share of {by}-games (%)"),
                section["meaning"] or section["tally"]))
    if section["kind"] in ("distribution", "means") and len(section.get("means") or []) > 1:
        figs.append(_chart("means", lambda: charts.means_chart(
            section["means"], f"Mean {title} by {by}",
            xlabel=f"mean {values}, with 95% interval"),
            f"Means with 95% Student-t intervals (from {section['means_from']})."))
    if section["kind"] == "rates" and section["rates"]:
        figs.append(_chart("rates", lambda: charts.rates_chart(
            section["rates"], f"{title.capitalize()}: rate by {by}",
            xlabel="rate (%), with 95% interval"), section["meaning"]))
    return figs


def render_run_report(result: Result, confidence: float = CONFIDENCE, origin: str = "",
                      role_values: dict | None = None) -> str:
    """A run's report as one HTML string; `role_values` (schema fairplay.roles, from `fairplay
    run --role-values`) adds the section of what each role is worth."""
    numbers = run_numbers(result, confidence, origin)
    figures = run_charts(numbers)
    if role_values:
        numbers["role_values"] = role_values_numbers(role_values)
        figures["role_values"] = roles_charts(role_values)
    return _page("run.html.j2", numbers, n=numbers, charts=figures,
                 tables=export.run_tables(numbers), titles=measures.GROUP_TITLES,
                 title=f"Balance report: {result.game.title}")


def write_run_report(result: Result, path, origin: str = "",
                     role_values: dict | None = None) -> Path:
    """Write the report of `result` (a simulator.run.results.Result) to `path` (HTML)."""
    return _write(render_run_report(result, origin=origin, role_values=role_values), path)


# --- a comparison ------------------------------------------------------------------------------
def render_compare_report(a: Result, b: Result, labels=("A", "B"),
                          confidence: float = CONFIDENCE) -> str:
    c = compare(a, b, confidence)
    numbers = compare_numbers(c, labels)
    figs = {}
    teams = [d for d in numbers["differences"] if d["group"] == "team"]
    if teams:
        figs["team"] = _chart("paired", lambda: charts.paired_rates_chart(
            [d["name"] for d in teams], [d["a"] for d in teams], [d["b"] for d in teams],
            "Win rate by team", labels=labels),
            f"{labels[0]} (blue circles) and {labels[1]} (orange squares), with 95% intervals.")
    if numbers["differences"]:
        rows = [dict(d, name=f"{d['group']}: {d['name']}" if d["group"] != "seat" else d["name"])
                for d in numbers["differences"]]
        figs["differences"] = _chart("differences", lambda: charts.differences_chart(
            rows, f"Differences, {labels[1]} minus {labels[0]}",
            xlabel="difference (percentage points), with 95% interval"),
            "Each rate's change in percentage points with its 95% Newcombe interval; filled "
            "diamonds are significant after Holm correction over all the comparisons.")
    la, lb = numbers["sides"]["a"]["length"], numbers["sides"]["b"]["length"]
    if la["games"] and lb["games"]:
        figs["length"] = _chart("distribution", lambda: charts.distributions_chart(
            [{"name": labels[0], "counts": la["hist"]}, {"name": labels[1], "counts": lb["hist"]}],
            "Game length", xlabel=f"game length ({la['unit']})", ylabel="share of games (%)"),
            "Share of games lasting each length, both setups.")
    if numbers["role_values"]:
        team_game = bool(c.a.game.team_game)
        figs["roles"] = _chart("values", lambda: charts.differences_chart(
            numbers["role_values"], "Role values",
            xlabel=("change in the role's team win rate (points), with 95% interval" if team_game
                    else "fall in the other seats' win rate (points), with 95% interval"),
            sort=True),
            f"What dealing more or fewer of a role is worth, {labels[1]} against {labels[0]} "
            "(percentage points, 95% Newcombe interval).")
    return _page("compare.html.j2", numbers, n=numbers, charts=figs, titles=measures.GROUP_TITLES,
                 tables=export.compare_tables(numbers), title=f"Comparison: {a.game.title}")


def write_compare_report(a: Result, b: Result, path, labels=("A", "B")) -> Path:
    return _write(render_compare_report(a, b, labels), path)


# --- a sweep -----------------------------------------------------------------------------------
def _series_over(cells, getter):
    values, lows, highs = [], [], []
    for c in cells:
        m = c["measures"] if c else None
        row = getter(m) if m else None
        values.append(None if row is None else row.get("rate", row.get("mean")))
        lows.append(None if row is None else row.get("low"))
        highs.append(None if row is None else row.get("high"))
    return values, lows, highs


def sweep_charts(numbers: dict) -> list[dict]:
    varied = numbers["varied"]
    axes = numbers["axes"]
    cells = numbers["cells"]
    figs = []
    if len(varied) == 1:
        a = varied[0]
        axis = axes[a]
        # one cell per level (the other axes have a single level)
        line = [next((c for c in cells if c["levels"][a] == v), None) for v in axis["values"]]
        levels = axis["values"]  # the chart spaces numeric levels by value, others evenly
        highlight = [i for i, c in enumerate(line) if c and c["fairest"]]
        highlight.sort(key=lambda i: line[i]["rank"])
        if numbers["teams"]:
            series = []
            for t, team in enumerate(numbers["teams"]):
                v, lo, hi = _series_over(line, lambda m, t=t: m["teams"][t])
                series.append({"name": team, "values": v, "lows": lo, "highs": hi})
            target = numbers["target"]
            if target is None:  # each cell's own balance_target
                target = [c["measures"]["balance"]["target"] if c and c["measures"] else None
                          for c in line]
            figs.append(_chart("line", lambda: charts.line_chart(
                levels, axis["labels"], series, "Win rate by team", xlabel=axis["key"],
                ylabel="win rate (%)", target=target,
                target_label=f"target for {numbers['teams'][0]}", highlight=highlight),
                f"Each team's share of all games at each {axis['key']}; bands are 95% Wilson "
                f"intervals. Rings mark the fairest cells; the dashed line is the balance target "
                f"of {numbers['teams'][0]}."))
        else:
            v, lo, hi = _series_over(line, lambda m: m["balance"])
            figs.append(_chart("line", lambda: charts.line_chart(
                levels, axis["labels"], [{"name": "seat 0 share", "values": v, "lows": lo,
                                          "highs": hi}],
                "First seat's share of decided games", xlabel=axis["key"], ylabel="share (%)",
                highlight=highlight, target_label="even share (1/players)",
                target=[c["measures"]["balance"]["target"] if c and c["measures"] else None
                        for c in line]),
                "The first seat's share of decided games (bands: 95% intervals); the dashed line "
                "is an even share, 1/players. Rings mark the fairest cells."))
        series = []
        for e, name in enumerate(numbers["ends"]):
            v, lo, hi = _series_over(line, lambda m, e=e: m["ends"][e])
            series.append({"name": name, "values": v, "lows": lo, "highs": hi})
        figs.append(_chart("line", lambda: charts.line_chart(
            levels, axis["labels"], series, "How games end", xlabel=axis["key"],
            ylabel="share of games (%)"),
            "Share of games ending by each condition, with 95% interval bands."))
        v, lo, hi = _series_over(line, lambda m: m["length"])
        figs.append(_chart("line", lambda: charts.line_chart(
            levels, axis["labels"], [{"name": "mean length", "values": v, "lows": lo,
                                      "highs": hi}],
            "Game length", xlabel=axis["key"], ylabel=f"mean length ({numbers['length_unit']})",
            scale=1.0),
            f"Mean game length in {numbers['length_unit']}, with 95% Student-t interval band."))
        played = [(label, c) for label, c in zip(axis["labels"], line) if c and c["measures"]]
        if played:
            figs.append(_chart("distribution", lambda: charts.distributions_chart(
                [{"name": f"{axis['key']} = {label}", "counts": c["measures"]["length"]["hist"]}
                 for label, c in played],
                "Game length by cell", xlabel=f"game length ({numbers['length_unit']})",
                ylabel="share of games (%)"),
                "How long each cell's games last: the share of games of each length."))
    elif len(varied) == 2:
        ax_x, ax_y = varied[1], varied[0]  # the first varied key runs down, the second across
        xa, ya = axes[ax_x], axes[ax_y]
        grid = {}
        for c in cells:
            grid[(json.dumps(c["levels"][ax_x]), json.dumps(c["levels"][ax_y]))] = c

        def matrix(getter):
            vals, lows, highs = [], [], []
            for yv in ya["values"]:
                rv, rl, rh = [], [], []
                for xv in xa["values"]:
                    c = grid.get((json.dumps(xv), json.dumps(yv)))
                    row = getter(c["measures"]) if c and c["measures"] else None
                    rv.append(None if row is None else row.get("rate", row.get("mean")))
                    rl.append(None if row is None else row.get("low"))
                    rh.append(None if row is None else row.get("high"))
                vals.append(rv)
                lows.append(rl)
                highs.append(rh)
            return vals, lows, highs

        fairest, covers = [], []
        for yi, yv in enumerate(ya["values"]):
            for xi, xv in enumerate(xa["values"]):
                c = grid.get((json.dumps(xv), json.dumps(yv)))
                if c and c["fairest"]:
                    fairest.append((xi, yi))
                if c and c["measures"] and c["measures"]["balance"]["covers_target"]:
                    covers.append((xi, yi))
        v, lo, hi = matrix(lambda m: m["balance"])
        who = numbers["balance_who"]
        if numbers["target"] is not None:
            target, centers = numbers["target"], None
            label = f"{who}'s share (%)"
            where = f"the balance target ({guidance.percent(target)}, white)"
        else:
            target = None
            centers, _, _ = matrix(lambda m: {"rate": m["balance"]["target"]})
            label = "points above the cell's target"
            where = "each cell's own target (white)"
        wide, small = _heatmaps(xa, ya, v, lo, hi, f"{who}'s share of decided games (%)",
                                target=target, centers=centers, colorbar_label=label,
                                fairest=fairest, covers=covers)
        figs.append(_chart("heatmap", wide, (
            f"Each cell: {who}'s share of decided games ± the half-width of its 95% interval. "
            f"Colours diverge from {where}: orange where {who} wins less than the target, "
            f"purple where more. Dotted outlines mark the fair region (the cell's interval "
            f"covers the target), green outlines the fairest cells; hatched cells are invalid "
            f"setups."), narrow=small))
        v, lo, hi = matrix(lambda m: m["length"])
        wide, small = _heatmaps(xa, ya, v, lo, hi, f"Mean game length ({numbers['length_unit']})",
                                colorbar_label=f"{numbers['length_unit']}", scale=1.0,
                                value_digits=2, show_halfwidth=False)
        figs.append(_chart("heatmap", wide,
                           f"Mean game length in {numbers['length_unit']} for each cell.",
                           narrow=small))
        # a line chart per level of the second key: the balance measure along the first
        for xv, xlabel in zip(xa["values"], xa["labels"]):
            line = [grid.get((json.dumps(xv), json.dumps(yv))) for yv in ya["values"]]
            highlight = sorted((i for i, c in enumerate(line) if c and c["fairest"]),
                               key=lambda i: line[i]["rank"])
            bv, blo, bhi = _series_over(line, lambda m: m["balance"])
            level_target = numbers["target"] if numbers["target"] is not None else \
                [c["measures"]["balance"]["target"] if c and c["measures"] else None
                 for c in line]
            level = guidance.quantity(xa["key"], xv, xlabel)
            figs.append(_chart("line", lambda: charts.line_chart(
                ya["values"], ya["labels"], [{"name": f"{who}'s share", "values": bv,
                                              "lows": blo, "highs": bhi}],
                f"{who}'s share of decided games, {level}", xlabel=ya["key"],
                ylabel="share of decided games (%)", target=level_target,
                target_label="target", highlight=highlight),
                f"With {level}: {who}'s share of decided games at each {ya['key']}, with its "
                f"95% interval band; the dashed line is the target, rings mark the fairest "
                f"cells."))
    if numbers["role_values"]:
        if numbers["teams"]:
            xlabel = "change in the role's team win rate (points), with 95% interval"
            what = "What one more of a role is worth to its team: the change in its team's win rate"
        else:
            xlabel = "fall in the other seats' win rate (points), with 95% interval"
            what = ("What one more of a role is worth: how much the win rate of the seats not "
                    "holding it falls")
        figs.append(_chart("values", lambda: charts.differences_chart(
            numbers["role_values"], "Role values", xlabel=xlabel, sort=True),
            what + " (percentage points, 95% Newcombe interval) from one level of the role count "
            "to the next, the other keys held; sorted by value."))
    return figs


def _heatmaps(xa: dict, ya: dict, values, lows, highs, title: str, *, centers=None,
              fairest=(), covers=(), **options):
    """The wide and narrow drawings of a heat map; the narrow one turns a grid that is wider
    than tall (more than five columns) on its side, to fit a phone."""

    def flip(m):
        return None if m is None else [list(row) for row in zip(*m)]

    def wide():
        return charts.heatmap(xa["labels"], ya["labels"], values, lows, highs, title,
                              xlabel=xa["key"], ylabel=ya["key"], centers=centers,
                              fairest=list(fairest), covers=list(covers), **options)

    def turned():
        return charts.heatmap(ya["labels"], xa["labels"], flip(values), flip(lows), flip(highs),
                              title, xlabel=ya["key"], ylabel=xa["key"], centers=flip(centers),
                              fairest=[(y, x) for x, y in fairest],
                              covers=[(y, x) for x, y in covers], **options)

    nx, ny = len(xa["labels"]), len(ya["labels"])
    return wide, (turned if nx > 5 and ny < nx else None)


def render_sweep_report(sweep: Sweep, confidence: float = CONFIDENCE) -> str:
    numbers = sweep_numbers(sweep, confidence)
    return _page("sweep.html.j2", numbers, n=numbers, charts=sweep_charts(numbers),
                 tables=export.sweep_tables(numbers), title=f"Sweep report: {numbers['title']}")


def write_sweep_report(sweep: Sweep, path) -> Path:
    return _write(render_sweep_report(sweep), path)



# --- role values (fairplay roles) --------------------------------------------------------------
def roles_charts(data: dict) -> list[dict]:
    rows = [{"name": r["role"], "diff": r["value"], "low": r["low"], "high": r["high"]}
            for r in data["roles"]]
    title = f"{data['team']} win rate with one more of each role (in place of a {data['filler']})"
    return [_chart("values", lambda: charts.differences_chart(
        rows, title, xlabel="change in percentage points, 95% simultaneous paired interval",
        sort=True),
        "Each role's value: the point estimate and its 95% paired interval, widened so that "
        "the intervals of every role hold together (one base run); the zero line is the base "
        "setup.")]


def render_roles_report(data: dict) -> str:
    """The report of `fairplay roles`: the values as a chart and a table (schema fairplay.roles)."""
    numbers = role_values_numbers(data)
    return _page("roles.html.j2", numbers, n=numbers, charts=roles_charts(data),
                 title=f"Role values: {data['game']}, {data['players']} players")


def write_roles_report(data: dict, path) -> Path:
    return _write(render_roles_report(data), path)
