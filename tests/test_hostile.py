"""Hostile shapes: replies built to break a parser get an answer, never a crash.

Each test is one shape a broken or hostile server can send: nesting far past the
interpreter's stack, huge strings and lists, bytes that are not UTF-8, lone surrogates,
duplicate keys, numbers no double holds, NaN. The promise is the same for all: a value or
a :class:`toolwire.errors.ToolwireError`, in time proportional to the input. Time bounds are
generous and counted in CPU seconds of the test's thread (a loaded CI machine must pass
them); they catch a hang, not a slowdown.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import toolwire
from toolwire import ToolCall
from toolwire.cli import main as cli_main
from toolwire.errors import MalformedResponse

DEEP = 100_000


def chat(arguments: Any, name: Any = "f", call_id: Any = "call_1") -> dict[str, Any]:
    """A Chat Completions reply with one function call."""
    return {
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": call_id,
                            "type": "function",
                            "function": {"name": name, "arguments": arguments},
                        }
                    ],
                },
            }
        ]
    }


def ollama(arguments: Any) -> dict[str, Any]:
    """An Ollama /api/chat reply whose one call carries ``arguments`` as an object."""
    return {
        "model": "llama3.2",
        "created_at": "2025-01-01T00:00:00Z",
        "done": True,
        "message": {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"function": {"name": "f", "arguments": arguments}}],
        },
    }


def deep_dict(depth: int, leaf: Any = 1) -> dict[str, Any]:
    """``{"a": {"a": … leaf}}`` ``depth`` levels deep, built without recursion."""
    root: dict[str, Any] = {}
    node = root
    for _ in range(depth - 1):
        child: dict[str, Any] = {}
        node["a"] = child
        node = child
    node["a"] = leaf
    return root


def depth_of(value: Any) -> int:
    depth = 0
    while isinstance(value, dict) and "a" in value:
        value, depth = value["a"], depth + 1
    return depth


@contextmanager
def within(seconds: float) -> Iterator[None]:
    """A hang caught in this thread's CPU seconds: time spent waiting for a core on a busy
    machine is not counted, so load cannot fail the bound (speed is the benches')."""
    start = time.thread_time()
    yield
    elapsed = time.thread_time() - start
    assert elapsed < seconds, f"took {elapsed:.1f} CPU s (bound {seconds} s)"


def only_toolwire_errors(run: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return run(*args, **kwargs)
    except toolwire.errors.ToolwireError as exc:
        return exc


# -- depth --------------------------------------------------------------------------------


def test_arguments_nested_100000_deep_are_undecodable() -> None:
    for raw in ("[" * DEEP + "]" * DEEP, '{"a":' * DEEP + "1" + "}" * DEEP):
        (call,) = toolwire.extract("openai", chat(raw))
        assert call.arguments == {}
        assert call.arguments_undecodable
        assert call.arguments_error == "nesting too deep"


def test_arguments_nested_100000_deep_inside_json_text_are_undecodable() -> None:
    text = json.dumps(chat("[" * DEEP + "]" * DEEP))
    (call,) = toolwire.extract("openai", text)
    assert call.arguments_undecodable and call.arguments_error == "nesting too deep"


def test_response_text_nested_100000_deep_is_malformed() -> None:
    text = '{"choices":' * DEEP + "[]" + "}" * DEEP
    for fmt in (*toolwire.Registry.default().formats(), None):
        with pytest.raises(MalformedResponse, match="nesting too deep"):
            toolwire.read(fmt, text)
    assert toolwire.sniff_format(text) is None
    with pytest.raises(MalformedResponse):
        toolwire.extract_sniff(text.encode("utf-8"))


def test_response_dict_nested_100000_deep_gets_an_answer() -> None:
    shapes = [
        deep_dict(DEEP),
        {"choices": [deep_dict(DEEP)],
         "output": [{"type": "message", "content": [deep_dict(DEEP)]}]},
        {"candidates": [{"content": {"parts": [deep_dict(DEEP)]}}], "content": [deep_dict(DEEP)]},
        {"message": deep_dict(DEEP), "model": "m", "done": True},
    ]
    with within(60):
        for data in shapes:
            for fmt in toolwire.Registry.default().formats():
                for strict in (None, True, False):
                    only_toolwire_errors(toolwire.read, fmt, data, strict=strict)
                    only_toolwire_errors(toolwire.locate, fmt, data, strict=strict)
            only_toolwire_errors(toolwire.read, None, data)
            only_toolwire_errors(toolwire.extract_sniff, data)
            toolwire.sniff_format(data)


def test_call_with_arguments_nested_100000_deep_is_a_usable_value() -> None:
    data = ollama(deep_dict(DEEP))
    with within(60):
        (call,) = toolwire.extract("ollama", data)
        assert depth_of(call.arguments) == DEEP
        again = ToolCall.from_dict(call.to_dict())
        assert again == call and hash(again) == hash(call)
        assert again != ToolCall("f", deep_dict(DEEP, leaf=2))
        assert repr(call).startswith("ToolCall(name='f', arguments=")
    assert depth_of(data["message"]["tool_calls"][0]["function"]["arguments"]) == DEEP


def test_server_call_nested_100000_deep_keeps_its_raw_item() -> None:
    data = {
        "stop_reason": "end_turn",
        "content": [
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search",
             "input": deep_dict(DEEP)}
        ],
    }
    with within(60):
        reply = toolwire.read("anthropic", data)
        (server,) = reply.server_calls
        assert depth_of(server.raw["input"]) == DEEP
        assert server == server and repr(server)


# -- size ---------------------------------------------------------------------------------


def test_arguments_string_of_50_mb_decodes() -> None:
    payload = "x" * (50 * 1024 * 1024)
    raw = json.dumps({"data": payload})
    with within(60):
        (call,) = toolwire.extract("openai", chat(raw))
    assert not call.arguments_undecodable
    assert len(call.arguments["data"]) == len(payload)


def test_arguments_string_of_50_mb_cut_off_is_undecodable() -> None:
    raw = '{"data": "' + "x" * (50 * 1024 * 1024)
    with within(60):
        reply = toolwire.read("openai", json.dumps(chat(raw)))
    (call,) = reply.calls
    assert call.arguments_undecodable and call.arguments_error
    assert reply.fates() == ("rejected",)


def test_responses_reply_of_100000_items_is_read_in_order() -> None:
    items: list[dict[str, Any]] = []
    for i in range(100_000):
        if i % 2:
            items.append({"type": "function_call", "id": f"fc_{i}", "call_id": f"call_{i}",
                          "name": "f", "arguments": f'{{"i": {i}}}', "status": "completed"})
        else:
            items.append({"type": "reasoning", "id": f"rs_{i}", "summary": []})
    data = {"object": "response", "status": "completed", "output": items}
    with within(60):
        reply = toolwire.read("responses", data)
        located = toolwire.locate("responses", json.dumps(data))
    assert len(reply.calls) == len(located) == 50_000
    assert [c.arguments["i"] for c in reply.calls[:3]] == [1, 3, 5]
    assert reply.calls[-1].id == "call_99999"


def test_responses_reply_of_100000_refusable_items_refuses_the_first() -> None:
    items = [{"type": "computer_call", "id": f"cu_{i}", "call_id": f"c_{i}"}
             for i in range(100_000)]
    with within(60), pytest.raises(toolwire.errors.UnmappedCall) as caught:
        toolwire.extract("responses", {"status": "completed", "output": items})
    assert caught.value.item_index == 0


# -- encoding -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [b'{"choices": [\xff]}', b'{"a": "\xc3"}', b"\xed\xa0\x80", b'{"a": "\xed\xa0\x80"}',
     b"\xfe\xff\x00{", b"\x00" * 16],
    ids=["stray-byte", "cut-sequence", "surrogate-cesu", "surrogate-in-string", "utf16-bom", "nul"],
)
def test_bytes_that_are_not_utf8_are_malformed(body: bytes) -> None:
    for fmt in (*toolwire.Registry.default().formats(), None):
        with pytest.raises(MalformedResponse):
            toolwire.read(fmt, body)
    assert toolwire.sniff_format(body) is None


