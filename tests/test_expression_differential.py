"""The compiled closures agree with jmespath.py on random documents and expressions.

jmespath.py is the reference semantics; the closures in ``toolwire._expression.closures``
must give the very same JSON value, or raise where it raises. Expressions are built from
a grammar of the portable subset, their fields drawn from the keys the documents use.
"""

from __future__ import annotations

import json
from typing import Any

import jmespath
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from toolwire._expression import EvaluationError, ExpressionError, compile_expression

KEYS = ["a", "b", "c", "type", "name", "id", "items"]

# --- documents ------------------------------------------------------------------------

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([0, 1, -1, 2, 0.0, 1.0, 2.5, -0.5]),
    st.integers(-5, 5),
    st.sampled_from(["", "a", "b", "ab", "ba", "type", "x y", "1", "2.5", "é"]),
)
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(KEYS), inner, max_size=4),
    ),
    max_leaves=20,
)

# --- expressions ----------------------------------------------------------------------

fields = st.one_of(st.sampled_from(KEYS), st.just('"x y"'), st.just("missing"))
json_literals = st.one_of(
    scalars.map(lambda v: f"`{json.dumps(v)}`"),
    st.just("`[1, 2]`"), st.just('`{"a": 1}`'), st.just("`[]`"), st.just("`{}`"),
    st.sampled_from(["'a'", "'ab'", "''", "'type'"]),
)
numbers = st.sampled_from(["`0`", "`1`", "`2`", "`-1`", "`1.5`"])
indexes = st.integers(-3, 3).map(lambda i: f"[{i}]")
slices = st.tuples(
    st.sampled_from(["", "0", "1", "-1", "-2", "3"]),
    st.sampled_from(["", "0", "1", "-1", "2", "5"]),
    st.sampled_from(["", ":1", ":2", ":-1", ":-2"]),
).map(lambda p: f"[{p[0]}:{p[1]}{p[2]}]")


def _path(tail: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """A field or ``@``-like start followed by dots, indexes, slices and projections."""
    heads = st.one_of(fields, st.just("@"), st.just("*"), st.just("[*]"), st.just("[]"))
    segments = st.one_of(
        fields.map(lambda f: f".{f}"), indexes, slices, st.just("[*]"), st.just(".*"),
        st.just("[]"), tail.map(lambda p: f"[?{p}]"),
    )
    return st.builds(lambda h, segs: h + "".join(segs), heads, st.lists(segments, max_size=4))


def _functions(e: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    one = st.sampled_from([
        "length", "keys", "values", "type", "not_null", "to_string", "to_number", "to_array",
        "abs", "sum", "avg", "max", "min", "sort", "reverse", "floor", "ceil",
    ])
    two = st.sampled_from(["contains", "starts_with", "ends_with", "join", "merge", "not_null"])
    by = st.sampled_from(["sort_by", "max_by", "min_by"])
    return st.one_of(
        st.builds(lambda f, x: f"{f}({x})", one, e),
        st.builds(lambda f, x, y: f"{f}({x}, {y})", two, e, e),
        st.builds(lambda f, x, y: f"{f}({x}, &{y})", by, e, e),
        st.builds(lambda x, y: f"map(&{x}, {y})", e, e),
    )


def _compound(e: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    ordering = st.sampled_from(["<", "<=", ">", ">="])
    equality = st.sampled_from(["==", "!="])
    return st.one_of(
        st.builds(lambda x, y: f"{x} || {y}", e, e),
        st.builds(lambda x, y: f"{x} && {y}", e, e),
        e.map(lambda x: f"!{x}"),
        e.map(lambda x: f"({x})"),
        st.builds(lambda x, op, y: f"{x} {op} {y}", e, equality, st.one_of(e, json_literals)),
        st.builds(lambda x, op, y: f"{x} {op} {y}", e, ordering, st.one_of(e, numbers)),
        st.builds(lambda x, y: f"{x} | {y}", e, e),
        st.builds(lambda x, y: f"({x}).{y}", e, fields),
        st.builds(lambda x, y: f"({x})[{y}]", e, st.integers(-2, 2)),
        st.lists(e, min_size=1, max_size=3).map(lambda xs: f"[{', '.join(xs)}]"),
        st.lists(st.tuples(st.sampled_from(KEYS), e), min_size=1, max_size=3).map(
            lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}"
        ),
        st.builds(lambda x, y: f"{x}.[{y}]", fields, e),
        _functions(e),
        _path(e),
    )


expressions = st.recursive(
    st.one_of(_path(st.sampled_from(["a", "type == 'a'", "b > `0`", "!c"])), json_literals),
    _compound,
    max_leaves=8,
)

# --- comparison -----------------------------------------------------------------------


def same_json(left: Any, right: Any) -> bool:
    """JSON equality that tells ``true`` from ``1`` and ``1`` from ``1.0``, at any depth."""
    if type(left) is not type(right):
        return False
    if isinstance(left, list):
        return len(left) == len(right) and all(map(same_json, left, right))
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(same_json(v, right[k]) for k, v in left.items())
    return bool(left == right)


_RAISED = object()


def _reference(source: str, document: Any) -> Any:
    try:
        return jmespath.search(source, document)
    except Exception:  # any failure of the reference counts as "raises"
        return _RAISED


def _compiled(source: str, document: Any) -> Any:
    try:
        expression = compile_expression(source)
    except ExpressionError:
        reject()  # outside the portable subset (e.g. ordering on a string literal)
    try:
        return expression(document)
    except EvaluationError:
        return _RAISED


def test_same_json_tells_booleans_from_numbers() -> None:
    assert not same_json([1], [True])
    assert not same_json({"a": 0}, {"a": False})
    assert not same_json(1, 1.0)
    assert same_json({"a": [1, None]}, {"a": [1, None]})


@settings(
    max_examples=500,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(expressions, documents)
def test_compiled_closures_agree_with_jmespath(source: str, document: Any) -> None:
    try:
        jmespath.compile(source)
    except jmespath.exceptions.JMESPathError:
        reject()  # the grammar can build a few strings the parser rejects
    compiled = _compiled(source, document)
    reference = _reference(source, document)
    if compiled is _RAISED or reference is _RAISED:
        assert compiled is reference, f"{source!r}: compiled {compiled!r}, jmespath {reference!r}"
    else:
        assert same_json(compiled, reference), (
            f"{source!r} on {document!r}: compiled {compiled!r}, jmespath {reference!r}"
        )
