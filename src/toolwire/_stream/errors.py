"""The errors of stream accumulation, each with a stable ``code``.

::

    ToolwireError
    ├── IncompleteStream    "incomplete_stream"   the stream ended before its terminal signal
    ├── StreamError         "stream_error"        the provider sent an error in the stream
    ├── MalformedStream     "malformed_stream"    the events break the format's stream rules
    └── UnsupportedStream   "unsupported_stream"  a stream feature toolwire will not accumulate

``IncompleteStream`` and ``StreamError`` carry the partial :class:`~toolwire.Reply`
(every call not provably closed flagged ``incomplete``), so a caller can log or show what
arrived; neither is ever a reason to run those calls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import ToolwireError

if TYPE_CHECKING:
    from .._values.reply import Reply

__all__ = ["IncompleteStream", "MalformedStream", "StreamError", "UnsupportedStream"]


class IncompleteStream(ToolwireError):
    """The stream stopped (EOF, or a sentinel such as ``[DONE]``) before it completed."""

    code = "incomplete_stream"

    def __init__(
        self, format: str, reply: Reply | None, open_slots: int, last_event_type: Any,
        events: int,
    ) -> None:
        self.format = format
        self.reply = reply
        self.open_slots = open_slots
        self.last_event_type = last_event_type
        self.events = events
        last = f"; last event {last_event_type!r}" if last_event_type is not None else ""
        self.summary = (f"{format}: the stream ended after {events} event(s) without its"
                        f" terminal signal ({open_slots} item(s) still open{last})")
        """What happened, without the advice (the command line gives its own)."""
        super().__init__(
            f"{self.summary}; use reply(allow_incomplete=True) to see the partial reply,"
            " whose unfinished calls are flagged incomplete"
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code, "message": str(self), "format": self.format,
            "open_slots": self.open_slots, "last_event_type": self.last_event_type,
            "events": self.events,
        }


class StreamError(ToolwireError):
    """The provider reported an error inside the stream (``event: error``, an error chunk)."""

    code = "stream_error"

    def __init__(
        self, format: str, error_code: Any, error_message: Any, reply: Reply | None,
        event_index: int,
    ) -> None:
        self.format = format
        self.error_code = error_code
        self.error_message = error_message
        self.reply = reply
        self.event_index = event_index
        super().__init__(
            f"{format}: the provider reported an error in event {event_index}:"
            f" {error_code!r}: {error_message}"
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code, "message": str(self), "format": self.format,
            "error_code": self.error_code, "error_message": self.error_message,
            "event_index": self.event_index,
        }


class MalformedStream(ToolwireError, ValueError):
    """The events do not follow the format's stream (a spliced start, a delta for a closed
    block, an event after the end, a data line that is not JSON…)."""

    code = "malformed_stream"

    def __init__(self, format: str | None, reason: str, event_index: int | None = None,
                 rule: str | None = None, *, looks_like: str | None = None,
                 finished_reply: bool = False) -> None:
        self.format = format
        self.reason = reason
        self.event_index = event_index
        self.rule = rule
        self.looks_like = looks_like  # the format the refused event is (§9.14), if known
        self.finished_reply = finished_reply  # it is a finished reply: use read()
        where = f" event {event_index}" if event_index is not None else ""
        by = f" (rule {rule!r})" if rule else ""
        super().__init__(f"{format or 'stream'}{where}{by}: {reason}")

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code, "message": str(self), "format": self.format,
            "reason": self.reason, "event_index": self.event_index, "rule": self.rule,
            "looks_like": self.looks_like, "finished_reply": self.finished_reply,
        }


class UnsupportedStream(ToolwireError):
    """The stream uses a feature the format's spec refuses to accumulate."""

    code = "unsupported_stream"

    def __init__(self, format: str | None, reason: str, event_index: int | None = None) -> None:
        self.format = format
        self.reason = reason
        self.event_index = event_index
        where = f" event {event_index}" if event_index is not None else ""
        super().__init__(f"{format or 'stream'}{where}: {reason}")

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code, "message": str(self), "format": self.format,
            "reason": self.reason, "event_index": self.event_index,
        }
