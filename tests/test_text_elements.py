"""The ``xml-elements`` grammar (MiniMax-M3) types nested values by the tools' schemas.

The conformance cases cannot carry the caller's ``tools=``, so the schema-driven half
of specs/README.md §1b.11 is pinned here; tools/js/test/text.test.mjs holds the same
texts and schemas with the same expectations for the JavaScript implementation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from toolwire._text import load_text_spec, read_text
from toolwire.errors import SpecError

NS = "]<]minimax[>["


def _el(name: str, body: str) -> str:
    return f"{NS}<{name}>{body}{NS}</{name}>"


def _block(function: str, body: str) -> str:
    invoke = f'{NS}<invoke name="{function}">{body}{NS}</invoke>'
    return f"{NS}<tool_call>\n{invoke}\n{NS}</tool_call>"


ORDER = _block(
    "create_order",
    _el("user_id", "42")
    + _el("urgent", "true")
    + _el("shipping", _el("city", "Singapore") + _el("zip", "018956"))
    + _el(
        "items",
        _el("item", _el("sku", "book-001") + _el("qty", "2")) + _el("item", _el("qty", "5")),
    )
    + _el("metadata", _el("score", "42") + _el("rank", "7"))
    + _el("duplicate_demo", _el("tag", "a") + _el("tag", "b"))
    + _el("mismatch", _el("x", "1") + _el("x", "2"))
    + _el("unknown_struct", _el("a", "1") + _el("a", "2"))
    + _el("tags", "3")
    + _el("tags", "4")
    + _el("note", _el("b", "bold")),
)
ORDER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "user_id": {"type": "integer"},
        "urgent": {"type": "boolean"},
        "shipping": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "zip": {"type": "integer"}},
        },
        "items": {
            "type": "array",
            "items": {"type": "object", "properties": {"qty": {"type": "integer"}}},
        },
        "metadata": {"type": "object", "additionalProperties": {"type": "integer"}},
        "duplicate_demo": {"type": "object", "properties": {"tag": {"type": "string"}}},
        "mismatch": {"type": "array", "items": {"type": "integer"}},
        "tags": {"type": "array", "items": {"type": "integer"}},
        "note": {"type": "string"},
    },
}


def test_the_schema_makes_arrays_of_nodes_and_types_their_leaves() -> None:
    (call,) = read_text("minimax_m3", ORDER, tools={"create_order": ORDER_SCHEMA}).calls
    assert call.arguments == {
        "user_id": 42,
        "urgent": True,
        # §1b.4's integer has no leading zero: the text stays, the schema check reports it
        "shipping": {"city": "Singapore", "zip": "018956"},
        "items": [{"sku": "book-001", "qty": 2}, {"qty": 5}],
        "metadata": {"score": 42, "rank": 7},
        "duplicate_demo": {"tag": ["a", "b"]},
        "mismatch": [1, 2],
        "unknown_struct": {"a": ["1", "2"]},
        "tags": [3, 4],
        "note": {"b": "bold"},
    }


CONVERT = _block(
    "convert",
    _el("whole", "5.0")
    + _el("flag", " true ")
    + _el("payload", '{"nested":true}')
    + _el("list", "[1,2]")
    + _el("loose", "42")
    + _el("either", "null")
    + _el("word", "forty"),
)
CONVERT_SCHEMA: dict[str, Any] = {
    "properties": {
        "whole": {"type": "number"},
        "flag": {"type": "boolean"},
        "payload": {"type": "object"},
        "list": {"type": "array"},
        "loose": {},
        "either": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "word": {"type": "integer"},
    }
}


def test_leaves_are_typed_by_the_typed_parameters_rule() -> None:
    (call,) = read_text("minimax_m3", CONVERT, tools={"convert": CONVERT_SCHEMA}).calls
    assert call.arguments == {
        "whole": 5.0,
        "flag": True,
        "payload": {"nested": True},
        "list": [1, 2],
        "loose": "42",
        "either": None,
        "word": "forty",
    }


def test_a_call_whose_tool_is_not_given_keeps_objects_and_strings() -> None:
    (call,) = read_text("minimax_m3", CONVERT, tools={"other": CONVERT_SCHEMA}).calls
    assert call.arguments["whole"] == "5.0" and call.arguments["flag"] == " true "
    (order,) = read_text("minimax_m3", ORDER).calls
    assert order.arguments["items"] == {"item": [{"sku": "book-001", "qty": "2"}, {"qty": "5"}]}


class _Tools:
    """Stands for ``toolwire.Tools``: only ``parameters(name)`` is used."""

    def parameters(self, name: str) -> dict[str, Any] | None:
        return CONVERT_SCHEMA if name == "convert" else None


def test_an_object_with_a_parameters_method_serves_as_tools() -> None:
    (call,) = read_text("minimax_m3", CONVERT, tools=_Tools()).calls
    assert call.arguments["whole"] == 5.0


def test_a_broken_call_is_flagged_whatever_the_tools() -> None:
    text = _block("convert", _el("whole", "5") + "stray")
    (call,) = read_text("minimax_m3", text, tools={"convert": CONVERT_SCHEMA}).calls
    assert call.arguments_undecodable and call.arguments_error_code == "text-between-elements"


def test_a_block_at_the_text_start_cannot_hold_elements(tmp_path: Path) -> None:
    spec = tmp_path / "ts.yaml"
    spec.write_text(
        "kind: text\nspec_version: 1\nformat: ts\ntitle: t\ndoc_ref: https://example.com\n"
        'block: {open: ["<a>"], text_start: true}\n'
        "payload:\n  - grammar: xml-elements\n"
        '    function: {open: "<f=", name_end: ">", close: "</f>"}\n'
        '    element: {open: "<", close: "</", name_end: ">"}\n',
        "utf-8",
    )
    with pytest.raises(SpecError, match=r"text-start"):
        load_text_spec(spec)
