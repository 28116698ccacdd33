"""The one trace decoder: rows become lines by the games' `TraceEvent` declarations.

A row's columns are unpacked into its event's named fields (`Packed` parts, `Digits` lists), and
its line is the event's `says` format string of them, or, where a sentence needs logic, the
game's story's `tell_<event>(row)`. A game's `Story` subclass keeps what its sentences need from
earlier rows (the roles dealt), renders fields (`{card:kind}` calls `story.kind(card)`), and may
open with header lines. A private event's lines get `base.PRIVATE_MARK`; a line of a mixed
sentence is marked with `base.private_line`.
"""

from __future__ import annotations

import string

import numpy as np

from simulator.games.base import Digits, Packed, TraceEvent, private_line


class Row(dict):
    """A decoded row: its named fields, by name or as attributes (`row.seat`)."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"the row has no field {name!r}") from None


class Story:
    """How one trace reads; a game subclasses it with its renderers, its `tell_<event>` methods
    and what they keep from row to row. One story decodes one trace."""

    def __init__(self, params):
        self.params = params

    def header(self) -> list[str]:
        """The lines before the first row."""
        return []

    def flush(self) -> list[str]:
        """The lines of the gathered rows so far (called before every other row, and at the
        end)."""
        return []

    @staticmethod
    def votes(count) -> str:
        """`{field:votes}`: "1 vote", "3 votes"."""
        return f"{count} vote" + ("" if int(count) == 1 else "s")


def field_names(event: TraceEvent) -> list[str]:
    """The names a row of `event` has: `step`, then its columns' (a packed column's parts)."""
    names = ["step"]
    for _, column in event.columns():
        if isinstance(column, Packed):
            names += [name for name, _ in column.parts]
        else:
            names.append(column.name if isinstance(column, Digits) else column)
    return names


def unpack(event: TraceEvent, row) -> Row:
    """The named fields of one row of `event`."""
    fields = Row(step=int(row[0]))
    for index, column in event.columns():
        if isinstance(column, Packed):
            fields.update(column.unpack(int(row[index])))
    for index, column in event.columns():
        if isinstance(column, str):
            fields[column] = int(row[index])
    for index, column in event.columns():  # after the plain fields: a list's count is one
        if isinstance(column, Digits):
            count = fields[column.count] if column.count else None
            fields[column.name] = column.unpack(int(row[index]), count)
    return fields


class _Renderer(string.Formatter):
    """`{field:renderer}` renders the field with the story's method of that name."""

    def __init__(self, story: Story):
        self.story = story

    def format_field(self, value, format_spec):
        if format_spec.isidentifier():
            return str(getattr(self.story, format_spec)(value))
        return super().format_field(value, format_spec)


def trace_decoder(events, story_class: type[Story] = Story) -> "TraceDecoder":
    """A game's `decode_trace(rows, params)`, its declarations checked first."""
    for event in events:
        told = hasattr(story_class, f"tell_{event.name}")
        if told == bool(event.says):
            raise ValueError(f"trace event {event.name!r}: declare its `says` or give its story "
                             f"a tell_{event.name}, one of the two")
        names = field_names(event)
        if len(set(names)) != len(names):
            raise ValueError(f"trace event {event.name!r}: field names repeat: {names}")
        if event.secret and not event.says:
            raise ValueError(f"trace event {event.name!r}: a secret line follows a `says` line")
        _check_format(event, event.says + event.secret, names, story_class, "")

    for event in events:
        for mark in event.table:
            names = field_names(event)
            if mark.seat not in names:
                raise ValueError(f"trace event {event.name!r}: its {mark.kind} mark names seat "
                                 f"field {mark.seat!r}, not one of {names}")
            for role, field in (("counts by", mark.times), ("moves them to", mark.to),
                                ("applies by", mark.only[0] if mark.only else "")):
                if field and field not in names:
                    raise ValueError(f"trace event {event.name!r}: its {mark.kind} mark {role} "
                                     f"{field!r}, not one of its fields {names}")
            _check_format(event, mark.text + mark.otherwise + mark.keep, names, story_class,
                          f": its {mark.kind} mark")
    return TraceDecoder(events, story_class)


