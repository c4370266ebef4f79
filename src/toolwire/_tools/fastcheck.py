"""A fast "is this valid?" for the schemas tools usually have, exact where it says yes.

``jsonschema`` builds an error object per keyword it evaluates; checking three calls that
way costs more than reading the reply they came in. Most tool schemas use a handful of
keywords (type, properties, required, enum, items...), and for those a closure tree
answers in a few hundred nanoseconds. :func:`compile_check` builds one, or returns ``None``
for a schema using any assertion it does not implement (``$ref``, ``pattern``
properties...). The check is used only one way round: ``True`` means valid, and anything
else goes to ``jsonschema``, which finds the errors. So a mistake here can only cost time,
never a verdict, as long as ``True`` is exact; ``tests/test_tools_fastcheck.py`` holds every
``True`` to jsonschema's verdict (drafts 2020-12 and 7) on generated schemas and values.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .._boundedre import compile as compile_bounded
from .formats import FORMATS

__all__ = ["Check", "compile_check"]

Check = Callable[[Any], bool]

# Every assertion or applicator keyword of drafts 7 and 2020-12; anything else is an
# annotation or unknown, which both drafts ignore.
_VOCABULARY = frozenset({
    "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
    "exclusiveMinimum", "maxLength", "minLength", "pattern", "items", "additionalItems",
    "prefixItems", "contains", "maxContains", "minContains", "maxItems", "minItems",
    "uniqueItems", "maxProperties", "minProperties", "required", "dependentRequired",
    "dependencies", "properties", "patternProperties", "additionalProperties",
    "propertyNames", "dependentSchemas", "unevaluatedItems", "unevaluatedProperties",
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref", "$dynamicRef",
    "$recursiveRef",
})
_SUPPORTED = frozenset({
    "type", "enum", "const", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
    "maxLength", "minLength", "pattern", "items", "maxItems", "minItems", "maxProperties",
    "minProperties", "required", "properties", "additionalProperties", "allOf", "anyOf",
    "oneOf",
})
_DRAFTS = frozenset({
    "https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#",
    "http://json-schema.org/draft-07/schema",
})


class _Unsupported(Exception):
    pass


def compile_check(schema: Any) -> Check | None:
    """A validity check for ``schema``, or ``None`` where it would not be exact."""
    if isinstance(schema, dict) and "$schema" in schema and schema["$schema"] not in _DRAFTS:
        return None
    try:
        return _compile(schema)
    except (_Unsupported, RecursionError, re.error, TypeError, ValueError):
        return None


def _is_number(value: Any) -> bool:
    return type(value) in (int, float)


def _is_integer(value: Any) -> bool:
    kind = type(value)
    return kind is int or (kind is float and value.is_integer())


_TYPES: dict[str, Check] = {
    "object": lambda v: type(v) is dict,
    "array": lambda v: type(v) is list,
    "string": lambda v: type(v) is str,
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
    "number": _is_number,
    "integer": _is_integer,
}


def _equal(a: Any, b: Any) -> bool:
    """JSON equality as JSON Schema means it: a boolean is never a number."""
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    if _is_number(a) and _is_number(b):
        return bool(a == b)
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if type(a) is list:
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _compile(schema: Any) -> Check:
    if schema is True:
        return lambda v: True
    if schema is False:
        return lambda v: False
    if type(schema) is not dict:
        raise _Unsupported
    if (schema.keys() & _VOCABULARY) - _SUPPORTED:
        raise _Unsupported
    checks: list[Check] = []
    if "type" in schema:
        checks.append(_type(schema["type"]))
    if "enum" in schema:
        options = list(schema["enum"])
        if options and all(type(o) is str for o in options):  # the usual enum: a set lookup
            texts = frozenset(options)
            checks.append(lambda v: type(v) is str and v in texts)
        else:
            checks.append(lambda v: any(_equal(v, o) for o in options))
    if "const" in schema:
        constant = schema["const"]
        checks.append(lambda v: _equal(v, constant))
    checks.extend(_numbers(schema))
    checks.extend(_strings(schema))
    checks.extend(_arrays(schema))
    checks.extend(_objects(schema))
    for key in ("allOf", "anyOf", "oneOf"):
        if key in schema:
            checks.append(_combined(key, [_compile(s) for s in schema[key]]))
    return _every(checks)


def _every(checks: list[Check]) -> Check:
    """All of ``checks``: a loop, not ``all()`` over a generator (a frame per call)."""
    if not checks:
        return lambda v: True
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda v: first(v) and second(v)
    every = tuple(checks)

    def all_of(v: Any) -> bool:
        for check in every:  # noqa: SIM110  # a loop: all() over a generator is slower
            if not check(v):
                return False
        return True

    return all_of


def _type(kind: Any) -> Check:
    names = [kind] if isinstance(kind, str) else list(kind)
    tests = [_TYPES[n] for n in names]  # KeyError: an unknown type name (check_schema refuses)
    if len(tests) == 1:
        return tests[0]
    return lambda v: any(t(v) for t in tests)


def _numbers(schema: dict[str, Any]) -> list[Check]:
    bounds = [(k, schema[k]) for k in ("minimum", "maximum", "exclusiveMinimum",
                                       "exclusiveMaximum") if k in schema]
    for _, bound in bounds:
        if not _is_number(bound):
            raise _Unsupported
    return [_bound(k, b) for k, b in bounds]


def _bound(key: str, bound: float) -> Check:
    if key == "minimum":
        return lambda v: not _is_number(v) or v >= bound
    if key == "maximum":
        return lambda v: not _is_number(v) or v <= bound
    if key == "exclusiveMinimum":
        return lambda v: not _is_number(v) or v > bound
    return lambda v: not _is_number(v) or v < bound


def _strings(schema: dict[str, Any]) -> list[Check]:
    checks: list[Check] = []
    if "minLength" in schema:
        low = int(schema["minLength"])
        checks.append(lambda v: type(v) is not str or len(v) >= low)
    if "maxLength" in schema:
        high = int(schema["maxLength"])
        checks.append(lambda v: type(v) is not str or len(v) <= high)
    if "pattern" in schema:
        search = compile_bounded(schema["pattern"]).test  # bounded, as jsonschema's
        checks.append(lambda v: type(v) is not str or search(v))
    if "format" in schema and schema["format"] in FORMATS:
        check = FORMATS[schema["format"]]
        checks.append(lambda v: type(v) is not str or check(v))
    return checks


def _arrays(schema: dict[str, Any]) -> list[Check]:
    checks: list[Check] = []
    if "items" in schema:
        if type(schema["items"]) is list:
            raise _Unsupported  # draft 7 tuple form
        item = _compile(schema["items"])
        if schema["items"] == {"type": "string"}:
            checks.append(lambda v: type(v) is not list or all(type(x) is str for x in v))
        else:
            def items(v: Any) -> bool:
                if type(v) is list:
                    for x in v:
                        if not item(x):
                            return False
                return True

            checks.append(items)
    if "minItems" in schema:
        low = int(schema["minItems"])
        checks.append(lambda v: type(v) is not list or len(v) >= low)
    if "maxItems" in schema:
        high = int(schema["maxItems"])
        checks.append(lambda v: type(v) is not list or len(v) <= high)
    return checks


def _objects(schema: dict[str, Any]) -> list[Check]:
    checks: list[Check] = []
    properties = {k: _compile(s) for k, s in (schema.get("properties") or {}).items()}
    required = tuple(schema["required"]) if "required" in schema else ()
    if properties or required:
        pairs = tuple(properties.items())

        def props(v: Any) -> bool:  # properties and required in one pass
            if type(v) is not dict:
                return True
            for key in required:
                if key not in v:
                    return False
            for key, check in pairs:  # noqa: SIM110  # as in _every
                if key in v and not check(v[key]):
                    return False
            return True

        checks.append(props)
    if "additionalProperties" in schema:
        extra = _compile(schema["additionalProperties"])
        known = frozenset(properties)
        checks.append(
            lambda v: type(v) is not dict or all(extra(v[k]) for k in v.keys() - known)
        )
    if "minProperties" in schema:
        low = int(schema["minProperties"])
        checks.append(lambda v: type(v) is not dict or len(v) >= low)
    if "maxProperties" in schema:
        high = int(schema["maxProperties"])
        checks.append(lambda v: type(v) is not dict or len(v) <= high)
    return checks


def _combined(key: str, parts: list[Check]) -> Check:
    if key == "allOf":
        return lambda v: all(p(v) for p in parts)
    if key == "anyOf":
        return lambda v: any(p(v) for p in parts)
    return lambda v: sum(1 for p in parts if p(v)) == 1
