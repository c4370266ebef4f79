"""The fast pre-check never calls valid what jsonschema calls invalid (tools/fastcheck.py).

Generated schemas inside the subset the check implements, and generated values: wherever
the check answers ``True`` (valid), jsonschema agrees. ``False`` only defers to jsonschema,
so it may disagree; the last test shows the check does answer ``True`` on real schemas.
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolwire._tools.fastcheck import compile_check

KEYS = st.sampled_from(["a", "b", "city", "n"])
NUMBERS = st.integers(-5, 5) | st.floats(-5, 5, allow_nan=False) | st.sampled_from([0.5, 1.0])
JSON = st.recursive(
    st.none() | st.booleans() | NUMBERS | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=8,
)
TYPES = st.sampled_from(["object", "array", "string", "boolean", "null", "number", "integer"])


def _schemas(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    keyword = st.one_of(
        st.tuples(st.just("type"), TYPES | st.lists(TYPES, min_size=1, max_size=2, unique=True)),
        st.tuples(st.just("enum"), st.lists(JSON, min_size=1, max_size=3)),
        st.tuples(st.just("const"), JSON),
        st.tuples(st.sampled_from(["minimum", "maximum", "exclusiveMinimum",
                                   "exclusiveMaximum"]), NUMBERS),
        st.tuples(st.sampled_from(["minLength", "maxLength", "minItems", "maxItems",
                                   "minProperties", "maxProperties"]), st.integers(0, 3)),
        st.tuples(st.just("pattern"), st.sampled_from(["^a", "b$", "[0-9]"])),
        st.tuples(st.just("items"), inner),
        st.tuples(st.just("properties"), st.dictionaries(KEYS, inner, max_size=2)),
        st.tuples(st.just("required"), st.lists(KEYS, max_size=2, unique=True)),
        st.tuples(st.just("additionalProperties"), inner),
        st.tuples(st.sampled_from(["allOf", "anyOf", "oneOf"]),
                  st.lists(inner, min_size=1, max_size=2)),
    )
    return st.lists(keyword, max_size=3).map(dict)


FLAT = _schemas(st.booleans() | st.just({}) | st.builds(dict, type=TYPES))
SCHEMAS = FLAT | st.recursive(st.booleans() | FLAT, _schemas, max_leaves=6)
VALUES = NUMBERS | st.text(max_size=3) | JSON


def _agrees(schema: Any, values: list[Any]) -> None:
    check = compile_check(schema)
    if check is None:
        return  # deferred entirely: nothing to disagree with
    validators = [jsonschema.Draft202012Validator(schema), jsonschema.Draft7Validator(schema)]
    for value in values:
        if check(value):
            assert all(v.is_valid(value) for v in validators), (schema, value)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_schemas(st.booleans() | st.builds(dict, type=TYPES)), st.lists(VALUES, min_size=1,
                                                                       max_size=6))
def test_the_fast_check_says_valid_only_where_jsonschema_does(schema: Any,
                                                              values: list[Any]) -> None:
    _agrees(schema, values)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SCHEMAS, st.lists(VALUES, min_size=1, max_size=6))
def test_nested_schemas_too(schema: Any, values: list[Any]) -> None:
    _agrees(schema, values)


def test_the_fast_check_decides_a_usual_tool_schema_itself() -> None:
    schema = {"type": "object", "required": ["city"], "additionalProperties": False,
              "properties": {"city": {"type": "string", "minLength": 1},
                             "days": {"type": "integer", "minimum": 1, "maximum": 14},
                             "unit": {"enum": ["celsius", "fahrenheit"]},
                             "tags": {"type": "array", "items": {"type": "string"}}}}
    check = compile_check(schema)
    assert check is not None
    assert check({"city": "Paris", "days": 3, "unit": "celsius", "tags": ["a"]}) is True
    for invalid in ({}, {"city": ""}, {"city": "P", "days": 0}, {"city": "P", "unit": "K"},
                    {"city": "P", "tags": [1]}, {"city": "P", "extra": 1}, []):
        assert not check(invalid)
        assert not jsonschema.Draft202012Validator(schema).is_valid(invalid)


def test_a_schema_outside_the_subset_is_left_to_jsonschema() -> None:
    assert compile_check({"$ref": "#/$defs/x"}) is None
    assert compile_check({"patternProperties": {"^a": {}}}) is None
    assert compile_check({"$schema": "http://json-schema.org/draft-04/schema#"}) is None


def _both_ways(schema: Any, values: list[Any]) -> None:
    check = compile_check(schema)
    if check is None:
        return
    validator = jsonschema.Draft202012Validator(schema)
    for value in values:
        assert check(value) == validator.is_valid(value), (schema, value)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SCHEMAS, st.lists(VALUES, min_size=1, max_size=6))
def test_inside_its_subset_the_fast_check_also_says_invalid_where_jsonschema_does(
        schema: Any, values: list[Any]) -> None:
    _both_ways(schema, values)


def test_names_and_values_in_the_schema_never_become_code() -> None:
    hostile = "x'] or __import__('os').system('false') or v['"
    schema = {"type": "object", "required": [hostile],
              "properties": {hostile: {"enum": [hostile + '"']}},
              "additionalProperties": {"const": "\\'\"\n"}}
    check = compile_check(schema)
    assert check is not None
    assert check({hostile: hostile + '"'}) is True
    assert check({hostile: hostile + '"', "other": "\\'\"\n"}) is True
    assert check({hostile: hostile}) is False
    assert check({}) is False


def test_a_deeply_nested_schema_is_checked_through_functions_of_its_own() -> None:
    schema: Any = {"type": "string"}
    value: Any = "leaf"
    for depth in range(60):  # far past what one Python function body may nest
        key = f"k{depth % 3}"
        schema = {"type": "object", "required": [key], "properties": {
            key: {"type": "array", "items": schema} if depth % 2 else schema}}
        value = {key: [value] if depth % 2 else value}
    check = compile_check(schema)
    assert check is not None
    assert check(value) is True
    validator = jsonschema.Draft202012Validator(schema)
    assert validator.is_valid(value)
    broken = value
    inner = broken
    for _ in range(30):  # swap the leaf for a number somewhere deep down
        (key, child), = inner.items()
        inner = child[0] if isinstance(child, list) else child
    (key, child), = inner.items()
    inner[key] = [7] if isinstance(child, list) else 7
    assert check(broken) is False
    assert not validator.is_valid(broken)


def test_the_same_schema_content_gets_the_same_check() -> None:
    first = compile_check({"type": "object", "properties": {"a": {"type": "integer"}}})
    again = compile_check({"properties": {"a": {"type": "integer"}}, "type": "object"})
    assert first is not None and first is again
    one, true = compile_check({"const": 1}), compile_check({"const": True})
    assert one is not None and true is not None and one is not true
    assert (one(1), one(True), true(True), true(1)) == (True, False, True, False)


BOUNDARIES: list[tuple[Any, list[Any]]] = [
    ({"minLength": 2}, ["a", "ab", "abc", 1, None]),
    ({"maxLength": 2}, ["a", "ab", "abc", []]),
    ({"minimum": 1}, [0, 0.5, 1, 1.0, 2, "0", True]),
    ({"maximum": 1}, [0, 1, 1.5, 2, False]),
    ({"exclusiveMinimum": 1}, [1, 1.0, 1.5, 0]),
    ({"exclusiveMaximum": 1}, [1, 0.5, 2]),
    ({"minItems": 1, "maxItems": 2}, [[], [1], [1, 2], [1, 2, 3], "ab"]),
    ({"minProperties": 1, "maxProperties": 1}, [{}, {"a": 1}, {"a": 1, "b": 2}, [1]]),
    ({"type": "integer"}, [1, 1.0, 1.5, True, "1", None]),
    ({"type": ["string", "null"]}, ["", None, 0, False]),
    ({"enum": ["a", "b"]}, ["a", "c", 1]),
    ({"enum": [1, None, [True]]}, [1, 1.0, True, None, [True], [1], "1"]),
    ({"const": {"a": [1]}}, [{"a": [1]}, {"a": [1.0]}, {"a": [True]}, {"a": []}]),
    ({"required": ["a"], "properties": {"a": {"type": "string"}}},
     [{"a": "x"}, {"a": 1}, {}, "not an object"]),
    ({"properties": {"a": False}}, [{}, {"a": None}]),
    ({"additionalProperties": False, "properties": {"a": {}}}, [{"a": 1}, {"b": 1}]),
    ({"additionalProperties": {"type": "integer"}}, [{"a": 1}, {"a": "x"}]),
    ({"items": {"minimum": 0}}, [[], [0, 1], [0, -1], {"a": -1}]),
    ({"allOf": [{"minimum": 0}, {"maximum": 2}]}, [-1, 0, 2, 3]),
    ({"anyOf": [{"type": "string"}, {"minimum": 5}]}, ["x", 5, 4, None]),
    ({"oneOf": [{"minimum": 0}, {"maximum": 10}]}, [-1, 5, 11]),
    ({"pattern": "^a"}, ["abc", "bac", 1]),
    ({"format": "date"}, ["2026-12-04", "2026-13-04", 7]),
]


@pytest.mark.parametrize(("schema", "values"), BOUNDARIES)
def test_each_keyword_holds_its_boundary_as_jsonschema_does(schema: Any,
                                                            values: list[Any]) -> None:
    check = compile_check(schema)
    assert check is not None, schema
    checker = jsonschema.Draft202012Validator.FORMAT_CHECKER
    validator = jsonschema.Draft202012Validator(schema, format_checker=checker)
    verdicts = [(value, check(value)) for value in values]
    assert verdicts == [(value, validator.is_valid(value)) for value in values]
    assert any(ok for _, ok in verdicts) and not all(ok for _, ok in verdicts)
