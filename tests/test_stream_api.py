"""The streaming API: Accumulator, read_stream and the errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from stream_chunks import chat_calls, chat_chunk, sse

import toolwire

ROOT = Path(__file__).resolve().parent.parent

CHUNKS = chat_calls(("call_a", "f", '{"a": 1}'))


def test_read_stream_equals_read_of_the_full_response() -> None:
    full = {"object": "chat.completion", "choices": [{"index": 0, "finish_reason": "tool_calls",
            "message": {"role": "assistant", "tool_calls": [{"id": "call_a", "type": "function",
                        "function": {"name": "f", "arguments": '{"a": 1}'}}]}}]}
    assert toolwire.read_stream("openai", CHUNKS) == toolwire.read("openai", full)


def test_events_may_be_json_text_bytes_or_sdk_objects() -> None:
    class Event:
        def __init__(self, data: dict[str, Any]) -> None:
            self.data = data

        def model_dump(self, **_: Any) -> dict[str, Any]:
            return self.data

    events = [json.dumps(CHUNKS[0]), Event(CHUNKS[1])]
    assert toolwire.read_stream(None, events).calls[0].id == "call_a"
    acc = toolwire.Accumulator("openai")
    for chunk in CHUNKS:
        acc.feed(json.dumps(chunk).encode())
    assert acc.reply().calls


def test_a_non_object_event_is_a_malformed_stream() -> None:
    acc = toolwire.Accumulator("openai")
    with pytest.raises(toolwire.errors.MalformedStream) as caught:
        acc.feed("[1, 2]")
    assert caught.value.code == "malformed_stream"
    assert caught.value.event_index == 0


def test_a_failed_stream_keeps_failing() -> None:
    acc = toolwire.Accumulator("anthropic")
    with pytest.raises(toolwire.errors.MalformedStream):
        acc.feed({"type": "content_block_delta", "index": 0,
                  "delta": {"type": "input_json_delta", "partial_json": "{"}})
    with pytest.raises(toolwire.errors.MalformedStream):
        acc.feed({"type": "message_stop"})
    with pytest.raises(toolwire.errors.MalformedStream):
        acc.reply(allow_incomplete=True)


def test_an_unsniffable_first_event_is_an_unknown_format() -> None:
    with pytest.raises(toolwire.errors.UnknownFormat):
        toolwire.Accumulator().feed({"hello": "world"})


def test_the_sse_event_name_types_an_event_without_a_type(tmp_path: Path) -> None:
    # Anthropic's own shape wants the JSON `type`; a dialect that accepts untyped events
    # shows the SSE `event:` name typing them (§9.5 step 4).
    (tmp_path / "named.yaml").write_text(
        "spec_version: 1\nformat: named\nextends: anthropic\ntitle: Named\n"
        "doc_ref: https://example.invalid\nstream:\n  shape: \"type(@) == 'object'\"\n",
        encoding="utf-8")
    data = (b"event: message_start\ndata: {\"message\": {\"id\": \"m\", \"content\": []}}\n\n"
            b"event: message_stop\ndata: {}\n\n")
    acc = toolwire.Accumulator("named", registry=toolwire.Registry.from_paths(tmp_path))
    acc.feed_bytes(data)
    assert acc.complete
    assert acc.reply().calls == ()


def test_an_untyped_anthropic_event_is_not_an_anthropic_event() -> None:
    acc = toolwire.Accumulator("anthropic")
    with pytest.raises(toolwire.errors.MalformedStream) as caught:
        acc.feed_bytes(b"event: message_start\ndata: {\"message\": {\"id\": \"m\"},"
                       b" \"index\": 0}\n\n")
    assert caught.value.looks_like is None and not caught.value.finished_reply


def test_a_stream_error_carries_the_partial_reply_and_provider_code() -> None:
    acc = toolwire.Accumulator("openai")
    acc.feed(CHUNKS[0])
    with pytest.raises(toolwire.errors.StreamError) as caught:
        acc.feed({"error": {"code": "rate_limited", "message": "slow down"}})
    error = caught.value
    assert (error.code, error.error_code, error.error_message) == (
        "stream_error", "rate_limited", "slow down")
    assert error.reply is not None and error.reply.calls[0].incomplete
    assert error.reply.fates() == ("dropped",)
    assert error.to_dict()["error_code"] == "rate_limited"


def test_incomplete_stream_reports_what_was_open() -> None:
    acc = toolwire.Accumulator("openai")
    acc.feed(CHUNKS[0])
    with pytest.raises(toolwire.errors.IncompleteStream) as caught:
        acc.reply()
    assert caught.value.open_slots == 1
    assert caught.value.reply is not None and caught.value.reply.runnable_calls == ()


def test_a_terminal_null_output_is_noted() -> None:
    events = [
        {"type": "response.created", "response": {"id": "r", "status": "in_progress",
                                                  "output": []}},
        {"type": "response.output_item.added", "output_index": 0,
         "item": {"type": "function_call", "call_id": "c", "name": "f", "arguments": ""}},
        {"type": "response.output_item.done", "output_index": 0,
         "item": {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}},
        {"type": "response.completed", "response": {"id": "r", "status": "completed",
                                                    "output": None}},
    ]
    acc = toolwire.Accumulator("responses")
    for event in events:
        acc.feed(event)
    assert [c.id for c in acc.reply().calls] == ["c"]
    assert "null" in acc.notes[0]
    snapshot = acc.snapshot()
    assert snapshot is not None and snapshot["output"][0]["call_id"] == "c"


def test_a_spec_without_a_stream_part_is_unsupported(tmp_path: Path) -> None:
    spec = (ROOT / "specs" / "wire" / "ollama.yaml").read_text(encoding="utf-8")
    folder = tmp_path / "wire"
    folder.mkdir()
    (folder / "nostream.yaml").write_text(
        spec.split("# -- stream")[0].replace("format: ollama", "format: nostream")
        .replace("sniff:\n  when", "x-sniff:\n  when"), encoding="utf-8")
    registry = toolwire.Registry.from_paths(folder)
    with pytest.raises(toolwire.errors.UnsupportedStream):
        toolwire.Accumulator("nostream", registry=registry)


def test_read_refuses_a_stream_event_of_any_base_format() -> None:
    for fmt, event in (
        ("openai", CHUNKS[0]),
        ("anthropic", {"type": "content_block_delta", "index": 0, "delta": {}}),
        ("responses", {"type": "response.output_item.added", "output_index": 0, "item": {}}),
        ("ollama", {"model": "m", "message": {"role": "assistant"}, "done": False}),
        ("bedrock", {"contentBlockStop": {"contentBlockIndex": 0}}),
        ("cohere", {"type": "tool-call-end", "index": 0}),
    ):
        for call in (toolwire.read, toolwire.extract, toolwire.locate):
            with pytest.raises(toolwire.errors.MalformedResponse, match="Accumulator"):
                call(fmt, event)  # type: ignore[operator]
    with pytest.raises(toolwire.errors.MalformedResponse, match="Accumulator"):
        toolwire.read(None, {"type": "message_stop"})


def test_a_dialect_overrides_a_base_stream_rule_by_name(tmp_path: Path) -> None:
    (tmp_path / "shouty.yaml").write_text(
        "spec_version: 1\nformat: shouty\nextends: openai\ntitle: Shouty\n"
        "doc_ref: https://example.invalid\nstream:\n  rules:\n    - name: finish\n"
        "      set:\n        choices[0].finish_reason: \"choices[0].delta.done_word\"\n",
        encoding="utf-8")
    registry = toolwire.Registry.from_paths(tmp_path)
    rules = registry.spec("shouty").data["stream"]["rules"]
    assert [r["name"] for r in rules] == [r["name"] for r in
                                          registry.spec("openai").data["stream"]["rules"]]
    acc = toolwire.Accumulator("shouty", registry=registry)
    acc.feed(CHUNKS[0])
    acc.feed(chat_chunk({"done_word": "tool_calls"}))
    assert acc.complete
    assert "sniff" not in registry.spec("shouty").data["stream"]


# A demo format whose `append` rule writes wherever the event says (§9.3); the JS side holds
# the same demo in tools/js/test/stream.test.mjs.
_APPEND_DEMO = """spec_version: 1
format: demo
title: Demo format
doc_ref: https://example.invalid/docs
sniff: {when: "type(message) == 'object'", priority: 10}
items:
  - select: "message.calls"
    type_field: type
