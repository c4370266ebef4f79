"""Raw stream bytes into events: SSE and NDJSON, split anywhere (specs/README.md §9.10).

Agents on raw HTTP clients otherwise hand-roll this, and the bugs recur: per-line
``data:`` parsing, LF-only splitting that drops every CRLF chunk, comments handed to the
JSON parser. Both framers take chunks of any size (a chunk may end inside a UTF-8
character, a CRLF pair or an event) and hand out complete events only; what is still
buffered when the input ends is discarded by SSE (never half-parsed) and, for NDJSON,
parsed only if the last line is complete JSON.

The fast path splits on blank lines with ``str.split`` and handles the one-line
``data: …`` event without a per-line loop; every other event takes the WHATWG line
algorithm.
"""

from __future__ import annotations

import codecs
from typing import Final

__all__ = ["Framer", "NdjsonFramer", "SseFramer", "framer_for"]

Event = tuple[str | None, str]
"""(SSE event name or None, data text)."""

_BOM: Final = "\ufeff"


class Framer:
    """The interface: ``feed(chunk) -> events``, ``end() -> events``."""

    kind = ""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self._pending = ""
        self._started = False

    def _text(self, chunk: bytes | str) -> str:
        text = chunk if isinstance(chunk, str) else self._decoder.decode(bytes(chunk))
        if not self._started and text:
            self._started = True
            if text.startswith(_BOM):
                text = text[1:]
        return text

    def feed(self, chunk: bytes | str) -> list[Event]:
        raise NotImplementedError

    def end(self) -> list[Event]:
        raise NotImplementedError


class SseFramer(Framer):
    """Server-sent events, per the WHATWG algorithm (CR, LF or CRLF; comments; multi-line data)."""

    kind = "sse"

    def __init__(self) -> None:
        super().__init__()
        self._cr_held = False

    def feed(self, chunk: bytes | str) -> list[Event]:
        new = self._text(chunk)
        if self._cr_held and new:
            self._cr_held = False
            if new.startswith("\n"):  # the LF of a CRLF split between two chunks
                new = new[1:]
        if "\r" in new:
            self._cr_held = new.endswith("\r")
            new = new.replace("\r\n", "\n").replace("\r", "\n")
        text = self._pending + new
        blocks = text.split("\n\n")
        self._pending = blocks.pop()
        events: list[Event] = [(None, b[6:]) for b in blocks
                               if b.startswith("data: ") and "\n" not in b]
        if len(events) == len(blocks):
            return events  # the common case: every event one `data: ` line
        events = []
        for block in blocks:
            if block.startswith("data: ") and "\n" not in block:
                events.append((None, block[6:]))
            elif block:
                event = _parse_block(block)
                if event is not None:
                    events.append(event)
        return events

    def end(self) -> list[Event]:
        self._pending = ""  # an event without its blank line is never dispatched
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
        text = self._pending + self._text(chunk)
        lines = text.split("\n")
        self._pending = lines.pop()
        return [(None, line) for line in lines if line.strip()]

    def end(self) -> list[Event]:
        last, self._pending = self._pending, ""
        return [(None, last)] if last.strip() else []


def framer_for(first: str) -> Framer | None:
    """The framer for a body beginning with ``first`` (its first non-blank character)."""
    if first == "{":
        return NdjsonFramer()
    if first in ("d", "e", "i", "r", ":"):
        return SseFramer()
    return None
