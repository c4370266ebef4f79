"""Raw stream bytes into events: SSE and NDJSON, split anywhere (specs/README.md §9.10).

Agents on raw HTTP clients otherwise hand-roll this, and the bugs recur: per-line
``data:`` parsing, LF-only splitting that drops every CRLF chunk, comments handed to the
JSON parser. Both framers take chunks of any size (a chunk may end inside a UTF-8
character, a CRLF pair or an event) and hand out complete events only; what is still
buffered when the input ends is discarded by SSE (never half-parsed) and, for NDJSON,
parsed only if the last line is complete JSON.

Framing is linear in the input. A chunk is searched for an event's end on its own (with the
one character before it), and the pieces of an event still arriving are kept in a list and
joined once, when the event ends — never re-joined and re-split per chunk, which made one
event fed in 4 KB pieces quadratic. An event longer than the framer's ``limit`` (characters)
stops the framing with :class:`FramingError`, so a stream that never ends its event cannot
hold memory or time without bound. Bytes that are not UTF-8 are a :class:`FramingError`
too, never a ``UnicodeDecodeError`` that loses the chunk.

The SSE fast path splits on blank lines with ``str.split`` and handles the one-line
``data: …`` event without a per-line loop; every other event takes the WHATWG line
algorithm.
"""

from __future__ import annotations

import codecs
from typing import Final

__all__ = [
    "MAX_EVENT_SIZE", "Framer", "FramingError", "NdjsonFramer", "Opening", "SseFramer",
    "framer_for",
]

Event = tuple[str | None, str]
"""(SSE event name or None, data text)."""

MAX_EVENT_SIZE: Final = 32 * 1024 * 1024
"""The default maximum size of one event, in characters (specs/README.md §9.10)."""

_BOM: Final = "\ufeff"
_BOM_BYTES: Final = b"\xef\xbb\xbf"
_BLANK: Final = b" \t\r\n"


class FramingError(ValueError):
    """The bytes cannot be framed: not UTF-8, or an event beyond the size limit."""


def _too_big(limit: int) -> FramingError:
    return FramingError(f"an event is larger than the maximum event size ({limit:,} characters);"
                        " raise max_event_size if the provider's events are that large")


class Opening:
    """The bytes before the framing is known: blank bytes are dropped as they arrive.

    Only a possible byte-order mark and the blanks of the current line are kept, so a
    megabyte of blank lines before the first event costs linear time, not a re-scan per chunk.
    """

    def __init__(self, limit: int) -> None:
        self._head = b""
        self._bom_seen = False
        self._limit = limit

    def feed(self, chunk: bytes) -> tuple[bytes, bytes] | None:
        """(the first non-blank byte, the bytes to frame from), or None while all is blank."""
        data = self._head + chunk if self._head else chunk
        if not self._bom_seen:
            if len(data) < len(_BOM_BYTES) and _BOM_BYTES.startswith(data):
                self._head = data
                return None
            self._bom_seen = True
            if data.startswith(_BOM_BYTES):
                data = data[len(_BOM_BYTES):]
        rest = data.lstrip(_BLANK)
        if rest:
            self._head = b""
            return rest[:1], data
        cut = max(data.rfind(b"\n"), data.rfind(b"\r")) + 1
        self._head = data[cut:]  # the spaces or tabs of a line not yet ended
        if len(self._head) > self._limit:
            raise _too_big(self._limit)
        return None


class Framer:
    """The interface: ``feed(chunk) -> events``, ``end() -> events``.

    An event past the size limit, or a byte that is not UTF-8, ends ``feed``'s events before
    it and sets :attr:`error`, which the caller raises once it has handed out what came
    before.
    """

    kind = ""

    def __init__(self, limit: int = MAX_EVENT_SIZE) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self._parts: list[str] = []  # the pieces of the event (or line) still arriving
        self._size = 0
        self._started = False
        self._offset = 0  # bytes decoded so far, for an error's position
        self.limit = limit
        self.error: FramingError | None = None

    def _text(self, chunk: bytes | str) -> str:
        if isinstance(chunk, str):
            text = chunk
        else:
            data = bytes(chunk)
            try:
                text = self._decoder.decode(data)
            except UnicodeDecodeError as exc:
                # The events before the bad byte are framed; the failure comes after them.
                self.error = FramingError(f"the stream is not UTF-8 ({exc.reason}) near byte"
                                          f" {self._offset + exc.start}")
                text = bytes(exc.object[:exc.start]).decode("utf-8")
            self._offset += len(data)
        if not self._started and text:
            self._started = True
            if text.startswith(_BOM):
                text = text[1:]
        return text

    def _keep(self, text: str) -> None:
        """Hold a piece of an event still arriving; past the limit, set :attr:`error`."""
        if text:
            self._parts.append(text)
            self._size += len(text)
            if self._size > self.limit:
                self._parts, self._size = [], 0
                self.error = _too_big(self.limit)

    def _joined(self, new: str) -> str:
        """The held pieces and ``new`` as one text (the held pieces are let go)."""
        if not self._parts:
            return new
        text = "".join(self._parts) + new
        self._parts, self._size = [], 0
        return text

    def feed(self, chunk: bytes | str) -> list[Event]:
        raise NotImplementedError

    def end(self) -> list[Event]:
        raise NotImplementedError


