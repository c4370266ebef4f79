"""Runs every wire-format conformance case (``specs/conformance/<format>/*.json``).

The running and comparing is :func:`toolwire.conformance._wire_cases.run_wire_test`, the same
code ``toolwire specs test`` runs an author's cases with; a test passes when it reports no
difference.
"""

from __future__ import annotations

from typing import Any

import pytest

import toolwire
from toolwire.conformance._wire_cases import run_wire_test

from conformance import Case, cases, each_test

WIRE_TESTS = list(each_test(cases()))


@pytest.mark.parametrize(("name", "case", "test"), WIRE_TESTS, ids=[t[0] for t in WIRE_TESTS])
def test_conformance_case_holds(name: str, case: Case, test: dict[str, Any]) -> None:
    assert run_wire_test(toolwire.Registry.bundled(), case.data["format"], test) == []


def test_the_suite_is_not_empty() -> None:
    assert len(WIRE_TESTS) >= 60


def test_every_format_with_a_render_part_pins_its_turn_and_answer() -> None:
    registry = toolwire.Registry.bundled()
    pinned = {case.data["format"] for _, case, test in WIRE_TESTS
              if {"assistant_message", "answer"} <= set(test["expect"]) and test.get("results")}
    rendered = {fmt for fmt in registry.formats() if registry.spec(fmt).render is not None}
    assert rendered - pinned == set()
    assert len(rendered) >= 7


def test_a_rendered_turn_or_answer_that_differs_is_named() -> None:
    _, case, test = next(t for t in WIRE_TESTS if t[0].startswith("anthropic/render_"))
    wrong = {**test, "expect": {**test["expect"], "assistant_message": {"role": "assistant"},
                                "answer": []}}
    found = run_wire_test(toolwire.Registry.bundled(), case.data["format"], wrong)
    assert any(d.startswith("assistant_message.content: expected nothing") or
               d.startswith("assistant_message.content: not expected") for d in found), found
    assert any(d.startswith("answer: expected []") for d in found), found
