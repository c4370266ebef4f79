"""One function turns whatever a caller feeds into the JSON object an event is.

Every event passes through :func:`event_json` (specs/README.md §9.11): a dict as given,
JSON text (str, bytes) parsed strictly, or an SDK's stream event object — an openai
``ChatCompletionChunk`` or Responses event, an anthropic ``RawMessageStreamEvent``, a
google-genai ``GenerateContentResponse`` chunk, a cohere v2 stream event, an ollama
``ChatResponse`` line, a mistralai ``CompletionChunk`` — made JSON by the same normaliser
that reads SDK response objects (:func:`toolwire._sdk_objects.to_wire_json`: by alias,
enums as their values, bytes as base64). What differs per format is the spec's
``normalize`` part, applied by :func:`normalised_event` once the format is known: where
its ``detect`` holds (google-genai's snake_case ``model_dump()``), the aliases rename the
keys, as ``read()`` does for a reply. Anything else is ``malformed_stream`` naming its type.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .._values.arguments import loads_strict
from ..errors import MalformedResponse, MalformedStream

if TYPE_CHECKING:
    from .._spec import WireSpec

__all__ = ["event_json", "normalised_event"]

_FIX = (
    "feed the SDK's stream event objects, their JSON (a dict or text), or the raw stream"
    " bytes to feed_bytes"
)


def event_json(event: Any, format: str | None, index: int) -> dict[str, Any]:
    """The event as a JSON object; :class:`MalformedStream` when it is none."""
    if type(event) is dict:
        return event
    if isinstance(event, (bytes, bytearray, memoryview)):
        try:
            event = bytes(event).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise MalformedStream(format, f"event bytes are not UTF-8 ({exc.reason})",
                                  index) from None
    if isinstance(event, str):
        try:
            event = loads_strict(event)
        except ValueError as exc:
            raise MalformedStream(format, f"event is not JSON: {exc}{_sse_hint(event)}",
                                  index) from None
        if isinstance(event, dict):
            return event
        kind = "null" if event is None else type(event).__name__
        raise MalformedStream(format, f"an event must be a JSON object, not {kind}", index)
    if isinstance(event, dict) and all(type(k) is str for k in event):
        return event  # a dict subclass: read as the mapping it is
    return _sdk_event(event, format, index)


_SSE_FIELDS = ("data:", "event:", "id:", "retry:", ":")


def _sse_hint(text: str) -> str:
    """Where ``text`` is SSE text, not an event's JSON, the way to give it (§9.10)."""
    if not text.lstrip().startswith(_SSE_FIELDS):
        return ""
    return ("; it is SSE text, not an event: raw stream bytes go to feed_bytes (read_stream"
            " takes them as bytes), an event as its data's JSON")


def _sdk_event(event: Any, format: str | None, index: int) -> dict[str, Any]:
    """An SDK event object (or another model, dataclass or mapping) as its JSON object."""
    # lazy: SDK object support (16 ms) only for an SDK event
    from .._sdk_objects import to_wire_json, type_name

    kind = type(event)
    if not (callable(getattr(kind, "model_dump", None))
            or (callable(getattr(kind, "dict", None)) and hasattr(kind, "__fields__"))
            or (dataclasses.is_dataclass(event) and not isinstance(event, type))
            or isinstance(event, Mapping)):
        shown = "null" if event is None else type_name(event)
        raise MalformedStream(
            format, f"a {shown} is not a stream event toolwire can read (not a JSON object,"
            f" JSON text, or an SDK event model with model_dump()): {_FIX}", index)
    try:
        return to_wire_json(event, None, format)
    except MalformedResponse as exc:  # a value inside that is not JSON, or not an object
        raise MalformedStream(format, f"the {type_name(event)} event: {exc.reason}",
                              index) from None


def normalised_event(spec: WireSpec, event: dict[str, Any], index: int) -> dict[str, Any]:
    """An event as the spec's wire JSON: renamed by its ``normalize`` aliases where its
    ``detect`` holds (an SDK's own keys), else as it is."""
    from .._sdk_objects import normalised  # lazy: SDK object support (16 ms) only for an SDK dump

    try:
        return normalised(spec, event)
    except MalformedResponse as exc:
        raise MalformedStream(spec.format, exc.reason, index) from None
