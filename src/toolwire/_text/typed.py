"""Typing the raw text of XML-family parameter values by the tool's JSON Schema.

Models of the XML-parameter family (Qwen3-Coder, GLM, MiniMax, Seed-OSS, …) write
every value as text: ``<parameter=count>3</parameter>``. Whether that is the number 3
or the string ``"3"`` only the tool's schema knows. Given the request's tools
(``tools=``: a :class:`toolwire.Tools`, or a mapping ``{tool_name: parameters_schema}``),
each value is typed by the rule of specs/README.md §1b.4:

* the parameter's declared types are its schema's ``type`` (a string or a list), or
  else the ``type`` of each ``anyOf`` / ``oneOf`` branch;
* a parameter the schema does not declare, or one whose types include ``string``,
  keeps the text as written;
* otherwise the first declared type (in the order integer, number, boolean, null,
  object, array) that the spec's ``types`` enables and the text reads as wins:
  ``integer`` an optional minus and digits, ``number`` a JSON number, ``boolean``
  ``true`` / ``false``, ``null`` ``null``, ``object`` / ``array`` a JSON text of that
  kind;
* a text that reads as none stays the string it was: nothing is repaired, and the
  tool-schema check then flags the argument.

Without tools, values follow the spec's ``values`` (the text, or JSON where it reads).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Final

from .._values.arguments import loads_strict

__all__ = [
    "ALL_TYPES", "Schemas", "declared_types", "schemas_of", "type_declared", "type_value",
]

ALL_TYPES: Final = ("integer", "number", "boolean", "null", "object", "array")
_INTEGER: Final = re.compile(r"-?(?:0|[1-9][0-9]*)")
_NUMBER: Final = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")

Schemas = Callable[[str], "Mapping[str, Any] | None"]
"""A tool's parameters schema by tool name, or None for a tool not given."""


def schemas_of(tools: Any) -> Schemas | None:
    """The ``tools=`` argument as a lookup: a ``Tools`` object, a mapping, or None."""
    if tools is None:
        return None
    parameters = getattr(tools, "parameters", None)
    if callable(parameters):
        return lambda name: _mapping(parameters(name))
    if isinstance(tools, Mapping):
        return lambda name: _mapping(tools.get(name))
    raise TypeError(
        "tools must be a toolwire.Tools or a mapping {tool_name: parameters_schema},"
        f" not {type(tools).__name__}"
    )


def _mapping(value: Any) -> Mapping[str, Any] | None:
    return value if isinstance(value, Mapping) else None


def declared_types(schema: Any) -> tuple[str, ...]:
    """The JSON types a parameter's schema declares, in the schema's order."""
    if not isinstance(schema, Mapping):
        return ()
    kind = schema.get("type")
    if isinstance(kind, str):
        return (kind,)
    if isinstance(kind, list):
        return tuple(k for k in kind if isinstance(k, str))
    found: list[str] = []
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list):
            for branch in branches:
                found.extend(t for t in declared_types(branch) if t not in found)
    return tuple(found)


def type_value(raw: str, schema: Any, enabled: frozenset[str]) -> Any:
    """``raw`` typed by the parameter ``schema`` under the rule above."""
    return type_declared(raw, declared_types(schema), enabled)


def type_declared(raw: str, declared: tuple[str, ...], enabled: frozenset[str]) -> Any:
    """``raw`` typed by the ``declared`` JSON types under the rule above."""
    if not declared or "string" in declared:
        return raw
    for kind in ALL_TYPES:
        if kind in declared and kind in enabled:
            value = _read(kind, raw.strip())
            if value is not _NO:
                return value
    return raw


_NO: Final = object()


def _read(kind: str, text: str) -> Any:
    if kind == "integer":
        return int(text) if _INTEGER.fullmatch(text) else _NO
    if kind == "number":
        if not _NUMBER.fullmatch(text):
            return _NO
        try:
            return loads_strict(text)
        except ValueError:  # beyond the float range
            return _NO
    if kind == "boolean":
        return {"true": True, "false": False}.get(text, _NO)
    if kind == "null":
        return None if text == "null" else _NO
    try:
        value = loads_strict(text)
    except ValueError:
        return _NO
    wanted = dict if kind == "object" else list
    return value if isinstance(value, wanted) else _NO
