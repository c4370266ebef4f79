"""The ``xml-elements`` payload grammar: the tag names are the argument names (MiniMax-M3).

MiniMax-M3 writes each argument as an element named after it, every structural tag
prefixed by its namespace token, and nests elements for object and array values::

    ]<]minimax[>[<invoke name="create_order">
    ]<]minimax[>[<user_id>42]<]minimax[>[</user_id>
    ]<]minimax[>[<shipping>]<]minimax[>[<city>Paris]<]minimax[>[</city>]<]minimax[>[</shipping>
    ]<]minimax[>[</invoke>

No fixed parameter tag reads this (the name is the tag), and the text is not JSON, so it
has its own reader (specs/README.md §1b.11). Only the spec's markers are structure:
everything between them is content as written, found by plain substring search through
:class:`.occurrences.Occurrences`, so hostile nesting or thousands of unclosed tags stay
linear.

Whether ``<items><item>…</item></items>`` is an array or an object, and whether ``42``
is a number, only the tool's schema says: with ``tools=`` a node whose schema declares
``array`` is the list of its children, and leaves are typed by §1b.4 (:mod:`.typed`);
without it nodes are objects (a name written twice becomes a list) and leaves strings.

A call whose name reads but whose elements do not is kept with
``arguments_undecodable`` and a code naming the fault; a function never closed is
``call-unfinished``. A name that does not read leaves the whole block in the text.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Final, TypeAlias

from ..._values.toolcall import ToolCall
from ..occurrences import Occurrences
from ..typed import ALL_TYPES, Schemas, declared_types, type_value
from .base import UNFINISHED, UNFINISHED_CODE, Parsed, functions_end, plausible_name

__all__ = ["ElementGrammar", "ElementTags", "FunctionTags"]

FunctionTags = tuple[str, str, str]
"""``(open, name_end, close)`` of a function."""

ElementTags = tuple[str, str, str]
"""``(open, close, name_end)`` of an element: ``open NAME name_end … close NAME name_end``."""

MAX_DEPTH: Final = 64
_ENABLED: Final = frozenset(ALL_TYPES)

Node: TypeAlias = "str | list[tuple[str, Node]]"
"""A leaf's text, or a node's children as ``(name, node)`` in the order written."""


class _Fault(Exception):
    """The elements of one call do not read; ``code`` says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class ElementGrammar:
    """Reads functions of tag-named elements; see the module docstring."""

    __slots__ = ("_close_extends_open", "_element", "_function")

    def __init__(self, *, function: FunctionTags, element: ElementTags) -> None:
        self._function = function
        self._element = element
        opening, closing, _ = element
        self._close_extends_open = len(closing) > len(opening) and closing.startswith(opening)

    def parse(
        self, chunk: str, *, fill: bool, cut: bool, schemas: Schemas | None = None
    ) -> Parsed | None:
        occ = Occurrences(chunk)
        opening, name_end, closing = self._function
        calls: list[ToolCall] = []
        pos, end = 0, len(chunk)
        while True:
            while pos < end and chunk[pos].isspace():
                pos += 1
            if pos == end:
                return Parsed(calls, end) if calls else None
            if not chunk.startswith(opening, pos):
                return None
            name_at = pos + len(opening)
            stop = occ.first(name_end, name_at)
            if stop == -1:  # in a cut block the tag (and the name) may be cut
                return Parsed(calls, end, True) if cut else None
            name = _name(chunk[name_at:stop])
            if name is None:
                return None
            body = stop + len(name_end)
            close_at = occ.first(closing, body)
            next_at = occ.first(opening, body)
            if close_at == -1 or (next_at != -1 and next_at < close_at):
                calls.append(ToolCall._trusted(name, {}, "", True, UNFINISHED, UNFINISHED_CODE))
                if next_at == -1:
                    return Parsed(calls, end, True)  # the function ran into the block's end
                pos = next_at
                continue
            pos = close_at + len(closing)
            schema = schemas(name) if schemas is not None else None
            try:
                children = self._children(chunk, occ, body, close_at, 1)
                arguments = _object(children, schema, schema is not None)
            except _Fault as fault:
                calls.append(ToolCall._trusted(name, {}, "", True, str(fault), fault.code))
                continue
            calls.append(ToolCall._trusted(name, arguments, "", False, None))

    def extent(self, text: str, start: int, limit: int, occ: Occurrences) -> int:
        """Where the functions starting at ``start`` of the whole reply end, each at the first
        function close tag after its open tag, only blanks between; -1 when none closes."""
        opening, _, closing = self._function
        return functions_end(text, start, occ, opening, closing)

    def _marker(self, text: str, occ: Occurrences, pos: int, end: int) -> tuple[int, bool]:
        """The next element marker in ``[pos, end)``: ``(position, is_close)``, or -1.

        Where an open and a close marker start at one place the longer wins. MiniMax's
        close marker is its open marker and a slash, so one search finds both.
        """
        opening, closing, _ = self._element
        open_at = occ.first(opening, pos)
        if self._close_extends_open:
            if open_at == -1 or open_at >= end:
                return -1, False
            return open_at, text.startswith(closing, open_at)
        close_at = occ.first(closing, pos)
        if close_at != -1 and (
            open_at == -1
            or close_at < open_at
            or (close_at == open_at and len(closing) > len(opening))
        ):
            return (close_at, True) if close_at < end else (-1, False)
        return (open_at, False) if open_at != -1 and open_at < end else (-1, False)

    def _children(
        self, text: str, occ: Occurrences, pos: int, end: int, depth: int
    ) -> list[tuple[str, Node]]:
        """The elements in ``[pos, end)``, which holds nothing else but blanks."""
        children: list[tuple[str, Node]] = []
        while True:
            at, is_close = self._marker(text, occ, pos, end)
            if at == -1:
                if text[pos:end].strip():
                    raise _Fault("text-between-elements", "text where an element should begin")
                return children
            if text[pos:at].strip():
                raise _Fault("text-between-elements", "text beside the elements")
            if is_close:
                raise _Fault("unexpected-close-tag", "a close tag where an element should begin")
            name, node, pos = self._element_at(text, occ, at, end, depth)
            children.append((name, node))

    def _element_at(
        self, text: str, occ: Occurrences, at: int, end: int, depth: int
    ) -> tuple[str, Node, int]:
        """The element whose open tag is at ``at``: ``(name, node, position after it)``."""
        if depth > MAX_DEPTH:
            raise _Fault("elements-too-deep", f"elements nest beyond {MAX_DEPTH} levels")
        opening, closing, name_end = self._element
        name_at = at + len(opening)
        stop = occ.first(name_end, name_at)
        if stop == -1 or stop >= end or not _plausible(text[name_at:stop]):
            raise _Fault("bad-element-tag", "an element tag without a plausible name")
        name = text[name_at:stop]
        content = stop + len(name_end)
        close_tag = f"{closing}{name}{name_end}"
        pos = content
        children: list[tuple[str, Node]] = []
        while True:
            marker, is_close = self._marker(text, occ, pos, end)
            if marker == -1:
                raise _Fault("unclosed-element", f"element {name!r} is not closed")
            if is_close:
                if not text.startswith(close_tag, marker) or marker + len(close_tag) > end:
                    raise _Fault("unclosed-element", f"element {name!r} is not closed")
                if not children:
                    return name, text[content:marker], marker + len(close_tag)
                if text[pos:marker].strip():
                    raise _Fault("text-between-elements", f"text beside the elements of {name!r}")
                return name, children, marker + len(close_tag)
            if text[pos:marker].strip():
                raise _Fault("text-between-elements", f"text beside the elements of {name!r}")
            child, node, pos = self._element_at(text, occ, marker, end, depth + 1)
            children.append((child, node))


