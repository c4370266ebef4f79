"""Predicates that can never hold: a static check over the expression's tree.

A predicate holds only where it yields the JSON boolean ``true`` (specs/README.md §1.2).
``truncated: "stop"`` or ``sniff: {when: "result.actions"}`` parse and are portable, yet
select a value instead of testing one, so they never hold: truncated calls would be run,
a format would never sniff — silently. The loader refuses them (``predicate-not-boolean``)
by asking of the tree, without data, whether its form can yield a boolean at all
(:func:`can_be_boolean`, the rule §2.2 states for every implementation).
"""

from __future__ import annotations

import re
from typing import Any, Final

__all__ = ["BOOLEAN_FUNCTIONS", "PREDICATE_POINTER", "can_be_boolean", "predicate_problem"]

PREDICATE_POINTER: Final = re.compile(
    r"^/(?:truncated|sniff/when|shape/when|shape/parts/\d+/when|error/when|failed_calls/\d+/when|normalize/detect"
    r"|(?:calls|server_side|ignore|refuse)/\d+/when|items/\d+/nested/\d+/when"
    r"|stream/(?:event|shape|complete|sniff/when|error/when|refuse/\d+/when|rules/\d+/when))$"
)
"""The JSON pointers of a wire spec whose expression is a predicate."""

BOOLEAN_FUNCTIONS: Final = frozenset({"contains", "starts_with", "ends_with"})
"""Functions whose result is always a boolean."""

_PATH: Final = re.compile(r"[A-Za-z_][\w.\[\]]*")

_RESULT_CHILD: Final = {"subexpression": 1, "pipe": 1}
"""Nodes yielding their right child's value (``a.b``, ``a | b``)."""


def can_be_boolean(node: dict[str, Any]) -> bool:
    """Whether an expression of this form can yield a boolean on some document."""
    kind = node.get("type")
    children: list[dict[str, Any]] = node.get("children", [])
    if kind in ("comparator", "not_expression"):
        return True
    if kind == "literal":
        return isinstance(node.get("value"), bool)
    if kind in ("and_expression", "or_expression"):  # yields one of its operands
        return any(can_be_boolean(child) for child in children)
    if kind in _RESULT_CHILD:
        return can_be_boolean(children[_RESULT_CHILD[kind]])
    if kind == "function_expression":
        name = node.get("value")
        if name in BOOLEAN_FUNCTIONS:
            return True
        if name == "not_null":  # yields one of its arguments
            return any(can_be_boolean(child) for child in children)
    return False  # fields, indexes, projections, multi-selects, @, other functions


def _shown(node: dict[str, Any]) -> str:
    kind = node.get("type")
    if kind in ("field", "subexpression", "index_expression"):
        return "selects a value"
    if kind in ("projection", "value_projection", "flatten", "filter_projection",
                "multi_select_list", "multi_select_dict"):
        return "builds a list or object"
    if kind == "literal":
        return "is a literal that is not true or false"
    if kind == "function_expression":
        return f"calls {node.get('value')}(), which never yields a boolean"
    return "never yields a boolean"


def predicate_problem(ast: dict[str, Any], source: str) -> str | None:
    """Why a predicate's expression can never hold, or None when its form can."""
    if can_be_boolean(ast):
        return None
    hint = (f", e.g. \"{source} == 'some value'\" or \"type({source}) == 'array'\""
            if _PATH.fullmatch(source) else "")
    return (f"this predicate {_shown(ast)}, so it never yields true and never holds;"
            f" compare or test the value instead{hint}")
