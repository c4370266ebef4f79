"""Logged lines → rows, in chunks: the work a batch worker process does.

A line of a log is either the reply body itself or a JSON object holding it in a field
(``--field response``, dotted for nesting: ``response.body``), maybe beside the record's
format, the request's tool list and an id. Each line that is not blank gives exactly one
summary row, whatever is wrong with it — whatever fails while reading it becomes that
row's error, never the end of the run — so the count of records in always equals the
count of summary rows out; a blank line is skipped and counted, as ``extract --jsonl``
skips it. :class:`Tally` keeps the counts the CLI's summary table shows and checks that.

A line read whole that is no reply but a JSON object holding one in a field (a gateway
log read without ``--field``) is counted by that field in the tally, so that the CLI can
tell the user what to pass; its error row stays the reader's own error.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ._rows import compact_rows, dumps

__all__ = ["Chunk", "Done", "LineReader", "LongLine", "Tally", "process_chunk"]

_BLANK = b" \t\r\n"

_NOT_A_REPLY = ("unknown_format", "malformed_response")
"""The error codes of a line that may be a wrapper around the reply rather than the reply."""

_FIELDS_TRIED = 24
"""The most fields of a wrapper tried as the reply (top-level first, then one level down)."""


@dataclass(frozen=True, slots=True, init=False)
class LineReader:
    """How to find a record's parts in one line; the fields are dotted paths or None."""

    field: str | None
    format: str | None
    format_field: str | None
    tools_field: str | None
    id_field: str | None
    strict: bool | None

    def __init__(
        self,
        field: str | None = None,
        format: str | None = None,
        format_field: str | None = None,
        tools_field: str | None = None,
        id_field: str | None = None,
        strict: bool | None = None,
    ) -> None:
        object.__setattr__(self, "field", field)
        object.__setattr__(self, "format", format)
        object.__setattr__(self, "format_field", format_field)
        object.__setattr__(self, "tools_field", tools_field)
        object.__setattr__(self, "id_field", id_field)
        object.__setattr__(self, "strict", strict)

    @property
    def whole_line(self) -> bool:
        """The line is the reply body itself (no field of it to pick)."""
        return not (self.field or self.format_field or self.tools_field or self.id_field)

    def rows(self, line: bytes, record_id: str) -> list[dict[str, Any]]:
        """The compact rows of one line; never raises on a bad line."""
        if self.whole_line:
            return compact_rows(line, self.format, None, record_id, self.strict)
        try:
            obj = json.loads(line)
        except ValueError as exc:
            return _bad(record_id, f"the line is not JSON: {exc}")
        except RecursionError:
            return _bad(record_id, "the line is not JSON this reader can take: nested too deep")
        if not isinstance(obj, dict):
            return _bad(record_id, f"the line is a JSON {type(obj).__name__}, not an object")
        if self.id_field:  # first: a line with no reply still has its id
            found = _pick(obj, self.id_field, optional=True)
            if found is not None:
                record_id = found if isinstance(found, str) else dumps(found)
        try:
            body = _pick(obj, self.field) if self.field else obj
            fmt = _pick(obj, self.format_field, optional=True) if self.format_field else None
            tools = _pick(obj, self.tools_field, optional=True) if self.tools_field else None
        except LookupError as exc:
            return _bad(record_id, str(exc.args[0]))
        if fmt is not None and not isinstance(fmt, str):
            return _bad(record_id, f"field {self.format_field!r} is a {type(fmt).__name__},"
                        " not a format name")
        if body is None:
            return _bad(record_id, f"field {self.field!r} is null: no reply was logged")
        return compact_rows(body, fmt or self.format, tools, record_id, self.strict)

    def wrapped_field(self, line: bytes) -> str | None:
        """The dotted path of a field of ``line`` (a JSON object) that holds a readable
        reply, top-level fields first: the ``--field`` a wrapped log needs; None: none."""
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError):
            return None
        if not isinstance(obj, dict):
            return None
        for path, value in _fields(obj):
            found = compact_rows(value, self.format, None, None, self.strict)
            if found[0].get("error_code") in (None, "provider_error"):
                return path
        return None


def _fields(obj: dict[str, Any]) -> list[tuple[str, Any]]:
    """The fields that could hold a reply (an object, or JSON text of one), by dotted path:
    the top level first, then one level down; at most :data:`_FIELDS_TRIED`."""
    top = [(k, v) for k, v in obj.items() if "." not in k and _may_hold_reply(v)]
    deeper = [(f"{k}.{inner}", w) for k, v in top if isinstance(v, dict)
              for inner, w in v.items() if "." not in inner and _may_hold_reply(w)]
    return (top + deeper)[:_FIELDS_TRIED]


def _may_hold_reply(value: Any) -> bool:
    return isinstance(value, dict) or (isinstance(value, str) and value.lstrip()[:1] == "{")


def _pick(obj: dict[str, Any], path: str, *, optional: bool = False) -> Any:
    value: Any = obj
    for step in path.split("."):
        if not isinstance(value, dict) or step not in value:
            if optional:
                return None
            where = sorted(value)[:8] if isinstance(value, dict) else type(value).__name__
            raise LookupError(f"no field {path!r} in the line (found: {where})")
        value = value[step]
    return value