@lru_cache(maxsize=4096)
def _plausible(name: str) -> bool:
    """Rule 6 of §1b for an element name; argument names repeat, so answers are kept."""
    return plausible_name(name)


def _name(text: str) -> str | None:
    """A function's name from its tag text: trimmed, then unquoted; None if implausible."""
    name = text.strip()
    if len(name) >= 2 and name[0] == name[-1] and name[0] in "\"'":
        name = name[1:-1]
    return name if plausible_name(name) else None


def _mapping(value: Any) -> Mapping[str, Any] | None:
    return value if isinstance(value, Mapping) else None


def _is_array(schema: Mapping[str, Any] | None) -> bool:
    declared = declared_types(schema)
    return "array" in declared and "object" not in declared


def _child_schema(schema: Mapping[str, Any] | None, name: str) -> Mapping[str, Any] | None:
    if schema is None:
        return None
    properties = _mapping(schema.get("properties"))
    if properties is not None and name in properties:
        return _mapping(properties[name])
    return _mapping(schema.get("additionalProperties"))


def _object(
    children: list[tuple[str, Node]], schema: Mapping[str, Any] | None, typed: bool
) -> dict[str, Any]:
    """A node's children as an object; a name written more than once maps to a list."""
    groups: dict[str, list[Node]] = {}
    for name, node in children:
        groups.setdefault(name, []).append(node)
    result: dict[str, Any] = {}
    for name, nodes in groups.items():
        sub = _child_schema(schema, name)
        if len(nodes) == 1:
            result[name] = _value(nodes[0], sub, typed)
        else:
            item = _mapping(sub.get("items")) if sub is not None and _is_array(sub) else sub
            result[name] = [_value(node, item, typed) for node in nodes]
    return result


def _value(node: Node, schema: Mapping[str, Any] | None, typed: bool) -> Any:
    if isinstance(node, str):
        return type_value(node, schema, _ENABLED) if typed else node
    if typed and _is_array(schema):
        assert schema is not None
        item = _mapping(schema.get("items"))
        return [_value(child, item, typed) for _, child in node]
    return _object(node, schema, typed)
