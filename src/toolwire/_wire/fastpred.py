"""Predicates written out as Python conditions, for the generated extract code.

Every reading first checks the body against the spec's ``error`` and ``shape``
(:mod:`.gate`); through the compiled closures that is one call per node, which cost the
generated extract (:mod:`.fastpath`) a third to half again on a small reply. The forms
those predicates are written in — ``type(x) == 'object'``, ``x == 'failed'``,
``x != `null```, ``length(xs[?p]) == length(to_array(xs))``,
``length(xs[?p] || `[]`) > `0```, joined by ``&&``, ``||`` and ``!`` — become one Python
condition each here, with the engine's own semantics:

- ``type(v)`` is the engine's type test, spelled as ``isinstance`` checks in its order (a
  value that is no JSON is of no type, as there);
- a field is read with the engine's ``field_of`` (a value that is no JSON raises);
- ``&&``, ``||`` and ``!`` are translated only over operands that always yield a boolean,
  where "yields ``true``" and Python's ``and``/``or``/``not`` agree;
- ``length`` of a filter counts the elements the engine's projection keeps (not null, the
  filter holding); over a value that is not a list it raises, as the engine does.

Any other form gives ``None``: the caller evaluates that predicate's closure instead. An
exception raised by a condition makes the generated function decline, and the walk then
raises the engine's own error.
"""

from __future__ import annotations

from collections.abc import Callable

from .._expression import element_of, field_of, path_steps
from .._spec import WireSpec
from .._speed import TYPE_CHECKING
from .._speed.generated import compile_function

if TYPE_CHECKING:
    from typing import Any

__all__ = ["condition", "engine_error", "gate_source", "passing_check", "value_of"]


def engine_error() -> int:
    """Where the engine raises (``length`` of null, ``starts_with`` of a non-string), a
    written-out condition raises too, which makes the generated code decline
    (the generated extract, :mod:`.fastpath`, and the gate's check)."""
    raise ValueError("a function's argument is of the wrong type")


_TYPE_TESTS = {
    "string": "isinstance({v}, str)",
    "boolean": "isinstance({v}, bool)",
    "array": "isinstance({v}, list)",
    "object": "isinstance({v}, dict)",
    "number": "(isinstance({v}, (int, float)) and not isinstance({v}, bool))",
    "null": "({v} is None)",
}
_ALWAYS_BOOLEAN = frozenset({"comparator", "not_expression", "and_expression", "or_expression"})
_BOOLEAN_FUNCTIONS = frozenset({"contains", "starts_with"})


def _boolean(node: dict[str, Any]) -> bool:
    """Whether the node always yields a boolean (or raises)."""
    kind = node.get("type")
    return kind in _ALWAYS_BOOLEAN or (
        kind == "function_expression" and node.get("value") in _BOOLEAN_FUNCTIONS)


def value_of(node: dict[str, Any], subject: str, exact: bool) -> str | None:
    """Python reading the value of a field chain (or ``@``) off ``subject``; ``exact``
    when ``subject`` is known to be a dict (its first field is then a plain ``get``)."""
    if node.get("type") == "current":
        return subject
    steps = path_steps(node)
    if not steps:
        return None
    source = subject
    for index, step in enumerate(steps):
        if isinstance(step, str) and index == 0 and not exact and subject.isidentifier():
            # An element named by a variable: a dict read in line, anything else by _get
            # (field_of: null, or the error for what is no JSON).
            source = (f"({subject}.get({step!r}) if type({subject}) is dict"
                      f" else _get({subject}, {step!r}))")
        elif isinstance(step, str):
            source = (f"{source}.get({step!r})" if exact and index == 0
                      else f"_get({source}, {step!r})")
        else:
            source = f"_index({source}, {int(step)})"
    return source


def _literal(node: dict[str, Any]) -> tuple[bool, Any]:
    if node.get("type") != "literal":
        return False, None
    return True, node.get("value")


_ORDER = {"gt": ">", "gte": ">=", "lt": "<", "lte": "<="}


