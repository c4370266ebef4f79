"""``read_text``: the answer, the reasoning and the calls apart; typed XML values; aliases."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import toolwire
from toolwire._text import TextReply, extract_from_text, read_text

WEATHER = '{"name": "get_weather", "arguments": {"city": "Paris"}}'


def test_reasoning_comes_apart_and_its_blocks_are_not_calls() -> None:
    text = f"<think>Maybe <tool_calls>[{WEATHER}]</tool_calls>?</think>\nIt is mild."
    reply = read_text("hunyuan_a13b", text)
    assert reply == TextReply("It is mild.", f"Maybe <tool_calls>[{WEATHER}]</tool_calls>?", ())
    assert extract_from_text("hunyuan_a13b", text) == (text, [])


def test_a_reasoning_region_opened_in_the_prompt_ends_at_its_close_marker() -> None:
    text = f"The user asks.\n</think>\n\n<tool_call>\n{WEATHER}\n</tool_call>"
    reply = read_text("ernie45", text)
    assert (reply.text, reply.reasoning) == ("", "The user asks.")
    assert [call.name for call in reply.calls] == ["get_weather"]


def test_a_region_never_closed_runs_to_the_end_and_yields_no_call() -> None:
    reply = read_text("seed_oss", "<seed:think>I will call <function=f></function>")
    assert reply == TextReply("", "I will call <function=f></function>", (), truncated=True)


def test_harmony_answer_and_reasoning_come_from_their_channels() -> None:
    text = (
        "<|channel|>analysis<|message|>Think.<|end|>"
        "<|start|>assistant<|channel|>commentary<|message|>Checking.<|end|>"
        "<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json"
        '<|message|>{"a": 1}<|call|>'
    )
    reply = toolwire.read_text("openai", text)
    assert (reply.text, reply.reasoning) == ("Checking.", "Think.")
    assert [(c.name, c.arguments) for c in reply.calls] == [("f", {"a": 1})]
    final = read_text("gpt_oss", "<|channel|>final<|message|>Sunny.<|return|>")
    assert final == TextReply("Sunny.", "", ())


def test_formats_without_reasoning_regions_return_the_clean_text() -> None:
    text = f"Sure.<tool_call>{WEATHER}</tool_call>"
    reply = read_text("hermes", text)
    assert (reply.text, reply.reasoning, len(reply.calls)) == ("Sure.", "", 1)


QWEN = (
    "<tool_call>\n<function=f>\n<parameter=n>\n42\n</parameter>\n<parameter=s>\n42\n</parameter>\n"
    "<parameter=b>\ntrue\n</parameter>\n<parameter=o>\n{\"k\": [1]}\n</parameter>\n"
    "<parameter=u>\nnull\n</parameter>\n<parameter=bad>\nforty\n</parameter>\n</function>\n"
    "</tool_call>"
)
SCHEMA = {
    "type": "object",
    "properties": {
        "n": {"type": "integer"},
        "s": {"type": "string"},
        "b": {"type": "boolean"},
        "o": {"type": "object"},
        "u": {"anyOf": [{"type": "number"}, {"type": "null"}]},
        "bad": {"type": "integer"},
    },
}


def test_tools_type_xml_values_by_their_schema() -> None:
    (call,) = read_text("qwen3_coder", QWEN, tools={"f": SCHEMA}).calls
    assert call.arguments == {
        "n": 42, "s": "42", "b": True, "o": {"k": [1]}, "u": None, "bad": "forty"
    }


def test_without_tools_the_spec_values_rule_applies() -> None:
    (call,) = read_text("qwen3_coder", QWEN).calls
    assert call.arguments["s"] == 42  # json-or-string: the best reading without a schema
    minimax = (
        '<minimax:tool_call>\n<invoke name="f">\n<parameter name="n">42</parameter>\n'
        "</invoke>\n</minimax:tool_call>"
    )
    assert read_text("minimax_m2", minimax).calls[0].arguments == {"n": "42"}
    typed = read_text("minimax_m2", minimax, tools={"f": {"properties": {"n": {"type": "number"}}}})
    assert typed.calls[0].arguments == {"n": 42}


class _Tools:
    """Stands for ``toolwire.Tools``: only ``parameters(name)`` is used."""

    def parameters(self, name: str) -> dict[str, Any] | None:
        return SCHEMA if name == "f" else None


def test_an_object_with_a_parameters_method_serves_as_tools() -> None:
    (call,) = extract_from_text("qwen3_coder", QWEN, tools=_Tools())[1]
    assert call.arguments["n"] == 42 and call.arguments["s"] == "42"


def test_tools_of_the_wrong_kind_are_a_type_error() -> None:
    with pytest.raises(TypeError, match="tools must be"):
        read_text("qwen3_coder", QWEN, tools=["f"])


def test_aliases_reach_their_format_through_every_entry_point() -> None:
    text = '{"name": "f", "parameters": {}}'
    assert extract_from_text("llama4_json", text) == extract_from_text("llama3_json", text)
    assert toolwire.extract_from_text("llama4_json", text)[1][0].name == "f"
    assert toolwire.Registry.default().text_spec("granite-20b-fc").format == "granite_20b_fc"
    with pytest.raises(toolwire.errors.UnknownFormat):
        read_text("no_such_format", text)


def test_a_text_reply_pickles_and_serialises() -> None:
    reply = read_text("hermes", f"<tool_call>{WEATHER}</tool_call>")
    assert pickle.loads(pickle.dumps(reply)) == reply
    assert reply.to_dict() == {
        "text": "", "reasoning": "", "calls": [{**reply.calls[0].to_dict(), "fate": "runnable"}],
        "skipped": [], "truncated": False, "refused": [],
    }
    assert TextReply.from_dict(reply.to_dict()) == reply

