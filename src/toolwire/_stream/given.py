"""What ``read_stream`` was given, fed to an accumulator (specs/README.md §9.10, §9.11).

An iterable of pieces: decoded events (dicts, JSON text, SDK event objects) go to
:meth:`~toolwire.Accumulator.feed`, byte chunks (``bytes``, ``bytearray``, ``memoryview``) to
:meth:`~toolwire.Accumulator.feed_bytes` — raw SSE or NDJSON split anywhere, as an HTTP
client's ``iter_bytes()`` yields them, and as JavaScript's ``readStream`` takes a
``Uint8Array``. The stream's bytes or text given whole are one chunk. One object — a dict, an
SDK model — is no stream: iterating it would feed its keys or its fields, so it is refused and
named (a finished reply: read it with ``read()``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..errors import MalformedStream
from .events import event_json
from .identify import finished_reply

if TYPE_CHECKING:
    from .._spec.spec_source import SpecSource
    from .accumulator import Accumulator

__all__ = ["NO_LINE_END", "feed_all"]

_BYTES = (bytes, bytearray, memoryview)

NO_LINE_END = (
    "the stream's bytes hold no line break, so no event in them ever ended: lines with their"
    " line ends cut off (requests' iter_lines()) go to read_stream as text or decoded events,"
    " not as bytes; bytes are the raw stream (iter_bytes(), iter_content())"
)
"""Why byte chunks that never held a line break read as no event at all."""


def feed_all(accumulator: Accumulator, events: Any, fmt: str | None,
             registry: SpecSource) -> bool | None:
    """Feed ``events`` (see the module docstring); return whether a byte chunk held a line
    break (None where no byte chunk came)."""
    if isinstance(events, (*_BYTES, str)):
        whole = events if isinstance(events, str) else bytes(events)
        accumulator.feed_bytes(whole)
        return None if isinstance(events, str) else b"\n" in whole or b"\r" in whole
    if _one_object(events):
        raise _not_a_stream(events, fmt, registry)
    if not isinstance(events, Iterable):
        raise MalformedStream(fmt, f"read_stream takes an iterable of events or the stream's"
                              f" raw bytes, not a {type(events).__name__}")
    line_ends: bool | None = None
    for piece in events:
        if isinstance(piece, _BYTES):
            chunk = bytes(piece)
            line_ends = bool(line_ends) or b"\n" in chunk or b"\r" in chunk
            accumulator.feed_bytes(chunk)
        else:
            accumulator.feed(piece)
    return line_ends


def _one_object(value: Any) -> bool:
    """Whether ``value`` is one object (a mapping, a model, a dataclass), not a stream."""
    kind = type(value)
    return (isinstance(value, Mapping) or callable(getattr(kind, "model_dump", None))
            or (callable(getattr(kind, "dict", None)) and hasattr(kind, "__fields__"))
            or (dataclasses.is_dataclass(value) and not isinstance(value, type)))


def _not_a_stream(value: Any, fmt: str | None, registry: SpecSource) -> MalformedStream:
    """The error for one object given as the whole stream, naming what it is."""
    from .._sdk_objects import type_name  # lazy: SDK object support, only for this error

    shown = "dict" if type(value) is dict else type_name(value)
    data = event_json(value, fmt, 0)
    verdict = finished_reply(registry, registry.spec(fmt) if fmt else None, data)
    if verdict is not None:
        return MalformedStream(
            fmt, f"read_stream was given one {shown}: a finished {verdict.looks_like} reply,"
            " not a stream of events: read it with read()",
            looks_like=verdict.looks_like, finished_reply=True)
    return MalformedStream(fmt, f"read_stream was given one {shown}, not a stream of events:"
                           " give an iterable of events ([event] for one), or the stream's"
                           " raw bytes")
