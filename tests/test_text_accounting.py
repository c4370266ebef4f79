"""``TextReply``'s account of a reply (specs/README.md §1b.12), as Python gives it.

The conformance suite pins what each format reads; this file pins the value and its
neighbours: the tool-loop split, JSON and pickle round trips, the tool check through every
entry point, the refusal of a Harmony built-in tool (``UnmappedCall`` with the partial reply,
through ``read_text``, ``extract_from_text`` and ``read(..., text_format=)``), the aliases a
registry lists, and the linear cost of reading a marker quoted in a payload.
"""

from __future__ import annotations

import io
import json
import pickle
from collections.abc import Callable
from pathlib import Path

import pytest
from growth import GROWTH_BOUND, growth

import toolwire
from toolwire import Registry, ToolCall, Tools
from toolwire._text import TextReply, extract_from_text, read_text
from toolwire._values.text_reply import TextRegion
from toolwire.errors import UnmappedCall

BAR = "\uff5c"  # the fullwidth bar of DeepSeek's tokens
WEATHER = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
PYTHON = (
    "<|channel|>analysis<|message|>Compute.<|end|>"
    "<|start|>assistant<|channel|>analysis to=python code<|message|>print(6*7)<|call|>"
)


def test_the_issue_examples_are_no_longer_clean_replies_with_fewer_calls() -> None:
    cut = read_text(
        "hermes", 'OK.\n<tool_call>\n{"name": "get_time", "arguments": {"tz": "Europe/Pa'
    )
    assert [(c.name, c.incomplete) for c in cut.calls] == [("get_time", True)]
    assert cut.truncated and cut.dropped_calls == cut.calls and cut.text == "OK."
    lines = read_text(
        "llama3_json", '{"name": "a", "parameters": {}}\n{"name": "b", "parameters": {}}'
    )
    assert [c.name for c in lines.calls] == ["a", "b"]
    drafted = read_text(
        "hermes",
        '<think>Maybe <tool_call>{"name": "delete_repo", "arguments": {}}</tool_call>? No.</think>'
        "Done.",
    )
    assert (drafted.calls, drafted.text) == ((), "Done.")
    assert "delete_repo" in drafted.reasoning


def test_each_call_has_one_fate_and_a_rejected_one_an_error_result() -> None:
    text = (
        f"<tool_call>{WEATHER}</tool_call>"
        '<tool_call>{"name": "f", "arguments": "{oops"}</tool_call>'
        '<tool_call>{"name": "g", "arguments": {"a": '
    )
    reply = read_text("hermes", text)
    assert reply.fates() == ("runnable", "rejected", "dropped")
    assert [c.name for c in reply.runnable_calls] == ["get_weather"]
    assert [c.name for c in reply.rejected_calls] == ["f"]
    assert [c.name for c in reply.dropped_calls] == ["g"]
    assert reply.has_calls
    assert reply.error_result(reply.rejected_calls[0]).startswith("Error: ")


def test_a_text_reply_round_trips_through_json_and_pickle() -> None:
    reply = read_text(
        "hermes", f'<tool_call>nope</tool_call><tool_call>{WEATHER}</tool_call><tool_call>{{"na'
    )
    assert [s.code for s in reply.skipped] == ["not-a-call", "cut-off"]
    data = json.loads(json.dumps(reply.to_dict()))
    assert TextReply.from_dict(data) == reply
    assert pickle.loads(pickle.dumps(reply)) == reply
    assert data["skipped"][0] == {
        "start": 0, "end": 27, "text": "<tool_call>nope</tool_call>", "code": "not-a-call",
        "reason": reply.skipped[0].reason,
    }


def test_from_dict_refuses_a_fate_the_fields_contradict_and_unknown_keys() -> None:
    data = read_text("hermes", f"<tool_call>{WEATHER}</tool_call>").to_dict()
    data["calls"][0]["fate"] = "dropped"
    with pytest.raises(ValueError, match="fate"):
        TextReply.from_dict(data)
    with pytest.raises(ValueError, match="unknown keys"):
        TextReply.from_dict({"text": "", "colour": 1})
    with pytest.raises(ValueError, match="unknown keys"):
        TextRegion.from_dict(
            {"start": 0, "end": 1, "text": "x", "code": "c", "reason": "r", "x": 1}
        )


def test_read_text_checks_calls_against_tools_given_as_schemas_or_a_tools_object() -> None:
    text = (
        '<tool_call>{"name": "get_wether", "arguments": {}}</tool_call>'
        '<tool_call>{"name": "get_weather", "arguments": {"city": 5}}</tool_call>'
        f"<tool_call>{WEATHER}</tool_call>"
    )
    for tools in ({"get_weather": SCHEMA}, Tools.from_schemas({"get_weather": SCHEMA})):
        reply = toolwire.read_text("hermes", text, tools=tools)
        assert [(c.unknown_tool, c.arguments_invalid) for c in reply.calls] == [
            (True, False), (False, True), (False, False)
        ]
        assert reply.fates() == ("rejected", "rejected", "runnable")
        _, calls = extract_from_text("hermes", text, tools=tools)
        assert [c.unknown_tool for c in calls] == [True, False, False]


