"""What toolwire is measured against: hand-written extractors, and the naive interpreter.

The hand-written extractors are the dict-walking code a careful user would write for one
provider instead of a spec: they read the same fields, classify the same item types
(failing closed where the spec refuses), decode arguments by the same table
(:func:`toolwire._values.arguments.decode_arguments`) and build the same :class:`ToolCall`
values, so the benchmark compares equal work. ``tests/test_bench_reference.py`` holds
each one to toolwire's answers on the bench replies and on the format's conformance
cases; a reference that did less would make the comparison dishonest.

:func:`naive_extract` is the other bound: the same spec walked the same way, but every
expression run through ``jmespath.search`` per call, as a spec interpreter without a
compile step would do.

A format that ``extends`` another reads like its base, so it uses its base's extractor
(:func:`reference_for`); the test proves that per format.
"""

from __future__ import annotations

import types
from collections import namedtuple
from collections.abc import Callable, Mapping
from typing import Any

import jmespath

from toolwire import ToolCall
from toolwire._spec.entries import CallEntry, Entry, RefuseEntry
from toolwire._spec.wirespec import WireSpec
from toolwire._values.arguments import decode_arguments_coded
from toolwire._values.json_values import copy_json
from toolwire.errors import MalformedResponse, ProviderError, UnknownItemType, UnmappedCall

__all__ = [
    "REFERENCES", "TUPLE_REFERENCES", "TupleCall", "naive_extract", "reference_for",
    "tuple_reference_for",
]

Extractor = Callable[[dict[str, Any]], list[ToolCall]]


# --- shared helpers (what any hand-written extractor needs) ---------------------------

def _id_text(value: Any) -> str:
    """A provider's call id as text: numbers spelled out, anything else empty."""
    if type(value) is str:
        return value
    if value is None or type(value) is bool:
        return ""
    if type(value) is int:
        return str(value)
    if type(value) is float:
        return str(int(value)) if value.is_integer() else str(value)
    return ""


def _call(
    name: Any, raw: Any, call_id: Any, index: int, kept: dict[str, Any] | None = None
) -> ToolCall | None:
    """The call, or None when the item has no usable name. Like toolwire's, it records
    the raw arguments as sent, the item's index and what the provider needs back."""
    if type(name) is not str or not name:
        return None
    if type(raw) is dict:  # already an object: copied, as the decoding table says
        arguments = copy_json(raw)
        return ToolCall._trusted(
            name, arguments, _id_text(call_id), False, None, None, arguments, kept, index
        )
    arguments, undecodable, error, code = decode_arguments_coded(raw)
    if arguments is raw:
        arguments = raw = copy_json(raw)
    elif raw is not None and type(raw) is not str:
        raw = copy_json(raw)
    return ToolCall._trusted(
        name, arguments, _id_text(call_id), undecodable, error, code, raw, kept, index
    )


def _kept(key: str, value: Any) -> dict[str, Any] | None:
    return None if value is None else {key: copy_json(value)}


def _items(fmt: str, value: Any, where: str, single: bool = False) -> list[Any]:
    if value is None:
        return []
    if type(value) is list:
        return value
    if single and type(value) is dict:
        return [value]
    raise MalformedResponse(fmt, f"{where} is a {type(value).__name__}, not a list", location=where)


def _not_object(fmt: str, index: int, item: Any, where: str) -> MalformedResponse:
    return MalformedResponse(
        fmt, f"item is a {type(item).__name__}, not an object", item_index=index, location=where
    )


def _first(value: Any) -> Any:
    """``value[0]`` as JMESPath reads it: a list's first element, else null."""
    return value[0] if type(value) is list and value else None


def _get(value: Any, key: str) -> Any:
    return value.get(key) if type(value) is dict else None


def _unknown(fmt: str, index: int, item_type: Any, where: str) -> UnknownItemType:
    shown = item_type if type(item_type) is str else None
    return UnknownItemType(fmt, index, shown, f"unknown {fmt} item type {item_type!r}", where)


