"""Streams under hostile input: faults stay, framing and accumulation stay linear.

* Every fault is sticky (specs/README.md §9.5): a caller that logs a fault and feeds on never
  gets a reply, and re-raising never grows one traceback.
* Framing (§9.10) is linear in the input and bounded by a maximum event size; bytes that are
  not UTF-8 are ``malformed_stream``; a chunk's updates before a failure are not lost.
* Accumulation is linear in calls and chunks, whatever the shape (held undecodable slots,
  many ids). Time growth is checked as the ratio of n to 4n in one run, with the garbage
  collector paused (its full collections are not the code's growth): linear code gives about
  4, quadratic code 16; the bound is 8.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from typing import Any

import pytest
from growth import GROWTH_BOUND, growth
from stream_chunks import chat_calls, chat_chunk

import toolwire


def _chunks(data: bytes, size: int = 4096) -> list[bytes]:
    return [data[i:i + size] for i in range(0, len(data), size)]


def _feeding(fmt: str, chunks: list[bytes]) -> Callable[[], object]:
    def run() -> None:
        acc = toolwire.Accumulator(fmt)
        for chunk in chunks:
            acc.feed_bytes(chunk)
    return run


# -- sticky faults ----------------------------------------------------------------------


def test_an_event_that_is_not_json_fails_the_stream_for_good() -> None:
    chunks = chat_calls(("call_a", "delete_path", '{"path": "/home/alice/tmp"}'))
    acc = toolwire.Accumulator("openai")
    acc.feed(chunks[0])
    with pytest.raises(toolwire.errors.MalformedStream):
        acc.feed('{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function":')
    with pytest.raises(toolwire.errors.MalformedStream):
        acc.feed(chunks[1])
    with pytest.raises(toolwire.errors.MalformedStream):
        acc.reply()
    with pytest.raises(toolwire.errors.MalformedStream):
        acc.reply(allow_incomplete=True)


def test_bytes_that_are_not_utf8_are_a_malformed_stream_that_stays() -> None:
    acc = toolwire.Accumulator("openai")
    with pytest.raises(toolwire.errors.MalformedStream, match="not UTF-8"):
        acc.feed_bytes(b'data: {"object": "chat.completion.chunk", "id": "\xff"}\n\n')
    with pytest.raises(toolwire.errors.MalformedStream, match="not UTF-8"):
        acc.feed_bytes(b"data: {}\n\n")
    with pytest.raises(toolwire.errors.MalformedStream):
        acc.close()


def test_an_event_after_close_or_reply_fails_the_stream() -> None:
    chunks = chat_calls(("call_a", "f", "{}"))
    acc = toolwire.Accumulator("openai")
    for chunk in chunks:
        acc.feed(chunk)
    acc.close()
    acc.close()  # closing twice is harmless
    with pytest.raises(toolwire.errors.MalformedStream, match="after the input was closed"):
        acc.feed(chat_chunk({"content": "more"}))
    with pytest.raises(toolwire.errors.MalformedStream):
        acc.reply()
    done = toolwire.Accumulator("openai")
    for chunk in chunks:
        done.feed(chunk)
    done.reply()
    with pytest.raises(toolwire.errors.MalformedStream):
        done.feed_bytes(b"data: {}\n\n")


def test_a_failure_is_raised_again_fresh_from_the_kept_one() -> None:
    acc = toolwire.Accumulator("openai")
    with pytest.raises(toolwire.errors.MalformedStream) as first:
        acc.feed("not json")
    with pytest.raises(toolwire.errors.MalformedStream) as again:
        acc.feed(chat_chunk({}))
    assert again.value is not first.value
    assert again.value.__cause__ is first.value
    assert again.value.to_dict() == first.value.to_dict()


def test_many_retries_keep_the_traceback_length_constant() -> None:
    acc = toolwire.Accumulator("openai")
    with pytest.raises(toolwire.errors.MalformedStream) as first:
        acc.feed("not json")
    kept = len(traceback.extract_tb(first.value.__traceback__))
    lengths = set()
    for _ in range(2000):
        try:
            acc.feed(chat_chunk({}))
        except toolwire.errors.MalformedStream as exc:
            lengths.add(len(traceback.extract_tb(exc.__traceback__)))
            assert exc.__cause__ is first.value
    assert len(lengths) == 1
    assert len(traceback.extract_tb(first.value.__traceback__)) == kept


# -- feed_bytes: what came before a failure -----------------------------------------------


def _anthropic_sse(events: list[dict[str, Any]]) -> bytes:
    return b"".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events)


_CALL_THEN_ERROR = [
    {"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant",
                                          "content": [], "stop_reason": None}},
    {"type": "content_block_start", "index": 0,
     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}},
    {"type": "content_block_delta", "index": 0,
     "delta": {"type": "input_json_delta", "partial_json": '{"a": 1}'}},
    {"type": "content_block_stop", "index": 0},
    {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
    {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
]


def test_feed_bytes_hands_out_the_updates_before_an_in_band_error_then_raises_it() -> None:
    acc = toolwire.Accumulator("anthropic")
    updates = acc.feed_bytes(_anthropic_sse(_CALL_THEN_ERROR))
    assert [(u.kind, u.call.id if u.call else None) for u in updates] == [("call", "toolu_1")]
    with pytest.raises(toolwire.errors.StreamError) as caught:
        acc.feed_bytes(b"\n")
    assert caught.value.error_code == "overloaded_error"
    with pytest.raises(toolwire.errors.StreamError):
        acc.reply()
    partial = acc.reply(allow_incomplete=True)
    assert [c.id for c in partial.calls] == ["toolu_1"]


def test_an_error_with_nothing_before_it_in_the_chunk_is_raised_at_once() -> None:
    acc = toolwire.Accumulator("anthropic")
    acc.feed_bytes(_anthropic_sse(_CALL_THEN_ERROR[:5]))
    with pytest.raises(toolwire.errors.StreamError):
        acc.feed_bytes(_anthropic_sse(_CALL_THEN_ERROR[5:]))


# -- the maximum event size ------------------------------------------------------------


@pytest.mark.parametrize("data", [
    b"data: " + b"x" * 5000 + b"\n\n",  # one SSE event, whole
    b"data: " + b"x" * 5000,  # an SSE event still arriving
    b": keep-alive\n" * 500,  # comment lines without a blank line
    b'{"message": "' + b"y" * 5000,  # an NDJSON line still arriving
    b'{"message": "' + b"y" * 5000 + b'"}\n',  # an NDJSON line, whole
    b" " * 5000,  # blanks of one line before the first event
], ids=["sse-event", "sse-pending", "comments", "ndjson-pending", "ndjson-line", "blank-line"])
def test_an_event_beyond_the_maximum_size_is_malformed(data: bytes) -> None:
    acc = toolwire.Accumulator("openai", max_event_size=4096)
    with pytest.raises(toolwire.errors.MalformedStream, match="maximum event size"):
        for chunk in _chunks(data, 1000):
            acc.feed_bytes(chunk)
    with pytest.raises(toolwire.errors.MalformedStream):
        acc.reply()


def test_the_maximum_event_size_is_the_callers_to_set() -> None:
    chunks = chat_calls(("call_a", "f", json.dumps({"text": "z" * 10000})))
    data = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks).encode()
    small = toolwire.Accumulator("openai", max_event_size=1000)
    with pytest.raises(toolwire.errors.MalformedStream):
        small.feed_bytes(data)
    large = toolwire.Accumulator("openai", max_event_size=100_000)
    large.feed_bytes(data)
    assert large.reply().calls[0].arguments == {"text": "z" * 10000}
    for wrong in (0, -1, 1.5, "10"):
        with pytest.raises(ValueError):
            toolwire.Accumulator("openai", max_event_size=wrong)  # type: ignore[arg-type]


def test_blank_lines_before_the_first_event_are_not_an_event() -> None:
    chunks = chat_calls(("call_a", "f", "{}"))
    data = b"\r\n" * 20000 + "".join(f"data: {json.dumps(c)}\n\n" for c in chunks).encode()
    acc = toolwire.Accumulator("openai", max_event_size=1000)
    for chunk in _chunks(data, 100):
        acc.feed_bytes(chunk)
    assert [c.id for c in acc.reply().calls] == ["call_a"]


# -- linear framing --------------------------------------------------------------------


def test_one_sse_event_fed_in_pieces_is_framed_in_linear_time() -> None:
    def prepare(n: int) -> Callable[[], object]:
        event = chat_chunk({"content": "x" * (n * 1024)})
        return _feeding("openai", _chunks(f"data: {json.dumps(event)}\n\n".encode()))
    assert growth(prepare, 1024) < GROWTH_BOUND


def test_comment_lines_without_a_blank_line_are_framed_in_linear_time() -> None:
    def prepare(n: int) -> Callable[[], object]:
        return _feeding("openai", [b": keep-alive\n"] * n)
    assert growth(prepare, 10000) < GROWTH_BOUND


def test_one_ndjson_line_fed_in_pieces_is_framed_in_linear_time() -> None:
    def prepare(n: int) -> Callable[[], object]:
        line = json.dumps({"model": "m", "message": {"role": "assistant", "content": "y" * n},
                           "done": False})
        return _feeding("ollama", _chunks(line.encode() + b"\n"))
    assert growth(prepare, 2 * 1024 * 1024) < GROWTH_BOUND


def test_blank_bytes_before_the_first_event_are_dropped_in_linear_time() -> None:
    def prepare(n: int) -> Callable[[], object]:
        return _feeding("openai", _chunks(b"\r\n" * n))
    assert growth(prepare, 1024 * 1024) < GROWTH_BOUND


# -- linear accumulation ---------------------------------------------------------------


def _gemini_undecodable_parts(n: int) -> Callable[[], object]:
    chunks = [{"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "f", "args": "x"}}]}}]} for _ in range(n)]
    chunks.append({"candidates": [{"content": {"role": "model", "parts": []},
                                   "finishReason": "STOP"}]})

    def run() -> None:
        acc = toolwire.Accumulator("gemini")
        for chunk in chunks:
            acc.feed(chunk)
        assert len(acc.reply().calls) == n
    return run


def test_held_undecodable_calls_cost_linear_time() -> None:
    assert growth(_gemini_undecodable_parts, 1000) < GROWTH_BOUND


def _chat_calls_by_id(n: int) -> Callable[[], object]:
    chunks = [chat_chunk({"tool_calls": [{"index": i, "id": f"call_{i}", "type": "function",
                                          "function": {"name": "f", "arguments": "{"}}]})
              for i in range(n)]
    chunks += [chat_chunk({"tool_calls": [{"id": f"call_{i}", "function": {"arguments": "}"}}]})
               for i in range(n)]
    chunks.append(chat_chunk({}, "tool_calls"))

    def run() -> None:
        acc = toolwire.Accumulator("openai")
        for chunk in chunks:
            acc.feed(chunk)
        assert len(acc.reply().runnable_calls) == n
    return run


def test_fragments_matched_by_id_cost_linear_time_in_calls() -> None:
    assert growth(_chat_calls_by_id, 2000) < GROWTH_BOUND


def _name_in_fragments(n: int) -> Callable[[], object]:
    chunks = [chat_chunk({"tool_calls": [{"index": 0, "id": "call_a", "type": "function",
                                          "function": {"name": "f", "arguments": ""}}]})]
    chunks += [chat_chunk({"tool_calls": [{"index": 0, "function": {"name": "n"}}]})
               for _ in range(n)]
    chunks.append(chat_chunk({}, "tool_calls"))

    def run() -> None:
        acc = toolwire.Accumulator("openai")
        for chunk in chunks:
            acc.feed(chunk)
        assert len(acc.reply().calls[0].name) == n + 1
    return run


def test_a_name_in_many_fragments_is_joined_in_linear_time() -> None:
    assert growth(_name_in_fragments, 4000) < GROWTH_BOUND


def test_an_event_type_that_is_not_a_string_is_malformed_not_a_type_error() -> None:
    for fmt in ("anthropic", "responses", "cohere"):
        with pytest.raises(toolwire.errors.MalformedStream):
            toolwire.Accumulator(fmt).feed({"type": {"name": "message_start"}})