def _check_format(event, text: str, names, story_class, speaker: str) -> None:
    """A line's or a mark's format string names only the event's fields and its story's
    renderers."""
    for _, field, spec, _ in string.Formatter().parse(text):
        if field is not None and field not in names:
            raise ValueError(f"trace event {event.name!r}{speaker} says {{{field}}}, not one of "
                             f"its fields {names}")
        if spec and spec.isidentifier() and not hasattr(story_class, spec):
            raise ValueError(f"trace event {event.name!r}: its story has no renderer {spec}")


class TraceDecoder:
    """A game's `decode_trace(rows, params)`: its header, then every row's lines in play order.
    `with_tables` also gives, for each line, the table after it (each seat's role, whether it is
    out, what lies before it, what it learned), kept by the events' `table` marks."""

    def __init__(self, events, story_class):
        self.events, self.story_class = events, story_class

    def __call__(self, rows, params) -> list[str]:
        return self._decode(rows, params, keep_tables=False)[0]

    def with_tables(self, rows, params) -> tuple[list[str], list[list[dict]]]:
        return self._decode(rows, params, keep_tables=True)

    def _decode(self, rows, params, keep_tables: bool):
        story = self.story_class(params)
        render = _Renderer(story)
        seats = [{"seat": seat, "role": "", "out": "", "front": [], "learned": []}
                 for seat in range(int(getattr(params, "players", 0) or 0))]
        lines, tables = [], []

        def add(new_lines):
            lines.extend(new_lines)
            if keep_tables and new_lines:
                snapshot = [dict(s, front=list(s["front"]), learned=list(s["learned"]))
                            for s in seats]
                tables.extend(snapshot for _ in new_lines)

        add(list(story.header()))
        for row in np.asarray(rows).tolist():
            event = self.events[row[1]]
            if not event.gathered:
                add(story.flush())
            fields = unpack(event, row)
            if event.says:
                said = render.vformat(event.says, (), fields)
            else:
                said = getattr(story, f"tell_{event.name}")(fields)
            said = [said] if isinstance(said, str) else said
            said = [private_line(line) for line in said] if event.private else list(said)
            if event.secret:
                said.append(private_line(render.vformat(event.secret, (), fields)))
            # after the row is told (its story has kept what it keeps); lines alone need no table
            for mark in event.table if keep_tables else ():
                seat = fields[mark.seat]
                if mark.only and fields[mark.only[0]] not in mark.only[1:]:
                    continue
                if 0 <= seat < len(seats):
                    text, otherwise, keep = (render.vformat(part, (), fields)
                                             for part in (mark.text, mark.otherwise, mark.keep))
                    for _ in range(fields[mark.times] if mark.times else 1):
                        gone = _apply(seats[seat], mark.kind, text, otherwise, keep)
                        if mark.to and 0 <= fields[mark.to] < len(seats):
                            seats[fields[mark.to]]["front"].extend(gone)
            add(said)
        add(story.flush())
        return lines, tables


def _apply(seat: dict, kind: str, text: str, otherwise: str = "", keep: str = "") -> list[str]:
    """Changes one seat's table by one mark; returns the items a `clear` took away."""
    front = seat["front"]
    if kind == "clear":
        gone = [item for item in front if (not text or item.startswith(text))
                and not (keep and item.startswith(keep))]
        for item in gone:
            front.remove(item)
        return gone
    if kind == "role":
        seat["role"] = text
    elif kind == "out":
        seat["out"] = text or "out"
    elif kind == "back":
        seat["out"] = ""
    elif not text:
        pass  # an item that renders empty (no card) is no item
    elif kind == "front":
        front.append(text)
    elif kind == "taken":
        for item in (text, otherwise):
            if item and item in front:
                front.remove(item)
                break
    elif kind == "learns":
        seat["learned"].append(text)
    return []
