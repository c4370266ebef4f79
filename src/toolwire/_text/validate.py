"""Checking a text spec against its meta-schema, ``text-spec.v1.schema.json``.

Each complaint of the validator becomes a :class:`SpecProblem` located at the
offending key or value, with the rule codes wire specs use (``unknown-key``,
``missing-key``, ``wrong-type``, ``bad-value``, ``unsupported-version``).
``jsonschema`` is imported here only, and only when a spec is checked: extracting
calls never needs it.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator
from functools import cache
from typing import Any, Final

from .._paths import bundled_specs_dir
from .._spec.strict_yaml import Document, escape_pointer
from ..errors import SpecProblem

__all__ = ["SCHEMA_NAME", "schema_problems"]

SCHEMA_NAME: Final = "text-spec.v1.schema.json"
_MAX_MESSAGE: Final = 300


@cache
def _validator() -> Any:
    import jsonschema  # lazy: jsonschema (66 ms) only when a text spec is checked

    schema = json.loads((bundled_specs_dir() / "schema" / SCHEMA_NAME).read_text("utf-8"))
    return jsonschema.Draft7Validator(schema)


def _short(message: str) -> str:
    """Validator messages quote whole instances; keep them readable."""
    return message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 1] + "…"


def schema_problems(doc: Document) -> Iterator[SpecProblem]:
    """Every meta-schema violation of ``doc``, located."""
    for error in _validator().iter_errors(doc.data):
        pointer = "".join(f"/{escape_pointer(p)}" for p in error.absolute_path)
        kind = error.validator
        if kind == "additionalProperties" and isinstance(error.instance, dict):
            yield from _unknown_keys(doc, pointer, error.instance, error.schema)
        elif "propertyNames" in error.schema_path:
            name = str(error.instance)
            where = f"{pointer}/{escape_pointer(name)}"
            yield doc.problem(where, _short(error.message), "bad-value", key=True)
        elif kind == "required":
            yield doc.problem(pointer, _short(error.message), "missing-key", key=True)
        elif kind == "type":
            yield doc.problem(pointer, _short(error.message), "wrong-type")
        elif kind == "const" and pointer == "/spec_version":
            message = f"spec_version {error.instance!r} is not supported (supported: 1)"
            yield doc.problem(pointer, message, "unsupported-version")
        else:
            yield doc.problem(pointer, _short(error.message), "bad-value")


def _unknown_keys(
    doc: Document, pointer: str, instance: dict[str, Any], schema: dict[str, Any]
) -> Iterator[SpecProblem]:
    allowed = sorted(schema.get("properties", {}))
    patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
    for key in sorted(instance):
        if key in allowed or any(p.search(key) for p in patterns):
            continue
        close = difflib.get_close_matches(key, allowed, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        where = f"{pointer}/{escape_pointer(key)}"
        yield doc.problem(where, f"unknown key {key!r}{hint}", "unknown-key", key=True)
