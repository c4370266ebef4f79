"""toolwire: the tool calls an LLM emitted, read out of any provider's response.

Each wire format is a declarative YAML spec under ``specs/``; one interpreter runs
them all and hands over immutable :class:`ToolCall` values::

    >>> import toolwire
    >>> reply = {"choices": [{"message": {"tool_calls": [{"id": "call_1", "type": "function",
    ...     "function": {"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}}]},
    ...     "finish_reason": "tool_calls"}]}
    >>> toolwire.extract("openai", reply)
    [ToolCall(name='get_weather', arguments={'city': 'Paris'}, id='call_1')]

The functions here run on :meth:`Registry.default` (the bundled specs plus folders in
``TOOLWIRE_SPEC_PATH``); a :class:`Registry` of your own has the same methods.
"""

from __future__ import annotations

from ._registry import registry as _registry_module
from ._registry.registry import Registry
from ._values.arguments import decode_arguments
from ._values.reply import CallRecord, ItemRecord, RefusedItem, Reply, SkippedItem, UnknownItem
from ._values.toolcall import ArgumentError, ServerToolCall, ToolCall
from .errors import (
    MalformedResponse,
    NotDeclared,
    ProviderError,
    RegexBudgetExceeded,
    SpecError,
    SpecProblem,
    ToolwireError,
    UnknownFormat,
    UnknownItemType,
    UnmappedCall,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from typing import Any

    from ._stream import (
        Accumulator,
        IncompleteStream,
        MalformedStream,
        StreamError,
        StreamUpdate,
        UnsupportedStream,
        read_stream,
    )
    from ._text import TextReply
    from ._tools import InvalidTools, ToolDefinition, Tools

__version__ = "0.1.0"

__all__ = [
    "Accumulator",
    "ArgumentError",
    "CallRecord",
    "IncompleteStream",
    "InvalidTools",
    "ItemRecord",
    "MalformedResponse",
    "MalformedStream",
    "NotDeclared",
    "ProviderError",
    "RefusedItem",
    "RegexBudgetExceeded",
    "Registry",
    "RenderError",
    "Reply",
    "ServerToolCall",
    "SkippedItem",
    "SpecError",
    "SpecProblem",
    "StreamError",
    "StreamUpdate",
    "ToolCall",
    "ToolDefinition",
    "Tools",
    "ToolwireError",
    "UnknownFormat",
    "UnknownItem",
    "UnknownItemType",
    "UnmappedCall",
    "UnsupportedStream",
    "__version__",
    "convert",
    "decode_arguments",
    "extract",
    "extract_from_text",
    "extract_hermes_from_text",
    "extract_sniff",
    "from_fmt",
    "from_structured_output",
    "locate",
    "read",
    "read_stream",
    "read_text",
    "sniff_format",
]

_STREAM_NAMES = frozenset({
    "Accumulator", "IncompleteStream", "MalformedStream", "StreamError", "StreamUpdate",
    "UnsupportedStream", "read_stream",
})


# Subsystems loaded on first use, so ``import toolwire`` and a plain extract never pay
# for them: ``toolwire.batch`` (rows for batch runs), ``toolwire.spark``, ``toolwire.interop``.
_LAZY_MODULES = frozenset({"batch", "interop", "spark"})
# Names of those subsystems, loaded with their module: ``toolwire.Tools`` needs jsonschema.
_LAZY_NAMES = {"Tools": "_tools", "ToolDefinition": "_tools", "InvalidTools": "_tools"}


def __getattr__(name: str) -> Any:
    """Subsystems and streaming load on first use (PEP 562)."""
    if name in _STREAM_NAMES:
        from . import _stream as stream

        value = getattr(stream, name)
        globals()[name] = value
        return value
    import importlib

    if name in _LAZY_MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    module = _LAZY_NAMES.get(name)
    if module is not None:
        value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
        globals()[name] = value
        return value
    if name == "RenderError":  # the renderer's error, without loading the renderer early
        from ._render import RenderError

        return RenderError
    raise AttributeError(f"module 'toolwire' has no attribute {name!r}")


def locate(
    fmt: str, data: Any, *, strict: bool | None = None, choice: int = 0
) -> list[dict[str, Any]]:
    """The raw call items the client must execute, unparsed, in response order.

    Server-side call items are never located. Raises :class:`UnknownFormat`,
    :class:`UnmappedCall` (an item the client must answer that the spec refuses; its
    ``reply`` is the partial :class:`Reply`), :class:`MalformedResponse` (a body that is not
    a reply of the format) and :class:`ProviderError` (the provider's error body).
    """
    return Registry.default().locate(fmt, data, strict=strict, choice=choice)


def extract(
    fmt: str, data: Any, *, strict: bool | None = None, choice: int = 0
) -> list[ToolCall]:
    """``locate`` then one :class:`ToolCall` per item with a usable name.

    ``data`` is a dict or JSON text (str or bytes). ``strict`` overrides the spec's
    ``unknown_items``: True refuses unknown item types, False reports them. ``choice``
    reads another alternative of a reply that holds several (``n > 1``).
    """
    # The default registry, once built, without the classmethod call: extract is hot.
    return (_registry_module._DEFAULT or Registry.default()).extract(
        fmt, data, strict=strict, choice=choice
    )


def extract_sniff(data: Any, *, strict: bool | None = None) -> list[ToolCall]:
    """Sniff the format from the top-level shape, then extract; ``[]`` for an unknown shape."""
    return Registry.default().extract_sniff(data, strict=strict)


def sniff_format(data: Any) -> str | None:
    """The format name from the response's top-level shape only, or None."""
    return Registry.default().sniff_format(data)


def from_fmt(fmt: str, raw_item: Any) -> ToolCall | None:
    """One raw call item, pinned to a format, as a :class:`ToolCall` (None: no usable name)."""
    return Registry.default().from_fmt(fmt, raw_item)


def read(
    fmt: str | None,
    data: Any,
    *,
    strict: bool | None = None,
    choice: int = 0,
    tools: Any = None,
    text_format: str | None = None,
    text_params: dict[str, str] | None = None,
) -> Reply:
    """Everything at once: calls, server calls, truncation, finish reason, loose ends.

    ``fmt=None`` sniffs the format. See :class:`Reply` for the tool-loop split into
    runnable, dropped and rejected calls. Where the reply holds alternatives (``n > 1``),
    ``Reply.choice_count`` says how many and ``choice=k`` reads alternative ``k``.
    ``tools`` — a :class:`Tools`, or the request body (or its tool list) exactly as sent —
    checks every call against the offered tools: an unknown name sets ``unknown_tool``,
    arguments failing the tool's schema set ``arguments_invalid`` and ``arguments_errors``;
    both calls are rejected. ``text_format`` (a text format, e.g. ``"hermes"``) also lifts the
    calls the model wrote into the assistant text; ``Reply.text`` is that text, clean.
    """
    return Registry.default().read(
        fmt,
        data,
        strict=strict,
        choice=choice,
        tools=tools,
        text_format=text_format,
        text_params=text_params,
    )


def from_structured_output(
    fmt: str | None, data: Any, tool_name: str, *, choice: int = 0
) -> ToolCall:
    """A reply whose text is the JSON answer to a response-format request, as a call of
    ``tool_name`` with ``synthetic=True`` (the forced-tool fallback).

    The text is read through the spec's ``structured_output`` selector and decoded by the
    decoding table: text that is not one JSON object makes the call
    ``arguments_undecodable``, never repaired. A reply without text is a
    :class:`MalformedResponse`; a format whose spec declares no selector, :class:`NotDeclared`.
    """
    return Registry.default().from_structured_output(fmt, data, tool_name, choice=choice)


def extract_from_text(fmt: str, text: str, **params: Any) -> tuple[str, list[ToolCall]]:
    """Tool calls a model wrote inside its text, in text format ``fmt``: ``(clean_text, calls)``."""
    return Registry.default().extract_from_text(fmt, text, **params)


def read_text(fmt: str, text: str, **params: Any) -> TextReply:
    """Model text in text format ``fmt`` as a ``TextReply``: the answer, the reasoning
    (the format's reasoning regions, kept apart), the calls and the account of every call
    region (``skipped``, ``truncated``, each call's fate); ``tools=`` types the values of
    XML-family formats by the tools' schemas and checks every call against them. A message
    to a built-in tool (gpt-oss's ``python``) raises ``UnmappedCall`` with the partial reply."""
    return Registry.default().read_text(fmt, text, **params)


def extract_hermes_from_text(text: str, tag: str = "tool_call") -> tuple[str, list[ToolCall]]:
    """Hermes ``<tag>{"name": …, "arguments": {…}}</tag>`` blocks lifted out of ``text``."""
    return Registry.default().extract_hermes_from_text(text, tag=tag)


def convert(reply: Reply, to: str, *, lossy: bool = False, ids: Any = None) -> Any:
    """A reply's text and calls as format ``to``'s assistant turn (a gateway's job).

    Raises :class:`RenderError` with the reason where ``to`` cannot express the reply: a
    call without an id for a format that pairs results by id (``ids="mint"`` gives each
    such call a deterministic id, ``ids=callable(call, index)`` your own), undecodable
    arguments for a format whose calls carry an object, items the source format refused
    (OpenAI ``custom`` calls), and — unless ``lossy`` — provider data the target does not
    carry, or calls the source provider ran itself.
    """
    from ._render import convert as render_convert

    return render_convert(reply, to, lossy=lossy, ids=ids)