def test_lone_surrogates_are_kept_and_serialise_as_escapes() -> None:
    text = json.dumps(chat('{"q": "\\udc00"}', name="f\ud800", call_id="\udfff"))
    (call,) = toolwire.extract("openai", text)
    assert call.name == "f\ud800" and call.id == "\udfff"
    assert call.arguments == {"q": "\udc00"}
    assert ToolCall.from_dict(json.loads(json.dumps(call.to_dict()))) == call


def test_cli_prints_lone_surrogates_as_escapes(tmp_path: Any) -> None:
    path = tmp_path / "reply.json"
    path.write_text(json.dumps(chat('{"q": "\\udc00"}', name="f\ud800")), encoding="ascii")
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    assert cli_main(["extract", str(path)], out=out) == 0
    out.flush()
    printed = json.loads(out.buffer.getvalue())  # type: ignore[attr-defined]
    assert printed["calls"][0]["name"] == "f\ud800"


# -- JSON corner cases -------------------------------------------------------------------


def test_duplicate_keys_keep_the_last_as_json_parse_does() -> None:
    (call,) = toolwire.extract("openai", chat('{"city": "Paris", "city": "Rome"}'))
    assert call.arguments == {"city": "Rome"} and not call.arguments_undecodable
    text = '{"choices": [{"message": {"tool_calls": []}}], "choices": []}'
    assert toolwire.read("openai", text).calls == ()
    body = json.dumps(chat("{}", name="first"))[:-1] + ', "choices": ' + json.dumps(
        chat("{}", name="second")["choices"]) + "}"
    assert [c.name for c in toolwire.extract("openai", body)] == ["second"]


