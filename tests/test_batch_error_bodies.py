"""``toolwire batch`` over a log that mixes replies, provider error bodies and bodies of
another format: every line is accounted for by kind, and the summary counts the
provider's errors apart from the records toolwire could not read."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

from toolwire.cli import main

CHAT_CALL = {"id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-4.1", "choices": [
    {"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}}]}
MESSAGES_CALL = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude",
                 "stop_reason": "tool_use", "content": [
                     {"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {}}]}
GEMINI_MALFORMED = {"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL",
                                    "finishMessage": "Malformed function call: get_time(tz=)"}]}
GEMINI_BLOCKED = {"promptFeedback": {"blockReason": "SAFETY"}}

# (the line's provider, its body, the error code of its summary row or None for a reply)
LOG: list[tuple[str, Any, str | None]] = [
    ("openai", CHAT_CALL, None),
    ("anthropic", MESSAGES_CALL, None),
    ("openai", {"error": {"message": "Rate limit reached", "type": "requests",
                          "code": "rate_limit_exceeded"}}, "provider_error"),
    ("anthropic", {"type": "error", "error": {"type": "overloaded_error",
                                              "message": "Overloaded"}}, "provider_error"),
    ("gemini", {"error": {"code": 503, "message": "The model is overloaded.",
                          "status": "UNAVAILABLE"}}, "provider_error"),
    ("ollama", {"error": "model 'llama9' not found"}, "provider_error"),
    ("anthropic", CHAT_CALL, "malformed_response"),  # another format's reply
    ("gemini", MESSAGES_CALL, "malformed_response"),
    ("gemini", GEMINI_MALFORMED, None),
    ("gemini", GEMINI_BLOCKED, None),
]


def _run(tmp_path: Path) -> tuple[list[dict[str, Any]], str]:
    source = tmp_path / "log.jsonl"
    lines = [json.dumps({"id": f"r{i}", "provider": p, "response": body})
             for i, (p, body, _) in enumerate(LOG)]
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["batch", str(source), "--out", str(tmp_path / "rows.jsonl"),
                     "--field", "response", "--format-field", "provider",
                     "--id-field", "id"], out=out)
    assert code == 0 and err.getvalue() == ""
    rows = [json.loads(line) for line in
            (tmp_path / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    return rows, out.getvalue()


def test_each_line_of_a_mixed_log_is_accounted_for_by_kind(tmp_path: Path) -> None:
    rows, _ = _run(tmp_path)
    summaries = {r["record_id"]: r for r in rows if r["kind"] == "reply"}
    assert list(summaries) == [f"r{i}" for i in range(len(LOG))]
    for i, (provider, _, code) in enumerate(LOG):
        summary = summaries[f"r{i}"]
        assert summary.get("error_code") == code, (i, summary)
        assert summary["format"] == provider
        if code is None:
            assert "error_message" not in summary
    calls = [r["record_id"] for r in rows if r["kind"] == "call"]
    assert calls == ["r0", "r1"]  # only the two real replies hold calls
    assert "Rate limit reached" in summaries["r2"]["error_message"]
    assert summaries["r6"]["error_message"].endswith("use format 'openai'")
    assert summaries["r9"]["finish_reason"] == "SAFETY"
    failed = [r for r in rows if r["record_id"] == "r8" and r["kind"] == "refused"]
    assert [(r["item_type"], "item_index" in r) for r in failed] == [
        ("MALFORMED_FUNCTION_CALL", False)]
    assert "get_time(tz=)" in failed[0]["reason"]


def test_the_summary_counts_provider_errors_apart_from_unreadable_records(
    tmp_path: Path,
) -> None:
    _, out = _run(tmp_path)
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("format"))
    assert header.split()[-2:] == ["provider", "errors"]
    total = next(line for line in lines if line.startswith("total")).split()
    unreadable, provider_errors = total[-2:]
    assert (unreadable, provider_errors) == ("2", "4")
    assert "unreadable by code: malformed_response 2" in out
    assert "provider_error" not in out
    assert f"check: {len(LOG)} lines in, {len(LOG)} reply rows out: ok" in out
