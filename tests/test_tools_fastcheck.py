"""The fast pre-check never calls valid what jsonschema calls invalid (tools/fastcheck.py).

Generated schemas inside the subset the check implements, and generated values: wherever
the check answers ``True`` (valid), jsonschema agrees. ``False`` only defers to jsonschema,
so it may disagree; the last test shows the check does answer ``True`` on real schemas.
"""

from __future__ import annotations

from typing import Any

import jsonschema
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
