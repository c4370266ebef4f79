"""Runs ``specs/conformance/expression``: the portable JMESPath subset on plain JSON values.

Every expression there is one a spec may hold (it passes the spec loader's portability
check) and evaluates to the same value in toolwire and in npm ``jmespath`` (tools/js/).
"""

from __future__ import annotations

from typing import Any

import pytest

from toolwire._expression import EvaluationError
from toolwire._expression.portable import compile_spec_expression

from conformance import Case, cases, each_test

TESTS = list(each_test(cases(under="expression")))


def same_json(a: Any, b: Any) -> bool:
    """JSON equality: ``true`` is not ``1``, ``1`` equals ``1.0``, key order is free."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def test_expression_cases_cover_every_portable_function() -> None:
    used = " ".join(test["expression"] for _, _, test in TESTS)
    for name in ("abs", "ceil", "contains", "ends_with", "floor", "join", "keys",
                 "length", "map", "merge", "not_null", "starts_with", "sum", "to_array",
                 "type", "values"):
        assert f"{name}(" in used, name


@pytest.mark.parametrize(("name", "case", "test"), TESTS, ids=[t[0] for t in TESTS])
def test_expression_case_holds(name: str, case: Case, test: dict[str, Any]) -> None:
    expression = compile_spec_expression(test["expression"])
    expect = test["expect"]
    if "error" in expect:
        with pytest.raises(EvaluationError):
            expression.evaluate(test["data"])
        return
    assert same_json(expression.evaluate(test["data"]), expect["value"])
