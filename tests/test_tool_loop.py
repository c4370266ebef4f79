"""The tool loop as the README writes it: what ``has_calls`` means, the assistant turn, and
what ``answer`` takes."""

from __future__ import annotations

from typing import Any

import pytest

import toolwire
from toolwire._render import mint_id
from toolwire.errors import RenderError


def _chat(finish: str, *calls: tuple[str, str], content: str | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [
            {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": args}}
            for i, (name, args) in enumerate(calls)]
    return {"id": "c", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": finish, "message": message}]}


CUT = _chat("length", ("get_weather", '{"city": "Par'))


def test_a_reply_whose_only_call_was_cut_has_no_calls_to_act_on() -> None:
    reply = toolwire.read("openai", CUT)
    assert reply.truncated and len(reply.dropped_calls) == 1
    assert not reply.has_calls
    assert reply.runnable_calls == () and reply.rejected_calls == ()


def test_a_reply_cut_after_a_complete_call_still_has_calls() -> None:
    reply = toolwire.read("openai", _chat("length", ("a", "{}"), ("b", '{"x": 1}')))
    assert reply.fates() == ("runnable", "dropped")
    assert reply.has_calls
    assert [c["id"] for c in reply.assistant_message()["tool_calls"]] == ["call_0"]


def test_a_rejected_call_alone_is_a_call_to_answer() -> None:
    reply = toolwire.read("openai", _chat("tool_calls", ("a", "{oops")))
    assert reply.fates() == ("rejected",)
    assert reply.has_calls


def test_a_text_reply_whose_only_call_was_cut_has_no_calls() -> None:
    reply = toolwire.read_text("hermes", '<tool_call>{"name": "g", "arguments": {"a": ')
    assert reply.fates() == ("dropped",)
    assert not reply.has_calls


def test_an_empty_assistant_turn_is_refused_with_the_reason() -> None:
    reply = toolwire.read("openai", CUT)
    with pytest.raises(RenderError, match=r"cut off at the token limit.*has_calls is false"):
        reply.assistant_message()
    assert reply.answer({}) == []


def test_a_reply_without_text_or_calls_has_no_turn_to_write_back() -> None:
    body = {"id": "m", "type": "message", "role": "assistant", "model": "c",
            "stop_reason": "end_turn", "content": []}
    with pytest.raises(RenderError, match="holds no text and no call"):
        toolwire.read("anthropic", body).assistant_message()


def test_a_choice_the_content_filter_stopped_ends_the_loop_with_no_turn() -> None:
    body = {"id": "c", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "content_filter",
                         "content_filter_results": {"violence": {"filtered": True,
                                                                 "severity": "medium"}}}]}
    reply = toolwire.read("openai", body)
    assert not reply.has_calls and reply.calls == ()
    assert (reply.finish_reason, reply.truncated, reply.text) == ("content_filter", False, None)
    with pytest.raises(RenderError, match="holds no text and no call"):
        reply.assistant_message()
    assert reply.answer({}) == []


def test_a_cut_reply_with_text_keeps_its_text_turn() -> None:
    reply = toolwire.read("openai", _chat("length", ("f", '{"a'), content="Let me look."))
    assert not reply.has_calls
    assert reply.assistant_message() == {"role": "assistant", "content": "Let me look."}


def test_the_documented_loop_ends_on_a_reply_cut_in_its_only_call() -> None:
    asked = 0

    def create(messages: list[Any]) -> dict[str, Any]:
        nonlocal asked
        asked += 1
        if asked > 3:  # the loop spins: stop it here so the test fails instead of hanging
            raise AssertionError(f"asked {asked} times; messages: {messages}")
        return CUT

    messages: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
    while (reply := toolwire.read("openai", create(messages))).has_calls:
        messages.append(reply.assistant_message())
        messages.extend(reply.answer({c: "21" for c in reply.runnable_calls}))
    assert asked == 1 and reply.truncated
    assert messages == [{"role": "user", "content": "Weather in Paris?"}]


@pytest.mark.parametrize("key", ["calls", "truncated", "format"])
def test_reply_data_without_its_calls_or_its_cut_is_refused(key: str) -> None:
    data = toolwire.read("openai", CUT).to_dict()
    del data[key]
    with pytest.raises(ValueError, match=f"no '{key}'.*finished reply with no calls"):
        toolwire.Reply.from_dict(data)


def test_reply_data_whose_truncated_is_not_a_boolean_is_refused() -> None:
    data = toolwire.read("openai", CUT).to_dict()
    data["truncated"] = "false"
    with pytest.raises(ValueError, match="'truncated' must be a boolean"):
        toolwire.Reply.from_dict(data)


@pytest.mark.parametrize("key", ["calls", "truncated"])
def test_text_reply_data_without_its_calls_is_refused(key: str) -> None:
    data = toolwire.read_text("hermes", '<tool_call>{"name": "g", "arguments": {}}').to_dict()
    del data[key]
    with pytest.raises(ValueError, match=f"no '{key}'"):
        toolwire.TextReply.from_dict(data)


ROLL = {"functionCall": {"name": "roll", "args": {}}}
TWIN_CALLS = {"candidates": [{"content": {"role": "model", "parts": [ROLL, ROLL]}}]}


def test_a_list_of_results_answers_the_runnable_calls_in_order() -> None:
    reply = toolwire.read("gemini", TWIN_CALLS)
    answered = reply.answer([3, 5])
    assert [p["functionResponse"]["response"] for p in answered[0]["parts"]] == [
        {"result": 3}, {"result": 5}]


def test_a_list_skips_rejected_calls_which_get_their_error_result() -> None:
    reply = toolwire.read("openai", _chat("tool_calls", ("a", "{oops"), ("b", "{}")))
    answered = reply.answer(["done"])
    assert [m["tool_call_id"] for m in answered] == ["call_0", "call_1"]
    assert answered[0]["content"].startswith("Error: ") and answered[1]["content"] == "done"


def test_a_list_of_the_wrong_length_says_what_it_holds() -> None:
    reply = toolwire.read("gemini", TWIN_CALLS)
    with pytest.raises(RenderError, match=r"1 results in a list for 2 runnable call\(s\)"):
        reply.answer([3])


def test_calls_equal_in_every_field_keyed_by_call_say_to_key_by_index() -> None:
    reply = toolwire.read("gemini", TWIN_CALLS)
    with pytest.raises(RenderError, match=r"no result for call 1 .*equal in every field.*by"
                       r" index in reply.calls"):
        reply.answer({c: 1 for c in reply.runnable_calls})
    assert len(reply.answer({0: 1, 1: 2})[0]["parts"]) == 2


def test_results_that_are_neither_a_mapping_nor_a_list_are_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"a dict keyed by call id.*or a list"):
        toolwire.read("gemini", TWIN_CALLS).answer(5)  # type: ignore[arg-type]


