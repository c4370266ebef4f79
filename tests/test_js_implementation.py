"""The JavaScript implementation (tools/js/) passes the conformance suite.

It was written from specs/README.md alone, so its passing is the evidence that the
README and the suite are enough to implement the spec language in another language.
The test installs its pinned dependencies (``npm ci``, into tools/js/node_modules) and
runs its runner; where node or npm is missing it is skipped, saying so.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import toolwire

JS = Path(__file__).resolve().parent.parent / "tools" / "js"


def _tools() -> tuple[str, str]:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("node and npm are needed to run the JavaScript implementation (tools/js/)")
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    if int(version.stdout.strip().lstrip("v").split(".")[0]) < 20:
        pytest.skip(f"tools/js/ needs Node 20 or later, found {version.stdout.strip()}")
    return node, npm


SUITE = JS.parent.parent / "specs" / "conformance"
TOP_KINDS = ("expression", "interpreter", "spec-validation", "text", "tools")
# Kinds whose cases may still be counted "not implemented in JS": none, every case of every
# kind must run (a kind added here needs its reason beside it).
MAY_BE_NOT_IMPLEMENTED: set[str] = set()


def _install(node: str, npm: str) -> None:
    installed = JS / "node_modules" / ".package-lock.json"
    lock = JS / "package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
        subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=JS, check=True, capture_output=True, text=True, timeout=300,
        )


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    node, npm = _tools()
    _install(node, npm)
    done = subprocess.run(
        [node, "run.js", *args], cwd=JS, capture_output=True, text=True, timeout=600
    )
    assert done.returncode in (0, 1), done.stderr
    return done


def _kind_of(path: Path) -> str:
    top = path.relative_to(SUITE).parts[0]
    if top in TOP_KINDS:
        return top
    data = json.loads(path.read_text(encoding="utf-8"))
    return "stream" if data.get("kind") == "stream" else "wire"


def _suite_counts() -> tuple[dict[str, int], dict[str, int]]:
    """Case files and optional case files per kind, counted here, not by the runner."""
    cases: dict[str, int] = {}
    optional: dict[str, int] = {}
    for path in sorted(SUITE.rglob("*.json")):
        kind = _kind_of(path)
        cases[kind] = cases.get(kind, 0) + 1
        if json.loads(path.read_text(encoding="utf-8")).get("optional"):
            optional[kind] = optional.get(kind, 0) + 1
    return cases, optional


@pytest.fixture(scope="module")
def js_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One run of the JS runner: its counts, and what it read from every wire test with its
    rendered turns (run.js --reply-json)."""
    out = tmp_path_factory.mktemp("js") / "replies.json"
    done = _run("--json", "--reply-json", str(out))
    replies: list[dict[str, Any]] = json.loads(out.read_text(encoding="utf-8"))
    assert len(replies) >= 150  # every wire test that reads, not a sample
    return json.loads(done.stdout), replies


@pytest.fixture(scope="module")
def counts(js_run: tuple[dict[str, Any], list[dict[str, Any]]]) -> dict[str, Any]:
    return js_run[0]


