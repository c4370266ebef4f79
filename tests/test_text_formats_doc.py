"""The docs' table of text formats (docs/text-formats.md) is generated and kept current."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import gen_text_formats

from toolwire._text import bundled_text_specs


def test_the_text_format_table_matches_the_specs() -> None:
    page = gen_text_formats.PAGE.read_text("utf-8")
    assert page == gen_text_formats.rendered(page), "run tools/gen_text_formats.py"


def test_the_table_lists_every_format_with_its_models() -> None:
    table = gen_text_formats.table()
    for fmt, spec in bundled_text_specs().items():
        row = next(line for line in table.splitlines() if line.startswith(f"| `{fmt}` |"))
        assert spec.models, f"{fmt} names the models that write it"
        assert all(model in row for model in spec.models)
