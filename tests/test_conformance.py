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