unknown_items: refuse
calls:
  - {type: call, name: "name", arguments: "args", id: "id"}
stream:
  framing: sse
  ready: at_close
  rules:
    - {name: start, init: {value: "{message: {role: 'assistant'}}"}}
    - name: call
      when: "type(call) == 'object'"
      open: {list: "message.calls", key: "index", value: "call"}
    - {name: text, append: {message.text: "piece", "message.calls[0].name": "name_piece"}}
"""


def test_an_append_into_a_slot_item_is_malformed_and_one_outside_every_slot_is_joined(
    tmp_path: Path,
) -> None:
    (tmp_path / "demo.yaml").write_text(_APPEND_DEMO, encoding="utf-8")
    acc = toolwire.Accumulator("demo", registry=toolwire.Registry.from_paths(tmp_path))
    acc.feed({"piece": "Hel"})
    acc.feed({"piece": "lo"})
    assert acc.snapshot()["message"]["text"] == "Hello"
    acc.feed({"call": {"type": "call", "name": "f"}, "index": 0})
    acc.feed({"piece": "!"})
    assert acc.snapshot()["message"]["text"] == "Hello!"
    with pytest.raises(toolwire.errors.MalformedStream,
                       match=r"inside an item of message\.calls") as err:
        acc.feed({"name_piece": "x"})
    assert err.value.rule == "text" and "update.append" in str(err.value)


_OVERLOADED = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}


@pytest.mark.parametrize("given", [None, "anthropic"], ids=["sniffed", "named"])
def test_a_stream_that_starts_with_the_providers_error_is_its_stream_error(
        given: str | None) -> None:
    with pytest.raises(toolwire.errors.StreamError) as caught:
        toolwire.read_stream(given, [_OVERLOADED])
    error = caught.value
    assert (error.format, error.error_code, error.error_message) == (
        "anthropic", "overloaded_error", "Overloaded")
    acc = toolwire.Accumulator()
    with pytest.raises(toolwire.errors.StreamError):
        acc.feed_bytes(b"event: error\ndata: " + json.dumps(_OVERLOADED).encode() + b"\n\n")
    assert acc.format == "anthropic"
    assert acc.reply(allow_incomplete=True).calls == ()


def test_a_first_error_event_names_the_provider_whose_error_body_it_is() -> None:
    gemini = {"error": {"code": 503, "message": "The model is overloaded.",
                        "status": "UNAVAILABLE"}}
    responses = {"type": "error", "sequence_number": 0, "code": "server_error",
                 "message": "The server had an error", "param": None}
    for event, fmt, code in ((gemini, "gemini", "UNAVAILABLE"),
                             (responses, "responses", "server_error")):
        with pytest.raises(toolwire.errors.StreamError) as caught:
            toolwire.read_stream(None, [event])
        assert (caught.value.format, caught.value.error_code) == (fmt, code)


def test_read_stream_takes_raw_bytes_as_feed_bytes_does() -> None:
    want = toolwire.read_stream("openai", CHUNKS)
    raw = sse(CHUNKS).encode()
    pieces = [raw[i:i + 7] for i in range(0, len(raw), 7)]  # cut anywhere
    assert toolwire.read_stream("openai", pieces) == want
    assert toolwire.read_stream(None, iter(pieces)) == want
    assert toolwire.read_stream(None, [bytearray(p) for p in pieces]) == want
    assert toolwire.read_stream(None, [memoryview(raw)]) == want
    assert toolwire.read_stream(None, raw) == want  # the stream's bytes whole
    assert toolwire.read_stream(None, raw.decode()) == want  # or its text
    ndjson = "".join(json.dumps(c) + "\n" for c in CHUNKS).encode()
    assert toolwire.read_stream("openai", [ndjson[:10], ndjson[10:]]) == want


def test_byte_lines_without_their_line_ends_are_named_as_such() -> None:
    lines = [f"data: {json.dumps(c)}".encode() for c in CHUNKS]  # requests' iter_lines()
    with pytest.raises(toolwire.errors.MalformedStream) as caught:
        toolwire.read_stream("openai", lines)
    assert "no line break" in caught.value.reason and "iter_lines()" in caught.value.reason
    assert isinstance(caught.value.__cause__, toolwire.errors.IncompleteStream)


def test_sse_text_given_as_an_event_points_to_feed_bytes() -> None:
    for piece in (f"data: {json.dumps(CHUNKS[0])}", b"event: ping"):
        with pytest.raises(toolwire.errors.MalformedStream) as caught:
            toolwire.Accumulator("openai").feed(piece)
        assert "it is SSE text" in caught.value.reason and "feed_bytes" in caught.value.reason
    with pytest.raises(toolwire.errors.MalformedStream) as caught:
        toolwire.Accumulator("openai").feed("{oops")
    assert "SSE" not in caught.value.reason


def test_one_finished_reply_given_as_the_stream_is_named_as_one() -> None:
    from openai.types.chat import ChatCompletion

    body = {"id": "c1", "object": "chat.completion", "created": 0, "model": "m", "choices": [
        {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Hi"}}]}
    for given in (body, ChatCompletion.model_validate(body)):
        for fmt in ("openai", None):
            with pytest.raises(toolwire.errors.MalformedStream) as caught:
                toolwire.read_stream(fmt, given)  # type: ignore[arg-type]
            error = caught.value
            assert (error.looks_like, error.finished_reply) == ("openai", True)
            assert "a finished openai reply, not a stream of events: read it with read()" in (
                error.reason)
            assert type(given).__name__ in error.reason
    with pytest.raises(toolwire.errors.MalformedStream) as caught:
        toolwire.read_stream("openai", CHUNKS[0])  # type: ignore[arg-type]
    assert not caught.value.finished_reply and "[event] for one" in caught.value.reason
