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


def test_the_js_implementation_fails_no_case(counts: dict[str, Any]) -> None:
    assert counts["totals"]["failed"] == 0, "\n".join(counts["failures"])
    assert counts["failures"] == []


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
            assert got["passed"] == number - optional.get(kind, 0), kind


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
    options = {k: test[k] for k in ("strict", "choice", "text_format", "text_params") if k in test}
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
    except toolwire.errors.ToolwireError as error:
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
    {"content": []},
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


def _assert_the_printed_totals_count_every_case(out: str, cases: int) -> None:
    totals = re.search(
        r"^(\d+) passed, (\d+) failed, (\d+) skipped \(optional\), (\d+) not implemented$",
        out, re.M,
    )
    assert totals, out
    assert sum(map(int, totals.groups())) == cases


def test_the_js_runner_prints_honest_totals_for_a_case_of_every_kind(tmp_path: Path) -> None:
    """The text report on a suite of one case per kind, optional ones among them where a kind
    has any (the JSON counts of the whole suite are checked above, from one run)."""
    picked: dict[tuple[str, bool], Path] = {}
    for path in sorted(SUITE.rglob("*.json")):
        optional = bool(json.loads(path.read_text(encoding="utf-8")).get("optional"))
        picked.setdefault((_kind_of(path), optional), path)
    for path in picked.values():
        target = tmp_path / path.relative_to(SUITE)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    assert {kind for kind, _ in picked} == set(_suite_counts()[0])
    _assert_the_printed_totals_count_every_case(_run("--suite", str(tmp_path)).stdout,
                                                len(picked))


@pytest.mark.exhaustive
def test_the_js_runner_prints_honest_totals() -> None:
    cases, _ = _suite_counts()
    _assert_the_printed_totals_count_every_case(_run().stdout, sum(cases.values()))


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


# Stream parts that break the loader's rules (specs/README.md §2, §9.1, §9.12); no bundled case
# holds most of them, so the JS loader is held to the problems the Python loader reports.
_DEMO = """spec_version: 1
format: {name}
title: Demo format
doc_ref: https://example.invalid/docs
sniff: {{when: "type(message) == 'object'", priority: 10}}
items:
  - select: "message.calls"
    type_field: type
unknown_items: refuse
calls:
  - {{type: call, name: "name", arguments: "args", id: "id"}}
"""
_BROKEN_STREAM = _DEMO.format(name="demo") + """stream:
  ready: at_close
  error: {events: [error], message: "message"}
  refuse:
    - {events: [odd], reason: "odd"}
  complete: "done"
  rules:
    - {name: start, init: {value: "{message: {}}", slots: ["message.parts"]}, set: {a: "b"}}
    - {name: both, update: {list: "message.calls", at: "message.one", key: "index"}}
    - {name: start, events: [x], open: {list: "message.other", key: "index", value: "@"}}
    - {name: stop, end: {keep: "message.calls"}, when: "stop"}
    - {name: text, each: "a[", append: {message.text: "piece"}}
"""
_BASE_STREAM = _DEMO.format(name="base") + """stream:
  framing: sse
  ready: at_close
  rules:
    - {name: start, init: {value: "{message: `{}`}"}}
    - {name: call, open: {list: "message.calls", key: "index", value: "call"}}
"""
_DIALECT_STREAM = """spec_version: 1
format: dialect
extends: base
title: A dialect
doc_ref: https://example.invalid/docs
stream:
  rules:
    - {name: call, events: [call], open: {list: "message.calls", key: "index", value: "call"}}
    - {name: extra, open: {list: "message.elsewhere", key: "index", value: "call"}}
    - {name: flagged, set: {x: "y"}, when: "flag"}
"""


def _python_problems(folder: Path, name: str) -> list[dict[str, Any]]:
    from toolwire._spec.wire_file import load_wire_spec

    try:
        load_wire_spec(folder / name)
    except toolwire.errors.SpecError as error:
        return [{"rule": p.rule, "line": p.line, "col": p.col, "pointer": p.pointer}
                | ({} if Path(p.path).name == name else {"file": Path(p.path).name})
                for p in error.problems]
    return []


def test_the_js_loader_reports_the_stream_rules_as_python_does(tmp_path: Path) -> None:
    suite, files = tmp_path / "suite" / "spec-validation", tmp_path / "files"
    suite.mkdir(parents=True)
    for name, text, others in (("demo.yaml", _BROKEN_STREAM, {}),
                               ("dialect.yaml", _DIALECT_STREAM, {"base.yaml": _BASE_STREAM})):
        folder = files / name
        folder.mkdir(parents=True)
        for other, content in {name: text, **others}.items():
            (folder / other).write_text(content, encoding="utf-8")
        case = {"description": f"stream rules: {name}", "source": "synthetic", "file_name": name,
                "spec_text": text, "other_files": others,
                "expect": {"problems": _python_problems(folder, name)}}
        (suite / name.replace(".yaml", ".json")).write_text(json.dumps(case), encoding="utf-8")
    found = {p["rule"] for c in suite.iterdir()
             for p in json.loads(c.read_text(encoding="utf-8"))["expect"]["problems"]}
    assert found >= {"stream-op", "stream-rule-name", "stream-events", "stream-slot-list",
                     "predicate-not-boolean", "expression-syntax", "missing-key"}
    done = _run("--json", "--suite", str(tmp_path / "suite"))
    result = json.loads(done.stdout)
    assert result["failures"] == []
    assert result["totals"]["passed"] == 2


def test_the_js_dependencies_are_pinned_by_the_lockfile() -> None:
    package = json.loads((JS / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((JS / "package-lock.json").read_text(encoding="utf-8"))
    assert set(package["dependencies"]) == {"ajv", "jmespath", "yaml"}
    for name, version in package["dependencies"].items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name} is pinned exactly"
        assert lock["packages"][f"node_modules/{name}"]["version"] == version