def _is_error(fmt: str, error: bool, message: Any = None) -> None:
    """The provider's error body, as a careful reader checks for it first."""
    if error:
        raise ProviderError(fmt, message if type(message) is str else None)


def _is_reply(fmt: str, holds: bool) -> None:
    """What every reply of the format holds, as a careful reader checks before its items."""
    if not holds:
        raise MalformedResponse(fmt, "not a reply of the format")


def _objects_with(value: Any, key: str, kind: type, optional: bool = False) -> bool:
    """``value`` is a list of objects whose ``key`` holds a ``kind`` (or nothing)."""
    return type(value) is list and all(
        type(v) is dict and (type(v.get(key)) is kind or (optional and v.get(key) is None))
        for v in value)


# --- OpenAI Chat Completions ----------------------------------------------------------

_OPENAI_CUSTOM = (
    "A custom tool call carries free-form text in custom.input, not JSON arguments."
)


def openai(response: dict[str, Any]) -> list[ToolCall]:
    error = response.get("error")
    _is_error("openai", (type(error) is dict and response.get("type") != "error"
              and type(error.get("status")) is not str and response.get("status") != "failed")
              or response.get("object") == "error", _get(error, "message"))
    choices = response.get("choices")
    _is_reply("openai", type(choices) is list and all(
        type(c) is dict and (type(c.get("message")) is dict or (
            c.get("message") is None and c.get("finish_reason") == "content_filter"))
        for c in choices))  # a choice the content filter stopped carries no message
    calls: list[ToolCall] = []
    message = _get(_first(response.get("choices")), "message")
    where = "choices[0].message.tool_calls"
    for index, item in enumerate(_items("openai", _get(message, "tool_calls"), where)):
        if type(item) is not dict:
            raise _not_object("openai", index, item, f"{where}[{index}]")
        kind = item.get("type")
        if kind is None:
            kind = "function"
        if kind == "function":
            function = item.get("function")
            if type(function) is dict:
                call = _call(
                    function.get("name"), function.get("arguments"), item.get("id"), index
                )
            else:
                call = None
            if call is not None:
                calls.append(call)
        elif kind == "custom":
            raise UnmappedCall("openai", index, kind, _OPENAI_CUSTOM, f"{where}[{index}]")
        else:
            raise _unknown("openai", index, kind, f"{where}[{index}]")
    legacy = _get(message, "function_call")
    where = "choices[0].message.function_call"
    for item in _items("openai", legacy, where, single=True):
        if type(item) is not dict:
            raise _not_object("openai", 0, item, f"{where}[0]")
        call = _call(item.get("name"), item.get("arguments"), None, 0)
        if call is not None:
            calls.append(call)
    return calls


def openrouter(response: dict[str, Any]) -> list[ToolCall]:
    """Chat Completions, where a choice that finished with an error carries it."""
    _is_error("openrouter", type(_get(_first(response.get("choices")), "error")) is dict)
    return openai(response)


# --- OpenAI Responses -----------------------------------------------------------------

_RESPONSES_REFUSE = frozenset(
    {"custom_tool_call", "computer_call", "local_shell_call", "apply_patch_call",
     "mcp_approval_request"}
)
_RESPONSES_PASS = frozenset(
    {
        # server-side
        "web_search_call", "file_search_call", "code_interpreter_call",
        "image_generation_call", "mcp_call", "mcp_list_tools", "program", "multi_agent_call",
        "x_search_call", "code_execution_call", "view_image_call", "view_x_video_call",
        # not calls
        "message", "output_text", "refusal", "reasoning", "compaction", "additional_tools",
        "agent_message", "function_call_output", "custom_tool_call_output",
        "computer_call_output", "local_shell_call_output", "shell_call_output",
        "apply_patch_call_output", "tool_search_output", "mcp_approval_response",
        "program_output", "multi_agent_call_output",
    }
)


