"""One function turns whatever a caller feeds into the JSON object an event is.

Every event passes through :func:`event_json`, so SDK event objects can be routed through
:mod:`toolwire.interop.objects` in this one place once it exists (the "sdk" helper plugs it
in). Accepted today: a dict (as given), JSON text (str, bytes), and any object with
``model_dump`` (pydantic v2, the OpenAI/Anthropic SDKs) or ``to_dict``.
"""

from __future__ import annotations

from typing import Any

from ...arguments import loads_strict
from .errors import MalformedStream

__all__ = ["event_json"]


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
            raise MalformedStream(format, f"event is not JSON: {exc}", index) from None
    elif not isinstance(event, dict):
        event = _sdk_object(event)
    if isinstance(event, dict):
        return event
    kind = "null" if event is None else type(event).__name__
    raise MalformedStream(format, f"an event must be a JSON object, not {kind}", index)


def _sdk_object(event: Any) -> Any:
    """An SDK event object as plain data (exclude_unset: absent stays absent)."""
    dump = getattr(event, "model_dump", None)
    if callable(dump):
        try:
            return dump(mode="json", exclude_unset=True, by_alias=True)
        except TypeError:
            return dump()
    to_dict = getattr(event, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    return event
