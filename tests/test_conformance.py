"""Runs every wire-format conformance case (``specs/conformance/<format>/*.json``)."""

from __future__ import annotations

from typing import Any

import pytest

import toolwire

from conformance import Case, call_dicts, call_view, cases, check_records, each_test

WIRE_TESTS = list(each_test(cases()))


def check_reply(reply: toolwire.Reply, expect: dict[str, Any]) -> None:
    assert call_dicts(reply.calls, expect["calls"]) == expect["calls"]
    if "server_calls" in expect:
        assert [s.to_dict() for s in reply.server_calls] == expect["server_calls"]
    if "truncated" in expect:
        assert reply.truncated is expect["truncated"]
    if "finish_reason" in expect:
        assert reply.finish_reason == expect["finish_reason"]
    if "unknown_types" in expect:
        assert list(reply.unknown_types) == expect["unknown_types"]
    if "fates" in expect:
        assert list(reply.fates()) == expect["fates"]
    if "skipped" in expect:
        got = [{"item_index": s.item_index, "item_type": s.item_type} for s in reply.skipped]
        assert got == expect["skipped"]
    check_records(reply, expect)


def check_error(fmt: str | None, test: dict[str, Any]) -> None:
    expected = test["expect"]["error"]
    options = {"strict": test.get("strict"), "choice": test.get("choice", 0)}
    with pytest.raises(toolwire.ToolwireError) as caught:
        toolwire.read(fmt, test["response"], **options)
    error = caught.value
    assert error.code == expected["code"]
    for field in ("item_index", "item_type"):
        if field in expected:
            assert getattr(error, field) == expected[field]
    if "reply" in expected:  # the partial reply an unmapped_call carries
        assert isinstance(error, toolwire.UnmappedCall) and error.reply is not None
        partial = expected["reply"]
        assert call_dicts(error.reply.calls, partial["calls"]) == partial["calls"]
        check_records(error.reply, partial)
    if fmt is not None:
        with pytest.raises(type(error)) as again:
            toolwire.extract(fmt, test["response"], **options)
        if isinstance(error, toolwire.UnmappedCall):
            assert isinstance(again.value, toolwire.UnmappedCall)
            assert again.value.reply == error.reply


def check_structured(fmt: str | None, test: dict[str, Any]) -> None:
    """A ``structured_output`` test: from_structured_output's call, or its error."""
    tool_name = test["structured_output"]["tool_name"]
    expect = test["expect"]

    def run() -> toolwire.ToolCall:
        return toolwire.from_structured_output(
            fmt, test["response"], tool_name, choice=test.get("choice", 0)
        )

    if "error" in expect:
        with pytest.raises(toolwire.ToolwireError) as caught:
            run()
        assert caught.value.code == expect["error"]["code"]
        return
    assert call_view(run()) == expect["structured_call"]


@pytest.mark.parametrize(("name", "case", "test"), WIRE_TESTS, ids=[t[0] for t in WIRE_TESTS])
def test_conformance_case_holds(name: str, case: Case, test: dict[str, Any]) -> None:
    fmt = case.data["format"]
    expect = test["expect"]
    if "sniff" in expect:
        assert toolwire.sniff_format(test["response"]) == expect["sniff"]
    if "structured_output" in test:
        check_structured(fmt, test)
        return
    if "error" in expect:
        check_error(fmt, test)
        return
    choice = test.get("choice", 0)
    reply = toolwire.read(fmt, test["response"], strict=test.get("strict"), choice=choice)
    check_reply(reply, expect)
    assert toolwire.Reply.from_dict(reply.to_dict()) == reply
    calls = (
        toolwire.extract(fmt, test["response"], strict=test.get("strict"), choice=choice)
        if fmt is not None
        else toolwire.extract_sniff(test["response"], strict=test.get("strict"))
    )
    assert calls == list(reply.calls)


def test_the_suite_is_not_empty() -> None:
    assert len(WIRE_TESTS) >= 60
