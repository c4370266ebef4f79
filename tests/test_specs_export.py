"""``toolwire specs export DIR``: every spec, merged, as plain JSON beside the meta-schemas."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema

import toolwire
from toolwire.cli import main


def _export(tmp_path: Path) -> dict[str, object]:
    out = io.StringIO()
    assert main(["specs", "export", str(tmp_path)], out) == 0
    assert out.getvalue().splitlines()[0] == str(tmp_path / "specs.json")
    data: dict[str, object] = json.loads((tmp_path / "specs.json").read_text("utf-8"))
    return data


def test_every_exported_spec_validates_against_its_exported_meta_schema(tmp_path: Path) -> None:
    data = _export(tmp_path)
    wire = json.loads((tmp_path / "schema" / "wire-spec.v1.schema.json").read_text("utf-8"))
    text = json.loads((tmp_path / "schema" / "text-spec.v1.schema.json").read_text("utf-8"))
    registry = toolwire.Registry.bundled()
    assert sorted(data["wire"]) == sorted(registry.formats())  # type: ignore[call-overload]
    assert sorted(data["text"]) == sorted(registry.text_formats())  # type: ignore[call-overload]
    for spec in data["wire"].values():  # type: ignore[attr-defined]
        jsonschema.Draft7Validator(wire).validate(spec)
    for spec in data["text"].values():  # type: ignore[attr-defined]
        jsonschema.Draft7Validator(text).validate(spec)


def test_a_dialect_is_exported_merged_with_its_base(tmp_path: Path) -> None:
    data = _export(tmp_path)
    groq = data["wire"]["groq"]  # type: ignore[index]
    openai = data["wire"]["openai"]  # type: ignore[index]
    assert "extends" not in groq and groq["x-extended-from"] == "openai"
    assert groq["calls"] == openai["calls"] and groq["stream"]["framing"] == "sse"
    assert [entry["type"] for entry in groq["server_side"]] == ["executed_tool"]
    assert "executed_tool" not in [e["type"] for e in openai.get("server_side", [])]


def test_expressions_are_exported_as_their_source_text(tmp_path: Path) -> None:
    data = _export(tmp_path)
    anthropic = data["wire"]["anthropic"]  # type: ignore[index]
    assert anthropic["calls"][0]["name"] == "name"
    assert isinstance(anthropic["truncated"], str)


def _export_into(folder: Path, *flags: str) -> tuple[int, str]:
    import contextlib

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["specs", "export", str(folder), *flags], out)
    return code, err.getvalue()


def test_an_existing_export_is_replaced_only_with_force(tmp_path: Path) -> None:
    (tmp_path / "schema").mkdir()
    mine = tmp_path / "schema" / "wire-spec.v1.schema.json"
    mine.write_text("mine\n", encoding="utf-8")
    code, err = _export_into(tmp_path)
    assert code == 1 and err == f"toolwire: input: {mine} exists; pass --force to replace it\n"
    assert mine.read_text(encoding="utf-8") == "mine\n"
    assert not (tmp_path / "specs.json").exists()  # nothing written at all
    assert _export_into(tmp_path, "--force")[0] == 0
    assert json.loads(mine.read_text(encoding="utf-8"))["title"]


def test_a_link_out_of_the_folder_is_never_written_through(tmp_path: Path) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text("keep\n", encoding="utf-8")
    folder = tmp_path / "export"
    folder.mkdir()
    (folder / "specs.json").symlink_to(outside)
    code, err = _export_into(folder)
    assert code == 1 and "specs.json exists; pass --force" in err
    assert _export_into(folder, "--force")[0] == 0  # the link is replaced, not followed
    assert not (folder / "specs.json").is_symlink()
    assert outside.read_text(encoding="utf-8") == "keep\n"


def test_a_schema_folder_linked_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder = tmp_path / "export"
    folder.mkdir()
    (folder / "schema").symlink_to(elsewhere)
    code, err = _export_into(folder)
    assert code == 1 and "is a link out of" in err and err.count("\n") == 1
    assert list(elsewhere.iterdir()) == [] and not (folder / "specs.json").exists()
