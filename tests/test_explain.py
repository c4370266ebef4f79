"""``toolwire explain FORMAT FILE``: the trace a spec author reads when a call does not come out."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolwire import Registry
from toolwire._registry.explain import explain
from toolwire.cli import main

ROOT = Path(__file__).resolve().parent.parent

ACME = """\
spec_version: 1
format: acme
title: Acme
doc_ref: https://example.invalid/acme
items:
  - select: "result.actions"
    type_field: kind
unknown_items: report
calls:
  - type: tool
    when: "enabled == `true`"
    name: "tool.name"
    arguments: "tool.parameters"
    id: "id"
"""

REPLY = {"result": {"actions": [
    {"kind": "tool", "enabled": True, "id": "a1", "tool": {"name": "get_weather",
                                                          "args": {"city": "Oslo"}}},
    {"kind": "tool", "enabled": False, "id": "a2", "tool": {"name": "other"}},
    {"kind": "note", "text": "hi"},
]}}


@pytest.fixture
def registry(tmp_path: Path) -> Registry:
    (tmp_path / "acme.yaml").write_text(ACME, encoding="utf-8")
    return Registry.from_paths(tmp_path)


def test_explain_shows_the_entry_matched_and_what_each_selector_returned(
    registry: Registry
) -> None:
    trace = explain(registry, "acme", REPLY)
    (source,) = trace["sources"]
    assert (source["select"], source["found"]) == ("result.actions", "a list of 3 item(s)")
    first, second, third = source["items"]
    assert first["entry"] == "/calls/0" and first["outcome"] == "call"
    assert first["selectors"]["name"] == {"expression": "tool.name", "value": "get_weather"}
    arguments = first["selectors"]["arguments"]
    assert arguments["expression"] == "tool.parameters" and arguments["value"] is None
    assert "selected nothing" in arguments["note"]  # the spec's mistake, made visible
    assert second["entries_tried"] == [{"entry": "/calls/0", "holds": False, "when": {
        "expression": "enabled == `true`", "value": False}}]
    assert second["why_no_entry"].startswith("every entry for this type has a `when`")
    assert second["outcome"] == "unknown: reported"
    assert third["why_no_entry"] == "no entry lists type 'note' (the spec lists: tool)"
    assert trace["verdict"]["calls"] == ["get_weather"]
    assert trace["verdict"]["unknown_types"] == ["tool", "note"]
    assert trace["sniff"] == {"sniffs_as": None, "own_predicate": None, "holding": []}


def test_explain_strict_ends_with_reads_refusal(registry: Registry) -> None:
    trace = explain(registry, "acme", REPLY, strict=True)
    assert trace["sources"][0]["items"][2]["outcome"] == "unknown: refused (fails closed)"
    assert trace["verdict"]["error"] == "unknown_item_type"


def test_explain_text_names_items_entries_and_the_verdict(tmp_path: Path) -> None:
    out = io.StringIO()
    assert main(["explain", "openai", str(ROOT / "specs" / "examples" / "openai.json")], out) == 0
    text = out.getvalue()
    assert ("sniff: its predicate type(choices) == 'array' -> true; the reply sniffs as"
            " openai") in text
    assert "  choices[0].message.tool_calls[0]  type \"function\"\n    /calls/0: no when: holds\n" \
           "      name: function.name -> \"get_weather\"\n" in text
    assert "source choices[0].message.function_call (type_const: function_call): nothing" in text
    assert text.endswith("read: 2 call(s) get_weather, get_time; 0 server call(s); unknown types"
                         " none; 0 skipped; fates ['runnable', 'runnable']\n")


def test_explain_json_works_on_a_users_spec_from_the_spec_path(tmp_path: Path) -> None:
    (tmp_path / "acme.yaml").write_text(ACME, encoding="utf-8")
    reply = tmp_path / "reply.json"
    reply.write_text(json.dumps(REPLY), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TOOLWIRE_SPEC_PATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "toolwire.cli", "explain", "acme", str(reply),
                           "--json"], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    trace = json.loads(done.stdout)
    assert trace["spec"] == str(tmp_path / "acme.yaml")
    assert [i["outcome"] for i in trace["sources"][0]["items"]] == [
        "call", "unknown: reported", "unknown: reported"]


def test_explain_with_an_unknown_format_is_a_usage_error(
    capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["explain", "opnai", str(ROOT / "specs" / "examples" / "openai.json")],
                io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith("toolwire: usage: ") and "openai" in err
