"""toolwire calls out to LangChain, Pydantic AI and MCP, checked with the real packages."""

from __future__ import annotations

import json
from typing import Any

import pytest

import toolwire
from toolwire import Reply, ToolCall

from conformance import cases, each_test

READABLE: list[tuple[str, Reply, dict[str, Any]]] = []
for _name, _case, _test in each_test(cases()):
    if "error" not in _test["expect"]:
        READABLE.append((_name, toolwire.read(_case.data["format"], _test["response"],
                                              strict=_test.get("strict")), _test["response"]))
CALLS = [(name, call) for name, reply, _body in READABLE for call in reply.calls]

RICH = ToolCall("get_weather", {"city": "Paris", "price": 12.5}, "call_1",
                raw_arguments='{"city": "Paris", "price": 12.50}',
                provider_data={"id": "fc_1", "thoughtSignature": "c2ln"})
CUT = ToolCall.from_raw("get_weather", '{"city": "Par', "call_2").replace(
    raw_arguments='{"city": "Par'
)


def _calls_with_raw() -> list[ToolCall]:
    """Every conformance call, plus hand-made ones whose raw arguments were recorded."""
    return [call for _name, call in CALLS] + [RICH, CUT]


# -- LangChain -------------------------------------------------------------------------

langchain_messages = pytest.importorskip(
    "langchain_core.messages", reason="langchain-core (in the test extra) is not installed"
)


def test_every_conformance_reply_becomes_an_ai_message_langchain_accepts() -> None:
    from toolwire.interop.langchain import tool_calls

    for name, reply, _body in READABLE:
        valid, invalid = tool_calls(reply)
        message = langchain_messages.AIMessage(content="", tool_calls=valid,
                                               invalid_tool_calls=invalid)
        assert len(message.tool_calls) + len(message.invalid_tool_calls) == len(reply.calls)
        runnable = reply.runnable_calls
        assert [(c["name"], c["args"], c["id"] or "") for c in message.tool_calls] == [
            (c.name, c.arguments, c.id) for c in runnable], name
        for entry in message.invalid_tool_calls:
            assert entry["error"]


def test_langchain_calls_convert_back_without_loss() -> None:
    from toolwire.interop.langchain import from_langchain, to_langchain

    for call in _calls_with_raw():
        if call.arguments_undecodable and not isinstance(call.raw_arguments, str):
            continue  # no text was recorded to carry (toolwire.read records it: sdk item 2)
        back = from_langchain(to_langchain(call))
        assert (back.name, back.id, back.arguments, back.arguments_undecodable) == (
            call.name, call.id, call.arguments, call.arguments_undecodable)
        if call.arguments_undecodable:
            assert back.raw_arguments == call.raw_arguments


def test_undecodable_arguments_keep_their_raw_text_in_invalid_tool_call() -> None:
    from toolwire.interop.langchain import to_langchain

    converted = to_langchain(CUT)
    assert converted == {"name": "get_weather", "args": '{"city": "Par', "id": "call_2",
                         "error": CUT.arguments_error, "type": "invalid_tool_call"}
    message = langchain_messages.AIMessage(content="", invalid_tool_calls=[converted])
    assert message.invalid_tool_calls[0]["args"] == '{"city": "Par'


def test_a_call_cut_off_by_truncation_is_never_a_langchain_tool_call() -> None:
    from toolwire.interop.langchain import DROPPED_ERROR, tool_calls

    truncated = [r for _n, r, _b in READABLE if r.dropped_calls]
    assert truncated
    for reply in truncated:
        valid, invalid = tool_calls(reply)
        assert len(valid) == len(reply.runnable_calls)
        assert sum(e["error"] == DROPPED_ERROR for e in invalid) == len(reply.dropped_calls)
        assert {e["id"] for e in valid}.isdisjoint(c.id or None for c in reply.dropped_calls)


def test_langchain_agrees_with_toolwire_on_well_formed_openai_calls() -> None:
    from langchain_core.messages.tool import default_tool_parser

    from toolwire.interop.langchain import tool_calls

    checked = 0
    for _name, reply, body in READABLE:
        if reply.format != "openai" or not reply.calls or reply.skipped:
            continue
        try:
            items = toolwire.locate("openai", body)
        except toolwire.errors.ToolwireError:
            continue  # read leniently in its case; LangChain's parser has no such mode
        texts = [i.get("function", {}).get("arguments") for i in items]
        if not all(isinstance(t, str) and t.strip().startswith("{") for t in texts):
            continue
        if any(c.arguments_undecodable for c in reply.calls) or reply.truncated:
            continue
        theirs, _invalid = default_tool_parser(items)
        ours, _ = tool_calls(reply)
        assert [(c["name"], c["args"], c["id"]) for c in theirs] == [
            (c["name"], c["args"], c["id"]) for c in ours]
        checked += 1
    assert checked >= 5


