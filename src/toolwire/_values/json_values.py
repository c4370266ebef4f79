"""JSON values as the values hold them: copied deep, compared without recursion, ids as text.

Every value toolwire hands over owns its JSON (a call's arguments, a server call's item):
:func:`copy_json` makes the copy, refusing what no JSON text can hold (a cycle, NaN, an
integer beyond the double range: :class:`~toolwire.errors.NotJSONValue`), so a value
always writes back as JSON. :func:`id_text` is the one rule for a provider's id.
"""

from __future__ import annotations

from .._speed import TYPE_CHECKING
from ..errors import NotJSONValue

if TYPE_CHECKING:
    from typing import Any

__all__ = ["JSON_WORDS", "copy_checked", "copy_json", "id_text", "json_equal"]


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value (dicts and lists copied, scalars shared).

    Bytes become the text the APIs write for them, standard base64 (RFC 4648 §4): an SDK's
    Python-mode dump holds a Gemini thought signature as bytes, and a copy that kept them
    could not be written as JSON later (specs/README.md §5). Recursive for speed; falls
    back to an explicit stack for values nested deeper than the interpreter's recursion
    limit allows — and a cycle is such a value, which the explicit stack then finds.
    Raises :class:`NotJSONValue` for what JSON cannot hold.
    """
    try:
        return _copy_recursive(value)
    except RecursionError:
        return _copy_iterative(value)


def copy_checked(value: Any) -> Any:
    """A deep copy of JSON data the reader has already checked (numbers, cycles): dicts and
    lists copied, everything else shared as it is (bytes stay bytes: :func:`copy_json`
    writes them as base64 when the value is handed out). Twice as fast as
    :func:`copy_json` on a reply's items, which a reply keeps for its turn; nested deeper
    than the interpreter's recursion limit, it is :func:`copy_json`'s copy."""
    try:
        return _copy_checked(value)
    except RecursionError:
        return _copy_iterative(value)


_SHARED_AS_IS = frozenset({str, int, float, bool, type(None)})


def _copy_checked(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        # Copied whole in C, then only the containers replaced: a reply's items are
        # mostly text, and a dict comprehension builds every entry in Python.
        copied = dict(value)
        for k, v in copied.items():
            if type(v) not in _SHARED_AS_IS:
                copied[k] = _copy_checked(v)  # a value replaced, not a key added
        return copied
    if kind is list:
        return [v if type(v) in _SHARED_AS_IS else _copy_checked(v) for v in value]
    if isinstance(value, dict):
        return {k: v if type(v) in _SHARED_AS_IS else _copy_checked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) in _SHARED_AS_IS else _copy_checked(v) for v in value]
    return value


_INF = float("inf")
JSON_WORDS = frozenset({str, bool, type(None)})
"""The scalars every JSON text holds as they are: a number may not (:class:`NotJSONValue`)."""
_INT_BOUND = 2**1024 - 2**970
"""The smallest integer whose nearest double is infinite: JSON text's number range."""


def _number(value: Any) -> Any:
    """``value``, unless it is a number no JSON text can hold."""
    if isinstance(value, float):
        if value - value != 0.0:  # nan - nan and inf - inf are nan
            shown = "NaN" if value != value else ("-" if value < 0 else "") + "Infinity"
            raise NotJSONValue(f"{shown} is no JSON number")
    elif isinstance(value, int) and not -_INT_BOUND < value < _INT_BOUND:
        raise NotJSONValue(f"number out of range (an integer of {value.bit_length():,} bits)")
    return value


def id_text(value: Any) -> str:
    """A provider's id as a ``ToolCall`` keeps it: a string as sent, a number as the text
    ECMAScript's ``Number::toString`` gives its nearest double (``12``, ``12.0`` → ``"12"``,
    ``1e-7`` → ``"1e-7"``) — an integer its exact digits — anything else (null, a
    boolean, a non-finite number) ``""``.

    The number rule is the one every JSON platform can follow (specs/README.md §1.3).
    """
    if type(value) is str:
        return value
    if value is None or type(value) is bool:
        return ""
    if isinstance(value, int):
        return str(value)  # exact digits: beyond 2^53 only exact-integer platforms agree
    if isinstance(value, float):
        return _number_text(value)
    return ""


def _number_text(x: float) -> str:
    """ECMAScript ``Number::toString(x)``: the shortest round-trip digits, laid out by its rules."""
    if x != x or x in (_INF, -_INF):
        return ""
    if x == 0:
        return "0"
    if x < 0:
        return "-" + _number_text(-x)
    mantissa, _, exponent = repr(x).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    point = len(whole) + (int(exponent) if exponent else 0)
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    k, n = len(digits), point
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * -n + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    head = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{head}e{sign}{abs(e)}"


_BYTES = (bytes, bytearray, memoryview)


def _base64(value: Any) -> str:
    import base64  # lazy: base64 (5 ms) only for bytes in a value

    return base64.b64encode(bytes(value)).decode("ascii")


def _copy_recursive(value: Any) -> Any:
    # Most arguments are flat objects: when every value is a string, a boolean or null
    # (checked in C, by exact type), a shallow copy is a deep one; numbers are looked at.
    if isinstance(value, dict):
        copied = dict(value)
        if not JSON_WORDS.issuperset(map(type, copied.values())):
            for k, v in copied.items():
                if isinstance(v, (dict, list)):
                    copied[k] = _copy_recursive(v)  # a value replaced, not a key added
                elif isinstance(v, (float, int)):
                    _number(v)
                elif isinstance(v, _BYTES):
                    copied[k] = _base64(v)
        return copied
    if isinstance(value, list):
        if JSON_WORDS.issuperset(map(type, value)):
            return list(value)
        return [_copy_recursive(v) if isinstance(v, (dict, list)) else
                _base64(v) if isinstance(v, _BYTES) else _number(v)
                for v in value]
    if isinstance(value, _BYTES):
        return _base64(value)
    return _number(value)


def _copy_iterative(value: Any) -> Any:
    """:func:`_copy_recursive` with a stack of its own; a container met again inside
    itself (on the path from the root) is a cycle, no JSON value."""
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    path: set[int] = set()  # the containers being copied, by id: the way from the root
    while stack:
        source, parent, key = stack.pop()
        if source is _LEFT:
            path.discard(parent)
            continue
        if isinstance(source, (dict, list)):
            if id(source) in path:
                raise NotJSONValue("a list or object holds itself (a cycle)")
            path.add(id(source))
            stack.append((_LEFT, id(source), None))  # popped once its contents are done
        if isinstance(source, dict):
            copied: Any = {}
            for k, v in source.items():
                copied[k] = None
                stack.append((v, copied, k))
        elif isinstance(source, list):
            copied = [None] * len(source)
            for i, v in enumerate(source):
                stack.append((v, copied, i))
        elif isinstance(source, _BYTES):
            copied = _base64(source)
        else:
            copied = _number(source)
        parent[key] = copied
    return root[0]


_LEFT = object()
"""The stack mark of a container whose contents are all copied."""


def json_equal(left: Any, right: Any) -> bool:
    """``left == right`` for JSON values, with an explicit stack instead of recursion."""
    stack = [(left, right)]
    while stack:
        a, b = stack.pop()
        if isinstance(a, dict) and isinstance(b, dict):
            if a.keys() != b.keys():
                return False
            stack.extend((a[k], b[k]) for k in a)
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                return False
            stack.extend(zip(a, b, strict=True))
        elif isinstance(a, (dict, list)) or isinstance(b, (dict, list)) or a != b:
            return False
    return True
