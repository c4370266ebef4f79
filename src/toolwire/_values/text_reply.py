"""What :func:`toolwire.read_text` returns: a model reply split into answer, reasoning, calls,
and an account of every call region that yielded no call.

``extract_from_text`` keeps its ``(clean_text, calls)`` pair, with any reasoning
region left in the clean text exactly as written (nothing the model wrote is lost,
and callers of the first release see the text they saw). A caller who wants the
reasoning apart, or the account, asks :func:`toolwire.read_text`, which returns
this value.

The account is :class:`toolwire.Reply`'s, for text (specs/README.md §1b.12): a region that
opened a call but yielded none is a ``skipped`` entry (its text stays in the text), a call
the end of the reply cut is ``incomplete``, ``truncated`` says the reply ended inside a
call or reasoning region, and the tool-loop split is the wire reply's — a cut call is
dropped, one whose arguments are wrong rejected, the rest runnable.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._speed import TYPE_CHECKING
from .._speed.record import Record, setfield
from .reply import FATES, CallSplit, Reply, call_fate
from .toolcall import ToolCall

if TYPE_CHECKING:
    from typing import Any

__all__ = ["TextRegion", "TextReply"]


class TextRegion(Record):
    """A stretch of the reply that opened a call and yielded none (``skipped``), or one the
    spec refuses to map (``refused``: a Harmony message to a built-in tool).

    ``start`` and ``end`` are character offsets into the reply (markers included), ``text``
    the reply between them, ``code`` a stable code (``cut-off``, ``not-a-call``,
    ``unmapped_call``) and ``reason`` a sentence for people. ``recipient`` names the tool a
    refused message is addressed to (``None`` for a skipped region).
    """

    __module__ = "toolwire.types"  # the published name: reprs, pickles and docs show it

    __slots__ = ("code", "end", "reason", "recipient", "start", "text")
    start: int
    end: int
    text: str
    code: str
    reason: str
    recipient: str | None

    def __init__(
        self, start: int, end: int, text: str, code: str, reason: str,
        recipient: str | None = None,
    ) -> None:
        setfield(self, "start", start)
        setfield(self, "end", end)
        setfield(self, "text", text)
        setfield(self, "code", code)
        setfield(self, "reason", reason)
        setfield(self, "recipient", recipient)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data; ``recipient`` only where there is one."""
        data: dict[str, Any] = {
            "start": self.start, "end": self.end, "text": self.text,
            "code": self.code, "reason": self.reason,
        }
        if self.recipient is not None:
            data["recipient"] = self.recipient
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TextRegion:
        """The inverse of :meth:`to_dict`; unknown or missing keys are a ValueError."""
        if not isinstance(data, Mapping):
            raise TypeError(f"TextRegion.from_dict takes a mapping, not {type(data).__name__}")
        required = {"start", "end", "text", "code", "reason"}
        keys = set(data)
        if not required <= keys <= required | {"recipient"}:
            raise ValueError(
                f"TextRegion.from_dict: unknown keys {sorted(keys - required - {'recipient'})},"
                f" missing keys {sorted(required - keys)}"
            )
        start, end = data["start"], data["end"]
        if type(start) is not int or type(end) is not int:
            raise ValueError("TextRegion.from_dict: 'start' and 'end' must be integers")
        for key in ("text", "code", "reason"):
            if not isinstance(data[key], str):
                raise ValueError(f"TextRegion.from_dict: {key!r} must be a str")
        recipient = data.get("recipient")
        if recipient is not None and not isinstance(recipient, str):
            raise ValueError("TextRegion.from_dict: 'recipient' must be a str")
        return cls(start, end, data["text"], data["code"], data["reason"], recipient)


