"""What a tool result is, whatever the caller handed over, and the template variables of it.

``reply.answer({call: result})`` takes a result as a string, any JSON value, MCP-style
content blocks (``[{"type": "text", "text": …}, {"type": "image", …}]``), an MCP
``CallToolResult`` (``{"content": [...], "isError": …}``, as data or as the MCP SDK's
object), or an exception (an error result carrying its message). Each becomes one
:class:`Result`; the template variables ``result.text``, ``result.value``,
``result.object``, ``result.content`` and ``result.blocks`` (specs/README.md §6) are
computed from it only when a template names them, so a result a format cannot carry
(an image where only text goes) fails exactly where it is asked for.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from .._values.toolcall import ToolCall
from ..errors import RenderError
from .template import Scope, fill, lazy

__all__ = [
    "MCP_BLOCK_TYPES", "RESULT_KINDS", "Result", "call_variables", "classify", "result_variables",
]

MCP_BLOCK_TYPES: Final = {
    "text": ("text",),
    "image": ("data", "mimeType"),
    "audio": ("data", "mimeType"),
    "resource": ("resource",),
    "resource_link": ("uri",),
}
"""MCP content block types (the 2025-06-18 schema) and the fields each must carry."""

_CALL_TOOL_RESULT_KEYS: Final = frozenset({"content", "isError", "structuredContent", "_meta"})


class Result:
    """One result, classified: ``kind`` is ``text``, ``json`` or ``blocks``; for an error,
    ``error_type`` is the exception's class name (None for an MCP ``isError`` result or a
    rejected call) and ``labelled`` says the text already says it is an error."""

    __slots__ = ("error_type", "is_error", "kind", "labelled", "value")

    def __init__(self, kind: str, value: Any, is_error: bool, *, error_type: str | None = None,
                 labelled: bool = False) -> None:
        self.kind = kind
        self.value = value
        self.is_error = is_error
        self.error_type = error_type
        self.labelled = labelled


def _is_blocks(value: Any) -> bool:
    if not isinstance(value, list) or not value:
        return False
    for block in value:
        if not isinstance(block, dict):
            return False
        needs = MCP_BLOCK_TYPES.get(block.get("type"))  # type: ignore[arg-type]
        if needs is None or any(field not in block for field in needs):
            return False
    return True


RESULT_KINDS: Final = (
    "pass a str, JSON data (a dict, list, number, bool or None), MCP content blocks, an MCP"
    " CallToolResult, or an exception"
)
"""What a tool result may be, as the errors about one say it."""


def classify(value: Any, format: str) -> Result:
    """``value`` as a :class:`Result`; a value that is no JSON is a :class:`RenderError`
    that says what a result may be (the caller names the call)."""
    if isinstance(value, BaseException):
        return Result("text", str(value), True, error_type=type(value).__name__)
    if isinstance(value, str):
        return Result("text", str.__str__(value), False)
    if not isinstance(value, (dict, list, int, float, bool, type(None))):
        # lazy: SDK object support (16 ms) only for an object result
        from .._sdk_objects import jsonable

        try:
            value = jsonable(value, format)
        except ValueError:
            raise RenderError(
                format, f"a value of type {type(value).__name__} is no tool result:"
                f" {RESULT_KINDS}",
            ) from None
    if isinstance(value, dict) and "content" in value and set(value) <= _CALL_TOOL_RESULT_KEYS:
        content = value["content"]
        if _is_blocks(content) or content == []:
            return Result("blocks", content, value.get("isError") is True)
    if _is_blocks(value):
        return Result("blocks", value, False)
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise RenderError(
            format, f"it is no JSON data ({exc}): {RESULT_KINDS}",
        ) from None
    return Result("json", value, False)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _as_text(result: Result, format: str) -> str:
    if result.kind == "text":
        return str(result.value) or (result.error_type or "")
    if result.kind == "json":
        return _compact(result.value)
    texts = []
    for block in result.value:
        if block["type"] == "text":
            texts.append(block["text"])
        elif block["type"] == "resource" and isinstance(block["resource"].get("text"), str):
            texts.append(block["resource"]["text"])
        else:
            raise RenderError(
                format,
                f"a tool result holding a {block['type']} block cannot be written as text in"
                f" {format}: pass text, or a format whose results carry {block['type']} content",
            )
    return "\n".join(texts)


def _blocks(result: Result, format: str, templates: Mapping[str, Any]) -> list[Any]:
    blocks = result.value if result.kind == "blocks" else [
        {"type": "text", "text": _as_text(result, format)}
    ]
    rendered = []
    for block in blocks:
        template = templates.get(block["type"])
        if template is None:
            raise RenderError(
                format,
                f"{format} tool results cannot carry MCP {block['type']} content (the spec's"
                " render.blocks lists no template for it)",
            )
        rendered.append(fill(template, Scope(format, {"block": block})))
    return rendered


def result_variables(result: Result, format: str, templates: Mapping[str, Any]) -> Any:
    """The ``result`` variable of a result template."""

    def value() -> Any:
        return result.value if result.kind != "blocks" else _as_text(result, format)

    def as_object() -> Any:
        if result.kind == "json" and isinstance(result.value, dict):
            return result.value
        return {"result": value()}

    def content() -> Any:
        if result.kind == "blocks" and result.value:
            return _blocks(result, format, templates)
        return _as_text(result, format)  # no blocks: the empty string, where a string goes

    def error() -> str:
        text = _as_text(result, format)
        if result.error_type is None or not result.is_error:
            return text
        message = str(result.value)
        return f"{result.error_type}: {message}" if message else result.error_type

    def error_text() -> str:
        return error() if result.labelled or not result.is_error else f"Error: {error()}"

    return lazy(
        text=lambda: _as_text(result, format),
        error=error,
        error_text=error_text,
        value=value,
        object=as_object,
        content=content,
        blocks=lambda: _blocks(result, format, templates),
        is_error=lambda: result.is_error,
    )


def call_variables(call: ToolCall, format: str) -> Any:
    """The ``call`` variable: the call as its own provider would write it back — the raw
    arguments where there were some (text byte for byte; an object as sent)."""

    def arguments() -> Any:
        raw = call.raw_arguments
        if isinstance(raw, dict):
            return raw
        if call.arguments_undecodable:
            raise RenderError(
                format, f"the call to {call.name!r} has undecodable arguments"
                f" ({call.arguments_error_code or call.arguments_error}), which {format} would"
                " have to write as an object: answer it without echoing, or repair it first",
            )
        return call.arguments

    def arguments_raw() -> Any:
        raw = call.raw_arguments
        return call.arguments if raw is None else raw

    def arguments_text() -> Any:
        raw = call.raw_arguments
        if isinstance(raw, str):
            return raw
        return _compact(raw) if raw is not None else _compact(call.arguments)

    return lazy(
        name=lambda: call.name,
        id=lambda: call.id,
        arguments=arguments,
        arguments_text=arguments_text,
        arguments_raw=arguments_raw,
        provider_data=lambda: dict(call.provider_data),
    )