def test_tools_check_reply_takes_a_text_reply() -> None:
    reply = read_text("hermes", '<tool_call>{"name": "nope", "arguments": {}}</tool_call>')
    checked = Tools.from_schemas({"get_weather": SCHEMA}).check_reply(reply)
    assert isinstance(checked, TextReply)
    assert checked.calls[0].unknown_tool and checked.rejected_calls == checked.calls
    assert (checked.text, checked.skipped) == (reply.text, reply.skipped)


def test_a_schema_of_a_mapping_that_is_no_json_schema_is_refused_when_checking() -> None:
    with pytest.raises(toolwire.errors.ToolwireError):
        read_text("hermes", f"<tool_call>{WEATHER}</tool_call>", tools={"f": {"type": 7}})


def test_a_harmony_built_in_tool_is_refused_with_the_partial_reply_everywhere() -> None:
    with pytest.raises(UnmappedCall) as caught:
        read_text("gpt_oss", PYTHON)
    error = caught.value
    assert (error.code, error.item_type, error.format) == ("unmapped_call", "python", "gpt_oss")
    assert isinstance(error.reply, TextReply)
    assert error.reply.reasoning == "Compute." and "<|start|>" not in error.reply.text
    assert error.reply.refused[0].recipient == "python"
    assert error.to_dict()["reply"] == error.reply.to_dict()
    assert pickle.loads(pickle.dumps(error)).reply == error.reply
    with pytest.raises(UnmappedCall):
        extract_from_text("gpt_oss", PYTHON)
    body = {"choices": [{"message": {"content": PYTHON}, "finish_reason": "stop"}]}
    with pytest.raises(UnmappedCall) as wire:
        toolwire.read("openai", body, text_format="gpt_oss")
    assert isinstance(wire.value.reply, toolwire.Reply)
    assert wire.value.reply.text == ""


def test_a_cut_call_keeps_its_incomplete_flag_through_a_wire_reply() -> None:
    body = {"choices": [{"message": {"content": '<tool_call>{"name": "f", "arguments": {"a'},
                         "finish_reason": "stop"}]}
    reply = toolwire.read("openai", body, text_format="hermes")
    assert [(c.name, c.incomplete) for c in reply.calls] == [("f", True)]
    assert reply.fates() == ("dropped",)


def test_a_registry_lists_the_aliases_of_its_text_formats() -> None:
    aliases = Registry.default().text_aliases()
    assert aliases["llama4_pythonic"] == "pythonic"
    assert aliases["openai"] == "gpt_oss"
    assert list(aliases) == sorted(aliases)
    assert set(aliases.values()) <= set(Registry.default().text_formats())
    assert read_text("llama4_pythonic", "[f()]").calls == (ToolCall("f", {}),)


@pytest.mark.parametrize(
    ("fmt", "unit"),
    [
        ("hermes", '<tool_call>{"a": "</tool_call>'),
        ("hermes", '<tool_call>["</tool_call><tool_call>", '),
        ("mistral", '[TOOL_CALLS]{"a": "[TOOL_CALLS]'),
        ("qwen3_coder", "<tool_call><function=f><parameter=a>x</tool_call>"),
        ("deepseek_v31",
         f"<{BAR}tool▁calls▁begin{BAR}><{BAR}tool▁call▁begin{BAR}>f<{BAR}tool▁call▁end{BAR}>"),
        ("kimi_k2", '<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0'
                    '<|tool_call_argument_begin|>{"a": "<|tool_call_end|>'),
    ],
    ids=["json-string", "json-list", "mistral", "xml-function", "head", "kimi"],
)
def test_reading_past_a_quoted_marker_stays_linear(fmt: str, unit: str) -> None:
    """Thousands of blocks whose payload runs past their marker: 4x the text, not 16x the time."""
    def prepare(n: int) -> Callable[[], object]:
        text = unit * n
        return lambda: read_text(fmt, text)

    ratio = growth(prepare, 2_000)
    assert ratio < GROWTH_BOUND, f"4x the text took {ratio:.1f}x the time (linear: 4)"


def test_the_command_line_takes_a_text_format_by_its_alias(tmp_path: Path) -> None:
    from toolwire.cli._main import main

    reply = tmp_path / "reply.txt"
    reply.write_text("[get_weather(city='Paris')]", encoding="utf-8")
    out = io.StringIO()
    assert main(["extract", "--text", "llama4_pythonic", str(reply)], out=out) == 0
    assert [c["name"] for c in json.loads(out.getvalue())["calls"]] == ["get_weather"]
