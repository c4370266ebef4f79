"""``Accumulator(..., tools=)``: streamed calls checked against the request's tools."""

from __future__ import annotations

from typing import Any

import toolwire

REQUEST = {"tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]}


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"object": "chat.completion.chunk", "id": "c1", "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


CHUNKS = [
    _chunk({"tool_calls": [{"index": 0, "id": "a", "type": "function",
                            "function": {"name": "get_weather", "arguments": '{"city": "P"}'}}]}),
    _chunk({"tool_calls": [{"index": 1, "id": "b", "type": "function",
                            "function": {"name": "get_wether", "arguments": "{}"}}]}),
    _chunk({"tool_calls": [{"index": 2, "id": "c", "type": "function",
                            "function": {"name": "get_weather", "arguments": "{}"}}]}),
    _chunk({}, "tool_calls"),
]


def test_ready_calls_and_the_reply_carry_the_tools_verdict() -> None:
    acc = toolwire.Accumulator("openai", tools=REQUEST)
    ready = [u.call for chunk in CHUNKS for u in acc.feed(chunk) if u.kind == "call"]
    assert [(c.id, c.unknown_tool, c.arguments_invalid) for c in ready if c] == [
        ("a", False, False), ("b", True, False), ("c", False, True)]
    reply = acc.reply()
    assert reply.fates() == ("runnable", "rejected", "rejected")
    assert reply == toolwire.read_stream("openai", CHUNKS, tools=toolwire.Tools("openai", REQUEST))


def test_without_tools_the_stream_reply_is_unchecked() -> None:
    reply = toolwire.read_stream("openai", CHUNKS)
    assert reply.fates() == ("runnable", "runnable", "runnable")
