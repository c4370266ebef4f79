"""``toolwire extract --text-in-content FMT``: calls written in the reply's text, lifted."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from toolwire import ToolCall
from toolwire._render import mint_id
from toolwire.cli import main

REPLY = {"choices": [{"message": {
    "content": 'Checking.<function_call>{"name": "f", "arguments": {"a": 1}}</function_call>'},
    "finish_reason": "stop"}]}


def _run(argv: list[str]) -> tuple[int, dict[str, object] | None]:
    out = io.StringIO()
    code = main(argv, out=out)
    return code, json.loads(out.getvalue()) if code == 0 else None


def test_text_in_content_lifts_the_calls_and_cleans_the_text(tmp_path: Path) -> None:
    path = tmp_path / "reply.json"
    path.write_text(json.dumps(REPLY), "utf-8")
    code, printed = _run(["extract", str(path), "--text-in-content", "hermes",
                          "--param", "tag=function_call"])
    assert code == 0 and printed is not None
    assert printed["text"] == "Checking."
    # openai pairs results by id: the lifted call gets the one convert(ids="mint") gives
    minted = mint_id(ToolCall("f", {"a": 1}), 0)
    assert printed["calls"] == [{"name": "f", "arguments": {"a": 1}, "id": minted,
                                 "synthetic": False, "arguments_undecodable": False,
                                 "fate": "runnable", "record": None}]


def test_without_it_the_text_keeps_the_calls(tmp_path: Path) -> None:
    path = tmp_path / "reply.json"
    path.write_text(json.dumps(REPLY), "utf-8")
    code, printed = _run(["extract", str(path)])
    assert code == 0 and printed is not None
    assert printed["calls"] == [] and "<function_call>" in str(printed["text"])


def test_text_and_text_in_content_together_are_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "reply.json"
    path.write_text(json.dumps(REPLY), "utf-8")
    assert main(["extract", str(path), "--text", "hermes", "--text-in-content", "hermes"]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0
