"""The events of openai-python's ``client.chat.completions.stream()`` helper read as the chunks.

The helper yields, for each raw chunk, a ``ChunkEvent`` holding it (and the SDK's snapshot so
far), then events it derives from that chunk: ``content.delta``, ``tool_calls.function.
arguments.done`` and the rest. The openai spec reads the chunk and skips the derived events
(``stream.unwrap``, specs/README.md §9.5 step 3), so the reply is the raw chunks' reply. The
streams here come out of a real ``openai.OpenAI`` client whose HTTP transport serves a recorded
SSE body: no network.
"""

from __future__ import annotations

import json
import typing
from typing import Any

import pytest

import toolwire

openai = pytest.importorskip("openai")
httpx = pytest.importorskip("httpx")

_BASE = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1741290958,
         "model": "gpt-4.1-2025-04-14", "system_fingerprint": "fp_1"}


def _chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "finish_reason": finish, **extra}
    return {**_BASE, "choices": [choice]}


def _logprobs(key: str, token: str) -> dict[str, Any]:
    entry = {"token": token, "logprob": -0.1, "bytes": list(token.encode()), "top_logprobs": []}
    return {"logprobs": {key: [entry]}}


CALLS = [  # text, then two parallel calls in fragments, the finish, the usage chunk
    _chunk({"role": "assistant", "content": "", "refusal": None}),
    _chunk({"content": "Checking "}),
    _chunk({"content": "both."}),
    _chunk({"tool_calls": [{"index": 0, "id": "call_a", "type": "function",
                            "function": {"name": "get_weather", "arguments": ""}}]}),
    _chunk({"tool_calls": [{"index": 0, "function": {"arguments": "{\"city\": "}}]}),
    _chunk({"tool_calls": [{"index": 0, "function": {"arguments": "\"Paris\"}"}}]}),
    _chunk({"tool_calls": [{"index": 1, "id": "call_b", "type": "function",
                            "function": {"name": "get_time", "arguments": "{}"}}]}),
    _chunk({}, "tool_calls"),
    {**_BASE, "choices": [], "usage": {"prompt_tokens": 80, "completion_tokens": 40,
                                       "total_tokens": 120}},
]
REFUSAL = [  # text and a refusal, each with its logprobs
    _chunk({"role": "assistant", "content": "I"}, **_logprobs("content", "I")),
    _chunk({"content": " can't."}, **_logprobs("content", " can't.")),
    _chunk({"refusal": "I can't help with that."}, **_logprobs("refusal", "I can't")),
    _chunk({}, "stop"),
]
TOOLS = [{"type": "function", "function": {"name": name, "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}}}}
    for name in ("get_weather", "get_time")]


def _helper_events(chunks: list[dict[str, Any]]) -> list[Any]:
    """What ``chat.completions.stream()`` yields for an SSE body of these chunks."""
    body = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"

    def serve(request: Any) -> Any:
        return httpx.Response(200, headers={"content-type": "text/event-stream"},
                              content=body.encode("utf-8"))

    client = openai.OpenAI(api_key="sk-test", base_url="http://recorded.invalid/v1",
                           http_client=httpx.Client(transport=httpx.MockTransport(serve)),
                           max_retries=0)
    with client.chat.completions.stream(
            model="gpt-4.1", messages=[{"role": "user", "content": "Weather and time?"}],
            tools=TOOLS) as stream:
        return list(stream)


@pytest.mark.parametrize("chunks", [CALLS, REFUSAL], ids=["calls", "refusal"])
@pytest.mark.parametrize("fmt", ["openai", None], ids=["named", "sniffed"])
def test_the_chat_stream_helpers_events_read_as_the_raw_chunks(
        chunks: list[dict[str, Any]], fmt: str | None) -> None:
    events = _helper_events(chunks)
    assert {e.type for e in events} - {"chunk"}  # derived events came too
    want = toolwire.read_stream("openai", chunks)
    assert toolwire.read_stream(fmt, events) == want
    assert toolwire.read_stream(fmt, events).to_dict() == want.to_dict()

    acc, raw = toolwire.Accumulator(fmt), toolwire.Accumulator("openai")
    handed = [u.to_dict() for e in events for u in acc.feed(e)]
    assert handed == [u.to_dict() for c in chunks for u in raw.feed(c)]
    assert acc.events == len(events)


def test_the_helper_read_holds_what_the_chunks_say() -> None:
    reply = toolwire.read_stream(None, _helper_events(CALLS))
    assert [(c.id, c.name, c.arguments) for c in reply.calls] == [
        ("call_a", "get_weather", {"city": "Paris"}), ("call_b", "get_time", {})]
    assert (reply.text, reply.finish_reason) == ("Checking both.", "tool_calls")


def test_the_openai_spec_reads_every_event_type_of_the_helper() -> None:
    """Each type of the SDK's ``ChatCompletionStreamEvent`` union is one the spec unwraps: a
    type the SDK adds later fails here, not in a user's stream."""
    from openai.lib.streaming.chat import ChatCompletionStreamEvent

    types = set()
    for member in typing.get_args(ChatCompletionStreamEvent):
        kind = typing.get_origin(member) or member
        (literal,) = typing.get_args(kind.model_fields["type"].annotation)
        types.add(literal)
    unwrap = toolwire.Registry.default().spec("openai").stream_part["unwrap"]
    listed = set(unwrap["when"].split("contains([", 1)[1].split("]", 1)[0]
                 .replace("'", "").replace(" ", "").split(","))
    assert types == listed
    seen = {e.type for chunks in (CALLS, REFUSAL) for e in _helper_events(chunks)}
    assert seen == types  # the recorded streams make the SDK yield every type


def test_a_chunk_event_without_its_chunk_is_malformed_not_skipped() -> None:
    acc = toolwire.Accumulator("openai")
    with pytest.raises(toolwire.errors.MalformedStream) as caught:
        acc.feed({"type": "chunk", "chunk": None, "snapshot": {}})
    assert "envelope" in caught.value.reason
