"""The spec language's JMESPath: the part every implementation evaluates alike.

The evaluator (:mod:`.closures`) runs all of standard JMESPath; a *spec* may use only
what toolwire and the other implementations agree on, measured against npm
``jmespath`` 0.16 (tools/js/) on the vectors in ``specs/conformance/expression``
(specs/README.md §1.2). Left out, with the disagreement that excludes each:

- ``reverse``, ``sort``, ``min``, ``max``, ``sort_by``, ``min_by``, ``max_by`` — strings
  order by code point in one and by UTF-16 unit in the other (astral characters), and
  npm's ``min_by``/``max_by`` refuse string keys;
- ``avg`` (``avg([])``: null, or NaN);
- ``to_string`` (``1.0`` → ``"1.0"`` or ``"1"``; non-ASCII escaped or not) and
  ``to_number`` (``"1e400"``, ``"0x10"``);
- ``keys`` and ``values`` except as the argument of ``length`` (key order);
- ``length`` of anything that may be a string (code points against UTF-16 units): its
  argument must be an expression that always yields an array or an object;
- ``@`` followed by a step (``@.a``, ``@[0]``, ``@[*]``), which npm's parser misreads
  inside function arguments: the step alone means the same (``a``, ``[0]``, ``[*]``).
"""

from __future__ import annotations

from typing import Any, Final

from .compiler import Expression, ExpressionError, compile_expression

__all__ = ["NOT_PORTABLE", "compile_spec_expression", "portability_problem"]

NOT_PORTABLE: Final[dict[str, str]] = {
    **dict.fromkeys(
        ("reverse", "sort", "min", "max", "sort_by", "min_by", "max_by"),
        "orders or counts strings, which implementations do by code point or by UTF-16 unit",
    ),
    "to_string": "writes numbers and non-ASCII text differently in each implementation",
    "to_number": "reads number text (1e400, 0x10) differently in each implementation",
    "avg": "averages an empty array to null in one implementation and to NaN in the other",
}
_ORDER_FREE_ONLY: Final = frozenset({"keys", "values"})
_COLLECTIONS: Final = frozenset(
    {"projection", "value_projection", "filter_projection", "flatten",
     "multi_select_list", "multi_select_dict"}
)
_COLLECTION_FUNCTIONS: Final = frozenset({"keys", "values", "to_array", "merge", "map"})
_STEPS: Final = frozenset(
    {"subexpression", "index_expression", "projection", "filter_projection",
     "value_projection", "flatten"}
)


def compile_spec_expression(source: str) -> Expression:
    """:func:`compile_expression`, refusing what leaves the spec language's subset."""
    expression = compile_expression(source)
    problem = portability_problem(expression.ast)
    if problem is not None:
        raise ExpressionError(problem, "expression-not-portable")
    return expression


def portability_problem(ast: dict[str, Any]) -> str | None:
    """Why an AST (already checked by the compiler) leaves the subset, or None."""
    stack: list[tuple[dict[str, Any], dict[str, Any] | None]] = [(ast, None)]
    while stack:
        node, parent = stack.pop()
        if node.get("type") in _STEPS and node["children"][0].get("type") == "current":
            return "@ followed by a step is not portable: write the step alone (a for @.a)"
        if node.get("type") == "function_expression":
            name = node["value"]
            if name in NOT_PORTABLE:
                return f"{name}() is not portable: it {NOT_PORTABLE[name]}"
            if name in _ORDER_FREE_ONLY and not _is_call(parent, "length"):
                return f"{name}() is portable only as the argument of length() (key order differs)"
            if name == "length" and not _collection(node["children"][0]):
                return (
                    "length() is portable only of an expression that always yields an array or"
                    " an object (string lengths differ: code points or UTF-16 units)"
                )
        if node.get("type") != "slice":
            stack.extend((child, node) for child in node["children"])
    return None


def _is_call(node: dict[str, Any] | None, name: str) -> bool:
    return node is not None and node.get("type") == "function_expression" and node["value"] == name


def _collection(node: dict[str, Any]) -> bool:
    kind = node.get("type")
    if kind in _COLLECTIONS:
        return True
    if kind == "literal":
        return isinstance(node.get("value"), (list, dict))
    if kind == "or_expression":  # x || `[]`: one of two collections
        return all(_collection(child) for child in node["children"])
    if kind == "pipe":  # a | [*]: the right side's value
        return _collection(node["children"][1])
    return kind == "function_expression" and node["value"] in _COLLECTION_FUNCTIONS
