"""A Reply carries its assistant turn as plain data (``Reply.turn``, specs/README.md §7).

For every conformance reply that reads, of every format with a ``render`` part, the
assistant turn and the answers are the same from the reply as read, from a pickled copy,
from ``copy.copy``/``copy.deepcopy`` and from its JSON form written out as text and read
back — for the bundled formats and for the same formats registered under a user's own names
in a :class:`toolwire.Registry` of its own, which rendering then takes as ``registry=``.
"""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

import toolwire
from toolwire import Registry, Reply
from toolwire.errors import RenderError
from toolwire.types import Turn

from conformance import cases, each_test

REGISTRY = Registry.default()
RENDERED = [
    (name, case.data["format"], test)
    for name, case, test in each_test(cases())
    if case.data.get("format") and REGISTRY.spec(case.data["format"]).render is not None
    and "error" not in test["expect"]  # a case whose reply does not read has no turn
]
USER = "user_"  # a user format's name: the bundled one's, prefixed


@pytest.fixture(scope="module")
def user_registry(tmp_path_factory: pytest.TempPathFactory) -> Registry:
    """Every rendering bundled format again as ``user_<format>``, in a registry of its own."""
    folder = tmp_path_factory.mktemp("user_specs")
    for fmt in sorted({fmt for _, fmt, _ in RENDERED}):
        (folder / f"{USER}{fmt}.yaml").write_text(
            f"spec_version: 1\nformat: {USER}{fmt}\nextends: {fmt}\ntitle: mine\n"
            "doc_ref: https://example.com/mine\n", encoding="utf-8")
    return Registry.from_paths(folder)


def _read(registry: Registry, fmt: str, test: dict[str, Any]) -> Reply:
    return registry.read(fmt, test["response"], strict=test.get("strict"),
                         choice=test.get("choice", 0))


def _rendered(reply: Reply, registry: Registry | None) -> dict[str, Any]:
    """The assistant turn and the answers (each kept call answered), or the error each gives."""
    found: dict[str, Any] = {}
    results = {i: f"result {i}" for i, f in enumerate(reply.fates()) if f != "dropped"}
    for key, make in (("assistant", lambda: reply.assistant_message(registry=registry)),
                      ("answer", lambda: reply.answer(results, registry=registry))):
        try:
            found[key] = make()
        except RenderError as exc:
            found[key] = f"RenderError: {exc}"
    return found


def _copies(reply: Reply) -> list[tuple[str, Reply]]:
    as_text = json.dumps(reply.to_dict())
    return [
        ("pickle", pickle.loads(pickle.dumps(reply))),
        ("copy", copy.copy(reply)),
        ("deepcopy", copy.deepcopy(reply)),
        ("json", Reply.from_dict(json.loads(as_text))),
    ]


@pytest.mark.parametrize(("name", "fmt", "test"), RENDERED, ids=[r[0] for r in RENDERED])
def test_a_copied_or_restored_reply_renders_the_same_turn_and_answers(
    name: str, fmt: str, test: dict[str, Any], user_registry: Registry
) -> None:
    reply = _read(REGISTRY, fmt, test)
    want = _rendered(reply, None)
    for how, other in _copies(reply):
        assert other == reply, how
        assert other.turn == reply.turn, how
        assert _rendered(other, None) == want, how

    mine = _read(user_registry, USER + fmt, test)
    assert mine.turn == reply.turn
    for how, other in [("read", mine), *_copies(mine)]:
        got = _rendered(other, user_registry)
        # The same turn as the bundled format's, errors naming the user format instead.
        assert json.dumps(got).replace(USER + fmt, fmt) == json.dumps(want), how


def test_every_rendering_format_is_covered() -> None:
    assert {"openai", "responses", "anthropic", "gemini", "bedrock", "ollama", "cohere",
            "mistral", "deepseek"} <= {fmt for _, fmt, _ in RENDERED}


ANTHROPIC = {"type": "message", "role": "assistant", "stop_reason": "tool_use", "content": [
    {"type": "thinking", "thinking": "Weather first.", "signature": "EqQBCkYIARgC"},
    {"type": "redacted_thinking", "data": "EmwKAhgB"},
    {"type": "text", "text": "Checking."},
    {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}]}


def test_a_pickled_reply_keeps_thinking_blocks_and_their_signatures() -> None:
    reply = toolwire.read("anthropic", ANTHROPIC)
    restored = pickle.loads(pickle.dumps(reply))
    assert restored.assistant_message()["content"][:2] == ANTHROPIC["content"][:2]  # type: ignore[index]


