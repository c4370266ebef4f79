"""Where each marker occurs in a text, found once, then looked up in logarithmic time.

The scanner asks "where is the next ``</tool_call>`` from here?" many times, and not
always from increasing positions (a failed block is re-read as several shorter
ones). Searching afresh each time is what makes hostile text quadratic: thousands of
unclosed open tags each rescan the rest of a 10 MB reply. Instead every marker's
occurrences are listed once with :meth:`str.find` (linear in the text) and each
question is a binary search.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Sequence

__all__ = ["Occurrences"]


class Occurrences:
    """The positions of markers in one text, computed lazily per marker."""

    __slots__ = ("_found", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._found: dict[str, array[int]] = {}

    def _positions(self, marker: str) -> array[int]:
        found = self._found.get(marker)
        if found is None:
            found = array("q")
            text = self._text
            at = text.find(marker)
            while at != -1:
                found.append(at)
                at = text.find(marker, at + 1)
            self._found[marker] = found
        return found

    def first(self, marker: str, pos: int) -> int:
        """The first occurrence of ``marker`` starting at or after ``pos``, or -1."""
        found = self._positions(marker)
        i = bisect_left(found, pos)
        return found[i] if i < len(found) else -1

    def earliest(self, markers: Sequence[str], pos: int) -> tuple[int, int]:
        """``(position, length)`` of the earliest of ``markers`` at or after ``pos``.

        Where two markers start at the same place the longer wins; ``(-1, 0)`` when
        none occurs.
        """
        best, length = -1, 0
        for marker in markers:
            at = self.first(marker, pos)
            if at == -1:
                continue
            if best == -1 or at < best or (at == best and len(marker) > length):
                best, length = at, len(marker)
        return best, length