@pytest.fixture(scope="module")
def js_replies(js_run: tuple[dict[str, Any], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    return js_run[1]


# Cases the JS side does not pass yet, each with its reason. A listed case that passes fails
# this test too, so the list only shrinks. Stream: specs/README.md §9's `append` operation,
# `part_lists` and `stream.unwrap`, and the stream cases' `expect.text`, added this round in
# Python, are not in tools/js/lib/stream*.js yet; loader: §2.2's `predicate-not-boolean`.
KNOWN_GAPS = {
    **{f"{fmt}/stream_{name}.json": "stream text: append / part_lists / unwrap (§9)"
       for fmt, names in {
        "cohere": ("content_parts_and_tool_plan_are_kept", "dropped_connection_flags_the_open_call",
                   "max_tokens_cut_call_is_held", "message_end_error_is_a_stream_error",
                   "no_argument_call_and_text", "parallel_calls_repeat_start_delta_end",
                   "sse_with_done_sentinel"),
        "mistral": ("content_parts_give_their_text", "sdk_envelope_is_read_as_its_chunk"),
        "ollama": ("content_pieces_are_the_reply_text", "dropped_connection_without_done",
                   "error_line_is_a_stream_error", "length_done_reason_is_truncated",
                   "ndjson_bytes_split_anywhere", "parallel_calls_arrive_before_the_done_line",
                   "string_arguments_from_a_proxy_are_decoded", "text_around_a_call"),
        "openai": ("a_call_after_the_finish_is_malformed", "arguments_before_the_name_wait_for_it",
                   "chunk_is_sniffed_as_an_openai_stream", "dropped_connection_is_incomplete",
                   "duplicate_index_in_one_chunk_is_one_call", "in_band_error_is_a_stream_error",
                   "legacy_function_call_streams_into_one_call",
                   "missing_or_null_index_matches_by_id_then_latest",
                   "name_resent_in_every_fragment_is_kept_once",
                   "only_choice_zero_is_read_in_any_order", "parallel_calls_are_ready_at_finish",
                   "reused_index_with_a_new_id_is_a_new_call",
                   "sparse_index_leaves_no_phantom_call",
                   "sse_framing_with_comments_crlf_and_multiline_data",
                   "text_before_a_call_and_usage_chunk", "text_deltas_are_the_reply_text",
                   "token_limit_cut_drops_the_last_call",
                   "whole_arguments_resent_are_undecodable_not_split"),
        "responses": ("text_deltas_are_kept_for_a_message_never_done",),
    }.items() for name in names},
    "spec-validation/predicate_that_selects_a_value_is_refused.json":
        "loader: predicate-not-boolean (§2.2)",
}


def test_the_js_implementation_fails_no_case_but_the_known_gaps(counts: dict[str, Any]) -> None:
    failed = {f.split(":")[0] for f in counts["failures"]}
    assert failed - set(KNOWN_GAPS) == set(), "\n".join(counts["failures"])
    assert set(KNOWN_GAPS) - failed == set(), "these pass now: take them off KNOWN_GAPS"
    assert counts["totals"]["failed"] == len(KNOWN_GAPS)


def test_the_js_runner_accounts_for_every_case_of_every_kind(counts: dict[str, Any]) -> None:
    cases, optional = _suite_counts()
    assert set(counts["kinds"]) == set(cases)
    for kind, number in cases.items():
        got = counts["kinds"][kind]
        ran = got["passed"] + got["failed"] + got["skipped"] + got["not_implemented"]
        assert ran == number, kind
        assert got["skipped"] == optional.get(kind, 0), f"{kind}: only optional cases are skipped"
        if kind not in MAY_BE_NOT_IMPLEMENTED:
            assert got["not_implemented"] == 0, f"{kind}: {counts['not_implemented']}"
            gaps = sum(1 for name in KNOWN_GAPS if _kind_of(SUITE / name) == kind)
            assert got["passed"] == number - optional.get(kind, 0) - gaps, kind


def test_every_rendered_wire_reply_round_trips_in_js(counts: dict[str, Any]) -> None:
    # specs/README.md §6.3, run inside the wire cases: each reply of a format with a render
    # part, its turn from its items and from its calls alone. 388 at this writing; the
    # floor catches the property being disconnected, a failure fails its case above.
    assert counts["render_round_trips"] >= 350


def _without_messages(value: Any) -> Any:
    """Reply JSON without its messages, each implementation's own wording (specs/README.md §7)."""
    if isinstance(value, dict):
        return {k: _without_messages(v) for k, v in value.items()
                if k not in ("reason", "arguments_error")}
    if isinstance(value, list):
        return [_without_messages(v) for v in value]
    return value


def _python_reply(entry: dict[str, Any]) -> tuple[str, toolwire.Reply]:
    case = json.loads((SUITE / entry["file"]).read_text(encoding="utf-8"))
    test = case["tests"][entry["test"]]
    fmt = case["format"] or toolwire.sniff_format(test["response"])
    assert isinstance(fmt, str), entry
    options = {k: test[k] for k in ("strict", "choice") if k in test}
    return fmt, toolwire.read(fmt, test["response"], **options)


def test_the_js_reply_json_equals_pythons_for_every_wire_case(
    js_replies: list[dict[str, Any]],
) -> None:
    for entry in js_replies:
        _, python = _python_reply(entry)
        where = f"{entry['file']} test {entry['test']}"
        assert _without_messages(entry["reply"]) == _without_messages(python.to_dict()), where


def _turn(make: Any) -> dict[str, Any]:
    try:
        return {"turn": make()}
    except toolwire.ToolwireError as error:
        return {"error": error.code}


def test_the_js_rendered_turns_equal_pythons_for_every_wire_case(
    js_replies: list[dict[str, Any]],
) -> None:
    rendered = [e for e in js_replies if "assistant" in e]
    assert len(rendered) >= 150
    for entry in rendered:
        fmt, python = _python_reply(entry)
        where = f"{entry['file']} test {entry['test']}"
        assert entry["assistant"] == _turn(python.assistant_message), where
        converted = _turn(lambda: toolwire.convert(python, to=fmt, lossy=True))  # noqa: B023
        assert entry["converted"] == converted, where


# The results the JS side answers every kept call with, by its index (tools/js/lib/reply_json.js).
ANSWERS: list[Any] = [
    "ok",
    {"temperature": 21},
    [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
    {"content": [{"type": "text", "text": "failed"}], "isError": True},
]


def test_the_js_answers_equal_pythons_for_every_wire_case(
    js_replies: list[dict[str, Any]],
) -> None:
    answered = [e for e in js_replies if "answered" in e]
    assert len(answered) >= 150
    for entry in answered:
        _, python = _python_reply(entry)
        fates = [call["fate"] for call in python.to_dict()["calls"]]
        given = {i: ANSWERS[i % len(ANSWERS)] for i in range(len(fates)) if fates[i] != "dropped"}
        where = f"{entry['file']} test {entry['test']}"
        assert entry["answered"] == _turn(lambda: python.answer(given)), where  # noqa: B023


def test_no_case_is_left_not_implemented(counts: dict[str, Any]) -> None:
    for reason in counts["not_implemented"]:
        assert reason.split(":")[0] in MAY_BE_NOT_IMPLEMENTED, reason


def test_the_js_runner_prints_honest_totals() -> None:
    out = _run().stdout
    totals = re.search(
        r"^(\d+) passed, (\d+) failed, (\d+) skipped \(optional\), (\d+) not implemented$",
        out, re.M,
    )
    assert totals, out
    cases, _ = _suite_counts()
    assert sum(map(int, totals.groups())) == sum(cases.values())


def test_a_case_key_the_runner_does_not_check_fails_loudly(tmp_path: Path) -> None:
    source = SUITE / "openai" / "call_without_name_is_skipped.json"
    case = json.loads(source.read_text(encoding="utf-8"))
    case["tests"][0]["expect"]["calls_in_order"] = True
    (tmp_path / "openai").mkdir()
    (tmp_path / "openai" / "extra_key.json").write_text(json.dumps(case), encoding="utf-8")
    done = _run("--json", "--suite", str(tmp_path))
    result = json.loads(done.stdout)
    assert done.returncode == 1
    assert result["totals"] == {"passed": 0, "failed": 1, "skipped": 0, "not_implemented": 0}
    assert "calls_in_order" in result["failures"][0]  # named, by the case schema or the runner


def test_the_js_dependencies_are_pinned_by_the_lockfile() -> None:
    package = json.loads((JS / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((JS / "package-lock.json").read_text(encoding="utf-8"))
    assert set(package["dependencies"]) == {"ajv", "jmespath", "yaml"}
    for name, version in package["dependencies"].items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name} is pinned exactly"
        assert lock["packages"][f"node_modules/{name}"]["version"] == version
