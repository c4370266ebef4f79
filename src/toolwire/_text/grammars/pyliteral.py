"""A reader for Python call lists with literal arguments, ``[f(a=1, b='x'), g()]``.

Pythonic tool calls are Python source, and the one safe way to read model-written
source is to never hand it to Python: no ``eval``, no ``ast.parse`` of the block
(whose recursion a few thousand brackets exhaust). This is a small recursive-descent
reader over exactly the literal subset, with an explicit depth limit, that fails with
:class:`LiteralError` on anything else: names other than ``True``/``False``/``None``,
operators, comprehensions, f-strings and bytes, sets, positional or repeated keyword
arguments, non-finite floats, non-string dict keys.

One call that breaks the subset does not sink the list: when its name and its
parentheses still read (brackets balanced, strings closed), it is returned with the
reason instead of arguments, and the calls around it are kept. A list whose structure
itself breaks (an unclosed quote, mismatched brackets) is not a call list.

A list the text ends inside (cut at the token limit) is read by :func:`read_cut_calls`:
the calls written whole before the cut, and the call the text ends inside when its name
and its ``(`` were written.

One string token at a time is decoded with :func:`ast.literal_eval`, which reads a
single literal and cannot recurse or execute; the token's extent is found first with
possessive regular expressions that never backtrack.

Speed: most calls models write are flat, ``f(city='Paris', days=3)``. Such a call is
read by one regular expression per argument (:data:`_FLAT_START`, :data:`_FLAT_ARGUMENT`),
and a string without a backslash is its text as written, without ``literal_eval``
(which costs more than the rest of the reader together). Anything else — an escape, a
nested value, a repeated key, a name that is no constant — falls back to the general
reader from the same position, so the fast path only ever answers what the general
one would.
"""

from __future__ import annotations

import ast
import math
import re
import threading
import warnings
from typing import Any, Final

__all__ = ["MAX_DEPTH", "LiteralError", "read_call_list", "read_cut_calls"]

MAX_DEPTH: Final = 64
"""Brackets nested deeper than this make the block plain text."""

_LITERAL_LOCK: Final = threading.Lock()

_BLANKS: Final = re.compile(r"\s*+")
_IDENT: Final = re.compile(r"[^\W\d]\w*+")
_DOTTED: Final = re.compile(r"[^\W\d]\w*+(?:\.[^\W\d]\w*+)*+")
_NUMBER: Final = re.compile(
    r"0[xX][0-9a-fA-F_]++|0[oO][0-7_]++|0[bB][01_]++"
    r"|(?:[0-9][0-9_]*+(?:\.[0-9_]*+)?+|\.[0-9][0-9_]*+)(?:[eE][+-]?+[0-9][0-9_]*+)?+"
)
_STRING_START: Final = re.compile(r"([A-Za-z]{0,2})('''|\"\"\"|'|\")")
_STRING_REST: Final = {
    "'": re.compile(r"[^'\\\n]*+(?:\\[\s\S][^'\\\n]*+)*+'"),
    '"': re.compile(r'[^"\\\n]*+(?:\\[\s\S][^"\\\n]*+)*+"'),
    "'''": re.compile(r"[^'\\]*+(?:(?:\\[\s\S]|'(?!''))[^'\\]*+)*+'''"),
    '"""': re.compile(r'[^"\\]*+(?:(?:\\[\s\S]|"(?!""))[^"\\]*+)*+"""'),
}
_STRING_PREFIXES: Final = frozenset({"", "r", "u"})
_NAMED_ESCAPE: Final = re.compile(r"(?<!\\)(?:\\\\)*+\\N")
_CONSTANTS: Final = {"True": True, "False": False, "None": None}
_JSON_CONSTANTS: Final = {**_CONSTANTS, "true": True, "false": False, "null": None}
_LINE_BLANKS: Final = re.compile(r"[ \t]*+")

