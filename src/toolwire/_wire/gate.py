"""The one check every reading of a response passes before its items are walked.

A body that is not a reply of the format must never read as "the model is done": an error
body logged as the reply, another provider's reply, a stream event, a reply whose
structure was damaged. Each spec declares what its replies and its provider's errors look
like (``shape`` and ``error``, specs/README.md §1.11-1.12); :func:`check` applies them,
in this order, on the whole response:

1. the spec's ``error`` holds: :class:`~toolwire.errors.ProviderError`, with the provider's
   message, type, code and kept fields;
2. the spec's ``stream.event`` holds: one event of its stream (§9.9);
3. the spec's ``shape`` does not hold: :class:`ShapeMismatch`, a ``malformed_response``
   naming what the body lacks. A registry, which knows the other formats, turns it into
   the other format's provider error or names the format the body fits (``looks_like``).

``read``, ``extract``, ``locate``, ``from_structured_output``, ``explain`` and a stream's
``reply()`` all reach it through the interpreter's response step, so no reader can skip it;
the generated extract code (:mod:`.fastpath`) declines a body :func:`rejects` and lets
the interpreter raise.
"""

from __future__ import annotations

from .._expression import NotJSONError
from .._spec import WireSpec
from .._values.json_values import copy_json, id_text
from ..errors import MalformedResponse, ProviderError, ToolwireError

__all__ = ["ShapeMismatch", "check", "provider_error", "refuse_stream_event", "rejects"]


class ShapeMismatch(MalformedResponse):
    """A ``malformed_response`` for a body on which the spec's ``shape`` does not hold.

    The code and fields are :class:`~toolwire.errors.MalformedResponse`'s; the class tells a
    registry that the other formats may know the body (specs/README.md §1.11).
    """


def refuse_stream_event(spec: WireSpec, response: dict[str, object]) -> None:
    """A stream event handed to read() fails loudly instead of reading as "no calls".

    The spec's ``stream.event`` predicate says what one event of its stream looks like
    (specs/README.md §9.9): a Chat Completions chunk holds its calls under ``delta``, so
    reading it as a response would answer ``[]`` on a reply that held calls.
    """
    event = spec.stream_event
    if event is not None and event.evaluate(response) is True:
        raise MalformedResponse(
            spec.format,
            f"this is one event of a {spec.format} stream, not a response: feed the events"
            f" to toolwire.Accumulator({spec.format!r}) (or toolwire.read_stream)",
        )


def _fact(value: object) -> str | None:
    """An error field as text: a string as sent, a number as an id writes it, else None."""
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return id_text(value) or None
    return None


def provider_error(spec: WireSpec, response: dict[str, object]) -> ProviderError | None:
    """The provider error ``response`` is, per the spec's ``error``; None where it is none."""
    part = spec.error
    if part is None or part.when.evaluate(response) is not True:
        return None
    kept = {}
    for key, expression in part.keep:
        value = expression.evaluate(response)
        if value is not None:
            kept[key] = copy_json(value)  # the error's own: the caller's body stays theirs
    return ProviderError(
        spec.format,
        _fact(part.message.evaluate(response)),
        _fact(part.type.evaluate(response)) if part.type is not None else None,
        _fact(part.code.evaluate(response)) if part.code is not None else None,
        kept,
    )


def _mismatch(spec: WireSpec, needs: str, data: object) -> ShapeMismatch:
    if isinstance(data, (dict, str, bytes, bytearray, memoryview)):
        reason = f"the body has no {needs}, which every {spec.format} reply has"
    else:  # an SDK object: a part of a reply, or another API's object, was passed
        kind = type(data)
        reason = (
            f"a {kind.__module__}.{kind.__qualname__} is not a whole {spec.format} reply (it"
            f" has no {needs}): pass the response object the SDK returned, not a part of it"
            " (a message, a choice, a candidate's content) or another API's object"
        )
    return ShapeMismatch(spec.format, reason)


def _passes(spec: WireSpec, response: dict[str, object]) -> bool:
    """Whether the spec's written-out check lets ``response`` through (False: not known).

    The predicates are written out as one Python function
    (:func:`toolwire._wire.fastpred.passing_check`) on the spec's second reply, by the rule
    of :mod:`toolwire._speed.generated`: the closures cost a read of a small reply a tenth
    to a fifth, but a short-lived process that reads one reply does not gain from compiling.
    """
    code = spec.code
    passes = code.gate
    if passes is None:
        if not code.warm():
            return False
        from .fastpred import passing_check  # lazy: compiled on the spec's second reply

        passes = code.gate = passing_check(spec)
    try:
        return passes(response) is True
    except Exception:
        if code.debug:
            raise
        return False  # the full check below raises the right error


def check(spec: WireSpec, response: dict[str, object], data: object = None) -> None:
    """Raise unless ``response`` is a reply of the spec's format (see the module docstring).

    ``data`` is what the caller passed (an SDK object gets a word of its own in the error).
    An expression of the spec failing on the body is a ``malformed_response``, as anywhere.
    """
    if _passes(spec, response):
        return
    try:
        error = provider_error(spec, response)
        if error is not None:
            raise error
        refuse_stream_event(spec, response)
        shape = spec.shape
        if shape is not None and shape.when.evaluate(response) is not True:
            raise _mismatch(spec, shape.needs, response if data is None else data)
    except ToolwireError:
        raise
    except NotJSONError as exc:  # an SDK object left inside plain data
        raise MalformedResponse(spec.format, str(exc)) from None
    except ValueError as exc:
        raise MalformedResponse(
            spec.format, f"an expression of the spec failed: {exc}"
        ) from None


def rejects(spec: WireSpec, response: dict[str, object]) -> bool:
    """Whether :func:`check` would raise on ``response`` for its error or its shape (the
    generated extract code declines such a body; the interpreter then raises)."""
    error = spec.error
    if error is not None and error.when.evaluate(response) is True:
        return True
    shape = spec.shape
    return shape is not None and shape.when.evaluate(response) is not True
