"""The JMESPath standard functions, with jmespath.py 1.1.0's signatures and type checks.

Each function is a plain Python callable plus a run-time check per parameter, built on
first use; the closure compiler (:mod:`toolwire._expression.closures`) calls them. Static problems
(arity, ``&expr`` placement) are found when a spec loads, by :func:`call_problem`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .._speed import TYPE_CHECKING
from .values import EvaluationError, type_name

if TYPE_CHECKING:
    from typing import Any, Final

    Evaluator = Callable[[Any], Any]
    _Node = Mapping[str, Any]
    _Check = Callable[[str, Any], None]

__all__ = ["SIGNATURES", "call_problem", "failed", "function"]


def failed(name: str, exc: BaseException) -> EvaluationError:
    """A Python error inside a function (jmespath.py lets these escape as they are)."""
    if isinstance(exc, EvaluationError):
        return exc
    return EvaluationError(f"{name}(): {type(exc).__name__}: {exc}")


# --- functions ----------------------------------------------------------------------
# Signatures as jmespath.py declares them: one tuple of accepted types per parameter
# (empty: any value); "array-number" is an array whose elements are all numbers. Only
# the declared parameters are type-checked, so merge() checks its first argument only.

SIGNATURES: Final[Mapping[str, tuple[tuple[tuple[str, ...], ...], bool]]] = {
    "abs": ((("number",),), False),
    "avg": ((("array-number",),), False),
    "ceil": ((("number",),), False),
    "contains": ((("array", "string"), ()), False),
    "ends_with": ((("string",), ("string",)), False),
    "floor": ((("number",),), False),
    "join": ((("string",), ("array-string",)), False),
    "keys": ((("object",),), False),
    "length": ((("string", "array", "object"),), False),
    "map": ((("expref",), ("array",)), False),
    "max": ((("array-number", "array-string"),), False),
    "max_by": ((("array",), ("expref",)), False),
    "merge": ((("object",),), True),
    "min": ((("array-number", "array-string"),), False),
    "min_by": ((("array",), ("expref",)), False),
    "not_null": (((),), True),
    "reverse": ((("array", "string"),), False),
    "sort": ((("array-string", "array-number"),), False),
    "sort_by": ((("array",), ("expref",)), False),
    "starts_with": ((("string",), ("string",)), False),
    "sum": ((("array-number",),), False),
    "to_array": (((),), False),
    "to_number": (((),), False),
    "to_string": (((),), False),
    "type": (((),), False),
    "values": ((("object",),), False),
}


def call_problem(name: str, args: Sequence[_Node]) -> str | None:
    """What is statically wrong with calling ``name`` on ``args`` (arity, ``&expr``
    placement), or None. jmespath.py reports these only when the call runs."""
    params, variadic = SIGNATURES[name]
    if variadic and len(args) < len(params):
        return f"{name}() takes at least {len(params)} argument(s), got {len(args)}"
    if not variadic and len(args) != len(params):
        return f"{name}() takes {len(params)} argument(s), got {len(args)}"
    for position, arg in enumerate(args):
        wants_expref = params[min(position, len(params) - 1)] == ("expref",)
        if wants_expref != (arg["type"] == "expref"):
            which = "an &expression" if wants_expref else "a value, not an &expression"
            return f"argument {position + 1} of {name}() must be {which}"
    return None


def _type_error(name: str, value: Any, expected: Sequence[str]) -> EvaluationError:
    return EvaluationError(
        f"{name}(): invalid type for value {value!r}: expected one of {list(expected)}, "
        f"received {type_name(value)!r}"
    )


def _checker(types: tuple[str, ...]) -> _Check | None:
    """A run-time type check for one parameter, as jmespath.py's _type_check does it."""
    if not types or types == ("expref",):
        return None  # any value; &expr placement is checked statically
    top = frozenset(t.partition("-")[0] for t in types)
    subtypes = tuple(t.partition("-")[2] for t in types if "-" in t)

    def check(name: str, value: Any) -> None:
        if type_name(value) not in top:
            raise _type_error(name, value, types)
        if not subtypes:
            return
        if len(subtypes) == 1:
            want = subtypes[0]
        elif not value:
            return
        else:  # several element types allowed: the first element picks one for all
            want = type_name(value[0])
            if want not in subtypes:
                raise _type_error(name, value[0], types)
        for element in value:
            if type_name(element) != want:
                raise _type_error(name, element, types)

    return check


