"""Chat Completions stream chunks for the stream tests (API, CLI, tools): one builder.

``chat_calls(("call_a", "f", '{"a": 1}'), …)`` is one chunk per whole call, at indexes
0, 1, …, then the finish chunk; :func:`sse` frames chunks as a provider sends them.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["chat_calls", "chat_chunk", "sse"]


def chat_chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    """One ``chat.completion.chunk`` of choice 0."""
    return {"object": "chat.completion.chunk", "id": "c1", "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def chat_calls(*calls: tuple[str, str, str], finish: str = "tool_calls") -> list[dict[str, Any]]:
    """A stream of whole calls ``(id, name, arguments text)``, then its finish."""
    chunks = [
        chat_chunk({"tool_calls": [{"index": index, "id": call_id, "type": "function",
                                    "function": {"name": name, "arguments": arguments}}]})
        for index, (call_id, name, arguments) in enumerate(calls)
    ]
    return [*chunks, chat_chunk({}, finish)]


def sse(chunks: list[dict[str, Any]]) -> str:
    """The chunks as SSE text, ended by ``[DONE]``."""
    return "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
