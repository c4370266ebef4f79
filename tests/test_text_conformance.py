"""The text-format conformance suite: every case under ``specs/conformance/text`` passes.

Each file holds one behaviour of one format (``<format>/<behaviour>.json``); each
test gives a model reply and the clean text and calls (``ToolCall.to_dict()``) it
must yield, and where it says so ``read_text``'s account of it: the answer, the
reasoning, the skipped regions, truncation, fates, the check against the tools given,
or the error raised with its partial reply. The suite is plain JSON, so another
implementation runs it unchanged; the comparison is :mod:`toolwire.conformance._text_cases`'s,
the one ``toolwire conformance`` holds any implementation's answers to.
"""

from __future__ import annotations

from typing import Any

import pytest

from toolwire import Registry
from toolwire._text import bundled_text_specs
from toolwire.conformance._text_cases import TEXT_EXPECT_KEYS, run_text_test

from conformance import SUITE, Case, cases, each_test

TEXT_SUITE = SUITE / "text"
TEXT_CASES = cases(under="text")
TESTS = list(each_test(TEXT_CASES))
REGISTRY = Registry.bundled()


@pytest.mark.parametrize(("name", "case", "test"), TESTS, ids=[t[0] for t in TESTS])
def test_text_case_yields_its_clean_text_and_calls(
    name: str, case: Case, test: dict[str, Any]
) -> None:
    # The comparison toolwire conformance applies to any implementation's text answers.
    assert run_text_test(REGISTRY, case.data["format"], test) == [], test["description"]


@pytest.mark.parametrize("case", TEXT_CASES, ids=[c.name for c in TEXT_CASES])
def test_text_case_file_is_well_formed_and_filed_under_its_format(case: Case) -> None:
    folder = case.path.relative_to(TEXT_SUITE).parts[0]
    assert case.data["format"] == folder
    assert set(case.data) <= {"description", "source", "source_ref", "optional", "format", "tests"}
    assert case.data["description"]
    assert case.data["source"] in ("captured", "docs", "synthetic")
    if case.data["source"] != "synthetic":
        assert case.data.get("source_ref"), "a non-synthetic case names its source"
    assert case.data["tests"], "a case file holds at least one test"
    for test in case.data["tests"]:
        assert set(test) <= {"description", "text", "params", "tools", "expect"}
        assert test["description"]
        assert "calls" in test["expect"] and set(test["expect"]) <= set(TEXT_EXPECT_KEYS)
        assert ("clean_text" in test["expect"]) != ("error" in test["expect"])


def test_every_bundled_text_format_has_conformance_cases() -> None:
    folders = {p.name for p in TEXT_SUITE.iterdir() if p.is_dir()}
    assert sorted(set(bundled_text_specs()) ^ folders) == []


def test_every_text_format_has_a_case_with_a_call_and_one_without() -> None:
    with_calls: set[str] = set()
    without: set[str] = set()
    for _, case, test in TESTS:
        (with_calls if test["expect"]["calls"] else without).add(case.data["format"])
    formats = set(bundled_text_specs())
    assert sorted(formats - with_calls) == []
    assert sorted(formats - without) == []


def test_every_text_format_has_a_case_accounting_for_a_cut_reply() -> None:
    """Each format pins what a reply cut inside a call gives: a call flagged incomplete or
    a skipped region, and ``truncated`` (specs/README.md §1b.12)."""
    accounted: set[str] = set()
    for _, case, test in TESTS:
        expect = test["expect"]
        if expect.get("truncated") is True and (
            any(c.get("incomplete") for c in expect["calls"]) or expect.get("skipped")
        ):
            accounted.add(case.data["format"])
    assert sorted(set(bundled_text_specs()) - accounted) == []
