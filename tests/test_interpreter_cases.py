"""Runs ``specs/conformance/interpreter``: the spec language's semantics on inline specs."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire._spec.document import check_wire_document
from toolwire._spec.strict_yaml import Document
from toolwire._spec.wirespec import compile_wire_spec
from toolwire._wire import interpreter
from toolwire.errors import ToolwireError

from conformance import Case, call_dicts, cases, check_records, each_test

TESTS = list(each_test(cases(under="interpreter")))


def test_interpreter_cases_exist() -> None:
    assert len(TESTS) >= 25


@pytest.mark.parametrize(("name", "case", "test"), TESTS, ids=[t[0] for t in TESTS])
def test_interpreter_case_holds(name: str, case: Case, test: dict[str, Any]) -> None:
    doc = Document(path=name, data=case.data["spec"])
    assert check_wire_document(doc, expected_format="demo") == []
    spec = compile_wire_spec(case.data["spec"])
    expect = test["expect"]
    strict = test.get("strict")
    choice = test.get("choice", 0)
    if "error" in expect:
        with pytest.raises(ToolwireError) as caught:
            interpreter.read(spec, test["response"], strict, choice)
        for field, value in expect["error"].items():
            if field == "reply":  # the partial reply an unmapped_call carries
                partial = caught.value.reply
                assert call_dicts(partial.calls, value["calls"]) == value["calls"]
                check_records(partial, value)
            else:
                assert getattr(caught.value, field) == value
        return
    reply = interpreter.read(spec, test["response"], strict, choice)
    assert call_dicts(reply.calls, expect["calls"]) == expect["calls"]
    assert [s.to_dict() for s in reply.server_calls] == expect["server_calls"]
    assert reply.truncated is expect["truncated"]
    assert reply.finish_reason == expect["finish_reason"]
    assert list(reply.unknown_types) == expect["unknown_types"]
    skipped = [{"item_index": s.item_index, "item_type": s.item_type} for s in reply.skipped]
    assert skipped == expect["skipped"]
    check_records(reply, expect)
    assert interpreter.extract(spec, test["response"], strict, choice) == list(reply.calls)
