"""assistant_message(), answer() and convert(): the tool loop closed, per format.

The placeholder language first (specs/README.md §6.1), then what a loop relies on: the
assistant turn keeps what must go back and loses the dropped calls; every kept call gets
exactly one result, rejected calls their error result unasked; results are text, JSON,
MCP blocks or errors; convert refuses what the target cannot say, and says why.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from typing import Any

import growth
import pytest

import toolwire
from toolwire._render.template import ABSENT, Scope, fill, placeholders
from toolwire.errors import RenderError

# --- the placeholder language -----------------------------------------------------------


def _fill(template: Any, **values: Any) -> Any:
    return fill(template, Scope("demo", values))


def test_a_whole_placeholder_takes_any_json_value() -> None:
    assert _fill({"a": "${x}", "b": ["${y}"]}, x={"k": [1]}, y=2) == {"a": {"k": [1]}, "b": [2]}


def test_an_absent_or_null_placeholder_drops_its_member_or_element() -> None:
    assert _fill({"a": "${x}", "b": ["${x}", 1], "c": "${y}"}, y=None) == {"b": [1]}
    assert _fill("${x}") is ABSENT


def test_a_question_mark_also_drops_empty_values() -> None:
    assert _fill({"a": "${x?}", "b": "${y?}", "c": "${z}"}, x="", y=[], z="") == {"c": ""}


def test_placeholders_inside_text_splice_and_drop_when_absent() -> None:
    template = {"url": "data:${m};base64,${d}", "n": "n=${k}"}
    assert _fill(template, m="image/png", d="AAA=", k=3) == {
        "url": "data:image/png;base64,AAA=", "n": "n=3"}
    assert _fill(template, m="image/png", k=3) == {"n": "n=3"}
    with pytest.raises(RenderError):
        _fill("x${m}", m={"not": "text"})


def test_double_dollar_escapes_and_paths_read_members() -> None:
    assert _fill(["$${x}", "${a.b.c}", "${a.b.missing}", "${a.b}"], a={"b": {"c": 1}}) == [
        "${x}", 1, {"c": 1}]
    assert placeholders({"a": ["${call.id?}", "x${b.c}y"], "b": "$${no}"}) == {"call.id", "b.c"}


def test_a_filled_template_shares_nothing_with_its_values() -> None:
    value = {"k": [1]}
    out = _fill({"a": "${x}"}, x=value)
    out["a"]["k"].append(2)
    assert value == {"k": [1]}


# --- assistant_message ------------------------------------------------------------------

ANTHROPIC = {
    "id": "msg_1", "type": "message", "role": "assistant", "stop_reason": "tool_use",
    "content": [
        {"type": "thinking", "thinking": "Two lookups.", "signature": "EqQBCkgIAhABGAIiQL"},
        {"type": "text", "text": "Checking."},
        {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}},
        {"type": "tool_use", "id": "toolu_2", "name": "get_time", "input": {"tz": "CET"},
         "caller": {"type": "code_execution_20250825", "tool_id": "srvtoolu_9"}},
    ],
}


def test_the_anthropic_turn_keeps_thinking_and_callers() -> None:
    turn = toolwire.read("anthropic", ANTHROPIC).assistant_message()
    assert turn == {"role": "assistant", "content": ANTHROPIC["content"]}


def test_a_truncated_reply_loses_its_dropped_call_from_the_turn_and_the_answers() -> None:
    cut = {**ANTHROPIC, "stop_reason": "max_tokens"}
    reply = toolwire.read("anthropic", cut)
    assert [c.id for c in reply.dropped_calls] == ["toolu_2"]
    assert [b.get("id") for b in reply.assistant_message()["content"]] == [
        None, None, "toolu_1"]
    assert reply.answer({"toolu_1": "sunny"}) == [{"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"}]}]
    with pytest.raises(RenderError, match="dropped"):
        reply.answer({"toolu_1": "sunny", "toolu_2": "12:00"})


GEMINI = {"candidates": [{"content": {"role": "model", "parts": [
    {"text": "Comparing.", "thought": True, "thoughtSignature": "c2lnMQ=="},
    {"functionCall": {"name": "get_weather", "args": {"city": "Lisbon"}},
     "thoughtSignature": "c2lnMg=="},
    {"functionCall": {"name": "get_weather", "args": {"city": "Porto"}}},
]}, "finishReason": "STOP"}]}


def test_the_gemini_turn_keeps_every_part_and_signature() -> None:
    reply = toolwire.read("gemini", GEMINI)
    assert reply.assistant_message() == {
        "role": "model", "parts": GEMINI["candidates"][0]["content"]["parts"]}


def test_gemini_calls_without_ids_are_answered_by_the_calls_themselves() -> None:
    reply = toolwire.read("gemini", GEMINI)
    lisbon, porto = reply.calls
    assert reply.answer({porto: {"temp": 18}, lisbon: "21 C"}) == [{"role": "user", "parts": [
        {"functionResponse": {"name": "get_weather", "response": {"result": "21 C"}}},
        {"functionResponse": {"name": "get_weather", "response": {"temp": 18}}},
    ]}]
    twice = toolwire.read("gemini", {"candidates": [{"content": {"parts": [
        {"functionCall": {"name": "roll", "args": {}}},
        {"functionCall": {"name": "roll", "args": {}}}]}}]})
    parts = twice.answer({0: 3, 1: 5})[0]["parts"]  # equal calls: keyed by their index
    assert [p["functionResponse"]["response"] for p in parts] == [{"result": 3}, {"result": 5}]
    with pytest.raises(RenderError, match="2 calls of this reply match"):
        twice.answer({toolwire.ToolCall("roll", {}): 3, 1: 5})


RESPONSES = {"id": "resp_1", "status": "completed", "output": [
    {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAA"},
    {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
     "arguments": "{\"city\": \"Paris\",  \"days\": 2.50}", "status": "completed"},
    {"type": "function_call", "id": "fc_2", "call_id": "call_2", "name": "book",
     "arguments": "{\"city\": \"Par", "status": "completed"},
]}


def test_the_responses_turn_is_its_items_with_calls_byte_for_byte() -> None:
    turn = toolwire.read("responses", RESPONSES).assistant_message()
    assert turn[0] == RESPONSES["output"][0]
    assert turn[1] == {"type": "function_call", "id": "fc_1", "call_id": "call_1",
                       "name": "get_weather", "arguments": "{\"city\": \"Paris\",  \"days\": 2.50}"}
    assert turn[2]["arguments"] == "{\"city\": \"Par"


def test_a_rejected_call_is_answered_by_its_error_result_unasked() -> None:
    reply = toolwire.read("responses", RESPONSES)
    assert [c.id for c in reply.rejected_calls] == ["call_2"]
    first, second = reply.answer({"call_1": {"forecast": ["sun", "rain"]}})
    assert first == {"type": "function_call_output", "call_id": "call_1",
                     "output": "{\"forecast\":[\"sun\",\"rain\"]}"}
    assert second["call_id"] == "call_2"
    assert second["output"] == toolwire.Reply.error_result(reply.calls[1])


def test_every_kept_call_needs_a_result() -> None:
    reply = toolwire.read("anthropic", ANTHROPIC)
    with pytest.raises(RenderError, match="no result for call 1"):
        reply.answer({"toolu_1": "sunny"})
    with pytest.raises(RenderError, match="no call of this reply"):
        reply.answer({"toolu_1": "a", "toolu_2": "b", "toolu_9": "c"})


def test_results_may_be_mcp_call_tool_results_and_exceptions() -> None:
    reply = toolwire.read("openai", {"choices": [{"message": {"tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        {"id": "c2", "type": "function", "function": {"name": "g", "arguments": "{}"}},
        {"id": "c3", "type": "function", "function": {"name": "h", "arguments": "{}"}}]}}]})
    answers = reply.answer({
        "c1": {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
        "c2": {"content": [{"type": "text", "text": "quota"}], "isError": True},
        "c3": TimeoutError("took too long"),
    })
    assert answers == [
        {"role": "tool", "tool_call_id": "c1", "content": [
            {"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
        {"role": "tool", "tool_call_id": "c2", "content": "Error: quota"},
        {"role": "tool", "tool_call_id": "c3", "content": "Error: TimeoutError: took too long"},
    ]


def test_content_a_format_cannot_carry_is_refused_with_the_reason() -> None:
    reply = toolwire.read("openai", {"choices": [{"message": {"tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}}]})
    image = [{"type": "image", "data": "AAAA", "mimeType": "image/png"}]
    with pytest.raises(RenderError, match="cannot carry MCP image"):
        reply.answer({"c1": image})
    ollama = toolwire.read("ollama", {"message": {"tool_calls": [
        {"function": {"name": "f", "arguments": {}}}]}})
    with pytest.raises(RenderError, match="cannot be written as text"):
        ollama.answer({ollama.calls[0]: image})


def test_a_reply_restored_from_a_copy_renders_the_turn_it_was_read_with() -> None:
    reply = toolwire.read("anthropic", ANTHROPIC)
    for other in (pickle.loads(pickle.dumps(reply)), copy.deepcopy(reply)):
        assert other == reply
        # A copy carries Reply.turn: the thinking block and its signature come back too.
        assert other.assistant_message() == reply.assistant_message()
        assert [b["type"] for b in other.assistant_message()["content"]] == [
            "thinking", "text", "tool_use", "tool_use"]
        assert other.answer({"toolu_1": "x", "toolu_2": "y"}) == reply.answer(
            {"toolu_1": "x", "toolu_2": "y"})


# --- convert ----------------------------------------------------------------------------


def test_convert_writes_text_and_calls_in_the_target_format() -> None:
    reply = toolwire.read("anthropic", ANTHROPIC)
    assert toolwire.convert(reply, "openai", lossy=True) == {
        "role": "assistant", "content": "Checking.", "tool_calls": [
            {"id": "toolu_1", "type": "function",
             "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
            {"id": "toolu_2", "type": "function",
             "function": {"name": "get_time", "arguments": "{\"tz\":\"CET\"}"}}]}
    assert toolwire.convert(reply, "gemini", lossy=True)["parts"][0] == {"text": "Checking."}


def test_convert_refuses_what_the_target_cannot_express() -> None:
    with pytest.raises(RenderError, match="provider data"):
        toolwire.convert(toolwire.read("anthropic", ANTHROPIC), "openai")
    with pytest.raises(RenderError, match="has no id"):
        toolwire.convert(toolwire.read("gemini", GEMINI), "anthropic", lossy=True)
    with pytest.raises(RenderError, match="undecodable"):
        toolwire.convert(toolwire.read("responses", RESPONSES), "anthropic", lossy=True)
    served = toolwire.read("responses", {"output": [
        {"type": "web_search_call", "id": "ws_1", "status": "completed"}]})
    with pytest.raises(RenderError, match="ran itself"):
        toolwire.convert(served, "anthropic")
    assert toolwire.convert(served, "anthropic", lossy=True) == {"role": "assistant",
                                                                 "content": []}


def test_a_format_without_render_is_a_clear_error() -> None:
    registry = toolwire.Registry.default()
    reply = toolwire.read("openai", {"choices": [{"message": {}}]})
    assert registry.spec("openai").render is not None
    with pytest.raises(toolwire.errors.UnknownFormat):
        toolwire.convert(reply, "no_such_format")


# --- answering many calls ---------------------------------------------------------------


def _many_calls(n: int, ids: bool) -> toolwire.Reply:
    parts = [{"functionCall": {"name": "roll", "args": {"n": i},
                               **({"id": f"c{i}"} if ids else {})}} for i in range(n)]
    return toolwire.read("gemini", {"candidates": [{"content": {"parts": parts}}]})


def _answering(reply: toolwire.Reply, keys: list[Any]) -> Callable[[], object]:
    results = dict.fromkeys(keys, "ok")
    return lambda: reply.answer(results)


@pytest.mark.parametrize("key", ["call", "id", "equal call"])
def test_answering_4x_the_calls_takes_about_4x_the_time(key: str) -> None:
    def keys(reply: toolwire.Reply) -> list[Any]:
        if key == "id":
            return [c.id for c in reply.calls]
        if key == "equal call":
            return [toolwire.ToolCall.from_dict(c.to_dict()) for c in reply.calls]
        return list(reply.calls)

    small, large = _many_calls(2_500, True), _many_calls(10_000, True)
    ratio = growth.ratio(_answering(small, keys(small)), _answering(large, keys(large)))
    assert ratio < growth.GROWTH_BOUND, (
        f"4x the calls took {ratio:.1f}x the time (linear: 4, quadratic: 16)")


def test_an_equal_call_still_names_one_call_among_thousands() -> None:
    reply = _many_calls(3_000, False)
    twin = toolwire.ToolCall.from_dict(reply.calls[1234].to_dict())
    assert twin is not reply.calls[1234]
    others = {c: "x" for i, c in enumerate(reply.calls) if i != 1234}
    answered = reply.answer({**others, twin: "found"})[0]["parts"]
    assert answered[1234]["functionResponse"]["response"] == {"result": "found"}


# --- errors the model can read ------------------------------------------------------------

_ONE_CALL = {
    "openai": {"choices": [{"message": {"tool_calls": [{"id": "c1", "type": "function",
               "function": {"name": "get_weather", "arguments": "{}"}}]}}]},
    "responses": {"output": [{"type": "function_call", "call_id": "c1", "name": "get_weather",
                              "arguments": "{}"}]},
    "cohere": {"message": {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
               "function": {"name": "get_weather", "arguments": "{}"}}]}},
    "ollama": {"message": {"role": "assistant", "tool_calls": [
        {"id": "c1", "function": {"name": "get_weather", "arguments": {}}}]}},
    "anthropic": {"content": [{"type": "tool_use", "id": "c1", "name": "get_weather",
                               "input": {}}]},
    "bedrock": {"output": {"message": {"role": "assistant", "content": [
        {"toolUse": {"toolUseId": "c1", "name": "get_weather", "input": {}}}]}}},
    "gemini": {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"id": "c1", "name": "get_weather", "args": {}}}]}}]},
}


def _error_text(fmt: str, result: Any) -> Any:
    reply = toolwire.read(fmt, _ONE_CALL[fmt])
    rendered = reply.answer({reply.calls[0]: result})
    message = rendered[0]
    if fmt == "openai" or fmt == "cohere" or fmt == "ollama":
        return message["content"]
    if fmt == "responses":
        return message["output"]
    if fmt == "anthropic":
        block = message["content"][0]
        return block["content"], block["is_error"]
    if fmt == "bedrock":
        block = message["content"][0]["toolResult"]
        return block["content"][0]["text"], block["status"]
    return message["parts"][0]["functionResponse"]["response"]


@pytest.mark.parametrize("fmt", ["openai", "responses", "cohere", "ollama"])
def test_where_a_format_has_no_error_flag_the_text_says_error_and_names_the_type(
    fmt: str,
) -> None:
    assert _error_text(fmt, KeyError("city")) == "Error: KeyError: 'city'"
    assert _error_text(fmt, ValueError()) == "Error: ValueError"
    assert _error_text(fmt, {"content": [{"type": "text", "text": "quota"}],
                             "isError": True}) == "Error: quota"


def test_where_a_format_has_an_error_flag_the_text_names_the_type() -> None:
    assert _error_text("anthropic", KeyError("city")) == ("KeyError: 'city'", True)
    assert _error_text("bedrock", ValueError()) == ("ValueError", "error")
    assert _error_text("gemini", TimeoutError("slow")) == {"error": "TimeoutError: slow"}
    assert _error_text("anthropic", {"content": [{"type": "text", "text": "quota"}],
                                     "isError": True}) == ("quota", True)


def test_a_rejected_calls_error_result_is_not_labelled_twice() -> None:
    reply = toolwire.read("openai", {"choices": [{"message": {"tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"a\":"}}]}}]})
    (message,) = reply.answer({})
    assert message["content"] == toolwire.Reply.error_result(reply.calls[0])
    assert message["content"].startswith("Error: the arguments") and "Error: Error" not in (
        message["content"])


@pytest.mark.parametrize("fmt, key", [("openai", "content"), ("responses", "output"),
                                      ("anthropic", "content")])
def test_an_mcp_result_without_content_is_the_empty_string_where_text_goes(
    fmt: str, key: str
) -> None:
    reply = toolwire.read(fmt, _ONE_CALL[fmt])
    rendered = reply.answer({reply.calls[0]: {"content": [], "isError": False}})[0]
    found = rendered["content"][0] if fmt == "anthropic" else rendered
    assert found[key] == ""


def test_an_unknown_tool_is_answered_with_the_tools_on_offer() -> None:
    request = {"tools": [{"type": "function", "function": {"name": "get_weather"}},
                         {"type": "function", "function": {"name": "get_time"}}]}
    body = {"choices": [{"message": {"tool_calls": [{"id": "c1", "type": "function",
            "function": {"name": "get_wether", "arguments": "{}"}}]}}]}
    reply = toolwire.read("openai", body, tools=request)
    tools = toolwire.Tools("openai", request)
    call = reply.calls[0]
    help_text = ("Did you mean 'get_weather'? The tools offered are: get_weather, get_time.")
    assert help_text in reply.error_result(call)
    assert reply.error_result(call) == tools.error_result(call)
    assert reply.answer({})[0]["content"] == reply.error_result(call)
    restored = toolwire.Reply.from_dict(json.loads(json.dumps(reply.to_dict())))
    assert restored.error_result(restored.calls[0]) == reply.error_result(call)
    assert [(e.pointer, e.keyword) for e in call.arguments_errors] == [("", "unknown_tool")]


# --- convert: ids for calls that have none, refused items --------------------------------

_GEMINI_TWINS = {"candidates": [{"content": {"role": "model", "parts": [
    {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
    {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]}}]}


def test_convert_mints_deterministic_ids_every_provider_accepts() -> None:
    import re

    reply = toolwire.read("gemini", _GEMINI_TWINS)
    turn = toolwire.convert(reply, "openai", ids="mint")
    ids = [c["id"] for c in turn["tool_calls"]]
    assert ids == ["aefe4e95c", "553af602b"]  # tools/js/test/render.test.mjs mints the same
    assert ids == [c["id"] for c in toolwire.convert(reply, "openai", ids="mint")["tool_calls"]]
    assert all(re.fullmatch("[a-zA-Z0-9]{9}", i) for i in ids)  # Mistral's rule, the strictest
    for fmt in ("mistral", "anthropic", "responses", "bedrock", "cohere"):
        assert ids[0] in json.dumps(toolwire.convert(reply, fmt, ids="mint", lossy=True))
    back = toolwire.read("openai", {"choices": [{"message": turn}]})
    assert back.answer({i: "21 C" for i in ids})[1]["tool_call_id"] == ids[1]


def test_convert_takes_ids_from_a_function_of_the_call_and_its_index() -> None:
    reply = toolwire.read("gemini", _GEMINI_TWINS)
    turn = toolwire.convert(reply, "anthropic", ids=lambda call, i: f"toolu_{call.name}_{i}")
    assert [b["id"] for b in turn["content"]] == ["toolu_get_weather_0", "toolu_get_weather_1"]
    with pytest.raises(RenderError, match="no other call has"):
        toolwire.convert(reply, "anthropic", ids=lambda call, i: "same")
    with pytest.raises(ValueError, match="ids must be"):
        toolwire.convert(reply, "anthropic", ids="random")


def test_convert_never_drops_a_call_the_source_format_refused() -> None:
    body = {"choices": [{"message": {"tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        {"id": "c2", "type": "custom", "custom": {"name": "grep", "input": "TODO"}}]}}]}
    with pytest.raises(toolwire.errors.UnmappedCall) as caught:
        toolwire.read("openai", body)
    with pytest.raises(RenderError, match=r"refused \(custom\)"):
        toolwire.convert(caught.value.reply, "anthropic", lossy=True)
