"""Every relative link of the README, of the documentation pages and of the documents the site
publishes from elsewhere resolves: to a file of the repository, and a ``#fragment`` to a heading
of a Markdown target. Links are written between repository files so one link works on a
repository browser and on the site (``tools/site/hooks.py`` maps them), so a fragment must be
the heading's id both as GitHub makes it and as MkDocs does. This needs no MkDocs:
``tests/test_docs_site.py`` builds the site itself where MkDocs is installed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
         ROOT / "specs" / "README.md", ROOT / "specs" / "CHANGELOG.md",
         ROOT / "specs" / "CONTRIBUTING.md", ROOT / "tools" / "js" / "README.md"]

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+).*?\1")
# [text](target) and ![alt](target), the text possibly holding code spans (removed first).
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s|$)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
ATTR_ID = re.compile(r"\{[^}]*#([\w-]+)[^}]*\}\s*$")
SCHEME = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:")


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of each line outside fenced code."""
    out, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            out.append((number, line))
    return out


def links(text: str) -> list[tuple[int, str]]:
    """(line number, target) of every link of a Markdown text, inline and reference."""
    found = []
    for number, line in prose_lines(text):
        line = CODE_SPAN.sub(lambda span: "x" if "](" not in span[0] else "", line)
        found += [(number, match[1]) for match in LINK.finditer(line)]
        found += [(number, match[1]) for match in REFERENCE.finditer(line)]
    return found


def github_id(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def mkdocs_id(heading: str) -> str:
    """Python-Markdown's ``toc`` slugify, as MkDocs uses it."""
    text = re.sub(r"[^\w\s-]", "", heading.replace("`", "")).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(text: str) -> tuple[set[str], set[str]]:
    """The heading ids of a Markdown text as GitHub and as MkDocs make them; an explicit
    ``{#id}`` counts for both."""
    gh: set[str] = set()
    mk: set[str] = set()
    for _, line in prose_lines(text):
        match = HEADING.match(line)
        if match is None:
            continue
        title = match[1]
        explicit = ATTR_ID.search(title)
        if explicit:
            gh.add(explicit[1])
            mk.add(explicit[1])
            title = title[: explicit.start()].rstrip()
        gh.add(github_id(title))
        mk.add(mkdocs_id(title))
    return gh, mk


def broken(page: Path, text: str) -> list[str]:
    """What is wrong with the relative links of ``text``, the content of ``page``."""
    wrong = []
    for number, target in links(text):
        if SCHEME.match(target) or target.startswith("/"):
            continue
        path, _, fragment = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        where = f"{page.relative_to(ROOT) if page.is_relative_to(ROOT) else page.name}:{number}"
        if path and not resolved.exists():
            wrong.append(f"{where}: {target}: no such file")
        elif fragment and resolved.suffix == ".md":
            source = text if resolved == page else resolved.read_text(encoding="utf-8")
            gh, mk = anchors(source)
            if fragment not in gh or fragment not in mk:
                wrong.append(f"{where}: {target}: no heading with that id"
                             f" (on GitHub: {fragment in gh}, on the site: {fragment in mk})")
    return wrong


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken(page, page.read_text(encoding="utf-8")) == []


def test_the_pages_have_links_to_check() -> None:
    assert sum(len(links(page.read_text(encoding="utf-8"))) for page in PAGES) > 50


def test_a_missing_file_or_heading_is_reported(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other page\n\n## Tool loop: `answer()`\n", "utf-8")
    page = tmp_path / "page.md"
    text = ("# Page\n\n[ok](other.md) [ok](other.md#tool-loop-answer) [ok](#page)"
            " [`code`](other.md#other-page) [web](https://example.invalid/x.md)\n"
            "```\n[not a link](gone.md)\n```\n"
            "[gone](gone.md) and `[a span](gone.md)`\n[anchor](other.md#nowhere)\n"
            "[ref]: gone-too.md\n")
    assert broken(page, text) == [
        "page.md:7: gone.md: no such file",
        "page.md:8: other.md#nowhere: no heading with that id (on GitHub: False, on the site:"
        " False)",
        "page.md:9: gone-too.md: no such file",
    ]


def test_a_fragment_must_name_the_heading_on_github_and_on_the_site() -> None:
    heading = "Batch — rows and Spark"
    assert github_id(heading) == "batch--rows-and-spark"
    assert mkdocs_id(heading) == "batch-rows-and-spark"
    gh, mk = anchors(f"## {heading}\n")
    assert ("batch--rows-and-spark" in gh, "batch--rows-and-spark" in mk) == (True, False)