# The text of a quoted string that ast.literal_eval reads as written: no backslash, and
# none of the characters the tokenizer refuses or rewrites (NUL, CR, lone surrogates;
# found by trying every code point on CPython 3.11 to 3.13). Single quotes: no newline.
_PLAIN_BODY: Final = r"\x00\r\\\ud800-\udfff"
_PLAIN_TEXT: Final = re.compile(rf"[^{_PLAIN_BODY}]*+")
_FLAT_ARGUMENT: Final = re.compile(
    r"\s*+(?:(\))|([^\W\d]\w*+)\s*+=\s*+(?:"
    rf"'([^'\n{_PLAIN_BODY}]*+)'|\"([^\"\n{_PLAIN_BODY}]*+)\""
    r"|(-?+(?:0|[1-9][0-9]{0,15})\.[0-9]{1,17})|(-?+(?:0|[1-9][0-9]{0,17}))"
    r"|(True|False|None|true|false|null))\s*+(?:(\))|,(?:\s*+(\)))?))"
)
"""A flat call's ``)``, or one ``key=value`` and the ``,`` or ``)`` after it (a ``,``
followed by the ``)``, too): see the module docstring."""
_LIST_NEXT: Final = re.compile(r"\s*+(?:\]()|,\s*+(?:\]())?)")
"""What follows a call in a list: the ``]``, or a ``,`` and blanks (and the ``]`` after
them: a trailing comma); a group is set where the list ends."""
_FLAT_START: Final = re.compile(
    r"([^\W\d]\w*+(?:\.[^\W\d]\w*+)*+)\s*+\(" + _FLAT_ARGUMENT.pattern
)
"""A flat call's name (:data:`_DOTTED`) and ``(``, then what :data:`_FLAT_ARGUMENT`
matches: the first argument (or the ``)``) in the same match."""


class LiteralError(ValueError):
    """The text is not a list of calls with literal keyword arguments.

    ``at_end`` says the text ended where more was needed (a call list cut off)."""

    def __init__(self, message: str, *, at_end: bool = False) -> None:
        super().__init__(message)
        self.at_end = at_end


Call = tuple[str, dict[str, Any] | None, str | None]
"""``(name, arguments, None)`` for a call that reads, ``(name, None, why)`` otherwise."""

_SKIP: Final = re.compile(r"[^()\[\]{}'\"]*+")


def read_call_list(text: str, pos: int, *, json_constants: bool = False) -> tuple[list[Call], int]:
    """Read ``[name(kw=literal, …), …]`` starting at ``pos``: ``(calls, end)``."""
    return _Reader(text, json_constants).call_list(pos)


def read_call_lines(text: str, pos: int, *, json_constants: bool = False) -> tuple[list[Call], int]:
    """Read calls written one per line, ``name(kw=literal)\\nname2()``: ``(calls, end)``.

    The calls end at the first line that does not start with a call or holds more
    after it; at least one call must read.
    """
    return _Reader(text, json_constants).call_lines(pos)


def read_cut_calls(
    text: str, pos: int, *, lines: bool = False, json_constants: bool = False
) -> tuple[list[Call], bool] | None:
    """The calls of a call list (or lines) that ``text`` ends inside, read from ``pos``.

    ``(calls, unfinished)``: the calls written whole, and whether the last of them is
    the one the text ends inside (its name and ``(`` written, its arguments ``None``).
    None when the text breaks the structure before its end: it is no cut call list.
    """
    reader = _Reader(text, json_constants)
    at = reader.blanks(pos)
    if not lines:
        if not text.startswith("[", at):
            return None
        at = reader.blanks(at + 1)
    calls: list[Call] = []
    while True:
        if at >= len(text):
            return calls, False
        name = _DOTTED.match(text, at)
        if name is None:
            return None
        opened = reader.blanks(name.end())
        if opened >= len(text):
            return calls, False  # the name itself may be cut
        if text[opened] != "(":
            return None
        try:
            _skip_arguments(text, opened + 1)
        except LiteralError as exc:
            if not exc.at_end:
                return None
            calls.append((name.group(), None, None))
            return calls, True
        try:
            call, end = reader.call(at)
        except LiteralError:
            return None
        calls.append(call)
        if lines:
            rest = _LINE_BLANKS.match(text, end)
            stop = rest.end() if rest else end
            if stop < len(text) and text[stop] not in "\r\n":
                return None
            at = reader.blanks(stop)
            continue
        after = _LIST_NEXT.match(text, end)
        if after is None:
            return (calls, False) if reader.blanks(end) >= len(text) else None
        if after.lastindex is not None:
            return None  # the list closed: it is whole, not cut
        at = after.end()


