"""A tool schema's ``$ref`` s, resolved inside the schema or refused, before any call.

jsonschema resolves a ``$ref`` it does not hold by fetching it (``file://`` and
``http://`` alike, with no timeout), and a reference's content then reaches the model in
an error message. toolwire retrieves nothing: every validator is built with
:func:`no_retrieval`, a registry that holds the JSON Schema meta-schemas and refuses to
look anywhere else, and :func:`check_references` resolves every ``$ref`` and
``$dynamicRef`` of a schema when its tools are compiled, so one that points outside the
schema (or nowhere inside it) is :class:`~toolwire.errors.InvalidTools` then, not an
error on the first call.

It also refuses a schema that refers to itself without descending into the value
(``{"$ref": "#"}``, ``allOf`` through a ``$ref`` back to itself): checking any value
against it would recurse forever. A reference reached through ``properties``, ``items``
and the other keywords that apply to a part of the value is fine (a tree of nodes).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urljoin

from .dialect import SchemaProblem

__all__ = ["check_references", "no_retrieval", "subschemas"]

# Keywords whose schemas apply to the value itself, and those that apply to a part of it.
_IN_PLACE_ONE = ("not", "if", "then", "else")
_IN_PLACE_LIST = ("allOf", "anyOf", "oneOf")
_IN_PLACE_MAP = ("dependentSchemas", "dependencies")
_DESCEND_ONE = ("items", "additionalItems", "contains", "additionalProperties",
                "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema")
_DESCEND_LIST = ("prefixItems", "items")
_DESCEND_MAP = ("properties", "patternProperties")
_DEFINITIONS = ("$defs", "definitions")
_REFERENCES = ("$ref", "$dynamicRef")


def _no_retrieval() -> Any:
    # jsonschema's own registry of the meta-schemas: its retrieve is referencing's default,
    # which raises NoSuchResource for every URI (jsonschema adds a fetching one only when no
    # registry is given). The very object jsonschema combines with, so building a validator
    # with it costs nothing more than without.
    # lazy: jsonschema's meta-schemas only when a validator is built
    from jsonschema_specifications import REGISTRY  # type: ignore[import-untyped]
    from referencing.exceptions import NoSuchResource  # lazy: as above

    try:
        REGISTRY.get_or_retrieve("https://toolwire.invalid/never-fetched.json")
    except NoSuchResource:
        return REGISTRY
    raise AssertionError("jsonschema's meta-schema registry retrieves URIs")  # pragma: no cover


_REGISTRY: list[Any] = []


def no_retrieval() -> Any:
    """The meta-schemas, and nothing retrievable: every ``$ref`` elsewhere fails to resolve.
    Made on first use (``referencing`` is not imported before a schema is checked)."""
    if not _REGISTRY:
        _REGISTRY.append(_no_retrieval())
    return _REGISTRY[0]


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


class _Node:
    __slots__ = ("base", "node", "pointer")

    def __init__(self, node: dict[str, Any], pointer: str, base: str) -> None:
        self.node = node
        self.pointer = pointer
        self.base = base


def _children(node: dict[str, Any], pointer: str) -> Iterator[tuple[bool, str, Any]]:
    """``(in_place, pointer, subschema)`` for each subschema directly inside ``node``."""
    for key in _IN_PLACE_ONE + _DESCEND_ONE:
        if key in node and not isinstance(node[key], list):
            yield key in _IN_PLACE_ONE, f"{pointer}/{key}", node[key]
    for key in _IN_PLACE_LIST + _DESCEND_LIST:
        if isinstance(node.get(key), list):
            for index, sub in enumerate(node[key]):
                yield key in _IN_PLACE_LIST, f"{pointer}/{key}/{index}", sub
    for key in _IN_PLACE_MAP + _DESCEND_MAP + _DEFINITIONS:
        if isinstance(node.get(key), dict):
            for name, sub in node[key].items():
                if isinstance(sub, (dict, bool)):  # draft 7 dependencies: lists are names
                    yield key in _IN_PLACE_MAP, f"{pointer}/{key}/{_escape(name)}", sub


def subschemas(schema: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every object schema inside ``schema`` (itself first) with its JSON pointer."""
    stack: list[tuple[Any, str]] = [(schema, "")]
    while stack:
        node, pointer = stack.pop()
        if not isinstance(node, dict):
            continue
        yield pointer, node
        stack.extend((sub, at) for _, at, sub in reversed(list(_children(node, pointer))))


