"""The README is what a newcomer reads first, and it holds: its examples run as written, in
order, and print what it shows (``tests/doc_blocks.py`` says how a page runs); its quick start
is the two commands CI runs; it stays short, and every page of the documentation is one link
away from it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from doc_blocks import ROOT, blocks, check_page

README = ROOT / "README.md"
BLOCKS = blocks(README, "README.md")
MAX_LINES = 350


def test_the_readmes_blocks_run_and_print_what_it_shows(tmp_path: Path) -> None:
    assert [block for block in BLOCKS if block.kind == "python" and block.runs]
    skipped = check_page(BLOCKS, tmp_path)
    if skipped is not None:
        pytest.skip(skipped)


def test_the_quick_start_is_two_commands_the_second_what_ci_runs() -> None:
    """One command installs the package and runs the main job on a bundled example; the other
    installs the test extras and runs the suite exactly as ``.ci/run`` does."""
    readme = README.read_text(encoding="utf-8")
    section = readme.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    block = next(b for b in BLOCKS if f"```sh\n{b.code}```" in section)
    commands = [line for line in block.code.splitlines()
                if line.strip() and not line.lstrip().startswith("#")]
    assert len(commands) == 2
    assert "pip install ." in commands[0]
    assert commands[0].endswith("toolwire extract --example openai")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    install = next(line for line in ci if "pip install" in line and "-e" in line)
    test = next(line for line in ci if line.strip().endswith("-m pytest"))
    assert "pip install -e '.[test]'" in commands[1] and "'.[test]'" in install
    assert commands[1].endswith(test.strip())


def test_the_readme_stays_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_LINES, (
        f"README.md has {len(lines)} lines (at most {MAX_LINES}): move the detail to a page"
        " under docs/ and link it")


def test_the_tour_reads_a_reply_loops_streams_reads_text_and_loads_a_spec() -> None:
    readme = README.read_text(encoding="utf-8")
    tour = readme.split("\n## A five-minute tour\n", 1)[1].split("\n## ", 1)[0]
    assert re.findall(r"^### (.+)$", tour, re.MULTILINE)[:5] == [
        "Read a reply", "Run the tool loop", "Stream", "Tool calls in model text",
        "A spec of your own"]


def test_every_documentation_page_is_linked_from_the_readme() -> None:
    """A section moved out of the README is one link away from it."""
    readme = README.read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\((docs/[^)#\s]+)", readme))
    pages = {page.relative_to(ROOT).as_posix() for page in (ROOT / "docs").glob("*.md")}
    assert pages - linked == set()
    assert "docs/api/index.md" in linked


def test_the_number_of_text_formats_the_readme_states_is_the_bundled_count() -> None:
    from toolwire._text import bundled_text_specs

    readme = README.read_text(encoding="utf-8")
    stated = re.findall(r"any of (\d+) formats", readme)
    assert stated == [str(len(bundled_text_specs()))]
