"""Reading the call blocks of one stretch of a reply, and accounting for each of them.

:class:`BlockReader` is the half of a scan (:class:`~.scanner.Scanner`) that works block by
block: it finds each block by its markers (an open marker with its own close marker, the
block's close, none, or a bare function marker), reads the body with the payload
alternatives, tries the longer reading when a payload ends by its own syntax past a marker it
quotes, splits an unclosed block that holds further open markers, and records what the block
gave: its calls, a *skipped* region when it gave none, and whether the reply's end cut it
(specs/README.md §1b.5, §1b.12). The scan around it (reasoning regions, sections, the block
at the text's start) is :mod:`.scanner`'s.
"""

from __future__ import annotations

from typing import Final, Protocol

from .._values.text_reply import TextRegion
from .._values.toolcall import ToolCall
from .grammars.base import Grammar, Parsed
from .occurrences import Occurrences
from .typed import Schemas

__all__ = ["CUT_OFF", "NOT_A_CALL", "BlockReader", "Markers", "cut_marker", "skip_space"]

CUT_OFF: Final = "cut-off"
"""Code of a skipped region the reply ended inside before a call could be read."""
NOT_A_CALL: Final = "not-a-call"
"""Code of a skipped region that does not read as a call of the format."""
_REASONS: Final = {
    CUT_OFF: "the reply ends inside this call region before a call could be read",
    NOT_A_CALL: "this call region does not read as a call of the format",
}


class Markers(Protocol):
    """What the block reader needs of a scanner: its markers and payload alternatives."""

    opens: tuple[str, ...]
    close: str | None
    closes: dict[str, str | None]
    payloads: tuple[Grammar, ...]
    bare: tuple[str, str] | None


