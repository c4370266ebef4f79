"""The one fact every outward conversion needs: a call's arguments as the text that was sent.

LangChain's ``InvalidToolCall.args`` and Pydantic AI's ``ToolCallPart.args`` both take the
raw text, and both libraries decide for themselves what to do with text that is no JSON
object (LangChain reports it, Pydantic AI asks the model to retry); so toolwire hands
over the text exactly as the provider sent it where it was recorded, and never a repair.
"""

from __future__ import annotations

import json

from .._values.toolcall import ToolCall

__all__ = ["arguments_text"]


def arguments_text(call: ToolCall) -> str:
    """The raw arguments as sent (a string as it is, an object as compact JSON); for a call
    without recorded raw arguments, the decoded arguments as JSON."""
    raw = call.raw_arguments
    if isinstance(raw, str):
        return raw
    if raw is not None:
        return json.dumps(raw, ensure_ascii=False, separators=(",", ":"))
    if call.arguments_undecodable:
        return ""  # no text was recorded; the call's error says why there is none
    return json.dumps(call.arguments, ensure_ascii=False, separators=(",", ":"))
