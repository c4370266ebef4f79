"""``toolwire specs test DIR`` and the checks ``specs check`` adds for an author's specs.

``specs test`` runs an author's cases with the suite's own runner; ``specs check`` refuses a
sniff predicate tying a bundled one and skeleton fields left ``TODO``.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from toolwire.cli import main

ACME = """\
spec_version: 1
format: acme
extends: openai
title: Acme chat completions
doc_ref: https://example.invalid/acme
truncated: "choices[0].finish_reason == 'length' || choices[0].finish_reason == 'cut'"
"""

CALL = {"name": "get_weather", "arguments": {"city": "Oslo"}, "id": "c1", "synthetic": False,
        "arguments_undecodable": False}
CUT = {"choices": [{"message": {"tool_calls": [{"id": "c1", "type": "function", "function": {
    "name": "get_weather", "arguments": "{\"city\": \"Oslo\"}"}}]}, "finish_reason": "cut"}]}
CASE: dict[str, Any] = {
    "description": "A reply Acme cut at its limit is truncated",
    "source": "synthetic",
    "format": "acme",
    "tests": [{"description": "cut", "response": CUT,
               "expect": {"calls": [CALL], "truncated": True, "fates": ["dropped"]}}],
}


def folder_with(tmp_path: Path, case: dict[str, Any], spec: str = ACME) -> Path:
    folder = tmp_path / "mine"
    (folder / "cases").mkdir(parents=True)
    (folder / "acme.yaml").write_text(spec, encoding="utf-8")
    (folder / "cases" / "cut_reply_is_truncated.json").write_text(json.dumps(case), "utf-8")
    return folder


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def test_specs_test_passes_an_authors_case_against_their_dialect(tmp_path: Path) -> None:
    code, out = run("specs", "test", str(folder_with(tmp_path, CASE)))
    assert (code, out) == (0, "PASS cases/cut_reply_is_truncated.json::0 (cut)\n"
                              "1 passed, 0 failed (1 tests)\n")


def test_specs_test_shows_each_difference_and_exits_1(tmp_path: Path) -> None:
    case = copy.deepcopy(CASE)
    expect = case["tests"][0]["expect"]
    expect["calls"][0]["arguments"] = {"city": "Bergen"}
    expect["truncated"] = False
    code, out = run("specs", "test", str(folder_with(tmp_path, case)))
    assert code == 1
    assert out.splitlines() == [
        "FAIL cases/cut_reply_is_truncated.json::0 (cut)",
        '       calls[0].arguments.city: expected "Bergen", got "Oslo"',
        "       truncated: expected false, got true",
        "0 passed, 1 failed (1 tests)",
    ]


def test_specs_test_checks_the_reply_text_a_wire_spec_reads(tmp_path: Path) -> None:
    case = copy.deepcopy(CASE)
    response = case["tests"][0]["response"]
    response["choices"][0]["message"]["content"] = "Checking Oslo."
    case["tests"][0]["expect"]["text"] = "Checking Oslo."
    assert run("specs", "test", str(folder_with(tmp_path, case)))[0] == 0
    case["tests"][0]["expect"]["text"] = "Checking Bergen."
    code, out = run("specs", "test", str(folder_with(tmp_path / "again", case)))
    assert code == 1
    assert '       text: expected "Checking Bergen.", got "Checking Oslo."' in out.splitlines()
    case["tests"][0]["expect"]["text"] = None
    code, out = run("specs", "test", str(folder_with(tmp_path / "none", case)))
    assert '       text: expected null, got "Checking Oslo."' in out.splitlines()


def test_specs_test_checks_a_wire_specs_rendered_turn_and_answer(tmp_path: Path) -> None:
    case = copy.deepcopy(CASE)
    test = case["tests"][0]
    test["response"]["choices"][0]["finish_reason"] = "tool_calls"
    test["results"] = {"0": "sunny"}
    test["expect"] = {"assistant_message": {"role": "assistant", "tool_calls": [
        {"id": "c1", "type": "function", "function": {
            "name": "get_weather", "arguments": "{\"city\": \"Oslo\"}"}}]},
        "answer": [{"role": "tool", "tool_call_id": "c1", "content": "sunny"}]}
    assert run("specs", "test", str(folder_with(tmp_path, case)))[0] == 0
    test["expect"]["answer"][0]["content"] = "rain"
    code, out = run("specs", "test", str(folder_with(tmp_path / "again", case)))
    assert code == 1
    assert out.splitlines()[1] == '       answer[0].content: expected "rain", got "sunny"'


def test_specs_test_json_gives_every_result(tmp_path: Path) -> None:
    case = copy.deepcopy(CASE)
    case["tests"].append({"description": "wrong error", "response": CUT,
                          "expect": {"error": {"code": "unmapped_call"}}})
    code, out = run("specs", "test", str(folder_with(tmp_path, case)), "--json")
    data = json.loads(out)
    assert code == 1 and (data["passed"], data["failed"]) == (1, 1)
    assert data["results"][1]["differences"] == [
        "error: expected unmapped_call, got a reply with 1 call(s)"]


def test_specs_test_runs_the_error_expectations_of_the_suite_format(tmp_path: Path) -> None:
    case = copy.deepcopy(CASE)
    case["tests"] = [{"description": "not an object", "response": [1],
                      "expect": {"error": {"code": "malformed_response"}}}]
    assert run("specs", "test", str(folder_with(tmp_path, case)))[0] == 0


@pytest.mark.parametrize(("setup", "message"), [
    ("missing", "is not a folder"),
    ("empty", "no case files (*.json) under"),
    ("off-schema", "cases/cut_reply_is_truncated.json: /tests/0/expect/calls/0: missing 'id'"
                   " (required here: name, arguments, id, synthetic, arguments_undecodable)"),
    ("not-json", "cases/cut_reply_is_truncated.json:1:2: not JSON"),
    ("deep", "cases/cut_reply_is_truncated.json: not JSON this reader can take: nested too"
             " deep"),
    ("no-flags", "cases/cut_reply_is_truncated.json: /tests/0/expect/calls/0: missing"
                 " 'synthetic' and 'arguments_undecodable' (required here: name, arguments,"
                 " id, synthetic, arguments_undecodable)"),
])
def test_specs_test_usage_errors_exit_2_naming_file_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], setup: str, message: str
) -> None:
    case = copy.deepcopy(CASE)
    if setup == "off-schema":
        del case["tests"][0]["expect"]["calls"][0]["id"]
    elif setup == "no-flags":  # what an author who copied a call from the README writes
        del case["tests"][0]["expect"]["calls"][0]["synthetic"]
        del case["tests"][0]["expect"]["calls"][0]["arguments_undecodable"]
    folder = folder_with(tmp_path, case)
    target = folder / "cases" / "cut_reply_is_truncated.json"
    if setup == "missing":
        folder = tmp_path / "nowhere"
    elif setup == "empty":
        target.unlink()
    elif setup == "not-json":
        target.write_text("{,", encoding="utf-8")
    elif setup == "deep":
        target.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert run("specs", "test", str(folder))[0] == 2
    err = capsys.readouterr().err
    assert err.startswith("toolwire: usage: ") and message in err and err.count("\n") == 1


def test_specs_test_with_a_spec_that_does_not_load_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = folder_with(tmp_path, CASE, ACME.replace("truncated:", "truncatd:"))
    assert run("specs", "test", str(folder))[0] == 1
    assert "[unknown-key]" in capsys.readouterr().err


@pytest.mark.parametrize(("priority", "where", "how"), [
    (100, "", " with the same priority, so the format name decides: it sniffs as acme"),
    (101, "", ", a reply of openai, and the priority gives it to acme"),
    (99, "cases/cut_reply_is_truncated.json::0",
     ", a reply of acme, and the priority gives it to openai"),
])
def test_specs_check_reports_a_user_sniff_overlapping_a_bundled_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], priority: int, where: str, how: str
) -> None:
    spec = ACME + f"sniff: {{when: \"type(choices) == 'array'\", priority: {priority}}}\n"
    folder = folder_with(tmp_path, CASE, spec)
    assert run("specs", "check", str(folder))[0] == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"{folder / 'acme.yaml'}:7:15: /sniff/when: the sniff predicates of"
                             f" acme and openai both hold on {where}")
    assert err[0].endswith(f"{how} [sniff-overlap]")
    assert err[1:] == ["toolwire: 1 problem(s)"]


def test_specs_check_finds_an_overlap_on_the_authors_own_reply(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = ACME + "sniff: {when: \"type(acme_id) == 'string'\", priority: 100}\n"
    case = copy.deepcopy(CASE)
    case["tests"][0]["response"] = {**CUT, "acme_id": "a1"}
    folder = folder_with(tmp_path, case, spec)
    assert run("specs", "check", str(folder))[0] == 1
    assert "both hold on cases/cut_reply_is_truncated.json::0" in capsys.readouterr().err


def test_specs_check_accepts_a_higher_priority_claiming_only_its_own_replies(
    tmp_path: Path
) -> None:
    spec = ACME + "sniff: {when: \"type(acme_id) == 'string'\", priority: 101}\n"
    case = copy.deepcopy(CASE)
    case["tests"][0]["response"] = {**CUT, "acme_id": "a1"}
    assert run("specs", "check", str(folder_with(tmp_path, case, spec))) == (
        0, "ok: 1 spec(s) valid\n")
