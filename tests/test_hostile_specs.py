"""Hostile specs from a user's folder: refused with a located SpecError, quickly.

``TOOLWIRE_SPEC_PATH`` and ``Registry.from_paths`` read YAML a user (or whoever wrote into
the user's folder) supplied. Alias bombs, nesting past any stack, files that are not
mappings and expressions of absurd length must each end in a :class:`toolwire.errors.SpecError`
that says ``file:line:col`` and which rule, in bounded time and memory — and a user spec
that replaces a bundled one is shown as such by ``toolwire specs list``.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import toolwire._registry.registry
from toolwire import Registry
from toolwire._paths import bundled_specs_dir
from toolwire._spec.wire_file import load_wire_spec
from toolwire.cli import main as cli_main
from toolwire.errors import SpecError

VALID_HEAD = """\
spec_version: 1
format: demo
title: Demo
doc_ref: https://example.com
unknown_items: report
"""


@contextmanager
def within(seconds: float) -> Iterator[None]:
    """A hang caught in this thread's CPU seconds: time spent waiting for a core on a busy
    machine is not counted, so load cannot fail the bound (speed is the benches')."""
    start = time.thread_time()
    yield
    elapsed = time.thread_time() - start
    assert elapsed < seconds, f"took {elapsed:.1f} CPU s (bound {seconds} s)"


def refused(tmp_path: Path, text: str, name: str = "demo.yaml", bound: float = 20) -> SpecError:
    """Load ``text`` as a user's spec file, both directly and through a registry folder."""
    folder = tmp_path / "user-specs"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    with within(bound):
        with pytest.raises(SpecError) as direct:
            load_wire_spec(path)
        with pytest.raises(SpecError) as via_registry:
            Registry.from_paths(folder)
    error = direct.value
    assert [p.rule for p in via_registry.value.problems] == [p.rule for p in error.problems]
    for problem in error.problems:
        assert problem.path == str(path)
        assert str(problem).startswith(f"{path}:{problem.line}:{problem.col}: ")
    return error


def test_alias_bomb_is_refused_at_its_first_anchor(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 12)]
    error = refused(tmp_path, VALID_HEAD + "\n".join(lines) + "\n")
    first = error.problems[0]
    assert (first.rule, first.line, first.col) == ("yaml-anchor", 6, 5)
    assert "yaml-alias" in error.rules


def test_merge_key_alias_is_refused(tmp_path: Path) -> None:
    text = VALID_HEAD + "base: &b {type: x}\ncalls:\n  - <<: *b\n    name: \"n\"\n"
    error = refused(tmp_path, text)
    assert {"yaml-anchor", "yaml-alias"} <= set(error.rules)


def test_python_tags_are_refused_not_run(tmp_path: Path) -> None:
    text = VALID_HEAD + 'x-run: !!python/object/apply:os.system ["echo owned"]\n'
    error = refused(tmp_path, text)
    assert error.problems[0].rule == "yaml-tag"
    assert (error.problems[0].line, error.problems[0].col) == (6, 8)


@pytest.mark.parametrize("depth", [65, 10_000, 100_000])
def test_deep_flow_nesting_is_refused_with_its_place(tmp_path: Path, depth: int) -> None:
    error = refused(tmp_path, VALID_HEAD + "x-deep: " + "[" * depth + "]" * depth + "\n")
    (problem,) = error.problems
    assert problem.rule == "yaml-too-deep"
    assert (problem.line, problem.col) == (6, 8 + 64)


def test_deep_block_nesting_is_refused_with_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLWIRE_MAX_SPEC_BYTES", "0")  # 25 MB of indentation: past the bound
    lines = [f"{'  ' * i}k{i}:" for i in range(5_000)]
    error = refused(tmp_path, VALID_HEAD + "x-deep:\n" + "\n".join("  " + x for x in lines))
    (problem,) = error.problems
    assert problem.rule == "yaml-too-deep"
    assert problem.line == 6 + 64 and problem.col > 0


@pytest.mark.parametrize(
    "text",
    ["", "# only a comment\n", "null\n", "- a\n- b\n", "just a string\n", "42\n", "[1, 2]\n"],
    ids=["empty", "comment", "null", "list", "string", "number", "flow-list"],
)
def test_a_spec_that_is_not_a_mapping_is_refused(tmp_path: Path, text: str) -> None:
    (problem,) = refused(tmp_path, text).problems
    assert problem.rule == "not-a-mapping"
    assert problem.line >= 1 and problem.col >= 1


@pytest.mark.parametrize("length", [10_001, 1_000_000])
def test_an_expression_of_absurd_length_is_refused(tmp_path: Path, length: int) -> None:
    source = ("a." * length)[: length - 1] + "b"
    text = VALID_HEAD + f'items:\n  - select: "{source}"\n    type_const: x\ncalls: []\n'
    error = refused(tmp_path, text)
    assert "expression-not-portable" in error.rules
    assert set(error.rules) <= {"expression-not-portable", "bad-value"}  # meta-schema maxLength
    for problem in error.problems:
        assert (problem.line, problem.pointer) == (7, "/items/0/select")
        assert len(str(problem)) < 300, "the problem line quotes the whole expression"


