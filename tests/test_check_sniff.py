"""tools/check_sniff.py: every conformance reply sniffs as its own format, no predicates overlap."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from toolwire import Registry

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "check_sniff.py"


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_sniff", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_sniff"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def write_case(suite: Path, folder: str, response: Any, expect: dict[str, Any]) -> None:
    (suite / folder).mkdir(parents=True, exist_ok=True)
    case = {"description": "d", "source": "synthetic", "format": folder,
            "tests": [{"response": response, "expect": expect}]}
    (suite / folder / "case.json").write_text(json.dumps(case), encoding="utf-8")


def test_the_whole_suite_sniffs_right_with_no_overlap() -> None:
    result = subprocess.run(
        [sys.executable, str(TOOL)], capture_output=True, text=True, check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no overlap" in result.stdout


def test_a_reply_sniffing_as_another_format_is_named(tmp_path: Path) -> None:
    tool = load_tool()
    write_case(tmp_path, "cohere", {"message": {"tool_calls": []}}, {"calls": []})
    report = tool.check(Registry.bundled(), tmp_path)
    assert report.wrong == ["cohere/case.json::0: sniffs as ollama, expected cohere"]
    assert tool.main(["--suite", str(tmp_path)]) == 1


def test_a_dialect_reply_is_expected_to_sniff_as_its_base(tmp_path: Path) -> None:
    tool = load_tool()
    write_case(tmp_path, "deepseek", {"choices": []}, {"calls": []})
    report = tool.check(Registry.bundled(), tmp_path)
    assert report.ok and report.checked == 1


def test_overlapping_predicates_are_named_as_a_pair(tmp_path: Path) -> None:
    tool = load_tool()
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "loose.yaml").write_text(
        "spec_version: 1\nformat: loose\ntitle: Loose\ndoc_ref: x\n"
        "sniff: {when: \"type(message) == 'object'\", priority: 1}\n"
        "items: [{select: \"message.tool_calls\", type_const: function}]\n"
        "unknown_items: report\n"
        "calls: [{type: function, name: \"function.name\", arguments: \"function.arguments\"}]\n",
        encoding="utf-8",
    )
    suite = tmp_path / "suite"
    write_case(suite, "cohere", {"id": "x", "finish_reason": "COMPLETE", "message": {}}, {})
    report = tool.check(Registry.from_paths(specs), suite)
    assert report.wrong == []
    assert report.overlaps == {("cohere", "loose"): "cohere/case.json::0"}
    assert tool.main(["--suite", str(suite), str(specs)]) == 1
