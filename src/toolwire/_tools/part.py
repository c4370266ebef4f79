"""A wire spec's ``tools`` part, compiled: how to find the tool definitions of a request.

The part is data in the spec (specs/README.md §8.1); this module compiles its expressions
once per spec and walks a request body (or a bare tool list) to the definitions it holds,
each paired with the spec entry that reads it. What a definition *means* (its schema, its
dialect) is :mod:`toolwire._tools.dialect`'s business.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .._expression import Expression, NotJSONError, compile_expression
from .._spec import WireSpec
from ..errors import InvalidTools, MalformedResponse

__all__ = ["Others", "RawTool", "Shape", "ToolPart", "tool_part"]


Others = tuple[tuple[str, "ToolPart"], ...]
"""Other formats' tools parts, by format name (a registry's, base formats first)."""


@dataclass(frozen=True, slots=True, init=False)
class Shape:
    """One entry of ``tools.definitions``: when it applies and what it reads."""

    index: int
    when: Expression | None
    name: Expression | None
    parameters: Expression | None
    strict: Expression | None
    data: Mapping[str, Any]

    def __init__(self, index: int, data: Mapping[str, Any]) -> None:
        object.__setattr__(self, "index", index)
        for key in ("when", "name", "parameters", "strict"):
            source = data.get(key)
            object.__setattr__(self, key, None if source is None else compile_expression(source))
        object.__setattr__(self, "data", data)

    @property
    def kind(self) -> str:
        """``parameters``, ``schema``, ``unchecked`` or ``not_a_tool``."""
        for kind in ("parameters", "schema", "unchecked", "not_a_tool"):
            if kind in self.data:
                return kind
        raise AssertionError("the loader checks that a definition has a kind")


@dataclass(frozen=True, slots=True, init=False)
class RawTool:
    """One tool definition found in a request, with the spec entry that reads it."""

    index: int
    definition: dict[str, Any]
    shape: Shape

    def __init__(self, index: int, definition: dict[str, Any], shape: Shape) -> None:
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "definition", definition)
        object.__setattr__(self, "shape", shape)


class ToolPart:
    """The compiled ``tools`` part of one spec."""

    def __init__(self, fmt: str, data: Mapping[str, Any]) -> None:
        self.format = fmt
        self.request_sources: tuple[str, ...] = tuple(data["request"])
        self.request = tuple(compile_expression(s) for s in data["request"])
        select = data.get("select")
        self.select = None if select is None else tuple(compile_expression(s) for s in select)
        self.shapes = tuple(Shape(i, d) for i, d in enumerate(data["definitions"]))
        self.translations: Mapping[str, Any] = data.get("translations") or {}
        looks_like = data.get("looks_like")
        self.looks_like = None if looks_like is None else compile_expression(looks_like)

    def _error(self, reason: str, **where: Any) -> InvalidTools:
        return InvalidTools(self.format, reason, **where)

    def _evaluate(self, expression: Expression, value: Any, what: str) -> Any:
        try:
            return expression.evaluate(value)
        except NotJSONError:
            raise  # an SDK object inside plain data: read() makes the whole input JSON
        except ValueError as exc:
            raise self._error(f"{what} ({expression.source!r}) failed: {exc}") from None

    def plain(self, tools: Any) -> Any:
        """``tools`` as JSON: SDK objects (a google-genai ``types.Tool``, a
        ``GenerateContentConfig``, a mistralai ``Tool``…) dumped by alias, without nulls,
        bytes as base64 text (toolwire._sdk_objects, §5)."""
        # lazy: SDK object support (16 ms) only for an SDK request
        from .._sdk_objects import jsonable

        try:
            return jsonable(tools, self.format)
        except MalformedResponse as exc:
            raise self._error(f"the tool list is not JSON data: {exc.reason}") from None

    def lists(self, tools: Any) -> list[list[Any]]:
        """The tool lists of a request body, or ``[tools]`` for a bare list."""
        if not isinstance(tools, (str, bytes, bytearray, list, dict)) and _is_object(tools):
            tools = self.plain(tools)
        if isinstance(tools, (str, bytes, bytearray)):
            try:
                tools = json.loads(tools)
            except (ValueError, RecursionError) as exc:
                raise self._error(f"the tool list is not JSON: {exc}") from None
            if not isinstance(tools, (list, dict)):
                raise self._error(f"the JSON text is a {type(tools).__name__}, not a request"
                                  " body or a tool list")
        if isinstance(tools, list):
            return [tools]
        if not isinstance(tools, dict):
            raise TypeError(
                "tools must be a request body (dict), its tool list (list), JSON text of"
                f" either, or a toolwire.Tools, not {type(tools).__name__}"
            )
        found: list[list[Any]] = []
        for source, expression in zip(self.request_sources, self.request, strict=True):
            value = self._evaluate(expression, tools, "reading the request")
            if value is None:
                continue
            if not isinstance(value, list):
                raise self._error(
                    f"the request's {source!r} is {type(value).__name__}, not a tool list"
                )
            found.append(value)
        if not found:
            looked = ", ".join(repr(s) for s in self.request_sources)
            raise self._error(f"the request body has no tool list (looked at {looked})")
        return found

    def read(self, tools: Any, others: Others = ()) -> list[RawTool]:
        """Every tool definition in ``tools``, in request order, each with its shape.

        ``others`` are the other formats' tools parts: an element of a tool list that
        this format's ``looks_like`` does not hold on, and another's does, is refused
        naming that format (§8.1) before anything reads it."""
        try:
            return self._read(tools, others)
        except NotJSONError:  # SDK objects inside a list or a body: read its JSON instead
            return self._read(self.plain(tools), others)

    def _foreign(self, position: int, element: Any, others: Others) -> None:
        if self.looks_like is None or not isinstance(element, dict):
            return
        if self._evaluate(self.looks_like, element, "looks_like") is True:
            return
        owners = [fmt for fmt, part in others if part.looks_like is not None
                  and part.looks_like.source != self.looks_like.source
                  and _holds(part.looks_like, element)]
        if owners:
            also = f" (also {', '.join(owners[1:4])})" if len(owners) > 1 else ""
            raise self._error(
                f"element {position} of the tool list is a tool in the {owners[0]} format"
                f"{also}, not {self.format}'s: build toolwire.Tools({owners[0]!r}, request)"
                f" for that request, or pass {self.format}'s own tool list"
            )

    def _read(self, tools: Any, others: Others) -> list[RawTool]:
        raw: list[RawTool] = []
        position = 0
        for tool_list in self.lists(tools):
            for element in tool_list:
                self._foreign(position, element, others)
                position += 1
            elements: list[Any] = []
            if self.select is None:
                elements = list(tool_list)
            else:
                for expression in self.select:
                    value = self._evaluate(expression, tool_list, "selecting definitions")
                    if isinstance(value, list):
                        elements.extend(value)
                    elif value is not None:
                        raise self._error(
                            f"selecting definitions ({expression.source!r}) gave"
                            f" {type(value).__name__}, not a list"
                        )
            for element in elements:
                index = len(raw)
                if not isinstance(element, dict):
                    if _is_object(element):
                        raise NotJSONError(element)  # an SDK object: read() dumps the input
                    raise self._error(
                        f"a tool definition must be an object, not {type(element).__name__}",
                        index=index,
                    )
                raw.append(RawTool(index, element, self._shape(index, element)))
        return raw

    def _shape(self, index: int, element: dict[str, Any]) -> Shape:
        for shape in self.shapes:
            if shape.when is None:
                return shape
            if self._evaluate(shape.when, element, "a definition's when") is True:
                return shape
        shown = element.get("type")
        described = (
            f"of type {shown!r}" if isinstance(shown, str) else f"with keys {sorted(element)[:6]}"
        )
        raise self._error(
            f"the definition {described} matches no entry of the {self.format} spec's tools"
            " part",
            index=index,
        )


def _holds(predicate: Expression, value: Any) -> bool:
    try:
        return predicate.evaluate(value) is True
    except ValueError:
        return False


def _is_object(value: Any) -> bool:
    """An SDK object (a model, a dataclass, a mapping): something to dump, not a type error."""
    kind = type(value)
    return (callable(getattr(kind, "model_dump", None)) or hasattr(kind, "__fields__")
            or hasattr(kind, "__dataclass_fields__") or isinstance(value, Mapping))


_PARTS: dict[int, tuple[WireSpec, ToolPart]] = {}
_LOCK = threading.Lock()


def tool_part(spec: WireSpec) -> ToolPart:
    """The compiled ``tools`` part of ``spec``, compiled on first use and kept."""
    held = _PARTS.get(id(spec))
    if held is not None and held[0] is spec:
        return held[1]
    data = spec.tools_part
    if data is None:
        raise InvalidTools(
            spec.format,
            "this format's spec has no tools part, so its request's tool list cannot be read;"
            " pass toolwire.Tools.from_schemas({name: schema, ...}) instead",
        )
    part = ToolPart(spec.format, data)
    with _LOCK:
        _PARTS[id(spec)] = (spec, part)  # the spec is held, so its id is never reused
    return part
