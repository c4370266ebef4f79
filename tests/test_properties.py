"""Property tests: whatever arrives, every public entry point keeps its promises.

Two kinds of input: arbitrary JSON values (biased towards the field names and item types
the specs read, so they reach past the first selector), and real conformance responses
mutated at random (a field deleted, retyped, nulled, a list or object emptied). On both:

* the answer is a value or a :class:`toolwire.errors.ToolwireError` — never ``KeyError``,
  ``TypeError``, ``RecursionError`` or any other exception;
* the input is left exactly as it was;
* a dict, its JSON text and its UTF-8 bytes give the same answer;
* every :class:`toolwire.ToolCall` survives ``to_dict``/``from_dict`` and JSON.

The text entry points get the same treatment on text built from each text format's own
markers. Examples are bounded (``max_examples``) so the module runs in well under a minute;
``TOOLWIRE_PROPERTY_EXAMPLES=5000`` hunts longer.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import toolwire
from toolwire import Registry, ToolCall
from toolwire._paths import bundled_specs_dir
from toolwire.errors import ToolwireError

from conformance import cases

REGISTRY = Registry.default()
FORMATS = REGISTRY.formats()
TEXT_FORMATS = REGISTRY.text_formats()

# Fixed and derandomized, so the suite is repeatable and bounded; set
# TOOLWIRE_PROPERTY_EXAMPLES to hunt longer with fresh randomness.
HUNT = os.environ.get("TOOLWIRE_PROPERTY_EXAMPLES")
SETTINGS = settings(
    max_examples=int(HUNT) if HUNT else 300,
    deadline=None,
    derandomize=not HUNT,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

RESPONSES: list[tuple[str | None, Any]] = [
    (case.data.get("format"), test["response"])
    for case in cases()
    for test in case.data.get("tests", [])
    if "response" in test
]


def _spec_words() -> list[str]:
    """Field names and item types the bundled specs and the suite use."""
    words: set[str] = set()
    stack: list[Any] = [r for _, r in RESPONSES]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            words.update(k for k in node if len(k) <= 30)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    for spec in REGISTRY.specs().values():
        words.update(entry.type for entry in spec.entries)
    return sorted(words)


WORDS = _spec_words()

# -- strategies --------------------------------------------------------------------------

keys = st.sampled_from(WORDS) | st.text(max_size=8)
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=2**53 - 2, max_value=2**64)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(WORDS)
    | st.text(max_size=20)
    | st.sampled_from(["", "{}", "[1]", '"x"', '{"a": 1}', '{"a":', "NaN", "{\"a\": NaN}"])
)
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(keys, children, max_size=5),
    max_leaves=40,
)
json_objects = st.dictionaries(keys, json_values, max_size=6)


def _slots(doc: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) below the root: the places a mutation can hit."""
    slots: list[tuple[Any, Any]] = []
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            slots.extend((node, k) for k in node)
            stack.extend(node.values())
        elif isinstance(node, list):
            slots.extend((node, i) for i in range(len(node)))
            stack.extend(node)
    return slots


def _retyped(value: Any) -> Any:
    """The same content in another JSON type."""
    if isinstance(value, str):
        return int(value) if value.isascii() and value.isdigit() else [value]
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, dict):
        return list(value.values())
    return {}


@st.composite
def mutated_responses(draw: st.DrawFn) -> tuple[str | None, Any]:
    """A conformance response with one to four random mutations."""
    fmt, response = draw(st.sampled_from(RESPONSES))
    doc = copy.deepcopy(response)
    for _ in range(draw(st.integers(1, 4))):
        slots = _slots(doc)
        if not slots:
            break
        parent, key = draw(st.sampled_from(slots))
        op = draw(st.sampled_from(["delete", "null", "retype", "empty", "replace", "repeat"]))
        value = parent[key]
        if op == "delete":
            del parent[key]
        elif op == "null":
            parent[key] = None
        elif op == "retype":
            parent[key] = _retyped(value)
        elif op == "empty":
            parent[key] = type(value)() if isinstance(value, (list, dict, str)) else []
        elif op == "replace":
            parent[key] = draw(json_values)
        elif isinstance(parent, list):
            parent.insert(key, copy.deepcopy(value))
    return fmt, doc


any_response = st.one_of(
    mutated_responses(),
    json_objects.map(lambda d: (None, d)),
    json_values.map(lambda d: (None, d)),
)