class SseFramer(Framer):
    """Server-sent events, per the WHATWG algorithm (CR, LF or CRLF; comments; multi-line data)."""

    kind = "sse"

    def __init__(self, limit: int = MAX_EVENT_SIZE) -> None:
        super().__init__(limit)
        self._cr_held = False
        self._ends_lf = False  # the held text ends with a line feed

    def feed(self, chunk: bytes | str) -> list[Event]:
        new = self._text(chunk)
        if self._cr_held and new:
            self._cr_held = False
            if new.startswith("\n"):  # the LF of a CRLF split between two chunks
                new = new[1:]
        if "\r" in new:
            self._cr_held = new.endswith("\r")
            new = new.replace("\r\n", "\n").replace("\r", "\n")
        if not new:
            return []
        if not (self._ends_lf and new[0] == "\n") and "\n\n" not in new:
            self._keep(new)  # no event ends in this chunk
            self._ends_lf = new[-1] == "\n"
            return []
        blocks = self._joined(new).split("\n\n")
        rest = blocks.pop()
        self._keep(rest)  # an oversized rest sets the error, after these events
        self._ends_lf = rest[-1:] == "\n"
        events: list[Event] = [(None, b[6:]) for b in blocks
                               if b.startswith("data: ") and "\n" not in b]
        if len(events) == len(blocks) and not self._oversized(blocks):
            return events  # the common case: every event one `data: ` line
        events = []
        for block in blocks:
            if len(block) > self.limit:
                self.error = _too_big(self.limit)
                break
            if block.startswith("data: ") and "\n" not in block:
                events.append((None, block[6:]))
            elif block:
                event = _parse_block(block)
                if event is not None:
                    events.append(event)
        return events

    def _oversized(self, blocks: list[str]) -> bool:
        limit = self.limit
        return any(len(block) > limit for block in blocks)

    def end(self) -> list[Event]:
        self._parts, self._size = [], 0  # an event without its blank line is never dispatched
        return []


def _parse_block(block: str) -> Event | None:
    """One event's lines, the slow and general way."""
    name: str | None = None
    data: list[str] = []
    for line in block.split("\n"):
        if not line or line.startswith(":"):
            continue
        field, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if field == "data":
            data.append(value)
        elif field == "event":
            name = value
        # id, retry and unknown fields are ignored, as the algorithm says.
    if not data:
        return None
    return name, "\n".join(data)


class NdjsonFramer(Framer):
    """Newline-delimited JSON: one event per line (blank lines skipped)."""

    kind = "ndjson"

    def feed(self, chunk: bytes | str) -> list[Event]:
        new = self._text(chunk)
        if "\n" not in new:
            self._keep(new)
            return []
        lines = self._joined(new).split("\n")
        rest = lines.pop()
        self._keep(rest)
        limit = self.limit
        events: list[Event] = []
        for line in lines:
            if len(line) > limit:
                self.error = _too_big(limit)
                break
            if line.strip():
                events.append((None, line))
        return events

    def end(self) -> list[Event]:
        try:
            tail = self._decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            tail = "\ufffd"  # cut inside a character: the last line is not whole JSON
        last = self._joined(tail)
        return [(None, last)] if last.strip() else []


def framer_for(first: bytes, limit: int = MAX_EVENT_SIZE) -> Framer | None:
    """The framer for a body beginning with ``first`` (its first non-blank byte)."""
    if first == b"{":
        return NdjsonFramer(limit)
    if first in (b"d", b"e", b"i", b"r", b":"):
        return SseFramer(limit)
    return None
