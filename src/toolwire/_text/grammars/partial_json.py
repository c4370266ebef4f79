"""The members of a JSON value the reply ended inside: what was written whole before the cut.

A call object cut at the token limit, ``{"name": "get_time", "arguments": {"tz": "Eur``,
is not JSON, yet its name was written whole: the call is known, its arguments are not.
:func:`read_partial` reads such a text, one that runs out before its value is complete
(a prefix of some JSON text), into the containers it opened, each holding only the
members read whole: a string, number or literal the text ends inside is left out (a
number at the very end may be cut too: ``12`` of ``123``), and so is a key without its
value. Containers that were opened and never closed are reported, so a caller knows
which elements of an array were written whole (specs/README.md §1b.12).

Anything that is not such a prefix (a fault before the end, a value that is a scalar)
answers ``None``. One pass, each scalar decoded once by the strict decoder, containers
tracked on an explicit stack: linear in the text, at any depth up to the JSON limit.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from ..._values.jsontext import MAX_DEPTH, JsonFault, scan_at
from .base import RAN_OUT, skip_blanks

__all__ = ["Partial", "read_partial"]

_NUMBER_START: Final = frozenset("-0123456789")


class Partial(NamedTuple):
    """The outermost container read, and the ids of the containers never closed."""

    value: dict[str, Any] | list[Any]
    open: frozenset[int]


# What the reader expects next inside the innermost open container.
_KEY_OR_CLOSE: Final = 0  # after "{"
_KEY: Final = 1  # after "," in an object
_COLON: Final = 2  # after a key
_VALUE_OR_CLOSE: Final = 3  # after "["
_VALUE: Final = 4  # after ":" or "," in an array
_AFTER: Final = 5  # after a member's value


def read_partial(text: str, pos: int) -> Partial | None:
    """The containers of the JSON value starting at ``pos`` that ``text`` ends inside."""
    i = skip_blanks(text, pos)
    n = len(text)
    if i >= n or text[i] not in "[{":
        return None
    root: dict[str, Any] | list[Any] = {} if text[i] == "{" else []
    stack: list[dict[str, Any] | list[Any]] = [root]
    keys: list[str | None] = [None]  # the pending key of each open object
    state = _KEY_OR_CLOSE if text[i] == "{" else _VALUE_OR_CLOSE
    i += 1
    while True:
        i = skip_blanks(text, i)
        if i >= n:
            return Partial(root, frozenset(id(c) for c in stack))
        c = text[i]
        top = stack[-1]
        closer = "}" if state == _KEY_OR_CLOSE else "]"
        if state in (_KEY_OR_CLOSE, _VALUE_OR_CLOSE) and c == closer:
            state, i = _close(stack, keys), i + 1
            if state < 0:
                return None  # the value closed: it is whole, not cut
            continue
        if state in (_KEY_OR_CLOSE, _KEY):
            if c != '"':
                return None
            try:
                key, i = scan_at(text, i)
            except JsonFault as fault:
                if fault.code in RAN_OUT:
                    return Partial(root, frozenset(id(x) for x in stack))
                return None
            keys[-1] = key
            state = _COLON
            continue
        if state == _COLON:
            if c != ":":
                return None
            state, i = _VALUE, i + 1
            continue
        if state in (_VALUE, _VALUE_OR_CLOSE):
            if c in "[{":
                if len(stack) >= MAX_DEPTH:
                    return None
                child: dict[str, Any] | list[Any] = {} if c == "{" else []
                _add(top, keys[-1], child)
                stack.append(child)
                keys.append(None)
                state, i = (_KEY_OR_CLOSE if c == "{" else _VALUE_OR_CLOSE), i + 1
                continue
            try:
                value, end = scan_at(text, i)
            except JsonFault as fault:
                if fault.code in RAN_OUT:
                    return Partial(root, frozenset(id(x) for x in stack))
                if fault.code != "number-out-of-range":
                    return None
                value, end = None, _number_end(text, i)  # whole, but no double: no value
            if end >= n and c in _NUMBER_START:
                return Partial(root, frozenset(id(x) for x in stack))  # maybe cut
            _add(top, keys[-1], value)
            state, i = _AFTER, end
            continue
        # _AFTER: a comma, or the container's closing bracket
        if c == ",":
            state, i = (_KEY if isinstance(top, dict) else _VALUE), i + 1
        elif c == ("}" if isinstance(top, dict) else "]"):
            state, i = _close(stack, keys), i + 1
            if state < 0:
                return None
        else:
            return None


def _add(container: dict[str, Any] | list[Any], key: str | None, value: Any) -> None:
    if isinstance(container, dict):
        container[key or ""] = value  # key is set: an object's value follows its key
    else:
        container.append(value)


def _close(stack: list[Any], keys: list[str | None]) -> int:
    """Pop the innermost container; the state after it, or -1 when the outermost closed."""
    stack.pop()
    keys.pop()
    return _AFTER if stack else -1


def _number_end(text: str, i: int) -> int:
    """The end of the number token at ``i`` (one known to be whole)."""
    j = i + 1
    while j < len(text) and text[j] in "0123456789+-.eE":
        j += 1
    return j
