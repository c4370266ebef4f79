"""Runs ``specs/conformance/spec-validation``: each loader rule, located to line and column."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolwire._spec.wire_file import load_wire_spec
from toolwire.errors import SpecError

from conformance import Case, cases

CASES = cases(under="spec-validation")


def test_spec_validation_cases_exist() -> None:
    assert len(CASES) >= 20


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_spec_validation_case_holds(case: Case, tmp_path: Path) -> None:
    path = tmp_path / case.data["file_name"]
    path.write_text(case.data["spec_text"], encoding="utf-8")
    for name, text in case.data.get("other_files", {}).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    expected = case.data["expect"]["problems"]
    try:
        load_wire_spec(path)
    except SpecError as exc:
        got = [
            {"rule": p.rule, "line": p.line, "col": p.col, "pointer": p.pointer}
            | ({} if Path(p.path) == path else {"file": Path(p.path).name})
            for p in exc.problems
        ]
        assert got == expected
        for problem in exc.problems:
            assert str(problem).startswith(f"{problem.path}:{problem.line}:{problem.col}: ")
            assert Path(problem.path).parent == tmp_path
            assert str(problem).endswith(f"[{problem.rule}]")
    else:
        assert expected == []


def test_every_loader_rule_has_a_case() -> None:
    covered = {p["rule"] for c in CASES for p in c.data["expect"]["problems"]}
    rules = {
        "yaml-syntax", "yaml-duplicate-key", "yaml-alias", "yaml-anchor", "yaml-tag",
        "yaml-ambiguous-scalar", "yaml-key", "yaml-documents", "not-a-mapping",
        "unknown-key", "missing-key", "wrong-type", "bad-value", "unsupported-version",
        "format-name", "type-source", "when-required", "expression-syntax",
        "expression-not-portable", "predicate-not-boolean", "bare-literal-name",
        "extends-unknown", "extends-cycle", "extends-remove", "stream-op", "stream-rule-name",
        "stream-events", "stream-slot-list",
    }
    assert sorted(rules - covered) == []