# -- Pydantic AI -----------------------------------------------------------------------


def test_pydantic_ai_parts_carry_name_id_raw_arguments_and_provider_details() -> None:
    pytest.importorskip("pydantic_ai", reason="pydantic-ai-slim (in the test extra) is missing")
    from toolwire.interop.pydantic_ai import from_pydantic_ai, tool_call_part

    part = tool_call_part(RICH, provider_name="responses")
    assert (part.tool_name, part.tool_call_id, part.id) == ("get_weather", "call_1", "fc_1")
    assert part.args == '{"city": "Paris", "price": 12.50}'  # byte-identical, as sent
    assert part.args_as_dict() == RICH.arguments
    assert part.provider_details == {"id": "fc_1", "thoughtSignature": "c2ln"}
    assert part.provider_name == "responses"
    back = from_pydantic_ai(part)
    assert back == RICH and back.raw_arguments == RICH.raw_arguments


def test_every_conformance_call_round_trips_through_a_tool_call_part() -> None:
    pytest.importorskip("pydantic_ai", reason="pydantic-ai-slim (in the test extra) is missing")
    from toolwire.interop.pydantic_ai import from_pydantic_ai, part_fields, tool_call_part

    for call in _calls_with_raw():
        part = tool_call_part(call)
        assert part.tool_call_id == call.id and part.tool_name == call.name
        if not call.arguments_undecodable:
            assert part.args_as_dict() == call.arguments
            assert from_pydantic_ai(part) == call
        elif isinstance(call.raw_arguments, str):
            assert part.args == call.raw_arguments
            back = from_pydantic_ai(part)
            assert back.arguments_undecodable and back.raw_arguments == call.raw_arguments
        assert from_pydantic_ai(part_fields(call)).name == call.name


# -- MCP -------------------------------------------------------------------------------


def test_mcp_call_params_validate_as_the_sdks_request_and_read_back() -> None:
    types = pytest.importorskip("mcp.types", reason="mcp (in the test extra) is not installed")
    from toolwire.interop.mcp import call_params, call_request, from_call_params

    for call in _calls_with_raw():
        if call.arguments_undecodable:
            with pytest.raises(ValueError, match="undecodable arguments"):
                call_params(call)
            continue
        params = types.CallToolRequestParams(**call_params(call))
        assert (params.name, params.arguments or {}) == (call.name, call.arguments)
        back = from_call_params(params, call.id)
        assert (back.name, back.arguments, back.id) == (call.name, call.arguments, call.id)
    request = call_request(RICH, 7)
    assert types.CallToolRequest(**request).params.name == "get_weather"
    assert json.loads(json.dumps(request))["method"] == "tools/call"


def test_an_mcp_call_tool_result_becomes_the_wire_form_answer_takes() -> None:
    types = pytest.importorskip("mcp.types", reason="mcp (in the test extra) is not installed")
    from toolwire.interop.mcp import tool_result

    ok = types.CallToolResult(content=[types.TextContent(type="text", text="18°C")])
    assert tool_result(ok) == {"content": [{"type": "text", "text": "18°C"}], "isError": False}
    failed = types.CallToolResult(
        content=[types.ImageContent(type="image", data="aGk=", mime_type="image/png")],
        structured_content={"t": 18}, is_error=True)
    assert tool_result(failed) == {
        "content": [{"type": "image", "data": "aGk=", "mimeType": "image/png"}],
        "isError": True, "structuredContent": {"t": 18}}
    assert tool_result({"content": [], "isError": False}) == {"content": [], "isError": False}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"content": "text"}, "list of content blocks"),
        ({"content": [], "isError": "yes"}, "isError is a bool"),
        ({"content": [], "result": 1}, "unknown keys"),
        ({"content": [], "resultType": "input_required"}, "not a final result"),
    ],
)
def test_an_mcp_result_toolwire_cannot_read_is_an_error(value: Any, message: str) -> None:
    from toolwire.interop.mcp import tool_result

    with pytest.raises(ValueError, match=message):
        tool_result(value)
    with pytest.raises(TypeError, match="MCP object"):
        tool_result(42)


def test_mcp_answer_renders_through_reply_answer_where_there_is_one() -> None:
    types = pytest.importorskip("mcp.types", reason="mcp (in the test extra) is not installed")
    from toolwire.interop.mcp import answer

    reply = next(r for _n, r, _b in READABLE
                 if r.format == "openai" and len(r.runnable_calls) == len(r.calls) == 1)
    result = types.CallToolResult(content=[types.TextContent(type="text", text="18°C")])
    if not hasattr(Reply, "answer"):
        with pytest.raises(NotImplementedError, match="tool_result"):
            answer(reply, {reply.calls[0]: result})
        return
    messages = answer(reply, {reply.calls[0]: result})
    rendered = json.dumps(messages)
    assert "18°C" in rendered or "18\\u00b0C" in rendered
    assert reply.calls[0].id in rendered
