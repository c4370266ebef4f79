"""Schemas found valid are remembered by content; an invalid one is refused every time."""

from __future__ import annotations

import pytest

import toolwire
from toolwire._tools import definition


def _request(schema: object) -> dict[str, object]:
    return {"tools": [{"type": "function", "function": {"name": "f", "parameters": schema}}]}


def test_a_valid_schema_is_checked_once_then_remembered() -> None:
    definition._VALID_SCHEMAS.clear()
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}}
    toolwire.Tools("openai", _request(schema))
    assert len(definition._VALID_SCHEMAS) == 1
    toolwire.Tools("openai", _request(dict(reversed(list(schema.items())))))  # same content
    assert len(definition._VALID_SCHEMAS) == 1


def test_an_invalid_schema_is_refused_every_time_even_beside_a_remembered_twin() -> None:
    definition._VALID_SCHEMAS.clear()
    toolwire.Tools("openai", _request({"type": "object", "minProperties": 1}))
    for _ in range(2):  # 1.5 is no count: the exact type is part of what is remembered
        with pytest.raises(toolwire.errors.InvalidTools, match="not a valid JSON Schema"):
            toolwire.Tools("openai", _request({"type": "object", "minProperties": 1.5}))
    assert len(definition._VALID_SCHEMAS) == 1
