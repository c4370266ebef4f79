"""The ``xml-parameters`` payload grammar: a name, then one tag pair per parameter.

Qwen3-Coder writes ``<function=NAME><parameter=KEY>VALUE</parameter></function>``;
GLM-4.5 writes ``NAME`` on the block's first line, then
``<arg_key>KEY</arg_key><arg_value>VALUE</arg_value>`` pairs. Both are plain tags
found with string search, never with a regular expression.

Values are text. Chat templates write a non-string argument as JSON and a string as
it is, so with ``values: json-or-string`` a value that is a whole JSON text becomes
that JSON value; without the tools' schemas that is the best reading of the text
(a string argument that happens to read as JSON, ``"42"``, comes back as 42).

A call whose name reads but whose parameters do not (text between parameters, a key
without its end tag) is still a call, with ``arguments_undecodable`` and a message
naming the fault; so is a call whose block (or, with function tags, whose function)
was never closed, since its last parameters may be missing. A name that does not
read leaves the whole block in the text. A value whose own close tag is missing runs
to the next parameter or the call's end, as vLLM and SGLang read it.
"""

from __future__ import annotations

from typing import Any

from ..arguments import loads_strict
from ..toolcall import ToolCall
from .grammar import UNFINISHED, UNFINISHED_CODE, Parsed, plausible_name
from .occurrences import Occurrences

__all__ = ["FunctionTags", "ParameterTags", "XmlGrammar"]

FunctionTags = tuple[str, str, str]
"""``(open, name_end, close)`` of a function."""

ParameterTags = tuple[str, str, str | None, str]
"""``(open, name_end, value_open, close)`` of a parameter."""


class _Fault(Exception):
    """The parameters of one call do not read; ``code`` and the message say why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class XmlGrammar:
    """Reads tagged functions and parameters; see the module docstring."""

    __slots__ = ("_function", "_json_values", "_name_end", "_parameter", "_trim_newline")

    def __init__(
        self,
        *,
        function: FunctionTags | None,
        name_end: tuple[str, ...],
        parameter: ParameterTags,
        value_trim: str = "whitespace",
        values: str = "json-or-string",
    ) -> None:
        if (function is None) == (not name_end):
            raise ValueError("give exactly one of function and name_end")
        self._function = function
        self._name_end = name_end
        self._parameter = parameter
        self._trim_newline = value_trim == "newline"
        self._json_values = values == "json-or-string"

    def parse(self, chunk: str, *, fill: bool, cut: bool) -> Parsed | None:
        occ = Occurrences(chunk)
        calls = self._functions(chunk, occ, cut) if self._function else self._bare(chunk, occ, cut)
        return Parsed(calls, len(chunk)) if calls else None

    def _bare(self, chunk: str, occ: Occurrences, cut: bool) -> list[ToolCall]:
        """GLM style: the block starts with the name."""
        stop, _ = occ.earliest(self._name_end, 0)
        if stop == -1:
            stop = len(chunk)
        name = chunk[:stop].strip()
        if not plausible_name(name):
            return []
        return [self._call(name, chunk, occ, stop, len(chunk), unfinished=cut)]

    def _functions(self, chunk: str, occ: Occurrences, cut: bool) -> list[ToolCall]:
        """Qwen3-Coder style: one or more functions; only blanks between them."""
        assert self._function is not None
        opening, name_end, closing = self._function
        calls: list[ToolCall] = []
        pos, end = 0, len(chunk)
        while True:
            while pos < end and chunk[pos].isspace():
                pos += 1
            if pos == end:
                return calls
            if not chunk.startswith(opening, pos):
                return []
            name_at = pos + len(opening)
            stop = occ.first(name_end, name_at)
            if stop == -1:
                return []
            name = chunk[name_at:stop].strip()
            if not plausible_name(name):
                return []
            body = stop + len(name_end)
            close_at = occ.first(closing, body)
            next_at = occ.first(opening, body)
            if close_at != -1 and (next_at == -1 or close_at < next_at):
                body_end, pos, unfinished = close_at, close_at + len(closing), False
            else:
                body_end = next_at if next_at != -1 else end
                pos, unfinished = body_end, cut and body_end == end
            calls.append(self._call(name, chunk, occ, body, body_end, unfinished=unfinished))

    def _call(
        self, name: str, chunk: str, occ: Occurrences, start: int, end: int, *, unfinished: bool
    ) -> ToolCall:
        if unfinished:
            return ToolCall._trusted(name, {}, "", True, UNFINISHED, UNFINISHED_CODE)
        try:
            arguments = self._parameters(chunk, occ, start, end)
        except _Fault as fault:
            return ToolCall._trusted(name, {}, "", True, str(fault), fault.code)
        return ToolCall._trusted(name, arguments, "", False, None)

    def _parameters(self, chunk: str, occ: Occurrences, pos: int, end: int) -> dict[str, Any]:
        opening, name_end, value_open, closing = self._parameter
        arguments: dict[str, Any] = {}
        while True:
            while pos < end and chunk[pos].isspace():
                pos += 1
            if pos >= end:
                return arguments
            if not chunk.startswith(opening, pos):
                raise _Fault("text-between-parameters", "unexpected text between parameters")
            key_at = pos + len(opening)
            stop = occ.first(name_end, key_at)
            if stop == -1 or stop + len(name_end) > end:
                raise _Fault("unclosed-parameter-name", f"a parameter name has no {name_end!r}")
            key = chunk[key_at:stop].strip()
            if not key:
                raise _Fault("empty-parameter-name", "a parameter has an empty name")
            pos = stop + len(name_end)
            if value_open is not None:
                while pos < end and chunk[pos].isspace():
                    pos += 1
                if not chunk.startswith(value_open, pos):
                    raise _Fault("missing-value-tag", f"parameter {key!r} has no {value_open!r}")
                pos += len(value_open)
            close_at = occ.first(closing, pos)
            next_at = occ.first(opening, pos)
            if close_at != -1 and close_at < end and (next_at == -1 or close_at < next_at):
                raw, pos = chunk[pos:close_at], close_at + len(closing)
            else:
                stop = next_at if next_at != -1 and next_at < end else end
                raw, pos = chunk[pos:stop], stop
            arguments[key] = self._value(raw)

    def _value(self, raw: str) -> Any:
        if self._trim_newline:
            if raw.startswith("\n"):
                raw = raw[1:]
            if raw.endswith("\n"):
                raw = raw[:-1]
        else:
            raw = raw.strip()
        if self._json_values and raw:
            try:
                return loads_strict(raw)
            except ValueError:
                pass
        return raw
