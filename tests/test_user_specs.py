"""A user's own specs: added or replacing formats, from code, ``TOOLWIRE_SPEC_PATH`` and the CLI.

The CLI runs in a subprocess so ``TOOLWIRE_SPEC_PATH`` is read fresh, as a user's shell
would set it (the in-process default registry is built once and shared).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolwire import Registry
from toolwire._spec.wire_file import load_wire_spec
from toolwire.cli import main
from toolwire.errors import SpecError

ROOT = Path(__file__).resolve().parent.parent

ACME = """\
spec_version: 1
format: acme
extends: openai
title: Acme chat completions
doc_ref: https://example.invalid/acme
truncated: "choices[0].finish_reason == 'length' || choices[0].finish_reason == 'cut'"
"""

PATCHED_OPENAI = """\
spec_version: 1
format: openai
extends: openai
title: OpenAI Chat Completions, patched
doc_ref: https://example.invalid/patch
sniff: {when: "type(choices) == 'array'", priority: 100}
"""

REPLY = (
    '{"choices": [{"message": {"tool_calls": [{"id": "c1", "type": "function",'
    ' "function": {"name": "f", "arguments": "{}"}}]}, "finish_reason": "cut"}]}'
)


def cli(
    *args: str, env: dict[str, str] | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src"), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "toolwire.cli", *args], input=stdin, capture_output=True,
        text=True, env=environment, check=False,
    )


@pytest.fixture
def user_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "specs"
    folder.mkdir()
    (folder / "acme.yaml").write_text(ACME, encoding="utf-8")
    return folder


def test_from_paths_adds_a_users_format(user_folder: Path) -> None:
    registry = Registry.from_paths(user_folder)
    assert "acme" in registry.formats()
    assert "openai" in registry.formats()
    assert registry.replaced == frozenset()
    assert registry.read("acme", REPLY).truncated is True
    assert registry.read("openai", REPLY).truncated is False


def test_from_paths_replaces_a_bundled_format_and_says_so(user_folder: Path) -> None:
    (user_folder / "openai.yaml").write_text(PATCHED_OPENAI, encoding="utf-8")
    registry = Registry.from_paths(user_folder)
    assert registry.spec("openai").title == "OpenAI Chat Completions, patched"
    assert registry.replaced == frozenset({"openai"})


def test_later_folders_win(tmp_path: Path, user_folder: Path) -> None:
    later = tmp_path / "later"
    later.mkdir()
    (later / "acme.yaml").write_text(ACME.replace("Acme chat", "Later acme chat"), encoding="utf-8")
    registry = Registry.from_paths(user_folder, later)
    assert registry.spec("acme").title == "Later acme chat completions"


def test_spec_path_variable_is_read_colon_separated(
    tmp_path: Path, user_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "openai.yaml").write_text(PATCHED_OPENAI, encoding="utf-8")
    monkeypatch.setenv("TOOLWIRE_SPEC_PATH", os.pathsep.join([str(user_folder), str(other)]))
    registry = Registry.from_paths(include_env=True)
    assert "acme" in registry.formats()
    assert registry.replaced == frozenset({"openai"})


def test_a_bad_user_spec_fails_the_load_with_its_place(user_folder: Path) -> None:
    (user_folder / "broken.yaml").write_text(ACME.replace("acme", "broken").replace(
        "extends: openai", "extends: opena"), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        Registry.from_paths(user_folder)
    (problem,) = caught.value.problems
    assert (Path(problem.path).name, problem.line, problem.rule) == (
        "broken.yaml", 3, "extends-unknown")


def test_cli_picks_up_the_spec_path_variable(user_folder: Path) -> None:
    result = cli("extract", "--format", "acme", env={"TOOLWIRE_SPEC_PATH": str(user_folder)},
                 stdin=REPLY)
    assert result.returncode == 0, result.stderr
    assert '"truncated": true' in result.stdout


def test_cli_specs_list_shows_the_replacement(user_folder: Path) -> None:
    (user_folder / "openai.yaml").write_text(PATCHED_OPENAI, encoding="utf-8")
    result = cli("specs", "list", "--json", env={"TOOLWIRE_SPEC_PATH": str(user_folder)})
    assert result.returncode == 0, result.stderr
    rows = {row["format"]: row for row in json.loads(result.stdout)}
    assert rows["openai"]["origin"] == "user (replaces bundled)"
    assert rows["acme"]["origin"] == "user"
    assert rows["deepseek"]["origin"] == "bundled"


def test_specs_check_validates_a_users_folder_extending_a_bundled_spec(user_folder: Path) -> None:
    out = io.StringIO()
    assert main(["specs", "check", str(user_folder)], out) == 0
    assert out.getvalue() == "ok: 1 spec(s) valid\n"


def test_specs_check_names_each_problem_of_a_users_folder(
    user_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (user_folder / "acme.yaml").write_text(ACME.replace("extends: openai", "extends: opena"),
                                           encoding="utf-8")
    assert main(["specs", "check", str(user_folder)], io.StringIO()) == 1
    err = capsys.readouterr().err
    assert f"{user_folder / 'acme.yaml'}:3:10: /extends:" in err
    assert "[extends-unknown]" in err


def test_specs_new_writes_a_dialect_skeleton_that_loads_and_passes_once_filled_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = io.StringIO()
    assert main(["specs", "new", "acme", "--extends", "openai", "--out", str(tmp_path)], out) == 0
    path = tmp_path / "acme.yaml"
    assert out.getvalue().splitlines()[0] == str(path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=")
    assert "extends: openai" in text
    spec = load_wire_spec(path)
    assert spec.data["extends"] == "openai"
    assert main(["specs", "check", str(tmp_path)], io.StringIO()) == 1  # title, doc_ref: TODO
    err = capsys.readouterr().err
    assert err.count("[todo-left]") == 2 and f"{path}:" in err and "/doc_ref:" in err
    lines = [line for line in text.splitlines() if not line.startswith(("title:", "doc_ref:"))]
    path.write_text("\n".join([*lines, "title: Acme", "doc_ref: https://example.invalid/acme"]),
                    encoding="utf-8")
    assert main(["specs", "check", str(tmp_path)], io.StringIO()) == 0
    registry = Registry.from_paths(tmp_path)
    assert registry.extract("acme", REPLY) == registry.extract("openai", REPLY)


def test_specs_new_without_a_base_writes_a_complete_spec_that_validates(tmp_path: Path) -> None:
    assert main(["specs", "new", "plain", "--out", str(tmp_path)], io.StringIO()) == 0
    spec = load_wire_spec(tmp_path / "plain.yaml")
    assert "extends" not in spec.data
    assert [(e.kind, e.type) for e in spec.entries] == [("calls", "function")]


def test_specs_new_in_the_specs_folder_uses_the_relative_schema_line(tmp_path: Path) -> None:
    from toolwire._spec.skeleton import schema_reference

    assert schema_reference(ROOT / "specs" / "wire") == "../schema/wire-spec.v1.schema.json"


def test_specs_new_elsewhere_writes_a_schema_copy_its_line_names_relatively(
    tmp_path: Path,
) -> None:
    out = io.StringIO()
    assert main(["specs", "new", "acme", "--out", str(tmp_path)], out) == 0
    text = (tmp_path / "acme.yaml").read_text(encoding="utf-8")
    assert text.splitlines()[0] == "# yaml-language-server: $schema=wire-spec.v1.schema.json"
    copy = tmp_path / "wire-spec.v1.schema.json"
    bundled = ROOT / "specs" / "schema" / "wire-spec.v1.schema.json"
    assert copy.read_bytes() == bundled.read_bytes()
    assert out.getvalue().splitlines() == [str(tmp_path / "acme.yaml"), str(copy)]
    assert str(tmp_path) not in text and "file://" not in text


def test_specs_new_names_the_nearest_schema_folder_above_it(tmp_path: Path) -> None:
    assert main(["specs", "schema", "--out", str(tmp_path / "specs" / "schema")],
                io.StringIO()) == 0
    folder = tmp_path / "specs" / "acme"
    assert main(["specs", "new", "acme", "--out", str(folder)], io.StringIO()) == 0
    first = (folder / "acme.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../schema/wire-spec.v1.schema.json"
    assert not (folder / "wire-spec.v1.schema.json").exists()


def test_specs_schema_prints_a_meta_schema_and_writes_all_three(tmp_path: Path) -> None:
    out = io.StringIO()
    assert main(["specs", "schema", "text"], out) == 0
    assert json.loads(out.getvalue())["title"] == json.loads(
        (ROOT / "specs" / "schema" / "text-spec.v1.schema.json").read_text("utf-8"))["title"]
    assert main(["specs", "schema", "--out", str(tmp_path)], io.StringIO()) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "conformance-case.v1.schema.json", "text-spec.v1.schema.json",
        "wire-spec.v1.schema.json"]


def test_specs_new_refuses_to_overwrite(tmp_path: Path) -> None:
    (tmp_path / "acme.yaml").write_text("keep", encoding="utf-8")
    assert main(["specs", "new", "acme", "--out", str(tmp_path)], io.StringIO()) == 1
    assert (tmp_path / "acme.yaml").read_text(encoding="utf-8") == "keep"
    assert main(["specs", "new", "acme", "--out", str(tmp_path), "--force"], io.StringIO()) == 0


def test_specs_new_refuses_a_bad_name_or_an_unknown_base(tmp_path: Path) -> None:
    assert main(["specs", "new", "Acme", "--out", str(tmp_path)], io.StringIO()) == 2
    assert main(["specs", "new", "acme", "--extends", "nope", "--out", str(tmp_path)],
                io.StringIO()) == 2  # an unknown name is a usage error, as for --format
    assert list(tmp_path.iterdir()) == []
