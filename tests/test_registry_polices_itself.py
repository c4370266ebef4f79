"""The bundled specs and the suite police themselves, naming each offender.

In the manner of GitHub linguist's pedantic tests: a spec entry no conformance case
exercises, a case filed under the wrong format, a spec without its schema line, or a
meta-schema key without a description fails here with its name in the message.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolwire import Registry
from toolwire._spec.wirespec import WireSpec
from toolwire._wire import interpreter, walk
from toolwire.errors import MalformedResponse

from conformance import ROOT, SUITE, cases, each_test

REGISTRY = Registry.bundled()
WIRE_DIR = ROOT / "specs" / "wire"
SCHEMA_DIR = ROOT / "specs" / "schema"
WIRE_CASES = cases()


def entries_hit(spec: WireSpec, response: Any) -> set[tuple[str, int]]:
    """The (list, index) of every spec entry some item of ``response`` matches."""
    hit: set[tuple[str, int]] = set()
    try:
        response = interpreter.coerce_response(response, spec.format)
        for _, _, item, item_type in walk.walk(spec, response):
            entry = walk.match(spec, item, item_type)
            if entry is not None:
                hit.add((entry.kind, entry.index))
    except MalformedResponse:
        pass
    return hit


def test_every_spec_entry_is_exercised_by_a_conformance_case() -> None:
    hit: dict[str, set[tuple[str, int]]] = {fmt: set() for fmt in REGISTRY.formats()}
    for _, case, test in each_test(WIRE_CASES):
        fmt = case.data["format"] or REGISTRY.sniff_format(test["response"])
        if fmt in hit:
            hit[fmt] |= entries_hit(REGISTRY.spec(fmt), test["response"])
    missing = [
        f"{fmt}{entry.pointer} ({entry.type})"
        for fmt, spec in REGISTRY.specs().items()
        for entry in spec.entries
        if (entry.kind, entry.index) not in hit[fmt]
    ]
    assert missing == [], "spec entries no conformance case exercises"


def test_every_bundled_format_has_conformance_cases() -> None:
    folders = {p.name for p in SUITE.iterdir() if p.is_dir()}
    assert sorted(set(REGISTRY.formats()) - folders) == []


@pytest.mark.parametrize("case", WIRE_CASES, ids=[c.name for c in WIRE_CASES])
def test_conformance_case_is_filed_under_its_format(case: Any) -> None:
    folder = case.path.relative_to(SUITE).parts[0]
    assert folder in REGISTRY.formats(), f"{case.name}: no format {folder!r}"
    assert case.data["format"] in (folder, None)
    assert case.data["source"] in ("captured", "docs", "synthetic")
    assert case.data.get("description")
    assert case.data.get("tests"), f"{case.name} has no tests"
    if case.data["source"] != "synthetic":
        assert case.data.get("source_ref"), f"{case.name}: a non-synthetic case names its source"


@pytest.mark.parametrize("path", sorted(WIRE_DIR.glob("*.yaml")), ids=lambda p: p.name)
def test_spec_file_opens_with_its_schema_line(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../schema/wire-spec.v1.schema.json"


@pytest.mark.parametrize("path", sorted(WIRE_DIR.glob("*.yaml")), ids=lambda p: p.name)
def test_spec_format_matches_its_file_name(path: Path) -> None:
    assert REGISTRY.spec(path.stem).format == path.stem


def test_refusals_all_give_a_reason() -> None:
    for fmt, spec in REGISTRY.specs().items():
        for entry in spec.entries_of("refuse"):
            assert getattr(entry, "reason", "").strip(), f"{fmt}{entry.pointer}"


def test_every_bundled_format_declares_its_shape_and_error_body() -> None:
    missing = [f"{fmt} ({part})" for fmt, spec in REGISTRY.specs().items()
               for part in ("shape", "error") if getattr(spec, part) is None]
    assert missing == [], "formats that would read an error body or a stranger as 0 calls"


def test_every_error_declaration_has_a_provider_error_case() -> None:
    # a spec file that declares its own error body (not only its base's) has a case of it
    own = {path.stem for path in WIRE_DIR.glob("*.yaml")
           if "\nerror:" in path.read_text(encoding="utf-8")}
    covered = {name.split("/")[0] for name, _, test in each_test(WIRE_CASES)
               if test["expect"].get("error", {}).get("code") == "provider_error"}
    assert sorted(own - covered) == []


@pytest.mark.parametrize("path", sorted(SCHEMA_DIR.glob("*.json")), ids=lambda p: p.name)
def test_every_meta_schema_key_has_a_description(path: Path) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))
    undescribed: list[str] = []

    def visit(node: Any, where: str) -> None:
        if not isinstance(node, dict):
            return
        for key, sub in node.get("properties", {}).items():
            if not (isinstance(sub, dict) and sub.get("description")):
                undescribed.append(f"{where}/properties/{key}")
            visit(sub, f"{where}/properties/{key}")
        for name, sub in node.get("definitions", {}).items():
            visit(sub, f"{where}/definitions/{name}")
        if isinstance(node.get("items"), dict):
            visit(node["items"], f"{where}/items")

    visit(schema, "")
    assert undescribed == []
