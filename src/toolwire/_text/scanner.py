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

from typing import NamedTuple

from .._values.text_reply import TextRegion
from .._values.toolcall import ToolCall
from .blocks import CUT_OFF, NOT_A_CALL, BlockReader, cut_marker, skip_space, starts_value
from .grammars.base import Grammar
from .occurrences import Occurrences
from .regions import Region, RegionSpan, find_regions
from .typed import Schemas

__all__ = ["CUT_OFF", "NOT_A_CALL", "Scanned", "Scanner", "cut_marker", "skip_space"]

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
            answer, "\n\n".join(t for t in run.thoughts if t),  # empty regions add nothing
            run.calls, tuple(run.skipped), run.truncated,
        )


class _Run(BlockReader):
    """The state of one scan: the text, its marker index, what is kept, what was found.
    The reading of each block is :class:`~.blocks.BlockReader`'s."""

    __slots__ = ("calls", "kept", "skipped", "thoughts")
    scanner: Scanner

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
            elif any(starts_value(grammar, text[first:limit]) for grammar in payloads):
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

Kept = tuple[int, int, bool]
"""``(start, end, in_reasoning)`` of a piece of text that stays."""
