"""The Python a wire spec's readers generate, as text: what ``toolwire specs generated``
prints, so that a reader's fast path can be read like any other code."""

from __future__ import annotations

from .._spec import WireSpec
from .fastpath import source_code
from .fastpred import gate_source
from .fastread import read_source

__all__ = ["GENERATED_KINDS", "generated_source"]

GENERATED_KINDS = ("extract", "read", "gate")
"""The generated functions of a wire spec: extract, read, and the gate's reply check."""


def generated_source(spec: WireSpec, kind: str, strict: bool | None = None) -> str:
    """The source of ``spec``'s generated ``kind`` function, as compiled (``strict``: how
    unknown item types are met, None for the spec's own ``unknown_items``)."""
    refuse = spec.unknown_items == "refuse" if strict is None else strict
    if kind == "extract":
        return source_code(spec, refuse)[0]
    if kind == "read":
        return read_source(spec, refuse)[0]
    if kind == "gate":
        return gate_source(spec)[0]
    raise ValueError(f"no generated {kind!r} function: one of {', '.join(GENERATED_KINDS)}")