def check_references(schema: Any, validator_cls: Any) -> None:
    """Resolve every reference of ``schema`` inside it; :class:`SchemaProblem` where one
    does not resolve, or where the schema applies itself to the same value forever."""
    if not isinstance(schema, dict):
        return
    nodes = _walk(schema)
    if not any(ref in n.node for n in nodes.values() for ref in _REFERENCES):
        _cycles(nodes, {})
        return
    # lazy: referencing, with jsonschema, only for a $ref
    from referencing.exceptions import Unresolvable
    from referencing.jsonschema import specification_with  # lazy: as above

    dialect = validator_cls.META_SCHEMA.get("$schema", "")
    specification = specification_with(dialect)
    resource = specification.create_resource(schema)
    root = no_retrieval().with_resource(resource.id() or "", resource)
    targets: dict[int, list[int]] = {}
    for key, found in nodes.items():
        for keyword in _REFERENCES:
            ref = found.node.get(keyword)
            if not isinstance(ref, str):
                continue
            where = f"{found.pointer}/{keyword}"
            try:
                target = root.resolver(base_uri=found.base).lookup(ref).contents
            except (Unresolvable, ValueError, TypeError, KeyError, LookupError):
                raise SchemaProblem(
                    where, f"{keyword} {ref!r} does not resolve inside the schema (toolwire"
                    " never retrieves a schema from a file or a URL: put what it refers to"
                    " under $defs)",
                ) from None
            if isinstance(target, dict):
                targets.setdefault(key, []).append(id(target))
    _cycles(nodes, targets)


def _walk(schema: dict[str, Any]) -> dict[int, _Node]:
    """Every object schema by identity, with its pointer and base URI (``$id``)."""
    found: dict[int, _Node] = {}
    stack: list[tuple[Any, str, str]] = [(schema, "", "")]
    while stack:
        node, pointer, base = stack.pop()
        if not isinstance(node, dict) or id(node) in found:
            continue
        own = node.get("$id")
        if isinstance(own, str) and not own.startswith("#"):
            base = urljoin(base, own)
        found[id(node)] = _Node(node, pointer, base)
        for _, at, sub in _children(node, pointer):
            stack.append((sub, at, base))
    return found


def _cycles(nodes: dict[int, _Node], targets: dict[int, list[int]]) -> None:
    """Refuse a loop of keywords that apply a schema to the same value (a DFS)."""
    edges: dict[int, list[int]] = {}
    for key, found in nodes.items():
        near = [id(sub) for in_place, _, sub in _children(found.node, found.pointer)
                if in_place and isinstance(sub, dict)]
        edges[key] = near + targets.get(key, [])
    state: dict[int, int] = {}  # 1: on the current path, 2: done
    for root in edges:
        if state.get(root):
            continue
        path: list[tuple[int, Iterator[int]]] = [(root, iter(edges[root]))]
        state[root] = 1
        while path:
            key, rest = path[-1]
            step = next(rest, None)
            if step is None:
                state[key] = 2
                path.pop()
                continue
            if step not in edges:
                continue  # a meta-schema, or anything outside this schema
            if state.get(step) == 1:
                raise SchemaProblem(
                    nodes[key].pointer, "the schema applies itself to the same value again"
                    f" (through {nodes[step].pointer or '/'}) without descending into it:"
                    " checking any value against it would never end",
                )
            if not state.get(step):
                state[step] = 1
                path.append((step, iter(edges[step])))