# -- the oracle --------------------------------------------------------------------------


def answer(run: Callable[[], Any]) -> tuple[str, Any]:
    """What an entry point said, as comparable data; any non-toolwire exception escapes."""
    try:
        value = run()
    except ToolwireError as exc:
        return "error", exc.to_dict()
    return "ok", as_data(value)


def as_data(value: Any) -> Any:
    if isinstance(value, toolwire.Reply):
        data = value.to_dict()
        data["server_raw"] = [s.raw for s in value.server_calls]
        data["items"] = [i.to_dict() for i in value.items]
        return data
    if isinstance(value, ToolCall):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [as_data(v) for v in value]
    return value


def all_answers(fmt: str, data: Any, strict: bool | None) -> dict[str, Any]:
    """Every wire entry point's answer on one input, pinned to ``fmt`` or sniffed."""
    answers = {
        "read": answer(lambda: toolwire.read(fmt, data, strict=strict)),
        "read_sniffed": answer(lambda: toolwire.read(None, data, strict=strict)),
        "extract": answer(lambda: toolwire.extract(fmt, data, strict=strict)),
        "locate": answer(lambda: toolwire.locate(fmt, data, strict=strict)),
        "extract_sniff": answer(lambda: toolwire.extract_sniff(data, strict=strict)),
        "sniff_format": answer(lambda: toolwire.sniff_format(data)),
    }
    located = answers["locate"]
    if located[0] == "ok":
        answers["from_fmt"] = [answer(lambda i=i: toolwire.from_fmt(fmt, i)) for i in located[1]]
    return answers


def round_trips(call: ToolCall) -> None:
    assert ToolCall.from_dict(call.to_dict()) == call
    assert ToolCall.from_dict(json.loads(json.dumps(call.to_dict(), allow_nan=False))) == call


def calls_of(data: Any, fmt: str, strict: bool | None) -> list[ToolCall]:
    try:
        return list(toolwire.read(fmt, data, strict=strict).calls)
    except ToolwireError:
        return []


# -- wire entry points ---------------------------------------------------------------------

formats = st.sampled_from(FORMATS)
stricts = st.sampled_from([None, True, False])


@SETTINGS
@given(any_response, formats, stricts)
def test_entry_points_answer_or_raise_toolwire_errors(
    drawn: tuple[str | None, Any], other: str, strict: bool | None
) -> None:
    fmt, data = drawn
    for name in {fmt or other, other}:
        answers = all_answers(name, data, strict)
        assert answers["sniff_format"][0] == "ok"
        answer(lambda name=name: toolwire.from_fmt(name, data))  # any value as one raw item
        if answers["read"][0] == "ok":
            read_calls = [
                {k: v for k, v in c.items() if k not in ("fate", "record")}
                for c in answers["read"][1]["calls"]
            ]
            assert answers["extract"] == ("ok", read_calls)


@SETTINGS
@given(any_response, formats, stricts)
def test_input_is_never_mutated(
    drawn: tuple[str | None, Any], other: str, strict: bool | None
) -> None:
    fmt, data = drawn
    before = copy.deepcopy(data)
    all_answers(fmt or other, data, strict)
    for call in calls_of(data, fmt or other, strict):
        call.arguments.clear()
    assert data == before


@SETTINGS
@given(any_response, formats, stricts)
def test_dict_and_its_json_text_give_equal_answers(
    drawn: tuple[str | None, Any], other: str, strict: bool | None
) -> None:
    fmt, data = drawn
    assume(not isinstance(data, str))  # a str is read as JSON text itself
    text = json.dumps(data)
    from_dict = all_answers(fmt or other, data, strict)
    assert all_answers(fmt or other, text, strict) == from_dict
    assert all_answers(fmt or other, text.encode("utf-8"), strict) == from_dict


@SETTINGS
@given(any_response, formats, stricts)
def test_every_extracted_call_round_trips(
    drawn: tuple[str | None, Any], other: str, strict: bool | None
) -> None:
    fmt, data = drawn
    for call in calls_of(data, fmt or other, strict):
        round_trips(call)


def test_every_conformance_call_round_trips() -> None:
    for fmt, data in RESPONSES:
        for name in FORMATS if fmt is None else (fmt,):
            for call in calls_of(data, name, None):
                round_trips(call)


