"""The rules of a wire spec's ``tools`` part that the meta-schema cannot state.

The part says how to read the tool list of a provider's *request* (specs/README.md §8). The
meta-schema checks its keys and types; these rules check what needs more than one key at a
time, each with its code:

=====================  ===================================================================
``tools-kind``         a definition needs exactly one of ``parameters``, ``schema``,
                       ``unchecked``, ``not_a_tool``; ``name`` with ``parameters`` and ``schema``,
                       no name with ``not_a_tool``, ``names`` (never beside ``name``)
                       only with ``unchecked``; and ``strict``,
                       ``absent``, ``translate`` and ``dialect`` only beside ``parameters``
                       (``dialect`` beside ``schema`` too)
``tools-translation``  ``translate`` names a translation the part does not declare
``tools-schema``       a fixed ``schema`` or an ``absent`` schema is no valid JSON Schema
=====================  ===================================================================

Here, in the spec package, rather than in :mod:`toolwire._tools`: loading specs must not
import the run-time checker (a plain ``read`` never does).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import SpecProblem
from .strict_yaml import Document

__all__ = ["tools_expressions", "tools_problems"]

_KINDS = ("parameters", "schema", "unchecked", "not_a_tool")
_WITH_PARAMETERS = ("strict", "absent", "translate")


def _definitions(data: Mapping[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    part = data.get("tools")
    if not isinstance(part, dict) or not isinstance(part.get("definitions"), list):
        return []
    return [(i, d) for i, d in enumerate(part["definitions"]) if isinstance(d, dict)]


def tools_expressions(data: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Every expression of the ``tools`` part, with its JSON pointer."""
    part = data.get("tools")
    if not isinstance(part, dict):
        return
    for key in ("request", "select"):
        if isinstance(part.get(key), list):
            for i, source in enumerate(part[key]):
                if isinstance(source, str):
                    yield f"/tools/{key}/{i}", source
    if isinstance(part.get("looks_like"), str):
        yield "/tools/looks_like", part["looks_like"]
    for i, definition in _definitions(data):
        for key in ("when", "name", "parameters", "strict"):
            if isinstance(definition.get(key), str):
                yield f"/tools/definitions/{i}/{key}", definition[key]


def tools_problems(doc: Document) -> Iterator[SpecProblem]:
    """The ``tools-*`` problems of a spec document (its data a mapping)."""
    data = doc.data
    part = data.get("tools")
    translations = part.get("translations") if isinstance(part, dict) else None
    declared = set(translations) if isinstance(translations, dict) else set()
    for i, definition in _definitions(data):
        at = f"/tools/definitions/{i}"
        kinds = [k for k in _KINDS if k in definition]
        if len(kinds) != 1:
            shown = f" (has {', '.join(kinds)})" if kinds else ""
            yield doc.problem(
                at, "a tool definition needs exactly one of parameters, schema, unchecked,"
                f" not_a_tool{shown}", "tools-kind"
            )
        kind = kinds[0] if len(kinds) == 1 else None
        if kind == "not_a_tool" and ("name" in definition or "names" in definition):
            yield doc.problem(at, "not_a_tool offers no tool: it takes no name", "tools-kind")
        elif kind in ("parameters", "schema") and "name" not in definition:
            yield doc.problem(at, f"a {kind} definition needs a name", "tools-kind")
        if "name" in definition and "names" in definition:
            yield doc.problem(f"{at}/names", "name and names exclude each other", "tools-kind",
                              key=True)
        if "names" in definition and kind != "unchecked":
            yield doc.problem(f"{at}/names", "names goes with unchecked", "tools-kind", key=True)
        for key in _WITH_PARAMETERS:
            if key in definition and kind not in (None, "parameters"):
                yield doc.problem(f"{at}/{key}", f"{key} goes with parameters", "tools-kind",
                                  key=True)
        if "dialect" in definition and kind not in (None, "parameters", "schema"):
            yield doc.problem(f"{at}/dialect", "dialect goes with parameters or schema",
                              "tools-kind", key=True)
        name = definition.get("translate")
        if isinstance(name, str) and name not in declared:
            known = ", ".join(sorted(declared)) or "none"
            yield doc.problem(
                f"{at}/translate",
                f"no translation {name!r} in tools.translations (declared: {known})",
                "tools-translation",
            )
        for key in ("schema", "absent"):
            schema = definition.get(key)
            if isinstance(schema, dict):
                message = _schema_error(schema, definition.get("dialect"))
                if message is not None:
                    yield doc.problem(f"{at}/{key}", f"not a valid JSON Schema: {message}",
                                      "tools-schema")


def _schema_error(schema: dict[str, Any], dialect: Any) -> str | None:
    import jsonschema  # lazy: jsonschema, loaded already by the meta-schema check

    cls: Any = (
        jsonschema.Draft7Validator if dialect == "draft7" else jsonschema.Draft202012Validator
    )
    try:
        cls.check_schema(schema)
    except jsonschema.SchemaError as exc:
        where = "".join(f"/{p}" for p in exc.path)
        return f"{exc.message} (at {where or 'the top'})"
    return None
