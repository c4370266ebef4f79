"""The Python a wire spec's readers generate, as text: what ``toolwire specs generated``
prints, so that a reader's fast path can be read like any other code."""

from __future__ import annotations

from .._spec import WireSpec

__all__ = ["GENERATED_KINDS", "generated_source"]

GENERATED_KINDS = ("extract", "read", "gate")
"""The generated functions of a wire spec: extract, read, and the gate's reply check."""


def generated_source(spec: WireSpec, kind: str, strict: bool | None = None) -> str:
    """The source of ``spec``'s generated ``kind`` function, as compiled (``strict``: how
    unknown item types are met, None for the spec's own ``unknown_items``)."""
    refuse = spec.unknown_items == "refuse" if strict is None else strict
    if kind == "extract":
        from .fastpath import source_code  # lazy: the writers load only when code is written

        return source_code(spec, refuse)[0]
    if kind == "read":
        from .fastread import read_source  # lazy: as above

        return read_source(spec, refuse)[0]
    if kind == "gate":
        from .fastpred import gate_source  # lazy: as above

        return gate_source(spec)[0]
    raise ValueError(f"no generated {kind!r} function: one of {', '.join(GENERATED_KINDS)}")
