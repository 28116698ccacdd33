"""The reports' tables as CSV: `fairplay export RESULT|SWEEP --csv DIR` writes them as files, and
each report links every table as a download (a ``data:text/csv`` URI, no script).

The tables are built from the same numbers the report shows (:func:`reports.numbers.run_numbers`,
:func:`reports.numbers.sweep_numbers`, :func:`reports.numbers.compare_numbers`), so a spreadsheet
or a DataFrame reads exactly what the page says. Rates are shares (0.25, not 25%), missing numbers
are empty fields, and the first row names the columns.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path
from urllib.parse import quote

RATE_COLUMNS = ["group", "name", "successes", "trials", "rate", "low", "high", "half_width",
                "games_to_halve", "interval"]

GROUPS = ("team", "seat", "role", "strategy", "end")


def table(name: str, title: str, columns: list[str], rows: list[list]) -> dict:
    return {"name": name, "title": title, "columns": columns, "rows": rows}


def _rate_row(group: str, r: dict) -> list:
    return [group, r["name"], r["successes"], r["trials"], r["rate"], r["low"], r["high"],
            r["half_width"], r["games_to_halve"], r.get("interval", "95% CI")]


# --- a run -------------------------------------------------------------------------------------
def run_tables(numbers: dict) -> dict[str, dict]:
    """One table per table of a run report (numbers: reports.numbers.run_numbers)."""
    tables = {}

    def add(t):
        tables[t["name"]] = t

    for group in GROUPS:
        rows = numbers["rates"].get(group) or []
        if rows:
            add(table(f"rates_{group}", f"rates by {group}", RATE_COLUMNS,
                      [_rate_row(group, r) for r in rows]))
    b = numbers["balance"]
    add(table("balance", "the balance measure",
              ["measure", "who", "successes", "decided", "rate", "low", "high", "half_width",
               "target", "covers_target", "games_to_halve", "interval"],
              [[b["label"], b["who"], b["successes"], b["decided"], b["rate"], b["low"],
                b["high"], b["half_width"], b["target"], b["covers_target"],
                b["games_to_halve"], b["interval"]]]))
    if numbers.get("sequential"):  # the sequential test's decisions, no fixed-sample p-value
        look = numbers["sequential"]
        add(table("tests", "tests (the sequential test at its stop)",
                  ["test", "method", "statistic", "decision", "look", "looks_planned", "finding",
                   "interval", "low", "high", "z"],
                  [[t["name"], t["method"], t["statistic"], t["decision"], look["look"],
                    look["looks_planned"], t["finding"], t["interval"], t["low"], t["high"],
                    t["z"]] for t in numbers["tests"]]))
    else:
        add(table("tests", "tests", ["test", "method", "statistic", "p", "p_holm", "significant"],
                  [[t["name"], t.get("method", ""), t["statistic"], t["p"], t["p_holm"],
                    t["significant"]] for t in numbers["tests"]]))
    if numbers["events"]:
        add(table("events", "events", ["event", "total", "per_game"],
                  [[e["name"], e["total"], e["per_game"]] for e in numbers["events"]]))
    length = numbers["length"]
    games = length["games"]
    last = max((i for i, n in enumerate(length["hist"]) if n), default=-1)
    add(table("lengths", f"game length ({length['unit']})", ["length", "games", "share"],
              [[i, n, n / games if games else None]
               for i, n in enumerate(length["hist"][:last + 1])]))
    for section in list(numbers["scores"]) + list(numbers["other_measures"]):
        for t in section_tables(section):
            add(t)
    rows = [["balance: " + b["label"], b["rate"], b["half_width"], b["games_to_halve"]]]
    rows += [[f"{r['name']} win rate", r["rate"], r["half_width"], r["games_to_halve"]]
             for r in numbers["rates"].get("team") or []]
    add(table("sample_size", "how many games are enough",
              ["rate", "now", "half_width", "games_to_halve"], rows))
    if numbers.get("knobs"):
        add(table("knobs", "balance knobs", ["key", "meaning", "current", "levels", "command"],
                  [[k["key"], k["meaning"], k["current"], k["levels"], k["command"]]
                   for k in numbers["knobs"]]))
    return tables


def section_tables(section: dict) -> list[dict]:
    """The tables of one of the game's own tallies (a section of reports.measures)."""
    name, by = section["tally"], section.get("by", "")
    out = []
    if section["kind"] == "distribution" and section.get("series"):
        rows = []
        for s in section["series"]:
            total = sum(s["counts"])
            last = max((i for i, n in enumerate(s["counts"]) if n), default=-1)
            rows += [[s["name"], value, n, n / total if total else None]
                     for value, n in enumerate(s["counts"][:last + 1])]
        out.append(table(f"{name}_distribution", f"{name}: distribution",
                         [by or "series", "value", "count", "share"], rows))
    if section["kind"] in ("distribution", "means") and section.get("means"):
        out.append(table(f"{name}_means", f"{name}: means",
                         [by or "name", "n", "mean", "low", "high", "sd"],
                         [[m["name"], m["n"], m["mean"], m["low"], m["high"], m["sd"]]
                          for m in section["means"]]))
    elif section["kind"] == "rates":
        out.append(table(name, f"{name}: rates", RATE_COLUMNS,
                         [_rate_row(by or name, r) for r in section["rates"]]))
    elif section["kind"] == "values":
        out.append(table(name, name, ["entry", "value"],
                         [[e["name"], e["value"]] for e in section["entries"]]))
    return out


