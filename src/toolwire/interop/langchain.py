"""toolwire calls ↔ LangChain's ``ToolCall`` / ``InvalidToolCall`` dicts (langchain-core).

LangChain's types are ``TypedDict``\\ s, so the conversion needs no import of LangChain at
all: the dicts are built here and validate as ``AIMessage(tool_calls=…,
invalid_tool_calls=…)``. The mapping, field by field:

* a call whose arguments decoded → ``{"name", "args", "id", "type": "tool_call"}``;
* a call whose arguments did not → ``{"name", "args": <the raw text as sent>, "id",
  "error": <why>, "type": "invalid_tool_call"}`` — LangChain keeps the raw text there,
  so nothing of it is lost;
* ``id`` is ``None`` where the provider sent none (toolwire's ``""``), and back.

A call LangChain has no field for — ``provider_data`` (a Gemini thought signature) —
stays on the toolwire call: keep the :class:`~toolwire.Reply` beside the message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._values.reply import Reply
from .._values.toolcall import ToolCall
from ._raw import arguments_text

__all__ = ["from_langchain", "to_langchain", "tool_calls"]

DROPPED_ERROR = (
    "the reply was cut off at its token limit in or just after this call; it must not be run"
)


def to_langchain(call: ToolCall) -> dict[str, Any]:
    """One call as a LangChain ``ToolCall`` dict, or ``InvalidToolCall`` when undecodable."""
    if call.arguments_undecodable:
        return {
            "name": call.name,
            "args": arguments_text(call),
            "id": call.id or None,
            "error": call.arguments_error or "the arguments are not a JSON object",
            "type": "invalid_tool_call",
        }
    return {"name": call.name, "args": call.arguments, "id": call.id or None, "type": "tool_call"}


def tool_calls(reply: Reply) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``(tool_calls, invalid_tool_calls)`` for ``AIMessage``, one entry per call, in order.

    Runnable calls are ``tool_calls``; rejected calls (undecodable arguments) are
    ``invalid_tool_calls`` with their raw text and error; a call *dropped* because the
    reply was cut off in it is an ``invalid_tool_call`` too (its arguments as sent, the
    error saying so), so an agent executor never runs a call the model did not finish.
    """
    valid: list[dict[str, Any]] = []
    invalid: list[dict[str, Any]] = []
    for call, fate in zip(reply.calls, reply.fates(), strict=True):
        converted = to_langchain(call)
        if fate == "dropped":
            converted = {
                "name": call.name, "args": arguments_text(call), "id": call.id or None,
                "error": DROPPED_ERROR, "type": "invalid_tool_call",
            }
        (invalid if converted["type"] == "invalid_tool_call" else valid).append(converted)
    return valid, invalid


def from_langchain(data: Mapping[str, Any]) -> ToolCall:
    """A LangChain ``ToolCall`` or ``InvalidToolCall`` dict as a toolwire call.

    An ``InvalidToolCall``'s text goes through toolwire's decoding table (so text that is
    a JSON object after all decodes) and is kept as ``raw_arguments``.
    """
    if not isinstance(data, Mapping):
        raise TypeError(f"a LangChain tool call is a dict, not {type(data).__name__}")
    kind = data.get("type", "tool_call")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError(f"a LangChain {kind} without a name cannot be a toolwire call")
    call_id = data.get("id") or ""
    if not isinstance(call_id, str):
        raise TypeError(f"a LangChain tool call id is a str or None, not {type(call_id).__name__}")
    if kind == "invalid_tool_call":
        raw = data.get("args")
        decoded = ToolCall.from_raw(name, raw, call_id)
        error = decoded.arguments_error
        if decoded.arguments_undecodable and isinstance(data.get("error"), str):
            error = data["error"]
        return decoded.replace(raw_arguments=raw, arguments_error=error)
    if kind != "tool_call":
        raise ValueError(f"not a LangChain tool call: type {kind!r}")
    args = data.get("args")
    if not isinstance(args, Mapping):
        raise TypeError(f"a LangChain ToolCall's args are a dict, not {type(args).__name__}")
    return ToolCall(name, args, call_id)
