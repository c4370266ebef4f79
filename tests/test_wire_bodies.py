"""A body that is not a reply of the format named never reads as "the model is done".

The conformance cases pin the rules (specs/README.md §1.11-1.13) in both languages; these
tests hold the Python entry points around them to it: every reading path (``read``,
``extract``, ``locate``, ``extract_sniff``, ``from_structured_output``, the CLI, ``explain``)
refuses such a body the same way, and the errors carry their facts as data.
"""

from __future__ import annotations

import contextlib
import io
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

import toolwire
from toolwire import Registry
from toolwire._registry.explain import explain
from toolwire.cli import main
from toolwire.errors import MalformedResponse, ProviderError

CHAT = {"id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-4.1", "choices": [
    {"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}}]}
RATE_LIMIT = {"error": {"message": "Rate limit reached"}}


def _entry_points(fmt: str) -> list[Any]:
    return [
        lambda body: toolwire.read(fmt, body),
        lambda body: toolwire.extract(fmt, body),
        lambda body: toolwire.locate(fmt, body),
        lambda body: toolwire.from_structured_output(fmt, body, "answer"),
    ]


@pytest.mark.parametrize("index", range(4))
def test_another_formats_reply_is_refused_by_every_entry_point(index: int) -> None:
    with pytest.raises(MalformedResponse) as caught:
        _entry_points("anthropic")[index](CHAT)
    assert caught.value.looks_like == "openai"
    assert "use format 'openai'" in str(caught.value)


@pytest.mark.parametrize("index", range(4))
def test_an_error_body_is_a_provider_error_for_every_entry_point(index: int) -> None:
    with pytest.raises(ProviderError) as caught:
        _entry_points("openai")[index](RATE_LIMIT)
    assert (caught.value.format, caught.value.error_message) == ("openai", "Rate limit reached")


def test_the_generated_extract_refuses_as_the_walk_does() -> None:
    registry = Registry.bundled()
    for _ in range(40):  # past the walks before the extract code is generated
        assert registry.extract("openai", CHAT)[0].name == "get_weather"
    assert registry.spec("openai").code.extract, "the generated extract is in use"
    with pytest.raises(ProviderError):
        registry.extract("openai", RATE_LIMIT)
    with pytest.raises(MalformedResponse) as caught:
        registry.extract("openai", {"choices": [{"message": "get_weather()"}]})
    assert caught.value.looks_like is None


def test_the_written_out_check_refuses_as_the_closures_do() -> None:
    registry = Registry.bundled()
    for _ in range(40):  # past the checks before the spec's check is written out
        assert len(registry.read("anthropic", {"content": [], "type": "message"}).calls) == 0
    code = registry.spec("anthropic").code  # the generated read writes the gate's check out
    assert code.read.get(None) is not None or code.gate is not None
    with pytest.raises(ProviderError):
        registry.read("anthropic", {"type": "error", "error": {"message": "Overloaded"}})
    with pytest.raises(MalformedResponse) as caught:
        registry.read("anthropic", CHAT)
    assert caught.value.looks_like == "openai"
    with pytest.raises(MalformedResponse):  # one event of the stream
        registry.read("anthropic", {"type": "message_stop"})


def test_sniffing_answers_nothing_for_an_unknown_shape_but_raises_for_an_error_body() -> None:
    assert toolwire.extract_sniff({"what": "ever"}) == []
    with pytest.raises(ProviderError) as caught:
        toolwire.extract_sniff({"type": "error", "error": {"type": "overloaded_error",
                                                         "message": "Overloaded"}})
    assert (caught.value.format, caught.value.error_type) == ("anthropic", "overloaded_error")
    with pytest.raises(toolwire.errors.UnknownFormat):
        toolwire.read(None, {"what": "ever"})


def test_a_provider_error_keeps_its_facts_through_pickle_and_json() -> None:
    body = {"error": {"message": "Failed to call a function.", "type": "invalid_request_error",
                      "code": "tool_use_failed", "failed_generation": "<function=f{}</function>"}}
    with pytest.raises(ProviderError) as caught:
        toolwire.read("groq", body)
    error = caught.value
    again = pickle.loads(pickle.dumps(error))
    assert again.to_dict() == error.to_dict()
    assert error.to_dict() == {
        "code": "provider_error", "message": str(error), "format": "groq",
        "error_message": "Failed to call a function.", "error_type": "invalid_request_error",
        "error_code": "tool_use_failed",
        "provider_data": {"failed_generation": "<function=f{}</function>"},
    }


def test_a_provider_error_says_the_providers_message_on_one_line() -> None:
    error = ProviderError("openai", "Rate limit\nreached", "requests", "rate_limit_exceeded")
    assert "\n" not in str(error)
    assert str(error).endswith("(type requests, code rate_limit_exceeded): Rate limit reached")
    assert error.error_message == "Rate limit\nreached"  # the field keeps it as sent


def test_the_cli_prints_one_line_with_the_providers_message_and_fails(tmp_path: Path) -> None:
    path = tmp_path / "reply.json"
    path.write_text(json.dumps({"error": {"message": "Rate limit\nreached",
                                          "code": "rate_limit_exceeded"}}), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["extract", str(path)], out=out)
    assert code != 0 and out.getvalue() == ""
    assert err.getvalue().splitlines() == [
        "toolwire: provider_error: openai: the provider answered with an error"
        " (code rate_limit_exceeded): Rate limit reached"]


def test_explain_ends_with_the_verdict_naming_the_format_the_body_fits() -> None:
    trace = explain(Registry.bundled(), "gemini", CHAT)
    assert trace["verdict"]["error"] == "malformed_response"
    assert trace["verdict"]["looks_like"] == "openai"


def test_a_failed_call_the_reply_reports_is_skipped_with_the_providers_words() -> None:
    reply = toolwire.read("gemini", {"candidates": [{
        "finishReason": "MALFORMED_FUNCTION_CALL",
        "finishMessage": "Malformed function call: print(default_api.get_time(tz=))"}]})
    assert reply.calls == ()
    [skipped] = reply.skipped
    assert (skipped.item_index, skipped.location, skipped.item_type) == (
        None, "", "MALFORMED_FUNCTION_CALL")
    assert skipped.reason == "Malformed function call: print(default_api.get_time(tz=))"
    assert toolwire.Reply.from_dict(reply.to_dict()) == reply
