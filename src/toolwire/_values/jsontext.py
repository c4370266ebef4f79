"""Strict JSON text with portable limits, and one stable code for every way it fails.

Every implementation of the spec language must agree on two things CPython's ``json``
leaves to itself: *which* texts decode (RFC 8259, plus a nesting limit and a number
range, specs/README.md §1.4.1), and *why* one does not — the ``arguments_error_code``
that conformance compares. The human message is free text; the code is not.

Decoding stays with the C scanner (fast, and most arguments decode). Only a text that
fails, or that is long enough to break a limit, is walked by :func:`classify`, a small
RFC 8259 scanner written to the spec's classification rule, so the code never
depends on the wording (or version) of the parser's messages.
"""

from __future__ import annotations

from itertools import accumulate

from .._speed import TYPE_CHECKING
from .._speed.cjson import make_scan

if TYPE_CHECKING:
    from typing import Any, Final

__all__ = ["MAX_DEPTH", "MESSAGES", "JsonFault", "classify", "loads", "scan_at"]

MAX_DEPTH: Final = 512
"""Arrays and objects nest at most this deep (the outermost counts 1)."""

MESSAGES: Final[dict[str, str]] = {
    "unexpected-end": "the JSON text ends before its value is complete",
    "unterminated-string": "a string is not terminated",
    "control-character": "a string holds an unescaped control character",
    "invalid-escape": "a string holds an invalid escape",
    "invalid-number": "a number is malformed",
    "number-out-of-range": "number out of range",
    "invalid-literal": "not a JSON literal (JSON has only true, false and null)",
    "expected-value": "expected a JSON value",
    "expected-key": "expected a key in double quotes",
    "expected-colon": "expected ':' after a key",
    "expected-delimiter": "expected ',' or the closing bracket",
    "trailing-text": "text follows the JSON value",
    "nesting-too-deep": "nesting too deep",
}
"""Each fault code and the message that goes with it (the message is for people)."""


class JsonFault(ValueError):
    """A text that is not strict JSON: ``code`` says why, the message in words."""

    def __init__(self, code: str) -> None:
        super().__init__(MESSAGES[code])
        self.code = code


class _OutOfRange(ValueError):
    """A number literal whose nearest double is infinite."""


def _finite_float(text: str) -> float:
    value = float(text)
    if value - value != 0.0:  # inf - inf is nan
        raise _OutOfRange(text)
    return value


def _refuse_constant(name: str) -> Any:
    raise ValueError(name)


_SCAN: Final = make_scan(parse_float=_finite_float, parse_constant=_refuse_constant)
"""The C scanner (``json``'s own) with the hooks above; ``(value, end)`` at an index."""


class _Patterns:
    """The regular expressions of the slow paths (a text that fails, or is long enough
    to break a limit), compiled on first use: a process that only decodes well-formed
    arguments never imports ``re`` (nor the ``enum`` it imports)."""

    def __getattr__(self, name: str) -> Any:
        import re  # lazy: re (0.4x a cold start) only for the slow paths

        self.STRINGS = re.compile(r'"(?:[^"\\]|\\.)*+"', re.DOTALL)
        self.NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
        self.BLANK_RUN = re.compile(r"[ \t\n\r]*")
        self.PLAIN_RUN = re.compile(r'[^"\\\x00-\x1f]*')
        self.DIGIT_RUN = re.compile(r"[0-9]*")
        return object.__getattribute__(self, name)


_RE: Final = _Patterns()
_BRACKETS: Final = {"[": 1, "{": 1, "]": -1, "}": -1}
_DIGITS: Final = "0123456789"
_MARKS: Final = bytes(
    48 if 48 <= b <= 57 else 91 if b in (91, 123) else 32 for b in range(256))
"""Each ASCII digit byte as ``0``, each opening bracket (``[`` or ``{``) as ``[``, every
other byte as a blank: in UTF-8 every byte of a non-ASCII character is 0x80 or more, so
a run of 309 digits in the text is a run of ``_LONG_RUN`` here and the brackets count
the same. One C translation gives both checks of :func:`_check_limits` what they need,
where a pattern search looks at every character from Python's regular expression
engine."""
_LONG_RUN: Final = b"0" * 309
_BLANK: Final = " \t\n\r"
_HEX: Final = frozenset("0123456789abcdefABCDEF")
_ESCAPES: Final = frozenset('"\\/bfnrt')
_LITERALS: Final = ("true", "false", "null")


