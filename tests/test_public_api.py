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


PUBLIC = {
    "Accumulator", "Registry", "Reply", "ServerToolCall", "StreamUpdate", "TextReply", "ToolCall",
    "Tools", "__version__", "convert", "errors", "extract", "extract_from_text",
    "extract_hermes_from_text", "extract_sniff", "from_fmt", "from_structured_output", "locate",
    "read", "read_stream", "read_text", "sniff_format", "types",
}


def test_the_public_face_is_exactly_these_names() -> None:
    assert set(toolwire.__all__) == PUBLIC
    for name in toolwire.__all__:
        assert getattr(toolwire, name) is not None


def test_dir_shows_the_public_names_and_modules_only() -> None:
    shown = set(dir(toolwire))
    assert shown == PUBLIC | {"batch", "cli", "conformance", "interop", "spark"}
    assert not {"TYPE_CHECKING", "annotations", "sys", "Any"} & shown


def test_every_exception_lives_in_toolwire_errors() -> None:
    import inspect

    from toolwire import errors

    exceptions = {name for name, value in vars(errors).items()
                  if inspect.isclass(value) and issubclass(value, BaseException)}
    assert exceptions == set(errors.__all__) - {"SpecProblem"}
    for name in exceptions:
        assert getattr(errors, name).__module__ == "toolwire.errors"
    tree = errors.__doc__ or ""
    for name in exceptions:
        assert name in tree, f"{name} is missing from the error tree in the docstring"


def test_the_parts_of_a_reply_live_in_toolwire_types() -> None:
    reply = toolwire.read("openai", CHAT)
    assert isinstance(reply.items[0], toolwire.types.ItemRecord)
    assert isinstance(reply.call_records[0], toolwire.types.CallRecord)


def test_error_codes_are_stable() -> None:
    assert toolwire.errors.UnknownFormat.code == "unknown_format"
    assert toolwire.errors.UnmappedCall.code == "unmapped_call"
    assert toolwire.errors.UnknownItemType.code == "unknown_item_type"
    assert toolwire.errors.MalformedResponse.code == "malformed_response"
    assert toolwire.errors.ProviderError.code == "provider_error"
    assert toolwire.errors.SpecError.code == "spec_error"
    for cls in (toolwire.errors.UnknownFormat, toolwire.errors.UnmappedCall,
                toolwire.errors.MalformedResponse, toolwire.errors.ProviderError,
                toolwire.errors.SpecError):
        assert issubclass(cls, toolwire.errors.ToolwireError)


def test_extract_accepts_dict_text_and_bytes_alike() -> None:
    as_dict = toolwire.extract("openai", CHAT)
    assert toolwire.extract("openai", json.dumps(CHAT)) == as_dict
    assert toolwire.extract("openai", json.dumps(CHAT).encode()) == as_dict
    assert [c.name for c in as_dict] == ["f", "g"]


def test_none_sniffs_the_format_wherever_a_wire_format_is_taken() -> None:
    assert toolwire.extract(None, CHAT) == toolwire.extract("openai", CHAT)
    assert toolwire.locate(None, CHAT) == toolwire.locate("openai", CHAT)
    assert toolwire.read(None, CHAT) == toolwire.read("openai", CHAT)
    registry = toolwire.Registry.default()
    assert registry.extract(None, json.dumps(CHAT)) == registry.extract("openai", CHAT)


def test_extract_with_none_refuses_a_shape_no_format_knows_as_read_does() -> None:
    for verb in (toolwire.extract, toolwire.locate, toolwire.read):
        with pytest.raises(toolwire.errors.UnknownFormat):
            verb(None, {"hello": "world"})
    assert toolwire.extract_sniff({"hello": "world"}) == []


def test_a_format_that_is_neither_a_name_nor_none_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        toolwire.extract(42, CHAT)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        toolwire.from_fmt(None, {})  # type: ignore[arg-type]


def test_text_formats_and_tool_lists_must_be_named() -> None:
    for call in (lambda: toolwire.read_text(None, "x"),  # type: ignore[arg-type]
                 lambda: toolwire.extract_from_text(None, "x"),  # type: ignore[arg-type]
                 lambda: toolwire.Tools(None, {"tools": []})):  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="not sniffed"):
            call()


def test_unknown_format_names_the_known_ones() -> None:
    with pytest.raises(toolwire.errors.UnknownFormat) as caught:
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
    with pytest.raises(toolwire.errors.UnknownFormat):
        toolwire.read(None, {"hello": "world"})


def test_responses_computer_call_is_refused_with_its_index() -> None:
    reply = {"output": [
        {"type": "message", "id": "m", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "clicking", "annotations": []}]},
        {"type": "computer_call", "id": "cu_1", "call_id": "call_1", "status": "completed",
         "action": {"type": "click", "x": 1, "y": 2, "button": "left"},
         "pending_safety_checks": []},
    ]}
    with pytest.raises(toolwire.errors.UnmappedCall) as caught:
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
    with pytest.raises(toolwire.errors.MalformedResponse) as caught:
        toolwire.extract("openai", "[1, 2]")
    assert caught.value.format == "openai"
    with pytest.raises(toolwire.errors.MalformedResponse):
        toolwire.extract("openai", b"\xff\xfe")
    with pytest.raises(toolwire.errors.MalformedResponse):
        toolwire.extract("openai", '{"choices": NaN}')


def test_reply_to_dict_is_json() -> None:
    data = toolwire.read("openai", CHAT).to_dict()
    assert json.loads(json.dumps(data)) == data
    assert [call["fate"] for call in data["calls"]] == ["runnable", "runnable"]
    assert "fates" not in data  # the fate is each call's field, not a parallel array
