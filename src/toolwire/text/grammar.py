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
"""

from __future__ import annotations

import re
from typing import Any, Final, NamedTuple, Protocol

from ..jsontext import scan_at
from ..toolcall import ToolCall

__all__ = [
    "UNFINISHED",
    "UNFINISHED_CODE",
    "Grammar",
    "Parsed",
    "decode_json_at",
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
_NAME_FORBIDDEN: Final = frozenset("<>[]{}()\"'`,;=\\")
MAX_NAME_LENGTH: Final = 256


class Parsed(NamedTuple):
    """The calls a block carries and where, in the block's slice, its payload ended."""

    calls: list[ToolCall]
    end: int


class Grammar(Protocol):
    """Reads one block's slice of text."""

    def parse(self, chunk: str, *, fill: bool, cut: bool) -> Parsed | None:
        """The calls ``chunk`` carries, or None when it carries none."""
        ...


def skip_blanks(text: str, pos: int) -> int:
    """The first position at or after ``pos`` that is not JSON whitespace."""
    match = _JSON_BLANKS.match(text, pos)
    return match.end() if match else pos


def decode_json_at(text: str, pos: int) -> tuple[Any, int]:
    """One strict JSON value starting exactly at ``pos``: ``(value, end)``.

    Raises :class:`ValueError` for text that is not a JSON value there within the
    portable limits (NaN, Infinity, 1e400, nesting past 512: specs/README.md §1.4.1),
    so hostile brackets end here, not in a crash, and every language agrees.
    """
    return scan_at(text, pos)


def plausible_name(name: str) -> bool:
    """Whether text read as a call's name can be one.

    Names read from free text (a head, a tag, a first line) are checked so that a
    stray bracket or a sentence is never taken for a tool name: 1 to 256 characters,
    none of them blank, a control character, or one of ``<>[]{}()"'`,;=\\``. Names
    inside JSON call objects are taken as written.
    """
    if not name or len(name) > MAX_NAME_LENGTH:
        return False
    return not any(c.isspace() or not c.isprintable() or c in _NAME_FORBIDDEN for c in name)
