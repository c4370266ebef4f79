"""Runs every tool-check conformance case (``specs/conformance/tools/<format>/*.json``).

Each test reads ``response`` with ``read(format, response, tools=tools)`` and compares each
call's verdict; errors are compared as (pointer, keyword) pairs, never by message, so
another language's JSON Schema validator agrees on them.
"""

from __future__ import annotations

from typing import Any

import pytest

import toolwire

from conformance import Case, cases, each_test

TOOL_TESTS = list(each_test(cases(under="tools")))


def _verdict(call: toolwire.ToolCall) -> dict[str, Any]:
    return {
        "name": call.name,
        "id": call.id,
        "unknown_tool": call.unknown_tool,
        "arguments_invalid": call.arguments_invalid,
        "arguments_errors": [
            {"pointer": e.pointer, "keyword": e.keyword} for e in call.arguments_errors
        ],
    }


@pytest.mark.parametrize(("name", "case", "test"), TOOL_TESTS, ids=[t[0] for t in TOOL_TESTS])
def test_tool_case_holds(name: str, case: Case, test: dict[str, Any]) -> None:
    fmt = case.data["format"]
    expect = test["expect"]
    if "error" in expect:
        with pytest.raises(toolwire.errors.InvalidTools) as caught:
            toolwire.Tools(fmt, test["tools"])
        found = caught.value.to_dict()
        for key, value in expect["error"].items():
            assert found[key] == value, (key, found)
        with pytest.raises(toolwire.errors.InvalidTools):
            toolwire.read(fmt, test["response"], tools=test["tools"])
        return
    tools = toolwire.Tools(fmt, test["tools"])
    reply = toolwire.read(fmt, test["response"], tools=tools)
    assert [_verdict(c) for c in reply.calls] == expect["calls"]
    assert reply == toolwire.read(fmt, test["response"], tools=test["tools"])
    if "fates" in expect:
        assert list(reply.fates()) == expect["fates"]
    if "names" in expect:
        assert list(tools.names) == expect["names"]
    for tool, schema in expect.get("parameters", {}).items():
        assert tools.parameters(tool) == schema
    for call in reply.calls:
        if call.unknown_tool or call.arguments_invalid:
            assert call in reply.rejected_calls
            assert call.name in reply.error_result(call)
            assert toolwire.ToolCall.from_dict(call.to_dict()) == call


def test_every_format_with_a_tools_part_has_cases() -> None:
    covered = {case.data["format"] for case in cases(under="tools")}
    assert {"openai", "responses", "anthropic", "gemini", "bedrock", "cohere", "ollama"} <= covered
    assert len(TOOL_TESTS) >= 25
