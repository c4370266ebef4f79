"""Where each marker occurs in a text, found in time linear in the text however it is asked.

The scanner asks "where is the next ``</tool_call>`` from here?" many times, and not
always from increasing positions (a failed block is re-read as several shorter
ones). Searching afresh each time is what makes hostile text quadratic: thousands of
unclosed open tags each rescan the rest of a 10 MB reply.

So each marker's last answer is kept: ``find`` from ``start`` gave ``hit``, hence no
occurrence lies in ``[start, hit)`` and any question from a position in
``[start, hit]`` has the same answer, without searching. Questions from increasing
positions (nearly all of them) then search each stretch of the text once. Should a
marker's searches together cover more than twice the text (questions going back and
forth), its occurrences are listed once with :meth:`str.find` and every further
question is a binary search: linear in the text either way. Listing every marker up
front would also be linear, but it is a loop in Python per occurrence, and a grammar
builds an index per block.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Sequence

__all__ = ["Occurrences"]


class Occurrences:
    """The positions of markers in one text, searched lazily per marker."""

    __slots__ = ("_found", "_last", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        # marker -> every occurrence, once its searches have covered twice the text
        self._found: dict[str, array[int]] = {}
        # marker -> (searched from, first occurrence from there or -1, characters searched)
        self._last: dict[str, tuple[int, int, int]] = {}

    def _positions(self, marker: str) -> array[int]:
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
        last = self._last.get(marker)
        if last is not None:
            start, hit, spent = last
            if start <= pos and (pos <= hit or hit == -1):
                return hit
        else:
            found = self._found.get(marker)
            if found is not None:
                i = bisect_left(found, pos)
                return found[i] if i < len(found) else -1
            spent = 0
        if pos < 0:
            pos = 0  # str.find counts a negative start from the end
        text = self._text
        hit = text.find(marker, pos)
        if hit != -1:
            spent += hit - pos
        elif pos < len(text):
            spent += len(text) - pos
        if spent > 2 * len(text):
            self._last.pop(marker, None)
            found = self._positions(marker)
            i = bisect_left(found, pos)
            return found[i] if i < len(found) else -1
        self._last[marker] = (pos, hit, spent)
        return hit

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