def _responses_item(index: int, item: dict[str, Any], where: str) -> ToolCall | None:
    kind = item.get("type")
    if kind == "function_call":
        return _call(
            item.get("name"), item.get("arguments"), item.get("call_id"), index,
            _kept("id", item.get("id")),
        )
    if kind in _RESPONSES_PASS:
        return None
    if kind == "shell_call":
        if _get(item.get("environment"), "type") == "container_reference":
            return None
        raise UnmappedCall("responses", index, kind, "a client shell call", where)
    if kind == "tool_search_call":
        if item.get("execution") == "server":
            return None
        raise UnmappedCall("responses", index, kind, "a client tool search", where)
    if kind in _RESPONSES_REFUSE:
        raise UnmappedCall("responses", index, kind, f"{kind} is not a function call", where)
    raise _unknown("responses", index, kind, where)


def responses(response: dict[str, Any]) -> list[ToolCall]:
    error = response.get("error")
    _is_error("responses", (type(error) is dict and response.get("type") != "error"
              and (response.get("status") == "failed" or response.get("output") is None))
              or (response.get("type") == "error" and type(response.get("message")) is str))
    _is_reply("responses", type(response.get("output")) is list)
    calls: list[ToolCall] = []
    for index, item in enumerate(_items("responses", response.get("output"), "output")):
        where = f"output[{index}]"
        if type(item) is not dict:
            raise _not_object("responses", index, item, where)
        call = _responses_item(index, item, where)
        if call is not None:
            calls.append(call)
        if item.get("type") != "message":
            continue
        parts = _items("responses", item.get("content"), f"{where}.content")
        for child_index, part in enumerate(parts):
            child_where = f"{where}.content[{child_index}]"
            if type(part) is not dict:
                raise _not_object("responses", index, part, child_where)
            call = _responses_item(index, part, child_where)
            if call is not None:
                calls.append(call)
    return calls


# --- Anthropic Messages ---------------------------------------------------------------

def anthropic(response: dict[str, Any]) -> list[ToolCall]:
    # Unknown block types are reported, not refused, and nothing is refused: only
    # tool_use blocks yield calls.
    _is_error("anthropic", response.get("type") == "error" and type(response.get("error")) is dict)
    _is_reply("anthropic", type(response.get("content")) is list)
    calls: list[ToolCall] = []
    for index, block in enumerate(_items("anthropic", response.get("content"), "content")):
        if type(block) is not dict:
            raise _not_object("anthropic", index, block, f"content[{index}]")
        if block.get("type") == "tool_use":
            call = _call(
                block.get("name"), block.get("input"), block.get("id"), index,
                _kept("caller", block.get("caller")),
            )
            if call is not None:
                calls.append(call)
    return calls


# --- Gemini generateContent -----------------------------------------------------------

def gemini(response: dict[str, Any]) -> list[ToolCall]:
    # A part is a call when it carries a non-null functionCall (the first key its type is
    # read from); unknown parts are reported, nothing is refused.
    _is_error("gemini", type(_get(response.get("error"), "status")) is str)
    candidates = response.get("candidates")
    _is_reply("gemini", _objects_with(candidates, "content", dict, optional=True) or (
        candidates is None and type(response.get("promptFeedback")) is dict))
    calls: list[ToolCall] = []
    content = _get(_first(response.get("candidates")), "content")
    where = "candidates[0].content.parts"
    for index, part in enumerate(_items("gemini", _get(content, "parts"), where)):
        if type(part) is not dict:
            raise _not_object("gemini", index, part, f"{where}[{index}]")
        function_call = part.get("functionCall")
        if function_call is not None:
            if type(function_call) is dict:
                call = _call(
                    function_call.get("name"), function_call.get("args"), function_call.get("id"),
                    index, _kept("thoughtSignature", part.get("thoughtSignature")),
                )
            else:
                call = None
            if call is not None:
                calls.append(call)
    return calls


# --- Ollama /api/chat -----------------------------------------------------------------

def ollama(response: dict[str, Any]) -> list[ToolCall]:
    _is_error("ollama", type(response.get("error")) is str, response.get("error"))
    _is_reply("ollama", type(response.get("message")) is dict)
    calls: list[ToolCall] = []
    where = "message.tool_calls"
    tool_calls = _get(response.get("message"), "tool_calls")
    for index, item in enumerate(_items("ollama", tool_calls, where)):
        if type(item) is not dict:
            raise _not_object("ollama", index, item, f"{where}[{index}]")
        function = item.get("function")
        if type(function) is dict:
            call = _call(
                    function.get("name"), function.get("arguments"), item.get("id"), index
                )
            if call is not None:
                calls.append(call)
    return calls


