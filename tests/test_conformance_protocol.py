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

from conformance import split_sample

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


def _reference_run(folder: Path, sampled: bool) -> tuple[dict[str, Any], Path]:
    record = folder / "transcript.jsonl"
    with split_sample(sampled):
        code, out = run("--json", "--record", str(record))
    assert code == 0, out
    return json.loads(out), record


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """The whole suite through the protocol, a sample of the single byte splits sent."""
    return _reference_run(tmp_path_factory.mktemp("protocol"), sampled=True)


@pytest.fixture(scope="module")
def full_reference_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """The whole suite through the protocol, every derived request sent."""
    return _reference_run(tmp_path_factory.mktemp("protocol-full"), sampled=False)


def test_the_reference_passes_every_required_case_through_the_protocol(
    reference_run: tuple[dict[str, Any], Path],
) -> None:
    assert_every_required_case_passes(reference_run[0])


DERIVED = (":cut", ":split", ":bytes")
"""Id marks of the requests a stream check derives from one case: thousands of them, alike."""

DERIVED_STRIDE = 7
"""The default run holds one derived request in this many to the schemas (every other
request always); the exhaustive group holds them all."""


def _assert_the_transcript_holds_to_the_schemas(record: Path, stride: int) -> None:
    requests = jsonschema.Draft7Validator(
        json.loads((SCHEMAS / "conformance-request.v1.schema.json").read_text("utf-8")))
    answer_schema = json.loads((SCHEMAS / "conformance-answer.v1.schema.json").read_text("utf-8"))
    answers = jsonschema.Draft7Validator(answer_schema)
    ops: set[str] = set()
    derived_seen = 0
    with record.open(encoding="utf-8") as lines:
        for line in lines:
            entry = json.loads(line)
            ops.add(entry["request"]["op"])
            if any(mark in entry["request"]["id"] for mark in DERIVED):
                derived_seen += 1
                if derived_seen % stride:
                    continue  # a sample of the thousands of derived requests
            assert list(requests.iter_errors(entry["request"])) == [], entry["request"]["id"]
            assert list(answers.iter_errors(entry["answer"])) == [], entry["request"]["id"]
    assert derived_seen >= stride
    assert ops == {"read", "sniff", "structured_output", "tools", "text", "expression", "load",
                   "stream", "render"}


def test_every_request_and_answer_holds_to_the_protocol_schemas(
    reference_run: tuple[dict[str, Any], Path],
) -> None:
    """Every case's own requests and a fixed sample of the derived ones (cuts, byte splits)."""
    _assert_the_transcript_holds_to_the_schemas(reference_run[1], DERIVED_STRIDE)


@pytest.mark.exhaustive
def test_the_reference_passes_every_required_case_with_every_byte_split(
    full_reference_run: tuple[dict[str, Any], Path],
) -> None:
    assert_every_required_case_passes(full_reference_run[0])


@pytest.mark.exhaustive
def test_every_derived_request_and_answer_holds_to_the_protocol_schemas(
    full_reference_run: tuple[dict[str, Any], Path],
) -> None:
    _assert_the_transcript_holds_to_the_schemas(full_reference_run[1], 1)


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
        "items": [], "text": None, "turn": None}}
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


# The reference's own answers with one thing changed: each text key the check compares.
_TEXT_PROGRAM = """import json, sys
sys.path.insert(0, {src!r})
from toolwire.conformance._reference import answer
for line in sys.stdin:
    request = json.loads(line)
{before}
    a = answer(request)
{after}
    print(json.dumps(a), flush=True)
"""

TEXT_MUTATIONS = {
    "reasoning": ("hermes/reasoning_apart.json", "", "    a['result']['reasoning'] = ''",
                  "tests[0]: reasoning: expected"),
    "tools_ignored": ("hermes/checked_against_tools.json", "    request['tools'] = None", "",
                      "tests[0]: checked[0].unknown_tool: expected true, got false"),
    "fate_contradicted": (
        "hermes/checked_against_tools.json", "",
        "    for c in a['result']['calls']: c['fate'] = 'runnable'",
        "tests[0]: not a TextReply's JSON"),
    "region_text": ("hermes/not_a_call_is_skipped.json", "",
                    "    for r in a['result']['skipped']: r['text'] = 'x'",
                    "tests[0]: skipped[0].text: expected '<tool_call>not json</tool_call>'"),
    "refusal_ignored": (
        "gpt_oss/built_in_tools_refused.json", "",
        "    if 'error' in a: a = {'id': a['id'], 'result': {'clean_text': '',"
        " **a['error']['reply']}}",
        "tests[0]: error: expected unmapped_call, got a reading with 0 call(s)"),
    "partial_reply_missing": ("gpt_oss/built_in_tools_refused.json", "",
                              "    if 'error' in a: a['error']['reply'] = None",
                              "tests[0]: error.reply: expected the partial TextReply"),
    "refused_region": (
        "gpt_oss/built_in_tools_refused.json", "",
        "    if 'error' in a: a['error']['reply']['refused'][0]['recipient'] = 'browser'",
        "tests[0]: error.reply.refused[0].recipient: expected \"python\", got \"browser\""),
}


