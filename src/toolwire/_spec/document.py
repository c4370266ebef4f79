"""Loading a wire spec file: strict YAML, the meta-schema, then the rules it cannot state.

Every problem of a file is gathered and raised at once as one :class:`SpecError`, each
located ``path:line:col`` with its JSON pointer and a stable rule code, so a spec
author fixes a file in one pass. The rules, with their codes (``specs/README.md``
lists them too):

======================  ===============================================================
rule                    meaning
======================  ===============================================================
``yaml-*``              the YAML itself (see :mod:`toolwire._spec.strict_yaml`)
``not-a-mapping``       the file is not a YAML mapping
``unknown-key``         a key the language does not define (``x-`` keys excepted)
``missing-key``         a required key is absent
``wrong-type``          a value of the wrong JSON type
``bad-value``           a value outside its allowed set, length or pattern
``unsupported-version`` ``spec_version`` is not one this toolwire reads
``format-name``         ``format`` differs from the file's name
``type-source``         a source needs exactly one of type_field, type_by_key, type_const
``when-required``       a type listed more than once lacks ``when`` on some entry
``expression-syntax``   an expression does not parse
``expression-not-portable``  an expression leaves the portable JMESPath subset
``predicate-not-boolean``  a predicate's form can never yield a boolean (:mod:`.predicates`)
``bare-literal-name``   an unquoted null/true/false names a field (:mod:`.bare_names`)
``extends-*``           ``extends`` resolution (see :mod:`toolwire._spec.extends`)
``tools-*``             the ``tools`` part (see :mod:`toolwire._spec.tools_part`)
======================  ===============================================================

``jsonschema`` is imported here only, and only when a spec is checked.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from .._expression import ExpressionError
from .._expression.portable import compile_spec_expression
from .._paths import bundled_specs_dir
from ..errors import SpecError, SpecProblem
from . import strict_yaml
from .bare_names import bare_literal_message, bare_literal_name
from .entries import render_expressions
from .predicates import PREDICATE_POINTER, predicate_problem
from .stream_part import stream_expressions, stream_problems
from .strict_yaml import Document, escape_pointer
from .tools_part import tools_expressions, tools_problems
from .wirespec import KINDS

__all__ = ["check_wire_document", "read_document"]

SUPPORTED_VERSIONS = frozenset({1})

_EXPRESSION_KEYS = frozenset(
    {"select", "when", "name", "arguments", "id", "status", "input"}
)
_TOP_EXPRESSIONS = ("truncated", "finish_reason", "content")


MAX_SPEC_BYTES = 1 << 20
"""The largest spec file read (1 MiB; the bundled ones are under 20 KB): a file from a
folder a service was pointed at is held to it before a byte is parsed."""

MAX_SPEC_BYTES_VARIABLE = "TOOLWIRE_MAX_SPEC_BYTES"
"""The environment variable that sets another bound, in bytes (``0``: none)."""


def _bundled(path: Path) -> bool:
    folder = os.path.join(os.path.abspath(bundled_specs_dir()), "")
    return os.path.abspath(path).startswith(folder)


def max_spec_bytes() -> int:
    """The bound in force: :data:`MAX_SPEC_BYTES_VARIABLE` if set, else the default; a
    :class:`ValueError` for a value that is no byte count."""
    raw = os.environ.get(MAX_SPEC_BYTES_VARIABLE, "").strip()
    if not raw:
        return MAX_SPEC_BYTES
    if not raw.isdigit():
        raise ValueError(f"{MAX_SPEC_BYTES_VARIABLE}={raw!r} is not a byte count")
    return int(raw)


def read_document(path: str | Path) -> Document:
    """Read a spec file as strict YAML, with its path as errors will show it.

    A file larger than :func:`max_spec_bytes` is ``unreadable``; no more than the bound
    and one byte is ever read. The bundled specs are toolwire's own, held to no bound.
    """
    path = Path(path)
    try:
        limit = 0 if _bundled(path) else max_spec_bytes()
    except ValueError as exc:
        raise SpecError([SpecProblem(str(path), 0, 0, "", str(exc), "unreadable")]) from None
    try:
        with path.open("rb") as handle:
            raw = handle.read(limit + 1) if limit > 0 else handle.read()
        if 0 < limit < len(raw):
            size = path.stat().st_size
            shown = f"{size:,} bytes" if size > limit else "larger"
            raise SpecError([SpecProblem(
                str(path), 0, 0, "", f"the file is {shown}, more than the {limit:,} bytes a"
                f" spec file may hold ({MAX_SPEC_BYTES_VARIABLE} sets another bound)",
                "unreadable")])
        text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as open()
    except UnicodeDecodeError as exc:
        problem = SpecProblem(str(path), 0, 0, "", f"not UTF-8: {exc}", "yaml-syntax")
        raise SpecError([problem]) from None
    except OSError as exc:
        raise SpecError([SpecProblem(str(path), 0, 0, "", str(exc), "unreadable")]) from None
    return strict_yaml.load(text, str(path))


@cache
def _validator() -> Any:
    import jsonschema  # lazy: jsonschema (66 ms) only when a spec file is checked

    schema_path = bundled_specs_dir() / "schema" / "wire-spec.v1.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    return jsonschema.Draft7Validator(schema)


def _pointer(parts: Any) -> str:
    return "".join(f"/{escape_pointer(p)}" for p in parts)


def _schema_problems(doc: Document) -> Iterator[SpecProblem]:
    """Translate the meta-schema's complaints into located, coded problems."""
    for error in _validator().iter_errors(doc.data):
        pointer = _pointer(error.absolute_path)
        validator = error.validator
        if validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = set(error.schema.get("properties", {}))
            for key in sorted(k for k in error.instance if k not in allowed):
                if key.startswith("x-"):
                    continue
                close = difflib.get_close_matches(key, sorted(allowed), n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                key_pointer = f"{pointer}/{escape_pointer(key)}"
                message = f"unknown key {key!r}{hint}"
                yield doc.problem(key_pointer, message, "unknown-key", key=True)
        elif validator == "required":
            yield doc.problem(pointer, _message(error), "missing-key")
        elif validator == "type":
            yield doc.problem(pointer, _message(error), "wrong-type")
        elif validator == "const" and pointer == "/spec_version":
            yield doc.problem(
                pointer,
                f"spec_version {error.instance!r} is not supported (supported: 1)",
                "unsupported-version",
            )
        else:
            yield doc.problem(pointer, _message(error), "bad-value")


def _message(error: Any) -> str:
    """The meta-schema's message, with the offending value cut short.

    jsonschema opens its messages with the value's repr; a hostile spec's value may be
    a megabyte long (an absurd expression), and the problem line must stay readable.
    """
    message: str = error.message
    shown = repr(error.instance)
    if len(shown) > 80 and message.startswith(shown):
        size = f" ({len(error.instance)} characters)" if isinstance(error.instance, str) else ""
        message = f"{shown[:60]}…{shown[-1]}{size}{message[len(shown):]}"
    return message


def _at_offset(doc: Document, pointer: str, source: str, offset: int) -> tuple[int, int]:
    """Line and column of character ``offset`` of the expression at ``pointer``: in a
    one-line scalar past its opening quote (and a render placeholder's ``${response:``);
    in a multi-line one, the scalar's own place."""
    line, col = doc.where(pointer)
    if "\n" not in source:
        col += offset + 1  # the opening quote precedes the expression
        if pointer.startswith("/render/"):
            col += len("${response:")  # a placeholder around the expression
    return line, col


def _expression_problems(doc: Document) -> Iterator[SpecProblem]:
    """Compile every expression; locate a failure at the character the parser blamed.

    An unquoted null/true/false field is located at its first character; a predicate
    whose form can never yield a boolean at the expression's first character.
    """
    for pointer, source in _expressions(doc.data):
        try:
            compiled = compile_spec_expression(source)
        except ExpressionError as exc:
            line, col = _at_offset(doc, pointer, source, exc.offset)
            yield SpecProblem(doc.path, line, col, pointer, exc.message, exc.rule)
            continue
        bare = bare_literal_name(source)
        if bare is not None:
            offset, name = bare
            line, col = _at_offset(doc, pointer, source, offset)
            words = bare_literal_message(name)
            yield SpecProblem(doc.path, line, col, pointer, words, "bare-literal-name")
        if PREDICATE_POINTER.match(pointer):
            message = predicate_problem(compiled.ast, source)
            if message is not None:
                line, col = doc.where(pointer)
                col += 0 if "\n" in source else 1  # the opening quote precedes it
                yield SpecProblem(doc.path, line, col, pointer, message, "predicate-not-boolean")


def _expressions(data: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    for key in _TOP_EXPRESSIONS:
        if isinstance(data.get(key), str):
            yield f"/{key}", data[key]
    sniff = data.get("sniff")
    if isinstance(sniff, dict) and isinstance(sniff.get("when"), str):
        yield "/sniff/when", sniff["when"]
    structured = data.get("structured_output")
    if isinstance(structured, dict) and isinstance(structured.get("text"), str):
        yield "/structured_output/text", structured["text"]
    render = data.get("render")
    if isinstance(render, dict):
        yield from render_expressions(render)
    normalize = data.get("normalize")
    if isinstance(normalize, dict) and isinstance(normalize.get("detect"), str):
        yield "/normalize/detect", normalize["detect"]
    yield from _reply_part_expressions(data)
    for i, source in enumerate(_objects(data.get("items"))):
        if isinstance(source.get("select"), str):
            yield f"/items/{i}/select", source["select"]
        for j, nested in enumerate(_objects(source.get("nested"))):
            for key in ("when", "select"):
                if isinstance(nested.get(key), str):
                    yield f"/items/{i}/nested/{j}/{key}", nested[key]
    for kind in KINDS:
        for i, entry in enumerate(_objects(data.get(kind))):
            for key in sorted(_EXPRESSION_KEYS & set(entry)):
                if isinstance(entry[key], str):
                    yield f"/{kind}/{i}/{key}", entry[key]
            keep = entry.get("keep")
            if isinstance(keep, dict):
                for name, source in keep.items():
                    if isinstance(source, str):
                        yield f"/{kind}/{i}/keep/{escape_pointer(name)}", source
    yield from tools_expressions(data)

    yield from stream_expressions(data)


def _reply_part_expressions(data: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """The expressions of ``shape``, ``error`` and ``failed_calls`` (specs/README.md
    §1.11-1.13): what a reply, an error body and a failed call look like."""
    shape = data.get("shape")
    if isinstance(shape, dict) and isinstance(shape.get("when"), str):
        yield "/shape/when", shape["when"]
    parts = shape.get("parts") if isinstance(shape, dict) else None
    for index, part in enumerate(parts if isinstance(parts, list) else ()):
        if isinstance(part, dict) and isinstance(part.get("when"), str):
            yield f"/shape/parts/{index}/when", part["when"]
    error = data.get("error")
    if isinstance(error, dict):
        for key in ("when", "message", "type", "code"):
            if isinstance(error.get(key), str):
                yield f"/error/{key}", error[key]
        keep = error.get("keep")
        if isinstance(keep, dict):
            for name, source in keep.items():
                if isinstance(source, str):
                    yield f"/error/keep/{escape_pointer(name)}", source
    for i, failed in enumerate(_objects(data.get("failed_calls"))):
        for key in ("when", "reason"):
            if isinstance(failed.get(key), str):
                yield f"/failed_calls/{i}/{key}", failed[key]


def _objects(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _rule_problems(doc: Document, expected_format: str | None) -> Iterator[SpecProblem]:
    data = doc.data
    name = data.get("format")
    if expected_format is not None and isinstance(name, str) and name != expected_format:
        yield doc.problem(
            "/format",
            f"format {name!r} must match the file name {expected_format!r}",
            "format-name",
        )
    for i, source in enumerate(_objects(data.get("items"))):
        given = [k for k in ("type_field", "type_by_key", "type_const") if k in source]
        if len(given) != 1:
            yield doc.problem(
                f"/items/{i}",
                "a source needs exactly one of type_field, type_by_key, type_const"
                + (f" (has {', '.join(given)})" if given else ""),
                "type-source",
            )
        if "type_default" in source and "type_field" not in source:
            yield doc.problem(
                f"/items/{i}/type_default", "type_default goes with type_field", "type-source"
            )
    listed: dict[str, list[str]] = {}
    for kind in KINDS:
        for i, entry in enumerate(_objects(data.get(kind))):
            if isinstance(entry.get("type"), str):
                listed.setdefault(entry["type"], []).append(f"/{kind}/{i}")
    for item_type, pointers in listed.items():
        if len(pointers) < 2:
            continue
        for pointer in pointers:
            _, list_name, index = pointer.split("/")
            if "when" not in data[list_name][int(index)]:
                others = ", ".join(p for p in pointers if p != pointer)
                yield doc.problem(
                    pointer,
                    f"type {item_type!r} is listed more than once (also {others});"
                    " every entry for it needs 'when'",
                    "when-required",
                )
    yield from stream_problems(doc)


def check_wire_document(
    doc: Document, expected_format: str | None = None, *, expressions: bool = True
) -> list[SpecProblem]:
    """Every problem of a wire spec document; empty when it is valid.

    ``expressions=False`` skips compiling the expressions: a spec merged by ``extends``
    (:mod:`toolwire._spec.extends`) holds only expressions its own files were checked for.
    """
    if not isinstance(doc.data, dict):
        kind = type(doc.data).__name__ if doc.data is not None else "empty"
        return [doc.problem("", f"a spec must be a mapping, not {kind}", "not-a-mapping")]
    problems = list(_schema_problems(doc))
    if expressions:
        problems.extend(_expression_problems(doc))
    problems.extend(_rule_problems(doc, expected_format))
    problems.extend(tools_problems(doc))
    return problems