@pytest.mark.parametrize(("result", "said"), [
    (object(), "a value of type object is no tool result"),
    (float("nan"), "it is no JSON data"),
    ({"when": {1, 2}}, "it is no JSON data"),
])
def test_a_result_that_is_no_json_names_its_call_and_what_a_result_may_be(
    result: Any, said: str
) -> None:
    reply = toolwire.read("gemini", TWIN_CALLS)
    with pytest.raises(RenderError, match=rf"the result for call 0 \(roll\): {said}.*pass a str"
                       ) as caught:
        reply.answer({0: result, 1: 2})
    assert "response" not in str(caught.value)


HERMES_CALL = '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'


def _text_reply(fmt: str, text: str) -> dict[str, Any]:
    if fmt == "openai":
        return _chat("stop", content=text)
    if fmt == "anthropic":
        return {"id": "m", "type": "message", "role": "assistant", "model": "c",
                "stop_reason": "end_turn", "content": [{"type": "text", "text": text}]}
    return {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}}]}


def test_calls_lifted_from_text_get_ids_the_turn_and_the_answers_agree_on() -> None:
    reply = toolwire.read("openai", _text_reply("openai", "Sure. " + HERMES_CALL),
                          text_format="hermes")
    (call,) = reply.calls
    assert call.id and call.id == mint_id(call.replace(id=""), 0)
    turn = reply.assistant_message()
    assert turn["tool_calls"][0]["id"] == call.id
    assert reply.answer(["21"])[0]["tool_call_id"] == call.id
    assert toolwire.convert(reply, to="openai")["tool_calls"][0]["id"] == call.id


def test_an_item_format_turn_carries_the_lifted_calls_after_its_items() -> None:
    reply = toolwire.read("anthropic", _text_reply("anthropic", HERMES_CALL), text_format="hermes")
    content = reply.assistant_message()["content"]
    assert [b["type"] for b in content] == ["text", "tool_use"]
    assert content[1]["id"] == reply.calls[0].id != ""
    assert reply.answer(["21"])[0]["content"][0]["tool_use_id"] == reply.calls[0].id


def test_identical_text_calls_get_distinct_ids() -> None:
    reply = toolwire.read("openai", _text_reply("openai", HERMES_CALL * 2), text_format="hermes")
    ids = [c.id for c in reply.calls]
    assert len(set(ids)) == 2 and all(ids)


def test_a_format_that_pairs_results_by_name_mints_only_when_asked() -> None:
    body = _text_reply("gemini", HERMES_CALL)
    assert toolwire.read("gemini", body, text_format="hermes").calls[0].id == ""
    assert toolwire.read("gemini", body, text_format="hermes", ids="mint").calls[0].id != ""
    mine = toolwire.read("gemini", body, text_format="hermes", ids=lambda c, i: f"{c.name}-{i}")
    assert mine.calls[0].id == "get_weather-0"
    assert mine.answer(["21"])[0]["parts"][0]["functionResponse"]["id"] == "get_weather-0"


def test_ids_need_text_format_and_a_fresh_id() -> None:
    with pytest.raises(ValueError, match="needs text_format"):
        toolwire.read("openai", _chat("stop", content="x"), ids="mint")
    with pytest.raises(ValueError, match="an id must be a non-empty string"):
        toolwire.read("openai", _text_reply("openai", HERMES_CALL), text_format="hermes",
                      ids=lambda c, i: "")
