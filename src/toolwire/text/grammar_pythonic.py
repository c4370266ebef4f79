"""The ``pythonic`` payload grammar: ``[get_weather(city="Paris"), …]`` (Llama 3.2 / Llama 4).

The block is read by :mod:`toolwire.text.pyliteral` as literals only, never
evaluated. A call whose arguments leave the literal subset (bytes, a name, an
operator) is kept with ``arguments_undecodable`` and the reason, beside the good calls
of its list: the tool loop answers it with an error instead of never seeing it. A list
whose structure breaks (an unclosed quote, mismatched brackets, no call name) stays in
the text whole. ``layout: lines`` reads calls one per line without the list's brackets
(OLMo 3), and ``constants: python-and-json`` also takes ``true``/``false``/``null``.
"""

from __future__ import annotations

from typing import Final

from ..toolcall import ToolCall
from .grammar import Parsed, skip_blanks
from .pyliteral import LiteralError, read_call_lines, read_call_list
from .typed import Schemas

__all__ = ["NOT_A_LITERAL_CODE", "PythonicGrammar"]

NOT_A_LITERAL_CODE: Final = "not-a-literal"
"""``arguments_error_code`` of a call whose arguments leave the literal subset."""


class PythonicGrammar:
    """Reads a Python list of calls with keyword literal arguments."""

    __slots__ = ("_json_constants", "_lines")

    def __init__(self, *, lines: bool = False, json_constants: bool = False) -> None:
        self._lines = lines
        self._json_constants = json_constants

    def parse(
        self, chunk: str, *, fill: bool, cut: bool, schemas: Schemas | None = None
    ) -> Parsed | None:
        try:
            read = read_call_lines if self._lines else read_call_list
            calls, end = read(chunk, skip_blanks(chunk, 0), json_constants=self._json_constants)
        except LiteralError:
            return None
        if fill and chunk[end:].strip():
            return None
        return Parsed(
            [
                ToolCall._trusted(
                    name, {}, "", True, f"not a Python literal: {error}", NOT_A_LITERAL_CODE
                )
                if arguments is None
                else ToolCall._trusted(name, arguments, "", False, None)
                for name, arguments, error in calls
            ],
            end,
        )