def _comparison(node: dict[str, Any], subject: str, exact: bool, depth: int) -> str | None:
    if node.get("value") not in ("eq", "ne", *_ORDER):
        return None
    left, right = node["children"]
    counts = [_count(side, subject, exact, depth) for side in (left, right)]
    if counts[0] is not None and counts[1] is not None:  # length(...) == length(...) or `n`
        if node["value"] in _ORDER:  # two integers: the engine orders them as Python does
            return f"({counts[0]} {_ORDER[node['value']]} {counts[1]})"
        equal_counts = f"({counts[0]} == {counts[1]})"
        return equal_counts if node["value"] == "eq" else f"(not {equal_counts})"
    if node["value"] in _ORDER:
        return None
    is_literal, literal = _literal(right)
    if not is_literal:
        return None
    equal: str | None = None
    if left.get("type") == "function_expression" and left.get("value") == "type":
        (argument,) = left["children"]
        value = value_of(argument, subject, exact)
        test = _TYPE_TESTS.get(literal) if isinstance(literal, str) else None
        if value is not None and test is not None:
            equal = test.format(v=value)
    else:
        value = value_of(left, subject, exact)
        if value is not None and literal is None:
            equal = f"({value} is None)"
        elif value is not None and type(literal) is bool:  # 0 and 1 never equal a boolean
            equal = f"({value} is {literal!r})"
        elif value is not None and isinstance(literal, str):
            equal = f"({value} == {literal!r})"
    if equal is None:
        return None
    return equal if node["value"] == "eq" else f"(not {equal})"


def _count(node: dict[str, Any], subject: str, exact: bool, depth: int) -> str | None:
    """Python for an integer: a literal one, ``length(xs[?p])`` (the elements that are not
    null and on which ``p`` holds, as the engine's projection keeps them; ``xs`` not a list
    raises, as ``length`` of null does), or ``length(to_array(x))``."""
    is_literal, literal = _literal(node)
    if is_literal:
        return repr(literal) if type(literal) is int else None
    if node.get("type") != "function_expression" or node.get("value") != "length":
        return None
    (argument,) = node["children"]
    if argument.get("type") == "function_expression" and argument.get("value") == "to_array":
        (inner,) = argument["children"]
        value = value_of(inner, subject, exact)
        return None if value is None else f"(len({value}) if isinstance({value}, list) else 1)"
    or_empty = False
    if argument.get("type") == "or_expression":  # length(xs[?p] || `[]`): 0 when xs is no list
        projection, fallback = argument["children"]
        if _literal(fallback) != (True, []):
            return None
        argument, or_empty = projection, True
    if argument.get("type") != "filter_projection":
        return None
    listed, identity, predicate = argument["children"]
    if identity.get("type") != "identity" or not _boolean(predicate):
        return None
    items = value_of(listed, subject, exact)
    element = f"e{depth}"
    holds = condition(predicate, element, exact=False, depth=depth + 1)
    if items is None or holds is None:
        return None
    # The engine tests every element, null ones too (an error raises), then leaves the null
    # ones out of the projection.
    # `xs[?p] || `[]`` is the projection where xs is a list (empty or not: both are a list
    # then), else the empty list: length 0.
    listed = f"l{depth}"  # the list read once (a chain of calls off the response)
    return (f"(len([{element} for {element} in {listed} if {holds} and {element} is not None])"
            f" if isinstance({listed} := {items}, list)"
            f" else {'0' if or_empty else '_engine_error()'})")


def _function(node: dict[str, Any], subject: str, exact: bool) -> str | None:
    """``contains([...strings], v)`` on the response: ``v`` among them (the engine's ``in``;
    on an element, which may be null, the list would be null: not written out);
    ``starts_with(v, 'text')``: ``v`` a ``str`` (exactly: the engine's argument check
    raises on anything else, a ``str`` subclass too) starting with it."""
    name, arguments = node.get("value"), node["children"]
    if name == "contains" and len(arguments) == 2 and exact:  # a list literal on null is null
        listed, value_node = arguments
        items = listed.get("children", []) if listed.get("type") == "multi_select_list" else None
        if items is None or not all(i.get("type") == "literal" and isinstance(i.get("value"), str)
                                    for i in items):
            return None
        value = value_of(value_node, subject, exact)
        strings = tuple(i["value"] for i in items)
        return None if value is None else f"({value} in {strings!r})"
    if name == "starts_with" and len(arguments) == 2:
        value = value_of(arguments[0], subject, exact)
        is_literal, prefix = _literal(arguments[1])
        if value is None or not is_literal or type(prefix) is not str:
            return None
        return (f"({value}.startswith({prefix!r}) if type({value}) is str"
                " else _engine_error())")
    return None