def loads(text: str) -> Any:
    """The one JSON value ``text`` holds; :class:`JsonFault` when it holds none."""
    try:
        value, end = _SCAN(text, 0)
    except Exception:  # any failure: the classifier below names it
        value, end = None, -1
    if end != len(text):  # blanks around the value (a file's last newline), or a fault
        try:
            value, end = _SCAN(text, len(text) - len(text.lstrip(_BLANK)))
        except Exception:
            end = -1
        if end == -1 or text[end:].strip(_BLANK):
            raise JsonFault(_fault(text, 0, whole=True)) from None
    _check_limits(text, 0, len(text))
    return value


def scan_at(text: str, pos: int) -> tuple[Any, int]:
    """One JSON value starting exactly at ``pos`` and where it ends; what follows is free.

    For grammars that find a JSON value inside model text. Raises :class:`JsonFault`.
    """
    try:
        value, end = _SCAN(text, pos)
    except Exception:  # the classifier names the fault (or finds the limit broken)
        raise JsonFault(_fault(text, pos, whole=False)) from None
    _check_limits(text, pos, end)
    return value, end


def _fault(text: str, pos: int, *, whole: bool) -> str:
    """The code of a text the decoder refused: "ok" from the classifier means the stack
    ran out below :data:`MAX_DEPTH` (a caller deep in its own stack), still too deep."""
    code = classify(text, pos, whole=whole)[0]
    return "nesting-too-deep" if code == "ok" else code


def _check_limits(text: str, start: int, end: int) -> None:
    """Raise for a decoded value that breaks a limit the C scanner does not know.

    Each check first counts in C what it needs (brackets, digit runs) over the whole
    text, strings included, from one translation (``_MARKS``): only a text with enough of
    them is searched by pattern.
    """
    if end - start < len(_LONG_RUN):  # too short for either: nesting takes 2 per level
        return
    marks = text[start:end].encode("utf-8", "surrogatepass").translate(_MARKS)
    if end - start > 2 * MAX_DEPTH and marks.count(b"[") > MAX_DEPTH:
        segment = _RE.STRINGS.sub("", text[start:end])
        if segment.count("[") + segment.count("{") > MAX_DEPTH:
            depths = accumulate(map(_BRACKETS.__getitem__, _RE.NOT_BRACKETS.sub("", segment)))
            if max(depths, default=0) > MAX_DEPTH:
                raise JsonFault("nesting-too-deep")
    if _LONG_RUN in marks:
        code = classify(text, start, whole=False)[0]
        if code != "ok":
            raise JsonFault(code)


def _skip(text: str, pos: int) -> int:
    return _RE.BLANK_RUN.match(text, pos).end()  # type: ignore[union-attr]  # matches empty


