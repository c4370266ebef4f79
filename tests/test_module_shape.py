"""Every module of src/toolwire has a name no other module has, and no function runs past
80 lines: a name that repeats says less than it should, and a long function does more than
one thing. Package files (``__init__``, ``__main__``) are named by their package."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src" / "toolwire"
MAX_FUNCTION_LINES = 80
PACKAGE_FILES = frozenset({"__init__.py", "__main__.py"})


def repeated_basenames(root: Path) -> dict[str, list[str]]:
    """Module file names found more than once below ``root`` (package files aside)."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        if path.name not in PACKAGE_FILES:
            where[path.name].append(path.relative_to(root).as_posix())
    return {name: paths for name, paths in where.items() if len(paths) > 1}


def long_functions(root: Path, limit: int) -> list[str]:
    """``path::name (lines)`` for every function or method below ``root`` over ``limit``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    found.append(f"{path.relative_to(root).as_posix()}::{node.name} ({lines})")
    return found


def test_no_two_modules_share_a_name() -> None:
    assert repeated_basenames(SOURCE) == {}


def test_no_function_is_longer_than_80_lines() -> None:
    assert long_functions(SOURCE, MAX_FUNCTION_LINES) == []


def test_the_checks_find_a_repeated_name_and_a_long_function(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for folder in ("a", "b"):
        (tmp_path / folder / "__init__.py").write_text("")
        (tmp_path / folder / "same.py").write_text("")
    body = "".join(f"    x{i} = {i}\n" for i in range(80))
    (tmp_path / "a" / "long.py").write_text(f"def long() -> None:\n{body}\n\ndef short() -> None:\n"
                                            "    pass\n")
    assert repeated_basenames(tmp_path) == {"same.py": ["a/same.py", "b/same.py"]}
    assert long_functions(tmp_path, MAX_FUNCTION_LINES) == ["a/long.py::long (81)"]
    assert long_functions(tmp_path, 81) == []
