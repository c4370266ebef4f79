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
``TOOLWIRE_SPEC_PATH``); a :class:`Registry` of your own has the same methods. Wherever a
wire format is taken, ``None`` sniffs it from the reply's shape.

The public face is ``__all__``: these functions and classes, the exceptions in
:mod:`toolwire.errors`, the parts of a reply in :mod:`toolwire.types`; beside it the
modules :mod:`toolwire.batch`, :mod:`toolwire.spark`, :mod:`toolwire.interop` and
:mod:`toolwire.cli`, loaded on first use. Every other module is private.
"""

from __future__ import annotations

import sys

from . import errors
from ._deprecated import OldModules, moved_name
from ._registry import registry as _registry_module
from ._registry.registry import Registry
from ._speed import TYPE_CHECKING
from ._values.reply import Reply
from ._values.server_call import ServerToolCall
from ._values.text_reply import TextReply
from ._values.toolcall import ToolCall

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from . import types
    from ._stream import Accumulator, StreamUpdate, read_stream
    from ._tools import Tools

__version__ = "0.2.0"

__all__ = [
    "Accumulator",
    "Registry",
    "Reply",
    "ServerToolCall",
    "StreamUpdate",
    "TextReply",
    "ToolCall",
    "Tools",
    "__version__",
    "convert",
    "errors",
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
    "types",
]

_MODULES = ("batch", "cli", "conformance", "interop", "spark", "types")
"""The public modules beside ``__all__``'s names, each loaded when first named."""

if OldModules not in sys.meta_path:  # the old module paths, for one release
    sys.meta_path.append(OldModules)


