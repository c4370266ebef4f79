"""What every payload grammar shares: its interface, strict JSON values, and names.

A grammar reads the text of one block (a slice of the reply, never the whole of it)
and answers either ``None`` ("this block carries no call": the scanner leaves it in
the text) or :class:`Parsed`: the calls, in order, and where in the slice the payload
ended. It is told two facts about the slice:

``fill``
    The block had a close marker: the payload must fill the slice, blanks aside.
    Otherwise a grammar whose payload is one delimited value (JSON, a Python list)
    stops where the value stops and the rest of the slice is plain text.
``cut``
    The block did not end at its close marker: the reply ended first (cut at its
    token limit, most likely) or another block began. For formats without a close
    marker: the block runs into the end of the reply. Arguments that *look*
    complete there (empty, or tags that were never closed) are flagged rather than
    trusted (FIELD-NOTES 1).

A grammar also says whether its payload ran into the end of the slice before its own
end (``Parsed.unfinished``: a JSON value still open, a function never closed, a call
list without its ``]``). The scanner needs that fact twice: a payload that ran into
the end of the *reply* makes its last call ``incomplete`` and the reply ``truncated``
(specs/README.md §1b.12), and a payload that ran into its block's close marker may be
longer than the block (a string argument that quotes the close marker): grammars whose
payload ends by its own syntax say where with ``extent``, and the scanner tries that
longer reading. ``Parsed([], end, True)`` is a payload that ran out before any call
could be read: the block yields none, and is reported as cut off.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Final, NamedTuple, Protocol

from ..._values.jsontext import JsonFault, scan_at
from ..._values.toolcall import ToolCall
from ..occurrences import Occurrences
from ..typed import Schemas

__all__ = [
    "OUT_OF_RANGE",
    "OUT_OF_RANGE_CODE",
    "RAN_OUT",
    "UNFINISHED",
    "UNFINISHED_CODE",
    "Extent",
    "Grammar",
    "OutOfRange",
    "Parsed",
    "decode_json_at",
    "decode_json_lenient_at",
    "functions_end",
    "has_infinity",
    "may_be_json",
    "plausible_name",
    "skip_blanks",
]

UNFINISHED: Final = (
    "the call ends before its closing marker (the reply was cut off, or another call began)"
)
"""``arguments_error`` of a call whose block ended before its arguments were complete."""
UNFINISHED_CODE: Final = "call-unfinished"
"""Its ``arguments_error_code``."""

_JSON_BLANKS: Final = re.compile(r"[ \t\n\r]*+")
_NAME_FORBIDDEN: Final = re.compile(r"[\s<>\[\]{}()\"'`,;=\\]")
MAX_NAME_LENGTH: Final = 256


class Parsed(NamedTuple):
    """The calls a block carries, where in the block's slice its payload ended, and
    whether it ran into the slice's end before its own (see the module docstring)."""

    calls: list[ToolCall]
    end: int
    unfinished: bool = False
    stray: int = -1
    """Where a value began after a separator but did not read, ending the list (-1: none)."""


class Grammar(Protocol):
    """Reads one block's slice of text."""

    def parse(
        self, chunk: str, *, fill: bool, cut: bool, schemas: Schemas | None = None
    ) -> Parsed | None:
        """The calls ``chunk`` carries, or None when it carries none.

        ``schemas`` gives a tool's parameters schema by name when the caller passed
        ``tools=``; grammars whose values are text type them by it (:mod:`.typed`).
        """
        ...


class Extent(Protocol):
    """A grammar whose payload ends by its own syntax (a JSON value, closed functions)."""

    def extent(self, text: str, start: int, limit: int, occ: Occurrences) -> int:
        """Where the payload starting at ``start`` of the whole reply ends when read past
        the block's end ``limit`` (a marker its strings or values may hold), or -1 when it
        does not read whole; ``occ`` finds markers in ``text``."""
        ...


