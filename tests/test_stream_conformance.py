"""Runs every stream conformance case: the ready order, the Reply, equivalence with read()."""

from __future__ import annotations

from typing import Any

import pytest
from stream_cases import STREAM_CASES, STREAM_TESTS, Case, core, ready_text, run

import toolwire
from toolwire._values.arguments import decode_arguments
from toolwire.conformance._checks_stream import update_json

BASE_FORMATS = ("openai", "responses", "anthropic", "gemini", "ollama", "bedrock", "cohere")


def _compare_reply(reply: toolwire.Reply, expect: dict[str, Any]) -> None:
    if "calls" in expect:
        assert [core(c.to_dict()) for c in reply.calls] == [core(c) for c in expect["calls"]]
    if "server_calls" in expect:
        got = [{k: v for k, v in s.to_dict().items() if k in ("type", "id", "name", "status")}
               for s in reply.server_calls]
        assert got == expect["server_calls"]
    for key in ("truncated", "finish_reason", "text"):
        if key in expect:
            assert getattr(reply, key) == expect[key]
    if "unknown_types" in expect:
        assert list(reply.unknown_types) == expect["unknown_types"]


def _without_provenance(data: dict[str, Any]) -> dict[str, Any]:
    """A Reply's data without raw_arguments: a streamed call's raw arguments are the pieces
    as they arrived (JSON text), where the full body may hold an object (specs/README.md §9.7)."""
    calls = [{k: v for k, v in c.items() if k != "raw_arguments"} for c in data["calls"]]
    servers = [_input_decoded(s) for s in data["server_calls"]]
    turn = data["turn"]
    if turn is not None:  # its server items as the stream delivered them (§9.7)
        turn = {**turn, "items": [i if type(i) is int else _input_decoded(i)
                                  for i in turn["items"]]}
    return {**data, "calls": calls, "server_calls": servers, "turn": turn}


def _input_decoded(server_call: dict[str, Any]) -> dict[str, Any]:
    """A server call whose input a stream delivered as JSON text pieces (Anthropic's
    server_tool_use input_json_delta) holds that text, where the full body holds the object:
    both compare through the decoding table (specs/README.md §9.7)."""
    value = server_call.get("input")
    if isinstance(value, str):
        decoded, undecodable, _ = decode_arguments(value)
        if not undecodable:
            return {**server_call, "input": decoded}
    return server_call


@pytest.mark.parametrize(("name", "case", "test"), STREAM_TESTS, ids=[t[0] for t in STREAM_TESTS])
def test_stream_case_holds(name: str, case: Case, test: dict[str, Any]) -> None:
    fmt = case.data["format"]
    expect = test["expect"]
    acc, updates, error = run(fmt, test)
    if "ready" in expect:
        assert [ready_text(u) for u in updates] == expect["ready"]
    if "ready_updates" in expect:
        assert [update_json(u.to_dict()) for u in updates] == expect["ready_updates"]
    if "stream_complete" in expect:
        assert acc.complete is expect["stream_complete"]
    if "format" in expect:
        assert acc.format == expect["format"]
    expected_error = expect.get("error")
    if error is not None:
        assert expected_error is not None, f"feeding raised {error!r}"
        assert error.code == expected_error["code"]
    if expected_error is not None:
        with pytest.raises(toolwire.errors.ToolwireError) as caught:
            acc.reply()
        assert caught.value.code == expected_error["code"]
        if "error_code" in expected_error:
            assert caught.value.error_code == expected_error["error_code"]
        for key in ("looks_like", "finished_reply", "event_index"):  # §9.14, §9.8
            if key in expected_error:
                assert getattr(caught.value, key) == expected_error[key]
        if test.get("allow_incomplete"):
            _compare_reply(acc.reply(allow_incomplete=True), expect)
        return
    reply = acc.reply()
    _compare_reply(reply, expect)
    handed = [u.call for u in updates if u.kind == "call"]
    assert all(call in reply.calls for call in handed)
    if test.get("equivalent_response") is not None:
        full = toolwire.read(fmt or acc.format, test["equivalent_response"])
        assert _without_provenance(reply.to_dict()) == _without_provenance(full.to_dict())
        assert reply.calls == full.calls


def test_every_base_format_has_six_stream_cases() -> None:
    for fmt in BASE_FORMATS:
        found = [c for c in STREAM_CASES if c.name.startswith(f"{fmt}/")]
        assert len(found) >= 6, fmt


def test_every_stream_case_states_what_it_checks() -> None:
    for case in STREAM_CASES:
        assert case.data["description"] and case.data["source"] in ("captured", "docs",
                                                                      "synthetic")
        assert case.path.name.startswith("stream_")
        for test in case.data["tests"]:
            assert ("events" in test) != ("sse" in test), case.name
