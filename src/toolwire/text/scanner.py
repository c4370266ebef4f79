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

Every marker is looked up in an :class:`Occurrences` index, so the scan is linear in
the reply however many unclosed markers it holds. The clean text is the reply with
the lifted blocks (and spent section markers) cut out, trimmed.
"""

from __future__ import annotations

from typing import NamedTuple

from ..toolcall import ToolCall
from .grammar import Grammar, Parsed
from .occurrences import Occurrences
from .regions import Region, RegionSpan, find_regions
from .typed import Schemas

__all__ = ["Scanned", "Scanner"]


class Scanned(NamedTuple):
    """One reply read in full: the answer's text, the reasoning's text, the calls."""

    text: str
    reasoning: str
    calls: list[ToolCall]


class Scanner:
    """A text spec with its parameters filled in: markers are plain strings here."""

    __slots__ = ("bare", "close", "opens", "payloads", "reasoning", "section", "text_start")

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
    ) -> None:
        self.opens = opens
        self.close = close
        self.payloads = payloads
        self.section = section
        self.text_start = text_start
        self.bare = bare
        self.reasoning = reasoning

    def extract(self, text: str, schemas: Schemas | None = None) -> tuple[str, list[ToolCall]]:
        """``(clean_text, calls)`` for one reply; reasoning regions stay in the text."""
        run = _Run(self, text, schemas)
        run.scan()
        return "".join(text[a:b] for a, b, _ in run.kept).strip(), run.calls

    def read(self, text: str, schemas: Schemas | None = None) -> Scanned:
        """The reply's answer text (reasoning regions cut out), reasoning text and calls."""
        run = _Run(self, text, schemas)
        run.scan()
        answer = "".join(text[a:b] for a, b, region in run.kept if not region).strip()
        return Scanned(answer, "\n\n".join(run.thoughts), run.calls)


class _Run:
    """The state of one scan: the text, its marker index, what is kept, what was found."""

    __slots__ = ("calls", "kept", "occ", "scanner", "schemas", "text", "thoughts")

    def __init__(self, scanner: Scanner, text: str, schemas: Schemas | None) -> None:
        self.scanner = scanner
        self.schemas = schemas
        self.text = text
        self.occ = Occurrences(text)
        # (start, end, in a reasoning region) of every piece of text that stays
        self.kept: list[Kept] = []
        self.calls: list[ToolCall] = []
        self.thoughts: list[str] = []

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
        if not region.calls:
            self.kept.append((region.start, region.end, True))
            self.thoughts.append(self.text[region.inner : region.inner_end].strip())
            return
        pieces: list[tuple[int, int]] = []
        self._blocks(region.inner, region.inner_end, pieces, self.calls)
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
            self._blocks(start, end, pieces, self.calls)
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
        parsed = self._parse(first, limit, fill=False, cut=limit == len(text))
        if parsed is None:
            return pos
        self.calls.extend(parsed.calls)
        return parsed.end

    def _sections(
        self, pos: int, end: int, pieces: list[tuple[int, int]], opening: str, closing: str
    ) -> None:
        text, occ = self.text, self.occ
        while True:
            start = occ.first(opening, pos)
            if start == -1 or start >= end:
                pieces.append((pos, end))
                return
            pieces.append((pos, start))
            inner = start + len(opening)
            close_at = occ.first(closing, inner)
            next_at = occ.first(opening, inner)
            if next_at >= end:
                next_at = -1
            if close_at != -1 and close_at < end and (next_at == -1 or close_at < next_at):
                inner_end, after = close_at, close_at + len(closing)
            else:
                inner_end = next_at if next_at != -1 else end
                after = inner_end
            kept: list[tuple[int, int]] = []
            calls: list[ToolCall] = []
            self._blocks(inner, inner_end, kept, calls)
            if calls:
                self.calls.extend(calls)
                pieces.extend((a, b) for a, b in kept if text[a:b].strip())
            else:
                pieces.append((start, after))
            pos = after

    def _blocks(
        self, pos: int, end: int, kept: list[tuple[int, int]], calls: list[ToolCall]
    ) -> None:
        """Lift the blocks of ``text[pos:end]`` into ``calls``; record the rest in ``kept``."""
        scanner, occ, size = self.scanner, self.occ, len(self.text)
        close = scanner.close
        split_until = -1  # blocks opening before this also end at the next open marker
        while pos < end:
            opened, length = occ.earliest(scanner.opens, pos)
            if scanner.bare is not None:
                bare_at = occ.first(scanner.bare[0], pos)
                if bare_at != -1 and bare_at < end and (opened == -1 or bare_at < opened):
                    if bare_at > pos:
                        kept.append((pos, bare_at))
                    pos = self._bare(bare_at, end, kept, calls)
                    continue
            if opened == -1 or opened >= end:
                break
            if opened > pos:
                kept.append((pos, opened))
            body = opened + length
            following, _ = occ.earliest(scanner.opens, body)
            next_open = following if following != -1 and following < end else end
            if close is None:
                parsed = self._parse(body, next_open, fill=False, cut=next_open == size)
                if parsed is None:
                    kept.append((opened, next_open))
                    pos = next_open
                else:
                    calls.extend(parsed.calls)
                    pos = parsed.end
                continue
            close_at = occ.first(close, body)
            closed = close_at != -1 and close_at + len(close) <= end
            limit = close_at if closed else end
            if opened < split_until and next_open < limit:
                limit, closed = next_open, False
            block_end = limit + len(close) if closed else limit
            parsed = self._parse(body, limit, fill=True, cut=not closed)
            splittable = opened >= split_until and next_open < limit
            if parsed is not None and not (splittable and _unclean(parsed)):
                calls.extend(parsed.calls)
                pos = block_end
            elif splittable:
                split_until = limit  # read each inner open marker as its own block
                pos = opened
            else:
                kept.append((opened, block_end))
                pos = block_end
        if pos < end:
            kept.append((pos, end))

    def _bare(
        self, opened: int, end: int, kept: list[tuple[int, int]], calls: list[ToolCall]
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
        parsed = self._parse(opened, limit, fill=True, cut=cut)
        if parsed is None:
            kept.append((opened, limit))
        else:
            calls.extend(parsed.calls)
        return limit

    def _parse(self, start: int, end: int, *, fill: bool, cut: bool) -> Parsed | None:
        """The first payload alternative that reads ``text[start:end]``; positions absolute."""
        chunk = self.text[start:end]
        for grammar in self.scanner.payloads:
            parsed = grammar.parse(chunk, fill=fill, cut=cut, schemas=self.schemas)
            if parsed is not None and parsed.calls:
                return Parsed(parsed.calls, start + parsed.end)
        return None


Kept = tuple[int, int, bool]
"""``(start, end, in_reasoning)`` of a piece of text that stays."""


def skip_space(text: str, pos: int, end: int) -> int:
    """The first position in ``[pos, end)`` that is not blank, or ``end``."""
    while pos < end and text[pos].isspace():
        pos += 1
    return pos


def _unclean(parsed: Parsed) -> bool:
    """Whether some call of ``parsed`` has arguments that did not decode."""
    return any(call.arguments_undecodable for call in parsed.calls)