class BlockReader:
    """The block-level reading of one scan; its state is the scan's (:class:`~.scanner._Run`)."""

    __slots__ = ("occ", "scanner", "schemas", "text", "truncated")
    scanner: Markers
    schemas: Schemas | None
    text: str
    occ: Occurrences
    truncated: bool

    def _blocks(
        self,
        pos: int,
        end: int,
        kept: list[tuple[int, int]],
        calls: list[ToolCall],
        skipped: list[TextRegion],
    ) -> None:
        """Lift the blocks of ``text[pos:end]`` into ``calls``; record the rest in ``kept``
        and the blocks that yield no call in ``skipped``."""
        scanner, occ, size = self.scanner, self.occ, len(self.text)
        closes = scanner.closes
        split_until = -1  # blocks opening before this also end at the next open marker
        while pos < end:
            opened, length = occ.earliest(scanner.opens, pos)
            if scanner.bare is not None:
                bare_at = occ.first(scanner.bare[0], pos)
                if bare_at != -1 and bare_at < end and (opened == -1 or bare_at < opened):
                    if bare_at > pos:
                        kept.append((pos, bare_at))
                    pos = self._bare(bare_at, end, kept, calls, skipped)
                    continue
            if opened == -1 or opened >= end:
                break
            if opened > pos:
                kept.append((pos, opened))
            body = opened + length
            following, _ = occ.earliest(scanner.opens, body)
            next_open = following if following != -1 and following < end else end
            close = closes.get(self.text[opened:body], scanner.close) if closes else scanner.close
            if close is None:
                pos = self._unclosed(opened, body, next_open, end, kept, calls, skipped)
                continue
            close_at = occ.first(close, body)
            closed = close_at != -1 and close_at + len(close) <= end
            limit = close_at if closed else end
            if opened < split_until and next_open < limit:
                limit, closed = next_open, False
            block_end = limit + len(close) if closed else limit
            marker_cut = 0
            if not closed and limit == size:  # a reply ending inside the close marker ended
                marker_cut = self._cut_marker((close,), body)  # the payload before it
                limit -= marker_cut
            parsed, _ = self._parse(body, limit, fill=True, cut=not closed and not marker_cut)
            if closed and (parsed is None or parsed.unfinished):
                longer = self._longer(body, limit, end, close)
                if longer is not None:
                    parsed, block_end = longer
                    calls.extend(self._finished(parsed))
                    pos = block_end
                    continue
            splittable = opened >= split_until and next_open < limit
            if parsed is not None and not (splittable and unclean(parsed)):
                calls.extend(self._finished(parsed) if parsed.unfinished else parsed.calls)
                pos = block_end
            elif splittable:
                split_until = limit  # read each inner open marker as its own block
                pos = opened
            else:
                kept.append((opened, block_end))
                cut = not closed and block_end == size
                self._skip(opened, block_end, CUT_OFF if cut else NOT_A_CALL, skipped)
                pos = block_end
        if pos < end:
            opens = scanner.opens if scanner.bare is None else (*scanner.opens, scanner.bare[0])
            kept.extend(self._tail(pos, end, opens, skipped))

    def _cut_marker(self, markers: tuple[str, ...], start: int, *, opening: bool = False) -> int:
        """The length of the longest proper prefix of one of ``markers`` that the reply ends
        with, at or after ``start`` (the reply was cut inside that marker); 0 for none.
        It makes the reply ``truncated``. Of an ``opening`` marker at least half must stand
        (a reply may end with ``<`` or ``fun``: prose, not ``<tool_call>`` or ``functools``)."""
        found = cut_marker(self.text, start, markers, opening=opening)
        if found:
            self.truncated = True
        return found

    def _tail(
        self, pos: int, end: int, opens: tuple[str, ...], skipped: list[TextRegion]
    ) -> list[tuple[int, int]]:
        """The pieces of the plain text ``[pos, end)``; a reply that ends inside an open
        marker there ends in a call region the cut left unread: a cut-off skipped region."""
        cut = self._cut_marker(opens, pos, opening=True) if end == len(self.text) else 0
        if not cut:
            return [(pos, end)]
        self._skip(end - cut, end, CUT_OFF, skipped)
        return [(pos, end)]

    def _unclosed(
        self,
        opened: int,
        body: int,
        next_open: int,
        end: int,
        kept: list[tuple[int, int]],
        calls: list[ToolCall],
        skipped: list[TextRegion],
    ) -> int:
        """Read a block without a close marker (it runs to the next open marker); where
        scanning goes on."""
        size = len(self.text)
        parsed, ran_out = self._parse(body, next_open, fill=False, cut=next_open == size)
        if next_open < end and (parsed is None or parsed.unfinished):
            longer = self._longer(body, next_open, end, None)
            if longer is not None:  # an open marker quoted in the payload
                calls.extend(self._finished(longer[0]))
                return longer[1]
        if parsed is None:
            kept.append((opened, next_open))
            cut = ran_out and next_open == size
            self._skip(opened, next_open, CUT_OFF if cut else NOT_A_CALL, skipped)
            return next_open
        calls.extend(self._finished(parsed) if parsed.unfinished else parsed.calls)
        if parsed.stray != -1:  # a value after a separator that did not read: text, reported
            self._skip(parsed.stray, next_open, NOT_A_CALL, skipped)
        return parsed.end

    def _longer(
        self, body: int, limit: int, end: int, close: str | None
    ) -> tuple[Parsed, int] | None:
        """The payload read past ``limit`` (a close or open marker it holds), when it ends by
        its own syntax before ``end`` and reads cleanly: ``(parsed, block end)``.

        With a close marker, only blanks and the close marker (or the range's end) may
        follow the payload; without one, the block then runs to the next open marker.

        Linear: a JSON payload's reading crosses a marker only inside a string, and a block
        that marker opens starts inside that string, where its own reading stops at the next
        marker; function close tags are found through the reply's :class:`Occurrences`.
        """
        text = self.text
        for grammar in self.scanner.payloads:
            extent = getattr(grammar, "extent", None)
            if extent is None:
                continue
            stop = extent(text, body, limit, self.occ)
            if stop <= limit or stop > end:
                continue
            after = skip_space(text, stop, end)
            if close is None:
                following, _ = self.occ.earliest(self.scanner.opens, stop)
                chunk_end = following if following != -1 and following < end else end
                parsed = grammar.parse(
                    text[body:chunk_end], fill=False, cut=chunk_end == len(text),
                    schemas=self.schemas,
                )
                block_end = body + parsed.end if parsed is not None else -1
            elif after == end or text.startswith(close, after):
                closed = after != end and after + len(close) <= end
                parsed = grammar.parse(
                    text[body:after], fill=True, cut=not closed, schemas=self.schemas
                )
                block_end = after + len(close) if closed else after
            else:
                continue
            if parsed is not None and parsed.calls and not parsed.unfinished and not unclean(
                parsed
            ):
                return parsed, block_end
        return None

    def _bare(
        self,
        opened: int,
        end: int,
        kept: list[tuple[int, int]],
        calls: list[ToolCall],
        skipped: list[TextRegion],
    ) -> int:
        """Read a call written without the block's markers; where scanning goes on."""
        assert self.scanner.bare is not None
        opening, closing = self.scanner.bare
        occ = self.occ
        close_at = occ.first(closing, opened)
        following = occ.earliest((*self.scanner.opens, opening), opened + len(opening))[0]
        if following >= end:
            following = -1
        if (
            close_at != -1
            and close_at + len(closing) <= end
            and (following == -1 or close_at < following)
        ):
            limit, cut = close_at + len(closing), False
        else:
            limit = following if following != -1 else end
            cut = True
            if limit == len(self.text):  # the reply may end inside the function's close tag
                marker_cut = self._cut_marker((closing,), opened + len(opening))
                if marker_cut:
                    parsed, _ = self._parse(opened, limit - marker_cut, fill=True, cut=False)
                    if parsed is not None:
                        calls.extend(self._finished(parsed))
                        return limit
        parsed, _ = self._parse(opened, limit, fill=True, cut=cut)
        if parsed is None:
            kept.append((opened, limit))
            code = CUT_OFF if cut and limit == len(self.text) else NOT_A_CALL
            self._skip(opened, limit, code, skipped)
        else:
            calls.extend(self._finished(parsed))
        return limit

    def _parse(
        self,
        start: int,
        end: int,
        *,
        fill: bool,
        cut: bool,
        payloads: tuple[Grammar, ...] | None = None,
    ) -> tuple[Parsed | None, bool]:
        """The first payload alternative that reads ``text[start:end]`` (positions absolute),
        and whether some alternative ran out of text before any call."""
        chunk = self.text[start:end]
        ran_out = False
        for grammar in self.scanner.payloads if payloads is None else payloads:
            parsed = grammar.parse(chunk, fill=fill, cut=cut, schemas=self.schemas)
            if parsed is None:
                continue
            calls, stop, unfinished, stray = parsed
            if calls:
                if stray != -1:
                    stray += start
                return Parsed(calls, start + stop, unfinished, stray), ran_out
            ran_out = ran_out or unfinished
        return None, ran_out

    def _finished(self, parsed: Parsed) -> list[ToolCall]:
        """The calls of a payload; when it ran into the end of the reply, the last is
        ``incomplete`` (if its arguments did not decode) and the reply ``truncated``."""
        calls = parsed.calls
        if parsed.unfinished and parsed.end == len(self.text):
            self.truncated = True
            last = calls[-1]
            if last.arguments_undecodable and not last.incomplete:
                calls = [*calls[:-1], last.replace(incomplete=True)]
        return calls

    def _skip(self, start: int, end: int, code: str, skipped: list[TextRegion]) -> None:
        """Record a call region that yielded no call."""
        if code == CUT_OFF:
            self.truncated = True
        skipped.append(TextRegion(start, end, self.text[start:end], code, _REASONS[code]))


def skip_space(text: str, pos: int, end: int) -> int:
    """The first position in ``[pos, end)`` that is not blank, or ``end``."""
    while pos < end and text[pos].isspace():
        pos += 1
    return pos


def cut_marker(text: str, start: int, markers: tuple[str, ...], *, opening: bool = False) -> int:
    """The length of the longest proper prefix of one of ``markers`` that ``text`` ends with,
    at or after ``start``; 0 for none. With ``opening`` at least half of the marker must stand."""
    found = 0
    for marker in markers:
        least = max(found + 1, (len(marker) + 1) // 2 if opening else 1)
        for length in range(min(len(marker) - 1, len(text) - start), least - 1, -1):
            if text.endswith(marker[:length]):
                found = length
                break
    return found


def starts_value(grammar: Grammar, chunk: str) -> bool:
    """Whether a value of ``grammar``'s payload starts ``chunk`` (json and pythonic say)."""
    starts = getattr(grammar, "starts_value", None)
    return bool(starts(chunk)) if starts is not None else False


def unclean(parsed: Parsed) -> bool:
    """Whether some call of ``parsed`` has arguments that did not decode."""
    return any(call.arguments_undecodable for call in parsed.calls)
