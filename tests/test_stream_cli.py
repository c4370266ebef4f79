"""``toolwire extract --stream`` and ``--follow``: SSE or JSON lines in, the Reply or the
ready calls out."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from stream_chunks import chat_calls, sse

from toolwire.cli import main

ROOT = Path(__file__).resolve().parent.parent

CHUNKS = chat_calls(("call_a", "f", '{"a": 1}'), ("call_b", "g", "{}"))
SSE = sse(CHUNKS)


def test_extract_stream_prints_the_reply_of_an_sse_file(tmp_path: Path) -> None:
    path = tmp_path / "stream.sse"
    path.write_text(SSE, encoding="utf-8")
    out = io.StringIO()
    assert main(["extract", "--stream", str(path)], out=out) == 0
    reply = json.loads(out.getvalue())
    assert reply["format"] == "openai"
    assert [c["id"] for c in reply["calls"]] == ["call_a", "call_b"]


def test_extract_stream_reads_json_lines_with_a_format(tmp_path: Path) -> None:
    path = tmp_path / "stream.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in CHUNKS), encoding="utf-8")
    out = io.StringIO()
    assert main(["extract", "--stream", "--format", "openai", str(path)], out=out) == 0
    assert json.loads(out.getvalue())["finish_reason"] == "tool_calls"


def test_follow_prints_each_ready_update_as_a_json_line(tmp_path: Path) -> None:
    path = tmp_path / "stream.sse"
    path.write_text(SSE, encoding="utf-8")
    out = io.StringIO()
    assert main(["extract", "--follow", str(path)], out=out) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(u["kind"], u.get("call", {}).get("id")) for u in lines] == [
        ("call", "call_a"), ("call", "call_b"), ("finished", None)]


def test_a_dropped_stream_is_an_error_not_a_reply(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "stream.sse"
    path.write_text(SSE.split("data: [DONE]")[0].rsplit("data:", 1)[0], encoding="utf-8")
    out = io.StringIO()
    assert main(["extract", "--stream", str(path)], out=out) == 1
    assert out.getvalue() == ""
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("toolwire: incomplete_stream: ")


def test_stream_with_example_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", "--stream", "--example", "openai"], out=io.StringIO()) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("toolwire: usage: ")


def test_follow_reads_standard_input_as_it_arrives() -> None:
    process = subprocess.run(
        [sys.executable, "-m", "toolwire.cli", "extract", "--follow", "-"],
        input=SSE.encode(), capture_output=True, check=False,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
    )
    assert process.returncode == 0, process.stderr
    assert len(process.stdout.decode().splitlines()) == 3


def test_a_sniffed_stream_fed_whole_knows_its_sentinel() -> None:
    import toolwire

    acc = toolwire.Accumulator(None)
    acc.feed_bytes(SSE.encode())
    assert acc.format == "openai"
    assert [c.id for c in acc.reply().calls] == ["call_a", "call_b"]


def test_a_misspelt_format_name_with_stream_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["extract", "--stream", "--format", "OpenAI", "-"], out=io.StringIO()) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "openai" in err[0]


REQUEST = {"model": "m", "tools": [{"type": "function", "function": {"name": "f", "parameters": {
    "type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}}}]}


def _files(tmp_path: Path, request: Any = REQUEST) -> tuple[str, str]:
    stream, tools = tmp_path / "stream.sse", tmp_path / "request.json"
    stream.write_text(SSE, encoding="utf-8")
    tools.write_text(json.dumps(request), encoding="utf-8")
    return str(stream), str(tools)


def test_stream_with_tools_checks_the_reply_calls(tmp_path: Path) -> None:
    stream, tools = _files(tmp_path)
    out = io.StringIO()
    assert main(["extract", "--stream", "--tools", tools, stream], out=out) == 0
    calls = json.loads(out.getvalue())["calls"]
    assert [(c["id"], c.get("arguments_invalid", False), c.get("unknown_tool", False),
             c["fate"]) for c in calls] == [("call_a", True, False, "rejected"),
                                            ("call_b", False, True, "rejected")]
    assert calls[0]["arguments_errors"][0]["pointer"] == "/a"


def test_follow_with_tools_prints_each_call_with_its_flags(tmp_path: Path) -> None:
    stream, tools = _files(tmp_path, {"tools": [*REQUEST["tools"], {"type": "function",
                                      "function": {"name": "g", "parameters": {}}}]})
    out = io.StringIO()
    assert main(["extract", "--follow", "--format", "openai", "--tools", tools, stream],
                out=out) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [u["kind"] for u in lines] == ["call", "call", "finished"]
    first, second = lines[0]["call"], lines[1]["call"]
    assert (first["arguments_invalid"], first["fate"]) == (True, "rejected")
    assert first["arguments_errors"][0]["keyword"] == "type"
    assert "unknown_tool" not in second and second["fate"] == "runnable"


@pytest.mark.parametrize("given", [["--format", "openai"], []], ids=["format", "sniffed"])
def test_stream_with_a_bad_tool_list_is_one_line_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], given: list[str],
) -> None:
    stream, tools = _files(tmp_path, {"tools": [{"type": "function", "function": {
        "name": "f", "parameters": {"type": "object", "properties": {"a": {"type": 7}}}}}]})
    assert main(["extract", "--stream", *given, "--tools", tools, stream],
                out=io.StringIO()) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("toolwire: input: invalid_tools: ")
    assert f"--tools {tools}" in err[0]


def _cut(tmp_path: Path) -> str:
    path = tmp_path / "cut.sse"
    path.write_text(SSE.split("data: [DONE]")[0].rsplit("data:", 1)[0], encoding="utf-8")
    return str(path)


def test_a_cut_stream_names_the_command_lines_allow_incomplete(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["extract", "--stream", _cut(tmp_path)], out=io.StringIO()) == 1
    err = capsys.readouterr().err
    assert "--allow-incomplete" in err and "reply(allow_incomplete" not in err


def test_allow_incomplete_prints_the_partial_reply_with_its_calls_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    out = io.StringIO()
    assert main(["extract", "--stream", "--allow-incomplete", _cut(tmp_path)], out=out) == 0
    calls = json.loads(out.getvalue())["calls"]
    assert [(c["id"], c["incomplete"], c["fate"]) for c in calls] == [
        ("call_a", True, "dropped"), ("call_b", True, "dropped")]
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("toolwire: incomplete_stream: ")


def test_allow_incomplete_without_stream_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["extract", "--allow-incomplete", _cut(tmp_path)], out=io.StringIO()) == 2
    assert capsys.readouterr().err.startswith("toolwire: usage: --allow-incomplete")


_CALL_THEN_ERROR = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in [
    {"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant",
                                          "content": [], "stop_reason": None}},
    {"type": "content_block_start", "index": 0,
     "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}},
    {"type": "content_block_delta", "index": 0,
     "delta": {"type": "input_json_delta", "partial_json": '{"a": "x"}'}},
    {"type": "content_block_stop", "index": 0},
    {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
    {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
])


def test_follow_prints_a_call_complete_before_an_in_band_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "error.sse"
    path.write_text(_CALL_THEN_ERROR, encoding="utf-8")  # one chunk holds the call and the error
    out = io.StringIO()
    assert main(["extract", "--follow", str(path)], out=out) == 1
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(u["kind"], u["call"]["id"]) for u in lines] == [("call", "toolu_1")]
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("toolwire: stream_error: ")


@pytest.mark.parametrize(("text", "named"), [
    (SSE, "an openai stream (SSE)"),
    ("".join(json.dumps(c) + "\n" for c in CHUNKS), "an openai stream (JSON lines of events)"),
    ("event: ping\ndata: {}\n\n", "a stream (SSE)"),
], ids=["sse", "json-lines", "unknown-sse"])
@pytest.mark.parametrize("command", ["sniff", "extract"])
def test_a_stream_given_as_a_reply_hints_stream(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, named: str, command: str,
) -> None:
    path = tmp_path / "stream.txt"
    path.write_text(text, encoding="utf-8")
    assert main([command, str(path)], out=io.StringIO()) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert f"it looks like {named}: read it with toolwire extract --stream" in err[0]


def test_json_lines_of_replies_still_hint_jsonl(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "replies.jsonl"
    path.write_text('{"a": 1}\n{"b": 2}\n', encoding="utf-8")
    assert main(["sniff", str(path)], out=io.StringIO()) == 1
    err = capsys.readouterr().err
    assert "--jsonl" in err and "--stream" not in err


def test_a_finished_reply_given_as_a_stream_says_to_drop_stream(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "reply.json"
    path.write_text(json.dumps({"object": "chat.completion", "choices": [{"index": 0,
                    "finish_reason": "stop", "message": {"role": "assistant", "content": "Hi"}}]}),
                    encoding="utf-8")
    assert main(["extract", "--stream", str(path)], out=io.StringIO()) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("toolwire: malformed_stream: ")
    assert "finished openai reply" in err[0] and "without --stream" in err[0]


_OVERLOADED_SSE = ('event: error\ndata: {"type": "error", "error": {"type": "overloaded_error",'
                   ' "message": "Overloaded"}}\n\n')


def test_a_sniffed_stream_that_starts_with_the_providers_error_prints_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "error.sse"
    path.write_text(_OVERLOADED_SSE, encoding="utf-8")
    assert main(["extract", "--stream", str(path)], out=io.StringIO()) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("toolwire: stream_error: anthropic: ")
    assert "'overloaded_error': Overloaded" in err[0]
    assert main(["extract", str(path)], out=io.StringIO()) == 1  # given as a reply
    assert "it looks like an anthropic stream (SSE)" in capsys.readouterr().err


_FINISHED = {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "m",
             "choices": [{"index": 0, "finish_reason": "stop",
                          "message": {"role": "assistant", "content": "Hi"}}]}


def test_a_pretty_printed_reply_given_as_a_stream_is_named_as_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "reply.json"
    path.write_text(json.dumps(_FINISHED, indent=2), encoding="utf-8")
    assert main(["extract", "--stream", str(path)], out=io.StringIO()) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("toolwire: malformed_stream: ")
    assert "one JSON document over several lines, a finished openai reply" in err[0]
    assert "without --stream" in err[0]


def test_a_pretty_printed_error_body_on_standard_input_is_the_providers_error() -> None:
    body = json.dumps({"error": {"message": "Rate limit reached", "type": "requests",
                                 "param": None, "code": "rate_limit_exceeded"}}, indent=4)
    done = subprocess.run([sys.executable, "-m", "toolwire", "extract", "--stream", "-"],
                          input=body, capture_output=True, text=True, check=False, timeout=60,
                          env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 1 and done.stdout == ""
    err = done.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("toolwire: provider_error: openai: ")
    assert "Rate limit reached" in err[0] and "one JSON error body, not a stream" in err[0]


def test_a_cut_pretty_printed_body_stays_the_first_lines_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(_FINISHED, indent=2)[:-20], encoding="utf-8")
    assert main(["extract", "--stream", str(path)], out=io.StringIO()) == 1
    assert "stream event 0: event is not JSON" in capsys.readouterr().err
