"""The command line's manners: one stderr line and exit 2 for every wrong command line,
"did you mean" for format names, options that do not apply refused, plain help text."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import toolwire
from toolwire.cli import main

ROOT = Path(__file__).resolve().parent.parent
REPLY = json.loads((ROOT / "specs/examples/openai.json").read_text(encoding="utf-8"))


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    out = io.StringIO()
    try:
        code = main(argv, out=out)
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    return code, out.getvalue() + captured.out, captured.err


@pytest.fixture
def text_file(tmp_path: Path) -> Path:
    path = tmp_path / "model.txt"
    path.write_text('Sure. <tool_call>{"name": "f", "arguments": {}}</tool_call>', encoding="utf-8")
    return path


BAD_COMMAND_LINES = [
    ["extract", "--text", "hermes", "--param", "tag=a b", "FILE"],
    ["extract", "--text", "hermes", "--param", "nope=1", "FILE"],
    ["extract", "--text", "hermes", "--param", "tag", "FILE"],
    ["extract", "--example", "openai", "FILE"],
    ["extract", "--format", "openai", "--text", "hermes", "FILE"],
    ["extract", "--text", "hermes", "--strict", "FILE"],
    ["extract", "--text", "hermes", "--example", "openai"],
    ["extract", "--param", "tag=x", "FILE"],
    ["extract", "--format", "hermes", "FILE"],
    ["extract", "--format", "no_such_format", "FILE"],
    ["extract", "--example", "no-such-example"],
    ["extract", "--text", "no_such_text", "FILE"],
    ["extract", "--jsonl", "--example", "openai"],
    ["extract", "--bogus"],
    ["extract", "--strict", "--lenient", "FILE"],
    ["bogus"],
    [],
    ["specs"],
    ["specs", "new", "x", "--extends", "OpenAI", "--out", "DIR"],
    ["specs", "new", "Bad-Name", "--out", "DIR"],
]


@pytest.mark.parametrize("argv", BAD_COMMAND_LINES,
                         ids=[" ".join(a) or "-" for a in BAD_COMMAND_LINES])
def test_a_bad_command_line_is_one_stderr_line_and_exit_two(
    argv: list[str], text_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [str(text_file) if a == "FILE" else str(tmp_path / "new") if a == "DIR" else a
            for a in argv]
    code, out, err = run(argv, capsys)
    assert code == 2, err
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("toolwire: usage: "), err
    assert "Traceback" not in err


def test_the_console_script_prints_no_traceback_for_a_bad_parameter(text_file: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "toolwire.cli", "extract", "--text", "hermes", "--param",
         "tag=a b", str(text_file)], capture_output=True, text=True, check=False,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "toolwire: usage: --param: hermes: parameter tag='a b' does not match"
        " '^[A-Za-z_][A-Za-z0-9_.:-]*$'"
    ]


@pytest.mark.parametrize(("argv", "hint"), [
    (["extract", "--format", "hermes"], "use --text hermes"),
    (["extract", "--format", "OpenAI"], "did you mean 'openai'?"),
    (["extract", "--format", "antropic"], "did you mean 'anthropic'?"),
    (["extract", "--text", "Hermes"], "did you mean 'hermes'?"),
    (["extract", "--text", "qwen3coder"], "did you mean 'qwen3_coder'?"),
    (["extract", "--text", "openai"], "use --format openai"),
    (["extract", "--example", "opnai"], "did you mean 'openai'?"),
    (["specs", "new", "mine", "--extends", "Responses"], "did you mean 'responses'?"),
])
def test_a_near_miss_format_name_says_what_was_meant(
    argv: list[str], hint: str, text_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run([*argv, str(text_file)] if argv[0] == "extract" and "--example" not in argv
                       else argv, capsys)
    assert code == 2
    assert hint in err


@pytest.mark.parametrize(("argv", "hint"), [
    (["--versoin"], "did you mean '--version'?"),
    (["extract", "--formt", "openai", "FILE"], "did you mean '--format'?"),
    (["batch", "IN", "--out", "o.jsonl", "--forse"], "did you mean '--force'?"),
    (["specs", "list", "--jsno"], "did you mean '--json'?"),
])
def test_a_near_miss_option_says_what_was_meant(
    argv: list[str], hint: str, text_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run([str(text_file) if a == "FILE" else a for a in argv], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and hint in err, err


def _subcommands(parser: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield (*path, name), sub
                yield from _subcommands(sub, (*path, name))


def test_every_subcommand_help_has_a_description() -> None:
    from toolwire.cli._parser import build_parser

    found = dict(_subcommands(build_parser()))
    assert {"extract", "batch", "specs", "specs export"} <= {" ".join(p) for p in found}
    lacking = [" ".join(path) for path, sub in found.items() if not (sub.description or "").strip()]
    assert lacking == []


# Commands whose output is well past a pipe's buffer once repeated: the reader leaves early.
PIPED = [["specs", "list"], ["specs", "table"], ["specs", "schema"], ["specs", "list", "--json"],
         ["extract", "--example", "openai"], ["--help"], ["specs", "export", "--help"]]


@pytest.mark.parametrize("argv", PIPED, ids=[" ".join(a) for a in PIPED])
def test_every_command_ends_quietly_when_its_reader_goes_away(argv: list[str]) -> None:
    import os

    # The reader is gone before the command writes: the first write meets a closed pipe.
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "toolwire", *argv], stdout=write, stderr=subprocess.PIPE,
            text=True, check=False,
            env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        )
    finally:
        os.close(write)
    assert done.stderr == ""
    assert done.returncode in (0, 1)  # argparse's --help exits 0 before main can say 1


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--version"], capsys)
    assert code == 0
    assert out == f"toolwire {toolwire.__version__}\n"


@pytest.mark.parametrize("argv", [[], ["extract"], ["sniff"], ["specs"], ["specs", "check"],
                                  ["specs", "new"], ["specs", "list"], ["specs", "table"]])
def test_help_text_has_no_docstring_markup(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run([*argv, "--help"], capsys)
    assert code == 0
    assert "usage: toolwire" in out
    for markup in ("``", ":mod:", ":class:", ":func:", ":meth:"):
        assert markup not in out


BAD_INPUTS = {
    "not JSON": ("{\n  \"choices\": [,]\n}", "is not JSON: "),
    "empty": ("", "is empty"),
    "blank": ("  \n", "is empty"),
    "an array": ("[1, 2]", "is an array, not a JSON object"),
    "a string": ('"hi"', "is a string, not a JSON object"),
    "a BOM": ("\ufeff{}", "starts with a byte-order mark"),
}


@pytest.mark.parametrize("kind", sorted(BAD_INPUTS))
def test_sniff_and_extract_refuse_a_bad_input_with_the_same_line(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, words = BAD_INPUTS[kind]
    path = tmp_path / "reply.json"
    path.write_text(text, encoding="utf-8")
    answers = [run([command, str(path)], capsys) for command in ("extract", "sniff")]
    assert [a[0] for a in answers] == [1, 1]
    assert answers[0][2] == answers[1][2]
    err = answers[0][2]
    assert err.count("\n") == 1
    assert err.startswith("toolwire: malformed_response: ")
    assert f"{path} {words}" in err
    if kind == "not JSON":
        assert err.endswith(" at line 2, column 15\n")


def test_jsonl_reads_one_reply_per_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    anthropic = json.loads((ROOT / "specs/examples/anthropic.json").read_text(encoding="utf-8"))
    path = tmp_path / "replies.jsonl"
    path.write_text(f"{json.dumps(REPLY)}\n\n{json.dumps(anthropic)}\n", encoding="utf-8")
    code, out, err = run(["extract", "--jsonl", str(path)], capsys)
    assert (code, err) == (0, "")
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["format"] for line in lines] == ["openai", "anthropic"]
    assert lines[0] == toolwire.read(None, REPLY).to_dict()
    code, out, _ = run(["sniff", "--jsonl", str(path)], capsys)
    assert (code, out) == (0, "openai\nanthropic\n")


def test_jsonl_names_the_line_of_a_bad_reply_and_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "replies.jsonl"
    path.write_text(f'{json.dumps(REPLY)}\n{{"choices": [\n{{"x": 1}}\n{json.dumps(REPLY)}\n',
                    encoding="utf-8")
    code, out, err = run(["extract", "--jsonl", str(path)], capsys)
    assert code == 1
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 4
    assert lines[0]["format"] == lines[3]["format"] == "openai"
    assert lines[1]["error"]["code"] == "malformed_response"
    assert lines[1]["error"]["line"] == 2
    assert f"{path}:2 is not JSON" in lines[1]["error"]["message"]
    assert lines[2]["error"] == {
        "code": "unknown_format", "line": 3,
        "message": lines[2]["error"]["message"]}
    assert lines[2]["error"]["message"].startswith(f"{path}:3: no format recognises")
    assert err.count("\n") == 2
    code, out, _ = run(["sniff", "--jsonl", str(path)], capsys)
    assert (code, out) == (1, "openai\n-\n-\nopenai\n")


def test_without_jsonl_several_replies_are_one_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "replies.jsonl"
    path.write_text(f"{json.dumps(REPLY)}\n{json.dumps(REPLY)}\n", encoding="utf-8")
    code, _, err = run(["extract", str(path)], capsys)
    assert code == 1
    assert "is not JSON: " in err and " at line 2, column 1;" in err
    assert "--jsonl" in err


MINIMAL_SPEC = (
    "spec_version: 1\nformat: {name}\ntitle: T\ndoc_ref: https://example.invalid\n"
    "items: [{{select: \"calls\", type_const: function}}]\nunknown_items: refuse\n"
    "calls: [{{type: function, name: \"name\", arguments: \"arguments\"}}]\n"
)


def test_specs_check_refuses_a_missing_path_and_an_empty_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["specs", "check", str(tmp_path / "nope")], capsys)
    assert (code, out) == (1, "")
    assert f"{tmp_path / 'nope'}:0:0: /: no such file or folder" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = run(["specs", "check", str(empty)], capsys)
    assert (code, out) == (1, "")
    assert "no spec files" in err


def test_a_yml_file_is_read_like_a_yaml_file(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mine.yml").write_text(MINIMAL_SPEC.format(name="mine"), encoding="utf-8")
    (tmp_path / "dialect.yml").write_text(
        "spec_version: 1\nformat: dialect\nextends: mine\ntitle: D\ndoc_ref: x\n",
        encoding="utf-8")
    code, out, err = run(["specs", "check", str(tmp_path)], capsys)
    assert (code, out, err) == (0, "ok: 2 spec(s) valid\n", "")
    registry = toolwire.Registry.from_paths(tmp_path)
    call = registry.extract("dialect", {"calls": [{"name": "f", "arguments": {}}]})
    assert [c.name for c in call] == ["f"]
    from toolwire._spec.wire_file import load_wire_spec

    assert load_wire_spec(tmp_path / "dialect.yml").format == "dialect"


def test_a_format_in_both_yaml_and_yml_is_a_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for suffix in (".yaml", ".yml"):
        (tmp_path / f"mine{suffix}").write_text(MINIMAL_SPEC.format(name="mine"),
                                                 encoding="utf-8")
    code, _, err = run(["specs", "check", str(tmp_path)], capsys)
    assert code == 1
    assert "format 'mine' is defined twice" in err
