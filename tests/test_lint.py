"""The code stays ruff-clean and ``mypy --strict``-clean: checked with the suite, not by memory."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_finds_nothing() -> None:
    # No cache: ruff's import sorting depends on which folders exist, and a cached verdict
    # from before a module moved can pass here and fail on a clean checkout.
    result = run("ruff", "check", "--no-cache", "src", "tests", "tools")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_finds_nothing() -> None:
    result = run("mypy", "--strict", "src/toolwire")
    assert result.returncode == 0, result.stdout + result.stderr
