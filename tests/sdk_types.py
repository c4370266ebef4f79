"""A strict check of JSON data against an SDK's request param types (TypedDicts).

pydantic validates TypedDicts leniently (unknown keys ignored, iterables checked lazily),
which would pass a misspelt key. This checker walks the type hints itself: every key must
be declared, every required key present, literals exact, unions tried in turn. It reports
the first mismatch with its place, or None.
"""

from __future__ import annotations

import collections.abc
import types
import typing
from typing import Any, Literal, Union

import typing_extensions

_WRAPPERS = {"Required", "NotRequired", "ReadOnly", "Annotated"}


def _origin_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    return getattr(origin, "_name", None) or getattr(origin, "__name__", "") or ""


def mismatch(value: Any, tp: Any, where: str = "$") -> str | None:
    """The first place where ``value`` does not fit ``tp``, or None."""
    origin = typing.get_origin(tp)
    if tp is Any or tp is object:
        return None
    if origin is typing.Annotated or _origin_name(tp) in _WRAPPERS:
        return mismatch(value, typing.get_args(tp)[0], where)
    if origin in (Union, types.UnionType):
        problems = [mismatch(value, arg, where) for arg in typing.get_args(tp)]
        if any(p is None for p in problems):
            return None
        # The member that got furthest explains best.
        return max((p for p in problems if p), key=lambda p: p.split(":")[0].count(".")
                   + p.split(":")[0].count("["), default=f"{where}: no member fits")
    if origin is Literal:
        return None if value in typing.get_args(tp) else f"{where}: {value!r} not in {tp}"
    if tp is type(None):
        return None if value is None else f"{where}: not null"
    if isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__required_keys__"):
        if not isinstance(value, dict):
            return f"{where}: not an object"
        hints = typing_extensions.get_type_hints(tp, include_extras=True)
        unknown = set(value) - set(hints)
        if unknown:
            return f"{where}: unknown keys {sorted(unknown)} for {tp.__name__}"
        missing = set(getattr(tp, "__required_keys__", ())) - set(value)
        if missing:
            return f"{where}: missing keys {sorted(missing)} for {tp.__name__}"
        for key, item in value.items():
            found = mismatch(item, hints[key], f"{where}.{key}")
            if found:
                return found
        return None
    fields = getattr(tp, "model_fields", None) if isinstance(tp, type) else None
    if isinstance(fields, dict):  # a pydantic model standing for its JSON
        if not isinstance(value, dict):
            return f"{where}: not an object"
        by_key = {(f.alias or name): f for name, f in fields.items()}
        unknown = set(value) - set(by_key)
        if unknown:
            return f"{where}: unknown keys {sorted(unknown)} for {tp.__name__}"
        for key, item in value.items():
            found = mismatch(item, by_key[key].annotation, f"{where}.{key}")
            if found:
                return found
        return None
    if origin in (list, collections.abc.Iterable, collections.abc.Sequence, tuple):
        if not isinstance(value, list):
            return f"{where}: not a list"
        (item_type, *_) = typing.get_args(tp) or (Any,)
        for index, item in enumerate(value):
            found = mismatch(item, item_type, f"{where}[{index}]")
            if found:
                return found
        return None
    if origin in (dict, collections.abc.Mapping) or tp in (dict, typing.Dict):  # noqa: UP006
        return None if isinstance(value, dict) else f"{where}: not an object"
    if tp is str:
        return None if isinstance(value, str) else f"{where}: not a string"
    if tp is bool:
        return None if isinstance(value, bool) else f"{where}: not a boolean"
    if tp in (int, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return None if ok else f"{where}: not a number"
    if tp in (bytes,):
        return None if isinstance(value, (str, bytes)) else f"{where}: not bytes"
    return None  # a type this checker does not know (a file handle...): not judged
