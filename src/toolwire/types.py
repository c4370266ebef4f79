"""The parts a reply is made of, for annotations and ``isinstance``: a caller meets them
as the items of a :class:`~toolwire.Reply`, a :class:`~toolwire.TextReply` or a
:class:`~toolwire.Tools`, and never needs to build one.

=================  =====================================================================
``ArgumentError``  one way a call's arguments fail the offered tool's schema
                   (``ToolCall.arguments_errors``)
``ItemRecord``     where an item of the reply stood and how it was classified (``items``)
``CallRecord``     where a call came from (``call_records``)
``SkippedItem``    an item that yielded no call, with the reason (``skipped``)
``UnknownItem``    an item no spec entry matched (``unknown``)
``RefusedItem``    an item the spec refuses to map, with the reason (``refused``)
``TextRegion``     a stretch of model text that yielded no call (``TextReply.skipped``)
``ToolDefinition`` one offered tool, compiled (``Tools.definitions``)
``Turn``           what a reply's assistant turn is written from beside its calls and
                   text: the items to give back (``Reply.turn``)
=================  =====================================================================
"""

from __future__ import annotations

from ._tools.definition import ToolDefinition
from ._values.records import CallRecord, ItemRecord, RefusedItem, SkippedItem, UnknownItem
from ._values.text_reply import TextRegion
from ._values.toolcall import ArgumentError
from ._values.turn import Turn

__all__ = [
    "ArgumentError",
    "CallRecord",
    "ItemRecord",
    "RefusedItem",
    "SkippedItem",
    "TextRegion",
    "ToolDefinition",
    "Turn",
    "UnknownItem",
]
