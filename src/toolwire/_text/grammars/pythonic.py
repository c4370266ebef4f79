"""The ``pythonic`` payload grammar: ``[get_weather(city="Paris"), …]`` (Llama 3.2 / Llama 4).

The block is read by :mod:`toolwire._text.pyliteral` as literals only, never
evaluated. A call whose arguments leave the literal subset (bytes, a name, an
operator) is kept with ``arguments_undecodable`` and the reason, beside the good calls
of its list: the tool loop answers it with an error instead of never seeing it. A list
whose structure breaks (an unclosed quote, mismatched brackets, no call name) stays in
the text whole. ``layout: lines`` reads calls one per line without the list's brackets
(OLMo 3), and ``constants: python-and-json`` also takes ``true``/``false``/``null``.

A list the block's text ends inside (cut at the token limit) keeps the calls written
whole before the cut; a call cut after its name and ``(`` is ``call-unfinished``; the
payload is then ``unfinished`` (specs/README.md §1b.12). With ``layout: lines`` a last
line that is such a cut call counts too.
"""

from __future__ import annotations

import re
from typing import Final

from ..._values.toolcall import ToolCall
from ..typed import Schemas
from .base import UNFINISHED, UNFINISHED_CODE, Parsed, skip_blanks
from .pyliteral import Call, LiteralError, read_call_lines, read_call_list, read_cut_calls

__all__ = ["NOT_A_LITERAL_CODE", "PythonicGrammar"]

_CALL_START: Final = re.compile(r"[^\W\d]\w*+(?:\.[^\W\d]\w*+)*+\s*+\(")
"""A call's dotted name and its ``(``."""

NOT_A_LITERAL_CODE: Final = "not-a-literal"
"""``arguments_error_code`` of a call whose arguments leave the literal subset."""


class PythonicGrammar:
    """Reads a Python list of calls with keyword literal arguments."""

    __slots__ = ("_json_constants", "_lines")

    def __init__(self, *, lines: bool = False, json_constants: bool = False) -> None:
        self._lines = lines
        self._json_constants = json_constants

    def starts_value(self, chunk: str) -> bool:
        """Whether a call list (``[``), or with ``layout: lines`` a call (a name and its
        ``(``), starts ``chunk`` (blanks aside): the reply's start is then a call region."""
        at = skip_blanks(chunk, 0)
        if not self._lines:
            return chunk.startswith("[", at)
        return _CALL_START.match(chunk, at) is not None

    def parse(
        self, chunk: str, *, fill: bool, cut: bool, schemas: Schemas | None = None
    ) -> Parsed | None:
        start = skip_blanks(chunk, 0)
        read = read_call_lines if self._lines else read_call_list
        try:
            calls, end = read(chunk, start, json_constants=self._json_constants)
        except LiteralError:
            calls, end = [], -1
        if calls and self._lines:
            tail = read_cut_calls(chunk, end, lines=True, json_constants=self._json_constants)
            if tail is not None and tail[1]:  # the last line is a call the text ends inside
                return Parsed(_calls(calls + tail[0], unfinished=True), len(chunk), True)
        if calls and not (fill and chunk[end:].strip()):
            return Parsed(_calls(calls, unfinished=False), end)
        if calls and not self._lines:
            return None  # a whole list with text after it in a closed block
        cut_read = read_cut_calls(
            chunk, start, lines=self._lines, json_constants=self._json_constants
        )
        if cut_read is None or (self._lines and not cut_read[1]):
            return None  # lines: only a call written up to its '(' shows a cut
        found, unfinished = cut_read
        return Parsed(_calls(found, unfinished=unfinished), len(chunk), True)


def _calls(found: list[Call], *, unfinished: bool) -> list[ToolCall]:
    """The calls read; the last is ``call-unfinished`` when the text ends inside it."""
    calls = [
        ToolCall._trusted(name, {}, "", True, f"not a Python literal: {error}", NOT_A_LITERAL_CODE)
        if arguments is None
        else ToolCall._trusted(name, arguments, "", False, None)
        for name, arguments, error in found
    ]
    if unfinished:
        calls[-1] = ToolCall._trusted(calls[-1].name, {}, "", True, UNFINISHED, UNFINISHED_CODE)
    return calls
