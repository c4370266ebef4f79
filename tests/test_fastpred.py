"""Predicates written out as Python (toolwire._wire.fastpred) hold exactly where the
engine's closures yield ``true``, and raise where they raise."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolwire import Registry
from toolwire._expression import compile_expression, element_of, field_of
from toolwire._wire.fastpred import condition, engine_error

REGISTRY = Registry.bundled()
FORMS = [
    "type(a) == 'object'", "type(a.b) != 'string'", "type(a) == 'number'",
    "type(a) == 'boolean' || type(a) == 'null'", "a == 'x' && b != `null`", "!(a == 'x')",
    "length(a[?type(@) != 'object' || (b != `null` && type(b) != 'array')]) == `0`",
    "length(a[?b == 'x']) == `1`", "type(a[0].b) == 'array'",
    "length(a[?type(b) == 'object']) == length(to_array(a))",
    "length(a[?b == 'x']) != length(to_array(b))",
    "type(a) == 'string' && contains(['x', 'error'], a)", "starts_with(a, 'x')",
    "a == `false` || b != `true`", "length(a[?starts_with(b, 'x')]) == `0`",
    "length(a[?b != `null` || error != `null`] || `[]`) > `0`", "length(a[?b == 'x']) >= `1`",
    "length(to_array(a)) < `2`", "length(a[0].content[?b == 'x'] || `[]`) <= `0`",
    "length(a[?b != `null` || error != `null` || (status != `null` || type != `null`)]) > `0`",
]
PREDICATES = sorted({
    *FORMS,
    *(p.when.source for s in REGISTRY.specs().values() for p in (s.shape, s.error) if p),
    *(s.stream_event.source for s in REGISTRY.specs().values() if s.stream_event),
    *(s.normalize.detect.source for s in REGISTRY.specs().values()
      if s.normalize and s.normalize.detect),
})
KEYS = ["a", "b", "error", "status", "type", "object", "choices", "message", "candidates",
        "content", "promptFeedback", "output", "Error", "Message", "finish_reason",
        "function_call", "parts", "model_version"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.floats(-1, 1),
                    st.sampled_from(["x", "", "error", "failed", "array", "ERROR"]))
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from(KEYS), inner, max_size=4)),
    max_leaves=12,
)
NAMESPACE = {"_get": field_of, "_index": element_of, "_engine_error": engine_error}


def _outcome(run: Any) -> tuple[str, Any]:
    try:
        return "value", run()
    except Exception:
        return "raises", None


def test_every_bundled_shape_error_event_and_detect_predicate_is_written_out() -> None:
    for spec in REGISTRY.specs().values():
        if spec.normalize is not None and spec.normalize.detect is not None:
            assert condition(spec.normalize.detect.ast, "response") is not None, spec.format
        for part in (spec.shape, spec.error):
            assert part is not None, spec.format
            assert condition(part.when.ast, "response") is not None, (spec.format, part)
        if spec.stream_event is not None:
            assert condition(spec.stream_event.ast, "response") is not None, spec.format


@pytest.mark.parametrize("source", PREDICATES)
@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(body=st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=5))
def test_the_written_condition_agrees_with_the_closure(source: str, body: dict[str, Any]) -> None:
    expression = compile_expression(source)
    written = condition(expression.ast, "response")
    assert written is not None
    code = compile(written, "<condition>", "eval")
    got = _outcome(lambda: eval(code, dict(NAMESPACE), {"response": body}))
    want = _outcome(lambda: expression.evaluate(body) is True)
    assert got == want, (source, body)


def test_forms_it_does_not_know_are_left_to_the_closure() -> None:
    for source in ("a", "contains(a, 'x')", "a && b == 'x'", "length(a) == `0`",
                   "type(a) == b", "a == `1`", "ends_with(a, 'x')", "starts_with(a, b)",
                   "length(a[?contains(['x'], b)]) == `0`", "a > `1`",
                   "length(a[?b == 'x'] || `[1]`) > `0`"):
        assert condition(compile_expression(source).ast, "response") is None, source


def test_the_gate_check_lets_every_conformance_reply_that_reads_through() -> None:
    # A written-out condition that raised (a name missing from its namespace) would send
    # every reply to the full check: right, but never fast.
    import toolwire
    from toolwire._wire.fastpred import passing_check
    from toolwire.errors import ToolwireError

    from conformance import cases, each_test

    checks = {}
    for _, case, test in each_test(cases()):
        fmt, response = case.data.get("format"), test["response"]
        if not fmt or not isinstance(response, dict):
            continue
        try:
            toolwire.read(fmt, response, strict=False)
        except ToolwireError:
            continue
        spec = REGISTRY.spec(fmt)
        passes = checks.setdefault(fmt, passing_check(spec))
        assert passes(response) is True, (fmt, test.get("description"))
