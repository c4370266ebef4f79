"""toolwire calls ↔ Pydantic AI's ``ToolCallPart`` (pydantic-ai-slim).

:func:`part_fields` gives the keyword arguments of ``ToolCallPart(**fields)`` without
importing Pydantic AI; :func:`tool_call_part` builds the part itself (and imports it).
Field by field:

* ``tool_name`` ← ``name``; ``tool_call_id`` ← ``id``, exactly (``""`` stays ``""``);
* ``args`` ← the raw arguments text as sent, where it was recorded (byte-identical, as
  Pydantic AI stores it), else the decoded object; an undecodable call's text goes as
  it is, and Pydantic AI's own validation turns it into a retry prompt;
* ``provider_details`` ← ``provider_data`` (a Gemini ``thoughtSignature``, a Responses
  item ``id``), a plain dict; ``id`` ← ``provider_data["id"]`` where that is a string
  (the Responses item id, which is what ``ToolCallPart.id`` holds);
* ``provider_name`` ← the ``provider_name`` you pass (toolwire's format name, say).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._values.toolcall import ToolCall

__all__ = ["from_pydantic_ai", "part_fields", "tool_call_part"]


def part_fields(call: ToolCall, *, provider_name: str | None = None) -> dict[str, Any]:
    """``ToolCallPart`` keyword arguments for ``call`` (see the module docstring)."""
    raw = call.raw_arguments
    args: str | dict[str, Any]
    if isinstance(raw, str):
        args = raw
    elif call.arguments_undecodable:
        args = "" if raw is None else _json(raw)
    else:
        args = call.arguments
    details = dict(call.provider_data) or None
    fields: dict[str, Any] = {"tool_name": call.name, "args": args, "tool_call_id": call.id}
    if details is not None:
        fields["provider_details"] = details
        if isinstance(details.get("id"), str):
            fields["id"] = details["id"]
    if provider_name is not None:
        fields["provider_name"] = provider_name
    return fields


def tool_call_part(call: ToolCall, *, provider_name: str | None = None) -> Any:
    """A ``pydantic_ai.messages.ToolCallPart`` for ``call`` (needs pydantic-ai-slim)."""
    try:
        # lazy: pydantic-ai only when its own object is asked for
        from pydantic_ai.messages import ToolCallPart
    except ImportError:
        raise ImportError(
            "toolwire.interop.pydantic_ai.tool_call_part needs pydantic-ai-slim:"
            " pip install pydantic-ai-slim (part_fields() works without it)"
        ) from None
    return ToolCallPart(**part_fields(call, provider_name=provider_name))


def from_pydantic_ai(part: Any) -> ToolCall:
    """A ``ToolCallPart`` (or its fields as a mapping) as a toolwire call.

    Text ``args`` go through toolwire's decoding table and are kept as
    ``raw_arguments``; ``provider_details`` become ``provider_data``.
    """
    fields: Mapping[str, Any] = part if isinstance(part, Mapping) else {
        key: getattr(part, key, None)
        for key in ("tool_name", "args", "tool_call_id", "provider_details")
    }
    name, args, call_id = fields.get("tool_name"), fields.get("args"), fields.get("tool_call_id")
    if not isinstance(name, str) or not name:
        raise ValueError(f"a ToolCallPart needs a tool_name, not {name!r}")
    if call_id is None:
        call_id = ""
    if not isinstance(call_id, str):
        raise TypeError(f"a ToolCallPart's tool_call_id is a str, not {type(call_id).__name__}")
    details = fields.get("provider_details")
    if details is not None and not isinstance(details, Mapping):
        raise TypeError("a ToolCallPart's provider_details are a dict")
    if isinstance(args, str):
        decoded = ToolCall.from_raw(name, args, call_id)
        return decoded.replace(raw_arguments=args, provider_data=details)
    if args is None:
        return ToolCall(name, {}, call_id, provider_data=details)
    if not isinstance(args, Mapping):
        raise TypeError(
            f"a ToolCallPart's args are a str, a dict or None, not {type(args).__name__}"
        )
    return ToolCall(name, args, call_id, provider_data=details)


def _json(value: Any) -> str:
    import json  # lazy: json only for the arguments text

    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
