"""Runs every wire-format conformance case (``specs/conformance/<format>/*.json``)."""

from __future__ import annotations

from typing import Any

import pytest

import toolwire

from conformance import Case, call_dicts, cases, each_test

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


def check_error(fmt: str | None, test: dict[str, Any]) -> None:
    expected = test["expect"]["error"]
    with pytest.raises(toolwire.ToolwireError) as caught:
        toolwire.read(fmt, test["response"], strict=test.get("strict"))
    error = caught.value
    assert error.code == expected["code"]
    for field in ("item_index", "item_type"):
        if field in expected:
            assert getattr(error, field) == expected[field]
    if fmt is not None:
        with pytest.raises(type(error)):
            toolwire.extract(fmt, test["response"], strict=test.get("strict"))


@pytest.mark.parametrize(("name", "case", "test"), WIRE_TESTS, ids=[t[0] for t in WIRE_TESTS])
def test_conformance_case_holds(name: str, case: Case, test: dict[str, Any]) -> None:
    fmt = case.data["format"]
    expect = test["expect"]
    if "sniff" in expect:
        assert toolwire.sniff_format(test["response"]) == expect["sniff"]
    if "error" in expect:
        check_error(fmt, test)
        return
    reply = toolwire.read(fmt, test["response"], strict=test.get("strict"))
    check_reply(reply, expect)
    calls = (
        toolwire.extract(fmt, test["response"], strict=test.get("strict"))
        if fmt is not None
        else toolwire.extract_sniff(test["response"], strict=test.get("strict"))
    )
    assert calls == list(reply.calls)


def test_the_suite_is_not_empty() -> None:
    assert len(WIRE_TESTS) >= 60
