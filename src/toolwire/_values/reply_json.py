"""A :class:`~toolwire.Reply` as JSON data and back: the shape the CLI prints.

One object (docs/reading.md, "The Reply as JSON", is the reference)::

    {"format": "anthropic",
     "calls": [{<ToolCall.to_dict()>, "fate": "runnable",
                "record": {"item_index": 1, "location": "content[1]", "item_type": "tool_use",
                           "entry": 0, "arguments_selected": true}}],
     "server_calls": [<ServerToolCall.to_dict()>], "truncated": false,
     "finish_reason": "tool_use", "choice": 0, "choice_count": null,
     "unknown_types": [], "unknown": [], "skipped": [], "refused": [], "items": [...],
     "text": null, "turn": {"items": [{"type": "thinking", ...}, 0], "response": {}}}

Each call's fate and record sit in the call's own object, not in arrays beside the calls:
a consumer filtering calls keeps each call's facts with it. The fate is derived
(:func:`toolwire._values.reply.call_fate`), so :func:`reply_from_dict` recomputes it and refuses
data whose fate disagrees — a hand-edited fate is a lie about the call, not a change.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._speed import TYPE_CHECKING
from .._speed.record import setfield
from .records import CallRecord, ItemRecord, RefusedItem, SkippedItem, UnknownItem
from .server_call import ServerToolCall
from .toolcall import ToolCall
from .turn import Turn

if TYPE_CHECKING:
    from typing import Any

    from .reply import Reply

__all__ = ["reply_from_dict", "reply_to_dict"]

_KEYS = frozenset({
    "format", "calls", "server_calls", "truncated", "finish_reason", "choice", "choice_count",
    "unknown_types", "unknown", "skipped", "refused", "items", "text", "turn",
})
_REQUIRED = ("format", "calls", "truncated")
"""The keys without which a reply's JSON would read as a finished reply with no calls."""


def reply_to_dict(reply: Reply, *, raw: bool = False) -> dict[str, Any]:
    """The reply as JSON-ready data; ``raw`` adds each server call's provider item."""
    # Calls lifted out of the assistant text (read(..., text_format=)) come after the wire
    # calls and have no wire item behind them: their record is null.
    records: tuple[CallRecord | None, ...] = reply.call_records + (None,) * (
        len(reply.calls) - len(reply.call_records)
    )
    calls = []
    for call, fate, record in zip(reply.calls, reply.fates(), records, strict=True):
        data = call.to_dict()
        data["fate"] = fate
        data["record"] = None if record is None else record.to_dict()
        calls.append(data)
    return {
        "format": reply.format,
        "calls": calls,
        "server_calls": [s.to_dict(raw=raw) for s in reply.server_calls],
        "truncated": reply.truncated,
        "finish_reason": reply.finish_reason,
        "choice": reply.choice,
        "choice_count": reply.choice_count,
        "unknown_types": list(reply.unknown_types),
        "unknown": [u.to_dict() for u in reply.unknown],
        "skipped": [s.to_dict() for s in reply.skipped],
        "refused": [r.to_dict() for r in reply.refused],
        "items": [i.to_dict() for i in reply.items],
        "text": reply.text,
        "turn": None if reply.turn is None else reply.turn.to_dict(),
    }


def _optional_text(value: Any) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ValueError(
            f"Reply.from_dict: 'text' must be a str or null, not {type(value).__name__}"
        )
    return value


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise ValueError(f"Reply.from_dict: {key!r} must be a list, not {type(value).__name__}")
    return value


def _turn(value: Any) -> Turn | None:
    """The turn of the data (null or absent, as in a dict written before replies carried
    their turn: none, so the reply renders from its text and calls)."""
    return None if value is None else Turn.from_dict(value)


def reply_from_dict(cls: type[Reply], data: Mapping[str, Any]) -> Reply:
    """The inverse of :func:`reply_to_dict` (a ``cls``, the class asked); unknown keys and
    inconsistent fates refused."""
    if not isinstance(data, Mapping):
        raise TypeError(f"Reply.from_dict takes a mapping, not {type(data).__name__}")
    unknown = set(data) - _KEYS
    if unknown:
        raise ValueError(f"Reply.from_dict: unknown keys {sorted(unknown)}")
    missing = [key for key in _REQUIRED if key not in data]
    if missing:
        raise ValueError(
            f"Reply.from_dict: the data has no {' or '.join(map(repr, missing))}: a reply's"
            " JSON always carries its format, its calls and whether it was cut off, and"
            " without them it would read as a finished reply with no calls"
        )
    if not isinstance(data["format"], str):
        raise ValueError("Reply.from_dict: 'format' must be a str")
    if not isinstance(data["calls"], list):
        raise ValueError(
            f"Reply.from_dict: 'calls' must be a list, not {type(data['calls']).__name__}")
    if not isinstance(data["truncated"], bool):
        raise ValueError("Reply.from_dict: 'truncated' must be a boolean")
    calls: list[ToolCall] = []
    fates: list[Any] = []
    records: list[CallRecord] = []
    for entry in _list(data, "calls"):
        if not isinstance(entry, Mapping):
            raise ValueError("Reply.from_dict: each call must be an object")
        fields = dict(entry)
        fates.append(fields.pop("fate", None))
        record = fields.pop("record", None)
        if record is not None:
            if len(records) != len(calls):
                raise ValueError(
                    "Reply.from_dict: records belong to the leading (wire) calls only;"
                    f" call {len(calls)} has one after a call without"
                )
            records.append(CallRecord.from_dict(record))
        calls.append(ToolCall.from_dict(fields))
    choice = data.get("choice", 0)
    count = data.get("choice_count")
    if type(choice) is not int or (count is not None and type(count) is not int):
        raise ValueError("Reply.from_dict: 'choice' and 'choice_count' must be integers")
    reply = cls(
        data["format"],
        tuple(calls),
        tuple(ServerToolCall.from_dict(s) for s in _list(data, "server_calls")),
        data["truncated"],
        data.get("finish_reason"),
        tuple(str(t) for t in _list(data, "unknown_types")),
        tuple(SkippedItem.from_dict(s) for s in _list(data, "skipped")),
        tuple(ItemRecord.from_dict(i) for i in _list(data, "items")),
        unknown=tuple(UnknownItem.from_dict(u) for u in _list(data, "unknown")),
        refused=tuple(RefusedItem.from_dict(r) for r in _list(data, "refused")),
        call_records=tuple(records) if len(records) == len(calls) else (),
        choice=choice,
        choice_count=count,
        text=_optional_text(data.get("text")),
        turn=_turn(data.get("turn")),
    )
    if 0 < len(records) < len(calls):
        # The wire calls' records; the calls after them were lifted out of the text.
        setfield(reply, "call_records", tuple(records))
    for index, (given, derived) in enumerate(zip(fates, reply.fates(), strict=True)):
        if given is not None and given != derived:
            raise ValueError(
                f"Reply.from_dict: call {index} says fate {given!r}, but its fields make it"
                f" {derived!r}"
            )
    return reply
