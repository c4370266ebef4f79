"""The generated extract functions agree with the interpreter's walk, or step aside.

:mod:`toolwire._wire.fastpath` writes each spec's ``extract`` as straight Python for the regular
case and returns ``None`` (the walk then answers) for anything irregular. The property
checked here, on every conformance response and on thousands of damaged variants of
them: whenever the generated function answers, the walk gives the same calls (every field,
provenance and provider data included); and it never answers where the walk raises.
"""

from __future__ import annotations

import itertools
import json
import zlib
from collections.abc import Iterator
from typing import Any

import pytest

from toolwire import Registry
from toolwire._spec.wirespec import WireSpec, compile_wire_spec
from toolwire._wire import interpreter
from toolwire._wire.fastpath import build_fast_extract
from toolwire.errors import ToolwireError

from conformance import cases, each_test

REGISTRY = Registry.bundled()
ODD_VALUES: tuple[Any, ...] = (None, 0, 1.5, True, "", "x", "function", [], {}, [None], {"a": 1})


def _walk(spec: WireSpec, response: Any, strict: bool | None) -> tuple[Any, ...]:
    try:
        calls = interpreter.walk_extract(spec, response, strict)
        return ("calls", [c.to_dict() for c in calls])
    except ToolwireError as exc:
        return ("error", type(exc))


def _variants(value: Any, depth: int = 0) -> Iterator[Any]:
    """``value`` with one place replaced by each odd value, or one list item dropped."""
    if depth > 6:
        return
    if isinstance(value, dict):
        for key in list(value):
            for odd in ODD_VALUES:
                yield {**value, key: odd}
            yield {k: v for k, v in value.items() if k != key}
            for inner in _variants(value[key], depth + 1):
                yield {**value, key: inner}
    elif isinstance(value, list):
        for index in range(len(value)):
            yield value[:index] + value[index + 1:]
            for odd in ODD_VALUES:
                yield [*value[:index], odd, *value[index + 1:]]
            for inner in _variants(value[index], depth + 1):
                yield [*value[:index], inner, *value[index + 1:]]


VARIANT_STRIDE = 5
"""The default run checks one damaged variant of a spec shape's response in this many (prime
to the 12 variants of each place, so the odd values rotate from place to place), from a start
fixed by the case's name; the ``exhaustive`` group checks every variant."""


def sampled_variants(name: str, value: Any, every: int = VARIANT_STRIDE) -> Iterator[Any]:
    """Every ``every``-th of :func:`_variants`, from a start the case's name fixes."""
    return itertools.islice(_variants(value), zlib.crc32(name.encode()) % every, None, every)


def _agree(spec: WireSpec, response: Any, strict: bool | None) -> None:
    refuse = spec.unknown_items == "refuse" if strict is None else strict
    built = spec.code.extract
    fast = built.get(refuse) or built.setdefault(refuse, build_fast_extract(spec, refuse))
    assert interpreter._build_fast(spec, strict) is fast
    before = json.dumps(response)
    answered = fast(response)
    assert json.dumps(response) == before, "the generated function changed the response"
    if answered is not None:
        # to_dict: raw_arguments, item_index and provider_data too, not only equality
        assert _walk(spec, response, strict) == ("calls", [c.to_dict() for c in answered])


WIRE = [(n, c.data["format"], t) for n, c, t in each_test(cases()) if c.data.get("format")]


@pytest.mark.parametrize(("name", "fmt", "test"), WIRE, ids=[w[0] for w in WIRE])
def test_generated_extract_agrees_on_conformance_responses(
    name: str, fmt: str, test: dict[str, Any]
) -> None:
    spec = REGISTRY.spec(fmt)
    for strict in (None, True, False):
        _agree(spec, test["response"], strict)


@pytest.mark.parametrize(("name", "fmt", "test"), WIRE, ids=[w[0] for w in WIRE])
def test_generated_extract_agrees_on_damaged_responses(
    name: str, fmt: str, test: dict[str, Any]
) -> None:
    spec = REGISTRY.spec(fmt)
    for variant in _variants(test["response"]):
        if isinstance(variant, dict):
            _agree(spec, variant, None)


