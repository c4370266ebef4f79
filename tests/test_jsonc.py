"""toolwire._speed.cjson reads and writes JSON exactly as the json package does, without json."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwire._speed import cjson as jsonc

SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text() | st.integers() | st.floats() | st.booleans() | st.none(),
                      inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(VALUES, st.sampled_from([None, 0, 2, 4]), st.booleans())
def test_dumps_writes_what_json_dumps_writes(value: object, indent: int | None,
                                             ascii_only: bool) -> None:
    assert jsonc.dumps(value, indent=indent, ensure_ascii=ascii_only) == json.dumps(
        value, indent=indent, ensure_ascii=ascii_only)


@settings(max_examples=150, deadline=None)
@given(VALUES.filter(lambda v: not isinstance(v, float) or math.isfinite(v)),
       st.sampled_from(["", " ", "\n", " \t\r\n "]))
def test_loads_reads_what_json_loads_reads(value: object, blank: str) -> None:
    text = blank + json.dumps(value) + blank
    assert repr(jsonc.loads(text)) == repr(json.loads(text))


@pytest.mark.parametrize("text", ["", " ", "{", '{"a": 1} x', "\ufeff{}", "[1,]", "NaNa", "01"])
def test_loads_refuses_what_json_refuses_with_its_very_error(text: str) -> None:
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(text)
    with pytest.raises(json.JSONDecodeError) as caught:
        jsonc.loads(text)
    assert (caught.value.msg, caught.value.pos) == (expected.value.msg, expected.value.pos)


def test_what_it_does_not_write_itself_json_answers() -> None:
    class Number(int):
        pass

    cycle: list[object] = []
    cycle.append(cycle)
    assert jsonc.dumps({"n": Number(3)}, indent=2) == json.dumps({"n": Number(3)}, indent=2)
    with pytest.raises(ValueError, match="Circular reference"):
        jsonc.dumps(cycle)
    with pytest.raises(TypeError, match="not JSON serializable"):
        jsonc.dumps({"a": object()})
    assert jsonc.loads(b'{"a": [1, 2.5]}') == {"a": [1, 2.5]}
