"""The portable JSON classifier agrees with CPython's strict decoder on what decodes.

The fault *code* is pinned by the conformance suite
(``interpreter/undecodable_arguments_carry_their_fault_code.json``); here the point is
that the hand-written scanner of specs/README.md §1.4.1 and the C scanner that does the
decoding never disagree on *whether* a text decodes, so no text gets a code and a value.
"""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from toolwire._values.jsontext import MAX_DEPTH, JsonFault, classify, loads, scan_at

_ALPHABET = st.sampled_from([*'{}[]":,. -+0123456789eEtrufalsnNI\\u\t\nx', "\x01", "é"])


def _reference_decodes(text: str) -> bool:
    def refuse(_: str) -> Any:
        raise ValueError

    try:
        value = json.loads(text, parse_constant=refuse)
    except (ValueError, RecursionError):
        return False
    stack = [value]
    while stack:  # a float out of range decodes to inf in CPython: not JSON
        item = stack.pop()
        if isinstance(item, float) and math.isinf(item):
            return False
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


@settings(max_examples=400, deadline=None)
@given(st.text(_ALPHABET, max_size=24))
def test_classifier_and_decoder_agree_on_what_decodes(text: str) -> None:
    code, _ = classify(text)
    try:
        loads(text)
    except JsonFault as fault:
        assert fault.code == code != "ok"
        assert not _reference_decodes(text)
    else:
        assert code == "ok"
        assert _reference_decodes(text)


@settings(max_examples=200, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=12,
))
def test_every_json_text_python_writes_decodes_and_classifies_ok(value: Any) -> None:
    text = json.dumps(value)
    assert classify(text) == ("ok", len(text))
    assert loads(text) == value


def test_nesting_limit_is_exact() -> None:
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    deeper = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    assert classify(deeper) == ("nesting-too-deep", MAX_DEPTH)
    try:
        loads(deeper)
    except JsonFault as fault:
        assert fault.code == "nesting-too-deep"
    else:
        raise AssertionError("decoded past the nesting limit")


def test_limits_hold_for_a_value_inside_text() -> None:
    text = "call " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + " rest"
    for bad in (text, 'x {"n": 1' + "0" * 400 + "} y"):
        start = bad.index("[") if "[" in bad else bad.index("{")
        try:
            scan_at(bad, start)
        except JsonFault as fault:
            assert fault.code in ("nesting-too-deep", "number-out-of-range")
        else:
            raise AssertionError("a value past a limit was read")
    assert scan_at('say {"a": 1} then', 4) == ({"a": 1}, 12)


def test_a_long_text_of_shallow_values_decodes() -> None:
    text = json.dumps([{"k": [i]} for i in range(20000)])
    assert len(loads(text)) == 20000
