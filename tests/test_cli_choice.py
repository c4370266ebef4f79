"""``toolwire extract --choice N``: another alternative of a reply, or a usage error."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from toolwire.cli import main

TWO = {"choices": [
    {"index": 0, "message": {"tool_calls": [{"id": "a", "type": "function",
                                             "function": {"name": "f", "arguments": "{}"}}]}},
    {"index": 1, "message": {"tool_calls": [{"id": "b", "type": "function",
                                             "function": {"name": "g", "arguments": "{}"}}]}},
]}


@pytest.fixture
def two(tmp_path: Path) -> Path:
    path = tmp_path / "two.json"
    path.write_text(json.dumps(TWO), encoding="utf-8")
    return path


@pytest.mark.parametrize(("argv", "name"), [([], "f"), (["--choice", "0"], "f"),
                                            (["--choice", "1"], "g"),
                                            (["--format", "openai", "--choice", "1"], "g")])
def test_choice_reads_that_alternative(two: Path, argv: list[str], name: str) -> None:
    out = io.StringIO()
    assert main(["extract", str(two), *argv], out) == 0
    data = json.loads(out.getvalue())
    assert [c["name"] for c in data["calls"]] == [name]
    assert data["choice_count"] == 2


@pytest.mark.parametrize(("argv", "message"), [
    (["--choice", "2"], "--choice 2: this openai reply holds 2 alternatives (0 to 1)"),
    (["--choice", "-1"], "N counts from 0"),
    (["--choice", "one"], "N is a whole number"),
    (["--choice", "1", "--jsonl"], "--choice does not go with --jsonl"),
    (["--choice", "0", "--stream"], "--choice does not go with --stream"),
])
def test_a_choice_the_reply_does_not_hold_is_a_usage_error(
    two: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    try:
        code = main(["extract", str(two), *argv], io.StringIO())
    except SystemExit as exit_:  # argparse refuses the value itself
        code = exit_.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("toolwire: usage: ") and message in err and err.count("\n") == 1


def test_choice_on_a_format_without_alternatives_is_a_usage_error(
    capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["extract", "--example", "anthropic", "--choice", "0"], io.StringIO()) == 2
    assert capsys.readouterr().err == (
        "toolwire: usage: --choice: format anthropic has no alternatives to choose from"
        " (its spec declares no choices)\n")