# --- a sweep -----------------------------------------------------------------------------------
def sweep_tables(numbers: dict) -> dict[str, dict]:
    """One row per cell, with its config values and measures; and the role values."""
    axes = numbers["axes"]
    teams, ends = numbers["teams"], numbers["ends"]
    roles = []
    for c in numbers["cells"]:
        for r in (c["measures"] or {}).get("roles", []):
            if r["name"] not in roles:
                roles.append(r["name"])
    columns = ["cell", "label", "status"] + [a["key"] for a in axes] + [
        "overrides", "games", "balance_who", "balance", "balance_low", "balance_high",
        "balance_target", "covers_target", "fairest_rank"]
    for team in teams:
        columns += [f"{team}_win_rate", f"{team}_low", f"{team}_high"]
    for end in ends:
        columns += [f"end: {end}", f"end: {end} low", f"end: {end} high"]
    columns += ["draws", "mean_length", "length_low", "length_high", "turn_order_p",
                "games_to_halve", "dealt"] + [f"{role}_per_game" for role in roles] + ["error"]
    rows = []
    for c in numbers["cells"]:
        m = c["measures"]
        row = [c["index"], c["label"], c["status"]] + list(c["labels"]) + [
            "; ".join(c.get("overrides", []))]
        if m is None:
            blank = len(columns) - len(row) - 1
            rows.append(row + [None] * blank + [c["error"]])
            continue
        b = m["balance"]
        row += [m["games"], b["who"], b["rate"], b["low"], b["high"], b["target"],
                b["covers_target"], c["rank"]]
        for t in m["teams"]:
            row += [t["rate"], t["low"], t["high"]]
        for e in m["ends"]:
            row += [e["rate"], e["low"], e["high"]]
        per_game = {r["name"]: r["per_game"] for r in m["roles"]}
        row += [m["draws"]["rate"], m["length"]["mean"], m["length"]["low"],
                m["length"]["high"], m["turn_order_p"], b["games_to_halve"], c["dealt"]]
        row += [per_game.get(role, 0.0) for role in roles] + [c["error"]]
        rows.append(row)
    tables = {"cells": table("cells", "all cells", columns, rows)}
    if numbers["role_values"]:
        tables["role_values"] = _role_values(numbers["role_values"])
    return tables


def _role_values(entries: list[dict]) -> dict:
    columns = ["change", "role", "measure", "before", "after", "value", "low", "high", "p"]
    rows = [[e["name"], e["role"], e["measure"], e["k1"] / e["n1"] if e["n1"] else None,
             e["k2"] / e["n2"] if e["n2"] else None, e["diff"], e["low"], e["high"], e["p"]]
            for e in entries]
    return table("role_values", "role values", columns, rows)


# --- a comparison ------------------------------------------------------------------------------
def compare_tables(numbers: dict) -> dict[str, dict]:
    a, b = numbers["labels"]
    columns = ["group", "name", f"{a}_rate", f"{a}_low", f"{a}_high", f"{b}_rate", f"{b}_low",
               f"{b}_high", "difference", "low", "high", "p", "p_holm", "significant"]
    tables = {}
    for group in GROUPS:
        rows = [[d["group"], d["name"], d["a"]["rate"], d["a"]["low"], d["a"]["high"],
                 d["b"]["rate"], d["b"]["low"], d["b"]["high"], d["diff"], d["low"], d["high"],
                 d["p"], d["p_holm"], d["significant"]]
                for d in numbers["differences"] if d["group"] == group]
        if rows:
            tables[f"differences_{group}"] = table(f"differences_{group}",
                                                   f"differences by {group}", columns, rows)
    if numbers["role_values"]:
        tables["role_values"] = _role_values(numbers["role_values"])
    return tables


# --- CSV ---------------------------------------------------------------------------------------
def _field(value):
    if value is None:
        return ""
    if isinstance(value, float):
        return "" if not math.isfinite(value) else repr(value)
    return value


def csv_text(t: dict) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(t["columns"])
    for row in t["rows"]:
        writer.writerow([_field(v) for v in row])
    return buffer.getvalue()


def data_uri(t: dict) -> str:
    """The table as a ``data:text/csv`` URI (for a download link in a page)."""
    return "data:text/csv;charset=utf-8," + quote(csv_text(t), safe=",.-_")


def write_tables(tables: dict[str, dict], folder) -> list[Path]:
    """Write each table to FOLDER/<name>.csv (the folder is made if needed)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for t in tables.values():
        path = folder / f"{t['name']}.csv"
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(csv_text(t))
        paths.append(path)
    return paths
