"""Loading text specs: every problem at once, each located ``path:line:col`` with its rule.

Tests assert on rule codes, pointers and places, never on message text.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolwire._spec import strict_yaml
from toolwire._text import TextSpec, bundled_text_specs, compile_text_spec, load_text_spec
from toolwire.errors import SpecError

ROOT = Path(__file__).resolve().parent.parent
TEXT_DIR = ROOT / "specs" / "text"
SCHEMA = ROOT / "specs" / "schema" / "text-spec.v1.schema.json"

VALID = """\
kind: text
spec_version: 1
format: demo
title: Demo
doc_ref: https://example.com/demo
params:
  tag:
    default: call
    pattern: "^[a-z]+$"
    description: The tag name.
block:
  open: ["<${tag}>"]
  close: "</${tag}>"
payload:
  - grammar: json
"""


def problems(source: str, path: str = "specs/text/demo.yaml") -> list[tuple[str, str, int, int]]:
    """``(rule, pointer, line, col)`` of every problem compiling ``source``."""
    with pytest.raises(SpecError) as caught:
        compile_text_spec(strict_yaml.load(source, path))
    return [(p.rule, p.pointer, p.line, p.col) for p in caught.value.problems]


def rules(source: str) -> list[str]:
    return [rule for rule, *_ in problems(source)]


def test_a_valid_spec_compiles_with_its_identity_and_params() -> None:
    spec = compile_text_spec(strict_yaml.load(VALID, "specs/text/demo.yaml"))
    assert isinstance(spec, TextSpec)
    assert (spec.format, spec.title, spec.doc_ref) == ("demo", "Demo", "https://example.com/demo")
    assert dict(spec.params) == {"tag": "call"}


def test_every_bundled_text_spec_loads() -> None:
    specs = bundled_text_specs()
    assert sorted(specs) == sorted(p.stem for p in TEXT_DIR.glob("*.yaml"))
    first_release = {
        "deepseek_v3", "deepseek_v31", "glm45", "granite", "hermes",
        "kimi_k2", "llama3_json", "mistral", "pythonic", "qwen3_coder",
    }
    assert first_release <= set(specs)


def test_every_alias_names_one_format_only() -> None:
    specs = bundled_text_specs()
    aliases = [alias for spec in specs.values() for alias in spec.aliases]
    assert len(aliases) == len(set(aliases))
    assert not set(aliases) & set(specs)


def test_bundled_text_specs_are_loaded_once_and_handed_out_as_a_copy() -> None:
    first, second = bundled_text_specs(), bundled_text_specs()
    assert first == second and first is not second
    assert first["hermes"] is second["hermes"]


@pytest.mark.parametrize("path", sorted(TEXT_DIR.glob("*.yaml")), ids=lambda p: p.name)
def test_text_spec_file_opens_with_its_schema_line(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../schema/text-spec.v1.schema.json"


@pytest.mark.parametrize("path", sorted(TEXT_DIR.glob("*.yaml")), ids=lambda p: p.name)
def test_text_spec_file_loads_by_path_with_its_format_as_its_name(path: Path) -> None:
    assert load_text_spec(path).format == path.stem


def test_the_meta_schema_is_valid_draft_07() -> None:
    import jsonschema

    jsonschema.Draft7Validator.check_schema(json.loads(SCHEMA.read_text(encoding="utf-8")))


def test_an_unknown_key_is_located_at_the_key() -> None:
    source = VALID.replace("  close:", "  opne: x\n  close:")
    assert problems(source) == [("unknown-key", "/block/opne", 13, 3)]


def test_x_keys_are_allowed_everywhere() -> None:
    source = VALID.replace("  close:", "  x-note: fine\n  close:") + "    x-why: because\n"
    compile_text_spec(strict_yaml.load(source, "specs/text/demo.yaml"))


def test_a_missing_key_and_a_wrong_type_are_reported_together() -> None:
    source = VALID.replace("title: Demo\n", "").replace('close: "</${tag}>"', "close: 3")
    assert sorted(rules(source)) == ["missing-key", "wrong-type"]


def test_kind_must_be_text() -> None:
    assert rules(VALID.replace("kind: text", "kind: wire")) == ["bad-value"]


def test_an_unsupported_version_has_its_own_rule() -> None:
    assert problems(VALID.replace("spec_version: 1", "spec_version: 2")) == [
        ("unsupported-version", "/spec_version", 2, 15)
    ]


def test_format_must_match_the_file_name() -> None:
    assert problems(VALID, "specs/text/other.yaml") == [("format-name", "/format", 3, 9)]


def test_an_unknown_grammar_is_a_bad_value() -> None:
    assert problems(VALID.replace("grammar: json", "grammar: regex")) == [
        ("bad-value", "/payload/0/grammar", 15, 14)
    ]


def test_a_key_of_another_grammar_is_unknown() -> None:
    source = VALID + "    head_end: ['x']\n"
    assert problems(source) == [("unknown-key", "/payload/0/head_end", 16, 5)]


def test_placeholders_must_be_well_formed_and_declared() -> None:
    source = VALID.replace('open: ["<${tag}>"]', 'open: ["<${tag}>", "<${nope}>", "${Tag}"]')
    assert problems(source) == [
        ("unknown-param", "/block/open/1", 12, 22),
        ("bad-placeholder", "/block/open/2", 12, 35),
    ]


def test_a_parameter_no_marker_uses_is_reported() -> None:
    source = VALID.replace("<${tag}>", "<call>").replace("</${tag}>", "</call>")
    assert problems(source) == [("unused-param", "/params/tag", 7, 3)]


def test_a_bad_pattern_and_a_default_breaking_its_pattern_are_reported() -> None:
    assert problems(VALID.replace('"^[a-z]+$"', '"^[a-z+$"')) == [
        ("bad-pattern", "/params/tag/pattern", 9, 14)
    ]
    assert problems(VALID.replace("default: call", "default: Call")) == [
        ("param-default", "/params/tag/default", 8, 14)
    ]


def test_an_empty_default_needs_a_pattern_that_matches_it() -> None:
    assert problems(VALID.replace("default: call", 'default: ""')) == [
        ("param-default", "/params/tag/default", 8, 14)
    ]
    unpatterned = VALID.replace('default: call\n    pattern: "^[a-z]+$"', 'default: ""')
    assert [p[0] for p in problems(unpatterned)] == ["param-default"]


def test_a_close_marker_that_is_also_an_open_marker_clashes() -> None:
    assert rules(VALID.replace('close: "</${tag}>"', 'close: "<${tag}>"')) == ["marker-clash"]


def test_an_open_marker_inside_the_close_marker_clashes() -> None:
    source = VALID.replace('open: ["<${tag}>"]', 'open: ["call"]').replace(
        'close: "</${tag}>"', 'close: "/call"'
    ).replace("params:\n  tag:\n    default: call\n    pattern: \"^[a-z]+$\"\n"
              "    description: The tag name.\n", "")
    assert problems(source) == [("marker-clash", "/block/open/0", 7, 10)]


def test_section_markers_must_differ_from_block_markers() -> None:
    source = VALID.replace("block:", 'section: {open: "<${tag}>", close: "[end]"}\nblock:')
    assert rules(source) == ["marker-clash"]


def test_xml_parameters_needs_exactly_one_name_source() -> None:
    source = VALID.replace(
        "  - grammar: json\n",
        "  - grammar: xml-parameters\n    parameter: {open: '<p=', name_end: '>', close: '</p>'}\n",
    )
    assert problems(source) == [("name-source", "/payload/0", 15, 5)]


def test_head_json_cannot_take_its_id_from_both_places() -> None:
    source = VALID.replace(
        "  - grammar: json\n",
        "  - grammar: head-json\n    head_end: ['|']\n    id: head\n    id_marker: '#'\n",
    )
    assert problems(source) == [("head-id", "/payload/0/id", 17, 9)]


def test_text_start_needs_a_delimited_payload_and_no_section() -> None:
    text_start = VALID.replace('  close: "</${tag}>"', '  close: "</${tag}>"\n  text_start: true')
    sectioned = text_start.replace("block:", "section: {open: '[s]', close: '[/s]'}\nblock:")
    assert rules(sectioned) == ["text-start"]
    head_only = text_start.replace(
        "  - grammar: json\n", "  - grammar: head-json\n    head_end: ['|']\n"
    )
    assert "text-start" in rules(head_only)
    # beside a json alternative, another grammar may serve the blocks (HyperCLOVA X)
    both = text_start + "  - grammar: head-json\n    head_end: ['|']\n"
    assert isinstance(compile_text_spec(strict_yaml.load(both, "specs/text/demo.yaml")), TextSpec)


def test_a_bad_expression_is_located_at_the_character_blamed() -> None:
    source = VALID + '    name: "name[?"\n'
    assert problems(source) == [("expression-syntax", "/payload/0/name", 16, 18)]


def test_an_unquoted_null_is_refused_as_a_field_name_at_its_first_character() -> None:
    source = VALID + '    when: "id != null"\n'
    assert problems(source) == [("bare-literal-name", "/payload/0/when", 16, 18)]
    literal = VALID + '    when: "id != `null` && \\"null\\" == `null`"\n'
    compile_text_spec(strict_yaml.load(literal, "specs/text/demo.yaml"))  # literal, quoted field


def test_a_non_portable_expression_is_refused() -> None:
    source = VALID + '    when: "name > \'a\'"\n'
    assert rules(source) == ["expression-not-portable"]


def test_every_problem_of_a_file_is_reported_at_once_sorted_by_place() -> None:
    source = (
        VALID.replace("spec_version: 1", "spec_version: 9")
        .replace("format: demo", "format: other")
        .replace("  close:", "  opne: x\n  close:")
    )
    found = problems(source)
    assert [rule for rule, *_ in found] == ["unsupported-version", "format-name", "unknown-key"]
    assert [line for _, _, line, _ in found] == sorted(line for _, _, line, _ in found)


def test_a_document_that_is_not_a_mapping_is_refused() -> None:
    assert rules("- a list\n") == ["not-a-mapping"]


def test_yaml_problems_come_from_the_strict_loader_with_their_place() -> None:
    with pytest.raises(SpecError) as caught:
        compile_text_spec(strict_yaml.load(VALID + "kind: text\n", "specs/text/demo.yaml"))
    assert caught.value.rules == ("yaml-duplicate-key",)
    assert caught.value.problems[0].line == 16


def test_load_text_spec_reports_a_missing_file_as_a_spec_error(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as caught:
        load_text_spec(tmp_path / "nope.yaml")
    assert caught.value.rules == ("unreadable",)


def test_load_text_spec_shows_the_path_in_each_problem(tmp_path: Path) -> None:
    path = tmp_path / "demo.yaml"
    path.write_text(VALID.replace("format: demo", "format: x"), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        load_text_spec(path)
    message = caught.value.problems[0].message
    assert str(caught.value) == f"{path}:3:9: /format: {message} [format-name]"
