"""Every Python and shell block of the documentation pages (``docs/**/*.md``) runs, and prints
what its page shows: an example that no longer runs is documentation that lies.

Each page runs in a fresh interpreter in an empty folder holding the bundled example replies
(``tests/doc_blocks.py`` says what each kind of block means and how a page runs). A block
that cannot run here is marked ``<!-- not run: REASON -->``, and the reason is required. The
README's blocks run in ``tests/test_readme_examples.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from doc_blocks import ROOT, Block, blocks, check_page, printed, run_page

PAGES = sorted((ROOT / "docs").rglob("*.md"))
README_BLOCKS = blocks(ROOT / "README.md", "README.md")
BLOCKS = {page: blocks(page, page.relative_to(ROOT).as_posix()) for page in PAGES}
RUN = [page for page in PAGES if any(block.runs for block in BLOCKS[page])]


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("page", RUN, ids=_name)
def test_the_pages_blocks_run_and_print_what_it_shows(page: Path, tmp_path: Path) -> None:
    skipped = check_page(BLOCKS[page], tmp_path)
    if skipped is not None:
        pytest.skip(skipped)


def test_every_page_with_blocks_has_one_that_runs() -> None:
    """The runner is given the pages that have a block to run: a page whose every block is
    marked ``not run`` would drop out silently."""
    assert RUN, "no documentation page has a block that runs"
    assert {_name(page) for page in RUN} >= {"docs/reading.md", "docs/tool-loop.md",
                                            "docs/streaming.md", "docs/text-formats.md",
                                            "docs/batch.md", "docs/cli.md", "docs/specs.md",
                                            "docs/writing-specs.md"}


def test_output_blocks_follow_a_block_that_runs() -> None:
    """A fenced block without a language is output; one before anything runs on its page is
    more likely a command that lost its language."""
    wrong = []
    for found in [*BLOCKS.values(), README_BLOCKS]:
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


def test_a_failing_block_fails_its_page_naming_the_line(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# A page\n\n```python\nx = 1\n```\n\n```python\nassert x == 2\n```\n"
                    "<!-- not run: never -->\n```sh\nfalse\n```\n", "utf-8")
    done = run_page(blocks(page, "page.md"), tmp_path)
    assert done.returncode == 1
    assert 'File "page.md", line 8' in done.stderr
    page.write_text("```sh\nls openai.json\nfalse\n```\n", "utf-8")
    done = run_page(blocks(page, "page.md"), tmp_path / "again")
    assert done.returncode == 1 and done.stdout == "openai.json\n"
    assert "page.md:2: the shell block exits 1" in done.stderr


def test_a_console_block_must_print_exactly_its_lines(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```console\n$ echo one\none\n$ toolwire sniff gemini.json\ngemini\n```\n",
                    "utf-8")
    assert run_page(blocks(page, "page.md"), tmp_path).returncode == 0
    page.write_text("```console\n$ echo one\ntwo\n```\n", "utf-8")
    done = run_page(blocks(page, "page.md"), tmp_path / "again")
    assert done.returncode == 1 and "the page shows ['two']" in done.stderr


def test_shown_output_is_matched_line_by_line() -> None:
    output = ["ok: 1 spec(s) valid", "PASS cases/a.json::0 (a)"]
    assert printed("ok: 1 spec(s) valid\n...\nPASS cases/a.json...\n", output) == []
    assert printed("ok: 2 spec(s) valid\n", output) == ["ok: 2 spec(s) valid"]