RAN_OUT: Final = frozenset({"unexpected-end", "unterminated-string"})
"""JSON fault codes that mean "the text ended inside the value" (§1.4.1)."""


def skip_blanks(text: str, pos: int) -> int:
    """The first position at or after ``pos`` that is not JSON whitespace."""
    if pos < len(text) and text[pos] not in " \t\n\r":  # the common case, without re
        return pos
    match = _JSON_BLANKS.match(text, pos)
    return match.end() if match else pos


def functions_end(text: str, start: int, occ: Occurrences, opening: str, closing: str) -> int:
    """Where the run of functions starting at ``start`` of the whole reply ends: each at the
    first ``closing`` after its ``opening``, only blanks (any Unicode space) between them;
    -1 when one never closes (the XML grammars' ``extent``)."""
    pos, end = start, -1
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if not text.startswith(opening, pos):
            return end
        close_at = occ.first(closing, pos + len(opening))
        if close_at == -1:
            return -1
        pos = end = close_at + len(closing)


OUT_OF_RANGE: Final = "number out of range"
"""``arguments_error`` of arguments holding a number beyond the float range (``1e400``)."""
OUT_OF_RANGE_CODE: Final = "number-out-of-range"
"""Its ``arguments_error_code``, the decoding table's (specs/README.md §1.4.1)."""


class OutOfRange(ValueError):
    """A number literal beyond the float range (``1e400``): it would decode to infinity."""


def _refuse(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


_LENIENT: Final = json.JSONDecoder(parse_constant=_refuse)


def decode_json_at(text: str, pos: int) -> tuple[Any, int]:
    """One strict JSON value starting exactly at ``pos``: ``(value, end)``.

    Raises :class:`ValueError` for text that is not a JSON value there within the
    portable limits (NaN, Infinity, nesting past 512: specs/README.md §1.4.1), so
    hostile brackets end here, not in a crash, and every language agrees; and
    :class:`OutOfRange` (a ``ValueError``) for a number beyond the float range, so that
    a grammar can still read the call object around it and refuse only its arguments.
    """
    try:
        return scan_at(text, pos)
    except JsonFault as fault:
        if fault.code == OUT_OF_RANGE_CODE:
            raise OutOfRange(OUT_OF_RANGE) from None
        raise


def decode_json_lenient_at(text: str, pos: int) -> tuple[Any, int]:
    """:func:`decode_json_at`, but a number beyond the float range decodes to infinity.

    Used only after :class:`OutOfRange`, so that the call object around such a number
    is still read (its name is fine) and only its arguments are refused.
    """
    try:
        return _LENIENT.raw_decode(text, pos)
    except RecursionError:
        raise ValueError("nesting too deep") from None


_JSON_FIRST: Final = frozenset('"{[-0123456789tfn \t\n\r')


def may_be_json(text: str) -> bool:
    """False when ``text`` cannot be a JSON text: it is empty or starts with a character no
    JSON value (nor JSON blank) starts with.

    Most text values (``Paris``) are such; deciding it from one character skips the
    decoder's failure, whose classification of the fault costs more than the decoding.
    """
    return text[:1] in _JSON_FIRST and text != ""


def has_infinity(value: Any) -> bool:
    """Whether a decoded JSON value holds ±infinity anywhere (iteratively: any depth)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float) and item in (math.inf, -math.inf):
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def plausible_name(name: str) -> bool:
    """Whether text read as a call's name can be one.

    Names read from free text (a head, a tag, a first line) are checked so that a
    stray bracket or a sentence is never taken for a tool name: 1 to 256 characters,
    none of them blank, a control character, or one of ``<>[]{}()"'`,;=\\``. Names
    inside JSON call objects are taken as written.
    """
    if not name or len(name) > MAX_NAME_LENGTH:
        return False
    # str.isprintable of the whole name is each character's; \s is str.isspace
    return name.isprintable() and _NAME_FORBIDDEN.search(name) is None
