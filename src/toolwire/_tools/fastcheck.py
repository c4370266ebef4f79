"""A fast "is this valid?" for the schemas tools usually have, exact where it says yes.

``jsonschema`` builds an error object per keyword it evaluates; checking three calls that
way costs more than reading the reply they came in. Most tool schemas use a handful of
keywords (type, properties, required, enum, items...), and for those :func:`compile_check`
writes one Python function, straight-line code that returns ``False`` at the first keyword
that fails: a few hundred nanoseconds for a usual tool's arguments, about a quarter of what
a tree of closures costs (each keyword a call). It returns ``None`` for a schema using any
assertion it does not implement (``$ref``, ``pattern`` properties...).

The check is used only one way round: ``True`` means valid, and anything else goes to
``jsonschema``, which finds the errors. So a mistake here can only cost time, never a
verdict, as long as ``True`` is exact; ``tests/test_tools_fastcheck.py`` holds every
``True`` to jsonschema's verdict (drafts 2020-12 and 7) on generated schemas and values.

The generated source holds no text of the schema: property names, enum values, bounds and
patterns reach it as constants bound to the function's globals, so nothing in a schema can
change the code that runs. Functions are remembered by the schema's exact content, so rebuilding
the same tools in a loop writes nothing again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .._boundedre import compile as compile_bounded
from .._speed.generated import compile_function, mode_from_environment
from .formats import FORMATS
from .schema_key import exact_content

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

# A test per JSON Schema type, as an expression of the value's name ``{v}``; a boolean is
# never a number, and an integer may be written as a float with no fraction.
_TYPE_TESTS = {
    "object": "type({v}) is dict",
    "array": "type({v}) is list",
    "string": "type({v}) is str",
    "boolean": "type({v}) is bool",
    "null": "{v} is None",
    "number": "(type({v}) is int or type({v}) is float)",
    "integer": "(type({v}) is int or (type({v}) is float and {v}.is_integer()))",
}
_NUMERIC = frozenset({"number", "integer"})
# What each bound asks of a number, written so that NaN fails it (jsonschema would pass
# NaN; the check then defers, which costs time, never a verdict).
_BOUNDS = {"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}

# Blocks nest at most this deep inside one function; deeper schemas call a function of
# their own (Python refuses more than 20 nested loops, and deep indentation, in one body).
_MAX_DEPTH = 8
_REMEMBERED = 512

_CHECKS: dict[Any, Check | None] = {}


class _Unsupported(Exception):
    pass


def compile_check(schema: Any) -> Check | None:
    """A validity check for ``schema``, or ``None`` where it would not be exact (or where
    ``TOOLWIRE_GENERATED`` turns generated code off: jsonschema then checks alone)."""
    if mode_from_environment() == "off":
        return None
    if isinstance(schema, dict) and "$schema" in schema and schema["$schema"] not in _DRAFTS:
        return None
    try:
        key = exact_content(schema)
    except (TypeError, RecursionError):
        key = None  # not plain JSON: compiled each time, and most likely deferred
    if key is not None and key in _CHECKS:
        return _CHECKS[key]
    try:
        check = _Writer().function(schema)
    except (_Unsupported, RecursionError, re.error, TypeError, ValueError, SyntaxError):
        check = None
    if key is not None:
        if len(_CHECKS) >= _REMEMBERED:
            _CHECKS.clear()
        _CHECKS[key] = check
    return check


def _is_number(value: Any) -> bool:
    return type(value) in (int, float)


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


class _Writer:
    """Writes the check of one schema: a function per schema that needs its own (the top,
    each ``anyOf``/``oneOf`` branch, anything nested past :data:`_MAX_DEPTH`), all in one
    module source whose constants are passed in, never written into it."""

    def __init__(self) -> None:
        self.functions: list[list[str]] = []
        self.constants: dict[str, Any] = {"_equal": _equal}
        self.names = 0

    def function(self, schema: Any) -> Check:
        top = self.define(schema)
        source = "\n".join("\n".join(lines) for lines in self.functions)
        check: Check = compile_function(
            source, "schema check", "tool", dict(self.constants), top)
        return check

    def constant(self, value: Any) -> str:
        name = f"_c{len(self.constants)}"
        self.constants[name] = value
        return name

    def local(self) -> str:
        self.names += 1
        return f"x{self.names}"

    def define(self, schema: Any) -> str:
        """A function ``name(value) -> bool`` for ``schema``; its name."""
        name = f"_f{len(self.functions)}"
        lines = [f"def {name}(v):"]
        self.functions.append(lines)  # reserved first: nested definitions come after it
        body: list[str] = []
        self.emit(schema, "v", body, 1, 0)
        lines.extend(body)
        lines.append("    return True")
        return name

    def emit(self, schema: Any, v: str, out: list[str], indent: int, depth: int) -> None:
        """Statements that return ``False`` where ``v`` fails ``schema``."""
        pad = "    " * indent
        if schema is True:
            return
        if schema is False:
            out.append(f"{pad}return False")
            return
        if type(schema) is not dict:
            raise _Unsupported
        if (schema.keys() & _VOCABULARY) - _SUPPORTED:
            raise _Unsupported
        if depth >= _MAX_DEPTH and schema.keys() & _VOCABULARY:
            out.append(f"{pad}if not {self.define(schema)}({v}): return False")
            return
        known = self.emit_type(schema, v, out, pad)
        # Keywords about another type than the one the value must have cannot fail it.
        kinds = (set(_TYPE_TESTS) if known is None
                 else {known} | (_NUMERIC if known in _NUMERIC else set()))
        if "enum" in schema:
            options = list(schema["enum"])
            if options and all(type(o) is str for o in options):
                texts = self.constant(frozenset(options))
                out.append(f"{pad}if type({v}) is not str or {v} not in {texts}: return False")
            else:
                every = self.constant(tuple(options))
                out.append(f"{pad}for o in {every}:")
                out.append(f"{pad}    if _equal({v}, o): break")
                out.append(f"{pad}else:")
                out.append(f"{pad}    return False")
        if "const" in schema:
            out.append(f"{pad}if not _equal({v}, {self.constant(schema['const'])}): return False")
        if kinds & _NUMERIC:
            self.emit_numbers(schema, v, out, pad, known)
        if "string" in kinds:
            self.emit_strings(schema, v, out, pad, known)
        if "array" in kinds:
            self.emit_arrays(schema, v, out, indent, depth, known)
        if "object" in kinds:
            self.emit_objects(schema, v, out, indent, depth, known)
        for part in schema.get("allOf", ()):
            self.emit(part, v, out, indent, depth + 1)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                branches = [f"{self.define(part)}({v})" for part in schema[key]]
                if not branches:
                    raise _Unsupported  # an empty list is no schema; check_schema says so
                if key == "anyOf":
                    out.append(f"{pad}if not ({' or '.join(branches)}): return False")
                else:
                    out.append(f"{pad}if [{', '.join(branches)}].count(True) != 1: return False")

    def emit_type(self, schema: dict[str, Any], v: str, out: list[str], pad: str) -> str | None:
        """The type test; the one type the value then has, where the schema names one."""
        if "type" not in schema:
            return None
        kind = schema["type"]
        names = [kind] if isinstance(kind, str) else list(kind)
        if not names or any(n not in _TYPE_TESTS for n in names):
            raise _Unsupported
        tests = " or ".join(_TYPE_TESTS[n].format(v=v) for n in names)
        out.append(f"{pad}if not ({tests}): return False")
        return names[0] if len(names) == 1 else None

    def emit_numbers(
        self, schema: dict[str, Any], v: str, out: list[str], pad: str, known: str | None
    ) -> None:
        guard = "" if known in _NUMERIC else f"{_TYPE_TESTS['number'].format(v=v)} and "
        for key, op in _BOUNDS.items():
            if key in schema:
                bound = schema[key]
                if not _is_number(bound):
                    raise _Unsupported  # draft 4's boolean exclusive bounds, or worse
                out.append(f"{pad}if {guard}not {v} {op} {self.constant(bound)}: return False")

    def emit_strings(
        self, schema: dict[str, Any], v: str, out: list[str], pad: str, known: str | None
    ) -> None:
        guard = "" if known == "string" else f"type({v}) is str and "
        if "minLength" in schema:
            out.append(f"{pad}if {guard}len({v}) < {int(schema['minLength'])}: return False")
        if "maxLength" in schema:
            out.append(f"{pad}if {guard}len({v}) > {int(schema['maxLength'])}: return False")
        if "pattern" in schema:
            search = self.constant(compile_bounded(schema["pattern"]).test)  # bounded
            out.append(f"{pad}if {guard}not {search}({v}): return False")
        if "format" in schema and schema["format"] in FORMATS:
            check = self.constant(FORMATS[schema["format"]])
            out.append(f"{pad}if {guard}not {check}({v}): return False")

    def emit_arrays(
        self, schema: dict[str, Any], v: str, out: list[str], indent: int, depth: int,
        known: str | None,
    ) -> None:
        lines: list[str] = []
        inner = indent if known == "array" else indent + 1
        pad = "    " * inner
        if "items" in schema:
            if type(schema["items"]) is list:
                raise _Unsupported  # draft 7 tuple form
            item = self.local()
            body: list[str] = []
            self.emit(schema["items"], item, body, inner + 1, depth + 1)
            if body:
                lines.append(f"{pad}for {item} in {v}:")
                lines.extend(body)
        if "minItems" in schema:
            lines.append(f"{pad}if len({v}) < {int(schema['minItems'])}: return False")
        if "maxItems" in schema:
            lines.append(f"{pad}if len({v}) > {int(schema['maxItems'])}: return False")
        self.guarded(lines, out, f"type({v}) is list", indent, known == "array")

    def emit_objects(
        self, schema: dict[str, Any], v: str, out: list[str], indent: int, depth: int,
        known: str | None,
    ) -> None:
        lines: list[str] = []
        inner = indent if known == "object" else indent + 1
        pad = "    " * inner
        required = list(schema.get("required", ()))
        if required:
            if not all(type(k) is str for k in required):
                raise _Unsupported
            missing = " or ".join(f"{self.constant(k)} not in {v}" for k in required)
            lines.append(f"{pad}if {missing}: return False")
        properties = schema.get("properties") or {}
        if type(properties) is not dict:
            raise _Unsupported
        for key, part in properties.items():
            value = self.local()
            body: list[str] = []
            self.emit(part, value, body, inner + 1, depth + 1)
            if body:
                name = self.constant(key)
                lines.append(f"{pad}if {name} in {v}:")
                lines.append(f"{pad}    {value} = {v}[{name}]")
                lines.extend(body)
        if "additionalProperties" in schema:
            extra = schema["additionalProperties"]
            known_keys = self.constant(frozenset(properties))
            value, name = self.local(), self.local()
            body = []
            self.emit(extra, value, body, inner + 2, depth + 1)
            if body:
                lines.append(f"{pad}for {name} in {v}:")
                lines.append(f"{pad}    if {name} not in {known_keys}:")
                lines.append(f"{pad}        {value} = {v}[{name}]")
                lines.extend(body)
        if "minProperties" in schema:
            lines.append(f"{pad}if len({v}) < {int(schema['minProperties'])}: return False")
        if "maxProperties" in schema:
            lines.append(f"{pad}if len({v}) > {int(schema['maxProperties'])}: return False")
        self.guarded(lines, out, f"type({v}) is dict", indent, known == "object")

    @staticmethod
    def guarded(lines: list[str], out: list[str], test: str, indent: int, known: bool) -> None:
        """``lines`` as they are where the value's type is known, else under ``if test:``
        (a keyword about arrays says nothing of a string)."""
        if not lines:
            return
        if not known:
            out.append(f"{'    ' * indent}if {test}:")
        out.extend(lines)
