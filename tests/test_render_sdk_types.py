"""Rendered turns and results are what each SDK's own request types accept.

For every conformance reply of a format with an SDK in the test extras: the assistant
turn (``assistant_message()``; for the formats that echo the reply's items, the turn built
from the calls alone by ``convert``, as the echoed items are the provider's own) and the
answer to every call are checked against the SDK's request param types — openai's and
anthropic's TypedDicts (strictly: no undeclared key, every required one), google-genai's
``Content`` (pydantic, extra keys forbidden), mistralai's, cohere's and ollama's message
models.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from sdk_types import mismatch

import toolwire
from toolwire import Registry
from toolwire._render import convert
from toolwire.errors import RenderError, ToolwireError

from conformance import cases, each_test

REGISTRY = Registry.default()

# format -> (package, assistant type, result type, echoes items): "module:Name" strings.
TYPES: dict[str, tuple[str, str, str, bool]] = {
    "openai": ("openai", "openai.types.chat:ChatCompletionAssistantMessageParam",
               "openai.types.chat:ChatCompletionToolMessageParam", False),
    "responses": ("openai", "openai.types.responses:ResponseInputItemParam",
                  "openai.types.responses:ResponseInputItemParam", True),
    "anthropic": ("anthropic", "anthropic.types:MessageParam", "anthropic.types:MessageParam",
                  True),
    "gemini": ("google.genai", "google.genai.types:Content", "google.genai.types:Content", True),
    "mistral": ("mistralai", "mistralai.client.models:AssistantMessage",
                "mistralai.client.models:ToolMessage", False),
    "cohere": ("cohere", "cohere:AssistantChatMessageV2", "cohere:ToolChatMessageV2", False),
    "ollama": ("ollama", "ollama:Message", "ollama:Message", False),
}
for dialect in ("deepseek", "groq", "xai", "vllm", "llamacpp", "openrouter"):
    TYPES[dialect] = TYPES["openai"]

CASES = [
    (name, case.data["format"], test)
    for name, case, test in each_test(cases())
    if case.data.get("format") in TYPES and "error" not in test["expect"]
]


def _type(path: str) -> Any:
    module, name = path.split(":")
    return getattr(importlib.import_module(module), name)


def _check(value: Any, path: str) -> None:
    tp = _type(path)
    if path.startswith("google.genai"):
        tp.model_validate(value)  # extra="forbid" in google-genai's models: strict as is
        return
    found = mismatch(value, tp)
    assert found is None, found


@pytest.mark.parametrize(("name", "fmt", "test"), CASES, ids=[c[0] for c in CASES])
def test_rendered_messages_fit_the_sdk_request_types(
    name: str, fmt: str, test: dict[str, Any]
) -> None:
    package, assistant_type, result_type, echoes = TYPES[fmt]
    pytest.importorskip(package, reason=f"{package} is a test extra")
    try:
        reply = toolwire.read(fmt, test["response"], strict=test.get("strict"))
    except ToolwireError:
        pytest.skip("the reply does not read (its case expects an error)")
    try:
        turn = convert(reply, fmt, lossy=True) if echoes else reply.assistant_message()
    except RenderError as exc:
        pytest.skip(f"the reply cannot be written back: {exc}")  # checked in the round trip
    turns = turn if isinstance(turn, list) else [turn]
    if fmt == "responses":  # the text item is an output message; its param wants an id
        turns = [t for t in turns if t.get("type") != "message"]
    if fmt == "ollama":  # the server sends tool call ids; ollama-python's ToolCall lags
        turns = [{**t, "tool_calls": [{k: v for k, v in c.items() if k != "id"}
                                      for c in t.get("tool_calls", [])]} for t in turns]
        turns = [{k: v for k, v in t.items() if v != []} for t in turns]
    for item in turns:
        _check(item, assistant_type)
    answers = reply.answer({c: {"ok": True} for c in reply.runnable_calls})
    assert len(answers) == (
        min(1, len(reply.calls) - len(reply.dropped_calls))
        if REGISTRY.spec(fmt).render.templates.get("results")  # type: ignore[union-attr]
        else len(reply.calls) - len(reply.dropped_calls)
    )
    for message in answers:
        _check(message, result_type)


def test_an_error_result_and_mcp_blocks_fit_anthropic_types() -> None:
    pytest.importorskip("anthropic", reason="anthropic is a test extra")
    reply = toolwire.read("anthropic", {"content": [
        {"type": "tool_use", "id": "t1", "name": "shot", "input": {}},
        {"type": "tool_use", "id": "t2", "name": "fail", "input": {}}]})
    answers = reply.answer({
        "t1": [{"type": "text", "text": "here"},
               {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}],
        "t2": ValueError("disk full"),
    })
    _check(answers[0], "anthropic.types:MessageParam")
    blocks = answers[0]["content"]
    assert blocks[0]["content"][1] == {"type": "image", "source": {
        "type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
    assert blocks[1] == {"type": "tool_result", "tool_use_id": "t2",
                         "content": "ValueError: disk full", "is_error": True}