# --- Amazon Bedrock Converse ---------------------------------------------------------

def bedrock(response: dict[str, Any]) -> list[ToolCall]:
    # A block's type is its first non-null member; only a toolUse that is not a server
    # tool use is a call. Unknown blocks are reported, nothing is refused.
    output = response.get("output")
    _is_error("bedrock", type(response.get("Error")) is dict or (type(output) is not dict and (
        type(response.get("message")) is str or type(response.get("Message")) is str)))
    _is_reply("bedrock", type(_get(output, "message")) is dict)
    calls: list[ToolCall] = []
    message = _get(response.get("output"), "message")
    where = "output.message.content"
    for index, block in enumerate(_items("bedrock", _get(message, "content"), where)):
        if type(block) is not dict:
            raise _not_object("bedrock", index, block, f"{where}[{index}]")
        tool_use = block.get("toolUse")
        if tool_use is not None and _get(tool_use, "type") != "server_tool_use":
            call = _call(
                _get(tool_use, "name"), _get(tool_use, "input"), _get(tool_use, "toolUseId"),
                index,
            )
            if call is not None:
                calls.append(call)
    return calls


# --- Cohere v2 chat -------------------------------------------------------------------

def cohere(response: dict[str, Any]) -> list[ToolCall]:
    # Chat Completions' tool call shape; any type but function fails closed.
    message = response.get("message")
    _is_error("cohere", (type(message) is str and type(response.get("type")) is not str)
              or response.get("finish_reason") == "ERROR")
    _is_reply("cohere", type(message) is dict)
    calls: list[ToolCall] = []
    where = "message.tool_calls"
    tool_calls = _get(response.get("message"), "tool_calls")
    for index, item in enumerate(_items("cohere", tool_calls, where)):
        if type(item) is not dict:
            raise _not_object("cohere", index, item, f"{where}[{index}]")
        kind = item.get("type")
        if kind is None:
            kind = "function"
        if kind != "function":
            raise _unknown("cohere", index, kind, f"{where}[{index}]")
        function = item.get("function")
        if type(function) is dict:
            call = _call(
                    function.get("name"), function.get("arguments"), item.get("id"), index
                )
            if call is not None:
                calls.append(call)
    return calls


REFERENCES: Mapping[str, Extractor] = {
    "anthropic": anthropic,
    "bedrock": bedrock,
    "cohere": cohere,
    "gemini": gemini,
    "ollama": ollama,
    "openai": openai,
    "openrouter": openrouter,
    "responses": responses,
}


def reference_for(lineage: list[str]) -> tuple[str, Extractor] | None:
    """The extractor of the nearest format in ``lineage`` (a format, then its bases)."""
    return next(((f, REFERENCES[f]) for f in lineage if f in REFERENCES), None)


# --- the naive interpretation ---------------------------------------------------------

def _naive_match(item: dict[str, Any], item_type: Any, spec: WireSpec) -> Entry | None:
    candidates = spec.table.get(item_type) if type(item_type) is str else None
    for entry in candidates or ():
        if entry.when is None or jmespath.search(entry.when.source, item) is True:
            return entry
    return None


def _naive_item(
    spec: WireSpec, type_of: Callable[[dict[str, Any]], Any], index: int, item: dict[str, Any],
    where: str,
) -> ToolCall | None:
    item_type = type_of(item)
    entry = _naive_match(item, item_type, spec)
    if entry is None and spec.unknown_items == "refuse":
        raise _unknown(spec.format, index, item_type, where)
    if type(entry) is RefuseEntry:
        raise UnmappedCall(spec.format, index, item_type, entry.reason, where)
    if type(entry) is not CallEntry:
        return None
    kept = {}
    for key, expression in entry.keep:
        value = jmespath.search(expression.source, item)
        if value is not None:
            kept[key] = copy_json(value)
    return _call(
        jmespath.search(entry.name.source, item),
        jmespath.search(entry.arguments.source, item),
        jmespath.search(entry.id.source, item) if entry.id else None,
        index,
        kept or None,
    )


