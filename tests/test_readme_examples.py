"""The README's Python examples marked ``<!-- readme-test -->`` run, and their asserts hold.

An example that no longer runs is documentation that lies; each marked block is executed
in a fresh namespace, in order, so a block may build on an earlier one of its section.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"<!-- readme-test -->\n```python\n(.*?)```", re.DOTALL)
BLOCKS = BLOCK.findall(README.read_text(encoding="utf-8"))


def test_the_readme_marks_examples() -> None:
    assert len(BLOCKS) >= 1


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index: int) -> None:
    pytest.importorskip("openai", reason="the examples use the SDK test extras")
    pytest.importorskip("anthropic", reason="the examples use the SDK test extras")
    pytest.importorskip("google.genai", reason="the examples use the SDK test extras")
    code = BLOCKS[index]
    exec(compile(code, f"README.md example {index}", "exec"), {"__name__": "readme"})
