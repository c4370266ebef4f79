"""The ``pythonic`` payload grammar: ``[get_weather(city="Paris"), …]`` (Llama 3.2 / Llama 4).

The block is read by :mod:`toolwire.text.pyliteral` as literals only, never
evaluated. Anything outside the literal subset leaves the whole block in the text:
dropping one call of a list and returning the rest would hand the loop a reply the
model did not write.
"""

from __future__ import annotations

from ..toolcall import ToolCall
from .grammar import Parsed, skip_blanks
from .pyliteral import LiteralError, read_call_list

__all__ = ["PythonicGrammar"]


class PythonicGrammar:
    """Reads a Python list of calls with keyword literal arguments."""

    __slots__ = ()

    def parse(self, chunk: str, *, fill: bool, cut: bool) -> Parsed | None:
        try:
            calls, end = read_call_list(chunk, skip_blanks(chunk, 0))
        except LiteralError:
            return None
        if fill and chunk[end:].strip():
            return None
        return Parsed([ToolCall._trusted(name, args, "", False, None) for name, args in calls], end)
