"""``toolwire specs check [PATH ...]``: every problem of a user's specs, in one pass.

A user's files are loaded on top of the bundled specs (which they may extend), so a
check sees what ``TOOLWIRE_SPEC_PATH`` would. A path that does not exist, or a folder
without a single spec file, is a problem of its own: "ok: 0 specs" would pass a typo.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from pathlib import Path
    from typing import TextIO

    from ..errors import SpecProblem

__all__ = ["run_check"]


def _files(paths: list[Path]) -> tuple[list[Path], list[SpecProblem]]:
    from ..errors import SpecProblem
    from ..registry import _spec_files

    files: list[Path] = []
    problems: list[SpecProblem] = []
    for path in paths:
        if not path.exists():
            problems.append(SpecProblem(str(path), 0, 0, "", "no such file or folder",
                                        "unreadable"))
            continue
        found = _spec_files(path)
        if not found:
            problems.append(SpecProblem(str(path), 0, 0, "", "no spec files (*.yaml, *.yml) here",
                                        "unreadable"))
        files.extend(found)
    return files, problems


def _report(problems: list[SpecProblem]) -> int:
    import sys

    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"toolwire: {len(problems)} problem(s)", file=sys.stderr)
    return 1


def run_check(args: argparse.Namespace, out: TextIO) -> int:
    """Validate the given files and folders (default: the bundled specs)."""
    from pathlib import Path

    from ..errors import SpecError
    from ..paths import bundled_specs_dir
    from ..registry import Registry

    user = bool(args.paths)
    paths = [Path(p) for p in args.paths] or [bundled_specs_dir()]
    files, problems = _files(paths)
    if problems:
        return _report(problems)
    try:
        # A user's folder is checked on top of the bundled specs, which its specs may extend.
        Registry.from_paths(*paths, include_bundled=user)
    except SpecError as exc:
        return _report(list(exc.problems))
    out.write(f"ok: {len(files)} spec(s) valid\n")
    return 0