def test_integers_beyond_2_53_stay_exact() -> None:
    big = 2**53 + 1
    huge = 10**40 + 7
    (call,) = toolwire.extract("openai", chat(f'{{"n": {big}, "m": {huge}, "k": -{huge}}}'))
    assert call.arguments == {"n": big, "m": huge, "k": -huge}
    assert type(call.arguments["n"]) is int
    text = json.dumps(ollama({"n": big}))
    (from_object,) = toolwire.extract("ollama", text)
    assert from_object.arguments["n"] == big
    (numeric_id,) = toolwire.extract("openai", json.dumps(chat("{}", call_id=big)))
    assert numeric_id.id == str(big)
    assert json.loads(json.dumps(call.to_dict()))["arguments"]["m"] == huge


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400", "-1e999"])
def test_nan_and_infinity_in_arguments_are_undecodable(literal: str) -> None:
    (call,) = toolwire.extract("openai", chat(f'{{"x": {literal}}}'))
    assert call.arguments == {} and call.arguments_undecodable
    assert call.arguments_error


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_nan_and_infinity_in_a_response_text_are_malformed(literal: str) -> None:
    body = json.dumps(ollama({})).replace('"arguments": {}', f'"arguments": {{"x": {literal}}}')
    with pytest.raises(MalformedResponse):
        toolwire.read("ollama", body)


def _cyclic_arguments() -> dict[str, Any]:
    arguments: dict[str, Any] = {"a": 1}
    arguments["self"] = arguments
    return arguments


def _cyclic_list() -> dict[str, Any]:
    items: list[Any] = [1]
    items.append(items)
    return {"items": items}


@pytest.mark.parametrize("arguments", [_cyclic_arguments(), _cyclic_list()],
                         ids=["object", "list"])
@pytest.mark.parametrize("entry", ["read", "extract"])
def test_a_cyclic_dict_reply_is_malformed_at_once(arguments: dict[str, Any], entry: str) -> None:
    with within(30), pytest.raises(MalformedResponse, match="holds itself"):
        getattr(toolwire, entry)("openai", chat(arguments))


def test_a_value_shared_twice_without_a_cycle_is_read() -> None:
    shared: dict[str, Any] = {"city": "Paris", "deep": deep_dict(DEEP)}  # the explicit stack too
    (call,) = toolwire.extract("openai", chat({"a": shared, "b": shared}))
    assert call.arguments["a"]["city"] == call.arguments["b"]["city"] == "Paris"


def test_a_cyclic_server_call_input_is_malformed_at_once() -> None:
    query: dict[str, Any] = {"q": "x"}
    query["again"] = query
    data = {"content": [{"type": "server_tool_use", "id": "s1", "name": "web_search",
                         "input": query}], "stop_reason": "end_turn"}
    with within(30), pytest.raises(MalformedResponse, match="holds itself"):
        toolwire.read("anthropic", data)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), 10**5000,
                                   -(2**1024), [1, float("nan")], {"deep": [float("inf")]}],
                         ids=["nan", "inf", "-inf", "10**5000", "-2**1024", "in-list",
                              "nested"])
@pytest.mark.parametrize("entry", ["read", "extract"])
def test_values_no_json_text_holds_make_a_dict_reply_malformed_as_its_text_would_be(
    value: Any, entry: str
) -> None:
    with pytest.raises(MalformedResponse, match="response is not JSON"):
        getattr(toolwire, entry)("openai", chat({"x": value}))
    for _ in range(40):  # past the walks, through the compiled fast path too
        with pytest.raises(MalformedResponse):
            toolwire.extract("openai", chat({"x": value}))


def test_the_largest_integer_a_double_holds_is_kept_exact() -> None:
    largest = 2**1024 - 2**970 - 1  # one below the first integer whose double is infinite
    (call,) = toolwire.extract("openai", chat({"x": largest, "y": -largest, "z": 1.5e308}))
    assert call.arguments == {"x": largest, "y": -largest, "z": 1.5e308}
    text = json.dumps(chat(json.dumps({"x": largest})))
    assert toolwire.extract("openai", text)[0].arguments == {"x": largest}


# -- text formats -------------------------------------------------------------------------


def test_a_megabyte_of_open_tags_is_scanned_in_linear_time() -> None:
    text = "<tool_call>{" * 100_000
    with within(30):
        _, calls = toolwire.extract_hermes_from_text(text)
    assert calls == []


def test_a_megabyte_of_closed_empty_blocks_is_scanned_in_linear_time() -> None:
    text = "<tool_call></tool_call>" * 50_000 + '<tool_call>{"name": "f"}</tool_call>'
    with within(30):
        _, calls = toolwire.extract_hermes_from_text(text)
    assert [c.name for c in calls] == ["f"]


def test_text_arguments_nested_100000_deep_do_not_crash() -> None:
    text = '<tool_call>{"name": "f", "arguments": ' + "[" * DEEP + "]" * DEEP + "}</tool_call>"
    with within(30):
        _, calls = toolwire.extract_hermes_from_text(text)
    assert calls == [] or calls[0].arguments_undecodable


def test_lone_surrogates_in_model_text_are_kept() -> None:
    text = 'a\ud800 <tool_call>{"name": "f\udc00", "arguments": {"q": "\\ud800"}}</tool_call>'
    clean, calls = toolwire.extract_hermes_from_text(text)
    assert clean == "a\ud800"
    assert [(c.name, c.arguments) for c in calls] == [("f\udc00", {"q": "\ud800"})]
