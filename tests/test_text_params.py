"""Calling the text extractors: declared parameters, wrong arguments, and the returned values."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolwire._text import (
    bundled_text_specs,
    extract_from_text,
    extract_hermes_from_text,
    extract_text,
    load_text_spec,
)
from toolwire._values.toolcall import ToolCall
from toolwire.errors import UnknownFormat

HERMES = bundled_text_specs()["hermes"]


def test_hermes_declares_its_tag_parameter_with_its_default() -> None:
    assert dict(HERMES.params) == {"tag": "tool_call"}


def test_a_spec_without_parameters_declares_none() -> None:
    assert dict(bundled_text_specs()["kimi_k2"].params) == {}


def test_the_params_mapping_cannot_be_changed_by_a_caller() -> None:
    with pytest.raises(TypeError):
        HERMES.params["tag"] = "x"  # type: ignore[index]


def test_extract_hermes_from_text_uses_the_tool_call_tag_by_default() -> None:
    clean, calls = extract_hermes_from_text('Hi <tool_call>{"name": "f"}</tool_call>')
    assert clean == "Hi"
    assert calls == [ToolCall("f")]


def test_extract_hermes_from_text_reads_the_tag_it_is_given() -> None:
    text = '<fn>{"name": "f", "arguments": {"a": 1}}</fn> <tool_call>{"name": "g"}</tool_call>'
    clean, calls = extract_hermes_from_text(text, tag="fn")
    assert calls == [ToolCall("f", {"a": 1})]
    assert clean == '<tool_call>{"name": "g"}</tool_call>'


def test_the_same_parameter_reaches_the_spec_through_every_entry_point() -> None:
    text = '<fn>{"name": "f"}</fn>'
    expected = ("", [ToolCall("f")])
    assert extract_text(HERMES, text, tag="fn") == expected
    assert extract_from_text("hermes", text, tag="fn") == expected


def test_an_undeclared_parameter_is_a_type_error_naming_it() -> None:
    with pytest.raises(TypeError, match="'tags'"):
        extract_from_text("hermes", "text", tags="fn")
    with pytest.raises(TypeError, match="'tag'"):
        extract_from_text("kimi_k2", "text", tag="fn")


def test_a_parameter_value_that_is_not_a_string_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="'tag'"):
        extract_text(HERMES, "text", tag=3)  # type: ignore[arg-type]


def test_a_parameter_value_its_pattern_refuses_is_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"\btag\b"):
        extract_text(HERMES, "text", tag="a b")
    with pytest.raises(ValueError):
        extract_text(HERMES, "text", tag="")


def test_an_empty_value_is_allowed_only_where_the_pattern_matches_it() -> None:
    hy = bundled_text_specs()["hy_v4"]
    assert dict(hy.params) == {"suffix": ""}
    text = "<tool_calls:a><tool_call:a>f</tool_call:a></tool_calls:a>"
    assert extract_text(hy, text, suffix=":a") == ("", [ToolCall("f")])
    assert extract_text(hy, text, suffix="") == (text, [])
    with pytest.raises(ValueError, match="'tag' must not be empty"):
        extract_text(HERMES, "text", tag="")


def test_a_marker_left_empty_by_its_parameters_is_a_value_error(tmp_path: Path) -> None:
    path = tmp_path / "bare.yaml"
    path.write_text(
        "kind: text\nspec_version: 1\nformat: bare\ntitle: t\ndoc_ref: https://example.com\n"
        "params:\n  start:\n    default: '<s>'\n    pattern: '^(<s>)?$'\n"
        "    description: The open marker.\n"
        "block:\n  open: ['${start}']\n  close: '</s>'\n"
        "payload:\n  - grammar: json\n    shape: object\n    name: name\n"
        "    arguments: arguments\n",
        encoding="utf-8",
    )
    spec = load_text_spec(path)
    assert extract_text(spec, '<s>{"name": "f"}</s>')[1] == [ToolCall("f")]
    with pytest.raises(ValueError, match="empty"):
        extract_text(spec, "text", start="")


def test_an_unknown_format_raises_unknown_format_listing_the_known_ones() -> None:
    with pytest.raises(UnknownFormat) as caught:
        extract_from_text("hermes2", "text")
    assert caught.value.format == "hermes2"
    assert "hermes" in caught.value.known


def test_a_format_name_that_is_not_a_string_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        extract_from_text(None, "text")  # type: ignore[arg-type]


def test_text_that_is_not_a_string_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        extract_text(HERMES, b"<tool_call></tool_call>")  # type: ignore[arg-type]


def test_a_spec_that_is_not_a_text_spec_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        extract_text("hermes", "text")  # type: ignore[arg-type]


def test_calls_are_immutable_tool_calls_with_independent_arguments() -> None:
    text = '<tool_call>{"name": "f", "arguments": {"a": [1]}}</tool_call>'
    _, calls = extract_hermes_from_text(text)
    arguments = calls[0].arguments
    arguments["a"].append(2)
    assert calls[0].arguments == {"a": [1]}
    with pytest.raises(AttributeError):
        calls[0].name = "g"


def test_each_call_to_extract_returns_fresh_values() -> None:
    text = '<tool_call>{"name": "f"}</tool_call>'
    first, second = extract_hermes_from_text(text), extract_hermes_from_text(text)
    assert first == second
    assert first[1] is not second[1]


def test_the_text_spec_names_its_source_file() -> None:
    assert HERMES.path.endswith("hermes.yaml")
    assert "hermes" in repr(HERMES)
