"""The one scanner every text spec runs: find call blocks by their markers, lift the calls.

Walking the reply once, left to right:

* With a ``section`` (DeepSeek, Kimi K2), blocks are looked for only inside sections.
  A section runs to its close marker, the next section's open marker or the end. If
  it yields calls, its two markers and the blank text between its blocks go; if it
  yields none, it stays in the text exactly as it was.
* A block opens at an open marker (or, with ``text_start``, at the first non-blank
  character of the reply). With a close marker it runs to that marker; without one,
  to the next open marker. The payload alternatives are tried in order; the first that
  yields calls wins. A block no alternative reads stays in the text where it was.
* A block that holds further open markers before its close may be one block whose
  arguments quote a marker, or a block the model never closed before starting the
  next. The long reading wins only if it reads cleanly (calls, none with
  undecodable arguments); otherwise each of those open markers is read as a block of
  its own, ending at the next one, so one broken block does not swallow the good ones
  after it (FIELD-NOTES 10). Each character is read at most twice, once in the long
  block and once in a short one.

* Reasoning regions (:mod:`.regions`) are found first; blocks are looked for only
  between them (and inside those whose spec says the model calls tools while
  thinking). The regions stay in :meth:`Scanner.extract`'s clean text exactly as
  written; :meth:`Scanner.read` returns them apart.
* With ``bare``, a call may also stand without the block's markers: the payload's own
  function markers (Qwen3-Coder's ``<function=…>…</function>``) then open and close a
  block, the markers being part of the payload.

* A block whose payload ends by its own syntax (a JSON value, closed functions) and
  that ran into its close marker still open may have a string argument that quotes the
  close marker: the payload read past it, followed by a close marker, wins when it reads
  cleanly (specs/README.md §1b.5 step 2).
* Every call region is accounted for (§1b.12): one that yields no call is a *skipped*
  region (its text stays), a call the end of the reply cut is ``incomplete``, and the
  reply is ``truncated`` when it ends inside a call or reasoning region.

Every marker is looked up in an :class:`Occurrences` index, so the scan is linear in
the reply however many unclosed markers it holds. The clean text is the reply with
the lifted blocks (and spent section markers) cut out, trimmed.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from ..toolcall import ToolCall
from .grammar import Grammar, Parsed
from .occurrences import Occurrences
from .regions import Region, RegionSpan, find_regions
from .reply import TextRegion
from .typed import Schemas

__all__ = ["CUT_OFF", "NOT_A_CALL", "Scanned", "Scanner", "cut_marker"]

CUT_OFF: Final = "cut-off"
"""Code of a skipped region the reply ended inside before a call could be read."""
NOT_A_CALL: Final = "not-a-call"
"""Code of a skipped region that does not read as a call of the format."""
_REASONS: Final = {
    CUT_OFF: "the reply ends inside this call region before a call could be read",
    NOT_A_CALL: "this call region does not read as a call of the format",
}


class Scanned(NamedTuple):
    """One reply read in full: the answer's text, the reasoning's text, the calls, and the
    account of the call regions (specs/README.md §1b.12)."""

    text: str
    reasoning: str
    calls: list[ToolCall]
    skipped: tuple[TextRegion, ...] = ()
    truncated: bool = False
    refused: tuple[TextRegion, ...] = ()


class Scanner:
    """A text spec with its parameters filled in: markers are plain strings here."""

    __slots__ = (
        "bare", "close", "closes", "opens", "payloads", "reasoning", "section", "start_payloads",
        "text_start",
    )

    def __init__(
        self,
        *,
        opens: tuple[str, ...],
        close: str | None,
        payloads: tuple[Grammar, ...],
        section: tuple[str, str] | None = None,
        text_start: bool = False,
        bare: tuple[str, str] | None = None,
        reasoning: tuple[Region, ...] = (),
        closes: dict[str, str | None] | None = None,
        start_payloads: tuple[Grammar, ...] | None = None,
    ) -> None:
        self.opens = opens
        self.close = close
        # an open marker's own close marker, where it differs from the block's
        self.closes = closes or {}
        self.payloads = payloads
        self.section = section
        self.text_start = text_start
        # the payload alternatives a block at the text's start is read with
        self.start_payloads = payloads if start_payloads is None else start_payloads
        self.bare = bare
        self.reasoning = reasoning

    def extract(self, text: str, schemas: Schemas | None = None) -> tuple[str, list[ToolCall]]:
        """``(clean_text, calls)`` for one reply; reasoning regions stay in the text."""
        run = _Run(self, text, schemas)
        run.scan()
        return "".join(text[a:b] for a, b, _ in run.kept).strip(), run.calls

    def read(self, text: str, schemas: Schemas | None = None) -> Scanned:
        """The reply's answer text (reasoning regions cut out), reasoning text and calls,
        with the skipped regions and whether the reply was cut."""
        run = _Run(self, text, schemas)
        run.scan()
        answer = "".join(text[a:b] for a, b, region in run.kept if not region).strip()
        return Scanned(
            answer, "\n\n".join(run.thoughts), run.calls, tuple(run.skipped), run.truncated
        )


class _Run:
    """The state of one scan: the text, its marker index, what is kept, what was found."""

    __slots__ = (
        "calls", "kept", "occ", "scanner", "schemas", "skipped", "text", "thoughts", "truncated",
    )

    def __init__(self, scanner: Scanner, text: str, schemas: Schemas | None) -> None:
        self.scanner = scanner
        self.schemas = schemas
        self.text = text
        self.occ = Occurrences(text)
        # (start, end, in a reasoning region) of every piece of text that stays
        self.kept: list[Kept] = []
        self.calls: list[ToolCall] = []
        self.thoughts: list[str] = []
        self.skipped: list[TextRegion] = []
        self.truncated = False

    def scan(self) -> None:
        text, pos, first = self.text, 0, True
        regions = (
            find_regions(text, self.occ, self.scanner.reasoning) if self.scanner.reasoning else []
        )
        for region in regions:
            self._outside(pos, region.start, first)
            first = first and not text[pos : region.start].strip()
            self._region(region)
            pos = region.end
        self._outside(pos, len(text), first)

    def _region(self, region: RegionSpan) -> None:
        """Keep a reasoning region whole; lift its calls only when the spec says so."""
        if not region.closed:
            self.truncated = True
        if not region.calls:
            self.kept.append((region.start, region.end, True))
            self.thoughts.append(self.text[region.inner : region.inner_end].strip())
            return
        pieces: list[tuple[int, int]] = []
        self._blocks(region.inner, region.inner_end, pieces, self.calls, self.skipped)
        self.kept.append((region.start, region.inner, True))
        self.kept.extend((a, b, True) for a, b in pieces)
        self.kept.append((region.inner_end, region.end, True))
        self.thoughts.append("".join(self.text[a:b] for a, b in pieces).strip())

    def _outside(self, pos: int, end: int, first: bool) -> None:
        """Read ``text[pos:end]``, a stretch outside every reasoning region."""
        if pos >= end:
            return
        pieces: list[tuple[int, int]] = []
        if self.scanner.section is None:
            start = self._text_start(pos, end) if first else pos
            self._blocks(start, end, pieces, self.calls, self.skipped)
        else:
            self._sections(pos, end, pieces, *self.scanner.section)
        self.kept.extend((a, b, False) for a, b in pieces)

    def _text_start(self, pos: int, end: int) -> int:
        """Read a block at the stretch's first non-blank character; where scanning goes on."""
        text = self.text
        first = skip_space(text, pos, end)
        if not self.scanner.text_start or first == end:
            return pos
        hit, _ = self.occ.earliest(self.scanner.opens, first)
        if hit == first:
            return pos
        limit = hit if hit != -1 and hit < end else end
        payloads = self.scanner.start_payloads
        parsed, ran_out = self._parse(
            first, limit, fill=False, cut=limit == len(text), payloads=payloads
        )
        if parsed is None:
            # prose is no call region; a value of the payload that does not read is
            if ran_out and limit == len(text):
                self._skip(first, limit, CUT_OFF, self.skipped)
            elif any(_starts_value(grammar, text[first:limit]) for grammar in payloads):
                self._skip(first, limit, NOT_A_CALL, self.skipped)
            return pos
        self.calls.extend(self._finished(parsed))
        if parsed.stray != -1:  # a value after a separator that did not read: text, reported
            self._skip(parsed.stray, limit, NOT_A_CALL, self.skipped)
        return parsed.end

    def _sections(
        self, pos: int, end: int, pieces: list[tuple[int, int]], opening: str, closing: str
    ) -> None:
        text, occ = self.text, self.occ
        while True:
            start = occ.first(opening, pos)
            if start == -1 or start >= end:
                pieces.extend(self._tail(pos, end, (opening,), self.skipped))
                return
            pieces.append((pos, start))
            inner = start + len(opening)
            close_at = occ.first(closing, inner)
            next_at = occ.first(opening, inner)
            if next_at >= end:
                next_at = -1
            closed = close_at != -1 and close_at < end and (next_at == -1 or close_at < next_at)
            if closed:
                inner_end, after = close_at, close_at + len(closing)
            else:
                inner_end = next_at if next_at != -1 else end
                after = inner_end
                if inner_end == len(text):  # the reply may end inside the close marker
                    inner_end -= self._cut_marker((closing,), inner)
            kept: list[tuple[int, int]] = []
            calls: list[ToolCall] = []
            skipped: list[TextRegion] = []
            self._blocks(inner, inner_end, kept, calls, skipped)
            if calls:
                self.calls.extend(calls)
                self.skipped.extend(skipped)
                pieces.extend((a, b) for a, b in kept if text[a:b].strip())
            else:
                pieces.append((start, after))
                cut = not closed and after == len(text)
                code = CUT_OFF if cut or any(s.code == CUT_OFF for s in skipped) else NOT_A_CALL
                self._skip(start, after, code, self.skipped)
            pos = after

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
            if parsed is not None and not (splittable and _unclean(parsed)):
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
            if parsed is not None and parsed.calls and not parsed.unfinished and not _unclean(
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


Kept = tuple[int, int, bool]
"""``(start, end, in_reasoning)`` of a piece of text that stays."""


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


def _starts_value(grammar: Grammar, chunk: str) -> bool:
    """Whether a value of ``grammar``'s payload starts ``chunk`` (json and pythonic say)."""
    starts = getattr(grammar, "starts_value", None)
    return bool(starts(chunk)) if starts is not None else False


def _unclean(parsed: Parsed) -> bool:
    """Whether some call of ``parsed`` has arguments that did not decode."""
    return any(call.arguments_undecodable for call in parsed.calls)
