"""What :func:`toolwire.read_text` returns: a model reply split into answer, reasoning, calls.

``extract_from_text`` keeps its ``(clean_text, calls)`` pair, with any reasoning
region left in the clean text exactly as written (nothing the model wrote is lost,
and callers of the first release see the text they saw). A caller who wants the
reasoning apart asks :func:`~toolwire.text.read_text`, which returns this value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..toolcall import ToolCall

__all__ = ["TextReply"]


@dataclass(frozen=True, slots=True)
class TextReply:
    """A reply read with a text spec.

    ``text`` is the answer: the reply without its call blocks and reasoning regions,
    trimmed. ``reasoning`` is the text of the reasoning regions (markers removed,
    regions joined by a blank line; ``""`` when there were none). ``calls`` are the
    calls in the order written, none of them read from inside a reasoning region
    unless the format's spec says the model calls tools while thinking.
    """

    text: str
    reasoning: str
    calls: tuple[ToolCall, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: ``text``, ``reasoning`` and ``calls`` (``ToolCall.to_dict()``)."""
        return {
            "text": self.text,
            "reasoning": self.reasoning,
            "calls": [call.to_dict() for call in self.calls],
        }
