"""The ``xml-parameters`` payload grammar: a name, then one tag pair per parameter.

Qwen3-Coder writes ``<function=NAME><parameter=KEY>VALUE</parameter></function>``;
GLM-4.5 writes ``NAME`` on the block's first line, then
``<arg_key>KEY</arg_key><arg_value>VALUE</arg_value>`` pairs. Both are plain tags
found with string search, never with a regular expression.

Values are text. Given the request's tools (``tools=``), each value is typed by its
parameter's JSON Schema under the spec's ``types`` (:mod:`.typed`). Without them:
chat templates write a non-string argument as JSON and a string as it is, so with
``values: json-or-string`` a value that is a whole JSON text becomes that JSON value;
without the tools' schemas that is the best reading of the text (a string argument
that happens to read as JSON, ``"42"``, comes back as 42).

A call whose name reads but whose parameters do not (text between parameters, a key
without its end tag) is still a call, with ``arguments_undecodable`` and a message
naming the fault; so is a call whose block (or, with function tags, whose function)
was never closed, since its last parameters may be missing. A name that does not
read leaves the whole block in the text. A value whose own close tag is missing runs
to the next parameter or the call's end, as vLLM and SGLang read it.

With the tool's schema, a parameter open tag whose key the schema does not declare does
not end a value: it is text the value holds (Qwen3-Coder writing code that contains
``<parameter=``). K2 Horizon's ``xml_typed`` variant writes each value's type in a tag
of its own between the key and the value (``type_tags``); that type types the value.

The payload is ``unfinished`` (specs/README.md §1b.12) when its last function never
closed, or its name never ended, before the block's end; with function tags the
payload ends by its own syntax (the function's close tag), which
:meth:`XmlGrammar.extent` finds for a block whose close marker stands inside a value.
"""

from __future__ import annotations

from typing import Any

from ..._values.arguments import loads_strict
from ..._values.toolcall import ToolCall
from ..occurrences import Occurrences
from ..typed import ALL_TYPES, Schemas, declared_types, type_declared, type_value
from .base import UNFINISHED, UNFINISHED_CODE, Parsed, functions_end, may_be_json, plausible_name
from .tagnames import read_tag

__all__ = ["FunctionTags", "ParameterTags", "XmlGrammar"]

FunctionTags = tuple[str, str, str]
"""``(open, name_end, close)`` of a function."""

ParameterTags = tuple[str, str, str | None, str]
"""``(open, name_end, value_open, close)`` of a parameter."""

TypeTags = tuple[str, str]
"""``(open, close)`` of a value's written type (K2 Horizon's ``<ifm|arg_type>``)."""

_WRITTEN: frozenset[str] = frozenset((*ALL_TYPES, "string"))
"""The written types that name a JSON type."""


