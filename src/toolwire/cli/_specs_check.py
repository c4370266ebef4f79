"""``toolwire specs check [PATH ...]``: every problem of a user's specs, in one pass.

A user's files are loaded on top of the bundled specs (which they may extend), so a
check sees what ``TOOLWIRE_SPEC_PATH`` would. A path that does not exist, or a folder
without a single spec file, is a problem of its own: "ok: 0 specs" would pass a typo.

Beyond loading, a user's specs are held to two rules only the check applies
(specs/README.md §2.1): no field of a ``specs new`` skeleton left ``TODO``
(``todo-left``), and no sniff predicate holding together with another format's on a reply
of the bundled suite, the bundled examples or the user's own cases (``sniff-overlap``):
such a tie is decided by priority or name alone, silently.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .._paths import bundled_specs_dir
from .._registry.loading import spec_files
from .._registry.registry import Registry
from .._spec.document import read_document
from .._spec.skeleton import todo_problems
from .._spec.sniff_overlap import Response, case_responses, overlaps
from ..errors import SpecError, SpecProblem

if TYPE_CHECKING:
    import argparse
    from pathlib import Path
    from typing import TextIO

    from .._registry.registry import Registry
    from ..errors import SpecProblem

__all__ = ["run_check"]


def _files(paths: list[Path]) -> tuple[list[Path], list[SpecProblem]]:

    files: list[Path] = []
    problems: list[SpecProblem] = []
    for path in paths:
        if not path.exists():
            problems.append(SpecProblem(str(path), 0, 0, "", "no such file or folder",
                                        "unreadable"))
            continue
        found = spec_files(path)
        if not found:
            problems.append(SpecProblem(str(path), 0, 0, "", "no spec files (*.yaml, *.yml) here",
                                        "unreadable"))
        files.extend(found)
    return files, problems


def _todo_problems(files: list[Path]) -> list[SpecProblem]:

    return [p for f in files for p in todo_problems(read_document(f))]


def _overlap_problems(
    registry: Registry, files: list[Path], paths: list[Path]
) -> list[SpecProblem]:
    """A user's format whose sniff holds with another's on a known reply, at its ``sniff``."""


    mine = {str(f.resolve()): f for f in files}
    user = {name: mine[str(Path(spec.path).resolve())] for name, spec in registry.specs().items()
            if str(Path(spec.path).resolve()) in mine}
    root = bundled_specs_dir()
    suite = root / "conformance"
    replies: list[Response] = [
        replace(r, name=f"conformance/{r.name}")
        for r in case_responses(sorted(suite.glob("*/*.json")), suite)
    ]
    for example in sorted((root / "examples").glob("*.json")):  # bare replies, not cases
        replies.append(Response(f"examples/{example.name}", example.stem,
                                json.loads(example.read_text(encoding="utf-8")), {}))
    for folder in paths:
        if folder.is_dir():
            replies += case_responses(sorted(folder.rglob("*.json")), folder)
    problems: list[SpecProblem] = []
    for overlap in overlaps(registry, replies, involving=frozenset(user)):
        if not overlap.wrong:  # a higher priority claiming its own replies, by design
            continue
        for name in (overlap.first, overlap.second):
            if name in user:
                doc = read_document(user[name])
                problems.append(doc.problem("/sniff/when", overlap.message(), "sniff-overlap"))
    return problems


def _report(problems: list[SpecProblem]) -> int:
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"toolwire: {len(problems)} problem(s)", file=sys.stderr)
    return 1


def run_check(args: argparse.Namespace, out: TextIO) -> int:
    """Validate the given files and folders (default: the bundled specs)."""

    user = bool(args.paths)
    paths = [Path(p) for p in args.paths] or [bundled_specs_dir()]
    files, problems = _files(paths)
    if problems:
        return _report(problems)
    try:
        # A user's folder is checked on top of the bundled specs, which its specs may extend.
        registry = Registry.from_paths(*paths, include_bundled=user)
    except SpecError as exc:
        return _report(list(exc.problems))
    if user:
        problems = [*_todo_problems(files), *_overlap_problems(registry, files, paths)]
        if problems:
            return _report(sorted(problems, key=lambda p: (p.path, p.line, p.col, p.rule)))
    out.write(f"ok: {len(files)} spec(s) valid\n")
    return 0
