"""The ``json`` payload grammar: call objects written as JSON (Hermes, Llama, Mistral, Granite).

A block holds one JSON value, or several joined by a separator (Llama's ``;``); each
value is a call object or an array of them, as the spec's ``shape`` allows. The name,
arguments and id of a call object are read with the spec's JMESPath expressions, and
the arguments go through the one decoding table every format shares.

A block is all or nothing: if any value is not a call object (invalid JSON, not an
object, no name, a ``when`` that does not hold), the block carries no call and stays
in the text where it was. Splitting a JSON array's text to keep half of it would
hand back a reply that never existed.

A separator made of whitespace only (MiniMax's ``"\n"``) is found in the whitespace
between two values, which is where such a separator stands: one object per line.

With ``single_key`` a call object is ``{"NAME": ARGUMENTS}``, one key (Apertus).

With ``arguments_keys`` the spec names the keys a call object may carry its arguments
under (Hermes: ``arguments``, then ``parameters`` as Llama-style models write it). An
object with none of them is a call without arguments only if every key it holds is one
of ``call_keys`` (name, id, type); one that holds some other key put its arguments
somewhere the spec does not know, and becomes a call with ``arguments_undecodable``
naming that key: arguments are never emptied silently.

A number beyond the float range (``1e400``) would decode to infinity, which the
decoding table refuses (§1.4): the call object is read again leniently, and a call
whose arguments hold such a number is kept with ``arguments_undecodable``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

from ..arguments import decode_arguments_coded
from ..expression import Expression
from ..toolcall import ToolCall
from .grammar import (
    OUT_OF_RANGE,
    OUT_OF_RANGE_CODE,
    OutOfRange,
    Parsed,
    decode_json_at,
    decode_json_lenient_at,
    has_infinity,
    skip_blanks,
)
from .typed import Schemas

__all__ = ["JsonGrammar"]

SHAPES: Final = frozenset({"object", "array", "object-or-array"})
DEFAULT_CALL_KEYS: Final = ("name", "id", "type")
JSON_BLANKS: Final = " \t\n\r"
"""JSON's whitespace: a separator made only of it is looked for between values (§1b.6)."""
MISPLACED_CODE: Final = "arguments-key-unknown"
"""``arguments_error_code`` of a call object whose arguments sit under a key the spec does
not accept."""


class JsonGrammar:
    """Reads JSON call objects; see the module docstring."""

    __slots__ = (
        "_arguments",
        "_arguments_keys",
        "_arrays",
        "_blank_separator",
        "_call_keys",
        "_id",
        "_name",
        "_objects",
        "_separated",
        "_separator",
        "_single_key",
        "_when",
    )

    def __init__(
        self,
        *,
        shape: str,
        separator: str | None,
        when: Expression | None,
        name: Expression,
        arguments: Expression | None,
        id: Expression | None,
        arguments_keys: tuple[str, ...] = (),
        call_keys: tuple[str, ...] = DEFAULT_CALL_KEYS,
        single_key: bool = False,
    ) -> None:
        if shape not in SHAPES:
            raise ValueError(f"unknown JSON shape {shape!r}")
        self._objects = shape != "array"
        self._arrays = shape != "object"
        self._separator = separator
        # A blank separator ("\n": one object per line) lies in the blanks between two values;
        # any other is blanks, the separator, blanks: one match where skip_blanks, startswith
        # and skip_blanks were three calls (possessive, as skip_blanks gives nothing back).
        self._blank_separator = separator is not None and not separator.strip(JSON_BLANKS)
        self._separated = (
            re.compile(rf"[ \t\n\r]*+{re.escape(separator)}[ \t\n\r]*+")
            if separator and not self._blank_separator else None
        )
        self._when = when
        self._name = name
        self._arguments = arguments
        self._id = id
        self._arguments_keys = arguments_keys
        self._call_keys = frozenset(call_keys) | frozenset(arguments_keys)
        self._single_key = single_key

    def parse(
        self, chunk: str, *, fill: bool, cut: bool, schemas: Schemas | None = None
    ) -> Parsed | None:
        try:
            values, end = self._values(chunk, decode_json_at)
            lenient = False
        except OutOfRange:
            values, end = self._values(chunk, decode_json_lenient_at)
            lenient = True
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
                call = self._call(item, lenient)
                if call is None:
                    return None
                calls.append(call)
        return Parsed(calls, end)

    def _values(self, chunk: str, decode: Decode) -> tuple[list[Any], int]:
        """The top-level values at the start of ``chunk`` and where the last one ends.

        Raises :class:`OutOfRange` when a value holds a number beyond the float range.
        """
        try:
            value, end = decode(chunk, skip_blanks(chunk, 0))
        except OutOfRange:
            raise
        except ValueError:
            return [], 0
        values = [value]
        separator = self._separator
        separated = self._separated
        while separator:
            if separated is None:
                # One object per line: the separator lies in the blanks after the value.
                at = skip_blanks(chunk, end)
                if chunk.find(separator, end, at) == -1:
                    break
                start = at
            else:
                match = separated.match(chunk, end)
                if match is None:
                    break
                start = match.end()
            try:
                value, after = decode(chunk, start)
            except OutOfRange:
                raise
            except ValueError:
                break  # a separator not followed by a value is plain text
            values.append(value)
            end = after
        return values, end

    def _call(self, item: Any, lenient: bool) -> ToolCall | None:
        if not isinstance(item, dict):
            return None
        # Expression.evaluate is the compiled closure: called directly, one frame less per
        # expression and call object.
        when = self._when
        try:
            if when is not None and when.evaluate(item) is not True:
                return None
            if self._single_key:
                if len(item) != 1:
                    return None
                ((name, raw_arguments),) = item.items()
            else:
                name = self._name.evaluate(item)
                expression = self._arguments
                raw_arguments = (
                    expression.evaluate(item) if expression is not None
                    else self._raw_arguments(item)
                )
            call_id = self._id.evaluate(item) if self._id is not None else ""
        except (ValueError, TypeError, RecursionError):
            return None  # a function given the wrong type at run time: not a call object
        if not isinstance(name, str) or not name:
            return None
        if not isinstance(call_id, str):
            call_id = ""
        if isinstance(raw_arguments, _Misplaced):
            return ToolCall._trusted(
                name, {}, call_id, True, raw_arguments.message, MISPLACED_CODE
            )
        if lenient and has_infinity(raw_arguments):
            return ToolCall._trusted(name, {}, call_id, True, OUT_OF_RANGE, OUT_OF_RANGE_CODE)
        if type(raw_arguments) is dict:  # what decode_arguments_coded returns for a dict
            return ToolCall._trusted(name, raw_arguments, call_id, False, None)
        arguments, undecodable, error, code = decode_arguments_coded(raw_arguments)
        # The arguments dict comes from this block's own fresh parse: nobody else holds it.
        return ToolCall._trusted(name, arguments, call_id, undecodable, error, code)

    def _raw_arguments(self, item: dict[str, Any]) -> Any:
        """The raw arguments by the spec's expression or its first present key."""
        keys = self._arguments_keys
        if self._arguments is not None:
            return self._arguments.evaluate(item)
        for key in keys:
            if key in item:
                return item[key]
        stray = [key for key in item if key not in self._call_keys]
        if not stray:
            return None
        accepted = ", ".join(repr(key) for key in keys)
        held = ", ".join(repr(key) for key in stray[:4])
        return _Misplaced(f"the call object has no arguments key ({accepted}) but holds {held}")


class _Misplaced:
    """Arguments under a key the spec does not accept; carries the message."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


Decode = Callable[[str, int], tuple[Any, int]]