def test_the_turn_holds_items_as_sent_and_call_items_as_their_call_index() -> None:
    reply = toolwire.read("anthropic", ANTHROPIC)
    assert reply.turn is not None
    assert reply.turn.items == (*ANTHROPIC["content"][:3], 0)  # type: ignore[misc]
    assert reply.to_dict()["turn"] == {"items": [*ANTHROPIC["content"][:3], 0], "response": {}}


def test_the_turn_keeps_the_values_the_assistant_template_takes_from_the_response() -> None:
    reply = toolwire.read("cohere", {"message": {"role": "assistant", "tool_plan": "Look it up.",
        "tool_calls": [{"id": "c1", "type": "function",
                        "function": {"name": "f", "arguments": "{}"}}]},
        "finish_reason": "TOOL_CALL"})
    assert reply.turn is not None
    assert reply.turn.response == {"message.tool_plan": "Look it up."}
    restored = Reply.from_dict(json.loads(json.dumps(reply.to_dict())))
    assert restored.assistant_message()["tool_plan"] == "Look it up."


def test_the_turn_hands_out_copies() -> None:
    reply = toolwire.read("anthropic", ANTHROPIC)
    assert reply.turn is not None
    reply.turn.items[0]["signature"] = "changed"
    assert reply.assistant_message()["content"][0]["signature"] == "EqQBCkYIARgC"


DEMO = """spec_version: 1
format: demo
title: Demo
doc_ref: https://example.invalid
items:
  - select: calls
    type_const: call
unknown_items: refuse
calls:
  - type: call
    name: fnName
    arguments: fnArgs
"""


def test_a_format_without_a_render_part_has_no_turn(tmp_path: Path) -> None:
    (tmp_path / "demo.yaml").write_text(DEMO, encoding="utf-8")
    registry = Registry.from_paths(tmp_path)
    assert registry.spec("demo").render is None
    reply = registry.read("demo", {"calls": [{"fnName": "f", "fnArgs": {"a": 1}}]})
    assert [c.name for c in reply.calls] == ["f"]
    assert reply.turn is None
    assert Reply.from_dict(reply.to_dict()) == reply
    assert Reply("openai", ()).turn is None  # built by hand: nothing was sent to keep


def test_a_reply_dict_without_a_turn_still_reads_and_renders_from_its_calls() -> None:
    data = toolwire.read("anthropic", ANTHROPIC).to_dict()
    del data["turn"]  # as written before replies carried their turn
    reply = Reply.from_dict(data)
    assert reply.turn is None
    assert [b["type"] for b in reply.assistant_message()["content"]] == ["text", "tool_use"]