@pytest.mark.parametrize(
    "source",
    ["(" * 3_000 + "a" + ")" * 3_000, "!" * 9_000 + "a", " || ".join(["a"] * 2_000),
     "a" + "[0]" * 3_000, "not_null(" * 1_000 + "a" + ")" * 1_000],
    ids=["parens", "nots", "or-chain", "indexes", "calls"],
)
def test_an_expression_nested_past_the_limit_is_refused(tmp_path: Path, source: str) -> None:
    text = VALID_HEAD + f'items:\n  - select: "{source}"\n    type_const: x\ncalls: []\n'
    error = refused(tmp_path, text)
    assert set(error.rules) <= {"expression-not-portable", "expression-syntax", "bad-value"}
    for problem in error.problems:
        assert problem.line == 7 and len(str(problem)) < 300


def test_ten_thousand_unknown_keys_are_all_reported_in_linear_time(tmp_path: Path) -> None:
    # About a millisecond a key (PyYAML, the meta-schema, a did-you-mean per key): linear.
    keys = "".join(f"bogus_{i}: 1\n" for i in range(10_000))
    text = VALID_HEAD + "items: [{select: \"a\", type_const: x}]\ncalls: []\n" + keys
    error = refused(tmp_path, text, bound=90)
    assert len(error.problems) == 10_000
    assert set(error.rules) == {"unknown-key"}


def test_a_spec_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "user-specs"
    folder.mkdir()
    (folder / "demo.yaml").write_bytes(VALID_HEAD.encode() + b"title: \xff\xfe\n")
    with pytest.raises(SpecError) as caught:
        Registry.from_paths(folder)
    assert caught.value.problems[0].path.endswith("demo.yaml")


def test_user_spec_replacing_a_bundled_one_is_listed_as_such(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "user-specs"
    folder.mkdir()
    bundled = (bundled_specs_dir() / "wire" / "openai.yaml").read_text(encoding="utf-8")
    (folder / "openai.yaml").write_text(
        bundled.replace("title: ", "title: Shadow of ", 1), encoding="utf-8"
    )
    registry = Registry.from_paths(folder)
    assert "openai" in registry.replaced
    assert registry.spec("openai").title.startswith("Shadow of ")

    monkeypatch.setenv("TOOLWIRE_SPEC_PATH", str(folder))
    monkeypatch.setattr(toolwire._registry.registry, "_DEFAULT", None)
    out = io.StringIO()
    assert cli_main(["specs", "list", "--json"], out=out) == 0
    rows = {row["format"]: row for row in json.loads(out.getvalue())}
    assert rows["openai"]["origin"] == "user (replaces bundled)"
    assert rows["anthropic"]["origin"] == "bundled"
    table = io.StringIO()
    assert cli_main(["specs", "list"], out=table) == 0
    (line,) = [x for x in table.getvalue().splitlines() if x.startswith("openai ")]
    assert line.endswith("user (replaces bundled)")


@pytest.mark.parametrize("base", ["../outside/base", "a" * 300, "base\\u0000x"])
def test_extends_is_a_format_name_never_a_path(tmp_path: Path, base: str) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "base.yaml").write_text(
        VALID_HEAD.replace("format: demo", "format: base")
        + 'items: [{select: "a", type_const: x}]\ncalls: []\n',
        encoding="utf-8",
    )
    text = VALID_HEAD.replace("unknown_items: report\n", f'extends: "{base}"\n')
    error = refused(tmp_path, text)
    assert {"bad-value", "extends-unknown"} <= set(error.rules)
    assert all(p.pointer == "/extends" and p.line == 5 for p in error.problems)


def test_an_extends_of_a_megabyte_is_refused_in_short_lines(tmp_path: Path) -> None:
    text = VALID_HEAD.replace("unknown_items: report\n", f"extends: {'a' * 1_000_000}\n")
    error = refused(tmp_path, text)
    assert {"bad-value", "extends-unknown"} <= set(error.rules)
    assert all(len(str(p)) < 300 for p in error.problems)


def test_a_spec_file_beyond_the_size_bound_is_refused_unread(tmp_path: Path) -> None:
    from toolwire._spec.document import MAX_SPEC_BYTES

    padding = "# " + "x" * 78 + "\n"
    text = VALID_HEAD + padding * (MAX_SPEC_BYTES // len(padding) + 1)
    error = refused(tmp_path, text)
    (problem,) = error.problems
    assert problem.rule == "unreadable"
    assert f"the file is {len(text):,} bytes, more than the {MAX_SPEC_BYTES:,}" in problem.message


def test_the_spec_size_bound_is_set_by_its_environment_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = VALID_HEAD + "calls: []\n"
    monkeypatch.setenv("TOOLWIRE_MAX_SPEC_BYTES", str(len(text) - 1))
    (problem,) = refused(tmp_path, text).problems
    assert problem.rule == "unreadable" and "TOOLWIRE_MAX_SPEC_BYTES" in problem.message
    monkeypatch.setenv("TOOLWIRE_MAX_SPEC_BYTES", "lots")
    (problem,) = refused(tmp_path, text).problems
    assert problem.message == "TOOLWIRE_MAX_SPEC_BYTES='lots' is not a byte count"
    monkeypatch.setenv("TOOLWIRE_MAX_SPEC_BYTES", str(len(text)))
    with pytest.raises(SpecError) as caught:  # read, then held to the language's rules
        load_wire_spec(tmp_path / "user-specs" / "demo.yaml")
    assert "unreadable" not in {p.rule for p in caught.value.problems}