def classify(
    text: str, pos: int = 0, *, whole: bool = True, infinite: bool = False
) -> tuple[str, int]:
    """``(code, offset)`` of the first fault scanning ``text`` from ``pos``, or ``("ok", end)``.

    The scan follows specs/README.md §1.4.1 step by step; it is iterative, so any
    depth gets an answer. With ``whole`` the value must fill the text (blanks aside). With
    ``infinite`` a number beyond the double range is no fault (a text grammar reads the
    call object around it and flags only its arguments: specs/README.md §1b rule 8).
    """
    n = len(text)
    stack: list[str] = []  # "[" or "{" per open container
    i = _skip(text, pos) if whole else pos
    while True:
        # -- a value starts at i
        if i >= n:
            return "unexpected-end", i
        c = text[i]
        if c == "[" or c == "{":
            if len(stack) >= MAX_DEPTH:
                return "nesting-too-deep", i
            stack.append(c)
            i = _skip(text, i + 1)
            if i < n and text[i] == ("]" if c == "[" else "}"):
                stack.pop()
                i += 1
            elif c == "{":
                code, i = _key(text, i)
                if code:
                    return code, i
                continue
            else:
                continue
        elif c == '"':
            code, i = _string(text, i)
            if code:
                return code, i
        elif c == "-" or c in _DIGITS:
            code, i = _number(text, i, infinite)
            if code:
                return code, i
        elif c.isascii() and c.isalpha():
            for word in _LITERALS:
                if text.startswith(word, i):
                    i += len(word)
                    break
                if n - i < len(word) and word.startswith(text[i:]):
                    return "unexpected-end", n
            else:
                return "invalid-literal", i
        else:
            return "expected-value", i
        # -- a value ended at i: close containers or expect the next member
        while True:
            if not stack:
                if whole and _skip(text, i) != n:
                    return "trailing-text", _skip(text, i)
                return "ok", i
            i = _skip(text, i)
            if i >= n:
                return "unexpected-end", i
            closer = "]" if stack[-1] == "[" else "}"
            if text[i] == closer:
                stack.pop()
                i += 1
                continue
            if text[i] != ",":
                return "expected-delimiter", i
            i = _skip(text, i + 1)
            if stack[-1] == "{":
                code, i = _key(text, i)
                if code:
                    return code, i
            break


def _key(text: str, i: int) -> tuple[str, int]:
    """A key and its colon at ``i``: ``("", start of the value)`` or a fault."""
    if i >= len(text):
        return "unexpected-end", i
    if text[i] != '"':
        return "expected-key", i
    code, i = _string(text, i)
    if code:
        return code, i
    i = _skip(text, i)
    if i >= len(text):
        return "unexpected-end", i
    if text[i] != ":":
        return "expected-colon", i
    return "", _skip(text, i + 1)


def _string(text: str, i: int) -> tuple[str, int]:
    """The string opening at ``i``: ``("", end)`` or a fault."""
    n = len(text)
    i += 1
    while i < n:
        i = _RE.PLAIN_RUN.match(text, i).end()  # type: ignore[union-attr]  # matches empty
        if i >= n:
            break
        c = text[i]
        if c == '"':
            return "", i + 1
        if c < " ":
            return "control-character", i
        if c == "\\":
            if i + 1 >= n:
                return "unterminated-string", n
            e = text[i + 1]
            if e == "u":
                digits = text[i + 2 : i + 6]
                if len(digits) == 4 and all(d in _HEX for d in digits):
                    i += 6
                    continue
                if i + 6 > n and all(d in _HEX for d in digits):
                    return "unterminated-string", n
                return "invalid-escape", i
            if e not in _ESCAPES:
                return "invalid-escape", i
            i += 2
            continue
        i += 1
    return "unterminated-string", n


def _number(text: str, i: int, infinite: bool = False) -> tuple[str, int]:
    """The number at ``i``: ``("", end)`` or a fault (malformed, cut short, out of range)."""
    n, start = len(text), i
    if text[i] == "-":
        i += 1
    if i < n and text[i] == "0":
        i += 1
        if i < n and text[i] in _DIGITS:
            return "invalid-number", i
    else:
        i, ok = _digits(text, i)
        if not ok:
            return ("unexpected-end" if i >= n else "invalid-number"), i
    if i < n and text[i] == ".":
        i, ok = _digits(text, i + 1)
        if not ok:
            return ("unexpected-end" if i >= n else "invalid-number"), i
    if i < n and text[i] in "eE":
        i += 1
        if i < n and text[i] in "+-":
            i += 1
        i, ok = _digits(text, i)
        if not ok:
            return ("unexpected-end" if i >= n else "invalid-number"), i
    value = float(text[start:i])  # a str rounds to the nearest double, inf beyond
    if value - value != 0.0 and not infinite:
        return "number-out-of-range", start
    return "", i


def _digits(text: str, i: int) -> tuple[int, bool]:
    """Skip a run of ASCII digits at ``i``: ``(end, whether there was one)``."""
    j = _RE.DIGIT_RUN.match(text, i).end()  # type: ignore[union-attr]  # matches empty
    return j, j > i
