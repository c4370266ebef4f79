"""The generated read functions agree with the interpreter's read, or step aside.

:mod:`toolwire._wire.fastread` writes each spec's ``read`` from the same generated walk as
``extract`` and returns ``None`` (the interpreter, :mod:`toolwire._wire.reading`, then
answers) for anything irregular. The property checked here, on every conformance response,
on the spec shapes of the interpreter cases and on damaged variants of them: whenever the
generated function answers, the interpreter gives the same reply — every field, records,
locations, provenance, text and turn (the JSON form, ``raw`` included, and equality) — and
it never answers where the interpreter raises.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_fastpath import VARIANT_STRIDE, _variants, sampled_variants

from toolwire import Registry, Reply
from toolwire._spec.wirespec import WireSpec, compile_wire_spec
from toolwire._wire import interpreter
from toolwire._wire.fastread import build_fast_read
from toolwire._wire.reading import read_reply
from toolwire.errors import ToolwireError

from conformance import cases, each_test

REGISTRY = Registry.bundled()


def _reference(spec: WireSpec, response: Any, strict: bool | None) -> tuple[str, Any]:
    try:
        return "reply", read_reply(spec, response, strict)
    except ToolwireError as exc:
        return "error", type(exc)


def _agree(spec: WireSpec, response: Any, strict: bool | None) -> bool:
    """Whether the generated function answered (and then agreed)."""
    fast = interpreter._build_fast_read(spec, strict)
    before = json.dumps(response)
    answered = fast(response, False)
    assert json.dumps(response) == before, "the generated function changed the response"
    if answered is None:
        return False
    kind, reference = _reference(spec, response, strict)
    assert kind == "reply", f"the generated read answered where the interpreter raises {reference}"
    assert answered == reference
    assert answered.to_dict(raw=True) == reference.to_dict(raw=True)
    assert answered.call_records == reference.call_records
    assert type(answered) is Reply and type(answered.turn) is type(reference.turn)
    # A response parsed from JSON text is the reader's own: the same reply, no copies made.
    owned = fast(json.loads(before), True)
    assert owned is not None
    assert owned == reference
    assert owned.to_dict(raw=True) == reference.to_dict(raw=True)
    return True


WIRE = [(n, c.data["format"], t) for n, c, t in each_test(cases()) if c.data.get("format")]


@pytest.mark.parametrize(("name", "fmt", "test"), WIRE, ids=[w[0] for w in WIRE])
def test_generated_read_agrees_on_conformance_responses(
    name: str, fmt: str, test: dict[str, Any]
) -> None:
    spec = REGISTRY.spec(fmt)
    response = test["response"]
    if not isinstance(response, dict):
        return
    for strict in (None, True, False):
        _agree(spec, response, strict)


def test_generated_read_answers_most_conformance_replies() -> None:
    answered = readable = 0
    for _, fmt, test in WIRE:
        spec = REGISTRY.spec(fmt)
        if isinstance(test["response"], dict) and test.get("strict") is None and (
                _reference(spec, test["response"], None)[0] == "reply"):
            readable += 1
            answered += _agree(spec, test["response"], None)
    assert answered >= 0.8 * readable, (answered, readable)


@pytest.mark.parametrize(("name", "fmt", "test"), WIRE, ids=[w[0] for w in WIRE])
def test_generated_read_agrees_on_damaged_responses(
    name: str, fmt: str, test: dict[str, Any]
) -> None:
    spec = REGISTRY.spec(fmt)
    for number, variant in enumerate(_variants(test["response"])):
        if isinstance(variant, dict) and number % 3 == 0:  # a third: the walk is costly
            _agree(spec, variant, None)


INTERPRETER = list(each_test(cases(under="interpreter")))


@pytest.mark.parametrize(("name", "case", "test"), INTERPRETER, ids=[t[0] for t in INTERPRETER])
def test_generated_read_agrees_on_every_spec_shape(name: str, case: Any, test: Any) -> None:
    """Each shape's response, and a fixed sample of its damaged variants."""
    _agrees_on_the_shape(name, case, test, VARIANT_STRIDE)


@pytest.mark.exhaustive
@pytest.mark.parametrize(("name", "case", "test"), INTERPRETER, ids=[t[0] for t in INTERPRETER])
def test_generated_read_agrees_on_every_damaged_variant_of_every_spec_shape(
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


def test_read_is_generated_on_a_specs_second_read() -> None:
    spec = Registry.from_paths().spec("openai")
    body = {"choices": [{"message": {"content": "hi"}}]}
    first = interpreter.read(spec, body)  # a one-shot process walks its one reply
    assert None not in spec.code.read
    assert interpreter.read(spec, json.dumps(body)) == first
    assert None in spec.code.read


def test_the_generated_read_steps_aside_where_the_interpreter_raises() -> None:
    spec = REGISTRY.spec("anthropic")
    fast = build_fast_read(spec, True)
    assert fast({"content": [{"type": "mystery"}]}, False) is None  # unknown, failing closed
    assert fast({"content": "text"}, False) is None  # not a list
    assert fast({"content": [{"type": "tool_use", "name": "", "input": {}}]}, False) is None
