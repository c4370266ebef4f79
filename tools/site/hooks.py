"""MkDocs hooks: the documents that live outside ``docs/`` become pages of the site.

The README, the normative spec language (``specs/README.md``), its changelog and checklist and
the JavaScript package's README stay where a reader of the repository expects them, and each
is written once. The site publishes them under the names in ``PUBLISHED`` (read from the
repository at build time, so the site and the repository never disagree), and every relative
link of every page is written as a link between repository files — ``docs/streaming.md`` from
the README, ``../specs/README.md`` from a guide — so the same link works on a repository browser
and on the site: this hook maps each to the page the site holds for that file. A link to a
repository file the site does not publish stays as written, and ``mkdocs build --strict``
fails on it.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

ROOT = Path(__file__).resolve().parent.parent.parent

PUBLISHED = {
    "README.md": "index.md",
    "specs/README.md": "spec/reference.md",
    "specs/CHANGELOG.md": "spec/changelog.md",
    "specs/CONTRIBUTING.md": "spec/contributing.md",
    "specs/VERSION": "spec/VERSION",
    "tools/js/README.md": "javascript.md",
}
"""Repository path of each document published from outside ``docs/`` → its path on the site."""

SOURCES = {site: repo for repo, site in PUBLISHED.items()}

FENCE = re.compile(r"^\s*(```|~~~)")
# [text](target) and ![alt](target); the text may hold code spans, never a closing bracket.
LINK = re.compile(r"(!?\[[^\]]*\]\()([^)\s]+)(\))")


def on_config(config: MkDocsConfig, **kwargs: Any) -> MkDocsConfig:
    """Griffe extensions given as a path are read relative to the current directory: make the
    ones in mkdocs.yml relative to the repository, so a build started anywhere finds them."""
    options = config.plugins["mkdocstrings"].config["handlers"]["python"]["options"]
    options["extensions"] = [
        str(ROOT / extension) if isinstance(extension, str) and extension.endswith(".py")
        else extension
        for extension in options.get("extensions", [])
    ]
    return config


def on_files(files: Files, config: MkDocsConfig, **kwargs: Any) -> Files:
    """Add the published documents as files of the site, read where they live."""
    for repo, site in PUBLISHED.items():
        files.append(File.generated(config, site, abs_src_path=str(ROOT / repo)))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, **kwargs: Any) -> str:
    """Rewrite each relative link, written between repository files, to the site's page."""
    site_path = page.file.src_uri
    repo_path = SOURCES.get(site_path, f"docs/{site_path}")
    out, fenced = [], False
    for line in markdown.splitlines(keepends=True):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            line = LINK.sub(lambda m: m[1] + site_link(m[2], repo_path, site_path) + m[3], line)
        out.append(line)
    return "".join(out)


def site_link(target: str, repo_path: str, site_path: str) -> str:
    """``target``, a link written in the repository file ``repo_path``, as a link from the
    site page ``site_path``; a URL, an anchor, or a file the site does not hold, unchanged."""
    if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:|[#/]", target):
        return target
    path, hash_, fragment = target.partition("#")
    repo_target = posixpath.normpath(posixpath.join(posixpath.dirname(repo_path), path))
    if repo_target.startswith("docs/"):
        site_target = repo_target.removeprefix("docs/")
    elif repo_target in PUBLISHED:
        site_target = PUBLISHED[repo_target]
    else:
        return target
    relative = posixpath.relpath(site_target, posixpath.dirname(site_path) or ".")
    return relative + hash_ + fragment
