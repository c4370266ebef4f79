"""The ``toolwire.Tools`` API: compiled once, checks calls, never changes what was sent."""

from __future__ import annotations

import pickle
from concurrent.futures import ThreadPoolExecutor

import pytest

import toolwire
from toolwire import ToolCall
from toolwire.types import ArgumentError

WEATHER = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
    "required": ["city"],
}
REQUEST = {"tools": [{"type": "function", "function": {"name": "get_weather",
                                                        "parameters": WEATHER}}]}


def _reply(*calls: tuple[str, str]) -> dict[str, object]:
    return {"choices": [{"message": {"tool_calls": [
        {"id": f"c{i}", "type": "function", "function": {"name": n, "arguments": a}}
        for i, (n, a) in enumerate(calls)
    ]}, "finish_reason": "tool_calls"}]}


def test_a_flagged_call_keeps_its_arguments_exactly() -> None:
    reply = toolwire.read("openai", _reply(("get_weather", '{"days": "3"}')), tools=REQUEST)
    (call,) = reply.calls
    assert call.arguments == {"days": "3"}
    assert call.arguments_invalid
    assert [(e.pointer, e.keyword) for e in call.arguments_errors] == [
        ("", "required"), ("/days", "type")]


def test_invalid_call_round_trips_through_to_dict_and_pickle() -> None:
    call = toolwire.read("openai", _reply(("get_weather", "{}")), tools=REQUEST).calls[0]
    data = call.to_dict()
    assert data["arguments_errors"] == [{"pointer": "", "keyword": "required",
                                         "message": "'city' is a required property"}]
    assert ToolCall.from_dict(data) == call
    assert pickle.loads(pickle.dumps(call)) == call
    unknown = toolwire.read("openai", _reply(("nope", "{}")), tools=REQUEST).calls[0]
    assert ToolCall.from_dict(unknown.to_dict()) == unknown


def test_error_result_refuses_a_call_with_nothing_wrong() -> None:
    reply = toolwire.read("openai", _reply(("get_weather", '{"city": "Paris"}')), tools=REQUEST)
    assert reply.fates() == ("runnable",)
    with pytest.raises(ValueError, match="no error to report"):
        reply.error_result(reply.calls[0])


def test_error_result_names_every_error_for_the_model() -> None:
    call = ToolCall("get_weather", {"days": "x"}, "c1", arguments_invalid=True,
                    arguments_errors=(ArgumentError("", "required", "'city' is missing"),
                                      ArgumentError("/days", "type", "'x' is not an integer")))
    text = toolwire.Reply.error_result(call)
    assert "'city' is missing (required)" in text
    assert "at /days: 'x' is not an integer (type)" in text


def test_tools_error_result_suggests_the_closest_name() -> None:
    tools = toolwire.Tools("openai", REQUEST)
    call = toolwire.read("openai", _reply(("get_wether", "{}")), tools=tools).calls[0]
    assert "Did you mean 'get_weather'?" in tools.error_result(call)


def test_a_valid_call_is_the_same_object_and_the_reply_too() -> None:
    tools = toolwire.Tools("openai", REQUEST)
    plain = toolwire.read("openai", _reply(("get_weather", '{"city": "P"}')))
    assert tools.check_reply(plain) is plain


def test_a_recheck_clears_an_old_verdict() -> None:
    old = ToolCall("get_weather", {"city": "P"}, unknown_tool=True)
    assert not toolwire.Tools("openai", REQUEST).check(old).unknown_tool


def test_from_schemas_builds_tools_without_a_request() -> None:
    loose = {"type": "object", "properties": WEATHER["properties"]}
    tools = toolwire.Tools.from_schemas({"get_weather": loose, "free": None}, strict=True)
    assert tools.names == ("get_weather", "free")
    assert tools.parameters("free") is None
    schema = tools.parameters("get_weather")
    assert schema is not None and schema["additionalProperties"] is False
    assert schema["required"] == ["city", "days"]
    with pytest.raises(toolwire.errors.InvalidTools, match="strict mode needs every property"):
        toolwire.Tools.from_schemas({"get_weather": WEATHER}, strict=True)


def test_parameters_is_a_copy() -> None:
    tools = toolwire.Tools("openai", REQUEST)
    schema = tools.parameters("get_weather")
    assert schema is not None
    schema["required"] = []
    assert tools.parameters("get_weather") == WEATHER


def test_tools_are_immutable_and_not_pickled() -> None:
    tools = toolwire.Tools("openai", REQUEST)
    with pytest.raises(AttributeError):
        tools.format = "x"  # type: ignore[misc]
    with pytest.raises(TypeError, match="pickle the request"):
        pickle.dumps(tools)


def test_the_given_request_is_never_changed() -> None:
    request = {"tools": [{"type": "function", "function": {
        "name": "f", "strict": True, "parameters": {"type": "object", "properties": {}}}}]}
    before = repr(request)
    toolwire.Tools("openai", request)
    assert repr(request) == before


def test_one_tools_serves_many_threads() -> None:
    tools = toolwire.Tools("openai", REQUEST)
    replies = [_reply(("get_weather", '{"city": "P"}' if i % 2 else "{}")) for i in range(200)]
    with ThreadPoolExecutor(4) as pool:
        fates = list(pool.map(lambda r: toolwire.read("openai", r, tools=tools).fates(), replies))
    assert fates == [("runnable",) if i % 2 else ("rejected",) for i in range(200)]


def test_something_that_is_no_request_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="request body"):
        toolwire.Tools("openai", 42)
