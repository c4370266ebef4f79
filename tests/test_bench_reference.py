"""The benchmark's hand-written and naive extractors give exactly toolwire's answers.

``tools/bench.py`` compares toolwire with a hand-written extractor per format and with
the naive ``jmespath.search`` interpretation of the same spec; the comparison is honest
only if all three do the same work. These tests hold them to the same calls on every
bench reply, and to the same calls or the same error on the format's conformance cases.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

import toolwire
from toolwire._sdk_objects import normalised

from conformance import cases, each_test

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import bench_reference
import bench_replies

REGISTRY = toolwire.Registry.bundled()
SPECS = REGISTRY.specs()
FORMATS = REGISTRY.formats()


def _extends(fmt: str) -> str | None:
    spec = SPECS.get(fmt)
    base = spec.data.get("extends") if spec is not None else None
    return base if isinstance(base, str) else None


def _lineage(fmt: str) -> list[str]:
    return bench_replies.lineage(fmt, _extends)


def _outcome(extract: Any, response: Any) -> tuple[Any, ...]:
    """The calls as dicts, or the error's code and where it points. A body refused before
    its items (the provider's error, no reply of the format) is one outcome: toolwire
    names the format that fits it or another provider's error, which a reference for one
    format cannot know."""
    try:
        return ("calls", [call.to_dict() for call in extract(response)])
    except toolwire.errors.ToolwireError as exc:
        where = (getattr(exc, "item_index", None), getattr(exc, "item_type", None))
        if exc.code in ("provider_error", "malformed_response") and where == (None, None):
            return ("error", "not a reply", *where)
        return ("error", exc.code, *where)


def test_every_bundled_format_has_a_bench_reply_and_a_reference() -> None:
    missing = [
        fmt
        for fmt in FORMATS
        if bench_replies.builder_for(fmt, _extends) is None
        or bench_reference.reference_for(_lineage(fmt)) is None
    ]
    assert not missing, (
        f"no bench reply builder or hand-written reference for {missing}: add one to"
        " tools/bench_replies.py and tools/bench_reference.py (a dialect that `extends`"
        " a format borrows its base's)"
    )


BENCH_CASES = [(fmt, kind) for fmt in FORMATS for kind, _ in bench_replies.KINDS]


@pytest.mark.parametrize(("fmt", "kind"), BENCH_CASES, ids=[f"{f}-{k}" for f, k in BENCH_CASES])
def test_references_match_toolwire_on_bench_replies(fmt: str, kind: str) -> None:
    builder = bench_replies.builder_for(fmt, _extends)
    found = bench_reference.reference_for(_lineage(fmt))
    if builder is None or found is None:
        pytest.skip(f"{fmt} has no bench builder or reference (see the test above)")
    reply = bench_replies.replies(builder)[kind]
    expected = toolwire.extract(fmt, reply)
    assert len(expected) == dict(bench_replies.KINDS)[kind]
    assert found[1](reply) == expected
    if kind != "10000 calls":  # the naive interpreter is slow; 100 calls make the point
        assert bench_reference.naive_extract(REGISTRY.spec(fmt), reply) == expected


CONFORMANCE = [
    (name, case.data["format"], test)
    for name, case, test in each_test(cases())
    if case.data.get("format") in FORMATS and test.get("strict") is None
]


@pytest.mark.parametrize(("name", "fmt", "test"), CONFORMANCE, ids=[c[0] for c in CONFORMANCE])
def test_references_match_toolwire_on_conformance_cases(
    name: str, fmt: str, test: dict[str, Any]
) -> None:
    expected = _outcome(lambda r: toolwire.extract(fmt, r), test["response"])
    # The references read wire JSON: an SDK dump (the spec's normalize.detect) is renamed first.
    response = normalised(REGISTRY.spec(fmt), test["response"])
    found = bench_reference.reference_for(_lineage(fmt))
    if found is not None:
        assert _outcome(found[1], response) == expected, f"reference {found[0]} differs"
    spec = REGISTRY.spec(fmt)
    assert _outcome(lambda r: bench_reference.naive_extract(spec, r), response) == expected


def _tuple_facts(call: Any) -> tuple[Any, ...]:
    return (call.name, call.arguments, call.id, call.arguments_undecodable,
            call.arguments_error, call.arguments_error_code, call.raw_arguments,
            dict(call.provider_data) or None, call.item_index)


@pytest.mark.parametrize(("fmt", "kind"), BENCH_CASES, ids=[f"{f}-{k}" for f, k in BENCH_CASES])
def test_named_tuple_references_carry_toolwires_facts_on_bench_replies(fmt: str, kind: str) -> None:
    builder = bench_replies.builder_for(fmt, _extends)
    tuples = bench_reference.tuple_reference_for(_lineage(fmt))
    if builder is None or tuples is None:
        pytest.skip(f"{fmt} has no bench builder or reference (see the test above)")
    reply = bench_replies.replies(builder)[kind]
    expected = [_tuple_facts(c) for c in toolwire.extract(fmt, reply)]
    got = tuples(reply)
    assert all(type(t) is bench_reference.TupleCall for t in got)
    assert [tuple(t) for t in got] == expected