def _skip_arguments(text: str, pos: int) -> int:
    """The position after the ``)`` that closes the argument list opened before ``pos``.

    Brackets must balance and strings close (read as the literal reader reads them);
    otherwise :class:`LiteralError`: the list's structure is broken. Linear.
    """
    closers = {"(": ")", "[": "]", "{": "}"}
    stack = [")"]
    while True:
        match = _SKIP.match(text, pos)
        pos = match.end() if match else pos
        if pos >= len(text):
            raise LiteralError("the call's parentheses are never closed", at_end=True)
        char = text[pos]
        if char in closers:
            stack.append(closers[char])
            pos += 1
        elif char in ")]}":
            if stack.pop() != char:
                raise LiteralError(f"mismatched {char!r} at {pos}")
            pos += 1
            if not stack:
                return pos
        else:
            quote = text[pos] * 3 if text.startswith(text[pos] * 3, pos) else text[pos]
            rest = _STRING_REST[quote].match(text, pos + len(quote))
            if rest is None:
                # cut off, unless a one-line string meets a line break first
                ended = len(quote) == 3 or text.find("\n", pos) == -1
                raise LiteralError(f"unterminated string at {pos}", at_end=ended)
            pos = rest.end()


class _Reader:
    __slots__ = ("constants", "text")

    def __init__(self, text: str, json_constants: bool = False) -> None:
        self.text = text
        self.constants = _JSON_CONSTANTS if json_constants else _CONSTANTS

    def blanks(self, pos: int) -> int:
        text = self.text
        if pos < len(text) and not text[pos].isspace():  # the common case, without re
            return pos
        match = _BLANKS.match(text, pos)
        return match.end() if match else pos

    def expect(self, pos: int, char: str) -> int:
        pos = self.blanks(pos)
        if not self.text.startswith(char, pos):
            raise LiteralError(f"expected {char!r} at {pos}")
        return pos + 1

    def call_list(self, pos: int) -> tuple[list[Call], int]:
        text = self.text
        pos = self.blanks(self.expect(pos, "["))
        if text.startswith("]", pos):
            raise LiteralError("an empty list holds no call")
        calls: list[Call] = []
        while True:
            call, pos = self.call(pos)
            calls.append(call)
            after = _LIST_NEXT.match(text, pos)
            if after is None:
                raise LiteralError(f"expected ',' at {self.blanks(pos)}")
            if after.lastindex is not None:  # the list's "]"
                return calls, after.end()
            pos = after.end()

    def call_lines(self, pos: int) -> tuple[list[Call], int]:
        text = self.text
        calls: list[Call] = []
        end = pos
        while True:
            at = self.blanks(end)
            if calls and (at >= len(text) or not _line_break_between(text, end, at)):
                return calls, end  # only blanks left, or a next call on the same line
            flat = self.flat_call(at)  # a flat call starts with a name: no need to look twice
            if flat is not None:
                call, after = flat
            else:
                if at >= len(text) or _DOTTED.match(text, at) is None:
                    break
                try:
                    call, after = self.call(at)
                except LiteralError:
                    if not calls:
                        raise
                    return calls, end
            if after < len(text) and text[after] not in "\r\n":  # else nothing follows
                rest = _LINE_BLANKS.match(text, after)
                stop = rest.end() if rest else after
                if stop < len(text) and text[stop] not in "\r\n":
                    if not calls:
                        raise LiteralError(f"text after the call at {after}")
                    return calls, end
            calls.append(call)
            end = after
        if not calls:
            raise LiteralError(f"expected a function name at {at}")
        return calls, end

    def call(self, pos: int) -> tuple[Call, int]:
        """One ``name(…)``: the call (or its name and why its arguments fail), and its end."""
        flat = self.flat_call(pos)
        if flat is not None:
            return flat
        match = _DOTTED.match(self.text, pos)
        if match is None:
            raise LiteralError(f"expected a function name at {pos}")
        name = match.group()
        opened = self.expect(match.end(), "(")
        try:
            arguments, pos = self.arguments(opened)
        except LiteralError as exc:
            return (name, None, str(exc)), _skip_arguments(self.text, opened)
        return (name, arguments, None), pos

    def flat_call(self, pos: int) -> tuple[Call, int] | None:
        """:meth:`call` of a flat call (plain strings, numbers, constants), else None.

        None means "not answered here", never "wrong": the general reader then reads
        the call from ``pos`` and finds the fault if there is one (a repeated key, a
        constant for a key, ``true`` without ``json_constants``).
        """
        match = _FLAT_START.match(self.text, pos)
        if match is None:
            return None
        name = match.group(1)
        groups = match.groups()[1:]
        arguments: dict[str, Any] = {}
        constants = self.constants
        while True:
            empty, key, single, double, real, integer, word, close, last = groups
            if empty is not None:
                return (name, arguments, None), match.end()
            if key in arguments or key in constants:
                return None
            if single is not None:
                arguments[key] = single
            elif double is not None:
                arguments[key] = double
            elif real is not None:
                arguments[key] = float(real)
            elif integer is not None:
                arguments[key] = int(integer)
            elif word in constants:
                arguments[key] = constants[word]
            else:
                return None
            if close is not None or last is not None:
                return (name, arguments, None), match.end()
            match = _FLAT_ARGUMENT.match(self.text, match.end())
            if match is None:
                return None
            groups = match.groups()

    def arguments(self, pos: int) -> tuple[dict[str, Any], int]:
        """The keyword arguments after a call's ``(``, and the position after its ``)``."""
        arguments: dict[str, Any] = {}
        while True:
            pos = self.blanks(pos)
            if self.text.startswith(")", pos):
                return arguments, pos + 1
            if arguments:
                pos = self.blanks(self.expect(pos, ","))
                if self.text.startswith(")", pos):
                    return arguments, pos + 1
            key = _IDENT.match(self.text, pos)
            if key is None or key.group() in self.constants:
                raise LiteralError(f"expected a keyword argument at {pos}")
            if key.group() in arguments:
                raise LiteralError(f"keyword argument {key.group()!r} repeated")
            pos = self.expect(key.end(), "=")
            try:
                arguments[key.group()], pos = self.value(pos, 1)
            except LiteralError as exc:
                raise LiteralError(f"argument {key.group()!r}: {exc}") from None

    def value(self, pos: int, depth: int) -> tuple[Any, int]:
        if depth > MAX_DEPTH:
            raise LiteralError("literal nested too deeply")
        pos = self.blanks(pos)
        text = self.text
        char = text[pos : pos + 1]
        if char in ("[", "("):
            return self.sequence(pos, depth)
        if char == "{":
            return self.mapping(pos, depth)
        if char in ("-", "+"):
            number, end = self.number(self.blanks(pos + 1))
            return (-number if char == "-" else number), end
        if char.isdigit() or (char == "." and text[pos + 1 : pos + 2].isdigit()):
            return self.number(pos)
        if _STRING_START.match(text, pos):
            return self.strings(pos)
        word = _IDENT.match(text, pos)
        if word is not None and word.group() in self.constants:
            return self.constants[word.group()], word.end()
        raise LiteralError(f"expected a literal at {pos}")

    def sequence(self, pos: int, depth: int) -> tuple[Any, int]:
        closing = "]" if self.text[pos] == "[" else ")"
        pos += 1
        items: list[Any] = []
        comma = False
        while True:
            pos = self.blanks(pos)
            if self.text.startswith(closing, pos):
                if closing == ")" and len(items) == 1 and not comma:
                    return items[0], pos + 1  # (x) is x, not a tuple
                return items, pos + 1
            if items:
                pos = self.blanks(self.expect(pos, ","))
                comma = True
                if self.text.startswith(closing, pos):
                    return items, pos + 1
            item, pos = self.value(pos, depth + 1)
            items.append(item)

    def mapping(self, pos: int, depth: int) -> tuple[dict[str, Any], int]:
        pos += 1
        result: dict[str, Any] = {}
        first = True
        while True:
            pos = self.blanks(pos)
            if self.text.startswith("}", pos):
                return result, pos + 1
            if not first:
                pos = self.blanks(self.expect(pos, ","))
                if self.text.startswith("}", pos):
                    return result, pos + 1
            first = False
            key, pos = self.value(pos, depth + 1)
            if not isinstance(key, str):
                raise LiteralError("dict keys must be strings to be JSON")
            pos = self.expect(pos, ":")
            result[key], pos = self.value(pos, depth + 1)

    def number(self, pos: int) -> tuple[int | float, int]:
        match = _NUMBER.match(self.text, pos)
        if match is None:
            raise LiteralError(f"expected a number at {pos}")
        token = match.group()
        try:
            if token[:2].lower() not in ("0x", "0o", "0b") and any(c in token for c in ".eE"):
                number: int | float = float(token)
                if not math.isfinite(number):
                    raise LiteralError(f"{token} is not a finite number")
            else:
                number = int(token, 0)
        except ValueError as exc:  # bad underscores, leading zeros, too many digits
            raise LiteralError(str(exc)) from None
        return number, match.end()

    def strings(self, pos: int) -> tuple[str, int]:
        """One string literal, or several adjacent ones (Python joins them)."""
        parts: list[str] = []
        while True:
            start = _STRING_START.match(self.text, pos)
            if start is None:
                return "".join(parts), pos
            prefix, quote = start.group(1), start.group(2)
            if prefix.lower() not in _STRING_PREFIXES:
                raise LiteralError(f"{prefix}-strings are not plain string literals")
            rest = _STRING_REST[quote].match(self.text, start.end())
            if rest is None:
                raise LiteralError(f"unterminated string at {pos}")
            body_end = rest.end() - len(quote)
            plain = _PLAIN_TEXT.match(self.text, start.end(), body_end)
            if plain is not None and plain.end() == body_end:  # read as written
                parts.append(self.text[start.end() : body_end])
                pos = self.blanks(rest.end())
                continue
            token = self.text[start.start() : rest.end()]
            if prefix.lower() != "r" and _NAMED_ESCAPE.search(token):
                # \N{NAME} needs the Unicode name database, which not every language has:
                # not portable (specs/README.md §1b.9), so not read here either.
                raise LiteralError("\\N{...} escapes are not portable")
            # One thread at a time: warnings.catch_warnings() swaps the process-wide
            # filters, and CPython 3.11's AST builder keeps its recursion depth in shared
            # state (SystemError "AST constructor recursion depth mismatch" under threads,
            # cpython gh-106905) — seen in tests/test_concurrency.py.
            with _LITERAL_LOCK, warnings.catch_warnings():
                warnings.simplefilter("ignore")  # invalid escapes warn in newer Pythons
                try:
                    value = ast.literal_eval(token)
                except (SyntaxError, ValueError, MemoryError) as exc:
                    raise LiteralError(f"bad string literal: {exc}") from None
            if not isinstance(value, str):
                raise LiteralError("not a string literal")
            parts.append(value)
            pos = self.blanks(rest.end())


def _line_break_between(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (blanks) holds a line break."""
    return "\n" in text[start:end] or "\r" in text[start:end]