class TextReply(CallSplit, Record):
    """A reply read with a text spec.

    ``text`` is the answer: the reply without its call blocks and reasoning regions,
    trimmed. ``reasoning`` is the text of the reasoning regions (markers removed,
    regions joined by a blank line; ``""`` when there were none). ``calls`` are the
    calls in the order written, none of them read from inside a reasoning region
    unless the format's spec says the model calls tools while thinking. ``skipped`` lists
    the call regions that yielded no call (their text is still in ``text``),
    ``truncated`` says the reply ended inside a call or reasoning region, and
    ``refused`` (only in the partial reply an :class:`~toolwire.errors.UnmappedCall` carries)
    the messages addressed to tools no function maps.
    """

    __module__ = "toolwire"  # the published name: reprs, pickles and docs show it

    __slots__ = ("calls", "reasoning", "refused", "skipped", "text", "truncated")
    text: str
    reasoning: str
    calls: tuple[ToolCall, ...]
    skipped: tuple[TextRegion, ...]
    truncated: bool
    refused: tuple[TextRegion, ...]

    def __init__(
        self,
        text: str,
        reasoning: str,
        calls: tuple[ToolCall, ...],
        *,
        skipped: tuple[TextRegion, ...] = (),
        truncated: bool = False,
        refused: tuple[TextRegion, ...] = (),
    ) -> None:
        setfield(self, "text", text)
        setfield(self, "reasoning", reasoning)
        setfield(self, "calls", tuple(calls))
        setfield(self, "skipped", tuple(skipped))
        setfield(self, "truncated", bool(truncated))
        setfield(self, "refused", tuple(refused))

    def fates(self) -> tuple[str, ...]:
        """For each call, in order: ``runnable``, ``dropped`` or ``rejected``
        (:func:`toolwire._values.reply.call_fate`). The text says exactly which call the end of the
        reply cut (it is ``incomplete``, and dropped), so no complete call is dropped for
        standing last in a truncated reply."""
        return tuple(call_fate(call, False, False) for call in self.calls)

    error_result = staticmethod(Reply.error_result)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: ``text``, ``reasoning``, ``calls`` (``ToolCall.to_dict()`` and
        each call's ``fate``), ``skipped``, ``truncated`` and ``refused``."""
        calls = []
        for call, fate in zip(self.calls, self.fates(), strict=True):
            data = call.to_dict()
            data["fate"] = fate
            calls.append(data)
        return {
            "text": self.text,
            "reasoning": self.reasoning,
            "calls": calls,
            "skipped": [s.to_dict() for s in self.skipped],
            "truncated": self.truncated,
            "refused": [r.to_dict() for r in self.refused],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TextReply:
        """The inverse of :meth:`to_dict`: ``TextReply.from_dict(r.to_dict()) == r``.
        Unknown keys are refused, and so is a call whose ``fate`` its fields contradict."""
        if not isinstance(data, Mapping):
            raise TypeError(f"TextReply.from_dict takes a mapping, not {type(data).__name__}")
        known = {"text", "reasoning", "calls", "skipped", "truncated", "refused"}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"TextReply.from_dict: unknown keys {sorted(unknown)}")
        missing = [key for key in ("calls", "truncated") if key not in data]
        if missing:
            raise ValueError(
                f"TextReply.from_dict: the data has no {' or '.join(map(repr, missing))}:"
                " without them it would read as a finished reply with no calls"
            )
        text, reasoning = data.get("text", ""), data.get("reasoning", "")
        if not isinstance(text, str) or not isinstance(reasoning, str):
            raise ValueError("TextReply.from_dict: 'text' and 'reasoning' must be strings")
        calls: list[ToolCall] = []
        fates: list[Any] = []
        for entry in _list(data, "calls"):
            if not isinstance(entry, Mapping):
                raise ValueError("TextReply.from_dict: each call must be an object")
            fields = dict(entry)
            fates.append(fields.pop("fate", None))
            calls.append(ToolCall.from_dict(fields))
        truncated = data.get("truncated", False)
        if not isinstance(truncated, bool):
            raise ValueError("TextReply.from_dict: 'truncated' must be a boolean")
        reply = cls(
            text, reasoning, tuple(calls),
            skipped=tuple(TextRegion.from_dict(s) for s in _list(data, "skipped")),
            truncated=truncated,
            refused=tuple(TextRegion.from_dict(r) for r in _list(data, "refused")),
        )
        for index, (given, derived) in enumerate(zip(fates, reply.fates(), strict=True)):
            if given is not None and (given not in FATES or given != derived):
                raise ValueError(
                    f"TextReply.from_dict: call {index} says fate {given!r}, but its fields"
                    f" make it {derived!r}"
                )
        return reply


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise ValueError(f"TextReply.from_dict: {key!r} must be a list, not {type(value).__name__}")
    return value
