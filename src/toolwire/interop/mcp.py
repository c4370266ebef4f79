"""toolwire calls → MCP ``tools/call`` requests, and MCP results → the provider's tool result.

A gateway that runs the model's calls on MCP servers does two conversions per call: the
call into ``tools/call`` params (:func:`call_params`, or a whole JSON-RPC request with
:func:`call_request`), and the server's ``CallToolResult`` back into the provider's
tool-result message. :func:`tool_result` gives that result in MCP's wire form —
``{"content": [blocks…], "isError": …, "structuredContent": …}`` — from the MCP SDK's
object or from the JSON-RPC data, which is the form ``reply.answer()`` takes (it renders
the blocks per provider, and ``isError`` as the provider's error result);
:func:`answer` does both steps for a whole reply. The MCP SDK is never imported: its
objects are read through their own ``model_dump``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._values.reply import Reply
from .._values.toolcall import ToolCall

__all__ = ["answer", "call_params", "call_request", "from_call_params", "tool_result"]

_RESULT_KEYS = frozenset({"content", "isError", "structuredContent", "resultType"})


def call_params(call: ToolCall) -> dict[str, Any]:
    """The ``params`` of an MCP ``tools/call`` request: ``{"name", "arguments"}``.

    A call whose arguments could not be decoded has no object to send: it is refused
    (a ``ValueError`` naming the call), as it must be answered with an error, not run.
    """
    if call.arguments_undecodable:
        raise ValueError(
            f"the call to {call.name!r} ({call.id or 'no id'}) has undecodable arguments"
            f" ({call.arguments_error}): answer it with reply.error_result(call), do not run it"
        )
    return {"name": call.name, "arguments": call.arguments}


def call_request(call: ToolCall, request_id: int | str) -> dict[str, Any]:
    """A complete JSON-RPC 2.0 ``tools/call`` request for ``call``."""
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": call_params(call)}


def from_call_params(params: Any, id: str = "") -> ToolCall:
    """``tools/call`` params (a dict, or the MCP SDK's ``CallToolRequestParams``) as a call."""
    data = _data(params)
    name, arguments = data.get("name"), data.get("arguments")
    if not isinstance(name, str) or not name:
        raise ValueError(f"tools/call params need a tool name, not {name!r}")
    if arguments is not None and not isinstance(arguments, Mapping):
        raise TypeError(f"tools/call arguments are an object, not {type(arguments).__name__}")
    return ToolCall(name, arguments or {}, id)


def tool_result(result: Any) -> dict[str, Any]:
    """A ``CallToolResult`` (the SDK's object or its JSON data) in MCP's wire form.

    The keys are MCP's own (``isError``, ``structuredContent``); ``isError`` is always
    present. Anything else is a ``ValueError``: a result toolwire cannot read is said so,
    never passed on as a success.
    """
    data = _data(result)
    unknown = set(data) - _RESULT_KEYS
    if unknown:
        raise ValueError(
            f"not an MCP CallToolResult: unknown keys {sorted(unknown)}"
            " (expected content, isError, structuredContent)"
        )
    kind = data.get("resultType", "complete")
    if kind != "complete":
        raise ValueError(
            f"this MCP CallToolResult is not a final result (resultType {kind!r}): the server"
            " asks for more input before the call has a result to send to the model"
        )
    content = data.get("content")
    if not isinstance(content, list) or not all(isinstance(b, dict) for b in content):
        raise ValueError("an MCP CallToolResult's content is a list of content blocks")
    is_error = data.get("isError", False)
    if not isinstance(is_error, bool):
        raise ValueError(f"an MCP CallToolResult's isError is a bool, not {is_error!r}")
    out: dict[str, Any] = {"content": content, "isError": is_error}
    if data.get("structuredContent") is not None:
        out["structuredContent"] = data["structuredContent"]
    return out


def answer(reply: Reply, results: Mapping[Any, Any]) -> Any:
    """``reply.answer()`` with each MCP ``CallToolResult`` converted by :func:`tool_result`.

    ``results`` maps a call (or its id) to its ``CallToolResult``. Needs ``Reply.answer``
    (the provider-result renderer); without it, pass :func:`tool_result`'s dicts to
    whatever builds your tool-result messages.
    """
    render = getattr(reply, "answer", None)
    if render is None:
        raise NotImplementedError(
            "this toolwire has no Reply.answer(); use toolwire.interop.mcp.tool_result()"
        )
    return render({key: tool_result(value) for key, value in results.items()})


def _data(value: Any) -> dict[str, Any]:
    """A mapping as a dict; an MCP SDK (pydantic) object as its JSON data, MCP's key names."""
    if isinstance(value, Mapping):
        return dict(value)
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        data = dump(by_alias=True, exclude_none=True, mode="json")
        if isinstance(data, dict):
            data.pop("meta", None)  # the SDK's alias for _meta: protocol metadata, not a result
            data.pop("_meta", None)
            return data
    raise TypeError(
        f"expected an MCP object or its JSON data (a dict), not {type(value).__name__}"
    )
