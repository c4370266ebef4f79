"""A part of a reply — a choice, a message, a content block — passed where a reply goes is an
error that names the part and what to pass, never another format's reply (specs/README.md
§1.11, ``shape.parts``)."""

from __future__ import annotations

from typing import Any

import pytest
from openai.types.chat import ChatCompletion

import toolwire
from toolwire.errors import MalformedResponse

CUT = ChatCompletion.model_validate({
    "id": "c", "object": "chat.completion", "created": 0, "model": "gpt-4o",
    "choices": [{"index": 0, "finish_reason": "length", "message": {
        "role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function",
            "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}}]})


@pytest.mark.parametrize("fmt", [None, "openai"])
def test_a_choice_is_named_as_a_part_of_an_openai_reply(fmt: str | None) -> None:
    with pytest.raises(MalformedResponse, match=r"one choice \(`choices\[i\]`\) of an openai"
                       r" reply, not a whole reply: pass the whole response") as caught:
        toolwire.read(fmt, CUT.choices[0])
    assert caught.value.looks_like is None
    assert "cohere" not in str(caught.value)


@pytest.mark.parametrize("part", [
    CUT.choices[0].message,
    {"role": "assistant", "content": "Hello."},
])
def test_a_message_is_named_as_one(part: Any) -> None:
    with pytest.raises(MalformedResponse, match=r"the message of one choice"):
        toolwire.read(None, part)


@pytest.mark.parametrize(("part", "named"), [
    ({"type": "tool_use", "id": "t", "name": "f", "input": {}}, "one content block"),
    ({"content": {"role": "model", "parts": []}, "finishReason": "STOP"}, "one candidate"),
    ({"role": "model", "parts": [{"text": "x"}]}, "the content of one candidate"),
])
def test_a_block_or_a_candidate_is_named_as_one(part: dict[str, Any], named: str) -> None:
    with pytest.raises(MalformedResponse, match=named):
        toolwire.read(None, part)
    with pytest.raises(MalformedResponse, match=named):  # never "no calls"
        toolwire.extract_sniff(part)


def test_whole_replies_still_sniff() -> None:
    assert toolwire.read(None, CUT).format == "openai"
    reply = {"id": "r", "finish_reason": "COMPLETE", "message": {"role": "assistant",
                                                                   "content": []}}
    assert toolwire.read(None, reply).format == "cohere"