def __getattr__(name: str) -> Any:
    """Streaming, tool checks and the public modules load on first use (PEP 562): a plain
    ``extract`` or ``read`` never pays for them. Any other name is an old one, or none."""
    if name in ("Accumulator", "StreamUpdate", "read_stream"):
        from . import _stream  # lazy: streaming is thirteen modules a plain read never needs

        value = getattr(_stream, name)
    elif name == "Tools":
        from ._tools import Tools  # lazy: checking calls loads jsonschema's machinery

        value = Tools
    elif name in _MODULES:
        return __import__(f"{__name__}.{name}", fromlist=["__name__"])
    else:
        return moved_name(name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names only: ``__all__`` and the public modules."""
    return sorted({*__all__, *_MODULES})


def locate(
    fmt: str | None, data: Any, *, strict: bool | None = None, choice: int = 0
) -> list[dict[str, Any]]:
    """The raw call items the client must execute, unparsed, in response order.

    ``fmt=None`` sniffs the format (:class:`~toolwire.errors.UnknownFormat` when nothing
    fits). Server-side call items are never located. Raises
    :class:`~toolwire.errors.UnmappedCall` (an item the client must answer that the spec
    refuses; its ``reply`` is the partial :class:`Reply`),
    :class:`~toolwire.errors.MalformedResponse` (a body that is not a reply of the format)
    and :class:`~toolwire.errors.ProviderError` (the provider's error body).
    """
    return Registry.default().locate(fmt, data, strict=strict, choice=choice)


def extract(
    fmt: str | None, data: Any, *, strict: bool | None = None, choice: int = 0
) -> list[ToolCall]:
    """``locate`` then one :class:`ToolCall` per item with a usable name.

    ``data`` is a dict or JSON text (str or bytes); ``fmt=None`` sniffs the format, as
    :func:`read` does (:func:`extract_sniff` instead gives ``[]`` for a shape no format
    knows). ``strict`` overrides the spec's
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
    """One raw call item, pinned to a format, as a :class:`ToolCall` (None: no usable name).

    The format must be named: one item does not carry the reply's shape to sniff."""
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
    ids: str | Callable[[ToolCall, int], str] | None = None,
) -> Reply:
    """Everything at once: calls, server calls, truncation, finish reason, loose ends.

    ``fmt=None`` sniffs the format. See :class:`Reply` for the tool-loop split into
    runnable, dropped and rejected calls. Where the reply holds alternatives (``n > 1``),
    ``Reply.choice_count`` says how many and ``choice=k`` reads alternative ``k``.
    ``tools`` — a :class:`Tools`, or the request body (or its tool list) exactly as sent —
    checks every call against the offered tools: an unknown name sets ``unknown_tool``,
    arguments failing the tool's schema set ``arguments_invalid`` and ``arguments_errors``;
    both calls are rejected. ``text_format`` (a text format, e.g. ``"hermes"``) also lifts the
    calls the model wrote into the assistant text; ``Reply.text`` is that text, clean. A
    lifted call without an id gets the id ``convert(..., ids="mint")`` would mint where the
    format pairs results by id, so the assistant turn and the answers agree; ``ids="mint"``
    mints in every format, ``ids=lambda call, index: ...`` gives your own.
    """
    # The default registry, once built, without the classmethod call: read is hot.
    return (_registry_module._DEFAULT or Registry.default()).read(
        fmt,
        data,
        strict=strict,
        choice=choice,
        tools=tools,
        text_format=text_format,
        text_params=text_params,
        ids=ids,
    )


def from_structured_output(
    fmt: str | None, data: Any, tool_name: str, *, choice: int = 0
) -> ToolCall:
    """A reply whose text is the JSON answer to a response-format request, as a call of
    ``tool_name`` with ``synthetic=True`` (the forced-tool fallback); ``fmt=None`` sniffs.

    The text is read through the spec's ``structured_output`` selector and decoded by the
    decoding table: text that is not one JSON object makes the call
    ``arguments_undecodable``, never repaired. A reply without text is a
    :class:`~toolwire.errors.MalformedResponse`; a format whose spec declares no selector,
    :class:`~toolwire.errors.NotDeclared`.
    """
    return Registry.default().from_structured_output(fmt, data, tool_name, choice=choice)


def extract_from_text(fmt: str, text: str, **params: Any) -> tuple[str, list[ToolCall]]:
    """Tool calls a model wrote inside its text, in text format ``fmt``: ``(clean_text, calls)``.

    A text format must be named (``None`` is a ``TypeError``): model text carries no sure
    mark of the format it was written in, so toolwire does not guess."""
    return Registry.default().extract_from_text(fmt, text, **params)


def read_text(fmt: str, text: str, **params: Any) -> TextReply:
    """Model text in text format ``fmt`` as a ``TextReply``: the answer, the reasoning
    (the format's reasoning regions, kept apart), the calls and the account of every call
    region (``skipped``, ``truncated``, each call's fate); ``tools=`` types the values of
    XML-family formats by the tools' schemas and checks every call against them. A message
    to a built-in tool (gpt-oss's ``python``) raises ``UnmappedCall`` with the partial reply.
    The text format must be named, as for :func:`extract_from_text`."""
    return Registry.default().read_text(fmt, text, **params)


def extract_hermes_from_text(text: str, tag: str = "tool_call") -> tuple[str, list[ToolCall]]:
    """Hermes ``<tag>{"name": …, "arguments": {…}}</tag>`` blocks lifted out of ``text``."""
    return Registry.default().extract_hermes_from_text(text, tag=tag)


def convert(reply: Reply, to: str, *, lossy: bool = False, ids: Any = None) -> Any:
    """A reply's text and calls as format ``to``'s assistant turn (a gateway's job).

    Raises :class:`~toolwire.errors.RenderError` with the reason where ``to`` (a format
    name, never sniffed) cannot express the reply: a
    call without an id for a format that pairs results by id (``ids="mint"`` gives each
    such call a deterministic id, ``ids=callable(call, index)`` your own), undecodable
    arguments for a format whose calls carry an object, items the source format refused
    (OpenAI ``custom`` calls), and — unless ``lossy`` — provider data the target does not
    carry, or calls the source provider ran itself.
    """
    from ._render import convert as render_convert  # lazy: a plain read never renders

    return render_convert(reply, to, registry=Registry.default(), lossy=lossy, ids=ids)
