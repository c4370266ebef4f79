"""What :func:`toolwire.read` returns: everything a tool loop needs from one reply.

Beyond the calls, a loop needs to know whether the reply was cut at its token limit,
which calls the provider already ran, and what the spec did not recognise. The split
of calls into *runnable*, *dropped* and *rejected* is the tool-loop rule of
Langertha::ToolCall, made explicit so no loop author has to rediscover it:

* a call whose arguments decoded is **runnable** — except, in a truncated reply, the
  last call: the cut fell inside it or just after it, and a cut inside the *name*
  leaves empty arguments that decode to ``{}`` (FIELD-NOTES 1), so it is dropped;
* an undecodable call in a **truncated** reply is **dropped**: the arguments were cut
  off, not wrong, and asking the model to retry at the same limit only repeats it;
* an undecodable call in a complete reply is **rejected**: answer it with an error
  result (:meth:`Reply.error_result`) that names ``arguments_error``, so the model
  can correct itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._record import Record, setfield
from .toolcall import ServerToolCall, ToolCall

__all__ = ["ItemRecord", "Reply", "SkippedItem"]


class ItemRecord(Record):
    """How one item of the reply was classified: which list and which entry of the spec.

    ``kind`` is ``calls``, ``server_side``, ``ignore`` or ``unknown``; ``entry`` is the
    entry's index in its list (``None`` for unknown items).
    """

    __slots__ = ("entry", "item_index", "item_type", "kind", "location")
    item_index: int
    location: str
    item_type: str | None
    kind: str
    entry: int | None

    def __init__(
        self, item_index: int, location: str, item_type: str | None, kind: str, entry: int | None
    ) -> None:
        setfield(self, "item_index", item_index)
        setfield(self, "location", location)
        setfield(self, "item_type", item_type)
        setfield(self, "kind", kind)
        setfield(self, "entry", entry)

    def to_dict(self) -> dict[str, Any]:
        return {
            "item_index": self.item_index,
            "location": self.location,
            "item_type": self.item_type,
            "kind": self.kind,
            "entry": self.entry,
        }


class SkippedItem(Record):
    """A call item that yielded no :class:`ToolCall` (no usable name), and why."""

    __slots__ = ("item_index", "item_type", "location", "reason")
    item_index: int
    location: str
    item_type: str | None
    reason: str

    def __init__(self, item_index: int, location: str, item_type: str | None, reason: str) -> None:
        setfield(self, "item_index", item_index)
        setfield(self, "location", location)
        setfield(self, "item_type", item_type)
        setfield(self, "reason", reason)

    def to_dict(self) -> dict[str, Any]:
        return {
            "item_index": self.item_index,
            "location": self.location,
            "item_type": self.item_type,
            "reason": self.reason,
        }


class Reply(Record):
    """One reply, read: its calls, server-side calls, truncation and loose ends.

    Immutable values, like every record here (:class:`toolwire._record.Record`: a
    frozen dataclass's behaviour without the cost of importing ``dataclasses``).
    """

    __slots__ = (
        "_source", "calls", "finish_reason", "format", "items", "server_calls", "skipped",
        "text", "truncated", "unknown_types",
    )
    format: str
    calls: tuple[ToolCall, ...]
    server_calls: tuple[ServerToolCall, ...]
    truncated: bool
    finish_reason: str | None
    unknown_types: tuple[str, ...]
    skipped: tuple[SkippedItem, ...]
    items: tuple[ItemRecord, ...]
    text: str | None
    # The (spec, response) it was read from, for assistant_message(); no part of its value.
    _source: tuple[Any, Any] | None
    _hidden = frozenset({"_source"})

    def __init__(
        self,
        format: str,
        calls: tuple[ToolCall, ...],
        server_calls: tuple[ServerToolCall, ...] = (),
        truncated: bool = False,
        finish_reason: str | None = None,
        unknown_types: tuple[str, ...] = (),
        skipped: tuple[SkippedItem, ...] = (),
        items: tuple[ItemRecord, ...] = (),
        text: str | None = None,
    ) -> None:
        setfield(self, "format", format)
        setfield(self, "calls", calls)
        setfield(self, "server_calls", server_calls)
        setfield(self, "truncated", truncated)
        setfield(self, "finish_reason", finish_reason)
        setfield(self, "unknown_types", unknown_types)
        setfield(self, "skipped", skipped)
        setfield(self, "items", items)
        # The assistant's text as the spec's `content` reads it (None: the spec reads none,
        # or the reply has none); with read(..., text_format=) the calls written in it are
        # lifted out (toolwire.wire.content).
        setfield(self, "text", text)
        setfield(self, "_source", None)

    def fates(self) -> tuple[str, ...]:
        """For each call, in order: ``runnable``, ``dropped`` or ``rejected``."""
        last = len(self.calls) - 1
        fates = []
        for index, call in enumerate(self.calls):
            if self.truncated and (call.arguments_undecodable or index == last):
                fates.append("dropped")
            elif call.arguments_undecodable:
                fates.append("rejected")
            else:
                fates.append("runnable")
        return tuple(fates)

    def _with_fate(self, fate: str) -> tuple[ToolCall, ...]:
        return tuple(c for c, f in zip(self.calls, self.fates(), strict=True) if f == fate)

    @property
    def runnable_calls(self) -> tuple[ToolCall, ...]:
        """The calls to execute."""
        return self._with_fate("runnable")

    @property
    def dropped_calls(self) -> tuple[ToolCall, ...]:
        """Calls neither to run nor to answer, because the reply was cut off in them."""
        return self._with_fate("dropped")

    @property
    def rejected_calls(self) -> tuple[ToolCall, ...]:
        """Calls to answer with :meth:`error_result` instead of running them."""
        return self._with_fate("rejected")

    @property
    def has_calls(self) -> bool:
        """Whether the client has anything to run (decided by the items, not finish_reason)."""
        return bool(self.calls)

    @staticmethod
    def error_result(call: ToolCall) -> str:
        """The text to send back as the tool result of a rejected call."""
        reason = call.arguments_error or "not a JSON object"
        return (
            f"Error: the arguments of the call to {call.name!r} could not be decoded"
            f" ({reason}). Send the call again with arguments that are one JSON object."
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # The source (a compiled spec and the response) stays behind: a copied or
        # unpickled reply renders from its values alone.
        return (_restore, (type(self), tuple(getattr(self, n) for n in self._shown)))

    def assistant_message(self) -> Any:
        """The assistant turn to append to the history, in this reply's own format: its
        items as the provider needs them back (thinking, reasoning, thought signatures),
        each call written back from its :class:`ToolCall`, dropped calls removed. An object,
        or a list of items where the format's history is a list (Responses)."""
        from .wire.render import assistant_message

        return assistant_message(self)

    def answer(self, results: Mapping[Any, Any]) -> list[Any]:
        """The provider-native message(s) carrying a result for every call of the
        assistant turn: ``results`` keyed by call id or :class:`ToolCall`, each a str, a
        JSON value, MCP content blocks or an exception; rejected calls without one get
        their :meth:`error_result`. Append them all to the history."""
        from .wire.render import answer

        return answer(self, results)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data, as the CLI prints it."""
        return {
            "format": self.format,
            "calls": [c.to_dict() for c in self.calls],
            "server_calls": [s.to_dict() for s in self.server_calls],
            "truncated": self.truncated,
            "finish_reason": self.finish_reason,
            "unknown_types": list(self.unknown_types),
            "skipped": [s.to_dict() for s in self.skipped],
            "fates": list(self.fates()),
            "text": self.text,
        }


def _restore(cls: type[Reply], values: tuple[Any, ...]) -> Reply:
    reply = object.__new__(cls)
    for name, value in zip(cls._shown, values, strict=True):
        setfield(reply, name, value)
    setfield(reply, "_source", None)
    return reply