def _bad(record_id: str, message: str, code: str = "bad_record") -> list[dict[str, Any]]:
    return [{"record_id": record_id, "kind": "reply", "error_code": code,
             "error_message": message, "tools_checked": False}]


@dataclass(frozen=True, slots=True, init=False)
class LongLine:
    """A line longer than the reader's bound, read past rather than kept: its size."""

    size: int
    limit: int

    def __init__(self, size: int, limit: int) -> None:
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "limit", limit)

    def message(self) -> str:
        return (f"the line is {self.size:,} bytes, more than the {self.limit:,} read"
                " (--max-line-bytes)")


@dataclass(frozen=True, slots=True, init=False)
class Chunk:
    """Consecutive lines of one input: ``source`` names it, ``first`` is the first line's number."""

    source: str
    first: int
    lines: tuple[bytes | LongLine, ...]

    def __init__(self, source: str, first: int, lines: tuple[bytes | LongLine, ...]) -> None:
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "lines", lines)


class Tally:
    """The counts of a run: records in, rows out by kind, replies by format, errors by code."""

    __slots__ = ("blank", "errors", "formats", "kinds", "records", "replies", "wrapped")

    def __init__(self) -> None:
        self.records = 0  # lines read, blank ones aside
        self.blank = 0  # blank lines skipped
        self.replies = 0  # summary rows written
        self.kinds: dict[str, int] = {}
        # format: [replies, calls, server calls, refused, truncated, unreadable, provider
        # errors]: a provider's error body (an outage, a rate limit) is counted apart from a
        # record toolwire could not read, so the statistics show outages as outages
        self.formats: dict[str, list[int]] = {}
        self.errors: dict[str, int] = {}
        # lines read whole that hold a reply in a field, by the field's path
        self.wrapped: dict[str, int] = {}

    def count(self, rows: list[dict[str, Any]]) -> None:
        kinds = self.kinds
        for row in rows:
            kind = row["kind"]
            kinds[kind] = kinds.get(kind, 0) + 1
            if kind == "reply":
                self.replies += 1
                fmt = row.get("format") or "(unknown)"
                figures = self.formats.get(fmt)
                if figures is None:
                    figures = self.formats[fmt] = [0, 0, 0, 0, 0, 0, 0]
                figures[0] += 1
                figures[1] += row.get("n_calls") or 0
                figures[2] += row.get("n_server_calls") or 0
                figures[3] += row.get("n_refused") or 0
                figures[4] += 1 if row.get("truncated") else 0
                code = row.get("error_code")
                if code is not None:
                    figures[6 if code == "provider_error" else 5] += 1
                    self.errors[code] = self.errors.get(code, 0) + 1

    @property
    def unreadable(self) -> int:
        """Records toolwire could not read (a provider's own error body was read)."""
        return sum(figures[5] for figures in self.formats.values())

    @property
    def lines(self) -> int:
        """Every line read: the records and the blank lines."""
        return self.records + self.blank

    def merge(self, other: Tally) -> None:
        self.records += other.records
        self.blank += other.blank
        self.replies += other.replies
        for kind, n in other.kinds.items():
            self.kinds[kind] = self.kinds.get(kind, 0) + n
        for fmt, figures in other.formats.items():
            mine = self.formats.setdefault(fmt, [0] * len(figures))
            for i, n in enumerate(figures):
                mine[i] += n
        for code, n in other.errors.items():
            self.errors[code] = self.errors.get(code, 0) + n
        for path, n in other.wrapped.items():
            self.wrapped[path] = self.wrapped.get(path, 0) + n


@dataclass(frozen=True, slots=True, init=False)
class Done:
    """A processed chunk: its rows (JSON Lines text, or compact dicts) and their tally."""

    payload: Any
    tally: Tally

    def __init__(self, payload: Any, tally: Tally) -> None:
        object.__setattr__(self, "payload", payload)
        object.__setattr__(self, "tally", tally)


def process_chunk(chunk: Chunk, reader: LineReader, as_text: bool) -> Done:
    """Every line of ``chunk`` as rows: one JSON Lines text, or the row dicts (``as_text``
    false, for a columnar writer)."""
    tally = Tally()
    out: list[Any] = []
    source = chunk.source
    number = chunk.first - 1
    for line in chunk.lines:
        number += 1
        texts: list[str] | None = None
        if isinstance(line, LongLine):
            found = _bad(f"{source}:{number}", line.message())
        elif not line.strip(_BLANK):
            tally.blank += 1
            continue
        else:
            try:
                found = reader.rows(line, f"{source}:{number}")
                if reader.whole_line and found[0].get("error_code") in _NOT_A_REPLY:
                    path = reader.wrapped_field(line)
                    if path is not None:
                        tally.wrapped[path] = tally.wrapped.get(path, 0) + 1
                if as_text:
                    texts = list(map(dumps, found))
            except Exception as exc:
                found = _bad(f"{source}:{number}", f"{type(exc).__name__}: {exc}",
                             "internal_error")
        tally.count(found)
        if as_text:
            out.extend(texts if texts is not None else map(dumps, found))
        else:
            out.extend(found)
    tally.records = len(chunk.lines) - tally.blank
    if as_text:
        return Done("\n".join(out) + "\n" if out else "", tally)
    return Done(out, tally)
