"""The ``toolwire`` command line: output, exit codes and error lines."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from toolwire.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


@pytest.mark.parametrize("name", ["openai", "responses", "anthropic", "gemini", "ollama"])
def test_extract_example_prints_the_reply(name: str) -> None:
    code, out = run("extract", "--example", name)
    assert code == 0
    reply = json.loads(out)
    assert reply["format"] == name
    assert reply["calls"] and all(c["name"] for c in reply["calls"])


def test_extract_reads_a_file_and_sniffs(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text((ROOT / "specs/examples/anthropic.json").read_text())
    code, out = run("extract", str(path))
    assert code == 0
    assert json.loads(out)["calls"][0]["id"] == "toolu_01A09q90qw90lq917835lq9"


def test_bad_input_is_one_line_and_exit_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                            ) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"output": [{"type": "computer_call", "call_id": "c"}]}')
    code, _ = run("extract", str(path))
    err = capsys.readouterr().err
    assert code == 1
    assert err.count("\n") == 1
    assert err.startswith("toolwire: unmapped_call: ")


def test_missing_file_is_exit_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("extract", "/nonexistent/reply.json")
    assert code == 1
    assert "cannot read" in capsys.readouterr().err


def test_usage_errors_exit_two(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        run("extract", "--bogus")
    assert caught.value.code == 2
    code, _ = run("extract", "--example", "no-such-example")
    assert code == 2


def test_sniff_prints_the_format(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text((ROOT / "specs/examples/gemini.json").read_text())
    assert run("sniff", str(path)) == (0, "gemini\n")
    path.write_text('{"x": 1}')
    assert run("sniff", str(path))[0] == 1


def test_specs_check_passes_on_the_bundled_specs() -> None:
    code, out = run("specs", "check", str(ROOT / "specs"))
    assert code == 0
    assert out.startswith("ok: ")


def test_specs_check_prints_the_place_of_a_typo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (ROOT / "specs/wire/openai.yaml").read_text().replace("\ncalls:", "\ncalsl:")
    (tmp_path / "openai.yaml").write_text(text)
    code, _ = run("specs", "check", str(tmp_path))
    err = capsys.readouterr().err
    line = text.splitlines().index("calsl:") + 1
    assert code == 1
    assert f"{tmp_path / 'openai.yaml'}:{line}:1: /calsl: unknown key 'calsl'" in err
    assert "[unknown-key]" in err


def test_specs_list_shows_every_format() -> None:
    code, out = run("specs", "list", "--json")
    rows = json.loads(out)
    assert code == 0
    assert {"openai", "responses", "anthropic", "gemini", "ollama"} <= {r["format"] for r in rows}


@pytest.mark.parametrize("module", ["toolwire", "toolwire.cli"])
def test_console_script_runs_in_a_subprocess(module: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", module, "extract", "--example", "responses"],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["server_calls"][0]["type"] == "web_search_call"


@pytest.mark.parametrize(
    "argv",
    [
        ["extract"],
        ["extract", "reply.json"],
        ["extract", "-"],
        ["extract", "--format", "openai", "reply.json"],
        ["extract", "-f", "responses", "--strict"],
        ["extract", "--lenient", "--example", "gemini"],
        ["extract", "reply.json", "--format", "anthropic", "--lenient"],
    ],
)
def test_plain_extract_reads_as_argparse_does(argv: list[str]) -> None:
    from toolwire.cli._main import _parser, _plain_extract

    fast = _plain_extract(argv)
    assert fast is not None
    assert vars(fast) == vars(_parser().parse_args(argv))


@pytest.mark.parametrize(
    "argv",
    [
        ["extract", "--format=openai"],
        ["extract", "--strict", "--lenient"],
        ["extract", "a.json", "b.json"],
        ["extract", "--text", "hermes"],
        ["extract", "--format"],
        ["extract", "--help"],
        ["sniff", "x.json"],
    ],
)
def test_plain_extract_leaves_everything_else_to_argparse(argv: list[str]) -> None:
    from toolwire.cli._main import _plain_extract

    assert _plain_extract(argv) is None
