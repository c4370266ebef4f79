"""The ``json`` payload grammar: call objects written as JSON (Hermes, Llama, Mistral, Granite).

A block holds one JSON value, or several joined by a separator (Llama's ``;``); each
value is a call object or an array of them, as the spec's ``shape`` allows. The name,
arguments and id of a call object are read with the spec's JMESPath expressions, and
the arguments go through the one decoding table every format shares.

A block is all or nothing: if any value is not a call object (invalid JSON, not an
object, no name, a ``when`` that does not hold), the block carries no call and stays
in the text where it was. Splitting a JSON array's text to keep half of it would
hand back a reply that never existed.
"""

from __future__ import annotations

from typing import Any, Final

from ..arguments import decode_arguments_coded
from ..expression import Expression
from ..toolcall import ToolCall
from .grammar import Parsed, decode_json_at, skip_blanks

__all__ = ["JsonGrammar"]

SHAPES: Final = frozenset({"object", "array", "object-or-array"})


class JsonGrammar:
    """Reads JSON call objects; see the module docstring."""

    __slots__ = ("_arguments", "_arrays", "_id", "_name", "_objects", "_separator", "_when")

    def __init__(
        self,
        *,
        shape: str,
        separator: str | None,
        when: Expression | None,
        name: Expression,
        arguments: Expression,
        id: Expression | None,
    ) -> None:
        if shape not in SHAPES:
            raise ValueError(f"unknown JSON shape {shape!r}")
        self._objects = shape != "array"
        self._arrays = shape != "object"
        self._separator = separator
        self._when = when
        self._name = name
        self._arguments = arguments
        self._id = id

    def parse(self, chunk: str, *, fill: bool, cut: bool) -> Parsed | None:
        values, end = self._values(chunk)
        if not values:
            return None
        if fill and skip_blanks(chunk, end) != len(chunk):
            return None
        calls: list[ToolCall] = []
        for value in values:
            if isinstance(value, dict) and self._objects:
                items: list[Any] = [value]
            elif isinstance(value, list) and self._arrays and value:
                items = value
            else:
                return None
            for item in items:
                call = self._call(item)
                if call is None:
                    return None
                calls.append(call)
        return Parsed(calls, end)

    def _values(self, chunk: str) -> tuple[list[Any], int]:
        """The top-level values at the start of ``chunk`` and where the last one ends."""
        try:
            value, end = decode_json_at(chunk, skip_blanks(chunk, 0))
        except ValueError:
            return [], 0
        values = [value]
        separator = self._separator
        while separator:
            at = skip_blanks(chunk, end)
            if not chunk.startswith(separator, at):
                break
            try:
                value, after = decode_json_at(chunk, skip_blanks(chunk, at + len(separator)))
            except ValueError:
                break  # a separator not followed by a value is plain text
            values.append(value)
            end = after
        return values, end

    def _call(self, item: Any) -> ToolCall | None:
        if not isinstance(item, dict):
            return None
        try:
            if self._when is not None and self._when(item) is not True:
                return None
            name = self._name(item)
            raw_arguments = self._arguments(item)
            call_id = self._id(item) if self._id is not None else ""
        except (ValueError, TypeError, RecursionError):
            return None  # a function given the wrong type at run time: not a call object
        if not isinstance(name, str) or not name:
            return None
        arguments, undecodable, error, code = decode_arguments_coded(raw_arguments)
        if not isinstance(call_id, str):
            call_id = ""
        # The arguments dict comes from this block's own fresh parse: nobody else holds it.
        return ToolCall._trusted(name, arguments, call_id, undecodable, error, code)
