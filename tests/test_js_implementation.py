"""The JavaScript implementation (tools/js/) passes the conformance suite.

It was written from specs/README.md alone, so its passing is the evidence that the
README and the suite are enough to implement the spec language in another language.
The test installs its pinned dependencies (``npm ci``, into tools/js/node_modules) and
runs its runner; where node or npm is missing it is skipped, saying so.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parent.parent / "tools" / "js"


def _tools() -> tuple[str, str]:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("node and npm are needed to run the JavaScript implementation (tools/js/)")
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    if int(version.stdout.strip().lstrip("v").split(".")[0]) < 20:
        pytest.skip(f"tools/js/ needs Node 20 or later, found {version.stdout.strip()}")
    return node, npm


@pytest.fixture(scope="module")
def runner_output() -> str:
    node, npm = _tools()
    installed = JS / "node_modules" / ".package-lock.json"
    lock = JS / "package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
        subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=JS, check=True, capture_output=True, text=True, timeout=300,
        )
    done = subprocess.run(
        [node, "run.js"], cwd=JS, capture_output=True, text=True, timeout=300
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


def test_the_js_implementation_passes_every_case_it_runs(runner_output: str) -> None:
    totals = re.search(r"^(\d+) passed, (\d+) failed, (\d+) skipped$", runner_output, re.M)
    assert totals, runner_output
    passed, failed, _skipped = map(int, totals.groups())
    assert failed == 0, runner_output
    assert passed >= 280, runner_output


def test_the_js_runner_counts_every_kind_it_does_not_implement(runner_output: str) -> None:
    kinds = re.findall(r"^(\S+)\s+\d+ passed, \d+ failed, \d+ skipped", runner_output, re.M)
    suite = JS.parent.parent / "specs" / "conformance"
    folders = {p.name for p in suite.iterdir() if p.is_dir()}
    assert {"wire", "interpreter", "spec-validation", "expression"} <= set(kinds)
    assert set(kinds) - {"wire"} <= folders
    missing = re.search(r"^(\d+) not implemented in JS \((.*)\)$", runner_output, re.M)
    for line in runner_output.splitlines():
        if "not implemented in JS" in line and missing:
            assert missing.group(2), "the kinds left out are named"


def test_the_js_dependencies_are_pinned_by_the_lockfile() -> None:
    import json

    package = json.loads((JS / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((JS / "package-lock.json").read_text(encoding="utf-8"))
    assert set(package["dependencies"]) == {"ajv", "jmespath", "yaml"}
    for name, version in package["dependencies"].items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name} is pinned exactly"
        assert lock["packages"][f"node_modules/{name}"]["version"] == version
