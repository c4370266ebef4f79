"""The ``python-call-list`` content parser: ``[f(a=1), g(b="x")]`` read by a strict grammar.

transformers specifies this grammar for portability (its response-parsing guide), and
it is deliberately narrower than toolwire's ``pythonic`` text grammar: keyword
arguments only, no trailing commas, JSON-like literals, integers within ±(2^53 - 1),
lists and dicts nested at most 100 deep, strings in single or double quotes on one line
with JSON's escapes (and ``\\'``). The grammar, as specs/README.md §1b.13 states it::

    list      = ws "[" [call ("," call)*] ws "]" ws END
    call      = ws NAME ws "(" [argument ("," argument)*] ws ")"
    argument  = ws NAME ws "=" value           (each NAME once per call)
    value     = ws (string | "[" [value ("," value)*] ws "]"
                   | "{" [ws string ws ":" value ("," …)*] ws "}" | number | constant)
    NAME      = [A-Za-z_][A-Za-z0-9_]*([-.][A-Za-z0-9_]+)*
    constant  = True | true | False | false | None | null
    ws        = [ \\t\\n\\r]*

It yields ``[{"name": NAME, "arguments": {…}}, …]``; anything else is a
:class:`CallListError` naming the position.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any, Final, NoReturn

__all__ = ["CallListError", "read_call_list"]

_WS: Final = re.compile(r"[ \t\n\r]*")
_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[-.][A-Za-z0-9_]+)*")
_NUMBER: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_STRING: Final = re.compile(r"""'((?:[^'\\\n\r]|\\.)*)'|"((?:[^"\\\n\r]|\\.)*)\"""",
                            re.DOTALL)
_HEX4: Final = re.compile(r"u([0-9a-fA-F]{4})")
_LOW: Final = re.compile(r"\\u([dD][c-fC-F][0-9a-fA-F]{2})")
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_ESCAPES: Final = {"\\": "\\", "'": "'", '"': '"', "/": "/", "b": "\b", "f": "\f",
                   "n": "\n", "r": "\r", "t": "\t"}
_CONSTANTS: Final = {"True": True, "true": True, "False": False, "false": False,
                     "None": None, "null": None}
_MAX_INTEGER: Final = 2**53 - 1
_MAX_DEPTH: Final = 100


class CallListError(ValueError):
    """A text that is not a call list of the grammar."""


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, what: str) -> NoReturn:
        raise CallListError(f"python-call-list: {what} at position {self.pos}")

    def peek(self, char: str) -> bool:
        self.pos = _WS.match(self.text, self.pos).end()  # type: ignore[union-attr]
        return self.text.startswith(char, self.pos)

    def expect(self, char: str) -> None:
        if not self.peek(char):
            self.fail(f"expected {char!r}")
        self.pos += 1

    def sequence(self, close: str, item: Callable[[], Any]) -> list[Any]:
        out: list[Any] = []
        if self.peek(close):
            self.pos += 1
            return out
        while True:
            out.append(item())
            if self.peek(close):
                self.pos += 1
                return out
            self.expect(",")

    def unique(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                self.fail(f"{key!r} is given twice")
            out[key] = value
        return out

    def name(self, what: str) -> str:
        self.pos = _WS.match(self.text, self.pos).end()  # type: ignore[union-attr]
        match = _NAME.match(self.text, self.pos)
        if match is None:
            self.fail(f"expected {what}")
        self.pos = match.end()
        return match.group(0)

    def string(self) -> str:
        match = _STRING.match(self.text, self.pos)
        if match is None:
            self.fail("a string is not terminated on its line")
        body = match.group(1) if match.group(1) is not None else match.group(2)
        if _SURROGATE.search(body):
            self.fail("a string holds a lone surrogate")
        parts: list[str] = []
        at = 0
        while (slash := body.find("\\", at)) != -1:
            parts.append(body[at:slash])
            escaped = body[slash + 1]
            at = slash + 2
            if escaped in _ESCAPES:
                parts.append(_ESCAPES[escaped])
                continue
            hex4 = _HEX4.match(body, slash + 1)
            if hex4 is None:
                self.fail(f"unsupported escape {body[slash:slash + 2]!r} in a string")
            code, at = int(hex4.group(1), 16), hex4.end()
            low = _LOW.match(body, at) if 0xD800 <= code <= 0xDBFF else None
            if low is not None:
                code = 0x10000 + ((code - 0xD800) << 10) + (int(low.group(1), 16) - 0xDC00)
                at = low.end()
            if 0xD800 <= code <= 0xDFFF:
                self.fail("a string escapes a lone surrogate")
            parts.append(chr(code))
        self.pos = match.end()
        return "".join(parts) + body[at:]

    def value(self, depth: int) -> Any:
        if self.peek("'") or self.peek('"'):
            return self.string()
        if self.peek("[") or self.peek("{"):
            if depth >= _MAX_DEPTH:
                self.fail(f"lists and dicts nest more than {_MAX_DEPTH} deep")
            self.pos += 1
            if self.text[self.pos - 1] == "[":
                return self.sequence("]", lambda: self.value(depth + 1))
            return self.unique(self.sequence("}", lambda: self.pair(depth + 1)))
        number = _NUMBER.match(self.text, self.pos)
        if number is not None:
            literal = number.group(0)
            if number.group(1) is None and number.group(2) is None:
                if len(literal) > 17 or abs(int(literal)) > _MAX_INTEGER:
                    self.fail("an integer outside ±(2^53 - 1)")
                self.pos = number.end()
                return int(literal)
            if math.isinf(float(literal)):
                self.fail("a number beyond the double range")
            self.pos = number.end()
            return float(literal)
        word = _NAME.match(self.text, self.pos)
        if word is not None and word.group(0) in _CONSTANTS:
            self.pos = word.end()
            return _CONSTANTS[word.group(0)]
        self.fail("expected a string, number, list, dict, True, False or None")

    def pair(self, depth: int) -> tuple[str, Any]:
        if not (self.peek("'") or self.peek('"')):
            self.fail("a dict key must be a string")
        key = self.string()
        self.expect(":")
        return key, self.value(depth)

    def argument(self) -> tuple[str, Any]:
        key = self.name("a keyword argument (positional arguments are not supported)")
        if not self.peek("="):
            self.fail("expected '=' (positional arguments are not supported)")
        self.pos += 1
        return key, self.value(0)

    def call(self) -> dict[str, Any]:
        name = self.name("a function name")
        self.expect("(")
        return {"name": name, "arguments": self.unique(self.sequence(")", self.argument))}


def read_call_list(text: str) -> list[dict[str, Any]]:
    """``text`` as ``[{"name": …, "arguments": {…}}, …]``; :class:`CallListError` if not."""
    reader = _Reader(text)
    reader.expect("[")
    calls = reader.sequence("]", reader.call)
    reader.pos = _WS.match(text, reader.pos).end()  # type: ignore[union-attr]
    if reader.pos != len(text):
        reader.fail("text follows the closing ']'")
    return calls
