"""The wire interpreter's verbs: ``locate``, ``extract`` and ``from_item``, a pure function of
(spec, response), on :mod:`.walk`.

``extract`` answers from the spec's generated code (:mod:`.fastpath`) once the spec has read
enough replies to be worth compiling, and from the walk until then or wherever the
generated code declines. ``read`` is :mod:`.reading`'s; a refusal raised here carries the
partial reply ``read`` gives (``UnmappedCall.reply``).
"""

from __future__ import annotations

from .._spec import CallEntry, RefuseEntry, WireSpec
from .._speed import TYPE_CHECKING
from .._values.arguments import loads_strict
from .._values.toolcall import ToolCall
from ..errors import MalformedResponse, ToolwireError, UnmappedCall
from . import gate
from .gate import refuse_stream_event
from .reading import choice_view, read_reply
from .walk import (
    JSON_SCALARS,
    JSON_TEXT,
    build_call,
    classified,
    coerce_response,
    guarded,
    match,
    refuses_unknown,
    response_of,
)

if TYPE_CHECKING:
    from typing import Any

    from .._values.reply import Reply
    from .fastpath import FastExtract
    from .fastread import FastRead

__all__ = [
    "coerce_response", "extract", "from_item", "locate",
    "read", "refuse_stream_event", "walk_extract",
]


def _chosen(spec: WireSpec, response: dict[str, Any], choice: int) -> dict[str, Any]:
    return choice_view(spec, response, choice)[0]


def locate(
    spec: WireSpec, data: Any, strict: bool | None = None, choice: int = 0
) -> list[dict[str, Any]]:
    """The raw call items the client must execute, in response order, unparsed."""
    response = response_of(spec, data)
    if choice:
        response = _chosen(spec, response, choice)
    try:
        return [
            item
            for _, _, item, _, entry in classified(spec, response, strict)
            if type(entry) is CallEntry
        ]
    except UnmappedCall:
        raise _with_reply(spec, response, strict) from None
    except ToolwireError:
        raise
    except ValueError as exc:
        raise guarded(spec, exc) from None


def extract(
    spec: WireSpec, data: Any, strict: bool | None = None, choice: int = 0
) -> list[ToolCall]:
    """One :class:`ToolCall` per located call item that has a usable name.

    The spec's generated extract function (:mod:`toolwire._wire.fastpath`) answers the regular
    case; when it declines (``None``), the walk below answers, or raises the exact error.
    """
    if type(data) is dict:
        response = data
    elif isinstance(data, JSON_TEXT):
        response = response_of(spec, data)
    else:  # an SDK object, made the wire's JSON (and renamed) already: only checked
        response = coerce_response(data, spec.format, spec)
        gate.check(spec, response, data)
    if choice:
        response = _chosen(spec, response_of(spec, response), choice)
    fast = spec.code.extract.get(strict)
    if fast is None:
        if not spec.code.begin():  # the first reply walks (toolwire._speed.generated)
            return walk_extract(spec, response, strict)
        fast = _build_fast(spec, strict)
    found = fast(response)
    if found is not None:  # [] only for a reply that is no stream event (see .fastpath)
        return found
    return walk_extract(spec, response, strict)


def walk_extract(spec: WireSpec, response: dict[str, Any], strict: bool | None) -> list[ToolCall]:
    """:func:`extract` by walking the spec's tables: the semantics the fast path follows."""
    response = response_of(spec, response)
    calls: list[ToolCall] = []
    try:
        for index, _, item, _, entry in classified(spec, response, strict):
            if type(entry) is CallEntry:
                call = build_call(entry, item, index)
                if type(call) is ToolCall:
                    calls.append(call)
    except UnmappedCall:
        raise _with_reply(spec, response, strict) from None
    except ToolwireError:
        raise
    except ValueError as exc:
        raise guarded(spec, exc) from None
    return calls


