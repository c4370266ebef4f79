"""What the other formats say about a body one format refused (specs/README.md §1.11-1.12).

A body read as format F that lacks F's shape may be another provider's error body, or
another format's reply passed under the wrong name. Only the set of specs — a registry —
can tell, so the registry asks here, with its specs in sniff order: the first other
format whose ``error`` holds makes the answer that format's provider error; else the first
other format whose ``sniff`` and ``shape`` both hold is named in the error (``looks_like``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .._expression import Expression
from .._spec import WireSpec
from ..errors import MalformedResponse, ProviderError
from . import gate
from .walk import coerce_response, response_of

__all__ = ["elsewhere", "error_of", "part_of"]

SniffOrder = Sequence[tuple[str, Expression]]
"""``(format, sniff predicate)`` by descending priority, then format name."""


def error_of(
    order: SniffOrder, spec_of: Callable[[str], WireSpec], response: dict[str, object],
    but: str | None = None,
) -> ProviderError | None:
    """The provider error ``response`` is for the first format of ``order`` (``but`` left
    out) whose ``error`` holds on it; None where none does."""
    for fmt, _ in order:
        if fmt == but:
            continue
        try:
            error = gate.provider_error(spec_of(fmt), response)
        except ValueError:  # that spec's expressions do not fit this body
            continue
        if error is not None:
            return error
    return None


PartOrder = Sequence[tuple[str, Expression, str]]
"""``(format, part predicate, what the part is)`` in sniff order (specs/README.md §1.11)."""


def part_of(
    parts: PartOrder, response: dict[str, object], first: str | None = None
) -> MalformedResponse | None:
    """The error for ``response`` where it is a part of a reply (a choice, a message, a
    content block) by some format's ``shape.parts`` — ``first``'s parts tried first — else
    None. A part passed for the whole reply would read as another format's reply (an
    OpenAI choice holds ``message`` as a Cohere reply does), its truncation lost."""
    ordered = sorted(parts, key=lambda p: p[0] != first) if first is not None else parts
    for fmt, when, what in ordered:
        try:
            if when.evaluate(response) is not True:
                continue
        except ValueError:
            continue
        return MalformedResponse(
            fmt, f"this is {what} of {_article(fmt)} {fmt} reply, not a whole reply:"
            " pass the whole response the API returned (the SDK's response object, or its"
            " JSON body)",
        )
    return None


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def elsewhere(
    order: SniffOrder, spec_of: Callable[[str], WireSpec], spec: WireSpec, data: object,
    mismatch: MalformedResponse, parts: PartOrder = (),
) -> ProviderError | MalformedResponse:
    """What to raise for ``data``, which lacks ``spec``'s shape (see the module docstring);
    a part of a reply by ``parts`` (``spec``'s own first) is named as one."""
    try:
        response = coerce_response(data, None)
    except MalformedResponse:
        return _public(mismatch)
    error = error_of(order, spec_of, response, spec.format)
    if error is not None:
        return error
    part = part_of(parts, response, spec.format)
    if part is not None:
        return MalformedResponse(spec.format, f"{mismatch.reason}; {part.reason}")
    for fmt, sniff in order:
        if fmt == spec.format:
            continue
        try:
            if sniff.evaluate(response) is not True:
                continue
            response_of(spec_of(fmt), response)  # normalised as that format, then checked
        except ProviderError as found:  # an error body once normalised: that one
            return found
        except ValueError:  # a MalformedResponse too: that format does not fit either
            continue
        return MalformedResponse(
            spec.format,
            f"{mismatch.reason}; this looks like {_article(fmt)} {fmt} reply: use format"
            f" {fmt!r}",
            looks_like=fmt,
        )
    return _public(mismatch)


def _public(mismatch: MalformedResponse) -> MalformedResponse:
    """The mismatch as the caller meets it: a plain ``malformed_response`` (the private
    class only tells the registry to look elsewhere, and would name a private module in
    a pickle)."""
    return MalformedResponse(mismatch.format, mismatch.reason, mismatch.item_index,
                             mismatch.field, mismatch.location, looks_like=mismatch.looks_like)
