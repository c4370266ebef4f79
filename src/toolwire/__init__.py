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

from typing import TYPE_CHECKING, Any

from .arguments import decode_arguments
from .errors import (
    MalformedResponse,
    SpecError,
    SpecProblem,
    ToolwireError,
    UnknownFormat,
    UnknownItemType,
    UnmappedCall,
)
from .registry import Registry
from .reply import ItemRecord, Reply, SkippedItem
from .toolcall import ArgumentError, ServerToolCall, ToolCall

if TYPE_CHECKING:
    from .text import TextReply

__version__ = "0.1.0"

__all__ = [
    "ArgumentError",
    "ItemRecord",
    "MalformedResponse",
    "Registry",
    "RenderError",
    "Reply",
    "ServerToolCall",
    "SkippedItem",
    "SpecError",
    "SpecProblem",
    "ToolCall",
    "ToolwireError",
    "UnknownFormat",
    "UnknownItemType",
    "UnmappedCall",
    "__version__",
    "convert",
    "decode_arguments",
    "extract",
    "extract_from_text",
    "extract_hermes_from_text",
    "extract_sniff",
    "from_fmt",
    "locate",
    "read",
    "read_text",
    "sniff_format",
]


# Subsystems loaded on first use, so ``import toolwire`` and a plain extract never pay
# for them: ``toolwire.batch`` (rows for batch runs), ``toolwire.spark``, ``toolwire.interop``.
_LAZY_MODULES = frozenset({"batch", "interop", "spark"})


def __getattr__(name: str) -> Any:
    if name in _LAZY_MODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    if name == "RenderError":  # the renderer's error, without loading the renderer early
        from .wire.render import RenderError

        return RenderError
    raise AttributeError(f"module 'toolwire' has no attribute {name!r}")


def locate(fmt: str, data: Any, *, strict: bool | None = None) -> list[dict[str, Any]]:
    """The raw call items the client must execute, unparsed, in response order.

    Server-side call items are never located. Raises :class:`UnknownFormat`,
    :class:`UnmappedCall` (an item the client must answer that the spec refuses) and
    :class:`MalformedResponse`.
    """
    return Registry.default().locate(fmt, data, strict=strict)


def extract(fmt: str, data: Any, *, strict: bool | None = None) -> list[ToolCall]:
    """``locate`` then one :class:`ToolCall` per item with a usable name.

    ``data`` is a dict or JSON text (str or bytes). ``strict`` overrides the spec's
    ``unknown_items``: True refuses unknown item types, False reports them.
    """
    return Registry.default().extract(fmt, data, strict=strict)


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
    text_format: str | None = None,
    text_params: dict[str, str] | None = None,
) -> Reply:
    """Everything at once: calls, server calls, truncation, finish reason, loose ends.

    ``fmt=None`` sniffs the format. See :class:`Reply` for the tool-loop split into
    runnable, dropped and rejected calls. ``text_format`` (a text format, e.g.
    ``"hermes"``) also lifts the calls the model wrote into the assistant text;
    ``Reply.text`` is that text, clean.
    """
    return Registry.default().read(
        fmt, data, strict=strict, text_format=text_format, text_params=text_params
    )


def extract_from_text(fmt: str, text: str, **params: Any) -> tuple[str, list[ToolCall]]:
    """Tool calls a model wrote inside its text, in text format ``fmt``: ``(clean_text, calls)``."""
    return Registry.default().extract_from_text(fmt, text, **params)


def read_text(fmt: str, text: str, **params: Any) -> TextReply:
    """Model text in text format ``fmt`` as a ``TextReply``: the answer, the reasoning
    (the format's reasoning regions, kept apart) and the calls; ``tools=`` types the
    values of XML-family formats by the tools' schemas."""
    return Registry.default().read_text(fmt, text, **params)


def extract_hermes_from_text(text: str, tag: str = "tool_call") -> tuple[str, list[ToolCall]]:
    """Hermes ``<tag>{"name": …, "arguments": {…}}</tag>`` blocks lifted out of ``text``."""
    return Registry.default().extract_hermes_from_text(text, tag=tag)


def convert(reply: Reply, to: str, *, lossy: bool = False) -> Any:
    """A reply's text and calls as format ``to``'s assistant turn (a gateway's job).

    Raises :class:`RenderError` with the reason where ``to`` cannot express the reply: a
    call without an id for a format that pairs results by id, undecodable arguments for a
    format whose calls carry an object, and — unless ``lossy`` — provider data the
    target does not carry, or calls the source provider ran itself.
    """
    from .wire.render import convert as render_convert

    return render_convert(reply, to, lossy=lossy)
