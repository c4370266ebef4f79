"""The audit table (``toolwire specs table``) and the page generated from it, docs/formats.md."""

from __future__ import annotations

import io
from pathlib import Path

from toolwire import Registry
from toolwire.cli import main
from toolwire.cli._audit import COLUMNS, GENERATE_COMMAND, formats_markdown, formats_table

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "formats.md"


def rows(table: str) -> dict[str, str]:
    """Each table row by its format name."""
    found: dict[str, str] = {}
    for line in table.splitlines()[2:]:
        name = line.split("|")[1].strip().strip("`")
        found[name] = line
    return found


def test_docs_formats_md_is_current() -> None:
    current = DOC.read_text(encoding="utf-8") if DOC.is_file() else ""
    assert current == formats_markdown(Registry.bundled()), (
        "docs/formats.md is stale: the bundled specs changed since it was generated. Regenerate"
        f" it with `PYTHONPATH=src python tools/gen_formats_doc.py` (or `{GENERATE_COMMAND}`)"
        " and commit the result."
    )


def test_every_bundled_format_has_one_row_in_name_order() -> None:
    table = formats_table(Registry.bundled().specs())
    lines = table.splitlines()
    assert lines[0] == "| " + " | ".join(COLUMNS) + " |"
    assert list(rows(table)) == list(Registry.bundled().formats())
    assert all(line.count(" | ") == len(COLUMNS) - 1 for line in lines[2:])


def test_pipes_in_expressions_are_escaped() -> None:
    row = rows(formats_table(Registry.bundled().specs()))["anthropic"]
    assert "\\|\\|" in row
    assert " || " not in row


def test_an_expression_holding_backticks_gets_a_longer_fence() -> None:
    row = rows(formats_table(Registry.bundled().specs()))["ollama"]
    assert "`` type(message) == 'object'" in row
    assert "== `1`) `` (55)" in row


def test_a_dialect_row_names_its_base_its_changes_and_how_it_sniffs() -> None:
    table = rows(formats_table(Registry.bundled().specs()))
    assert "none: sniffs as `openai`" in table["mistral"]
    assert "`openai`; changes: truncated" in table["mistral"]
    assert "`openai`; changes: none" in table["deepseek"]
    assert "+server_side `executed_tool`" in table["groq"]


def test_the_row_of_a_spec_shows_its_mapping() -> None:
    row = rows(formats_table(Registry.bundled().specs()))["bedrock"]
    assert "`output.message.content`: typed by the first key present" in row
    assert "`toolUse.name` / `toolUse.input` / `toolUse.toolUseId`" in row
    assert "`toolUse` when `toolUse.type == 'server_tool_use'`, `toolResult`" in row


def test_cli_specs_table_prints_the_page() -> None:
    out = io.StringIO()
    assert main(["specs", "table", "--bundled"], out) == 0
    assert out.getvalue() == formats_markdown(Registry.bundled())


def test_the_table_includes_a_users_formats(tmp_path: Path) -> None:
    (tmp_path / "acme.yaml").write_text(
        "spec_version: 1\nformat: acme\nextends: openai\ntitle: Acme\ndoc_ref: x\n",
        encoding="utf-8",
    )
    assert "acme" in rows(formats_table(Registry.from_paths(tmp_path).specs()))
