"""A tool's schema in the dialect its provider documents, made into one JSON Schema.

Three steps, each a declared rule of specs/README.md §8 rather than a provider's quirk
coded here:

* :func:`translate` applies a spec's translation table (Gemini's OpenAPI-subset Schema):
  every keyword of the source language has a rule, and a keyword without one is an error,
  so a schema is never half understood;
* :func:`make_strict` applies OpenAI strict mode: every object schema closed
  (``additionalProperties: false``) and requiring all its properties; where the schema says
  otherwise, the provider would have refused the request, and so does this;
* :func:`validator_class` picks the JSON Schema draft (the spec's ``dialect``, unless the
  schema names its own ``$schema``).

None of them changes the schema it is given: each builds a new one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .._values.json_values import copy_json

__all__ = ["SchemaProblem", "make_strict", "translate", "validator_class"]


class SchemaProblem(Exception):
    """A schema this module cannot make into JSON Schema, and where (a JSON pointer)."""

    def __init__(self, pointer: str, reason: str) -> None:
        super().__init__(reason)
        self.pointer = pointer
        self.reason = reason


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def translate(schema: Any, table: Mapping[str, Any]) -> dict[str, Any]:
    """``schema`` in the table's source language, as JSON Schema (§8.4)."""
    try:
        return _translate(schema, table, "")
    except RecursionError:
        raise SchemaProblem("", "the schema is nested too deeply to translate") from None


def _translate(schema: Any, table: Mapping[str, Any], at: str) -> dict[str, Any]:
    if not isinstance(schema, dict):
        raise SchemaProblem(at, f"a schema must be an object, not {type(schema).__name__}")
    rules: Mapping[str, str] = table["keywords"]
    out: dict[str, Any] = {}
    nullable = False
    for key, value in schema.items():
        if value is None:
            continue  # unset, as proto3 JSON and an SDK's model_dump() write it (§8.4)
        rule = rules.get(key)
        here = f"{at}/{_escape(key)}"
        if rule is None:
            raise SchemaProblem(here, f"{key!r} is not a keyword of this schema language")
        if rule == "keep":
            out[key] = copy_json(value)
        elif rule == "type":
            out[key] = _type_name(value, table, here)
        elif rule == "nullable":
            if not isinstance(value, bool):
                raise SchemaProblem(here, "nullable must be true or false")
            nullable = value
        elif rule == "schema":  # a boolean is a schema as it is (additionalProperties: false)
            out[key] = value if isinstance(value, bool) else _translate(value, table, here)
        elif rule == "schema_list":
            if not isinstance(value, list):
                raise SchemaProblem(here, f"{key} must be a list of schemas")
            out[key] = [_translate(v, table, f"{here}/{i}") for i, v in enumerate(value)]
        elif rule == "schema_map":
            if not isinstance(value, dict):
                raise SchemaProblem(here, f"{key} must be an object of schemas")
            out[key] = {k: _translate(v, table, f"{here}/{_escape(k)}") for k, v in value.items()}
        # "drop": no JSON Schema meaning, left out
    if nullable:
        _admit_null(out)
    return out


def _type_name(value: Any, table: Mapping[str, Any], at: str) -> str:
    names: Mapping[str, str] = table["type_names"]
    if isinstance(value, str):
        if value in names:
            return names[value]
        if table.get("type_names_any_case"):
            for name, json_type in names.items():
                if name.casefold() == value.casefold():
                    return json_type
    raise SchemaProblem(at, f"{value!r} is not a type name of this schema language"
                        f" ({', '.join(names)})")


def _admit_null(out: dict[str, Any]) -> None:
    """``nullable: true``: null is admitted by ``type``, ``enum`` and ``anyOf`` (§8.4)."""
    if isinstance(out.get("type"), str) and out["type"] != "null":
        out["type"] = [out["type"], "null"]
    if isinstance(out.get("enum"), list) and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
    if "type" not in out and isinstance(out.get("anyOf"), list):
        out["anyOf"] = [*out["anyOf"], {"type": "null"}]


_SUBSCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SUBSCHEMA_LISTS = ("anyOf", "allOf", "oneOf", "prefixItems")
_SUBSCHEMA_ONE = ("items", "not", "if", "then", "else", "contains", "additionalItems")


def make_strict(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` under OpenAI strict mode (§8.3): a new schema, the given one untouched."""
    result = copy_json(schema)
    try:
        _walk(result, "", _close)
    except RecursionError:
        raise SchemaProblem("", "the schema is nested too deeply to check") from None
    return result  # type: ignore[no-any-return]


def _is_object_schema(node: dict[str, Any]) -> bool:
    kind = node.get("type")
    return "properties" in node or kind == "object" or (
        isinstance(kind, list) and "object" in kind
    )


def _close(node: dict[str, Any], at: str) -> None:
    if not _is_object_schema(node):
        return
    properties = node.get("properties") or {}
    if not isinstance(properties, dict):
        raise SchemaProblem(f"{at}/properties", "properties must be an object of schemas")
    extra = node.get("additionalProperties", False)
    if extra is not False:
        raise SchemaProblem(f"{at}/additionalProperties",
                            "strict mode needs additionalProperties false on every object")
    node["additionalProperties"] = False
    required = node.get("required")
    if required is None:
        node["required"] = list(properties)
        return
    missing = [p for p in properties if not isinstance(required, list) or p not in required]
    if missing:
        raise SchemaProblem(f"{at}/required", "strict mode needs every property required;"
                            f" missing {', '.join(map(repr, missing))}")


def _walk(node: Any, at: str, visit: Callable[[dict[str, Any], str], None]) -> None:
    if not isinstance(node, dict):
        return
    visit(node, at)
    for key in _SUBSCHEMA_MAPS:
        if isinstance(node.get(key), dict):
            for name, sub in node[key].items():
                _walk(sub, f"{at}/{key}/{_escape(name)}", visit)
    for key in _SUBSCHEMA_LISTS:
        if isinstance(node.get(key), list):
            for i, sub in enumerate(node[key]):
                _walk(sub, f"{at}/{key}/{i}", visit)
    for key in _SUBSCHEMA_ONE:
        _walk(node.get(key), f"{at}/{key}", visit)


def validator_class(schema: Any, dialect: str | None) -> Any:
    """The jsonschema validator class for ``schema``: its own ``$schema``, else the dialect."""
    import jsonschema  # lazy: jsonschema (66 ms) only for a schema the fast check cannot take

    default: Any = (
        jsonschema.Draft7Validator if dialect == "draft7" else jsonschema.Draft202012Validator
    )
    if isinstance(schema, dict) and isinstance(schema.get("$schema"), str):
        return jsonschema.validators.validator_for(schema, default=default)
    return default
