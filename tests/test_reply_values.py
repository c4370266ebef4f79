"""The Reply as a value: its JSON shape and round trip, the fate of each call, the error
result, the partial reply an UnmappedCall carries, choices and the structured-output path.

Spec-level behaviour (what a reply of each format yields) lives in the conformance suite;
this file holds the Python API around it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import toolwire
from toolwire import Registry, Reply, ToolCall
from toolwire.errors import NotDeclared, UnmappedCall

from conformance import cases, each_test

CUSTOM_BESIDE_FUNCTION = {"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
    "role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}},
        {"id": "call_2", "type": "custom", "custom": {"name": "code_exec", "input": "print(1)"}},
        {"id": "call_3", "type": "function", "function": {"name": "get_time", "arguments": "{}"}},
    ]}}]}

WEB_SEARCH = {"type": "message", "role": "assistant", "stop_reason": "end_turn", "content": [
    {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
     "input": {"query": "EUR USD rate"}},
    {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
    {"type": "tool_use", "id": "toolu_1", "name": "convert", "input": {"amount": 5}},
]}


def _replies() -> list[tuple[str, Reply]]:
    found = []
    for name, case, test in each_test(cases()):
        if "error" in test["expect"] or "structured_output" in test:
            continue
        found.append((name, toolwire.read(case.data["format"], test["response"],
                                          strict=test.get("strict"),
                                          choice=test.get("choice", 0))))
    return found


def test_every_conformance_reply_round_trips_through_json() -> None:
    replies = _replies()
    assert len(replies) > 100
    for name, reply in replies:
        text = json.dumps(reply.to_dict(), allow_nan=False)
        assert Reply.from_dict(json.loads(text)) == reply, name


def test_each_call_carries_its_fate_and_record_in_the_json() -> None:
    data = toolwire.read("anthropic", WEB_SEARCH).to_dict()
    (call,) = data["calls"]
    assert call["fate"] == "runnable"
    assert call["record"] == {"item_index": 2, "location": "content[2]", "item_type": "tool_use",
                              "entry": 0, "arguments_selected": True}
    assert "fates" not in data


def test_server_call_json_keeps_its_input() -> None:
    reply = toolwire.read("anthropic", WEB_SEARCH)
    search = reply.server_calls[0]
    assert search.input == {"query": "EUR USD rate"}
    assert reply.to_dict()["server_calls"][0]["input"] == {"query": "EUR USD rate"}
    assert toolwire.ServerToolCall.from_dict(search.to_dict(raw=True)) == search
    assert Reply.from_dict(reply.to_dict(raw=True)).server_calls[0].raw == search.raw


def test_from_dict_refuses_a_fate_the_call_does_not_have() -> None:
    data = toolwire.read("anthropic", WEB_SEARCH).to_dict()
    data["calls"][0]["fate"] = "rejected"
    with pytest.raises(ValueError, match="fate 'rejected'"):
        Reply.from_dict(data)


def test_from_dict_refuses_unknown_keys() -> None:
    data = toolwire.read("anthropic", WEB_SEARCH).to_dict()
    with pytest.raises(ValueError, match="unknown keys"):
        Reply.from_dict({**data, "fates": ["runnable"]})
    data["unknown"] = [{"item_index": 0, "location": "content[0]", "item_type": None}]
    with pytest.raises(ValueError, match="missing keys"):
        Reply.from_dict(data)


def test_error_result_of_a_call_with_nothing_wrong_is_a_value_error() -> None:
    call = toolwire.read("anthropic", WEB_SEARCH).calls[0]
    with pytest.raises(ValueError, match="no error to report"):
        Reply.error_result(call)


def test_error_result_names_the_reason_of_a_rejected_call() -> None:
    broken = ToolCall.from_raw("f", "{oops")
    reply = Reply("openai", (broken,))
    assert reply.fates() == ("rejected",)
    text = reply.error_result(broken)
    assert text.startswith("Error: the arguments of the call to 'f' could not be decoded (")
    assert broken.arguments_error and f"({broken.arguments_error})" in text


def test_unmapped_call_carries_the_partial_reply_from_every_entry_point() -> None:
    for run in (
        lambda: toolwire.read("openai", CUSTOM_BESIDE_FUNCTION),
        lambda: toolwire.extract("openai", CUSTOM_BESIDE_FUNCTION),
        lambda: toolwire.locate("openai", CUSTOM_BESIDE_FUNCTION),
        lambda: toolwire.read(None, json.dumps(CUSTOM_BESIDE_FUNCTION)),
    ):
        with pytest.raises(UnmappedCall) as caught:
            run()
        error = caught.value
        assert (error.item_index, error.item_type) == (1, "custom")
        assert error.reply is not None
        assert [c.name for c in error.reply.runnable_calls] == ["get_weather", "get_time"]
        (refused,) = error.reply.refused
        assert (refused.item_index, refused.item_type, refused.code) == (1, "custom",
                                                                        "unmapped_call")
        assert "custom.input" in refused.reason
        assert error.to_dict()["reply"] == error.reply.to_dict()


def test_reply_refuses_call_records_that_do_not_match_the_calls() -> None:
    reply = toolwire.read("anthropic", WEB_SEARCH)
    with pytest.raises(ValueError, match="1 call records for 2 calls"):
        Reply("anthropic", reply.calls * 2, call_records=reply.call_records)


def test_choice_must_be_a_non_negative_int() -> None:
    with pytest.raises(TypeError):
        toolwire.read("openai", CUSTOM_BESIDE_FUNCTION, choice="1")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        toolwire.read("openai", CUSTOM_BESIDE_FUNCTION, choice=-1)


def test_other_choices_counts_the_alternatives_not_read() -> None:
    two = {"choices": [{"index": i, "message": {"role": "assistant", "content": "hi"}}
                       for i in range(3)]}
    reply = toolwire.read("openai", two)
    assert (reply.choice, reply.choice_count, reply.other_choices) == (0, 3, 2)
    assert toolwire.read("openai", two, choice=2).choice == 2
    assert toolwire.read("anthropic", WEB_SEARCH).other_choices == 0


def test_choice_never_changes_the_callers_response() -> None:
    two = {"choices": [{"message": {"content": "a"}}, {"message": {"content": "{}"}}]}
    before = json.dumps(two)
    toolwire.read("openai", two, choice=1)
    toolwire.from_structured_output("openai", two, "t", choice=1)
    assert json.dumps(two) == before


def test_structured_output_call_is_synthetic_and_keeps_the_text() -> None:
    reply = {"choices": [{"message": {"role": "assistant", "content": "{\"a\": [1, 2]}"}}]}
    call = toolwire.from_structured_output("openai", reply, "answer")
    assert call == ToolCall("answer", {"a": [1, 2]}, synthetic=True)
    assert call.raw_arguments == "{\"a\": [1, 2]}"
    assert toolwire.from_structured_output(None, json.dumps(reply), "answer") == call


def test_structured_output_needs_a_tool_name() -> None:
    reply = {"choices": [{"message": {"content": "{}"}}]}
    with pytest.raises(ValueError, match="tool_name"):
        toolwire.from_structured_output("openai", reply, "")


def test_structured_output_of_a_spec_without_a_selector_is_not_declared(tmp_path: Path) -> None:
    (tmp_path / "plain.yaml").write_text(
        "spec_version: 1\nformat: plain\ntitle: Plain\ndoc_ref: https://example.invalid\n"
        "items: [{select: \"calls\", type_const: call}]\nunknown_items: refuse\n"
        "calls: [{type: call, name: \"name\", arguments: \"args\"}]\n",
        encoding="utf-8",
    )
    registry = Registry.from_paths(tmp_path)
    with pytest.raises(NotDeclared) as caught:
        registry.from_structured_output("plain", {"calls": []}, "answer")
    assert caught.value.part == "structured_output"
    assert caught.value.code == "not_declared"


def test_structured_output_of_non_text_is_malformed() -> None:
    reply: dict[str, Any] = {"choices": [{"message": {"content": {"a": 1}}}]}
    with pytest.raises(toolwire.errors.MalformedResponse, match="yields a dict"):
        toolwire.from_structured_output("openai", reply, "answer")


def test_every_bundled_base_spec_declares_structured_output() -> None:
    registry = Registry.bundled()
    for fmt, spec in registry.specs().items():
        assert spec.structured_output is not None, fmt