def _avg(values: list[Any]) -> Any:
    return sum(values) / len(values) if values else None


def _join(separator: str, values: list[str]) -> str:
    return separator.join(values)


def _map(body: Evaluator, values: list[Any]) -> list[Any]:
    return [body(value) for value in values]


def _merge(*objects: Any) -> dict[Any, Any]:
    merged: dict[Any, Any] = {}
    for each in objects:
        merged.update(each)  # jmespath.py type-checks only the first argument
    return merged


def _not_null(*values: Any) -> Any:
    return next((value for value in values if value is not None), None)


def _reverse(value: Any) -> Any:
    return value[::-1] if isinstance(value, str) else list(reversed(value))


def _to_number(value: Any) -> Any:
    if isinstance(value, (list, dict, bool)) or value is None:
        return None
    if isinstance(value, (int, float)):
        return value
    try:
        return int(value)
    except ValueError:
        try:
            return float(value)
        except ValueError:
            return None


def _to_string(value: Any) -> str:
    if isinstance(value, str):
        return value
    import json  # lazy: json imports re (0.6x a cold start); only to_string needs it

    return json.dumps(value, separators=(",", ":"), default=str)


def _type(value: Any) -> str | None:
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, (float, int)):
        return "number"
    return "null" if value is None else None


def _key_check(name: str, body: Evaluator, allowed: Sequence[str]) -> Evaluator:
    def key(value: Any) -> Any:
        result = body(value)
        if type_name(result) not in allowed:
            raise _type_error(name, result, allowed)
        return result

    return key


def _sort_by(values: list[Any], body: Evaluator) -> list[Any]:
    if not values:
        return values
    first = type_name(body(values[0]))
    if first not in ("number", "string"):
        raise _type_error("sort_by", values[0], ("string", "number"))
    return sorted(values, key=_key_check("sort_by", body, (first,)))


def _min_by(values: list[Any], body: Evaluator) -> Any:
    return min(values, key=_key_check("min_by", body, ("number", "string"))) if values else None


def _max_by(values: list[Any], body: Evaluator) -> Any:
    return max(values, key=_key_check("max_by", body, ("number", "string"))) if values else None


def _math() -> Any:
    """``math``, imported on first use: a cold process reading replies does without it."""
    import math  # lazy: only the numeric functions need math

    return math


_IMPLEMENTATIONS: Final[Mapping[str, Callable[..., Any]]] = {
    "abs": abs,
    "avg": _avg,
    "ceil": lambda number: _math().ceil(number),
    "contains": lambda subject, search: search in subject,
    "ends_with": lambda text, suffix: text.endswith(suffix),
    "floor": lambda number: _math().floor(number),
    "join": _join,
    "keys": lambda obj: list(obj.keys()),
    "length": len,
    "map": _map,
    "max": lambda values: max(values) if values else None,
    "max_by": _max_by,
    "merge": _merge,
    "min": lambda values: min(values) if values else None,
    "min_by": _min_by,
    "not_null": _not_null,
    "reverse": _reverse,
    "sort": sorted,
    "sort_by": _sort_by,
    "starts_with": lambda text, prefix: text.startswith(prefix),
    "sum": sum,
    "to_array": lambda value: value if isinstance(value, list) else [value],
    "to_number": _to_number,
    "to_string": _to_string,
    "type": _type,
    "values": lambda obj: list(obj.values()),
}

_FUNCTIONS: dict[str, tuple[Callable[..., Any], tuple[_Check | None, ...]]] = {}


def function(name: str) -> tuple[Callable[..., Any], tuple[_Check | None, ...]]:
    """Standard function ``name``: its implementation and a run-time check per declared
    parameter (None: any value). Built on first use and kept: a spec calls a few of the
    26, and building every check costs a cold process more than its reply."""
    found = _FUNCTIONS.get(name)
    if found is None:
        params, _variadic = SIGNATURES[name]
        found = _FUNCTIONS[name] = (
            _IMPLEMENTATIONS[name], tuple(_checker(types) for types in params)
        )
    return found
