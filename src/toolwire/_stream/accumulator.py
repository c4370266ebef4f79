"""The accumulator: a provider's stream in, the same :class:`~toolwire.Reply` as ``read()`` out.

It rebuilds a read-equivalent response document from the events with the format's
``stream:`` rules (:mod:`.engine`) and, at :meth:`Accumulator.reply`, runs the unchanged
wire spec on it — classification, argument decoding, truncation and finish reason stay in
one place. While the stream runs, :meth:`Accumulator.feed` hands out what became ready
under the format's ready policy (:mod:`.ready`, specs/README.md §9.6): a call only once the
format proves it complete, never on a guess.

Every fault is kept (specs/README.md §9.5): once a stream failed, every later call raises
the failure again, as a fresh error caused by the stored one, so a caller that logs a fault
and feeds on never gets a reply built around it, and retrying never grows one traceback.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NoReturn

from .._expression import Expression
from .._spec.spec_source import default_source
from .._values.json_values import copy_json
from .._values.reply import Reply
from ..errors import (
    IncompleteStream,
    MalformedStream,
    StreamError,
    ToolwireError,
    UnknownFormat,
    UnsupportedStream,
)
from .docpath import PathError, show
from .engine import Broken, Engine
from .events import event_json, normalised_event
from .framing import MAX_EVENT_SIZE, Framer, FramingError, Opening, framer_for
from .given import NO_LINE_END, feed_all
from .identify import error_format, finished_reply, sniff_expression, sniff_order, what_it_is
from .ready import Ready
from .replies import build, facts
from .slots import Slot
from .stream_rules import CompiledStream, Rule, compiled_stream, plan_for
from .updates import StreamUpdate, classify

if TYPE_CHECKING:
    from .._spec import WireSpec
    from .._spec.spec_source import SpecSource

__all__ = ["Accumulator", "read_stream"]

Step = tuple[str, Any, Any, Any, Any]
"""(rule name, its when or None, its each or None, the engine's operation, the op)."""
Plan = tuple[Any, dict[str, tuple[Step, ...]], tuple[Step, ...]]
"""(discriminator or None, steps by its value, the steps otherwise)."""

_SENTINEL_MAX = 256  # a text event longer than this is never compared with the sentinel


class Accumulator:
    """Feed a stream's events or raw bytes; take ready calls as they come, the Reply at the end.

    ``fmt=None`` sniffs the format from the first event. ``strict`` and ``tools`` are
    ``read()``'s: with ``tools`` (a :class:`toolwire.Tools`, or the request body or its tool
    list as sent) every call handed out, and every call of :meth:`reply`, is checked against
    the offered tools, so a ready call may come flagged ``unknown_tool`` or
    ``arguments_invalid`` (its fate is then ``rejected``: answer it, don't run it).
    ``max_event_size`` bounds one event of :meth:`feed_bytes` (characters of its text): a
    longer one fails the stream with ``malformed_stream``.
    """

    __module__ = "toolwire"  # the published name: reprs, pickles and docs show it

    def __init__(
        self, fmt: str | None = None, *, strict: bool | None = None,
        registry: SpecSource | None = None, tools: Any = None,
        max_event_size: int = MAX_EVENT_SIZE,
    ) -> None:
        if type(max_event_size) is not int or max_event_size < 1:
            raise ValueError(f"max_event_size must be a positive int, not {max_event_size!r}")
        if registry is None:
            registry = default_source()
        self._registry = registry
        self._strict = strict
        self._tools_given = tools
        self._tools: Any = None  # compiled for the format once it is known
        self._spec: WireSpec | None = None
        self._stream: CompiledStream | None = None
        self._ready: Ready | None = None
        self._engine = Engine()
        if fmt is not None:
            self._bind(fmt)
        self._events = 0
        self._failure: ToolwireError | None = None
        self._stopped = False  # the framing's sentinel arrived
        self._closed = False  # the input ended (close() or reply())
        self._limit = max_event_size
        self._framer: Framer | None = None
        self._opening = Opening(max_event_size)  # bytes before the framing is known
        self._last_type: Any = None
        self._fixed: tuple[Any, ...] | None = None  # the reply's facts at completion
        self._plans: dict[Any, Plan] = {}
        self._shapes: dict[str, bool] = {}  # the shape's verdict per value of its one field

    def _plan(self, stream: CompiledStream, event_type: Any) -> Plan:
        """The steps an event of this type runs (:func:`.stream_rules.plan_for`), bound here."""
        ops = self._engine.ops
        pick, buckets, default = plan_for(stream.rules_for(event_type))

        def bound(rules: tuple[tuple[Rule, bool], ...]) -> tuple[Step, ...]:
            return tuple(
                (rule.name, None if known or rule.when is None else rule.when.evaluate,
                 None if rule.each is None else rule.each.evaluate, ops[rule.op.kind], rule.op)
                for rule, known in rules
            )

        plan: Plan = (pick, {k: bound(v) for k, v in buckets.items()}, bound(default))
        self._plans[event_type if type(event_type) is str else None] = plan
        return plan

    # -- state ------------------------------------------------------------------------

    @property
    def format(self) -> str | None:
        """The format (None until a format-less accumulator sees its first event)."""
        return self._spec.format if self._spec is not None else None

    @property
    def complete(self) -> bool:
        """Whether the stream carried its terminal signal."""
        return self._engine.complete

    @property
    def events(self) -> int:
        """How many events were fed."""
        return self._events

    @property
    def notes(self) -> tuple[str, ...]:
        """What the accumulator noticed and handled (a terminal ``output: null`` …)."""
        return tuple(self._engine.notes)

    def snapshot(self) -> dict[str, Any] | None:
        """A copy of the rebuilt document as it stands (for debugging)."""
        self._engine.flush()
        doc = self._engine.document
        return copy_json(doc) if doc is not None else None

    # -- binding ----------------------------------------------------------------------

    def _bind(self, fmt: str) -> None:
        spec = self._registry.spec(fmt)
        stream = compiled_stream(spec)
        if stream is None:
            raise UnsupportedStream(fmt, f"the {fmt} spec has no stream rules")
        self._spec, self._stream = spec, stream
        self._ready = Ready(stream, self._classify)

    def _sniff(self, event: dict[str, Any], index: int, event_name: str | None) -> None:
        """Bind the format the first event names (§9.5 step 3): its stream's first event, or
        its provider's failure event (which step 5 then raises as ``stream_error``)."""
        for spec in sniff_order(self._registry):
            sniff = sniff_expression(spec)
            try:
                if sniff.evaluate(event) is True:
                    self._bind(spec.format)
                    return
            except ValueError:
                continue
        failed = error_format(self._registry, event, event_name)
        if failed is not None:
            self._bind(failed)
            return
        verdict = finished_reply(self._registry, None, event)
        if verdict is not None:
            raise MalformedStream(None, verdict.reason, index, looks_like=verdict.looks_like,
                                  finished_reply=True)
        raise UnknownFormat(None, [s.format for s in sniff_order(self._registry)])

    # -- failing ----------------------------------------------------------------------

    def _fail(self, error: ToolwireError) -> ToolwireError:
        if self._failure is None:
            self._failure = error
        return error

    def _raise_again(self) -> NoReturn:
        """The kept failure, raised as a fresh error caused by it (its traceback stays put)."""
        failure = self._failure
        assert failure is not None
        raise copy.copy(failure) from failure

    def _refuse_input(self, index: int) -> None:
        """Raise when no more input may come: failed, or closed."""
        if self._failure is not None:
            self._raise_again()
        if self._closed:
            raise self._fail(MalformedStream(self.format, "an event after the input was closed"
                                             " (close() or reply())", index))

    # -- feeding ----------------------------------------------------------------------

    def feed(self, event: Any, *, event_name: str | None = None) -> tuple[StreamUpdate, ...]:
        """Take one event (dict, JSON text/bytes, SDK object); return what became ready.

        ``event_name`` is the SSE ``event:`` name, used only where the event itself does
        not name its type. A text event equal to the format's sentinel (``[DONE]``) is the
        sentinel.
        """
        index = self._events
        if self._failure is not None or self._closed:
            self._refuse_input(index)
        try:  # every failure is kept (§9.5): the except below stores it
            if type(event) is not dict and self._is_sentinel(event):
                return self._sentinel_seen(index)
            if self._stopped:
                raise MalformedStream(self.format, "an event after the stream's end sentinel"
                                      f" {self._sentinel()!r}", index)
            data = event if type(event) is dict else event_json(event, self.format, index)
            self._events += 1
            if self._stream is None:
                self._sniff(data, index, event_name)
            stream = self._stream
            assert stream is not None
            if stream.unwrap is not None:
                inner = self._unwrapped(stream.unwrap, data, index)
                if inner is None:
                    return ()  # an SDK helper's derived event: its chunk event carried it
                data = inner
            if stream.detect:
                assert self._spec is not None
                data = normalised_event(self._spec, data, index)
            return self._apply_rules(stream, data, index, event_name)
        except ToolwireError as failure:
            self._fail(failure)
            raise

    def _apply_rules(self, stream: CompiledStream, data: dict[str, Any], index: int,
                     event_name: str | None) -> tuple[StreamUpdate, ...]:
        """Run the stream rules on one decoded event (its type, error and refusal checks,
        its shape, then the steps of its plan); return what became ready."""
        engine = self._engine
        rule_name: str | None = None
        try:
            event_type = stream.event_type.evaluate(data) if stream.event_type else None
            if event_type is None:
                event_type = event_name
            self._last_type = event_type
            error = stream.error
            if error is not None and (error.on is None or (
                    type(event_type) is str and event_type in error.on)) and (
                    error.when is None or error.when.evaluate(data) is True):
                raise self._provider_error(stream, data, index)
            for guard in stream.refuse:
                if guard.matches(data, event_type):
                    raise UnsupportedStream(stream.format, guard.reason, index)
            plan = self._plans.get(event_type if type(event_type) is str else None)
            # A plan exists for a type only once an event of it fitted the shape: where the
            # shape reads the type alone, that settles it (CompiledStream.shape_by_type).
            if stream.shape is not None and not (
                    plan is not None and stream.shape_by_type and type(event_type) is str):
                field = stream.shape_field
                value = data.get(field) if field is not None else None
                if not (type(value) is str and self._shapes.get(value) is True) and not (
                        self._fits(stream, data)):
                    self._not_mine(data, index)
            was_complete = engine.complete
            if engine.opened:
                engine.opened.clear()
            if engine.closed:
                engine.closed.clear()
            if plan is None:
                plan = self._plan(stream, event_type)
            pick, buckets, steps = plan
            if pick is not None:
                value = pick(data)
                if type(value) is str:
                    steps = buckets.get(value, steps)
            for name, when, each, run, op in steps:
                if when is not None and when(data) is not True:
                    continue
                rule_name = name
                if each is None:
                    run(op, data)
                    continue
                fragments = each(data)
                if type(fragments) is list:
                    for fragment in fragments:
                        run(op, fragment)
                elif fragments is not None:
                    run(op, fragments)
            rule_name = None
            if was_complete:
                self._keep_fixed(index)
                return ()
            completing = engine.ended or (
                stream.complete is not None and engine.document is not None
                and stream.complete.evaluate(engine.document) is True)
            if not (completing or engine.closed or engine.opened):
                return ()  # most events: a delta that makes nothing ready
            assert self._ready is not None
            updates = self._ready.after_event(engine)
            if completing:
                updates.extend(self._complete(stream, at_sentinel=False))
            return tuple(updates)
        except (Broken, PathError) as exc:
            raise MalformedStream(stream.format, str(exc), index, rule_name) from None
        except ToolwireError:
            raise
        except ValueError as exc:
            reason = f"an expression of the stream rules failed: {exc}"
            raise MalformedStream(stream.format, reason, index, rule_name) from None

    def _fits(self, stream: CompiledStream, data: dict[str, Any]) -> bool:
        """Whether ``stream.shape`` holds on the event (remembered per value of the one
        field it reads, where it reads one: :class:`.stream_rules.CompiledStream`)."""
        shape = stream.shape
        assert shape is not None
        field = stream.shape_field
        if field is None:
            return shape.evaluate(data) is True
        value = data.get(field)
        if type(value) is not str:
            return shape.evaluate(data) is True
        known = self._shapes.get(value)
        if known is None:
            known = shape.evaluate(data) is True
            if len(self._shapes) < 64:  # a stream of ever new types is checked each time
                self._shapes[value] = known
        return known

    def _not_mine(self, data: dict[str, Any], index: int) -> NoReturn:
        """Refuse an event the format's ``stream.shape`` does not describe (§9.14)."""
        assert self._spec is not None
        verdict = what_it_is(self._registry, self._spec, data)
        raise MalformedStream(self._spec.format, verdict.reason, index,
                              looks_like=verdict.looks_like,
                              finished_reply=verdict.finished_reply)

    def _unwrapped(self, unwrap: tuple[Expression, Expression], data: dict[str, Any],
                   index: int) -> dict[str, Any] | None:
        """The event inside an SDK's envelope, where the spec's ``unwrap.when`` holds; None
        where the envelope holds none (``value`` null: a helper's derived event, skipped)."""
        when, value = unwrap
        try:
            if when.evaluate(data) is not True:
                return data
            inner = value.evaluate(data)
        except ValueError as exc:
            raise MalformedStream(self.format, f"stream.unwrap failed: {exc}", index) from None
        if inner is None:
            return None
        if type(inner) is not dict:
            kind = "null" if inner is None else type(inner).__name__
            raise MalformedStream(self.format, "the event inside the envelope (stream.unwrap)"
                                  f" is {kind}, not an object", index)
        return inner

    # -- the sentinel -----------------------------------------------------------------

    def _sentinel(self) -> str | None:
        return self._stream.sentinel if self._stream is not None else None

    def _is_sentinel(self, event: Any) -> bool:
        """Whether a text event is the sentinel (``[DONE]`` before the format is known)."""
        if isinstance(event, (bytes, bytearray)):
            if len(event) > _SENTINEL_MAX:
                return False
            try:
                event = bytes(event).decode("utf-8")
            except UnicodeDecodeError:
                return False
        if not isinstance(event, str) or len(event) > _SENTINEL_MAX:
            return False
        sentinel = self._sentinel() if self._stream is not None else "[DONE]"
        return sentinel is not None and event.strip() == sentinel

    def _sentinel_seen(self, index: int) -> tuple[StreamUpdate, ...]:
        if self._stopped:
            raise MalformedStream(self.format, "a second end sentinel", index)
        self._stopped = True
        stream = self._stream
        engine = self._engine
        if (stream is None or not stream.sentinel_completes or engine.complete
                or engine.document is None):
            return ()
        try:
            return tuple(self._complete(stream, at_sentinel=True))
        except (Broken, PathError, ValueError) as exc:
            raise MalformedStream(stream.format, str(exc), index) from None

    # -- raw bytes --------------------------------------------------------------------

    def feed_bytes(self, chunk: bytes | str) -> tuple[StreamUpdate, ...]:
        """Take raw stream bytes, split anywhere: SSE or NDJSON, told apart by the first byte.

        When an event of the chunk fails the stream, the updates its earlier events made
        ready are still returned, and the failure is raised by the next call.
        """
        self._refuse_input(self._events)
        framer = self._framer
        if framer is None:
            data = chunk.encode("utf-8") if isinstance(chunk, str) else bytes(chunk)
            try:
                opened = self._opening.feed(data)
            except FramingError as exc:
                raise self._fail(MalformedStream(self.format, str(exc))) from None
            if opened is None:
                return ()
            first, chunk = opened
            if first == b"[":
                raise self._fail(UnsupportedStream(self.format, "a streamed JSON array (Gemini"
                                                   " without alt=sse): request alt=sse, or feed"
                                                   " the array's elements as events"))
            framer = framer_for(first, self._limit)
            if framer is None:
                raise self._fail(MalformedStream(self.format, "the bytes are neither SSE nor"
                                                 f" NDJSON (they begin {chunk[:20]!r})"))
            self._framer = framer
        try:
            framed = framer.feed(chunk)
        except FramingError as exc:
            raise self._fail(MalformedStream(self.format, str(exc), self._events)) from None
        return self._framed(framed, framer)

    def _framed(self, framed: list[tuple[str | None, str]],
                framer: Framer) -> tuple[StreamUpdate, ...]:
        updates: list[StreamUpdate] = []
        for name, data in framed:
            try:
                updates.extend(self.feed(data, event_name=name))
            except ToolwireError:
                if updates:
                    return tuple(updates)  # the failure is kept: the next call raises it
                raise
        if framer.error is not None:
            error = self._fail(MalformedStream(self.format, str(framer.error), self._events))
            if not updates:
                raise error
        return tuple(updates)

    def close(self) -> tuple[StreamUpdate, ...]:
        """Say the input ended; return what that made ready.

        An SSE event still buffered (no blank line after it) is discarded, never
        half-parsed; a last NDJSON line without its newline is read when it is whole JSON.
        ``reply()`` closes the input too; closing twice is harmless. After it, any event
        fails the stream. A failed stream raises its failure again.
        """
        if self._failure is not None:
            self._raise_again()
        if self._closed:
            return ()
        framer = self._framer
        rest = framer.end() if framer is not None else []
        updates: tuple[StreamUpdate, ...] = ()
        if rest:
            try:
                event_json(rest[0][1], self.format, self._events)
            except MalformedStream:
                rest = []  # a cut last line: never half-parsed
            if rest and framer is not None:
                updates = self._framed(rest, framer)
        self._closed = True
        return updates

    # -- completion -------------------------------------------------------------------

    def _provider_error(self, stream: CompiledStream, data: dict[str, Any],
                        index: int) -> StreamError:
        guard = stream.error
        assert guard is not None
        code = guard.code.evaluate(data) if guard.code is not None else None
        message = guard.message.evaluate(data) if guard.message is not None else None
        try:
            partial: Reply | None = self._build()
        except ToolwireError:
            partial = None
        return StreamError(stream.format, code, message, partial, index)

    def _complete(self, stream: CompiledStream, *, at_sentinel: bool) -> list[StreamUpdate]:
        """Complete the stream: close what ends with it, release what is ready (§9.6)."""
        engine = self._engine
        ready = self._ready
        assert ready is not None
        ready.hold(engine.finish(stream.finalize_of))
        engine.flush()
        changed = ready.changed(engine.rebound) if engine.rebound else None
        if changed is not None:
            engine.complete = False  # the event that would complete the stream failed
            raise Broken(f"the terminal response changes {show(changed.list_path)}"
                         f"[{changed.position}], an item already handed out")
        spec = self._spec
        assert spec is not None and engine.document is not None
        doc = engine.document
        truncated = spec.truncated is not None and spec.truncated.evaluate(doc) is True
        finish = spec.finish_reason.evaluate(doc) if spec.finish_reason is not None else None
        updates = ready.at_completion(engine, truncated, at_sentinel)
        updates.append(StreamUpdate("finished", finish_reason=finish if type(finish) is str
                                    else None, truncated=truncated))
        self._fixed = facts(spec, engine)
        return updates

    def _keep_fixed(self, index: int) -> None:
        """An event after completion may add what the reply does not read, nothing else."""
        assert self._spec is not None
        now = facts(self._spec, self._engine)
        if now != self._fixed:
            changed = [name for name, old, new in zip(
                ("finish_reason", "truncated", "text"), self._fixed or (), now, strict=True)
                if old != new]
            raise Broken(f"an event after the stream completed changes the reply's"
                         f" {' and '.join(changed)}")

    # -- readiness --------------------------------------------------------------------

    def _classify(self, slot: Slot) -> StreamUpdate | None:
        stream = self._stream
        assert stream is not None
        source = stream.source_of.get(slot.list_path)
        if source is None or type(slot.item) is not dict:
            return None
        assert self._spec is not None
        index = slot.position if slot.position >= 0 else None
        update = classify(self._spec, source, slot.item, self._strict, index)
        if update is not None and update.kind == "call" and self._tools_given is not None:
            assert update.call is not None
            return StreamUpdate("call", call=self._checker().check(update.call))
        return update

    def _checker(self) -> Any:
        """The offered tools, compiled for this stream's format on first use."""
        if self._tools is None:
            # lazy: the tool checks (jsonschema: 66 ms) only with tools=
            from .._tools import as_tools

            assert self._spec is not None
            self._tools = as_tools(self._spec.format, self._tools_given, self._registry)
        return self._tools

    # -- the reply --------------------------------------------------------------------

    def reply(self, *, allow_incomplete: bool = False) -> Reply:
        """The Reply ``read()`` gives for the equivalent full response.

        Raises :class:`IncompleteStream` when the stream has not completed, the
        :class:`StreamError` the provider sent, or the stream's earlier failure.
        ``allow_incomplete=True`` returns the partial Reply instead (also after a provider
        error), every call whose item never closed flagged ``incomplete``.
        """
        if self._failure is None and not self._closed:
            with contextlib.suppress(ToolwireError):  # kept: raised below
                self.close()
        failure = self._failure
        if failure is not None and not (allow_incomplete and isinstance(failure, StreamError)):
            self._raise_again()
        if self._spec is None:
            raise IncompleteStream("stream", None, 0, None, self._events)
        complete = self._engine.complete
        if not complete and not allow_incomplete:
            try:
                partial: Reply | None = self._build()
            except ToolwireError:
                partial = None
            open_slots = sum(1 for s in self._engine.slots if not s.closed)
            raise IncompleteStream(self._spec.format, partial, open_slots, self._last_type,
                                   self._events)
        reply = self._build()
        if self._tools_given is None:
            return reply
        checked: Reply = self._checker().check_reply(reply)
        return checked

    def _build(self) -> Reply:
        """The reply as it stands (:func:`.replies.build`)."""
        assert self._spec is not None and self._stream is not None
        cut = self._ready.cut if self._ready is not None else set()
        return build(self._spec, self._stream, self._engine, cut, self._strict)


def read_stream(
    fmt: str | None, events: Iterable[Any] | bytes | str, *, strict: bool | None = None,
    tools: Any = None,
) -> Reply:
    """Feed every event, then :meth:`Accumulator.reply`: the one-shot form.

    ``events`` is an iterable of events (dicts, JSON text, SDK event objects) or of raw byte
    chunks (``bytes``: SSE or NDJSON split anywhere, as :meth:`Accumulator.feed_bytes` takes
    them), or the stream's raw bytes or text whole. One object (a reply, an SDK model) is no
    stream: a ``malformed_stream`` names it.
    """
    registry = default_source()
    accumulator = Accumulator(fmt, strict=strict, tools=tools, registry=registry)
    line_ends = feed_all(accumulator, events, fmt, registry)
    try:
        return accumulator.reply()
    except IncompleteStream as exc:
        if line_ends is False and accumulator.events == 0:
            raise MalformedStream(accumulator.format, NO_LINE_END) from exc
        raise
