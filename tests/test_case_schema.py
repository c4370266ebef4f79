"""Every conformance case file is valid against ``specs/schema/conformance-case.v1.schema.json``.

The schema is what another implementation's runner reads to know a case file's shape;
the suite holding to it (and the schema refusing what it must) keeps both honest.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conformance import ROOT, SUITE

SCHEMA_PATH = ROOT / "specs" / "schema" / "conformance-case.v1.schema.json"
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
FILES = sorted(SUITE.rglob("*.json"))


def kind_of(path: Path) -> str:
    """The case kind a file's folder gives it (specs/README.md §4)."""
    top = path.relative_to(SUITE).parts[0]
    if top in ("expression", "interpreter", "spec-validation", "text", "tools"):
        return top
    return "stream" if path.name.startswith("stream_") else "wire"


def validator_for(kind: str) -> jsonschema.Draft7Validator:
    schema = {**SCHEMA, "oneOf": None, "$ref": f"#/definitions/{kind}"}
    del schema["oneOf"]
    return jsonschema.Draft7Validator(schema)


def problems(path: Path, data: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in validator_for(kind_of(path)).iter_errors(data)
    ]


def test_the_case_schema_is_a_valid_draft_07_schema() -> None:
    jsonschema.Draft7Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(SUITE).as_posix() for p in FILES])
def test_case_file_follows_the_case_schema(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert problems(path, data) == []
    assert jsonschema.Draft7Validator(SCHEMA).is_valid(data), "fits no kind of the top-level oneOf"


def test_the_schema_refuses_a_free_text_error_message_in_an_expectation() -> None:
    path = SUITE / "openai" / "nan_in_arguments_is_undecodable.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    broken = copy.deepcopy(data)
    call = broken["tests"][0]["expect"]["calls"][0]
    call["arguments_error"] = "NaN is not valid JSON"
    assert any("arguments_error" in p for p in problems(path, broken))
    del call["arguments_error"], call["arguments_error_code"]
    assert any("arguments_error_code" in p for p in problems(path, broken))


def test_the_schema_refuses_an_optional_marking_without_a_reason() -> None:
    path = SUITE / "interpreter" / "big_integers_stay_exact.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["optional"], "the exact-digits case is implementation-specific"
    assert any("optional" in p for p in problems(path, {**data, "optional": ""}))
    assert any("optional" in p for p in problems(path, {**data, "optional": True}))


def test_every_optional_case_says_why_in_a_sentence() -> None:
    marked = [json.loads(p.read_text(encoding="utf-8")) for p in FILES]
    reasons = [d["optional"] for d in marked if "optional" in d]
    assert reasons and all(len(r.split()) >= 5 for r in reasons)
