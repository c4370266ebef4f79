"""The Reply a stream's document reads as (specs/README.md §9.7), and what fixes it.

``read()`` runs on the rebuilt document unchanged, except where items never closed: then on
a copy in which each such item is finalized as its list's ``close`` rule would (its raw
buffers in place), and each call read from it — or cut at the sentinel (§9.6) — is flagged
``incomplete``, so it is never runnable. :func:`facts` is what a reply says beyond its items,
which no event may change once the stream completed (§9.3).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from .._speed.record import setfield
from .._values.json_values import copy_json
from .._values.reply import Reply
from .._values.toolcall import ToolCall
from .._wire import interpreter
from .._wire.reply_text import assistant_text
from ..errors import ToolwireError
from .docpath import get, put
from .engine import Engine
from .stream_rules import CompiledStream

if TYPE_CHECKING:
    from .._spec import WireSpec

__all__ = ["build", "facts"]


def build(spec: WireSpec, stream: CompiledStream, engine: Engine, cut: Collection[int],
          strict: bool | None) -> Reply:
    """``read()`` on the document; every call whose item is open (never closed) or whose
    slot order is in ``cut`` flagged ``incomplete``."""
    engine.flush()
    if engine.document is None:
        return Reply(format=spec.format, calls=())
    flagged = [slot for slot in engine.slots if not slot.closed or slot.order in cut]
    if not flagged:
        return interpreter.read(spec, engine.document, strict)
    document: dict[str, Any] = copy_json(engine.document)
    unfinished: set[int] = set()
    for slot in flagged:
        holder = get(document, slot.list_path)
        item = holder if slot.position < 0 else (
            holder[slot.position] if type(holder) is list
            and slot.position < len(holder) else None)
        if type(item) is not dict:
            continue
        if not slot.closed:
            scope = {"item": item, "buf": slot.buffered()}
            for path, expression in stream.finalize_of.get(slot.list_path, ()):
                value = expression.evaluate(scope)
                if value is not None:
                    put(item, path, copy_json(value))
        unfinished.add(id(item))
    reply = interpreter.read(spec, document, strict)
    calls: list[ToolCall] = []
    pending = iter(reply.calls)
    for item in interpreter.locate(spec, document, strict):
        if interpreter.from_item(spec, item) is None:
            continue
        call = next(pending)
        calls.append(call.replace(incomplete=True) if id(item) in unfinished else call)
    calls.extend(pending)
    return _with_calls(reply, tuple(calls))


def _with_calls(reply: Reply, calls: tuple[ToolCall, ...]) -> Reply:
    copy = object.__new__(Reply)
    for name in Reply._fields:
        setfield(copy, name, calls if name == "calls" else getattr(reply, name))
    return copy


def facts(spec: WireSpec, engine: Engine) -> tuple[Any, ...]:
    """What the reply says beyond its items: finish reason, truncation, text (§9.3).

    Raises ``ValueError`` where an expression fails on the document.
    """
    engine.flush()
    doc = engine.document
    truncated = spec.truncated is not None and spec.truncated.evaluate(doc) is True
    finish = spec.finish_reason.evaluate(doc) if spec.finish_reason is not None else None
    try:
        text = assistant_text(spec, doc)
    except ToolwireError as exc:
        raise ValueError(str(exc)) from None
    return (finish, truncated, text)
