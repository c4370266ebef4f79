"""What an event that is not this stream's is (specs/README.md §9.14), and whose failure event
an unsniffed stream's first event is (§9.5 step 3).

A finished reply handed to a stream reader, or the events of another format's stream, must
never accumulate into a clean reply with no calls, nor into an "incomplete" one that sends
the user looking for a dropped connection. The bound format's ``stream.shape`` says what its
events look like; this module names what a refused event is instead, from the specs alone:
a finished reply (a format's top-level ``sniff`` holds, and its stream ``shape`` does not),
or an event of another stream (the first base format whose ``shape`` holds).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from .._expression import Expression, compile_expression
from .stream_rules import compiled_stream

if TYPE_CHECKING:
    from collections.abc import Mapping

    from .._spec import WireSpec
    from .._spec.spec_source import SpecSource

__all__ = [
    "Verdict", "error_format", "finished_reply", "sniff_expression", "sniff_order",
    "stream_format", "what_it_is",
]


class Verdict(NamedTuple):
    """Why an event is refused: the reason, the format it is, whether a finished reply."""

    reason: str
    looks_like: str | None
    finished_reply: bool


def _holds(expression: Expression | None, event: dict[str, Any]) -> bool:
    if expression is None:
        return False
    try:
        return expression.evaluate(event) is True
    except ValueError:
        return False


def _shape(spec: WireSpec) -> Expression | None:
    stream = compiled_stream(spec)
    return stream.shape if stream is not None else None


def _article(name: str) -> str:
    return "an" if name[:1] in "aeiou" else "a"


def finished_reply(registry: SpecSource, bound: WireSpec | None,
                   event: dict[str, Any]) -> Verdict | None:
    """The verdict when ``event`` is a finished reply (rule 1), else None."""
    fmt: str | None = None
    if bound is not None and _holds(bound.sniff, event):
        fmt = bound.format
    else:
        fmt = registry.sniff_format(event)
        if fmt is not None and bound is not None:
            # A dialect sniffs as its base: name the bound format when it is the same family.
            shape = _shape(bound)
            theirs = _shape(registry.spec(fmt))
            if shape is not None and theirs is not None and shape.source == theirs.source:
                fmt = bound.format
    if fmt is None:
        return None
    if _holds(_shape(registry.spec(fmt)), event):
        return None  # a chunk that is a reply too (Gemini), or a stream's last line (Ollama)
    return Verdict(f"the event is a finished {fmt} reply, not an event of a stream: read it"
                   " with read()", fmt, True)


def what_it_is(registry: SpecSource, bound: WireSpec, event: dict[str, Any]) -> Verdict:
    """Why ``event``, on which the bound format's ``stream.shape`` does not hold, is refused."""
    found = finished_reply(registry, bound, event)
    if found is not None:
        return found
    for spec in sniff_order(registry):
        if spec.format != bound.format and _holds(_shape(spec), event):
            return Verdict(f"the event looks like {_article(spec.format)} {spec.format} stream"
                           f" event, not {_article(bound.format)} {bound.format} one",
                           spec.format, False)
    shape = _shape(bound)
    shown = f" (stream.shape: {shape.source})" if shape is not None else ""
    return Verdict(f"the event is not {_article(bound.format)} {bound.format} stream"
                   f" event{shown}", None, False)


def sniff_order(registry: SpecSource) -> list[WireSpec]:
    """The specs with a ``stream.sniff``, by descending priority then name (§9.5 step 3)."""
    specs = [s for s in registry.specs().values()
             if s.stream_part is not None and "sniff" in s.stream_part]
    return sorted(specs, key=lambda s: (-int(_sniff(s)["priority"]), s.format))


def _sniff(spec: WireSpec) -> Mapping[str, Any]:
    assert spec.stream_part is not None  # sniff_order: only specs with a stream sniff
    found: Mapping[str, Any] = spec.stream_part["sniff"]
    return found


def _stream_error_matches(spec: WireSpec, event: dict[str, Any], event_name: str | None) -> bool:
    """Whether the spec's stream ``error`` entry (§9.8) catches ``event``, typed as step 4 of
    §9.5 types it (``event_type``, else the SSE event name)."""
    stream = compiled_stream(spec)
    if stream is None or stream.error is None:
        return False
    try:
        event_type = stream.event_type.evaluate(event) if stream.event_type else None
        return stream.error.matches(event, event_name if event_type is None else event_type)
    except ValueError:
        return False


def error_format(registry: SpecSource, event: dict[str, Any],
                 event_name: str | None = None) -> str | None:
    """The format whose provider failure event ``event`` is, for a stream no ``stream.sniff``
    recognises (§9.5 step 3): a provider that fails before its first event sends its error.

    The provider is named as ``read()`` names an error body (§1.12): the first format, in sniff
    order, whose top-level ``error`` holds; it is the answer when its stream ``error`` catches
    the event, and otherwise there is none (a finished failed reply is no stream event). Only
    where no top-level ``error`` holds is the first format in stream sniff order whose stream
    ``error`` catches it the answer (Bedrock's exception members, Cohere's failed
    ``message-end``). The top-level predicates exclude each other; the stream ones need not
    (Chat's ``{"error": {...}}`` catches Gemini's and Anthropic's errors too)."""
    named = sorted((s for s in registry.specs().values() if s.sniff is not None),
                   key=lambda s: (-s.sniff_priority, s.format))
    for spec in named:
        if spec.error is not None and _holds(spec.error.when, event):
            return spec.format if _stream_error_matches(spec, event, event_name) else None
    for spec in sniff_order(registry):
        if _stream_error_matches(spec, event, event_name):
            return spec.format
    return None


def stream_format(registry: SpecSource, event: dict[str, Any]) -> str | None:
    """The format whose stream ``event`` belongs to, or None: the first whose
    ``stream.sniff`` holds, else whose failure event it is (:func:`error_format`), else whose
    ``stream.event`` (§9.9) holds. For a hint that a file is a stream, not a reply."""
    for spec in sniff_order(registry):
        if _holds(sniff_expression(spec), event):
            return spec.format
    found = error_format(registry, event)
    if found is not None:
        return found
    for spec in registry.specs().values():
        if _holds(spec.stream_event, event):
            return spec.format
    return None


_SNIFFS: dict[str, Expression] = {}
"""Each stream sniff predicate compiled, by its text: what sniffing needs, and no spec
(a cache keyed by spec would keep every registry's specs alive for good)."""


def sniff_expression(spec: WireSpec) -> Expression:
    """A spec's ``stream.sniff`` predicate, compiled once per distinct text."""
    text = _sniff(spec)["when"]
    found = _SNIFFS.get(text)
    if found is None:
        found = _SNIFFS[text] = compile_expression(text)
    return found