class _Fault(Exception):
    """The parameters of one call do not read; ``code`` and the message say why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class XmlGrammar:
    """Reads tagged functions and parameters; see the module docstring."""

    __slots__ = (
        "_function",
        "_function_name_attribute",
        "_json_values",
        "_name_end",
        "_parameter",
        "_parameter_name_attribute",
        "_quoted",
        "_string_attribute",
        "_string_value",
        "_trim",
        "_type_tags",
        "_types",
    )

    def __init__(
        self,
        *,
        function: FunctionTags | None,
        name_end: tuple[str, ...],
        parameter: ParameterTags,
        value_trim: str = "whitespace",
        values: str = "json-or-string",
        types: tuple[str, ...] = ALL_TYPES,
        quoted_names: bool = False,
        string_attribute: str | None = None,
        string_value: str = "true",
        function_name_attribute: str | None = None,
        parameter_name_attribute: str | None = None,
        type_tags: TypeTags | None = None,
    ) -> None:
        if (function is None) == (not name_end):
            raise ValueError("give exactly one of function and name_end")
        self._function = function
        self._name_end = name_end
        self._parameter = parameter
        self._trim = value_trim
        self._json_values = values == "json-or-string"
        self._types = frozenset(types)
        self._quoted = quoted_names
        self._string_attribute = string_attribute
        self._string_value = string_value
        self._function_name_attribute = function_name_attribute
        self._parameter_name_attribute = parameter_name_attribute
        self._type_tags = type_tags

    def parse(
        self, chunk: str, *, fill: bool, cut: bool, schemas: Schemas | None = None
    ) -> Parsed | None:
        if self._function:
            calls, unfinished = self._functions(chunk, cut, schemas)
        else:
            calls, unfinished = self._bare(chunk, cut, schemas)
        if calls or unfinished:
            return Parsed(calls, len(chunk), unfinished)
        return None

    def extent(self, text: str, start: int, limit: int, occ: Occurrences) -> int:
        """Where the functions starting at ``start`` of the whole reply end, each at the first
        function close tag after its open tag, only blanks between; -1 when none closes."""
        if self._function is None:
            return -1
        opening, _, closing = self._function
        return functions_end(text, start, occ, opening, closing)

    def _bare(
        self, chunk: str, cut: bool, schemas: Schemas | None
    ) -> tuple[list[ToolCall], bool]:
        """GLM style: the block starts with the name.

        The name runs to the earliest ``name_end`` literal, which is dropped unless it
        opens the first parameter (GLM's ``<arg_key>``, kept; Hunyuan's ``<tool_sep>``
        and MiniCPM's ``>``, dropped). In a cut block a name that no literal ends may be
        cut itself: no call.
        """
        stop, length = _earliest(chunk, self._name_end)
        if stop == -1:
            if cut:
                return [], True
            stop = length = len(chunk)
        name = self._name(chunk[:stop])
        if name is None:
            return [], False
        body = stop if chunk.startswith(self._parameter[0], stop) else stop + length
        return [self._call(name, chunk, body, len(chunk), unfinished=cut, schemas=schemas)], cut

    def _functions(
        self, chunk: str, cut: bool, schemas: Schemas | None
    ) -> tuple[list[ToolCall], bool]:
        """Qwen3-Coder style: one or more functions; only blanks between them."""
        assert self._function is not None
        opening, name_end, closing = self._function
        calls: list[ToolCall] = []
        pos, end = 0, len(chunk)
        while True:
            while pos < end and chunk[pos].isspace():
                pos += 1
            if pos == end:
                return calls, False
            if not chunk.startswith(opening, pos):
                return [], False
            name_at = pos + len(opening)
            stop = chunk.find(name_end, name_at)
            if stop == -1:
                return (calls, True) if cut else ([], False)
            name = self._name(chunk[name_at:stop])
            if name is None:
                return [], False
            body = stop + len(name_end)
            next_at = chunk.find(opening, body)
            close_at = _before(chunk, closing, body, next_at if next_at != -1 else end)
            if close_at != -1:
                body_end, pos, unfinished = close_at, close_at + len(closing), False
            else:
                body_end = next_at if next_at != -1 else end
                pos, unfinished = body_end, cut and body_end == end
            calls.append(
                self._call(name, chunk, body, body_end, unfinished=unfinished, schemas=schemas)
            )
            if body_end == end and close_at == -1:
                return calls, True  # the last function ran into the block's end

    def _name(self, text: str) -> str | None:
        """A function's name from its tag text (quoted with ``quoted_names``), if plausible."""
        if self._quoted:
            attribute = self._function_name_attribute
            tag = read_tag(text, attribute)
            name = tag[0] if tag is not None and (attribute or not tag[1]) else None
        else:
            name = text.strip()
        return name if name is not None and plausible_name(name) else None

    def _call(
        self,
        name: str,
        chunk: str,
        start: int,
        end: int,
        *,
        unfinished: bool,
        schemas: Schemas | None,
    ) -> ToolCall:
        if unfinished:
            return ToolCall._trusted(name, {}, "", True, UNFINISHED, UNFINISHED_CODE)
        schema = schemas(name) if schemas is not None else None
        properties = schema.get("properties") if schema is not None else None
        try:
            arguments = self._parameters(
                chunk, start, end, properties if isinstance(properties, dict) else None
            )
        except _Fault as fault:
            return ToolCall._trusted(name, {}, "", True, str(fault), fault.code)
        return ToolCall._trusted(name, arguments, "", False, None)

    def _parameters(
        self,
        chunk: str,
        pos: int,
        end: int,
        properties: dict[str, Any] | None,
    ) -> dict[str, Any]:
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
            stop = chunk.find(name_end, key_at, end)
            if stop == -1:
                raise _Fault("unclosed-parameter-name", f"a parameter name has no {name_end!r}")
            key = chunk[key_at:stop].strip()
            attributes: dict[str, str] = {}
            if self._quoted:
                tag = read_tag(key, self._parameter_name_attribute)
                if tag is None:
                    raise _Fault(
                        "bad-parameter-tag",
                        f"parameter tag {key!r} does not read as name and attributes",
                    )
                key, attributes = tag
            if not key:
                raise _Fault("empty-parameter-name", "a parameter has an empty name")
            pos = stop + len(name_end)
            written = None
            if self._type_tags is not None:
                written, pos = self._written_type(chunk, pos, end, key)
            if value_open is not None:
                while pos < end and chunk[pos].isspace():
                    pos += 1
                if not chunk.startswith(value_open, pos):
                    raise _Fault("missing-value-tag", f"parameter {key!r} has no {value_open!r}")
                pos += len(value_open)
            next_at = self._next_parameter(chunk, pos, end, properties)
            stop = next_at if next_at != -1 else end
            close_at = _before(chunk, closing, pos, stop)
            if close_at != -1:
                raw, pos = chunk[pos:close_at], close_at + len(closing)
            else:
                raw, pos = chunk[pos:stop], stop
            marked = attributes.get(self._string_attribute) if self._string_attribute else None
            arguments[key] = self._value(raw, key, properties, marked, written)

    def _next_parameter(
        self, chunk: str, pos: int, end: int, properties: dict[str, Any] | None
    ) -> int:
        """The next parameter open tag in ``[pos, end)``, or -1. With the tool's schema, a
        tag whose key the schema does not declare is text of the value, not a parameter."""
        opening, name_end = self._parameter[0], self._parameter[1]
        at = _before(chunk, opening, pos, end)
        if not properties:
            return at
        while at != -1:
            key_at = at + len(opening)
            following = _before(chunk, opening, key_at, end)
            stop = chunk.find(name_end, key_at, following if following != -1 else end)
            if stop != -1:
                key = chunk[key_at:stop].strip()
                if self._quoted:
                    tag = read_tag(key, self._parameter_name_attribute)
                    key = tag[0] if tag is not None else ""
                if key in properties:
                    return at
            at = following
        return -1

    def _written_type(self, chunk: str, pos: int, end: int, key: str) -> tuple[str | None, int]:
        """The value's written type, when its type tag follows (blanks aside); and where
        the value's tags go on."""
        assert self._type_tags is not None
        opening, closing = self._type_tags
        at = pos
        while at < end and chunk[at].isspace():
            at += 1
        if not chunk.startswith(opening, at):
            return None, pos
        close_at = chunk.find(closing, at + len(opening), end)
        if close_at == -1:
            message = f"the type of parameter {key!r} has no {closing!r}"
            raise _Fault("unclosed-parameter-type", message)
        return chunk[at + len(opening) : close_at].strip(), close_at + len(closing)

    def _value(
        self,
        raw: str,
        key: str,
        properties: dict[str, Any] | None,
        marked: str | None,
        written: str | None = None,
    ) -> Any:
        if self._trim == "newline":
            if raw.startswith("\n"):
                raw = raw[1:]
            if raw.endswith("\n"):
                raw = raw[:-1]
        elif self._trim == "whitespace":
            raw = raw.strip()
        if marked == self._string_value:
            return raw
        if marked is not None:
            try:
                return loads_strict(raw)
            except ValueError as exc:
                attribute = f'{self._string_attribute}="{marked}"'
                raise _Fault(
                    "marked-value-not-json",
                    f"parameter {key!r} is marked {attribute} but is not JSON: {exc}",
                ) from None
        if written is not None:
            base = written.split("[", 1)[0].strip().lower()
            declared = declared_types(properties.get(key)) if properties is not None else ()
            if declared:
                return type_declared(raw, (base,) if base in declared else declared, self._types)
            return type_declared(raw, (base,), self._types) if base in _WRITTEN else raw
        if properties is not None:
            return type_value(raw, properties.get(key), self._types)
        if self._json_values and may_be_json(raw):
            try:
                return loads_strict(raw)
            except ValueError:
                pass
        return raw


def _before(text: str, marker: str, pos: int, limit: int) -> int:
    """The first occurrence of ``marker`` at or after ``pos`` that starts before ``limit``,
    or -1 (it may end past ``limit``).

    Markers are found with bounded :meth:`str.find`, not an index: each search stops at
    the next parameter's (or function's) open marker, so the searches of one block cover
    disjoint stretches of it and a block full of unclosed tags is still read in linear
    time, without an index's cost per block.
    """
    return text.find(marker, pos, limit + len(marker) - 1)


def _earliest(text: str, markers: tuple[str, ...]) -> tuple[int, int]:
    """``(position, length)`` of the earliest of ``markers`` in ``text``, the longer where
    two start together; ``(-1, 0)`` when none occurs."""
    best, length = -1, 0
    for marker in markers:
        at = text.find(marker)
        if at != -1 and (best == -1 or at < best or (at == best and len(marker) > length)):
            best, length = at, len(marker)
    return best, length
