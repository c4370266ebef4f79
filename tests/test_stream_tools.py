"""``Accumulator(..., tools=)``: streamed calls checked against the request's tools."""

from __future__ import annotations

from stream_chunks import chat_calls

import toolwire

REQUEST = {"tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]}


CHUNKS = chat_calls(("a", "get_weather", '{"city": "P"}'), ("b", "get_wether", "{}"),
                    ("c", "get_weather", "{}"))


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
