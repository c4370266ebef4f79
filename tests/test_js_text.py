"""The JavaScript text scanner (tools/js/lib/text*.js) reads every text case; its tests pass.

tests/test_js_implementation.py checks the runner as a whole; this file pins the text part:
every text case runs in JavaScript (none counted "not implemented", none failed), and the
node tests cover what a case file cannot carry (the caller's tools typing values, parameters,
a spec breaking the meta-schema). A differential check feeds both implementations every case
text cut off at many points and wrapped in reasoning markers, and compares everything
``read_text`` gives (the clean text, the calls, the answer, the reasoning, the skipped regions
with their reasons, truncation, refusals): cut-off replies are where the grammars' edges are, and
the README must decide each one the same way for both. Skipped, saying
so, where node or npm is missing.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from toolwire._text import TextReply, extract_from_text, read_text
from toolwire.errors import UnmappedCall

from conformance import call_view

JS = Path(__file__).resolve().parent.parent / "tools" / "js"
TEXT_CASES = JS.parent.parent / "specs" / "conformance" / "text"


@pytest.fixture(scope="module")
def node() -> str:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("node and npm are needed to run the JavaScript implementation (tools/js/)")
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    if int(version.stdout.strip().lstrip("v").split(".")[0]) < 20:
        pytest.skip(f"tools/js/ needs Node 20 or later, found {version.stdout.strip()}")
    installed = JS / "node_modules" / ".package-lock.json"
    lock = JS / "package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
        subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=JS,
            check=True,
            capture_output=True,
            text=True,
            timeout=300,
        )
    return node


def test_the_js_runner_reads_every_text_case(node: str, tmp_path: Path) -> None:
    # The text cases alone: tests/test_js_implementation.py runs the whole suite in run.js.
    shutil.copytree(TEXT_CASES, tmp_path / "text")
    done = subprocess.run([node, "run.js", "--suite", str(tmp_path)], cwd=JS,
                          capture_output=True, text=True, timeout=300)
    line = re.search(r"^text\s+(\d+) passed, (\d+) failed, (\d+) skipped(.*)$", done.stdout, re.M)
    assert line, done.stdout
    passed, failed, skipped = map(int, line.groups()[:3])
    assert "not implemented" not in line.group(4), line.group(0)
    assert failed == 0, done.stdout
    assert passed + skipped == len(list(TEXT_CASES.rglob("*.json")))
    assert passed >= 170


def test_the_js_text_unit_tests_pass(node: str) -> None:
    done = subprocess.run(
        [node, "--test", "test/"], cwd=JS, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^# pass [1-9]", done.stdout, re.M), done.stdout


def _probes() -> list[dict[str, str]]:
    probes = []
    for path in sorted(TEXT_CASES.rglob("*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        for test in case["tests"]:
            text = test["text"]
            if test["params"] or len(text) > 2000:
                continue
            step = max(1, len(text) // 20)
            probes += [
                {"format": case["format"], "text": text[:i]} for i in range(0, len(text), step)
            ]
            probes.append({"format": case["format"], "text": f"<think>{text}</think>{text}"})
    return probes


def _python(probe: dict[str, str]) -> dict[str, Any]:
    try:
        reply = read_text(probe["format"], probe["text"])
        clean: str | None = extract_from_text(probe["format"], probe["text"])[0]
    except UnmappedCall as exc:
        assert isinstance(exc.reply, TextReply)
        reply, clean = exc.reply, None
    regions = [
        {"start": r.start, "end": r.end, "text": r.text, "code": r.code, "reason": r.reason}
        for r in reply.skipped
    ]
    refused = [
        {"start": r.start, "end": r.end, "text": r.text, "code": r.code, "recipient": r.recipient}
        for r in reply.refused
    ]
    return {
        "clean_text": clean, "calls": [call_view(call) for call in reply.calls],
        "text": reply.text, "reasoning": reply.reasoning, "skipped": regions,
        "truncated": reply.truncated, "refused": refused,
    }


def _js(result: dict[str, Any]) -> dict[str, Any]:
    """The JS result in the Python view's shape: a refusal's reason is prose (not compared),
    and a reply with refusals has no clean text (extract raises)."""
    if "error" in result:
        return result
    refused = [{k: v for k, v in r.items() if k != "reason"} for r in result["refused"]]
    clean = None if refused else result["clean_text"]
    return {**result, "clean_text": clean, "refused": refused}


def test_js_and_python_read_cut_off_case_texts_alike(node: str) -> None:
    probes = _probes()
    done = subprocess.run(
        [node, "extract.mjs"],
        cwd=JS,
        input=json.dumps(probes),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    got = json.loads(done.stdout)
    differ = [
        (probe, js, py)
        for probe, js in zip(probes, got, strict=True)
        if _js(js) != (py := _python(probe))
    ]
    assert not differ, f"{len(differ)} of {len(probes)} differ, first: {differ[0]}"
    assert len(probes) > 2000