@SETTINGS
@given(
    st.text(min_size=1),
    json_objects,
    st.text(),
    st.booleans(),
    st.booleans(),
    st.none() | st.text(),
)
def test_any_tool_call_round_trips(
    name: str, arguments: dict[str, Any], id: str, synthetic: bool, undecodable: bool,
    error: str | None,
) -> None:
    call = ToolCall(
        name, arguments, id, synthetic=synthetic, arguments_undecodable=undecodable,
        arguments_error=error,
    )
    round_trips(call)
    assert hash(ToolCall.from_dict(call.to_dict())) == hash(call)


@SETTINGS
@given(json_values)
def test_any_raw_arguments_decode_by_the_table(raw: Any) -> None:
    call = ToolCall.from_raw("f", raw)
    round_trips(call)
    if call.arguments_undecodable:
        assert call.arguments == {} and call.arguments_error
    else:
        assert call.arguments_error is None


@SETTINGS
@given(json_values)
def test_arguments_json_text_decodes_like_the_value(value: Any) -> None:
    as_text = ToolCall.from_raw("f", json.dumps(value))
    if isinstance(value, dict):
        assert as_text == ToolCall.from_raw("f", value)
    else:
        assert as_text.arguments_undecodable


@pytest.mark.parametrize("fmt", [1, b"openai", ["openai"]])
def test_a_format_that_is_neither_a_str_nor_none_is_a_type_error(fmt: Any) -> None:
    reply = {"choices": []}
    for run in (toolwire.extract, toolwire.locate, toolwire.read):
        with pytest.raises(TypeError):
            run(fmt, reply)
    with pytest.raises(TypeError):
        toolwire.from_fmt(fmt, {})


def test_none_sniffs_for_extract_and_locate_as_for_read() -> None:
    reply = {"choices": []}
    assert toolwire.extract(None, reply) == []
    assert toolwire.locate(None, reply) == []
    assert toolwire.read(None, reply).format == "openai"
    with pytest.raises(TypeError):
        toolwire.from_fmt(None, {})  # type: ignore[arg-type]


# -- text entry points --------------------------------------------------------------------


def _text_markers() -> list[str]:
    """Every short string in the bundled text specs: markers, tags, templates."""
    found: set[str] = set()
    stack: list[Any] = [
        yaml.safe_load(path.read_text(encoding="utf-8"))
        for path in sorted((bundled_specs_dir() / "text").glob("*.yaml"))
    ]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, str) and len(node) <= 40:
            found.add(node.replace("${tag}", "tool_call"))
    return sorted(found)


TEXT_PIECES = [
    "<tool_call>", "</tool_call>", "[TOOL_CALLS]", "<|python_start|>", "<|python_end|>",
    '{"name": "f", "arguments": {"a": 1}}', '{"name": "f", "arguments": "{\\"a\\": 1}"}',
    '{"name": ', '"arguments": ', "[f(a=1), g()]", "f(x='y')", "\n", " ", "{", "}", "[", "]",
    "(", ")", ",", '"', "'", "\\", "```", "```json\n", *_text_markers(),
]
texts = st.lists(st.sampled_from(TEXT_PIECES) | st.text(max_size=10), max_size=25).map("".join)


@pytest.mark.skipif(not TEXT_FORMATS, reason="no text formats registered yet")
@SETTINGS
@given(st.sampled_from(TEXT_FORMATS or ("hermes",)), texts)
def test_text_entry_points_answer_or_raise_toolwire_errors(fmt: str, text: str) -> None:
    try:
        clean, calls = toolwire.extract_from_text(fmt, text)
    except ToolwireError:
        return
    assert isinstance(clean, str) and len(clean) <= len(text)
    for call in calls:
        round_trips(call)


@pytest.mark.skipif("hermes" not in TEXT_FORMATS, reason="no hermes text format yet")
@SETTINGS
@given(texts, st.sampled_from(["tool_call", "function_call", "tool"]))
def test_hermes_text_answers_and_keeps_what_is_not_a_call(text: str, tag: str) -> None:
    clean, calls = toolwire.extract_hermes_from_text(text, tag=tag)
    assert isinstance(clean, str) and len(clean) <= len(text)
    for call in calls:
        round_trips(call)
    if f"<{tag}>" not in text:
        assert calls == [] and clean == text.strip()
