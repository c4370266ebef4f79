"""What :func:`toolwire.read` returns: everything a tool loop needs from one reply.

Beyond the calls, a loop needs to know whether the reply was cut at its token limit,
which calls the provider already ran, and what the spec did not recognise. The split
of calls into *runnable*, *dropped* and *rejected* is the tool-loop rule of
Langertha::ToolCall, made explicit so no loop author has to rediscover it:

* a call whose arguments decoded is **runnable** — except, in a truncated reply, the
  last call: the cut fell inside it or just after it, and a cut inside the *name*
  leaves empty arguments that decode to ``{}`` (FIELD-NOTES 1), so it is dropped;
* an undecodable call in a **truncated** reply is **dropped**: the arguments were cut
  off, not wrong, and asking the model to retry at the same limit only repeats it;
* an undecodable call in a complete reply is **rejected**: answer it with an error
  result (:meth:`Reply.error_result`) that names ``arguments_error``, so the model
  can correct itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .._speed import TYPE_CHECKING, blank_of
from .._speed.record import Record, setfield
from .records import CallRecord, ItemRecord, RefusedItem, SkippedItem, UnknownItem
from .reply_json import reply_from_dict, reply_to_dict
from .server_call import ServerToolCall
from .toolcall import ToolCall
from .turn import Turn

if TYPE_CHECKING:
    from typing import Any, Protocol

    class Renderer(Protocol):
        """What :meth:`Reply.assistant_message` and :meth:`Reply.answer` call: the format's
        ``render`` part, looked up in ``registry`` (None: the default registry)."""

        def assistant_message(self, reply: Reply, registry: Any) -> Any: ...

        def answer(
            self, reply: Reply, results: Mapping[Any, Any] | Sequence[Any], registry: Any
        ) -> list[Any]: ...

__all__ = [
    "CallRecord",
    "CallSplit",
    "ItemRecord",
    "RefusedItem",
    "Reply",
    "SkippedItem",
    "UnknownItem",
    "call_fate",
    "error_reasons",
    "install_renderer",
]

FATES = ("runnable", "dropped", "rejected")
"""Every fate a call can have, in the order the documentation lists them."""


def call_fate(call: ToolCall, is_last: bool, truncated: bool) -> str:
    """The one place that decides a call's fate: ``runnable``, ``dropped`` or ``rejected``.

    Dropped: nothing to run and nothing to answer (cut off by the token limit). Rejected:
    answer it with :meth:`Reply.error_result`, whose reasons (:func:`error_reasons`) are
    the same facts that reject it here.
    """
    if call.incomplete or (truncated and (call.arguments_undecodable or is_last)):
        return "dropped"
    if error_reasons(call):
        return "rejected"
    return "runnable"


def error_reasons(call: ToolCall) -> tuple[str, ...]:
    """Why a call cannot run, one sentence each; empty when nothing is wrong with it.

    The one list of reasons: :func:`call_fate` rejects a call that has any, and
    :meth:`Reply.error_result` tells the model all of them.
    """
    reasons: list[str] = []
    if call.arguments_undecodable:
        detail = call.arguments_error or "not a JSON object"
        reasons.append(
            f"the arguments of the call to {call.name!r} could not be decoded ({detail});"
            " send the call again with arguments that are one JSON object"
        )
    if call.unknown_tool:
        offered = " ".join(e.message for e in call.arguments_errors if e.keyword == "unknown_tool")
        reasons.append(
            f"no tool named {call.name!r} was offered; call one of the tools you were given"
            + (f". {offered.rstrip('.')}" if offered else "")
        )
    if call.arguments_invalid:
        shown = "; ".join(
            f"at {e.pointer or 'the top level'}: {e.message} ({e.keyword})"
            for e in call.arguments_errors
        ) or "they fail the schema"
        reasons.append(
            f"the arguments of the call to {call.name!r} do not match the tool's parameters"
            f" schema ({shown}); send the call again with arguments that match it"
        )
    return tuple(reasons)


class CallSplit:
    """The tool-loop split of a reply's calls by their fates: what :class:`Reply` and
    :class:`~toolwire.TextReply` share, each deciding the fates its own way."""

    __slots__ = ()
    calls: tuple[ToolCall, ...]

    def fates(self) -> tuple[str, ...]:
        """For each call, in order: ``runnable``, ``dropped`` or ``rejected``."""
        raise NotImplementedError

    def _with_fate(self, fate: str) -> tuple[ToolCall, ...]:
        return tuple(c for c, f in zip(self.calls, self.fates(), strict=True) if f == fate)

    @property
    def runnable_calls(self) -> tuple[ToolCall, ...]:
        """The calls to execute."""
        return self._with_fate("runnable")

    @property
    def dropped_calls(self) -> tuple[ToolCall, ...]:
        """Calls neither to run nor to answer, because the reply was cut off in them."""
        return self._with_fate("dropped")

    @property
    def rejected_calls(self) -> tuple[ToolCall, ...]:
        """Calls to answer with :meth:`error_result` instead of running them."""
        return self._with_fate("rejected")

    @property
    def has_calls(self) -> bool:
        """Whether the reply holds a call to act on: a runnable call to run or a rejected one
        to answer (decided by the items, never by finish_reason).

        A reply whose every call was dropped — cut off at the token limit — has none: there
        is no call to write back and no result to send, so a loop that goes on
        ``while reply.has_calls`` ends on it instead of asking again with nothing new, and
        :attr:`truncated` (or :attr:`dropped_calls`) says why it ended.
        """
        return any(fate != "dropped" for fate in self.fates())


class Reply(CallSplit, Record):
    """One reply, read: its calls, server-side calls, truncation and loose ends.

    Immutable values, like every record here (:class:`toolwire._speed.record.Record`: a
    frozen dataclass's behaviour without the cost of importing ``dataclasses``).
    Besides the calls it keeps the records a trace needs: ``items`` (every item and how
    it was classified), ``call_records`` (one per call, in the same order: where it came
    from, whether its arguments selector found anything), ``unknown`` (items no entry
    matched, typed or not), ``refused`` (only in the partial reply an
    :class:`~toolwire.errors.UnmappedCall` carries), and which of the reply's alternatives was
    read (``choice`` of ``choice_count``; ``None`` where the format has no alternatives).
    ``text`` and ``turn`` are what its assistant turn is written from beside the calls
    (:class:`~toolwire.types.Turn`: the items to give back, thinking and reasoning among
    them; ``None`` where the format has no ``render`` part), so a copied, unpickled or
    JSON-restored reply renders the same turn.
    """

    __module__ = "toolwire"  # the published name: reprs, pickles and docs show it

    __slots__ = (
        "call_records", "calls", "choice", "choice_count", "finish_reason", "format",
        "items", "refused", "server_calls", "skipped", "text", "truncated", "turn", "unknown",
        "unknown_types",
    )
    format: str
    calls: tuple[ToolCall, ...]
    server_calls: tuple[ServerToolCall, ...]
    truncated: bool
    finish_reason: str | None
    unknown_types: tuple[str, ...]
    skipped: tuple[SkippedItem, ...]
    items: tuple[ItemRecord, ...]
    unknown: tuple[UnknownItem, ...]
    refused: tuple[RefusedItem, ...]
    call_records: tuple[CallRecord, ...]
    choice: int
    choice_count: int | None
    text: str | None
    turn: Turn | None

    def __init__(
        self,
        format: str,
        calls: tuple[ToolCall, ...],
        server_calls: tuple[ServerToolCall, ...] = (),
        truncated: bool = False,
        finish_reason: str | None = None,
        unknown_types: tuple[str, ...] = (),
        skipped: tuple[SkippedItem, ...] = (),
        items: tuple[ItemRecord, ...] = (),
        *,
        unknown: tuple[UnknownItem, ...] = (),
        refused: tuple[RefusedItem, ...] = (),
        call_records: tuple[CallRecord, ...] = (),
        choice: int = 0,
        choice_count: int | None = None,
        text: str | None = None,
        turn: Turn | None = None,
    ) -> None:
        if turn is not None:
            if not isinstance(turn, Turn):
                raise TypeError(f"Reply: turn is a Turn or None, not {type(turn).__name__}")
            named = [e for e in turn._items if type(e) is int and e >= len(calls)]
            if named:
                raise ValueError(
                    f"Reply: the turn names call {named[0]}, but the reply has {len(calls)}")
        if call_records and len(call_records) != len(calls):
            raise ValueError(
                f"Reply: {len(call_records)} call records for {len(calls)} calls;"
                " give one per call, or none"
            )
        setfield(self, "format", format)
        setfield(self, "calls", tuple(calls))
        setfield(self, "server_calls", tuple(server_calls))
        setfield(self, "truncated", truncated)
        setfield(self, "finish_reason", finish_reason)
        setfield(self, "unknown_types", tuple(unknown_types))
        setfield(self, "skipped", tuple(skipped))
        setfield(self, "items", tuple(items))
        setfield(self, "unknown", tuple(unknown))
        setfield(self, "refused", tuple(refused))
        setfield(self, "call_records", tuple(call_records))
        setfield(self, "choice", choice)
        setfield(self, "choice_count", choice_count)
        # The assistant's text as the spec's `content` reads it (None: the spec reads none,
        # or the reply has none); with read(..., text_format=) the calls written in it are
        # lifted out (toolwire._wire.reply_text).
        setfield(self, "text", text)
        setfield(self, "turn", turn)

    def fates(self) -> tuple[str, ...]:
        """For each call, in order: ``runnable``, ``dropped`` or ``rejected``."""
        last = len(self.calls) - 1
        return tuple(
            call_fate(call, index == last, self.truncated) for index, call in enumerate(self.calls)
        )

    @property
    def other_choices(self) -> int:
        """How many alternatives of the reply were not read (``n > 1``); 0 when none."""
        return max(0, (self.choice_count or 0) - 1)

    @staticmethod
    def error_result(call: ToolCall) -> str:
        """The text to send back as the tool result of a rejected call.

        A call with nothing wrong with it (:func:`error_reasons` is empty) has no error
        to report: that is a ``ValueError``, never a made-up message.
        """
        reasons = error_reasons(call)
        if not reasons:
            raise ValueError(
                f"the call to {call.name!r} (id {call.id!r}) has no error to report:"
                " run it instead"
            )
        return "Error: " + "; ".join(reasons) + "."

    def to_dict(self, *, raw: bool = False) -> dict[str, Any]:
        """JSON-ready data, as the CLI prints it (docs/reading.md, "The Reply as JSON");
        ``raw=True`` adds each server call's provider item."""
        return reply_to_dict(self, raw=raw)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Reply:
        """The inverse of :meth:`to_dict`: ``Reply.from_dict(r.to_dict()) == r``."""
        return reply_from_dict(cls, data)

    def assistant_message(self, *, registry: Any = None) -> Any:
        """The assistant turn to append to the history, in this reply's own format: its
        items as the provider needs them back (thinking, reasoning, thought signatures),
        each call written back from its :class:`ToolCall`, dropped calls removed. An object,
        or a list of items where the format's history is a list (Responses).

        The format's ``render`` part comes from ``registry``: by default the registry
        :func:`toolwire.read` uses; a reply read through a :class:`~toolwire.Registry` of
        your own is rendered through it (``registry=that_registry``): a format the default
        registry does not hold is a :class:`~toolwire.errors.RenderError` saying so."""
        return _renderer().assistant_message(self, registry)

    def answer(
        self, results: Mapping[Any, Any] | Sequence[Any], *, registry: Any = None
    ) -> list[Any]:
        """The provider-native message(s) carrying a result for every call of the
        assistant turn: ``results`` keyed by call id, :class:`ToolCall` or index in
        :attr:`calls` — or a list holding one result per call of :attr:`runnable_calls`, in
        order — each a str, a JSON value, MCP content blocks or an exception; rejected calls
        without one get their :meth:`error_result`. Append them all to the history.
        ``registry`` as for :meth:`assistant_message`."""
        return _renderer().answer(self, results, registry)


_RENDERER: Renderer | None = None


def install_renderer(renderer: Renderer) -> None:
    """Make ``renderer`` the one :meth:`Reply.assistant_message` and :meth:`Reply.answer`
    call. The registry installs it when it loads (``toolwire/__init__`` imports the
    registry), so a value renders without importing the layers above it."""
    global _RENDERER
    _RENDERER = renderer


def _renderer() -> Renderer:
    if _RENDERER is None:  # only a module imported around toolwire/__init__ could see this
        raise RuntimeError("toolwire's renderer is not loaded: import toolwire first")
    return _RENDERER


_ReplyBlank = blank_of(Reply)
"""A writable twin of :class:`Reply` (toolwire._speed.blank_of): setting fifteen slots
through ``setfield`` is a tenth of reading a small reply."""


def read_reply_value(
    format: str,
    calls: tuple[ToolCall, ...],
    server_calls: tuple[ServerToolCall, ...],
    truncated: bool,
    finish_reason: str | None,
    unknown_types: tuple[str, ...],
    skipped: tuple[SkippedItem, ...],
    items: tuple[ItemRecord, ...],
    unknown: tuple[UnknownItem, ...],
    refused: tuple[RefusedItem, ...],
    call_records: tuple[CallRecord, ...],
    choice: int,
    choice_count: int | None,
    text: str | None,
    turn: Turn | None,
) -> Reply:
    """``Reply(...)`` for the reader's checked values, all tuples already and one call
    record per call: the same value, sooner."""
    reply: Any = object.__new__(_ReplyBlank)
    reply.format = format
    reply.calls = calls
    reply.server_calls = server_calls
    reply.truncated = truncated
    reply.finish_reason = finish_reason
    reply.unknown_types = unknown_types
    reply.skipped = skipped
    reply.items = items
    reply.unknown = unknown
    reply.refused = refused
    reply.call_records = call_records
    reply.choice = choice
    reply.choice_count = choice_count
    reply.text = text
    reply.turn = turn
    reply.__class__ = Reply
    result: Reply = reply
    return result
