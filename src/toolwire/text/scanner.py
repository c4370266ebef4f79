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

Every marker is looked up in an :class:`Occurrences` index, so the scan is linear in
the reply however many unclosed markers it holds. The clean text is the reply with
the lifted blocks (and spent section markers) cut out, trimmed.
"""

from __future__ import annotations

from ..toolcall import ToolCall
from .grammar import Grammar, Parsed
from .occurrences import Occurrences

__all__ = ["Scanner"]


class Scanner:
    """A text spec with its parameters filled in: markers are plain strings here."""

    __slots__ = ("close", "opens", "payloads", "section", "text_start")

    def __init__(
        self,
        *,
        opens: tuple[str, ...],
        close: str | None,
        payloads: tuple[Grammar, ...],
        section: tuple[str, str] | None = None,
        text_start: bool = False,
    ) -> None:
        self.opens = opens
        self.close = close
        self.payloads = payloads
        self.section = section
        self.text_start = text_start

    def extract(self, text: str) -> tuple[str, list[ToolCall]]:
        """``(clean_text, calls)`` for one reply."""
        run = _Run(self, text)
        run.scan()
        return "".join(text[a:b] for a, b in run.kept).strip(), run.calls


class _Run:
    """The state of one scan: the text, its marker index, what is kept, what was found."""

    __slots__ = ("calls", "kept", "occ", "scanner", "text")

    def __init__(self, scanner: Scanner, text: str) -> None:
        self.scanner = scanner
        self.text = text
        self.occ = Occurrences(text)
        self.kept: list[tuple[int, int]] = []
        self.calls: list[ToolCall] = []

    def scan(self) -> None:
        if self.scanner.section is None:
            start = self._text_start()
            self._blocks(start, len(self.text), self.kept, self.calls)
        else:
            self._sections(*self.scanner.section)

    def _text_start(self) -> int:
        """Read a block at the reply's first non-blank character; where scanning goes on."""
        text = self.text
        first = len(text) - len(text.lstrip())
        if not self.scanner.text_start or first == len(text):
            return 0
        hit, _ = self.occ.earliest(self.scanner.opens, first)
        if hit == first:
            return 0
        limit = hit if hit != -1 else len(text)
        parsed = self._parse(first, limit, fill=False, cut=limit == len(text))
        if parsed is None:
            return 0
        self.calls.extend(parsed.calls)
        return parsed.end

    def _sections(self, opening: str, closing: str) -> None:
        text, occ, pos = self.text, self.occ, 0
        while True:
            start = occ.first(opening, pos)
            if start == -1:
                self.kept.append((pos, len(text)))
                return
            self.kept.append((pos, start))
            inner = start + len(opening)
            close_at = occ.first(closing, inner)
            next_at = occ.first(opening, inner)
            if close_at != -1 and (next_at == -1 or close_at < next_at):
                inner_end, after = close_at, close_at + len(closing)
            else:
                inner_end = next_at if next_at != -1 else len(text)
                after = inner_end
            kept: list[tuple[int, int]] = []
            calls: list[ToolCall] = []
            self._blocks(inner, inner_end, kept, calls)
            if calls:
                self.calls.extend(calls)
                self.kept.extend((a, b) for a, b in kept if text[a:b].strip())
            else:
                self.kept.append((start, after))
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

    def _parse(self, start: int, end: int, *, fill: bool, cut: bool) -> Parsed | None:
        """The first payload alternative that reads ``text[start:end]``; positions absolute."""
        chunk = self.text[start:end]
        for grammar in self.scanner.payloads:
            parsed = grammar.parse(chunk, fill=fill, cut=cut)
            if parsed is not None and parsed.calls:
                return Parsed(parsed.calls, start + parsed.end)
        return None


def _unclean(parsed: Parsed) -> bool:
    """Whether some call of ``parsed`` has arguments that did not decode."""
    return any(call.arguments_undecodable for call in parsed.calls)
