"""Every Python and shell block of the README and of the documentation pages runs, and prints
what its page shows: an example that no longer runs is documentation that lies.

Each page runs in a fresh interpreter (``tests/doc_blocks.py`` says what each kind of block
means) whose working directory is an empty temporary folder holding copies of the bundled
example replies (``openai.json``, ``anthropic.json``, … from ``specs/examples``), with
``toolwire`` on PATH running this checkout. A block that cannot run here is marked
``<!-- not run: REASON -->``, and the reason is required.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from doc_blocks import SKIP_STATUS, Block, blocks, printed

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCKS = {page: blocks(page, page.relative_to(ROOT).as_posix()) for page in PAGES}
RUN = [page for page in PAGES if any(block.runs for block in BLOCKS[page])]


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def _run(found: list[Block], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run the blocks that run of one page as the suite does; the finished process."""
    work = tmp_path / "work"
    work.mkdir(parents=True)
    for example in sorted((ROOT / "specs" / "examples").glob("*.json")):
        shutil.copy(example, work / example.name)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "toolwire"
    shim.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m toolwire \"$@\"\n", "utf-8")
    shim.chmod(0o755)
    script = tmp_path / "blocks.json"
    script.write_text(json.dumps([
        {"page": b.page, "line": b.line, "kind": b.kind, "code": b.code}
        for b in found if b.runs
    ]), "utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"),
           "PATH": os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent),
                                    os.environ.get("PATH", "")])}
    env.pop("TOOLWIRE_SPEC_PATH", None)
    return subprocess.run([sys.executable, str(Path(__file__).with_name("doc_blocks.py")),
                           str(script)], cwd=work, env=env, capture_output=True, text=True,
                          check=False, timeout=600)


@pytest.mark.parametrize("page", RUN, ids=_name)
def test_the_pages_blocks_run_and_print_what_it_shows(page: Path, tmp_path: Path) -> None:
    done = _run(BLOCKS[page], tmp_path)
    output = done.stdout + done.stderr
    if done.returncode == SKIP_STATUS:
        pytest.skip(done.stdout.strip().splitlines()[-1])
    assert done.returncode == 0, output
    lines = output.splitlines()
    for block in BLOCKS[page]:
        if block.kind == "output":
            missing = printed(block.code, lines)
            assert missing == [], f"{block.page}:{block.line}: not printed: {missing}\n{output}"


def test_output_blocks_follow_a_block_that_runs() -> None:
    """A fenced block without a language is output; one before anything runs on its page is
    more likely a command that lost its language."""
    wrong = []
    for found in BLOCKS.values():
        ran = False
        for block in found:
            ran = ran or block.runs
            if block.kind == "output" and not ran:
                wrong.append(f"{block.page}:{block.line}")
    assert wrong == []


def test_a_marker_needs_its_reason(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("<!-- not run -->\n```sh\nfalse\n```\n", "utf-8")
    with pytest.raises(ValueError, match="not run: REASON"):
        blocks(page, "page.md")
    page.write_text("<!-- not run: no network here -->\n\n```sh\nfalse\n```\n", "utf-8")
    assert blocks(page, "page.md") == [Block("page.md", 4, "sh", "false\n", "no network here")]
    page.write_text("<!-- not run: why -->\n```json\n{}\n```\n", "utf-8")
    with pytest.raises(ValueError, match="never runs"):
        blocks(page, "page.md")


def test_an_indented_block_is_read_without_its_indentation(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("- an item:\n\n  ```python\n  x = 1\n  ```\n", "utf-8")
    (block,) = blocks(page, "page.md")
    assert (block.language, block.code, block.runs) == ("python", "x = 1\n", True)


def test_the_quick_start_is_two_commands_the_second_what_ci_runs() -> None:
    """The README's quick start: one command runs the main job on a bundled example, the other
    installs the test extras and runs the suite exactly as ``.ci/run`` does."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    block = next(b for b in blocks(ROOT / "README.md", "README.md")
                 if f"```sh\n{b.code}```" in section)
    commands = [line for line in block.code.splitlines()
                if line.strip() and not line.lstrip().startswith("#")]
    assert len(commands) == 2
    assert "toolwire extract --example openai" in commands[0]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    install = next(line for line in ci if "pip install" in line and "-e" in line)
    test = next(line for line in ci if line.strip().endswith("-m pytest"))
    assert "pip install -e '.[test]'" in commands[1] and "'.[test]'" in install
    assert commands[1].endswith(test.strip())


def test_a_failing_block_fails_its_page_naming_the_line(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# A page\n\n```python\nx = 1\n```\n\n```python\nassert x == 2\n```\n"
                    "<!-- not run: never -->\n```sh\nfalse\n```\n", "utf-8")
    done = _run(blocks(page, "page.md"), tmp_path)
    assert done.returncode == 1
    assert 'File "page.md", line 8' in done.stderr
    page.write_text("```sh\nls openai.json\nfalse\n```\n", "utf-8")
    done = _run(blocks(page, "page.md"), tmp_path / "again")
    assert done.returncode == 1 and done.stdout == "openai.json\n"
    assert "page.md:2: the shell block exits 1" in done.stderr


def test_a_console_block_must_print_exactly_its_lines(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```console\n$ echo one\none\n$ toolwire sniff gemini.json\ngemini\n```\n",
                    "utf-8")
    assert _run(blocks(page, "page.md"), tmp_path).returncode == 0
    page.write_text("```console\n$ echo one\ntwo\n```\n", "utf-8")
    done = _run(blocks(page, "page.md"), tmp_path / "again")
    assert done.returncode == 1 and "the page shows ['two']" in done.stderr


def test_shown_output_is_matched_line_by_line() -> None:
    output = ["ok: 1 spec(s) valid", "PASS cases/a.json::0 (a)"]
    assert printed("ok: 1 spec(s) valid\n...\nPASS cases/a.json...\n", output) == []
    assert printed("ok: 2 spec(s) valid\n", output) == ["ok: 2 spec(s) valid"]
