"""The accumulator: a provider's stream in, the same :class:`~toolwire.Reply` as ``read()`` out.

It rebuilds a read-equivalent response document from the events with the format's
``stream:`` rules (:mod:`.engine`) and, at :meth:`Accumulator.reply`, runs the unchanged
wire spec on it — classification, argument decoding, truncation and finish reason stay in
one place. While the stream runs, :meth:`Accumulator.feed` hands out what became ready
under the format's ready policy (specs/README.md §9.6): a call only once the format proves
it complete, never on a guess.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ...errors import ToolwireError, UnknownFormat
from ...expression import Expression, compile_expression
from ...reply import Reply
from ...toolcall import ToolCall, copy_json
from .. import interpreter
from .compiled import CompiledStream, Rule, compiled_stream, plan_for
from .docpath import PathError, get
from .engine import Broken, Engine
from .errors import IncompleteStream, MalformedStream, StreamError, UnsupportedStream
from .events import event_json, normalised_event
from .framing import Framer, framer_for
from .slots import Slot
from .updates import StreamUpdate, classify

if TYPE_CHECKING:
    from ...registry import Registry
    from ...spec import WireSpec

__all__ = ["Accumulator", "read_stream"]

Step = tuple[str, Any, Any, Any, Any]
"""(rule name, its when or None, its each or None, the engine's operation, the op)."""
Plan = tuple[Any, dict[str, tuple[Step, ...]], tuple[Step, ...]]
"""(discriminator or None, steps by its value, the steps otherwise)."""


class Accumulator:
    """Feed a stream's events or raw bytes; take ready calls as they come, the Reply at the end.

    ``fmt=None`` sniffs the format from the first event. ``strict`` and ``tools`` are
    ``read()``'s: with ``tools`` (a :class:`toolwire.Tools`, or the request body or its tool
    list as sent) every call handed out, and every call of :meth:`reply`, is checked against
    the offered tools, so a ready call may come flagged ``unknown_tool`` or
    ``arguments_invalid`` (its fate is then ``rejected``: answer it, don't run it).
    """

    def __init__(
        self, fmt: str | None = None, *, strict: bool | None = None,
        registry: Registry | None = None, tools: Any = None,
    ) -> None:
        if registry is None:
            from ...registry import Registry

            registry = Registry.default()
        self._registry = registry
        self._strict = strict
        self._tools_given = tools
        self._tools: Any = None  # compiled for the format once it is known
        self._spec: WireSpec | None = None
        self._stream: CompiledStream | None = None
        if fmt is not None:
            self._bind(fmt)
        self._engine = Engine()
        self._events = 0
        self._failure: ToolwireError | None = None
        self._stopped = False  # the framing's sentinel arrived
        self._framer: Framer | None = None
        self._head = b""  # bytes before the framing is known
        self._last_type: Any = None
        self._held: list[Slot] = []
        self._plans: dict[Any, Plan] = {}

    def _plan(self, stream: CompiledStream, event_type: Any) -> Plan:
        """The steps an event of this type runs (:func:`.compiled.plan_for`), bound here."""
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

    def _sniff(self, event: dict[str, Any]) -> None:
        for spec in _sniff_order(self._registry):
            sniff = _sniff_expression(spec)
            try:
                if sniff.evaluate(event) is True:
                    self._bind(spec.format)
                    return
            except ValueError:
                continue
        raise UnknownFormat(None, [s.format for s in _sniff_order(self._registry)])

    # -- feeding ----------------------------------------------------------------------

    def feed(self, event: Any, *, event_name: str | None = None) -> tuple[StreamUpdate, ...]:
        """Take one event (dict, JSON text/bytes, SDK object); return what became ready.

        ``event_name`` is the SSE ``event:`` name, used only where the event itself does
        not name its type.
        """
        index = self._events
        if self._failure is not None:
            raise self._failure
        if self._stopped:
            raise self._fail(MalformedStream(self.format, "an event after the stream's end"
                                             f" sentinel {self._sentinel()!r}", index))
        data = event if type(event) is dict else event_json(event, self.format, index)
        self._events += 1
        if self._stream is None:
            self._sniff(data)
        stream = self._stream
        assert stream is not None
        if stream.unwrap is not None:
            data = self._unwrapped(stream.unwrap, data, index)
        if stream.detect:
            assert self._spec is not None
            data = normalised_event(self._spec, data, index)
        engine = self._engine
        rule_name: str | None = None
        try:
            event_type = stream.event_type.evaluate(data) if stream.event_type else None
            if event_type is None:
                event_type = event_name
            self._last_type = event_type
            error = stream.error
            if error is not None and (error.on is None or event_type in error.on) and (
                    error.when is None or error.when.evaluate(data) is True):
                raise self._fail(self._provider_error(stream, data, index))
            for guard in stream.refuse:
                if guard.matches(data, event_type):
                    raise self._fail(UnsupportedStream(stream.format, guard.reason, index))
            if engine.opened:
                engine.opened.clear()
            if engine.closed:
                engine.closed.clear()
            plan = self._plans.get(event_type if type(event_type) is str else None)
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
            completing = not engine.complete and (
                engine.ended
                or (stream.complete is not None and engine.document is not None
                    and stream.complete.evaluate(engine.document) is True)
            )
            if not (completing or engine.closed or engine.opened):
                return ()  # most events: a delta that makes nothing ready
            return self._release(stream, completing)
        except (Broken, PathError) as exc:
            raise self._fail(MalformedStream(stream.format, str(exc), index, rule_name)) from None
        except ToolwireError:
            raise
        except ValueError as exc:
            reason = f"an expression of the stream rules failed: {exc}"
            raise self._fail(MalformedStream(stream.format, reason, index, rule_name)) from None

    def _unwrapped(self, unwrap: tuple[Expression, Expression], data: dict[str, Any],
                   index: int) -> dict[str, Any]:
        """The event inside an SDK's envelope, where the spec's ``unwrap.when`` holds."""
        when, value = unwrap
        try:
            if when.evaluate(data) is not True:
                return data
            inner = value.evaluate(data)
        except ValueError as exc:
            raise self._fail(MalformedStream(self.format, f"stream.unwrap failed: {exc}",
                                             index)) from None
        if type(inner) is not dict:
            kind = "null" if inner is None else type(inner).__name__
            raise self._fail(MalformedStream(self.format, "the event inside the envelope"
                                             f" (stream.unwrap) is {kind}, not an object", index))
        return inner

    def feed_bytes(self, chunk: bytes | str) -> tuple[StreamUpdate, ...]:
        """Take raw stream bytes, split anywhere: SSE or NDJSON, told apart by the first byte."""
        if self._framer is None:
            self._head += chunk.encode("utf-8") if isinstance(chunk, str) else bytes(chunk)
            first = self._head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
            if not first:
                return ()
            if first == b"[":
                raise self._fail(UnsupportedStream(self.format, "a streamed JSON array (Gemini"
                                                   " without alt=sse): request alt=sse, or feed"
                                                   " the array's elements as events"))
            framer = framer_for(first.decode("latin-1"))
            if framer is None:
                raise self._fail(MalformedStream(self.format, "the bytes are neither SSE nor"
                                                 f" NDJSON (they begin {self._head[:20]!r})"))
            self._framer, chunk, self._head = framer, self._head, b""
        return self._framed(self._framer.feed(chunk))

    def _framed(self, framed: list[tuple[str | None, str]]) -> tuple[StreamUpdate, ...]:
        updates: list[StreamUpdate] = []
        for name, data in framed:
            # Looked up per event: a sniffed format becomes known at its first event,
            # possibly in the same chunk as the sentinel.
            sentinel = self._sentinel()
            if sentinel is not None and data.strip() == sentinel:
                if self._stopped:
                    raise self._fail(MalformedStream(self.format, "a second end sentinel",
                                                     self._events))
                self._stopped = True
                continue
            if self._stream is None and data.strip() == "[DONE]":
                self._stopped = True
                continue
            updates.extend(self.feed(data, event_name=name))
        return tuple(updates)

    def _sentinel(self) -> str | None:
        return self._stream.sentinel if self._stream is not None else None

    def close(self) -> tuple[StreamUpdate, ...]:
        """Say the input ended; return what that made ready.

        An SSE event still buffered (no blank line after it) is discarded, never
        half-parsed; a last NDJSON line without its newline is read when it is whole JSON.
        ``reply()`` closes the input too; closing twice is harmless.
        """
        if self._framer is None or self._failure is not None:
            return ()
        rest = self._framer.end()
        if not rest:
            return ()
        try:
            event_json(rest[0][1], self.format, self._events)
        except MalformedStream:
            return ()  # a cut last line: never half-parsed
        return self._framed(rest)

    # -- failing ----------------------------------------------------------------------

    def _fail(self, error: ToolwireError) -> ToolwireError:
        self._failure = error
        return error

    def _provider_error(self, stream: CompiledStream, data: dict[str, Any],
                        index: int) -> StreamError:
        guard = stream.error
        assert guard is not None
        code = guard.code.evaluate(data) if guard.code is not None else None
        message = guard.message.evaluate(data) if guard.message is not None else None
        try:
            partial: Reply | None = self._build(complete=False)
        except ToolwireError:
            partial = None
        return StreamError(stream.format, code, message, partial, index)

    # -- readiness --------------------------------------------------------------------

    def _release(self, stream: CompiledStream, completing: bool) -> tuple[StreamUpdate, ...]:
        engine = self._engine
        if not (completing or engine.closed or engine.opened):
            return ()
        held = self._held
        held.extend(engine.closed)
        updates: list[StreamUpdate] = []
        if stream.ready == "at_close":
            self._hand_out(stream, [s for s in held], updates, early=True)
        elif stream.ready == "hold_last" and engine.opened and held:
            for opened in engine.opened:
                before = [s for s in held if s.list_path == opened.list_path
                          and s.order < opened.order]
                self._hand_out(stream, before, updates, early=True)
        if completing:
            self._complete(stream, updates)
        return tuple(updates)

    def _hand_out(self, stream: CompiledStream, slots: list[Slot],
                  updates: list[StreamUpdate], *, early: bool) -> None:
        for slot in slots:
            update = self._classify(stream, slot)
            if early and update is not None and update.kind == "call":
                assert update.call is not None
                if update.call.arguments_undecodable:
                    continue  # its fate (rejected or dropped) is known only at the end
            slot.released = True
            self._held.remove(slot)
            if update is not None:
                updates.append(update)

    def _classify(self, stream: CompiledStream, slot: Slot) -> StreamUpdate | None:
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
            from ...tools import as_tools

            assert self._spec is not None
            self._tools = as_tools(self._spec.format, self._tools_given, self._registry)
        return self._tools

    def _complete(self, stream: CompiledStream, updates: list[StreamUpdate]) -> None:
        engine = self._engine
        for slot in engine.slots:
            if not slot.closed:
                engine.close(slot, stream.finalize_of.get(slot.list_path, ()))
                self._held.append(slot)
        engine.complete = True
        engine.flush()
        spec = self._spec
        assert spec is not None and engine.document is not None
        doc = engine.document
        truncated = spec.truncated is not None and spec.truncated.evaluate(doc) is True
        finish = spec.finish_reason.evaluate(doc) if spec.finish_reason is not None else None
        remaining = sorted(self._held, key=lambda s: s.order)
        if truncated:
            last_call = None
            for slot in engine.slots:
                update = self._classify(stream, slot)
                if update is not None and update.kind == "call":
                    last_call = slot
            kept = []
            for slot in remaining:
                update = self._classify(stream, slot)
                if update is not None and update.kind == "call":
                    assert update.call is not None
                    if slot is last_call or update.call.arguments_undecodable:
                        continue  # dropped: cut off, never to run
                kept.append(slot)
            remaining = kept
        self._hand_out(stream, remaining, updates, early=False)
        updates.append(StreamUpdate("finished", finish_reason=finish if type(finish) is str
                                    else None, truncated=truncated))

    # -- the reply --------------------------------------------------------------------

    def reply(self, *, allow_incomplete: bool = False) -> Reply:
        """The Reply ``read()`` gives for the equivalent full response.

        Raises :class:`IncompleteStream` when the stream has not completed, the
        :class:`StreamError` the provider sent, or the stream's earlier failure.
        ``allow_incomplete=True`` returns the partial Reply instead (also after a provider
        error), every call whose item never closed flagged ``incomplete``.
        """
        self.close()
        failure = self._failure
        if failure is not None and not (allow_incomplete and isinstance(failure, StreamError)):
            raise failure
        if self._spec is None:
            if allow_incomplete:
                raise IncompleteStream("stream", None, 0, None, self._events)
            raise IncompleteStream("stream", None, 0, None, self._events)
        complete = self._engine.complete
        if not complete and not allow_incomplete:
            try:
                partial: Reply | None = self._build(complete=False)
            except ToolwireError:
                partial = None
            open_slots = sum(1 for s in self._engine.slots if not s.closed)
            raise IncompleteStream(self._spec.format, partial, open_slots, self._last_type,
                                   self._events)
        reply = self._build(complete=complete)
        if self._tools_given is None:
            return reply
        checked: Reply = self._checker().check_reply(reply)
        return checked

    def _build(self, *, complete: bool) -> Reply:
        spec = self._spec
        assert spec is not None
        engine = self._engine
        engine.flush()
        if engine.document is None:
            return Reply(format=spec.format, calls=())
        if complete:
            return interpreter.read(spec, engine.document, self._strict)
        stream = self._stream
        assert stream is not None
        document: dict[str, Any] = copy_json(engine.document)
        unfinished: set[int] = set()
        for slot in engine.slots:
            if slot.closed:
                continue
            holder = get(document, slot.list_path)
            item = holder if slot.position < 0 else (
                holder[slot.position] if type(holder) is list
                and slot.position < len(holder) else None)
            if type(item) is not dict:
                continue
            finalize = stream.finalize_of.get(slot.list_path, ())
            if finalize:
                from .docpath import put

                scope = {"item": item, "buf": slot.buffered()}
                for path, expression in finalize:
                    value = expression.evaluate(scope)
                    if value is not None:
                        put(item, path, copy_json(value))
            unfinished.add(id(item))
        reply = interpreter.read(spec, document, self._strict)
        if not unfinished:
            return reply
        calls: list[ToolCall] = []
        pending = iter(reply.calls)
        for item in interpreter.locate(spec, document, self._strict):
            if interpreter.from_item(spec, item) is None:
                continue
            call = next(pending)
            calls.append(call.replace(incomplete=True) if id(item) in unfinished else call)
        calls.extend(pending)
        return _with_calls(reply, tuple(calls))


def _with_calls(reply: Reply, calls: tuple[ToolCall, ...]) -> Reply:
    from ..._record import setfield

    copy = object.__new__(Reply)
    for name in Reply._fields:
        setfield(copy, name, calls if name == "calls" else getattr(reply, name))
    return copy


_SNIFFS: dict[str, Expression] = {}
"""Each stream sniff predicate compiled, by its text: what sniffing needs, and no spec
(a cache keyed by spec would keep every registry's specs alive for good)."""


def _sniff_expression(spec: WireSpec) -> Expression:
    text = spec.data["stream"]["sniff"]["when"]
    found = _SNIFFS.get(text)
    if found is None:
        found = _SNIFFS[text] = compile_expression(text)
    return found


def _sniff_order(registry: Registry) -> list[WireSpec]:
    specs = [s for s in registry.specs().values()
             if isinstance(s.data.get("stream"), dict) and "sniff" in s.data["stream"]]
    return sorted(specs, key=lambda s: (-int(s.data["stream"]["sniff"]["priority"]), s.format))


def read_stream(
    fmt: str | None, events: Iterable[Any], *, strict: bool | None = None, tools: Any = None
) -> Reply:
    """Feed every event, then :meth:`Accumulator.reply`: the one-shot form."""
    accumulator = Accumulator(fmt, strict=strict, tools=tools)
    for event in events:
        accumulator.feed(event)
    return accumulator.reply()