INTERPRETER = list(each_test(cases(under="interpreter")))


@pytest.mark.parametrize(("name", "case", "test"), INTERPRETER, ids=[t[0] for t in INTERPRETER])
def test_generated_extract_agrees_on_every_spec_shape(name: str, case: Any, test: Any) -> None:
    """Each shape's response, and a fixed sample of its damaged variants."""
    _agrees_on_the_shape(name, case, test, VARIANT_STRIDE)


@pytest.mark.exhaustive
@pytest.mark.parametrize(("name", "case", "test"), INTERPRETER, ids=[t[0] for t in INTERPRETER])
def test_generated_extract_agrees_on_every_damaged_variant_of_every_spec_shape(
    name: str, case: Any, test: Any
) -> None:
    _agrees_on_the_shape(name, case, test, 1)


def _agrees_on_the_shape(name: str, case: Any, test: Any, every: int) -> None:
    spec = compile_wire_spec(case.data["spec"])
    response = test["response"]
    if not isinstance(response, dict):
        return
    for strict in (None, True, False):
        _agree(spec, response, strict)
    for variant in sampled_variants(name, response, every):
        if isinstance(variant, dict):
            _agree(spec, variant, test.get("strict"))


def test_the_sampled_variants_step_through_all_of_them_from_a_start_per_case() -> None:
    response = {"a": [1, {"b": 2}], "c": "d"}
    every = list(_variants(response))
    assert list(sampled_variants("x", response, 1)) == every
    starts = set()
    for name in ("a", "b", "c", "d", "e", "f", "g", "h"):
        sample = list(sampled_variants(name, response))
        start = every.index(sample[0])
        starts.add(start)
        assert sample == every[start::VARIANT_STRIDE]
    assert len(starts) > 1


def test_the_fast_path_answers_the_regular_case() -> None:
    reply = {"choices": [{"message": {"tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}}]}
    fast = build_fast_extract(REGISTRY.spec("openai"), True)
    answered = fast(reply)
    assert answered is not None and [c.name for c in answered] == ["f"]


def test_the_fast_path_steps_aside_where_the_walk_raises() -> None:
    refused = {"choices": [{"message": {"tool_calls": [
        {"id": "c1", "type": "custom", "custom": {"name": "f", "input": "x"}}]}}]}
    assert build_fast_extract(REGISTRY.spec("openai"), True)(refused) is None
    with pytest.raises(ToolwireError):
        interpreter.extract(REGISTRY.spec("openai"), refused)


STREAM_EVENTS = {
    "openai": {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {}}]},
    "anthropic": {"type": "message_start", "message": {"content": []}},
    "ollama": {"message": {"role": "assistant", "content": "x"}, "done": False},
}


@pytest.mark.parametrize("fmt", sorted(STREAM_EVENTS))
def test_generated_extract_declines_a_stream_event_without_calls(fmt: str) -> None:
    spec = Registry.bundled().spec(fmt)
    event = STREAM_EVENTS[fmt]
    assert spec.stream_event is not None and spec.stream_event.evaluate(event) is True
    assert build_fast_extract(spec, False)(event) is None  # the walk names the Accumulator
    with pytest.raises(ToolwireError, match="Accumulator"):
        Registry.bundled().extract(fmt, event)


def test_generated_extract_declines_a_stream_event_that_holds_calls() -> None:
    # An Ollama line with done: false is one event of a stream even when it carries a
    # call: the walk refuses it, so the generated function must step aside too (a fuzz
    # harness found extract_sniff answering a call where read(None) refused).
    spec = Registry.bundled().spec("ollama")
    event = {"model": "m", "done": False, "message": {"role": "assistant", "tool_calls": [
        {"function": {"name": "forecast", "arguments": {}}}]}}
    assert spec.stream_event is not None and spec.stream_event.evaluate(event) is True
    assert build_fast_extract(spec, False)(event) is None
    assert build_fast_extract(spec, True)(event) is None
