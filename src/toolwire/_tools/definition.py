"""One offered tool, compiled: its name, kind, JSON Schema and the validator built for it.

A :class:`ToolDefinition` is built once from one definition of a request's tool list
(:mod:`toolwire._tools.part` finds it, :mod:`toolwire._tools.dialect` makes its schema JSON
Schema) and then only read, so one may check calls in many threads at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .._boundedre import one_budget
from .._values.json_values import copy_json
from .._values.toolcall import ArgumentError
from ..errors import InvalidTools, RegexBudgetExceeded
from .dialect import SchemaProblem, make_strict, translate, validator_class
from .fastcheck import Check, compile_check
from .part import RawTool, Shape
from .references import check_references
from .schema_key import exact_content
from .validators import check_pattern_nesting, check_patterns, make_validator

__all__ = ["ToolDefinition", "compile_definition", "schema_definition"]

_ANY_OBJECT: dict[str, Any] = {"type": "object"}


@dataclass(frozen=True, slots=True, init=False)
class ToolDefinition:
    """An offered tool.

    ``kind`` is ``function`` (arguments checked against ``schema``, the request's own
    schema made JSON Schema) , ``fixed`` (a provider-defined tool whose input shape the spec
    states) or ``unchecked`` (offered by name, input not checked: ``reason`` says why).
    ``index`` is the definition's position in the request (``None`` for a tool made from a
    bare schema), ``strict`` whether strict mode applied.
    """

    name: str
    kind: str
    schema: dict[str, Any] | None
    strict: bool
    dialect: str
    index: int | None
    reason: str | None
    _validator: Any = field(compare=False, repr=False)
    _check: Check | None = field(compare=False, repr=False)

    def __init__(
        self, name: str, kind: str, schema: dict[str, Any] | None, *, strict: bool = False,
        dialect: str = "draft2020-12", index: int | None = None, reason: str | None = None,
        validator: Any = None,
    ) -> None:
        for attribute, value in (
            ("name", name), ("kind", kind), ("schema", schema), ("strict", strict),
            ("dialect", dialect), ("index", index), ("reason", reason),
            ("_validator", validator),
            ("_check", None if schema is None else compile_check(schema)),
        ):
            object.__setattr__(self, attribute, value)

    def __hash__(self) -> int:
        return hash((self.name, self.kind, self.index))

    def __reduce__(self) -> tuple[Any, ...]:
        # The validator and the fast check are rebuilt from the schema, never pickled.
        # Through a method of the class: the pickle names only the published class.
        return (type(self)._restored, (self.name, self.kind, self.schema, self.strict,
                                       self.dialect, self.index, self.reason))

    @classmethod
    def _restored(
        cls, name: str, kind: str, schema: dict[str, Any] | None, strict: bool, dialect: str,
        index: int | None, reason: str | None,
    ) -> ToolDefinition:
        return _rebuild(name, kind, schema, strict, dialect, index, reason)

    def errors(self, arguments: dict[str, Any]) -> tuple[ArgumentError, ...]:
        """Every way ``arguments`` fail the schema, by pointer then keyword; ``()`` if none."""
        if self._validator is None:
            return ()
        with one_budget():  # every search of one call's check shares one budget of steps
            check = self._check
            if check is not None:
                try:
                    if check(arguments):
                        return ()  # the fast check is exact where it answers True (fastcheck.py)
                except (RecursionError, RegexBudgetExceeded):
                    pass  # no answer: jsonschema says what is wrong
            try:
                found = {
                    (_pointer(e.absolute_path), str(e.validator), _short(e.message))
                    for e in self._validator.iter_errors(arguments)
                }
            except RecursionError:
                return (ArgumentError("", "too_deep", "the arguments nest too deeply to be"
                                      " checked against the tool's schema"),)
        return tuple(ArgumentError(*f) for f in sorted(found))


ToolDefinition.__module__ = "toolwire.types"  # the published name (set after the dataclass
# decorator, which resolves annotations in the module the class names)


def _rebuild(
    name: str, kind: str, schema: dict[str, Any] | None, strict: bool, dialect: str,
    index: int | None, reason: str | None,
) -> ToolDefinition:
    """A definition rebuilt from its pickled fields (pickles written by 0.2.0 name this)."""
    validator = None if schema is None else _validator(None, name, index, schema, dialect)
    return ToolDefinition(name, kind, schema, strict=strict, dialect=dialect, index=index,
                          reason=reason, validator=validator)


def _pointer(path: Any) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _short(message: str) -> str:
    return message if len(message) <= 300 else f"{message[:280]}… ({len(message)} characters)"


def _validator(fmt: str | None, name: str, index: int | None, schema: Any, dialect: str) -> Any:
    import jsonschema  # lazy: jsonschema (66 ms) only for a schema the fast check cannot take

    cls = validator_class(schema, dialect)
    key = _schema_key(cls, schema)
    if key is None or key not in _VALID_SCHEMAS:
        try:
            check_pattern_nesting(schema)  # before the meta-schema hands patterns to re
            cls.check_schema(schema)
            check_references(schema, cls)  # every $ref resolves inside, none loops in place
            check_patterns(schema)  # every pattern runs with a bound
        except jsonschema.SchemaError as exc:
            raise InvalidTools(
                fmt, f"not a valid JSON Schema: {_short(exc.message)}", tool=name, index=index,
                pointer=_pointer(exc.path),
            ) from None
        except SchemaProblem as exc:
            raise InvalidTools(fmt, exc.reason, tool=name, index=index,
                               pointer=exc.pointer) from None
        except RecursionError:
            raise InvalidTools(fmt, "the schema is nested too deeply to check", tool=name,
                               index=index, pointer="") from None
        if key is not None:
            if len(_VALID_SCHEMAS) >= _MEMO_SIZE:
                _VALID_SCHEMAS.clear()
            _VALID_SCHEMAS.add(key)
    # Cheap: jsonschema builds what it needs on the first validation. Nothing is ever
    # retrieved, patterns are bounded, formats asserted (validators.py).
    return make_validator(cls, schema)


# Checking a schema against its meta-schema is most of the cost of building Tools (about
# a millisecond per tool), and a loop builds the same tools for every reply it reads
# (``read(..., tools=request)``). Whether a schema is valid depends on its content only,
# so the schemas found valid are remembered, by content and validator class; a bad one
# is checked, and refused, every time.
_VALID_SCHEMAS: set[tuple[Any, ...]] = set()
_MEMO_SIZE = 4096


def _schema_key(cls: Any, schema: Any) -> tuple[Any, ...] | None:
    """``(cls, content)`` with every value's exact type in it (``1`` is not ``1.0`` is
    not ``true`` to a meta-schema), or None for content that is not plain JSON."""
    try:
        return (cls, exact_content(schema))
    except (TypeError, RecursionError):
        return None


def schema_definition(
    name: str, schema: Any, *, strict: bool = False, dialect: str = "draft2020-12",
    fmt: str | None = None, index: int | None = None, kind: str = "function",
) -> ToolDefinition:
    """A tool from a JSON Schema: strict mode applied if asked, the schema checked."""
    if not isinstance(schema, (dict, bool)):
        raise InvalidTools(fmt, f"the schema must be an object, not {type(schema).__name__}",
                           tool=name, index=index, pointer="")
    if isinstance(schema, bool):
        schema = {} if schema else {"not": {}}
    if strict:
        try:
            schema = make_strict(schema)
        except SchemaProblem as exc:
            raise InvalidTools(fmt, exc.reason, tool=name, index=index,
                               pointer=exc.pointer) from None
    else:
        schema = copy_json(schema)
    validator = _validator(fmt, name, index, schema, dialect)
    return ToolDefinition(name, kind, schema, strict=strict, dialect=dialect, index=index,
                          validator=validator)


def compile_definition(fmt: str, raw: RawTool, translations: Any) -> list[ToolDefinition]:
    """The tools one request definition offers (none for ``not_a_tool``, several for
    ``names``)."""
    shape: Shape = raw.shape
    data = shape.data
    kind = shape.kind
    if kind == "not_a_tool":
        return []
    if kind == "unchecked" and "names" in data:
        return [ToolDefinition(n, "unchecked", None, index=raw.index, reason=data["unchecked"])
                for n in data["names"]]
    name = _name(fmt, raw)
    if kind == "unchecked":
        if name is None:
            return []  # a tool with no name of its own: no call can name it (see §8.2)
        return [ToolDefinition(name, "unchecked", None, index=raw.index,
                               reason=data["unchecked"])]
    if name is None:
        raise InvalidTools(fmt, "the tool has no name (or it is not a non-empty string)",
                           index=raw.index)
    dialect = data.get("dialect", "draft2020-12")
    if kind == "schema":
        return [schema_definition(name, data["schema"], dialect=dialect, fmt=fmt,
                                  index=raw.index, kind="fixed")]
    assert shape.parameters is not None
    schema = _evaluate(fmt, raw, shape.parameters)
    if schema is None:
        schema = data.get("absent", _ANY_OBJECT)
    elif "translate" in data:
        table = translations[data["translate"]]
        try:
            schema = translate(schema, table)
        except SchemaProblem as exc:
            raise InvalidTools(fmt, exc.reason, tool=name, index=raw.index,
                               pointer=exc.pointer) from None
        dialect = table.get("dialect", "draft2020-12")
    strict = shape.strict is not None and _evaluate(fmt, raw, shape.strict) is True
    return [schema_definition(name, schema, strict=strict, dialect=dialect, fmt=fmt,
                              index=raw.index)]


def _evaluate(fmt: str, raw: RawTool, expression: Any) -> Any:
    try:
        return expression.evaluate(raw.definition)
    except ValueError as exc:
        raise InvalidTools(fmt, f"reading {expression.source!r} failed: {exc}",
                           index=raw.index) from None


def _name(fmt: str, raw: RawTool) -> str | None:
    if raw.shape.name is None:
        return None
    name = _evaluate(fmt, raw, raw.shape.name)
    return name if isinstance(name, str) and name else None
