"""The rules of a text spec that JSON Schema cannot state, each with a stable code.

======================  ===============================================================
rule                    meaning
======================  ===============================================================
``format-name``         ``format`` differs from the file's name
``bad-placeholder``     a ``${`` in a marker that does not open ``${name}``
``unknown-param``       a marker names a parameter ``params`` does not declare
``unused-param``        a declared parameter no marker uses
``reserved-param``      a parameter named ``tools`` (the callers' tool list)
``bad-pattern``         a parameter's ``pattern`` is not a regular expression
``param-default``       a parameter's default breaks its own pattern, or is empty without one
``marker-clash``        a marker the scanner searches for occurs inside another
``name-source``         an xml-parameters payload needs exactly one of function, name_end
``head-id``             a head-json payload takes its id from the head and an id_marker
``arguments-source``    a json payload gives both ``arguments`` and ``arguments_keys``
``bare-block``          ``block.bare`` without an xml-parameters payload with function tags
``text-start``          ``text_start`` with a section, or without a json or pythonic
                        payload (only those end where their value ends, and only they
                        read the block at the text's start)
``expression-syntax``   an expression does not parse
``expression-not-portable``  an expression leaves the portable JMESPath subset
``bare-literal-name``   an unquoted null/true/false names a field (specs/README.md §1.2)
======================  ===============================================================

Each check looks only at values of the right type; wrong types are the meta-schema's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import PurePath
from typing import Any

from .._expression import Expression, ExpressionError, compile_expression
from .._expression.portable import compile_spec_expression
from .._spec.bare_names import bare_literal_message, bare_literal_name
from .._spec.strict_yaml import Document, escape_pointer
from ..errors import SpecProblem
from .layout import expressions, markers, objects
from .markers import Template, TemplateError, parse_template

__all__ = ["check_rules"]



def check_rules(
    doc: Document, templates: dict[str, Template], compiled: dict[str, Expression]
) -> Iterator[SpecProblem]:
    """Every cross-field problem of ``doc``; fills ``templates`` and ``compiled`` on the way."""
    data: dict[str, Any] = doc.data
    yield from _format_name(doc, data)
    yield from _templates(doc, data, templates)
    yield from _params(doc, data, templates)
    yield from _clashes(doc, data)
    yield from _payloads(doc, data)
    yield from _expressions(doc, data, compiled)


def _format_name(doc: Document, data: dict[str, Any]) -> Iterator[SpecProblem]:
    path = PurePath(doc.path)
    name = data.get("format")
    if path.suffix in (".yaml", ".yml") and isinstance(name, str) and name != path.stem:
        message = f"format {name!r} must match the file name {path.stem!r}"
        yield doc.problem("/format", message, "format-name")


def _templates(
    doc: Document, data: dict[str, Any], templates: dict[str, Template]
) -> Iterator[SpecProblem]:
    params = data.get("params")
    declared = set(params) if isinstance(params, dict) else set()
    for pointer, source in markers(data):
        try:
            template = parse_template(source)
        except TemplateError as exc:
            yield doc.problem(pointer, str(exc), "bad-placeholder")
            continue
        templates[pointer] = template
        for name in template.names:
            if name not in declared:
                yield doc.problem(
                    pointer, f"${{{name}}} names no parameter declared in params", "unknown-param"
                )


def _params(
    doc: Document, data: dict[str, Any], templates: dict[str, Template]
) -> Iterator[SpecProblem]:
    params = data.get("params")
    if not isinstance(params, dict):
        return
    used = {name for template in templates.values() for name in template.names}
    for name, param in params.items():
        pointer = f"/params/{escape_pointer(name)}"
        if name == "tools":
            message = "'tools' is the callers' tool list (typed values), not a parameter name"
            yield doc.problem(pointer, message, "reserved-param", key=True)
        if name not in used:
            message = f"parameter {name!r} is used by no marker"
            yield doc.problem(pointer, message, "unused-param", key=True)
        if not isinstance(param, dict):
            continue
        if not isinstance(param.get("pattern"), str):
            if param.get("default") == "":
                message = "an empty default needs a pattern that matches the empty string"
                yield doc.problem(f"{pointer}/default", message, "param-default")
            continue
        try:
            pattern = re.compile(param["pattern"])
        except re.error as exc:
            message = f"not a regular expression: {exc}"
            yield doc.problem(f"{pointer}/pattern", message, "bad-pattern")
            continue
        default = param.get("default")
        if isinstance(default, str) and pattern.fullmatch(default) is None:
            message = f"default {default!r} does not match the pattern"
            yield doc.problem(f"{pointer}/default", message, "param-default")


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _structural_markers(data: dict[str, Any]) -> list[tuple[str, str]]:
    """``(pointer, text)`` of the markers the scanner itself searches for."""
    found: list[tuple[str, str]] = []
    for group in ("section", "block"):
        entry = _mapping(data.get(group))
        opens = entry.get("open")
        for i, marker in enumerate(opens if isinstance(opens, list) else [opens]):
            suffix = f"/{i}" if isinstance(opens, list) else ""
            if isinstance(marker, str):
                found.append((f"/{group}/open{suffix}", marker))
            elif isinstance(marker, dict):  # an open marker with its own close marker
                for key in ("open", "close"):
                    if isinstance(marker.get(key), str):
                        found.append((f"/{group}/open{suffix}/{key}", marker[key]))
        if isinstance(entry.get("close"), str):
            found.append((f"/{group}/close", entry["close"]))
    return found


def _clashes(doc: Document, data: dict[str, Any]) -> Iterator[SpecProblem]:
    """No marker the scanner searches for may occur inside another (block opens aside:
    where several start at one place, the longest wins)."""
    markers = _structural_markers(data)
    for i, (pointer, marker) in enumerate(markers):
        for j, (other_pointer, other) in enumerate(markers):
            both_opens = _is_open(pointer) and _is_open(other_pointer)
            # an open marker's own close is looked for only after that open marker
            own = pointer.endswith("/close") and other_pointer == pointer[: -len("close")] + "open"
            if i == j or both_opens or own or marker not in other or (marker == other and j < i):
                continue
            where = "is also" if marker == other else "occurs inside"
            message = f"{marker!r} {where} the marker at {other_pointer}"
            yield doc.problem(pointer, message, "marker-clash")


def _is_open(pointer: str) -> bool:
    """Whether the marker at ``pointer`` opens a block."""
    return pointer.startswith("/block/open") and not pointer.endswith("/close")


def _payloads(doc: Document, data: dict[str, Any]) -> Iterator[SpecProblem]:
    text_start = _mapping(data.get("block")).get("text_start") is True
    if text_start and "section" in data:
        message = "a block at the text's start cannot be in a section"
        yield doc.problem("/block/text_start", message, "text-start")
    payloads = objects(data.get("payload"))
    if text_start and payloads and not any(
        entry.get("grammar") in ("json", "pythonic") for _, entry in payloads
    ):
        message = (
            "a block at the text's start is read by the json and pythonic alternatives"
            " (they end where their value ends); this spec has none"
        )
        yield doc.problem("/block/text_start", message, "text-start")
    if _mapping(data.get("block")).get("bare") is True and not any(
        entry.get("grammar") == "xml-parameters" and "function" in entry
        for _, entry in objects(data.get("payload"))
    ):
        message = "a bare block needs an xml-parameters payload with 'function' markers"
        yield doc.problem("/block/bare", message, "bare-block")
    for i, entry in objects(data.get("payload")):
        base, grammar = f"/payload/{i}", entry.get("grammar")
        if grammar == "xml-parameters" and ("function" in entry) == ("name_end" in entry):
            message = (
                "give exactly one of 'function' (tagged functions) and 'name_end'"
                " (the block starts with the name)"
            )
            yield doc.problem(base, message, "name-source")
        if grammar == "json" and "arguments" in entry and "arguments_keys" in entry:
            message = (
                "the arguments come from 'arguments' (an expression) or 'arguments_keys', not both"
            )
            yield doc.problem(f"{base}/arguments_keys", message, "arguments-source")
        if grammar == "head-json" and entry.get("id") == "head" and "id_marker" in entry:
            message = "the id comes either from the whole head or from after id_marker, not both"
            yield doc.problem(f"{base}/id", message, "head-id")


def _expressions(
    doc: Document, data: dict[str, Any], compiled: dict[str, Expression]
) -> Iterator[SpecProblem]:
    for i, entry in objects(data.get("payload")):
        if entry.get("grammar") == "json":
            for key, default in (("name", "name"), ("arguments", "arguments")):
                if key not in entry and not (key == "arguments" and "arguments_keys" in entry):
                    compiled[f"/payload/{i}/{key}"] = compile_expression(default)
    for pointer, source in expressions(data):
        try:
            compiled[pointer] = compile_spec_expression(source)
        except ExpressionError as exc:
            line, col = doc.where(pointer)
            if "\n" not in source:
                col += exc.offset + 1  # past the opening quote
            yield SpecProblem(doc.path, line, col, pointer, exc.message, exc.rule)
            continue
        bare = bare_literal_name(source)
        if bare is not None:  # as in wire specs (specs/README.md §1.2)
            offset, name = bare
            line, col = doc.where(pointer)
            if "\n" not in source:
                col += offset + 1
            message = bare_literal_message(name)
            yield SpecProblem(doc.path, line, col, pointer, message, "bare-literal-name")
