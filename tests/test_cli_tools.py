"""``toolwire extract --tools REQUEST``: the printed Reply flags calls the request never offered."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from toolwire.cli import main

REQUEST = {"model": "m", "messages": [], "tools": [{"type": "function", "function": {
    "name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]}


def _reply(name: str, arguments: str) -> dict[str, object]:
    return {"choices": [{"finish_reason": "tool_calls", "message": {"tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments}}
    ]}}]}


def _files(tmp_path: Path, *replies: dict[str, object]) -> tuple[str, str]:
    request = tmp_path / "request.json"
    request.write_text(json.dumps(REQUEST), "utf-8")
    reply = tmp_path / "reply.json"
    reply.write_text("\n".join(json.dumps(r) for r in replies), "utf-8")
    return str(request), str(reply)


def test_a_misspelt_tool_name_is_flagged_unknown_and_rejected(tmp_path: Path) -> None:
    request, reply = _files(tmp_path, _reply("get_wether", '{"city": "Paris"}'))
    out = io.StringIO()
    assert main(["extract", "--tools", request, reply], out=out) == 0
    call = json.loads(out.getvalue())["calls"][0]
    assert call["unknown_tool"] is True and call["fate"] == "rejected"


def test_a_missing_required_argument_is_flagged_with_its_pointer_and_keyword(
    tmp_path: Path,
) -> None:
    request, reply = _files(tmp_path, _reply("get_weather", "{}"))
    out = io.StringIO()
    assert main(["extract", "--tools", request, reply], out=out) == 0
    call = json.loads(out.getvalue())["calls"][0]
    assert call["arguments_invalid"] is True
    assert [(e["pointer"], e["keyword"]) for e in call["arguments_errors"]] == [("", "required")]


def test_every_json_line_is_checked(tmp_path: Path) -> None:
    request, reply = _files(tmp_path, _reply("get_weather", '{"city": "Paris"}'),
                            _reply("nope", "{}"))
    out = io.StringIO()
    assert main(["extract", "--jsonl", "--tools", request, reply], out=out) == 0
    fates = [json.loads(line)["calls"][0]["fate"] for line in out.getvalue().splitlines()]
    assert fates == ["runnable", "rejected"]


def test_a_request_that_is_not_json_is_an_input_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    request, reply = _files(tmp_path, _reply("get_weather", "{}"))
    Path(request).write_text("{not json", "utf-8")
    assert main(["extract", "--tools", request, reply], out=io.StringIO()) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--tools" in err[0] and "not JSON" in err[0]


def test_tools_with_text_is_a_usage_error(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    request, reply = _files(tmp_path, _reply("get_weather", "{}"))
    assert main(["extract", "--text", "hermes", "--tools", request, reply],
                out=io.StringIO()) == 2
    assert capsys.readouterr().err.startswith("toolwire: usage: ")
