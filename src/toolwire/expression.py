"""JMESPath expressions as specs use them: the portable subset, compiled once at load.

A spec is read by other languages too, so its expressions may use only what every
JMESPath implementation agrees on: fields, subexpressions, indexes and slices,
flatten, projections, filters, pipes, multi-selects, ``||``, ``&&``, ``!``,
comparisons, literals and the standard functions. :func:`compile_expression` parses
an expression, refuses anything outside that subset with an :class:`ExpressionError`
(``rule`` and character ``offset``), and returns an :class:`Expression`: a callable
that evaluates it against a document.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import jmespath
from jmespath import exceptions as jmespath_errors

__all__ = ["STANDARD_FUNCTIONS", "Expression", "ExpressionError", "compile_expression"]

STANDARD_FUNCTIONS: Final = frozenset(
    {
        "abs", "avg", "ceil", "contains", "ends_with", "floor", "join", "keys", "length",
        "map", "max", "max_by", "merge", "min", "min_by", "not_null", "reverse", "sort",
        "sort_by", "starts_with", "sum", "to_array", "to_number", "to_string", "type",
        "values",
    }
)

_PORTABLE_NODES: Final = frozenset(
    {
        "and_expression", "comparator", "current", "expref", "field", "filter_projection",
        "flatten", "function_expression", "identity", "index", "index_expression",
        "key_val_pair", "literal", "multi_select_dict", "multi_select_list",
        "not_expression", "or_expression", "pipe", "projection", "slice", "subexpression",
        "value_projection",
    }
)
_ORDERING: Final = frozenset({"lt", "lte", "gt", "gte"})


class ExpressionError(ValueError):
    """An expression that does not parse, or leaves the portable subset.

    ``rule`` is ``expression-syntax`` or ``expression-not-portable``; ``offset`` is the
    0-based character position the parser blamed (0 when it named none).
    """

    def __init__(self, message: str, rule: str, offset: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.offset = offset


class Expression:
    """A compiled expression: call it with a document to evaluate it."""

    __slots__ = ("ast", "evaluate", "source")

    def __init__(self, source: str, ast: dict[str, Any], evaluate: Callable[[Any], Any]) -> None:
        self.source = source
        self.ast = ast
        self.evaluate = evaluate

    def __call__(self, document: Any) -> Any:
        return self.evaluate(document)

    def __repr__(self) -> str:
        return f"Expression({self.source!r})"


def compile_expression(source: str) -> Expression:
    """Parse ``source``, check it keeps to the portable subset, and compile it."""
    if not isinstance(source, str):
        raise ExpressionError("an expression must be a string", "expression-syntax")
    try:
        parsed = jmespath.compile(source)
    except jmespath_errors.ParseError as exc:
        offset = exc.lex_position if isinstance(exc.lex_position, int) else 0
        raise ExpressionError(exc.msg, "expression-syntax", max(offset, 0)) from None
    except jmespath_errors.JMESPathError as exc:
        raise ExpressionError(str(exc), "expression-syntax") from None
    except (RecursionError, MemoryError):
        raise ExpressionError("expression nested too deeply", "expression-syntax") from None
    check_portable(parsed.parsed)
    return Expression(source, parsed.parsed, parsed.search)


def check_portable(ast: dict[str, Any]) -> None:
    """Raise :class:`ExpressionError` for a node outside the portable subset."""
    stack = [ast]
    while stack:
        node = stack.pop()
        kind = node.get("type")
        if kind not in _PORTABLE_NODES:
            raise ExpressionError(
                f"{kind!r} expressions are not in the portable JMESPath subset",
                "expression-not-portable",
            )
        if kind == "function_expression" and node.get("value") not in STANDARD_FUNCTIONS:
            raise ExpressionError(
                f"unknown function {node.get('value')}(); only standard functions are portable",
                "expression-not-portable",
            )
        if kind == "comparator" and node.get("value") in _ORDERING:
            for child in node.get("children", []):
                if child.get("type") == "literal" and not _is_number(child.get("value")):
                    raise ExpressionError(
                        "ordering comparisons are portable on numbers only",
                        "expression-not-portable",
                    )
        stack.extend(c for c in node.get("children", []) if isinstance(c, dict))


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
