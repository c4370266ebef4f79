"""Compile a JMESPath AST into nested Python closures, once, at load time.

Why: ``jmespath.py`` walks the AST on every search, dispatching on each node's type and
building a fresh interpreter per call; a spec evaluates a few tiny expressions per response
item, so that overhead is most of the cost. Here every node becomes one closure when the
spec loads, and chains of fields and indexes (``choices[0].message.tool_calls``) collapse
into a single closure.

The semantics are jmespath.py 1.1.0's, its quirks included, so a spec means the same under
either evaluator (``tests/test_expression_differential.py`` holds them to it):

- ``==`` is Python's ``==`` except that ``0``/``1`` never equal ``false``/``true`` at the
  top level (inside arrays and objects Python's ``1 == True`` still holds);
- ordering compares two numbers or two strings, gives null for anything else, and fails
  on a number against a string;
- ``!`` is false for every number (``!`0``` too), otherwise Python's ``not``;
- a projection drops the nulls its right side yields; ``map`` keeps them.

Where jmespath.py raises at run time (a function argument of the wrong type, a Python
``TypeError`` or ``ValueError`` underneath), the closures raise :class:`EvaluationError`.

Precondition: the AST passed :func:`toolwire._expression.compiler.check_portable` (node shapes,
arity, ``&expr`` placement, nesting depth); the closures recurse only as deep as the
expression nests, never per level of the document.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

# operator's C half (built in): the operator module itself is an import a cold start pays
from operator import ge, gt, le, lt

from .._speed import TYPE_CHECKING
from .functions import SIGNATURES, call_problem, failed, function
from .values import EvaluationError, comparable, equals, is_number, is_true, type_name

if TYPE_CHECKING:
    from typing import Any, Final

    Evaluator = Callable[[Any], Any]
    _Node = Mapping[str, Any]
else:  # the exported name exists at run time too, without importing typing for Any
    Evaluator = Callable

__all__ = [
    "SIGNATURES",
    "EvaluationError",
    "Evaluator",
    "NotJSONError",
    "call_problem",
    "compile_ast",
    "element_of",
    "field_of",
    "path_steps",
]


# --- node compilers -----------------------------------------------------------------

def compile_ast(node: _Node) -> Evaluator:
    """Return a closure that evaluates ``node`` against a document."""
    steps = path_steps(node)
    if steps is not None:
        return _compile_path(steps)
    compiler: Callable[[_Node], Evaluator] = _COMPILERS[node["type"]]
    return compiler(node)


def _identity(value: Any) -> Any:
    return value


def path_steps(node: _Node) -> list[str | int] | None:
    """Field names and indexes of a pure chain (``a.b[0].c``), or None if it is not one."""
    kind = node["type"]
    if kind == "field" or kind == "index":
        return [node["value"]]
    if kind == "current" or kind == "identity":
        return []
    if kind in ("subexpression", "index_expression", "pipe"):
        steps: list[str | int] = []
        for child in node["children"]:
            more = path_steps(child)
            if more is None:
                return None
            steps.extend(more)
        return steps
    return None


def _compile_path(steps: Sequence[str | int]) -> Evaluator:
    """One closure for a chain of fields and indexes; null (or a wrong type) ends it."""
    names = [step for step in steps if isinstance(step, str)]
    if not steps:
        return _identity
    if len(names) == len(steps) <= 3:
        return _field_chain(*names)
    if len(steps) == 1 and isinstance(steps[0], int):
        i = steps[0]
        return lambda d: element_of(d, i)
    chain: tuple[tuple[bool, Any], ...] = tuple((isinstance(s, str), s) for s in steps)

    def path(d: Any) -> Any:
        for is_field, step in chain:
            if is_field:
                if type(d) is dict or isinstance(d, dict):
                    d = d.get(step)
                else:
                    return field_of(d, step)
            elif type(d) is list or isinstance(d, list):
                try:
                    d = d[step]
                except IndexError:
                    return None
            else:
                return None
        return d

    return path


def _field_chain(a: str, b: str | None = None, c: str | None = None) -> Evaluator:
    """`a`, `a.b`, `a.b.c` unrolled: the shapes most spec expressions take."""
    if b is None:
        return lambda d: d.get(a) if type(d) is dict else field_of(d, a)
    if c is None:
        def field2(d: Any) -> Any:
            d = d.get(a) if type(d) is dict else field_of(d, a)
            return d.get(b) if type(d) is dict else field_of(d, b)

        return field2

    def field3(d: Any) -> Any:
        d = d.get(a) if type(d) is dict else field_of(d, a)
        d = d.get(b) if type(d) is dict else field_of(d, b)
        return d.get(c) if type(d) is dict else field_of(d, c)

    return field3


class NotJSONError(EvaluationError):
    """A field was read off a value that is no JSON at all: typically an SDK object left
    inside a plain dict. JMESPath would call it null and read on — a reply's calls gone
    without a word — so the expression fails instead, naming the type."""

    def __init__(self, value: Any) -> None:
        kind = type(value)
        self.type_name = f"{kind.__module__}.{kind.__qualname__}"
        super().__init__(
            f"met a {self.type_name} where JSON was expected (an SDK object inside plain"
            " data?): pass the SDK's response object itself, or its JSON"
            " (model_dump(mode='json', by_alias=True))"
        )


_NOT_OBJECTS: Final = (list, str, int, float, type(None))


def field_of(value: Any, key: str) -> Any:
    """A field of any dict (a subclass too), else null: JMESPath's field on one value.

    Raises :class:`NotJSONError` on a value that is not JSON (see there).
    """
    if isinstance(value, dict):
        return value.get(key)
    if isinstance(value, _NOT_OBJECTS):
        return None
    raise NotJSONError(value)


def element_of(value: Any, i: int) -> Any:
    """An element of any list (negative indexes count from the end), else null."""
    if not isinstance(value, list):
        return None
    try:
        return value[i]
    except IndexError:
        return None


def _sequence(node: _Node) -> Evaluator:
    """subexpression, index_expression and pipe: each child applied to the last result."""
    parts: list[Evaluator] = []
    pending: list[str | int] = []
    for child in node["children"]:
        steps = path_steps(child)
        if steps is not None:
            pending.extend(steps)
            continue
        if pending:
            parts.append(_compile_path(pending))
            pending = []
        parts.append(compile_ast(child))
    if pending:
        parts.append(_compile_path(pending))
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        first, second = parts
        return lambda d: second(first(d))
    chain = tuple(parts)

    def sequence(d: Any) -> Any:
        for part in chain:
            d = part(d)
        return d

    return sequence


def _slice(node: _Node) -> Evaluator:
    cut = slice(*node["children"])
    return lambda d: d[cut] if isinstance(d, list) else None


def _literal(node: _Node) -> Evaluator:
    return _constant(node["value"])


def _constant(value: Any) -> Evaluator:
    return lambda d: value


def _projection(node: _Node) -> Evaluator:
    left_node, right_node = node["children"]
    left = compile_ast(left_node)
    if right_node["type"] in ("identity", "current"):
        def project_all(d: Any) -> Any:
            base = left(d)
            if not isinstance(base, list):
                return None
            return [x for x in base if x is not None]
        return project_all
    right = compile_ast(right_node)

    def project(d: Any) -> Any:
        base = left(d)
        if not isinstance(base, list):
            return None
        return [v for x in base if (v := right(x)) is not None]

    return project


def _value_projection(node: _Node) -> Evaluator:
    left, right = (compile_ast(child) for child in node["children"])

    def project_values(d: Any) -> Any:
        base = left(d)
        if not isinstance(base, dict):
            return None
        return [v for x in base.values() if (v := right(x)) is not None]

    return project_values


def _flatten(node: _Node) -> Evaluator:
    inner = compile_ast(node["children"][0])

    def flatten(d: Any) -> Any:
        base = inner(d)
        if not isinstance(base, list):
            return None
        merged: list[Any] = []
        for element in base:
            if isinstance(element, list):
                merged.extend(element)
            else:
                merged.append(element)
        return merged

    return flatten


def _filter_projection(node: _Node) -> Evaluator:
    left, right, condition = (compile_ast(child) for child in node["children"])

    def filter_project(d: Any) -> Any:
        base = left(d)
        if not isinstance(base, list):
            return None
        return [
            v for x in base if is_true(condition(x)) and (v := right(x)) is not None
        ]

    return filter_project


def _or(node: _Node) -> Evaluator:
    left, right = (compile_ast(child) for child in node["children"])

    def either(d: Any) -> Any:
        value = left(d)
        return value if is_true(value) else right(d)

    return either


def _and(node: _Node) -> Evaluator:
    left, right = (compile_ast(child) for child in node["children"])

    def both(d: Any) -> Any:
        value = left(d)
        return right(d) if is_true(value) else value

    return both


def _not(node: _Node) -> Evaluator:
    inner = compile_ast(node["children"][0])

    def negate(d: Any) -> bool:
        value = inner(d)
        kind = type(value)
        if kind is int or kind is float:
            return False  # jmespath.py: `!0` is false like every other number
        if value is None or kind is bool or kind is str or kind is list or kind is dict:
            return not value
        return False if is_number(value) else not value

    return negate


_ORDER: Final[Mapping[str, Callable[[Any, Any], Any]]] = {
    "lt": lt, "lte": le, "gt": gt, "gte": ge,
}


def _comparator(node: _Node) -> Evaluator:
    op = node["value"]
    left_node, right_node = node["children"]
    left, right = compile_ast(left_node), compile_ast(right_node)
    if op in ("eq", "ne"):
        if right_node["type"] == "literal" and type(right_node["value"]) is str:
            text = right_node["value"]  # the common `type == 'x'`: plain == is exact here
            if op == "eq":
                return lambda d: left(d) == text
            return lambda d: left(d) != text
        want = op == "eq"

        def equality(d: Any) -> bool:
            a, b = left(d), right(d)
            try:
                return equals(a, b) is want
            except RecursionError:
                raise EvaluationError("values nested too deeply to compare") from None

        return equality
    order = _ORDER[op]

    def ordering(d: Any) -> Any:
        a, b = left(d), right(d)
        if not (comparable(a) and comparable(b)):
            return None
        try:
            return order(a, b)
        except TypeError:
            raise EvaluationError(
                f"cannot order {type_name(a)} against {type_name(b)}"
            ) from None

    return ordering


def _multi_select_list(node: _Node) -> Evaluator:
    if all(child["type"] == "literal" for child in node["children"]):
        # A list of literals (`contains(['a', 'b'], type)`): the same values every time,
        # so one copy of a prebuilt list, not one closure call per element.
        values = [child["value"] for child in node["children"]]
        return lambda d: None if d is None else list(values)
    parts = tuple(compile_ast(child) for child in node["children"])
    return lambda d: None if d is None else [part(d) for part in parts]


def _multi_select_dict(node: _Node) -> Evaluator:
    parts = tuple(
        (pair["value"], compile_ast(pair["children"][0])) for pair in node["children"]
    )
    return lambda d: None if d is None else {key: part(d) for key, part in parts}


def _function(node: _Node) -> Evaluator:
    name = node["value"]
    impl, checks = function(name)
    args: list[Evaluator] = []
    for child in node["children"]:
        if child["type"] == "expref":
            args.append(_constant(compile_ast(child["children"][0])))
        else:
            args.append(compile_ast(child))

    if len(args) == 1:
        (arg,), (check,) = args, checks

        def call1(d: Any) -> Any:
            value = arg(d)
            if check is not None:
                check(name, value)
            try:
                return impl(value)
            except (TypeError, ValueError, ArithmeticError, RecursionError) as exc:
                raise failed(name, exc) from None

        return call1

    def call(d: Any) -> Any:
        values = [arg(d) for arg in args]
        for value, check in zip(values, checks, strict=False):
            if check is not None:
                check(name, value)
        try:
            return impl(*values)
        except (TypeError, ValueError, ArithmeticError, RecursionError) as exc:
            raise failed(name, exc) from None

    return call


_COMPILERS: Final[Mapping[str, Callable[[_Node], Evaluator]]] = {
    "subexpression": _sequence,
    "index_expression": _sequence,
    "pipe": _sequence,
    "slice": _slice,
    "literal": _literal,
    "projection": _projection,
    "value_projection": _value_projection,
    "flatten": _flatten,
    "filter_projection": _filter_projection,
    "or_expression": _or,
    "and_expression": _and,
    "not_expression": _not,
    "comparator": _comparator,
    "multi_select_list": _multi_select_list,
    "multi_select_dict": _multi_select_dict,
    "function_expression": _function,
}

