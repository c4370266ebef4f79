"""``extends:``: how a derived spec is merged onto its base (specs/README.md §1.6).

The located errors (unknown base, cycles, removals, clashes found in the merged spec) are
conformance cases under ``specs/conformance/spec-validation``; these tests pin the merge
itself and where bases are looked up.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from toolwire import Registry
from toolwire._spec.wire_file import load_wire_spec
from toolwire._spec.wirespec import WireSpec
from toolwire.errors import SpecError

BASE = """\
spec_version: 1
format: demo
title: Demo format
doc_ref: https://example.invalid/docs
description: The base's own words.
x-origin: base
sniff: {when: "type(items) == 'array'", priority: 10}
items:
  - select: "items"
    type_field: type
truncated: "stop == 'length'"
finish_reason: "stop"
unknown_items: refuse
calls:
  - type: call
    name: "name"
    arguments: "args"
    id: "id"
  - type: lookup
    name: "name"
    arguments: "query"
ignore:
  - type: text
refuse:
  - type: action
    reason: "An action needs the client's own handler."
"""

HEAD = """\
spec_version: 1
format: dialect
extends: demo
title: Demo dialect
doc_ref: https://example.invalid/dialect
"""


PATCH = HEAD.replace("dialect", "openai").replace("extends: demo", "extends: openai")


def load(tmp_path: Path, derived: str, base: str = BASE) -> WireSpec:
    (tmp_path / "demo.yaml").write_text(base, encoding="utf-8")
    path = tmp_path / "dialect.yaml"
    path.write_text(HEAD + derived, encoding="utf-8")
    return load_wire_spec(path)


def listing(spec: WireSpec) -> list[tuple[str, str]]:
    return [(e.kind, e.type) for e in spec.entries]


def test_a_derived_spec_takes_everything_it_does_not_state(tmp_path: Path) -> None:
    spec = load(tmp_path, "")
    base = load_wire_spec(tmp_path / "demo.yaml")
    assert listing(spec) == listing(base)
    assert spec.unknown_items == "refuse"
    assert spec.truncated is not None and spec.truncated.source == "stop == 'length'"
    assert spec.finish_reason is not None and spec.finish_reason.source == "stop"
    assert [s.select.source for s in spec.sources] == ["items"]


def test_own_keys_are_never_inherited(tmp_path: Path) -> None:
    spec = load(tmp_path, "")
    assert (spec.format, spec.title, spec.doc_ref) == ("dialect", "Demo dialect",
                                                       "https://example.invalid/dialect")
    assert spec.sniff is None
    assert "description" not in spec.data
    assert "x-origin" not in spec.data
    assert spec.data["extends"] == "demo"


def test_scalar_keys_given_replace_the_bases(tmp_path: Path) -> None:
    spec = load(tmp_path, 'truncated: "stop == \'max\'"\nunknown_items: report\n')
    assert spec.truncated is not None and spec.truncated.source == "stop == 'max'"
    assert spec.unknown_items == "report"
    assert spec.finish_reason is not None and spec.finish_reason.source == "stop"


def test_items_replace_the_bases_sources_wholesale(tmp_path: Path) -> None:
    spec = load(tmp_path, 'items:\n  - select: "other"\n    type_const: call\n')
    assert [s.select.source for s in spec.sources] == ["other"]


def test_an_entry_of_the_same_type_and_when_replaces_the_base_entry_in_place(
    tmp_path: Path,
) -> None:
    spec = load(tmp_path, 'calls:\n  - type: call\n    name: "tool"\n    arguments: "args"\n')
    calls = spec.data["calls"]
    assert [c["type"] for c in calls] == ["call", "lookup"]
    assert calls[0] == {"type": "call", "name": "tool", "arguments": "args"}


def test_an_entry_of_a_new_type_is_appended_after_the_bases(tmp_path: Path) -> None:
    spec = load(tmp_path, "ignore:\n  - type: reasoning\n")
    assert [e["type"] for e in spec.data["ignore"]] == ["text", "reasoning"]


def test_an_entry_in_another_list_moves_the_type_there(tmp_path: Path) -> None:
    spec = load(tmp_path, 'calls:\n  - type: action\n    name: "name"\n    arguments: "args"\n')
    assert ("refuse", "action") not in listing(spec)
    assert [c["type"] for c in spec.data["calls"]] == ["call", "lookup", "action"]
    assert spec.data["refuse"] == []


def test_an_entry_with_another_when_is_added_not_replaced(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as caught:
        load(tmp_path, "ignore:\n  - {type: text, when: \"hidden == `true`\"}\n")
    assert [(Path(p.path).name, p.pointer, p.rule) for p in caught.value.problems] == [
        ("demo.yaml", "/ignore/0", "when-required")
    ]


def test_remove_drops_a_base_entry(tmp_path: Path) -> None:
    removals = "remove:\n  - {list: calls, type: lookup}\n  - {list: ignore, type: text}\n"
    spec = load(tmp_path, removals)
    assert listing(spec) == [("refuse", "action"), ("calls", "call")]
    assert "remove" not in spec.data


def test_a_clash_in_the_merged_spec_names_the_derived_file(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as caught:
        load(tmp_path, "ignore:\n  - {type: action, when: \"quiet == `true`\"}\n")
    (problem,) = caught.value.problems
    assert Path(problem.path).name == "demo.yaml"
    assert (problem.pointer, problem.rule, problem.line) == ("/refuse/0", "when-required", 25)
    assert "dialect.yaml" in problem.message


def test_a_chain_of_bases_resolves_base_first(tmp_path: Path) -> None:
    (tmp_path / "middle.yaml").write_text(
        HEAD.replace("format: dialect", "format: middle") + "ignore:\n  - type: reasoning\n",
        encoding="utf-8",
    )
    (tmp_path / "demo.yaml").write_text(BASE, encoding="utf-8")
    top = tmp_path / "top.yaml"
    top.write_text(
        HEAD.replace("format: dialect", "format: top").replace("extends: demo", "extends: middle")
        + 'truncated: "`false`"\n',
        encoding="utf-8",
    )
    spec = load_wire_spec(top)
    assert [e["type"] for e in spec.data["ignore"]] == ["text", "reasoning"]
    assert spec.truncated is not None and spec.truncated.source == "`false`"
    assert spec.data["extends"] == "middle"


def test_a_bundled_dialect_loads_on_its_own_from_its_file() -> None:
    root = Path(__file__).resolve().parent.parent / "specs" / "wire"
    spec = load_wire_spec(root / "mistral.yaml")
    assert spec.data["extends"] == "openai"
    assert listing(spec) == listing(load_wire_spec(root / "openai.yaml"))


def test_a_single_file_may_extend_a_bundled_spec(tmp_path: Path) -> None:
    path = tmp_path / "acme.yaml"
    path.write_text(HEAD.replace("dialect", "acme").replace("extends: demo", "extends: openai"),
                    encoding="utf-8")
    assert listing(load_wire_spec(path)) == listing(Registry.bundled().spec("openai"))


def test_a_dialect_without_sniff_sniffs_as_its_base() -> None:
    registry = Registry.bundled()
    reply = {"choices": [{"message": {"tool_calls": []}, "finish_reason": "stop"}]}
    assert registry.spec("deepseek").sniff is None
    assert registry.sniff_format(reply) == "openai"


def test_a_user_spec_may_extend_a_bundled_one(tmp_path: Path) -> None:
    (tmp_path / "acme.yaml").write_text(
        HEAD.replace("dialect", "acme").replace("extends: demo", "extends: mistral"),
        encoding="utf-8",
    )
    registry = Registry.from_paths(tmp_path)
    acme, mistral = registry.spec("acme").truncated, registry.spec("mistral").truncated
    assert acme is not None and mistral is not None and acme.source == mistral.source


def test_a_spec_extending_its_own_name_patches_the_earlier_one(tmp_path: Path) -> None:
    (tmp_path / "openai.yaml").write_text(
        PATCH
        + 'sniff: {when: "type(choices) == \'array\'", priority: 100}\n'
        + "ignore:\n  - type: reasoning\n",
        encoding="utf-8",
    )
    registry = Registry.from_paths(tmp_path)
    assert ("ignore", "reasoning") in listing(registry.spec("openai"))
    assert "openai" in registry.replaced


def test_a_bundled_dialect_keeps_the_bundled_base_when_a_user_replaces_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "openai.yaml").write_text(
        PATCH
        + 'truncated: "`false`"\n',
        encoding="utf-8",
    )
    registry = Registry.from_paths(tmp_path)
    deepseek = registry.spec("deepseek").truncated
    assert deepseek is not None and deepseek.source == "choices[0].finish_reason == 'length'"
