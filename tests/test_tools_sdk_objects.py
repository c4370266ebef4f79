"""``Tools(fmt, request)`` takes each SDK's own tool and request objects, and refuses a tool
list in another provider's format by name (specs/README.md §8.1).

google-genai builds ``types.Tool`` objects and a ``GenerateContentConfig``; mistralai,
cohere and ollama build pydantic tool models; the OpenAI SDK's Responses ``FunctionTool``
is a model too. Each is read as its JSON (by alias, without nulls), and the JSON an SDK
dumps with its nulls reads the same, so the advice of any error works when followed.
"""

from __future__ import annotations

from typing import Any

import pytest
from google.genai import types

import toolwire
from toolwire import ToolCall, Tools
from toolwire.errors import InvalidTools

_DECLARATION = types.FunctionDeclaration(
    name="get_weather", description="Weather in a city.",
    parameters=types.Schema(type="OBJECT", required=["city"], properties={
        "city": types.Schema(type="STRING"),
        "days": types.Schema(type="INTEGER", nullable=True)}))
_TOOL = types.Tool(function_declarations=[_DECLARATION])


def _verdicts(tools: Tools) -> list[tuple[str, str]]:
    checked = tools.check(ToolCall("get_weather", {"days": "3"}))
    return [(e.pointer, e.keyword) for e in checked.arguments_errors]


@pytest.mark.parametrize("given", [
    [_TOOL],
    {"tools": [_TOOL]},
    types.GenerateContentConfig(tools=[_TOOL], temperature=0.2),
    [_TOOL.model_dump(mode="json", by_alias=True)],  # the advice of the error, followed
    [_TOOL.model_dump(mode="json", by_alias=True, exclude_none=True)],
], ids=["tools", "body", "config", "dump_with_nulls", "dump"])
def test_google_genai_tools_and_configs_read_as_their_json(given: Any) -> None:
    tools = Tools("gemini", given)
    assert tools.names == ("get_weather",)
    assert _verdicts(tools) == [("", "required"), ("/days", "type")]


def test_a_gemini_schema_with_additional_properties_is_translated() -> None:
    tool = types.Tool(function_declarations=[types.FunctionDeclaration(
        name="f", parameters=types.Schema(type="OBJECT", additional_properties=False,
                                          properties={"a": types.Schema(type="STRING")}))])
    tools = Tools("gemini", [tool])
    assert tools.parameters("f") == {"type": "object", "additionalProperties": False,
                                     "properties": {"a": {"type": "string"}}}


def test_other_sdks_tool_models_read_as_their_json() -> None:
    import cohere
    import ollama
    from mistralai.client.models import Function, Tool
    from openai.types.responses import FunctionTool

    schema = {"type": "object", "properties": {"city": {"type": "string"}},
              "required": ["city"]}
    for fmt, tool in [
        ("mistral", Tool(function=Function(name="get_weather", parameters=schema))),
        ("cohere", cohere.ToolV2(type="function", function=cohere.ToolV2Function(
            name="get_weather", parameters=schema))),
        ("ollama", ollama.Tool(type="function", function=ollama.Tool.Function(
            name="get_weather", parameters=ollama.Tool.Function.Parameters(
                type="object", required=["city"], properties={
                    "city": ollama.Tool.Function.Parameters.Property(type="string")})))),
        ("responses", FunctionTool(type="function", name="get_weather", parameters=schema,
                                   strict=False)),
    ]:
        tools = Tools(fmt, [tool])
        assert tools.names == ("get_weather",), fmt
        assert [e.keyword for e in tools.check(ToolCall("get_weather", {})).arguments_errors
                ] == ["required"], fmt


def test_read_takes_sdk_tool_objects_too() -> None:
    reply = {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "get_wether", "args": {}}}]}}]}
    checked = toolwire.read("gemini", reply, tools=types.GenerateContentConfig(tools=[_TOOL]))
    assert checked.calls[0].unknown_tool


def test_an_object_that_is_no_tool_list_says_what_it_needs() -> None:
    with pytest.raises(TypeError, match="request body"):
        Tools("gemini", object())


@pytest.mark.parametrize("fmt, request_, named", [
    ("openai", {"tools": [{"name": "get_weather", "input_schema": {"type": "object"}}]},
     "anthropic"),
    ("gemini", {"tools": [{"type": "function", "function": {"name": "get_weather"}}]},
     "openai"),
    ("openai", {"tools": [{"type": "function", "name": "get_weather"}]}, "responses"),
    ("anthropic", {"tools": [{"functionDeclarations": [{"name": "f"}]}]}, "gemini"),
    ("groq", {"toolConfig": {"tools": []}, "tools": [{"toolSpec": {"name": "f"}}]}, "bedrock"),
])
def test_a_tool_list_in_another_format_is_refused_naming_it(
    fmt: str, request_: dict[str, Any], named: str
) -> None:
    with pytest.raises(InvalidTools) as caught:
        Tools(fmt, request_)
    assert f"in the {named} format" in caught.value.reason
    assert f"toolwire.Tools({named!r}" in caught.value.reason