def _build_fast(spec: WireSpec, strict: bool | None) -> FastExtract:
    from .fastpath import build_fast_extract  # lazy: compiled on the spec's second reply

    refuse = spec.unknown_items == "refuse" if strict is None else strict
    built = spec.code.extract
    fast = built.get(refuse) or build_fast_extract(spec, refuse)
    built[refuse] = built[strict] = fast
    return fast


def read(spec: WireSpec, data: Any, strict: bool | None = None, choice: int = 0) -> Reply:
    """Everything at once: calls, server-side calls, truncation, unknown and skipped items
    (:mod:`.reading`); ``choice`` reads another of the reply's alternatives.

    A body's first alternative (JSON text parsed first) is read by the spec's generated
    read function (:mod:`.fastread`), built on the spec's second read (generating it costs
    a one-shot process, such as a CLI call, more than walking its one reply); on the
    first, where it declines (``None``), and for every other input, the interpreter
    answers, or raises the exact error."""
    owned = False
    if choice == 0 and type(data) is not dict:
        if isinstance(data, JSON_TEXT):
            try:  # a str: coerce_response's way, without its tests
                parsed = loads_strict(data) if type(data) is str else None
            except ValueError:
                parsed = None
            # Parsed once, then read as a dict; coerce_response raises what is no object.
            data = parsed if type(parsed) is dict else coerce_response(data, spec.format, spec)
            owned = True  # ours alone: its argument objects need no copy
        elif not isinstance(data, JSON_SCALARS):
            # An SDK object: its wire JSON, read by the generated read like any body (not
            # owned: a Python-mode dump may share the object's values). Where that declines,
            # the interpreter reads the object itself, so an error names the SDK's class.
            fast = _fast_read(spec, strict)
            if fast is not None:
                reply: Reply | None = fast(coerce_response(data, spec.format, spec), False)
                if reply is not None:
                    return reply
            return read_reply(spec, data, strict)
    if type(data) is dict and choice == 0:
        fast = _fast_read(spec, strict)
        if fast is not None:
            reply = fast(data, owned)
            if reply is not None:
                return reply
    return read_reply(spec, data, strict, choice)


def _fast_read(spec: WireSpec, strict: bool | None) -> FastRead | None:
    """The spec's generated read, generated now if this is its second reply; None on its
    first (a process that reads one reply never pays for generating it)."""
    fast: FastRead | None = spec.code.read.get(strict)
    if fast is None and spec.code.begin():
        fast = _build_fast_read(spec, strict)
    return fast


def _build_fast_read(spec: WireSpec, strict: bool | None) -> FastRead:
    from .fastread import build_fast_read  # lazy: generated on a spec's second read

    refuse = refuses_unknown(spec, strict)
    built = spec.code.read
    fast = built.get(refuse) or build_fast_read(spec, refuse)
    built[refuse] = built[strict] = fast
    return fast


def _with_reply(spec: WireSpec, response: dict[str, Any], strict: bool | None) -> UnmappedCall:
    """The refusal ``read`` raises for this response: the same error, with ``err.reply``."""
    try:
        read_reply(spec, response, strict)
    except UnmappedCall as error:
        return error
    raise AssertionError("read() must refuse what the walk refused")  # pragma: no cover


def from_item(spec: WireSpec, raw_item: Any) -> ToolCall | None:
    """One raw call item, typed as each source in turn would type it; None if no call."""
    if type(raw_item) is not dict:
        raise MalformedResponse(spec.format, "a call item must be a JSON object", item_index=0)
    try:
        for source in spec.sources:
            entry = match(spec, raw_item, source.type_of(raw_item))
            if type(entry) is RefuseEntry:
                raise UnmappedCall(spec.format, 0, entry.type, entry.reason)
            if type(entry) is CallEntry:
                call = build_call(entry, raw_item, None)
                if type(call) is ToolCall:
                    return call
    except ToolwireError:
        raise
    except ValueError as exc:
        raise guarded(spec, exc) from None
    return None