def naive_extract(spec: WireSpec, response: dict[str, Any]) -> list[ToolCall]:
    """The spec's extraction with ``jmespath.search`` evaluating every expression."""
    if spec.error is not None:
        _is_error(spec.format, jmespath.search(spec.error.when.source, response) is True)
    if spec.shape is not None:
        _is_reply(spec.format, jmespath.search(spec.shape.when.source, response) is True)
    calls: list[ToolCall] = []
    for source in spec.sources:
        where = source.select.source
        selected = _items(spec.format, jmespath.search(where, response), where, source.single)
        for index, item in enumerate(selected):
            at = where if source.single else f"{where}[{index}]"
            if type(item) is not dict:
                raise _not_object(spec.format, index, item, at)
            call = _naive_item(spec, source.type_of, index, item, at)
            if call is not None:
                calls.append(call)
            for nested in source.nested:
                if jmespath.search(nested.when.source, item) is not True:
                    continue
                inner = f"{at}.{nested.select.source}"
                children = _items(spec.format, jmespath.search(nested.select.source, item), inner)
                for child_index, child in enumerate(children):
                    if type(child) is not dict:
                        raise _not_object(spec.format, index, child, f"{inner}[{child_index}]")
                    at = f"{inner}[{child_index}]"
                    call = _naive_item(spec, source.type_of, index, child, at)
                    if call is not None:
                        calls.append(call)
    return calls


# --- the named-tuple reference ----------------------------------------------------------
#
# The same extractors, building an immutable named tuple per call instead of a ToolCall:
# what a careful user returns when they skip a library. Same walk, same decoding, same
# copy of the arguments, the same facts kept (raw arguments, item index, provider data):
# only the value built differs, so extract ÷ this is the price of ToolCall itself.

TupleCall = namedtuple(
    "TupleCall",
    "name arguments id arguments_undecodable arguments_error arguments_error_code"
    " raw_arguments provider_data item_index",
)


def _tuple_call(
    name: Any, raw: Any, call_id: Any, index: int, kept: dict[str, Any] | None = None
) -> TupleCall | None:
    """:func:`_call`, returning a :class:`TupleCall`."""
    if type(name) is not str or not name:
        return None
    if type(raw) is dict:
        arguments = copy_json(raw)
        return TupleCall(name, arguments, _id_text(call_id), False, None, None, arguments, kept,
                         index)
    arguments, undecodable, error, code = decode_arguments_coded(raw)
    if arguments is raw:
        arguments = raw = copy_json(raw)
    elif raw is not None and type(raw) is not str:
        raw = copy_json(raw)
    return TupleCall(name, arguments, _id_text(call_id), undecodable, error, code, raw, kept,
                     index)


def _with_tuples() -> dict[str, Callable[[dict[str, Any]], list[Any]]]:
    """Every extractor of this module re-bound so its ``_call`` is :func:`_tuple_call`
    (helpers that call ``_call`` re-bound too): the same code, a different value."""
    scope = dict(globals())
    scope["_call"] = _tuple_call
    for name, value in list(scope.items()):
        if isinstance(value, types.FunctionType) and value.__module__ == __name__ and (
            name not in ("_call", "_tuple_call", "_with_tuples")
        ):
            scope[name] = types.FunctionType(
                value.__code__, scope, value.__name__, value.__defaults__, value.__closure__
            )
    return {fmt: scope[fn.__name__] for fmt, fn in REFERENCES.items()}


TUPLE_REFERENCES: Mapping[str, Callable[[dict[str, Any]], list[Any]]] = _with_tuples()


def tuple_reference_for(lineage: list[str]) -> Callable[[dict[str, Any]], list[Any]] | None:
    """The named-tuple extractor of the nearest format in ``lineage``."""
    return next((TUPLE_REFERENCES[f] for f in lineage if f in TUPLE_REFERENCES), None)
