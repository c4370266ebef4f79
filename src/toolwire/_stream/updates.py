"""What :meth:`Accumulator.feed` hands out: one :class:`StreamUpdate` per thing that became ready.

A closed slot is classified exactly as ``read()`` classifies an item (specs/README.md
§1.3 steps 4-5): refused, a call, a server-side call, ignored or unknown. The call itself is
built by the interpreter's own call builder, so a call handed out early is the call
``reply()`` holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._spec import CallEntry, RefuseEntry, ServerEntry, WireSpec
from .._values.reply import call_fate
from .._values.server_call import ServerToolCall
from .._values.toolcall import ToolCall
from .._wire import walk
from .._wire.reading import server_call

__all__ = ["StreamUpdate", "classify"]


@dataclass(frozen=True, slots=True, init=False)
class StreamUpdate:
    """One thing that became ready.

    ``kind`` is ``call`` (``call``: a :class:`ToolCall` to run), ``server_call``
    (``server_call``: a call the provider ran), ``refused`` (``item_type`` and ``reason``: a
    client action toolwire will not map — ``reply()`` raises ``unmapped_call`` for it, as
    ``read()`` does), ``unknown`` (``item_type``: an unlisted type, in a format that reports
    them) or ``finished`` (``finish_reason``, ``truncated``: the stream completed).
    """

    kind: str
    call: ToolCall | None
    server_call: ServerToolCall | None
    item_type: str | None
    reason: str | None
    finish_reason: str | None
    truncated: bool

    def __init__(
        self, kind: str, *, call: ToolCall | None = None,
        server_call: ServerToolCall | None = None, item_type: str | None = None,
        reason: str | None = None, finish_reason: str | None = None, truncated: bool = False,
    ) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "call", call)
        object.__setattr__(self, "server_call", server_call)
        object.__setattr__(self, "item_type", item_type)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "finish_reason", finish_reason)
        object.__setattr__(self, "truncated", truncated)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (the CLI's ``--follow`` lines)."""
        data: dict[str, Any] = {"kind": self.kind}
        if self.call is not None:
            # The fate is known at hand-out: a call handed out early is never dropped later.
            data["call"] = {**self.call.to_dict(), "fate": call_fate(self.call, False, False)}
        if self.server_call is not None:
            data["server_call"] = self.server_call.to_dict()
        if self.item_type is not None:
            data["item_type"] = self.item_type
        if self.reason is not None:
            data["reason"] = self.reason
        if self.kind == "finished":
            data["finish_reason"] = self.finish_reason
            data["truncated"] = self.truncated
        return data


StreamUpdate.__module__ = "toolwire"  # the published name (set after the dataclass
# decorator, which resolves annotations in the module the class names)


def classify(
    spec: WireSpec, source_index: int, item: dict[str, Any], strict: bool | None,
    index: int | None = None,
) -> StreamUpdate | None:
    """The update one closed item makes, or None (ignored, or a call without a name).

    ``index`` is the item's position in its list, as ``read()`` reports it (``item_index``).
    """
    item_type = spec.sources[source_index].type_of(item)
    shown = str(item_type) if isinstance(item_type, str) else None
    entry = walk.match(spec, item, item_type)
    if entry is None:
        refuse = spec.unknown_items == "refuse" if strict is None else strict
        if refuse:
            return StreamUpdate("refused", item_type=shown,
                                reason=f"the {spec.format} spec lists no item type {shown!r}")
        return StreamUpdate("unknown", item_type=shown)
    if type(entry) is RefuseEntry:
        return StreamUpdate("refused", item_type=shown, reason=entry.reason)
    if type(entry) is CallEntry:
        call = walk.build_call(entry, item, index)
        return StreamUpdate("call", call=call) if type(call) is ToolCall else None
    if type(entry) is ServerEntry:  # the server call reply() holds, its input included
        return StreamUpdate("server_call", server_call=server_call(entry, item, shown))
    return None
