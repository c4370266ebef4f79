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
its end marker is a call with ``arguments_undecodable`` (``incomplete`` when the reply
ends inside it), and so is a call header the reply ends in before its ``<|message|>``.

A message to any other recipient is a built-in tool the client must run (gpt-oss's
``python``, ``browser.search``, ``container.exec``): no function maps it, so it is
*refused* — cut out of the text and listed in ``refused`` with the spec's reason, and
:func:`~toolwire.read_text` raises :class:`~toolwire.errors.UnmappedCall` carrying the
partial reply, as ``read`` does for a wire item it cannot map. A message to
``functions.`` whose name does not read is a *skipped* region and stays text; anything
else that does not read as a message (a header with no ``<|message|>`` and no
recipient) stays in the text as written.

Like :class:`~.scanner.Scanner`, :meth:`HarmonyScanner.extract` cuts the call messages
out and keeps the rest verbatim; :meth:`HarmonyScanner.read` returns the answer
messages' bodies as the text and the reasoning messages' bodies apart.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from .._values.arguments import decode_arguments_coded
from .._values.text_reply import TextRegion
from .._values.toolcall import ToolCall
from .grammars.base import UNFINISHED, UNFINISHED_CODE, plausible_name
from .occurrences import Occurrences
from .scanner import CUT_OFF, NOT_A_CALL, Scanned, cut_marker
from .typed import Schemas

__all__ = ["UNMAPPED", "HarmonyMarkers", "HarmonyScanner"]

UNMAPPED: Final = "unmapped_call"
"""Code of a refused message (the wire side's code for an item it cannot map)."""


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
    refuse: tuple[tuple[str, str], ...] = ()
    """``(recipient prefix, reason)`` of the built-in tools the spec names."""


class _Message(NamedTuple):
    start: int
    body: int  # -1: a header without its message marker (no body)
    body_end: int
    end: int
    channel: str
    recipient: str
    closed: bool
    recipient_whole: bool  # the recipient word ended before the header did


class _Found(NamedTuple):
    kept: list[tuple[int, int]]
    calls: list[ToolCall]
    answer: list[str]
    thoughts: list[str]
    skipped: list[TextRegion]
    refused: list[TextRegion]
    truncated: bool


