"""``content``: every wire format's assistant text as ``Reply.text``; calls written in it lifted."""

from __future__ import annotations

from typing import Any

import pytest

import toolwire

CALL = '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'
TEXT = f"Let me check.\n{CALL}"

REPLIES: dict[str, dict[str, Any]] = {
    "openai": {"choices": [{"message": {"content": TEXT}, "finish_reason": "stop"}]},
    "vllm": {"choices": [{"message": {"content": TEXT}, "finish_reason": "stop"}]},
    "mistral": {"choices": [{"message": {"content": [{"type": "text", "text": TEXT}]},
                             "finish_reason": "stop"}]},
    "anthropic": {"content": [{"type": "thinking", "thinking": "hmm"},
                              {"type": "text", "text": TEXT}], "stop_reason": "end_turn"},
    "bedrock": {"output": {"message": {"content": [{"text": TEXT}]}}, "stopReason": "end_turn"},
    "cohere": {"message": {"content": [{"type": "text", "text": TEXT}]},
               "finish_reason": "COMPLETE"},
    "gemini": {"candidates": [{"content": {"parts": [{"text": "hmm", "thought": True},
                                                     {"text": TEXT}]}, "finishReason": "STOP"}]},
    "ollama": {"message": {"content": TEXT}, "done_reason": "stop"},
    "responses": {"output": [{"type": "message",
                              "content": [{"type": "output_text", "text": TEXT}]}],
                  "status": "completed"},
}


@pytest.mark.parametrize("fmt", sorted(REPLIES))
def test_reply_text_is_the_assistant_text_without_reasoning(fmt: str) -> None:
    assert toolwire.read(fmt, REPLIES[fmt]).text == TEXT


@pytest.mark.parametrize("fmt", sorted(REPLIES))
def test_text_format_lifts_the_calls_out_of_the_assistant_text(fmt: str) -> None:
    reply = toolwire.read(fmt, REPLIES[fmt], text_format="hermes")
    assert reply.text == "Let me check."
    assert [(c.name, c.arguments) for c in reply.calls] == [("get_weather", {"city": "Paris"})]
    assert reply.fates() == ("runnable",)


def test_every_bundled_wire_format_reads_its_text() -> None:
    registry = toolwire.Registry.default()
    missing = [fmt for fmt in registry.formats() if registry.spec(fmt).content is None]
    assert missing == []


def test_text_parts_are_joined_and_a_reply_without_text_has_none() -> None:
    joined = {"content": [{"type": "text", "text": "A"}, {"type": "tool_use", "id": "t",
              "name": "f", "input": {}}, {"type": "text", "text": "B"}], "stop_reason": "tool_use"}
    reply = toolwire.read("anthropic", joined)
    assert (reply.text, [c.name for c in reply.calls]) == ("AB", ["f"])
    calls_only = {"choices": [{"message": {"content": None, "tool_calls": []},
                               "finish_reason": "tool_calls"}]}
    assert toolwire.read("openai", calls_only, text_format="hermes").text is None


def test_wire_calls_come_first_and_text_params_reach_the_text_spec() -> None:
    body = {"choices": [{"message": {
        "content": '<function_call>{"name": "b", "arguments": {}}</function_call>',
        "tool_calls": [{"id": "c1", "type": "function",
                        "function": {"name": "a", "arguments": "{}"}}]},
        "finish_reason": "tool_calls"}]}
    reply = toolwire.read("openai", body, text_format="hermes",
                          text_params={"tag": "function_call"})
    assert [c.name for c in reply.calls] == ["a", "b"]
    assert reply.text == ""


def test_reasoning_in_the_text_is_cut_from_reply_text() -> None:
    body = {"message": {"content": "<seed:think>plan</seed:think>Sure.<seed:tool_call>"
            "<function=f></function></seed:tool_call>"}, "done_reason": "stop"}
    reply = toolwire.read("ollama", body, text_format="seed_oss")
    assert (reply.text, [c.name for c in reply.calls]) == ("Sure.", ["f"])


def test_an_unknown_text_format_is_an_unknown_format() -> None:
    with pytest.raises(toolwire.errors.UnknownFormat):
        toolwire.read("openai", REPLIES["openai"], text_format="nope")


def test_a_reply_with_wire_and_lifted_calls_round_trips_through_json() -> None:
    reply = {"choices": [{"finish_reason": "tool_calls", "message": {
        "content": 'Both. <tool_call>{"name": "g", "arguments": {"b": 2}}</tool_call>',
        "tool_calls": [{"id": "c1", "type": "function",
                        "function": {"name": "f", "arguments": "{}"}}]}}]}
    read = toolwire.read("openai", reply, text_format="hermes")
    data = read.to_dict()
    assert [c["name"] for c in data["calls"]] == ["f", "g"]
    assert data["calls"][0]["record"] is not None and data["calls"][1]["record"] is None
    again = toolwire.Reply.from_dict(data)
    assert again == read and again.call_records == read.call_records


def test_lifted_calls_are_typed_and_checked_by_the_offered_tools() -> None:
    body = {"choices": [{"finish_reason": "stop", "message": {"content": (
        "<tool_call>\n<function=get_weather>\n<parameter=days>\n3\n</parameter>\n"
        "</function>\n</tool_call>")}}]}
    request = {"tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"days": {"type": "string"}}, "required": ["days"]}}}]}
    untyped = toolwire.read("openai", body, text_format="qwen3_coder")
    assert untyped.calls[0].arguments == {"days": 3}  # guessed without a schema
    typed = toolwire.read("openai", body, text_format="qwen3_coder", tools=request)
    assert typed.calls[0].arguments == {"days": "3"}  # the tool's schema says string
    assert typed.fates() == ("runnable",)


def test_text_regions_that_gave_no_call_are_skipped_records_of_the_reply() -> None:
    text = ('Hi <tool_call>{"name": "f", "arguments": {}}</tool_call>'
            " and <tool_call>not json</tool_call> done.")
    body = {"choices": [{"finish_reason": "stop", "message": {
        "content": text, "tool_calls": [{"id": "c1", "type": "function",
                                         "function": {"arguments": "{}"}}]}}]}
    reply = toolwire.read("openai", body, text_format="hermes")
    assert [c.name for c in reply.calls] == ["f"]
    start = text.index("<tool_call>not")
    end = start + len("<tool_call>not json</tool_call>")
    wire, lifted = reply.skipped  # the wire's own record (a call without a name) comes first
    assert wire.item_index == 0
    assert (lifted.item_index, lifted.location, lifted.item_type) == (
        None, f"content[{start}:{end}]", "not-a-call")
    assert lifted.reason.startswith("in the assistant text read as hermes")
    assert toolwire.Reply.from_dict(reply.to_dict()) == reply
    assert toolwire.read("openai", body).skipped == (wire,)