@pytest.mark.parametrize("mutation", list(TEXT_MUTATIONS))
def test_a_text_answer_differing_in_any_compared_key_fails_naming_it(
    tmp_path: Path, mutation: str,
) -> None:
    name, before, after, message = TEXT_MUTATIONS[mutation]
    suite = tmp_path / "suite"
    (suite / "text" / name).parent.mkdir(parents=True)
    (suite / "text" / name).write_text((SUITE / "text" / name).read_text("utf-8"), "utf-8")
    source = _TEXT_PROGRAM.format(src=str(ROOT / "src"), before=before or "    pass",
                                  after=after or "    pass")
    code, out = run("--suite", str(suite), "--implementation", _program(tmp_path, source))
    assert code == 1, out
    assert f"FAILED text/{name}" in out
    assert message in out, out


def test_a_text_request_carries_its_tests_tools_and_the_answer_the_whole_reading(
    reference_run: tuple[dict[str, Any], Path],
) -> None:
    tests = {}
    for path in sorted((SUITE / "text").rglob("*.json")):
        name = path.relative_to(SUITE).as_posix()
        for index, test in enumerate(json.loads(path.read_text("utf-8"))["tests"]):
            tests[f"{name}::{index}"] = test
    seen = with_tools = 0
    with reference_run[1].open(encoding="utf-8") as lines:
        for line in lines:
            entry = json.loads(line)
            request, answer = entry["request"], entry["answer"]
            if request["op"] != "text":
                continue
            test = tests[request["id"]]
            assert request["tools"] == test.get("tools"), request["id"]
            with_tools += request["tools"] is not None
            reading = answer["result"] if "result" in answer else answer["error"]["reply"]
            keys = {"text", "reasoning", "calls", "skipped", "truncated", "refused"}
            assert set(reading) == keys | ({"clean_text"} if "result" in answer else set())
            seen += 1
    assert seen == len(tests)
    assert with_tools >= 3


def _undescribed(node: Any, where: str = "") -> list[str]:
    """Every property of a schema without a description."""
    out = []
    if isinstance(node, dict):
        for key, sub in (node.get("properties") or {}).items():
            if isinstance(sub, dict) and "description" not in sub:
                out.append(f"{where}/properties/{key}")
        for key, sub in node.items():
            out += _undescribed(sub, f"{where}/{key}")
    elif isinstance(node, list):
        for index, sub in enumerate(node):
            out += _undescribed(sub, f"{where}/{index}")
    return out


@pytest.mark.parametrize("name", ["conformance-request", "conformance-answer"])
def test_every_key_of_the_protocol_schemas_is_described(name: str) -> None:
    schema = json.loads((SCHEMAS / f"{name}.v1.schema.json").read_text("utf-8"))
    assert _undescribed(schema) == []


def test_the_sampled_run_splits_at_every_line_end_and_multi_byte_character(
    reference_run: tuple[dict[str, Any], Path],
) -> None:
    """The default run's sample of single byte splits: next to every CR or LF, inside every
    multi-byte character, every 16th byte; and the text fed one byte at a time, every time."""
    sent: dict[str, set[str]] = {}
    with reference_run[1].open(encoding="utf-8") as lines:
        for line in lines:
            rid = json.loads(line)["request"]["id"]
            test, _, derived = rid.rpartition(":")
            if derived.startswith(("split", "bytes")):
                sent.setdefault(test, set()).add(derived)
    tested = 0
    for path in sorted(SUITE.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for index, test in enumerate(data.get("tests", [])):
            if data.get("kind") != "stream" or "sse" not in test:
                continue
            raw = test["sse"].encode("utf-8")
            want = {f"split{at}" for at in range(1, len(raw))
                    if at % 16 == 0 or any(b in b"\r\n" or b >= 0x80 for b in raw[at - 1:at + 1])}
            assert sent[f"{path.relative_to(SUITE).as_posix()}::{index}"] == want | {"bytes"}
            assert len(want) < len(raw) - 1 or len(raw) < 8  # a sample, not every offset
            tested += 1
    assert tested >= 20
