"""The module-level API of DESIGN.md §1, on the bundled specs."""

from __future__ import annotations

import json
from typing import Any

import pytest

import toolwire

CHAT: dict[str, Any] = {
    "choices": [
        {
            "finish_reason": "tool_calls",
            "message": {
                "tool_calls": [
                    {"id": "c1", "type": "function",
                     "function": {"name": "f", "arguments": '{"a": 1}'}},
                    {"id": "c2", "type": "function",
                     "function": {"name": "g", "arguments": "{}"}},
                ]
            },
        }
    ]
}


def test_public_names_are_exported() -> None:
    for name in ("ToolCall", "ServerToolCall", "Reply", "locate", "extract", "extract_sniff",
                 "sniff_format", "from_fmt", "read", "Registry", "ToolwireError",
                 "UnknownFormat", "UnmappedCall", "MalformedResponse", "ProviderError",
                 "SpecError", "extract_hermes_from_text", "extract_from_text"):
        assert name in toolwire.__all__
        assert hasattr(toolwire, name)


def test_error_codes_are_stable() -> None:
    assert toolwire.UnknownFormat.code == "unknown_format"
    assert toolwire.UnmappedCall.code == "unmapped_call"
    assert toolwire.UnknownItemType.code == "unknown_item_type"
    assert toolwire.MalformedResponse.code == "malformed_response"
    assert toolwire.ProviderError.code == "provider_error"
    assert toolwire.SpecError.code == "spec_error"
    for cls in (toolwire.UnknownFormat, toolwire.UnmappedCall, toolwire.MalformedResponse,
                toolwire.ProviderError, toolwire.SpecError):
        assert issubclass(cls, toolwire.ToolwireError)


def test_extract_accepts_dict_text_and_bytes_alike() -> None:
    as_dict = toolwire.extract("openai", CHAT)
    assert toolwire.extract("openai", json.dumps(CHAT)) == as_dict
    assert toolwire.extract("openai", json.dumps(CHAT).encode()) == as_dict
    assert [c.name for c in as_dict] == ["f", "g"]


def test_extract_raises_type_error_for_a_non_string_format() -> None:
    with pytest.raises(TypeError):
        toolwire.extract(None, CHAT)  # type: ignore[arg-type]


def test_unknown_format_names_the_known_ones() -> None:
    with pytest.raises(toolwire.UnknownFormat) as caught:
        toolwire.extract("nope", CHAT)
    assert caught.value.format == "nope"
    assert "openai" in caught.value.known


def test_locate_returns_the_raw_items_unparsed() -> None:
    items = toolwire.locate("openai", CHAT)
    assert items == CHAT["choices"][0]["message"]["tool_calls"]


def test_from_fmt_reads_one_located_item() -> None:
    item = toolwire.locate("openai", CHAT)[0]
    assert toolwire.from_fmt("openai", item) == toolwire.ToolCall("f", {"a": 1}, "c1")
    assert toolwire.from_fmt("openai", {"type": "function", "function": {}}) is None


def test_extract_sniff_gives_nothing_for_an_unknown_shape() -> None:
    assert toolwire.extract_sniff({"hello": "world"}) == []
    assert toolwire.sniff_format({"hello": "world"}) is None
    assert toolwire.sniff_format("not json") is None


def test_read_with_no_format_sniffs() -> None:
    reply = toolwire.read(None, CHAT)
    assert reply.format == "openai"
    assert reply.finish_reason == "tool_calls"
    with pytest.raises(toolwire.UnknownFormat):
        toolwire.read(None, {"hello": "world"})


def test_responses_computer_call_is_refused_with_its_index() -> None:
    reply = {"output": [
        {"type": "message", "id": "m", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "clicking", "annotations": []}]},
        {"type": "computer_call", "id": "cu_1", "call_id": "call_1", "status": "completed",
         "action": {"type": "click", "x": 1, "y": 2, "button": "left"},
         "pending_safety_checks": []},
    ]}
    with pytest.raises(toolwire.UnmappedCall) as caught:
        toolwire.extract("responses", reply)
    assert (caught.value.item_index, caught.value.item_type) == (1, "computer_call")
    assert caught.value.reason


def test_truncated_chat_reply_drops_the_cut_call() -> None:
    cut = {"choices": [{"finish_reason": "length", "message": {"tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        {"id": "c2", "type": "function", "function": {"name": "g", "arguments": '{"city": "Par'}},
    ]}}]}
    reply = toolwire.read("openai", cut)
    assert reply.truncated is True
    assert reply.calls[1].arguments_undecodable is True
    assert reply.dropped_calls == (reply.calls[1],)
    assert reply.runnable_calls == (reply.calls[0],)
    assert reply.rejected_calls == ()


def test_truncated_reply_drops_its_last_call_even_when_it_decodes() -> None:
    cut = {"choices": [{"finish_reason": "length", "message": {"tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "get_wea", "arguments": ""}},
    ]}}]}
    reply = toolwire.read("openai", cut)
    assert reply.calls[0].arguments_undecodable is False
    assert reply.fates() == ("dropped",)


def test_undecodable_call_in_a_complete_reply_is_rejected_with_its_error() -> None:
    bad = {"choices": [{"finish_reason": "tool_calls", "message": {"tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{oops}"}},
    ]}}]}
    reply = toolwire.read("openai", bad)
    assert reply.rejected_calls == reply.calls
    message = reply.error_result(reply.calls[0])
    assert "expected a key in double quotes" in message
    assert reply.calls[0].arguments_error_code == "expected-key"
    assert "'f'" in message


def test_malformed_response_says_which_format() -> None:
    with pytest.raises(toolwire.MalformedResponse) as caught:
        toolwire.extract("openai", "[1, 2]")
    assert caught.value.format == "openai"
    with pytest.raises(toolwire.MalformedResponse):
        toolwire.extract("openai", b"\xff\xfe")
    with pytest.raises(toolwire.MalformedResponse):
        toolwire.extract("openai", '{"choices": NaN}')


def test_reply_to_dict_is_json() -> None:
    data = toolwire.read("openai", CHAT).to_dict()
    assert json.loads(json.dumps(data)) == data
    assert [call["fate"] for call in data["calls"]] == ["runnable", "runnable"]
    assert "fates" not in data  # the fate is each call's field, not a parallel array