class HarmonyScanner:
    """Reads Harmony messages; same interface as :class:`~.scanner.Scanner`."""

    __slots__ = ("markers",)

    def __init__(self, markers: HarmonyMarkers) -> None:
        self.markers = markers

    def extract(self, text: str, schemas: Schemas | None = None) -> tuple[str, list[ToolCall]]:
        found = self._scan(text)
        return "".join(text[a:b] for a, b in found.kept).strip(), found.calls

    def read(self, text: str, schemas: Schemas | None = None) -> Scanned:
        found = self._scan(text)
        return Scanned(
            "\n\n".join(found.answer).strip(), "\n\n".join(found.thoughts), found.calls,
            tuple(found.skipped), found.truncated, tuple(found.refused),
        )

    def extract_refused(
        self, text: str, schemas: Schemas | None = None
    ) -> tuple[str, list[ToolCall], tuple[TextRegion, ...]]:
        """:meth:`extract` and the messages addressed to tools no function maps, in one scan."""
        found = self._scan(text)
        clean = "".join(text[a:b] for a, b in found.kept).strip()
        return clean, found.calls, tuple(found.refused)

    def _scan(self, text: str) -> _Found:
        m = self.markers
        occ = Occurrences(text)
        found = _Found([], [], [], [], [], [], False)
        truncated = False
        pos = 0
        while True:
            message = self._next(text, occ, pos)
            if message is None:
                found.kept.append((pos, len(text)))
                outside = text[pos:].strip()
                if outside:
                    found.answer.append(outside)
                cut = cut_marker(text, pos, (m.start, m.channel), opening=True)
                if cut:  # the reply ends inside a header's first marker: a message unread
                    found.skipped.append(TextRegion(
                        len(text) - cut, len(text), text[len(text) - cut :], CUT_OFF,
                        "the reply ends inside a message's header before it could be read",
                    ))
                    truncated = True
                return found._replace(truncated=truncated)
            outside = text[pos : message.start].strip()
            if outside:
                found.answer.append(outside)
            cut_at_end = not message.closed and message.end == len(text)
            body = text[message.body : message.body_end].strip() if message.body != -1 else ""
            if message.recipient and not message.recipient.startswith(m.calls_prefix):
                found.kept.append((pos, message.start))
                found.refused.append(self._refusal(text, message))
                truncated = truncated or cut_at_end
            elif message.recipient:
                call = self._call(message, body, cut_at_end)
                if call is not None:
                    found.kept.append((pos, message.start))
                    found.calls.append(call)
                    truncated = truncated or cut_at_end
                else:
                    found.kept.append((pos, message.end))
                    code = CUT_OFF if cut_at_end else NOT_A_CALL
                    found.skipped.append(_skip(text, message, code))
                    truncated = truncated or code == CUT_OFF
                    found.answer.append(text[message.start : message.end].strip())
            else:
                found.kept.append((pos, message.end))
                if message.body == -1:  # a header the reply ends inside
                    found.answer.append(text[message.start : message.end].strip())
                    found.skipped.append(_skip(text, message, CUT_OFF))
                    truncated = True
                elif message.channel in m.reasoning:
                    found.thoughts.append(body)
                    truncated = truncated or cut_at_end
                elif message.channel in m.answer:
                    found.answer.append(body)
                else:
                    found.answer.append(text[message.start : message.end].strip())
            pos = message.end

    def _next(self, text: str, occ: Occurrences, pos: int) -> _Message | None:
        """The next message from ``pos`` (a header without its message marker too, when it
        names a recipient), or None when no header reads."""
        m = self.markers
        while True:
            at, _ = occ.earliest((m.start, m.channel), pos)
            if at == -1:
                return None
            following = occ.first(m.start, at + 1)
            message_at = occ.first(m.message, at)
            if message_at == -1 or (following != -1 and following < message_at):
                stop = following if following != -1 else len(text)
                header = text[at:stop]
                recipient, whole = _token_after(header, m.recipient)
                if recipient or stop == len(text):
                    # a header that names a recipient is a call region, and so is one the
                    # reply ends inside (its recipient may not be written yet)
                    channel, _ = _token_after(header, m.channel)
                    return _Message(at, -1, stop, stop, channel, recipient, False, whole)
                if following == -1:
                    return None
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
            channel, _ = _token_after(header, m.channel)
            recipient, _ = _token_after(header, m.recipient)
            return _Message(at, body, body_end, end, channel, recipient, closed, True)

    def _call(self, message: _Message, body: str, cut_at_end: bool) -> ToolCall | None:
        name = message.recipient[len(self.markers.calls_prefix) :]
        if not message.recipient_whole or not plausible_name(name):
            return None
        if not message.closed:
            call = ToolCall._trusted(name, {}, "", True, UNFINISHED, UNFINISHED_CODE)
            return call.replace(incomplete=True) if cut_at_end else call
        arguments, undecodable, error, code = decode_arguments_coded(body)
        return ToolCall._trusted(name, arguments, "", undecodable, error, code)

    def _refusal(self, text: str, message: _Message) -> TextRegion:
        recipient = message.recipient
        given = (reason for prefix, reason in self.markers.refuse if recipient.startswith(prefix))
        reason = next(given, None) or (
            f"the message is addressed to {recipient!r}, which is no function"
            f" ({self.markers.calls_prefix}NAME): the client must act on it, and no"
            " tool call says how"
        )
        return TextRegion(
            message.start, message.end, text[message.start : message.end], UNMAPPED, reason,
            recipient,
        )


def _skip(text: str, message: _Message, code: str) -> TextRegion:
    reason = (
        "the reply ends inside this message before a call could be read"
        if code == CUT_OFF
        else "the message's recipient does not name a function"
    )
    return TextRegion(
        message.start, message.end, text[message.start : message.end], code, reason
    )


_WORD: Final = re.compile(r"(?:[^\s<]|<(?!\|))*+")
"""A word: up to a blank or a ``<|`` (``\\s`` is :meth:`str.isspace`)."""


def _token_after(header: str, marker: str) -> tuple[str, bool]:
    """The word after ``marker`` in ``header`` (up to a blank or ``<|``), or ``""``; and
    whether something followed it (a word running to the header's end may be cut)."""
    at = header.find(marker)
    if at == -1:
        return "", False
    match = _WORD.match(header, at + len(marker))
    assert match is not None  # the pattern matches the empty string
    return match.group(), match.end() < len(header)
