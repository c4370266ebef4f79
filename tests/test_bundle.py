"""The precompiled bundle of the bundled wire specs is fresh, faithful, and never shadows YAML.

``src/toolwire/_spec/_bundle.json`` lets a process read replies without parsing YAML or JMESPath
(:mod:`toolwire._spec.bundle`); these tests make sure it says exactly what the spec files say.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from toolwire import Registry
from toolwire._spec.bundle import BUNDLE_PATH, load_bundled_specs, read_bundle, spec_expressions
from toolwire._spec.wirespec import WireSpec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import gen_bundle


def _shape(spec: WireSpec) -> dict[str, Any]:
    """Everything a spec means, with expressions as (source, AST) pairs."""
    return {
        "format": spec.format,
        "path": spec.path,
        "data": spec.data,
        "unknown_items": spec.unknown_items,
        "sniff_priority": spec.sniff_priority,
        "table": {t: [(e.kind, e.index) for e in es] for t, es in spec.table.items()},
        "expressions": [(e.source, e.ast) for e in spec_expressions(spec)],
    }


def test_the_bundle_is_fresh() -> None:
    assert Path(BUNDLE_PATH).read_text(encoding="utf-8") == gen_bundle.build_bundle(), (
        f"src/toolwire/_spec/_bundle.json is stale: run `{gen_bundle.COMMAND}`"
        " after editing specs/wire"
    )


def test_the_bundle_is_used_when_fresh() -> None:
    assert load_bundled_specs() is not None, (
        f"src/toolwire/_spec/_bundle.json is stale or unreadable: run `{gen_bundle.COMMAND}`"
    )


def test_bundled_specs_equal_the_yaml_specs() -> None:
    from_yaml = Registry.from_paths().specs()
    from_bundle = {spec.format: spec for spec in load_bundled_specs() or []}
    assert sorted(from_bundle) == sorted(from_yaml)
    for fmt, spec in from_yaml.items():
        assert _shape(from_bundle[fmt]) == _shape(spec), fmt


def test_bundled_registry_reads_like_the_yaml_registry() -> None:
    example = json.loads((Path(__file__).resolve().parent.parent / "specs" / "examples"
                          / "responses.json").read_text(encoding="utf-8"))
    assert Registry.bundled().read("responses", example) == Registry.from_paths().read(
        "responses", example
    )


def test_a_bundle_whose_sources_changed_is_not_used(tmp_path: Path) -> None:
    bundle = read_bundle()
    assert bundle is not None
    first = next(iter(bundle["sources"]))
    bundle["sources"][first] = "00000000:0"
    stale = tmp_path / "_bundle.json"
    stale.write_text(json.dumps(bundle), encoding="utf-8")
    assert load_bundled_specs(stale) is None


@pytest.mark.parametrize("content", ["", "{not json", '{"bundle_version": 999}', "[]"])
def test_an_unreadable_bundle_is_not_used(tmp_path: Path, content: str) -> None:
    broken = tmp_path / "_bundle.json"
    broken.write_text(content, encoding="utf-8")
    assert load_bundled_specs(broken) is None
    assert load_bundled_specs(tmp_path / "missing.json") is None


def test_a_bundle_in_another_layout_gives_the_same_specs(tmp_path: Path) -> None:
    # The reader finds each entry by gen_bundle's layout; any other layout of the same
    # JSON (here one line) is decoded whole, to the very same specs.
    bundle = read_bundle()
    assert bundle is not None
    flat = tmp_path / "_bundle.json"
    flat.write_text(json.dumps(bundle), encoding="utf-8")
    by_layout = {spec.format: _shape(spec) for spec in load_bundled_specs() or []}
    whole = {spec.format: _shape(spec) for spec in load_bundled_specs(flat) or []}
    assert whole == by_layout
    assert sorted(by_layout) == sorted(bundle_entry["format"] for bundle_entry in bundle["specs"])


def test_each_entry_holds_the_asts_of_its_own_expressions() -> None:
    bundle = read_bundle()
    assert bundle is not None
    for entry, spec in zip(bundle["specs"], load_bundled_specs() or [], strict=True):
        assert entry["format"] == spec.format
        assert set(entry["expressions"]) == {e.source for e in spec_expressions(spec)}
