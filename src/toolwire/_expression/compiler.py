"""JMESPath expressions as specs use them: the portable subset, compiled once at load.

A spec is read by other languages too, so its expressions may use only what every
JMESPath implementation agrees on: fields, subexpressions, indexes and slices,
flatten, projections, filters, pipes, multi-selects, ``||``, ``&&``, ``!``,
comparisons, literals and the standard functions. :func:`compile_expression` parses
an expression with ``jmespath``, refuses anything outside that subset (or too long, too
deeply nested, or statically wrong: a function's arity, a misplaced ``&expr``, a slice
step of zero) with an :class:`ExpressionError` (``rule`` and character ``offset``), and
returns an :class:`Expression`: a callable that evaluates it against a document.

Evaluation runs closures compiled from the AST (:mod:`toolwire._expression.closures`), many
times faster than walking the AST per call; ``jmespath`` stays the reference semantics
(:meth:`Expression.reference`). Either path raises :class:`EvaluationError` where the
expression fails on a document (a function given the wrong type, and the like).
"""

from __future__ import annotations

from collections.abc import Callable

from .._speed import TYPE_CHECKING
from .closures import EvaluationError, call_problem, compile_ast

if TYPE_CHECKING:
    from typing import Any, Final

__all__ = [
    "MAX_DEPTH",
    "MAX_LENGTH",
    "STANDARD_FUNCTIONS",
    "EvaluationError",
    "Expression",
    "ExpressionError",
    "check_portable",
    "compile_expression",
]

MAX_LENGTH: Final = 10_000
"""Longest expression source accepted, in characters."""
MAX_DEPTH: Final = 64
"""Deepest AST accepted: evaluation recurses once per level, so this bounds the stack."""

STANDARD_FUNCTIONS: Final = frozenset(
    {
        "abs", "avg", "ceil", "contains", "ends_with", "floor", "join", "keys", "length",
        "map", "max", "max_by", "merge", "min", "min_by", "not_null", "reverse", "sort",
        "sort_by", "starts_with", "sum", "to_array", "to_number", "to_string", "type",
        "values",
    }
)

# Each portable node type with the number of children jmespath's parser gives it
# (low, high; None: no upper bound).
_CHILDREN: Final[dict[str, tuple[int, int | None]]] = {
    "and_expression": (2, 2), "comparator": (2, 2), "current": (0, 0), "expref": (1, 1),
    "field": (0, 0), "filter_projection": (3, 3), "flatten": (1, 1),
    "function_expression": (0, None), "identity": (0, 0), "index": (0, 0),
    "index_expression": (1, None), "key_val_pair": (1, 1), "literal": (0, 0),
    "multi_select_dict": (1, None), "multi_select_list": (1, None),
    "not_expression": (1, 1), "or_expression": (2, 2), "pipe": (2, 2),
    "projection": (2, 2), "slice": (3, 3), "subexpression": (1, None),
    "value_projection": (2, 2),
}
_PORTABLE_NODES: Final = frozenset(_CHILDREN)
_COMPARATORS: Final = frozenset({"eq", "ne", "lt", "lte", "gt", "gte"})
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
    """A compiled expression: call it with a document to evaluate it.

    ``evaluate`` is the compiled closure itself (call it directly in hot loops to save a
    call); ``reference`` evaluates the same AST with jmespath.py's own interpreter.
    Both raise :class:`EvaluationError` where the expression fails on the document.
    """

    __slots__ = ("ast", "evaluate", "source")

    def __init__(self, source: str, ast: dict[str, Any], evaluate: Callable[[Any], Any]) -> None:
        self.source = source
        self.ast = ast
        self.evaluate = evaluate

    @classmethod
    def from_ast(cls, source: str, ast: dict[str, Any]) -> Expression:
        """Compile an AST parsed earlier (e.g. stored in a bundle), skipping the parser.

        The AST is checked like a freshly parsed one (shapes, portability, depth); that it
        is really the parse of ``source`` is the caller's word.
        """
        check_portable(ast)
        try:
            evaluate = compile_ast(ast)
        except (KeyError, TypeError, IndexError) as exc:  # a shape the check let through
            raise _malformed(repr(exc)) from None
        return cls(source, ast, evaluate)

    def __call__(self, document: Any) -> Any:
        return self.evaluate(document)

    def reference(self, document: Any) -> Any:
        """Evaluate with jmespath.py's interpreter: the semantics the closures follow."""
        # lazy: jmespath (13 ms) only for source text, never for the bundle
        from jmespath import visitor as jmespath_visitor

        try:
            return jmespath_visitor.TreeInterpreter().visit(self.ast, document)
        except (ValueError, TypeError, ArithmeticError, RecursionError) as exc:
            # ValueError covers jmespath's own JMESPathError; the others are Python's,
            # surfacing through it (e.g. ordering a number against a string).
            raise EvaluationError(str(exc)) from None

    def __repr__(self) -> str:
        return f"Expression({self.source!r})"


