"""``toolwire conformance``: the suite run through an implementation over the protocol of
specs/README.md §10, compared as the Python suite compares toolwire's own results.

toolwire itself answers in-process here (the reference implementation), so every required case
passing proves the protocol's requests and comparison reproduce the suite; small programs
written here show how failures, crashes and unsupported operations are reported.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from toolwire.cli import main

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "specs" / "conformance"
SCHEMAS = ROOT / "specs" / "schema"
TOP_KINDS = ("expression", "interpreter", "spec-validation", "text", "tools")


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(["conformance", *args], out=out), out.getvalue()


def suite_counts() -> tuple[dict[str, int], dict[str, int]]:
    """Case files and optional case files per kind, counted here, not by the runner."""
    cases: dict[str, int] = {}
    optional: dict[str, int] = {}
    for path in sorted(SUITE.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        top = path.relative_to(SUITE).parts[0]
        kind = top if top in TOP_KINDS else ("stream" if data.get("kind") == "stream" else "wire")
        cases[kind] = cases.get(kind, 0) + 1
        optional[kind] = optional.get(kind, 0) + bool(data.get("optional"))
    return cases, optional


def assert_every_required_case_passes(summary: dict[str, Any]) -> None:
    cases, optional = suite_counts()
    assert summary["failures"] == []
    assert set(summary["kinds"]) == set(cases)
    for kind, number in cases.items():
        assert summary["kinds"][kind] == {"passed": number - optional[kind], "failed": 0,
                                          "skipped": optional[kind], "not_implemented": 0}, kind


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    record = tmp_path_factory.mktemp("protocol") / "transcript.jsonl"
    code, out = run("--json", "--record", str(record))
    assert code == 0, out
    return json.loads(out), record


def test_the_reference_passes_every_required_case_through_the_protocol(
    reference_run: tuple[dict[str, Any], Path],
) -> None:
    assert_every_required_case_passes(reference_run[0])


def test_every_request_and_answer_holds_to_the_protocol_schemas(
    reference_run: tuple[dict[str, Any], Path],
) -> None:
    requests = jsonschema.Draft7Validator(
        json.loads((SCHEMAS / "conformance-request.v1.schema.json").read_text("utf-8")))
    answer_schema = json.loads((SCHEMAS / "conformance-answer.v1.schema.json").read_text("utf-8"))
    answers = jsonschema.Draft7Validator(answer_schema)
    ops: set[str] = set()
    with reference_run[1].open(encoding="utf-8") as lines:
        for index, line in enumerate(lines):
            entry = json.loads(line)
            ops.add(entry["request"]["op"])
            if index % 7 and ":split" in entry["request"]["id"]:
                continue  # a sample of the thousands of byte splits
            assert list(requests.iter_errors(entry["request"])) == [], entry["request"]["id"]
            assert list(answers.iter_errors(entry["answer"])) == [], entry["request"]["id"]
    assert ops == {"read", "sniff", "structured_output", "tools", "text", "expression", "load",
                   "stream"}


def test_optional_cases_run_and_pass_when_asked_for() -> None:
    code, out = run("--kind", "interpreter", "--optional", "--json")
    summary = json.loads(out)
    assert code == 0
    assert summary["totals"]["skipped"] == 0
    assert summary["totals"]["passed"] == suite_counts()[0]["interpreter"]


# Programs that answer the protocol badly, one behaviour each.
_WRONG = """import json, sys
for line in sys.stdin:
    request = json.loads(line)
    answer = {"id": request["id"], "result": {"format": "openai", "calls": [],
        "server_calls": [], "truncated": False, "finish_reason": "stop", "choice": 0,
        "choice_count": 1, "unknown_types": [], "unknown": [], "skipped": [], "refused": [],
        "items": [], "text": None}}
    print(json.dumps(answer), flush=True)
"""
_CRASH = "import sys\nsys.stdin.readline()\nsys.stderr.write('boom\\n')\nsys.exit(3)\n"
_UNSUPPORTED = """import json, sys
for line in sys.stdin:
    print(json.dumps({"id": json.loads(line)["id"], "unsupported": "no reader yet"}), flush=True)
"""


def _program(tmp_path: Path, source: str) -> str:
    path = tmp_path / "program.py"
    path.write_text(source, encoding="utf-8")
    return f"{sys.executable} {path}"


CASE = "openai/parallel_function_calls_yield_every_call_in_order.json"


def _one_case(tmp_path: Path, name: str = CASE) -> Path:
    suite = tmp_path / "suite"
    (suite / "openai").mkdir(parents=True)
    source = SUITE / name
    (suite / name).write_text(source.read_text("utf-8"), encoding="utf-8")
    return suite


def test_a_wrong_answer_fails_its_case_naming_the_file_and_the_difference(tmp_path: Path) -> None:
    suite = _one_case(tmp_path)
    code, out = run("--suite", str(suite), "--implementation", _program(tmp_path, _WRONG))
    assert code == 1
    assert "FAILED openai/parallel_function_calls_yield_every_call_in_order.json" in out
    assert "tests[0]: calls: expected [" in out
    assert out.rstrip().endswith("0 passed, 1 failed, 0 skipped (optional), 0 not implemented")


def test_a_program_that_dies_fails_the_case_with_its_stderr_and_is_started_again(
    tmp_path: Path,
) -> None:
    suite = _one_case(tmp_path)
    second = SUITE / "openai" / "call_without_name_is_skipped.json"
    (suite / "openai" / second.name).write_text(second.read_text("utf-8"), encoding="utf-8")
    code, out = run("--suite", str(suite), "--json", "--implementation",
                    _program(tmp_path, _CRASH))
    summary = json.loads(out)
    assert code == 1
    assert summary["totals"]["failed"] == 2
    assert summary["processes_started"] == 2  # one crash costs one case, not the run
    message = summary["failures"][0]["differences"][0]
    assert "exited (status 3)" in message and "boom" in message


def test_an_unsupported_operation_counts_as_not_implemented(tmp_path: Path) -> None:
    suite = _one_case(tmp_path)
    code, out = run("--suite", str(suite), "--json", "--implementation",
                    _program(tmp_path, _UNSUPPORTED))
    summary = json.loads(out)
    assert code == 1
    assert summary["totals"]["not_implemented"] == 1
    assert "no reader yet" in summary["not_implemented"][0]["reason"]


def test_a_case_key_no_check_knows_fails_the_case(tmp_path: Path) -> None:
    suite = _one_case(tmp_path)
    path = suite / "openai" / "parallel_function_calls_yield_every_call_in_order.json"
    case = json.loads(path.read_text("utf-8"))
    case["tests"][0]["expect"]["calls_in_order"] = True
    path.write_text(json.dumps(case), encoding="utf-8")
    code, out = run("--suite", str(suite))
    assert code == 1
    assert "calls_in_order" in out


def test_an_empty_command_is_a_usage_error() -> None:
    code, _ = run("--implementation", " ")
    assert code == 2