def condition(
    node: dict[str, Any], subject: str, *, exact: bool = True, depth: int = 0
) -> str | None:
    """A Python condition true exactly where the predicate ``node`` (an expression's
    AST) yields ``true`` on ``subject``; None for a form not translated here."""
    kind = node.get("type")
    if kind == "comparator":
        return _comparison(node, subject, exact, depth)
    if kind == "function_expression":
        return _function(node, subject, exact)
    tests = _present_keys(node) if kind == "or_expression" and not exact else None
    if tests is not None and len(tests) > 2 and subject.isidentifier():
        # `a != null || b != null || …` on an element: false at once for an object that
        # holds none of those keys (each field is null then), tested in C.
        keys = tuple(test["children"][0]["value"] for test in tests)
        written = " or ".join(str(_comparison(test, subject, exact, depth)) for test in tests)
        return (f"(not (type({subject}) is dict and {subject}.keys().isdisjoint({keys!r}))"
                f" and ({written}))")
    children = node.get("children", [])
    if not all(_boolean(child) for child in children):
        return None
    parts = [condition(child, subject, exact=exact, depth=depth) for child in children]
    if any(part is None for part in parts):
        return None
    if kind == "not_expression":
        return f"(not {parts[0]})"
    if kind in ("and_expression", "or_expression"):
        joiner = " and " if kind == "and_expression" else " or "
        return f"({joiner.join(str(p) for p in parts)})"
    return None


def _present_keys(node: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The tests of an ``||`` of ``field != `null``` tests (each of one field), else None."""
    kind, children = node.get("type"), node.get("children", [])
    if kind == "or_expression":
        tests: list[dict[str, Any]] = []
        for child in children:
            found = _present_keys(child)
            if found is None:
                return None
            tests += found
        return tests
    if kind == "comparator" and node.get("value") == "ne":
        left, right = children
        if left.get("type") == "field" and _literal(right) == (True, None):
            return [node]
    return None


def passing_check(spec: WireSpec) -> Callable[[dict[str, Any]], bool]:
    """A function true where the spec's first step (:mod:`.gate`) lets ``response``
    through: its ``error`` and ``stream.event`` do not hold and its ``shape`` does. Each
    predicate is a condition where :func:`condition` writes one, else its closure; a
    false answer or an exception sends the caller to the full check, which raises."""
    source, namespace = gate_source(spec)
    passes: Callable[[dict[str, Any]], bool] = compile_function(
        source, "gate", spec.format, namespace, "passes")
    return passes


def gate_source(spec: WireSpec) -> tuple[str, dict[str, Any]]:
    """The source of :func:`passing_check`'s function and the globals it runs with."""
    namespace: dict[str, Any] = {
        "__builtins__": {"isinstance": isinstance, "len": len, "list": list, "dict": dict,
                         "str": str, "int": int, "float": float, "bool": bool, "type": type},
        "_get": field_of, "_index": element_of, "_engine_error": engine_error,
    }
    parts: list[str] = []
    for name, expression, holds in (
        ("error", spec.error.when if spec.error else None, False),
        ("event", spec.stream_event, False),
        ("shape", spec.shape.when if spec.shape else None, True),
    ):
        if expression is None:
            continue
        written = condition(expression.ast, "response")
        if written is None:
            namespace[f"_{name}"] = expression.evaluate
            written = f"(_{name}(response) is True)"
        parts.append(written if holds else f"(not {written})")
    source = f"def passes(response):\n    return {' and '.join(parts) or 'True'}\n"
    return source, namespace
