"""OpenAI Harmony (gpt-oss): a reply is a run of messages, each on a channel.

gpt-oss writes every turn as messages::

    <|channel|>analysis<|message|>The user wants the weather.<|end|>
    <|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json
    <|message|>{"city": "Paris"}<|call|>

(one line in the reply; broken here to fit).

A message is a header (from ``<|start|>``, or from ``<|channel|>`` for the first
message, whose start the prompt holds) up to ``<|message|>``, then a body up to one of
the end markers. The header names the channel and, with ``to=``, the recipient; the
recipient may also stand before the channel. A message to ``functions.NAME`` is a call
whose body is the JSON arguments; ``analysis`` messages are reasoning; ``final`` and
recipient-less ``commentary`` messages are the answer. A call message cut off before
its end marker is a call with ``arguments_undecodable``; anything else that does not
read as a message (a header with no ``<|message|>``, a recipient other than a
function) stays in the text as written.

Like :class:`~.scanner.Scanner`, :meth:`HarmonyScanner.extract` cuts the call messages
out and keeps the rest verbatim; :meth:`HarmonyScanner.read` returns the answer
messages' bodies as the text and the reasoning messages' bodies apart.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from ..arguments import decode_arguments_coded
from ..toolcall import ToolCall
from .grammar import UNFINISHED, UNFINISHED_CODE, plausible_name
from .occurrences import Occurrences
from .scanner import Scanned
from .typed import Schemas

__all__ = ["HarmonyMarkers", "HarmonyScanner"]


class HarmonyMarkers(NamedTuple):
    """The literals and channel names of a Harmony spec, rendered."""

    start: str
    channel: str
    message: str
    ends: tuple[str, ...]
    recipient: str
    calls_prefix: str
    reasoning: frozenset[str]
    answer: frozenset[str]


class _Message(NamedTuple):
    start: int
    body: int
    body_end: int
    end: int
    channel: str
    recipient: str
    closed: bool


class HarmonyScanner:
    """Reads Harmony messages; same interface as :class:`~.scanner.Scanner`."""

    __slots__ = ("markers",)

    def __init__(self, markers: HarmonyMarkers) -> None:
        self.markers = markers

    def extract(self, text: str, schemas: Schemas | None = None) -> tuple[str, list[ToolCall]]:
        kept, calls, _, _ = self._scan(text)
        return "".join(text[a:b] for a, b in kept).strip(), calls

    def read(self, text: str, schemas: Schemas | None = None) -> Scanned:
        _, calls, answer, thoughts = self._scan(text)
        return Scanned("\n\n".join(answer).strip(), "\n\n".join(thoughts), calls)

    def _scan(
        self, text: str
    ) -> tuple[list[tuple[int, int]], list[ToolCall], list[str], list[str]]:
        m = self.markers
        occ = Occurrences(text)
        kept: list[tuple[int, int]] = []
        calls: list[ToolCall] = []
        answer: list[str] = []
        thoughts: list[str] = []
        pos = 0
        while True:
            message = self._next(text, occ, pos)
            if message is None:
                kept.append((pos, len(text)))
                outside = text[pos:].strip()
                if outside:
                    answer.append(outside)
                return kept, calls, answer, thoughts
            outside = text[pos : message.start].strip()
            if outside:
                answer.append(outside)
            body = text[message.body : message.body_end].strip()
            call = self._call(message, body)
            if call is not None:
                kept.append((pos, message.start))
                calls.append(call)
            else:
                kept.append((pos, message.end))
                if message.channel in m.reasoning and not message.recipient:
                    thoughts.append(body)
                elif message.channel in m.answer and not message.recipient:
                    answer.append(body)
                else:
                    answer.append(text[message.start : message.end].strip())
            pos = message.end

    def _next(self, text: str, occ: Occurrences, pos: int) -> _Message | None:
        """The next message from ``pos``, or None when no header reads."""
        m = self.markers
        while True:
            at, _ = occ.earliest((m.start, m.channel), pos)
            if at == -1:
                return None
            following = occ.first(m.start, at + 1)
            message_at = occ.first(m.message, at)
            if message_at == -1:
                return None
            if following != -1 and following < message_at:
                pos = following  # a header without <|message|>: plain text
                continue
            header = text[at:message_at]
            body = message_at + len(m.message)
            end_at, length = occ.earliest(m.ends, body)
            next_start = occ.first(m.start, body)
            if end_at == -1 or (next_start != -1 and next_start < end_at):
                body_end = next_start if next_start != -1 else len(text)
                end, closed = body_end, False
            else:
                body_end, end, closed = end_at, end_at + length, True
            channel = _token_after(header, m.channel)
            recipient = _token_after(header, m.recipient)
            return _Message(at, body, body_end, end, channel, recipient, closed)

    def _call(self, message: _Message, body: str) -> ToolCall | None:
        prefix = self.markers.calls_prefix
        if not message.recipient.startswith(prefix):
            return None
        name = message.recipient[len(prefix) :]
        if not plausible_name(name):
            return None
        if not message.closed:
            return ToolCall._trusted(name, {}, "", True, UNFINISHED, UNFINISHED_CODE)
        arguments, undecodable, error, code = decode_arguments_coded(body)
        return ToolCall._trusted(name, arguments, "", undecodable, error, code)


_WORD: Final = re.compile(r"(?:[^\s<]|<(?!\|))*+")
"""A word: up to a blank or a ``<|`` (``\\s`` is :meth:`str.isspace`)."""


def _token_after(header: str, marker: str) -> str:
    """The word after ``marker`` in ``header`` (up to a blank or ``<|``), or ``""``."""
    at = header.find(marker)
    if at == -1:
        return ""
    return _WORD.match(header, at + len(marker)).group()  # type: ignore[union-attr]  # empty
