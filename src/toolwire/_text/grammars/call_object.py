"""The ``call-object`` payload grammar: ``call:NAME{key:value,…}`` (Gemma 4, FunctionGemma).

Google's Gemma models write a call in their own object notation, not JSON: keys bare,
strings between a delimiter token (Gemma 4's ``<|"|>``, FunctionGemma's ``<escape>``),
other values bare (``42``, ``true``), objects in ``{}`` and arrays in ``[]``::

    <|tool_call>call:get_weather{location:<|"|>Paris<|"|>,days:3}<|tool_call|>

The reader here takes exactly that: a bare value must be ``true``, ``false``, ``null``
or a JSON number, a key runs to its ``:``, and a delimited string is the text as
written (``strings: json-or-string`` reads one that is a whole JSON text as JSON, as
FunctionGemma's parser does). The name is known once ``call:NAME{`` reads, so a call
whose arguments break is kept with ``arguments_undecodable``; one cut off before its
closing brace is flagged as unfinished. Nesting beyond 64 levels is a fault.
"""

from __future__ import annotations

import re
from typing import Any, Final

from ..._values.arguments import loads_strict
from ..._values.toolcall import ToolCall
from ..typed import Schemas
from .base import UNFINISHED, UNFINISHED_CODE, Parsed, may_be_json, plausible_name

__all__ = ["BAD_OBJECT_CODE", "CallObjectGrammar"]

BAD_OBJECT_CODE: Final = "bad-call-object"
"""``arguments_error_code`` of arguments that do not read in the call-object notation."""
MAX_DEPTH: Final = 64
_NUMBER: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_BARE: Final = {"true": True, "false": False, "null": None}
_BLANKS: Final = re.compile(r"[ \t\r\n]*+")
_WORD: Final = re.compile(r"[^,}\] \t\r\n]*+")
"""A bare value: up to a delimiter or a blank."""


class _Fault(Exception):
    """The arguments do not read; ``cut`` when the text ended inside them."""

    def __init__(self, message: str, *, cut: bool = False) -> None:
        super().__init__(message)
        self.cut = cut


class CallObjectGrammar:
    """Reads ``PREFIX NAME {key:value, …}``; see the module docstring."""

    __slots__ = ("_delimiter", "_json_strings", "_prefix")

    def __init__(self, *, prefix: str, delimiter: str, json_strings: bool = False) -> None:
        self._prefix = prefix
        self._delimiter = delimiter
        self._json_strings = json_strings

    def parse(
        self, chunk: str, *, fill: bool, cut: bool, schemas: Schemas | None = None
    ) -> Parsed | None:
        start = len(chunk) - len(chunk.lstrip())
        if not chunk.startswith(self._prefix, start):
            return None
        name_at = start + len(self._prefix)
        brace = chunk.find("{", name_at)
        if brace == -1:
            return Parsed([], len(chunk), True) if cut else None  # the name may be cut
        name = chunk[name_at:brace].strip()
        if not plausible_name(name):
            return None
        try:
            arguments, end = self._object(chunk, brace + 1, 1)
            if chunk[end:].strip():
                raise _Fault("text after the call's closing brace")
        except _Fault as fault:
            if fault.cut and cut:
                call = ToolCall._trusted(name, {}, "", True, UNFINISHED, UNFINISHED_CODE)
                return Parsed([call], len(chunk), True)
            call = ToolCall._trusted(name, {}, "", True, str(fault), BAD_OBJECT_CODE)
            return Parsed([call], len(chunk), fault.cut)
        return Parsed([ToolCall._trusted(name, arguments, "", False, None)], len(chunk))

    def _blanks(self, text: str, pos: int) -> int:
        return _BLANKS.match(text, pos).end()  # type: ignore[union-attr]  # matches empty

    def _object(self, text: str, pos: int, depth: int) -> tuple[dict[str, Any], int]:
        """Members after a ``{`` up to its ``}``: ``(object, position after the brace)``."""
        if depth > MAX_DEPTH:
            raise _Fault("nested too deeply")
        result: dict[str, Any] = {}
        while True:
            pos = self._blanks(text, pos)
            if pos >= len(text):
                raise _Fault("the object is not closed", cut=True)
            if text[pos] == "}":
                return result, pos + 1
            if result:
                if text[pos] != ",":
                    raise _Fault(f"expected ',' or '}}' at {pos}")
                pos = self._blanks(text, pos + 1)
            colon = text.find(":", pos)
            if colon == -1:
                raise _Fault("a key has no ':'", cut=True)
            key = text[pos:colon].strip()
            if not key or any(c in key for c in "{}[],") or self._delimiter in key:
                raise _Fault(f"bad key {key[:40]!r}")
            if key in result:
                raise _Fault(f"key {key!r} repeated")
            result[key], pos = self._value(text, colon + 1, depth)

    def _array(self, text: str, pos: int, depth: int) -> tuple[list[Any], int]:
        if depth > MAX_DEPTH:
            raise _Fault("nested too deeply")
        items: list[Any] = []
        while True:
            pos = self._blanks(text, pos)
            if pos >= len(text):
                raise _Fault("the array is not closed", cut=True)
            if text[pos] == "]":
                return items, pos + 1
            if items:
                if text[pos] != ",":
                    raise _Fault(f"expected ',' or ']' at {pos}")
                pos += 1
            item, pos = self._value(text, pos, depth)
            items.append(item)

    def _value(self, text: str, pos: int, depth: int) -> tuple[Any, int]:
        pos = self._blanks(text, pos)
        if pos >= len(text):
            raise _Fault("a value is missing", cut=True)
        delimiter = self._delimiter
        if text.startswith(delimiter, pos):
            close = text.find(delimiter, pos + len(delimiter))
            if close == -1:
                raise _Fault("a string is not closed", cut=True)
            raw = text[pos + len(delimiter) : close]
            return self._string(raw), close + len(delimiter)
        if text[pos] == "{":
            return self._object(text, pos + 1, depth + 1)
        if text[pos] == "[":
            return self._array(text, pos + 1, depth + 1)
        end = _WORD.match(text, pos).end()  # type: ignore[union-attr]  # matches empty
        word = text[pos:end]
        if word in _BARE:
            return _BARE[word], end
        if _NUMBER.fullmatch(word):
            try:
                return loads_strict(word), end
            except ValueError as exc:  # beyond the double range
                raise _Fault(str(exc)) from None
        if end >= len(text):
            raise _Fault("a value is cut off", cut=True)
        raise _Fault(f"bare value {word[:40]!r} is not a number, true, false or null")

    def _string(self, raw: str) -> Any:
        if self._json_strings and may_be_json(raw):
            try:
                return loads_strict(raw)
            except ValueError:
                pass
        return raw
