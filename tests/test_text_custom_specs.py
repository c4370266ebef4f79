"""A caller's own text spec runs on the same scanner as the bundled ones."""

from __future__ import annotations

from pathlib import Path

from toolwire._spec import strict_yaml
from toolwire._text import TextSpec, compile_text_spec, extract_text, load_text_spec
from toolwire._values.toolcall import ToolCall

HEAD = """\
kind: text
spec_version: 1
format: demo
title: Demo
doc_ref: https://example.com/demo
"""


def spec(body: str) -> TextSpec:
    return compile_text_spec(strict_yaml.load(HEAD + body, "demo.yaml"))


def test_a_spec_file_written_by_a_caller_loads_and_extracts(tmp_path: Path) -> None:
    path = tmp_path / "demo.yaml"
    path.write_text(
        HEAD + 'block:\n  open: ["<call>"]\n  close: "</call>"\npayload:\n  - grammar: json\n',
        encoding="utf-8",
    )
    clean, calls = extract_text(load_text_spec(path), 'Hi <call>{"name": "f"}</call>')
    assert (clean, calls) == ("Hi", [ToolCall("f")])


def test_a_parameter_fills_every_marker_that_names_it() -> None:
    demo = spec(
        "params:\n  kind:\n    default: tool\n    description: The section's word.\n"
        'section: {open: "[${kind}s]", close: "[/${kind}s]"}\n'
        'block: {open: ["[${kind}]"], close: "[/${kind}]"}\n'
        "payload:\n  - grammar: json\n"
    )
    text = '[fns][fn]{"name": "f"}[/fn][/fns] [tools][tool]{"name": "g"}[/tool][/tools]'
    assert extract_text(demo, text, kind="fn") == (
        '[tools][tool]{"name": "g"}[/tool][/tools]',
        [ToolCall("f")],
    )
    assert extract_text(demo, text)[1] == [ToolCall("g")]


def test_a_selector_that_fails_at_run_time_leaves_the_block_as_text() -> None:
    demo = spec(
        'block: {open: ["<c>"], close: "</c>"}\n'
        "payload:\n  - grammar: json\n    when: \"starts_with(name, 'o')\"\n"
    )
    clean, calls = extract_text(demo, '<c>{"name": 5}</c> <c>{"name": "ok"}</c>')
    assert clean == '<c>{"name": 5}</c>'
    assert calls == [ToolCall("ok")]


def test_payload_alternatives_are_tried_in_order() -> None:
    demo = spec(
        'block: {open: ["@@"]}\n'
        "payload:\n"
        "  - grammar: json\n    shape: object-or-array\n"
        "  - grammar: pythonic\n"
        '  - grammar: head-json\n    head_end: [":"]\n'
    )
    text = "@@{\"name\": \"a\"} @@[b(x=1)] @@c: {\"y\": 2}"
    clean, calls = extract_text(demo, text)
    assert clean == ""
    assert calls == [ToolCall("a"), ToolCall("b", {"x": 1}), ToolCall("c", {"y": 2})]


def test_json_values_joined_by_a_separator_may_mix_objects_and_arrays() -> None:
    demo = spec(
        'block: {open: ["<c>"], close: "</c>"}\n'
        'payload:\n  - grammar: json\n    shape: object-or-array\n    separator: "|"\n'
    )
    _, calls = extract_text(demo, '<c>{"name": "a"} | [{"name": "b"}, {"name": "c"}]</c>')
    assert [call.name for call in calls] == ["a", "b", "c"]


def test_values_can_be_kept_as_strings() -> None:
    demo = spec(
        'block: {open: ["<c>"], close: "</c>"}\n'
        "payload:\n  - grammar: xml-parameters\n    name_end: [\"\\n\"]\n"
        '    parameter: {open: "<p=", name_end: ">", close: "</p>"}\n'
        "    values: string\n"
    )
    _, calls = extract_text(demo, "<c>f\n<p=n> 42 </p></c>")
    assert calls == [ToolCall("f", {"n": "42"})]
