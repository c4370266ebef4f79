"""JMESPath values as jmespath.py 1.1.0 sees them: types, truth, equality, ordering.

Shared by the closure compiler (:mod:`toolwire._expression.closures`) and the standard
functions (:mod:`toolwire._expression.functions`), so both agree on what a value is.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

from .._speed import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Final

__all__ = ["EvaluationError", "comparable", "equals", "is_number", "is_true", "type_name"]

class EvaluationError(ValueError):
    """An expression failed on a document: a function given a value of the wrong type,
    a number ordered against a string, values nested too deeply to compare, and the like.
    Where jmespath.py raises (whatever the class), the closures raise this."""


# --- values -------------------------------------------------------------------------

_TYPE_NAMES: Final[Mapping[type, str]] = {
    bool: "boolean", list: "array", dict: "object",
    type(None): "null", str: "string", float: "number", int: "number",
}


def type_name(value: Any) -> str:
    """The JMESPath type jmespath.py's function signatures check (by exact Python type)."""
    name = _TYPE_NAMES.get(type(value))
    if name is None:
        # jmespath.py also names an OrderedDict "object"; with collections not imported,
        # there is none to name.
        collections = sys.modules.get("collections")
        if collections is not None and type(value) is collections.OrderedDict:
            return "object"
        return "unknown"
    return name


def is_true(value: Any) -> bool:
    """JMESPath truthiness: ``""``, ``[]``, ``{}``, ``false`` and null are false."""
    if value is None or value is False:
        return False
    kind = type(value)
    if kind is str or kind is list or kind is dict:
        return len(value) > 0
    if kind is bool or kind is int or kind is float:
        return True
    return not (value == "" or value == [] or value == {})


def is_number(value: Any) -> bool:
    """A ``numbers.Number`` that is no bool: JSON's numbers by type, others through
    ``numbers`` (imported only then: a cold process does without it)."""
    kind = type(value)
    if kind is int or kind is float:
        return True
    if value is None or kind is bool or kind is str or kind is list or kind is dict:
        return False
    from numbers import Number  # lazy: only a value of no builtin number type gets here

    return isinstance(value, Number) and not isinstance(value, bool)


def equals(left: Any, right: Any) -> bool:
    """jmespath.py's ``==``: Python's, except that 0/1 never equal a boolean."""
    if type(left) is bool:
        if type(right) is not bool and is_number(right) and right in (0, 1):
            return False
    elif type(right) is bool and is_number(left) and left in (0, 1):
        return False
    return bool(left == right)


def comparable(value: Any) -> bool:
    kind = type(value)
    if kind is int or kind is float or kind is str:
        return True
    return is_number(value) or isinstance(value, str)