def test_a_user_format_renders_only_through_the_registry_it_is_passed(
    tmp_path: Path,
) -> None:
    (tmp_path / "mine.yaml").write_text(
        "spec_version: 1\nformat: mine\nextends: anthropic\ntitle: mine\n"
        "doc_ref: https://example.com/mine\n", encoding="utf-8")
    registry = Registry.from_paths(tmp_path)
    reply = registry.read("mine", ANTHROPIC)
    for other in (reply, pickle.loads(pickle.dumps(reply)),
                  Reply.from_dict(json.loads(json.dumps(reply.to_dict())))):
        with pytest.raises(RenderError, match=r"no format 'mine'.*registry="):
            other.assistant_message()
        with pytest.raises(RenderError, match=r"no format 'mine'.*registry="):
            other.answer({"toolu_1": "x"})
        assert other.assistant_message(registry=registry)["content"][0]["signature"] == (
            "EqQBCkYIARgC")
        assert other.answer({"toolu_1": "x"}, registry=registry) == [{"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "x"}]}]


def test_a_turn_naming_a_call_the_reply_lacks_is_refused() -> None:
    with pytest.raises(ValueError, match="names call 1, but the reply has 1"):
        Reply("anthropic", (toolwire.ToolCall("f", {}),), turn=Turn([0, 1]))
    data = toolwire.read("anthropic", ANTHROPIC).to_dict()
    data["turn"]["items"].append(5)
    with pytest.raises(ValueError, match="names call 5"):
        Reply.from_dict(data)


@pytest.mark.parametrize("turn", [
    {"items": ["text"]}, {"items": [-1]}, {"items": {}}, {"response": []}, {"extra": 1},
    {"response": {"message.tool_plan": float("nan")}},
])
def test_a_malformed_turn_in_json_is_refused(turn: dict[str, Any]) -> None:
    data = toolwire.read("anthropic", ANTHROPIC).to_dict()
    data["turn"] = turn
    with pytest.raises((ValueError, TypeError)):
        Reply.from_dict(data)


def _forge(response: dict[str, Any]) -> None:
    """What a caller might do to the response after reading it: change its blocks."""
    content = response["content"]
    content[0]["signature"] = "FORGED"
    content[2]["text"] = "Injected."
    content[3]["input"]["city"] = "Elsewhere"


@pytest.mark.parametrize("read", [1, 3])
def test_a_reply_renders_the_turn_it_read_after_the_response_is_changed(read: int) -> None:
    for _ in range(read):  # from the third read on, the spec's generated reader reads it
        response = copy.deepcopy(ANTHROPIC)
        reply = toolwire.read("anthropic", response)
    before = reply.assistant_message()
    _forge(response)
    assert reply.assistant_message() == before
    assert before["content"][0]["signature"] == "EqQBCkYIARgC"  # type: ignore[index]
    assert before["content"][2]["text"] == "Checking."  # type: ignore[index]
    assert reply.text == "Checking."
    assert reply.calls[0].arguments == {"city": "Paris"}


RESPONSES: dict[str, Any] = {
    "object": "response", "status": "completed", "output": [
        {"id": "rs_1", "type": "reasoning",
         "summary": [{"type": "summary_text", "text": "Weather first."}]},
        {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "Checking.", "annotations": []}]},
        {"id": "fc_1", "type": "function_call", "call_id": "call_1", "name": "get_weather",
         "arguments": "{\"city\": \"Paris\"}"},
    ]}


@pytest.mark.parametrize("read", [1, 3])
def test_a_reply_keeps_the_nested_lists_and_objects_of_its_items(read: int) -> None:
    for _ in range(read):  # from the third read on, the spec's generated reader reads it
        response = copy.deepcopy(RESPONSES)
        reply = toolwire.read("responses", response)
    before = copy.deepcopy(reply.assistant_message())
    output = response["output"]
    output[0]["summary"][0]["text"] = "FORGED"
    output[0]["summary"].append({"type": "summary_text", "text": "Injected."})
    output[1]["content"][0]["annotations"].append({"type": "url_citation"})
    output[1]["content"][0]["text"] = "Injected."
    del output[1]["status"]
    assert reply.assistant_message() == before
    assert reply.turn is not None
    assert reply.turn.items[:2] == tuple(RESPONSES["output"][:2])


def test_the_interpreter_keeps_copies_of_the_turn_too() -> None:
    from toolwire._wire.reading import read_reply

    response = copy.deepcopy(ANTHROPIC)
    reply = read_reply(REGISTRY.spec("anthropic"), response)
    _forge(response)
    assert reply.turn is not None
    assert reply.turn.items[:3] == tuple(ANTHROPIC["content"][:3])


def test_a_reply_read_from_an_sdk_object_keeps_its_turn_when_the_object_changes() -> None:
    from anthropic.types import Message

    message = Message.model_validate({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "stop_reason": "tool_use", "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1}, "content": ANTHROPIC["content"]})
    reply = toolwire.read("anthropic", message)
    before = reply.assistant_message()
    message.content[0].signature = "FORGED"  # type: ignore[union-attr]
    message.content[2].text = "Injected."  # type: ignore[union-attr]
    assert reply.assistant_message() == before
    assert before["content"][0]["signature"] == "EqQBCkYIARgC"  # type: ignore[index]


def test_copy_checked_copies_every_dict_and_list_however_deep() -> None:
    from collections import OrderedDict

    from toolwire._values.json_values import copy_checked

    inner = OrderedDict(text="Checking.")
    value = {"content": [inner, {"signature": b"\x01"}], "n": 1.5}
    copied = copy_checked(value)
    assert copied == value
    assert copied["content"] is not value["content"]
    assert copied["content"][0] is not inner  # a dict subclass is copied too
    assert copied["content"][1]["signature"] == b"\x01"  # bytes shared as they are
    deep: Any = []
    for _ in range(5_000):  # deeper than the recursion limit: copy_json's way
        deep = [deep]
    assert copy_checked(deep) is not deep