def compile_expression(source: str) -> Expression:
    """Parse ``source``, check it keeps to the portable subset, and compile it."""
    if not isinstance(source, str):
        raise ExpressionError("an expression must be a string", "expression-syntax")
    if len(source) > MAX_LENGTH:
        raise ExpressionError(
            f"expression longer than {MAX_LENGTH} characters", "expression-not-portable"
        )
    # The parser is imported on first use: the bundled specs arrive as parsed ASTs
    # (toolwire._spec.bundle, Expression.from_ast), so reading replies never needs it.
    import jmespath  # lazy: jmespath (13 ms) only for source text, never for the bundle
    from jmespath import exceptions as jmespath_errors  # lazy: jmespath, as above

    try:
        parsed = jmespath.compile(source)
    except jmespath_errors.ParseError as exc:
        offset = exc.lex_position if isinstance(exc.lex_position, int) else 0
        raise ExpressionError(_parse_message(exc), "expression-syntax", max(offset, 0)) from None
    except jmespath_errors.JMESPathError as exc:
        raise ExpressionError(str(exc), "expression-syntax") from None
    except (RecursionError, MemoryError):
        raise ExpressionError("expression nested too deeply", "expression-syntax") from None
    return Expression.from_ast(source, parsed.parsed)


def _parse_message(exc: Any) -> str:
    from jmespath import exceptions as jmespath_errors  # lazy: jmespath, as above

    if isinstance(exc, jmespath_errors.LexerError):
        return str(exc.message)  # the lexer's own words ("Unknown token '$'")
    if isinstance(exc, jmespath_errors.IncompleteExpressionError):
        return "incomplete expression"
    return str(exc.msg)


def check_portable(ast: Any) -> None:
    """Raise :class:`ExpressionError` for an AST the closures must not be given.

    That is: a node outside the portable subset (rule ``expression-not-portable``, also
    for nesting deeper than :data:`MAX_DEPTH`), or one that is statically wrong (rule
    ``expression-syntax``: a malformed node, a function's arity, an ``&expr`` where a
    value belongs or the reverse, a slice step of zero — jmespath.py reports these only
    when they run). Iterative, so any depth gets an answer rather than a RecursionError.
    """
    stack: list[tuple[Any, int, str]] = [(ast, 1, "")]
    while stack:
        node, depth, parent = stack.pop()
        if depth > MAX_DEPTH:
            raise ExpressionError(
                f"expression nested deeper than {MAX_DEPTH} levels", "expression-not-portable"
            )
        kind = _check_node(node, parent)
        if kind != "slice":
            stack.extend((child, depth + 1, kind) for child in node["children"])


def _check_node(node: Any, parent: str) -> str:
    """Check one node against its parent's kind; return its own kind."""
    if not isinstance(node, dict) or not isinstance(node.get("children"), list):
        raise _malformed(f"not an AST node: {node!r}")
    kind: Any = node.get("type")
    if not isinstance(kind, str) or kind not in _CHILDREN:
        raise ExpressionError(
            f"{kind!r} expressions are not in the portable JMESPath subset",
            "expression-not-portable",
        )
    children, value = node["children"], node.get("value")
    low, high = _CHILDREN[kind]
    if len(children) < low or (high is not None and len(children) > high):
        raise _malformed(f"{kind} with {len(children)} children")
    if kind == "slice":
        _check_slice(children)
        return kind
    if not all(isinstance(child, dict) for child in children):
        raise _malformed(f"{kind} with a child that is not a node")
    if kind in ("field", "key_val_pair", "function_expression") and not isinstance(value, str):
        raise _malformed(f"{kind} named {value!r}")
    if kind == "index" and type(value) is not int:
        raise _malformed(f"index {value!r}")
    if kind == "literal" and "value" not in node:
        raise _malformed("literal without a value")
    if kind == "key_val_pair" and parent != "multi_select_dict":
        raise _malformed("key_val_pair outside a multi_select_dict")
    if kind == "multi_select_dict" and any(c.get("type") != "key_val_pair" for c in children):
        raise _malformed("multi_select_dict holding a node that is not a key_val_pair")
    if kind == "expref" and parent != "function_expression":
        raise ExpressionError(
            "&expressions are allowed only as the argument of sort_by, min_by, max_by or map",
            "expression-syntax",
        )
    if kind == "comparator":
        _check_comparator(value, children)
    if kind == "function_expression":
        if value not in STANDARD_FUNCTIONS:
            raise ExpressionError(
                f"unknown function {value}(); only standard functions are portable",
                "expression-not-portable",
            )
        problem = call_problem(value, children)
        if problem is not None:
            raise ExpressionError(problem, "expression-syntax")
    return kind


def _check_slice(parts: list[Any]) -> None:
    if any(part is not None and type(part) is not int for part in parts):
        raise _malformed(f"slice {parts!r}")
    if parts[2] == 0:
        raise ExpressionError("a slice step cannot be 0", "expression-syntax")


def _check_comparator(op: Any, children: list[dict[str, Any]]) -> None:
    if op not in _COMPARATORS:
        raise _malformed(f"comparator {op!r}")
    if op in _ORDERING:
        for child in children:
            if child.get("type") == "literal" and not _is_number(child.get("value")):
                raise ExpressionError(
                    "ordering comparisons are portable on numbers only",
                    "expression-not-portable",
                )


def _malformed(what: str) -> ExpressionError:
    return ExpressionError(f"malformed expression AST: {what}", "expression-syntax")


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
