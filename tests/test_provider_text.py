"""A provider's own text enters an error's message bounded, on one line, its control
characters escaped; the whole text stays on the error's field. The JavaScript package
(tools/js/lib/provider_text.js) shows it the same way, character for character."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import toolwire
import toolwire.batch
from toolwire.cli import main
from toolwire.errors import ProviderError, StreamError, UnmappedCall

JS = Path(__file__).resolve().parent.parent / "tools" / "js"
HUGE = "x" * (5 << 20)
HOSTILE = "Rate limit\r\nreached\x1b[2J\x1b]0;pwned\x07 \u202edelif\u2028\x00\x9b end"
UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
SHOWN = ("Rate limit reached\\x1b[2J\\x1b]0;pwned\\x07 \\u202edelif\\u2028\\x00\\x9b end")


def _safe(message: str, longest: int = 1200) -> None:
    assert UNSAFE.search(message) is None, message
    assert len(message) <= longest, len(message)


def test_a_provider_error_message_is_escaped_and_the_field_keeps_the_text() -> None:
    error = ProviderError("openai", HOSTILE, "bad\ntype", "code\x1b")
    _safe(str(error))
    assert str(error) == ("openai: the provider answered with an error (type bad type,"
                          f" code code\\x1b): {SHOWN}")
    assert error.error_message == HOSTILE and error.to_dict()["error_message"] == HOSTILE


def test_a_provider_error_message_of_5_mb_is_cut_saying_how_long_it_was() -> None:
    error = ProviderError("openai", HUGE)
    _safe(str(error))
    assert str(error).endswith("x" * 1000 + f"… (cut: {len(HUGE):,} characters in all)")
    assert error.error_message == HUGE


def test_a_stream_error_message_is_one_line_bounded_and_escaped() -> None:
    error = StreamError("anthropic", "over\nloaded", "line one\nline two\x1b[31m" + HUGE, None, 3)
    _safe(str(error))
    assert str(error).startswith("anthropic: the provider reported an error in event 3:"
                                 " 'over\\nloaded': line one line two\\x1b[31mxxx")
    assert error.error_message.endswith(HUGE) and error.error_code == "over\nloaded"


def test_an_unmapped_item_type_from_the_reply_is_escaped_in_the_message() -> None:
    error = UnmappedCall("responses", 2, "computer\x1b[2J" + HUGE, "a reason\nsplit")
    _safe(str(error))
    assert "of type 'computer\\x1b[2Jxxx" in str(error) and "reason split" in str(error)
    assert error.item_type == "computer\x1b[2J" + HUGE and error.reason == "a reason\nsplit"


def test_a_provider_error_body_read_and_printed_stays_one_bounded_line(tmp_path: Path) -> None:
    body = {"error": {"message": HOSTILE + HUGE, "type": "server_error"}}
    with pytest.raises(ProviderError) as caught:
        toolwire.read("openai", body)
    _safe(str(caught.value))
    assert caught.value.error_message == HOSTILE + HUGE
    row = toolwire.batch.rows(body)[0]
    assert row["error_code"] == "provider_error" and row["error_message"] == str(caught.value)
    path = tmp_path / "reply.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["extract", str(path)], out=io.StringIO()) != 0
    assert err.getvalue().count("\n") == 1
    _safe(err.getvalue().rstrip("\n"), 1300)


TEXTS = [
    "", "plain", "  padded \t text \n", HOSTILE, "\x7f\x80\x9f\u2066\u2069\u2029",
    "a\u00a0b\u3000c",
    "😀" * 1200, "é" * 999 + "\n\n" + "z" * 5, "\x1b" * 1001, "x" * 1000, "x" * 1001,
    "tab\there\x0b\x0cform", "back\\slash \\n", "\ud7ff\ue000\uffff",
]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is needed for tools/js")
def test_the_javascript_package_shows_a_provider_text_exactly_as_python_does() -> None:
    from toolwire.errors import _provider_text

    script = ("import { providerText } from './lib/provider_text.js';"
              "let input = ''; process.stdin.on('data', (d) => { input += d; });"
              "process.stdin.on('end', () => { process.stdout.write("
              "JSON.stringify(JSON.parse(input).map(providerText))); });")
    done = subprocess.run(["node", "--input-type=module", "-e", script], cwd=JS,
                          input=json.dumps(TEXTS), capture_output=True, text=True, timeout=120,
                          check=True)
    assert json.loads(done.stdout) == [_provider_text(t) for t in TEXTS]
