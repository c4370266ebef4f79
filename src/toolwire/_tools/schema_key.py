"""A schema's exact content as a hashable key, for the memos of what a schema gives.

Two schemas share a key only when they are the same JSON with the same types throughout:
``1`` is not ``1.0`` is not ``true`` to a meta-schema or to a check, and key order does
not matter. A value that is not plain JSON has no key (:class:`TypeError`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["exact_content"]


def exact_content(value: Any) -> Any:
    """``value`` as nested tuples tagged with each value's exact type; :class:`TypeError`
    for anything that is not plain JSON (:class:`RecursionError` for nesting too deep)."""
    kind = type(value)
    if kind is dict:
        return (dict, tuple(sorted((k, exact_content(v)) for k, v in value.items())))
    if kind is list:
        return (list, tuple(exact_content(v) for v in value))
    if kind in (str, int, float, bool) or value is None:
        return (kind, value)
    raise TypeError(kind.__name__)
