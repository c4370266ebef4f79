"""Every error toolwire raises on purpose, as data with a stable ``code``.

Each class carries a ``code`` that never changes between releases, and the facts of the
failure as attributes, so that callers and tests branch on data rather than on message
text. Every one but :class:`NotJSONValue` (a plain ``ValueError``: a value, not a reply,
is wrong) derives from :class:`ToolwireError`::

    ToolwireError                     code
    ├── UnknownFormat                 "unknown_format"     no spec of that name
    ├── UnmappedCall                  "unmapped_call"      the client must act, no mapping
    │   └── UnknownItemType           "unknown_item_type"  a type no list of the spec names
    ├── MalformedResponse             "malformed_response" the reply is not of the format's shape
    ├── ProviderError                 "provider_error"     the body is the provider's error
    ├── NotDeclared                   "not_declared"       the spec declares no such part
    ├── RegexBudgetExceeded           "regex_budget"       a pattern ran out of steps on text
    ├── InvalidTools                  "invalid_tools"      a request's tool list does not compile
    ├── RenderError                   "render_error"       the target format cannot express it
    ├── IncompleteStream              "incomplete_stream"  the stream ended before its end signal
    ├── StreamError                   "stream_error"       the provider sent an error in the stream
    ├── MalformedStream               "malformed_stream"   the events break the stream's rules
    ├── UnsupportedStream             "unsupported_stream" a stream feature toolwire will not read
    └── SpecError                     "spec_error"         a spec failed to load; see .problems

    ValueError
    └── NotJSONValue                  a value no JSON text can hold (a cycle, NaN, a huge int)

A provider's own text (an error message or code, an item or event type, a failed call's
reason) enters a message on one line, its control characters escaped, at most 1,000
characters of it (then how long the whole is); the whole text, as sent, stays on the
error's field (``error_message``, ``item_type``, ``reason``…). A 5 MB error body, a
terminal escape or a newline in it cannot flood a log, repaint a terminal or forge a line.

A :class:`SpecError` gathers every :class:`SpecProblem` of a load at once, each with
the file, line, column, JSON pointer and the ``rule`` it broke. ``UnmappedCall``,
``IncompleteStream`` and ``StreamError`` carry the partial reply, so a loop can answer
what it can and log the rest; none is ever a reason to run the calls it holds.
"""

from __future__ import annotations

from ._speed import TYPE_CHECKING
from ._speed.record import Record, setfield

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from ._values.reply import Reply
    from ._values.text_reply import TextReply

__all__ = [
    "IncompleteStream",
    "InvalidTools",
    "MalformedResponse",
    "MalformedStream",
    "NotDeclared",
    "NotJSONValue",
    "ProviderError",
    "RegexBudgetExceeded",
    "RenderError",
    "SpecError",
    "SpecProblem",
    "StreamError",
    "ToolwireError",
    "UnknownFormat",
    "UnknownItemType",
    "UnmappedCall",
    "UnsupportedStream",
]

_PROVIDER_TEXT_SHOWN = 1000
"""The most characters of a provider's own text an error's message shows."""

_SPACES = {code: " " for code in b" \t\n\x0b\x0c\r"}
"""Spaces, tabs and line breaks, each made a space (``str.translate``)."""
_ESCAPES = {
    code: f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    for code in (*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029,
                 *range(0x202A, 0x202F), *range(0x2066, 0x206A))
    if code not in _SPACES
}
"""Every other control character, as the escape a message shows (``str.translate``: no
``re``, which a cold ``toolwire extract`` does not import)."""


def _provider_text(text: str) -> str:
    """A provider's text as an error's message shows it: each run of spaces, tabs and line
    breaks one space (that space trimmed at both ends), every other control character — terminal
    escapes, NUL, C1 controls, Unicode line separators and bidirectional overrides —
    escaped (``\\x1b``, ``\\u202e``), and cut after :data:`_PROVIDER_TEXT_SHOWN`
    characters, saying how long the whole is. The JavaScript package shows it the same way
    (tools/js/lib/provider_text.js).
    """
    spaced = text[:_PROVIDER_TEXT_SHOWN].translate(_SPACES)
    while "  " in spaced:
        spaced = spaced.replace("  ", " ")
    shown = spaced.strip(" ").translate(_ESCAPES)
    if len(text) > _PROVIDER_TEXT_SHOWN:
        shown += f"… (cut: {len(text):,} characters in all)"
    return shown


class ToolwireError(Exception):
    """The root of every error toolwire raises on purpose."""

    code: str = "toolwire_error"

    def to_dict(self) -> dict[str, object]:
        """The error as JSON-ready data: its code and the facts it carries."""
        return {"code": self.code, "message": str(self)}

    def __reduce__(self) -> tuple[Any, ...]:
        # Exception's own reduce calls ``cls(*self.args)``, and ``args`` holds only the
        # message, not the keyword facts the constructors take: unpickling then fails
        # (or, for UnknownFormat, rebuilds the wrong error), and an error raised in a
        # process pool's worker hangs or garbles the pool. So rebuild without calling
        # ``__init__``: the same class, the same ``args``, and every attribute as state
        # (the facts, a partial ``reply``, ``__notes__``) — whatever a subclass adds.
        return (_rebuild_error, (type(self), self.args), dict(self.__dict__))


def _rebuild_error(cls: type[ToolwireError], args: tuple[Any, ...]) -> ToolwireError:
    """An error of ``cls`` with ``args`` set and ``__init__`` not run (see ``__reduce__``)."""
    return cls.__new__(cls, *args)


class UnknownFormat(ToolwireError, LookupError):
    """No spec of that format name is registered."""

    code = "unknown_format"

    def __init__(
        self, format: str | None, known: Iterable[str] = (), *, kind: str = "format",
        other: str = "",
    ) -> None:
        """``kind`` names what was looked up (``wire format``, ``text format``); ``other``
        says the name is one of the other kind and how to read that (else a near miss among
        ``known`` is suggested, as the CLI does)."""
        self.format = format
        self.known = tuple(sorted(known))
        hint = f"; known {kind}s: {', '.join(self.known)}" if self.known else ""
        if format is None:
            super().__init__(f"no format recognises this response's shape{hint}")
        else:
            near = f"; {other}" if other else near_miss(format, self.known)
            super().__init__(f"unknown {kind} {format!r}{near}{hint}")

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": str(self), "format": self.format}


def near_miss(name: str, known: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the known name closest to ``name`` (the same name in
    another case first), else ``""``: a name is looked up exactly, never repaired."""
    folded = {k.casefold(): k for k in known}
    if name.casefold() in folded:
        return f"; did you mean {folded[name.casefold()]!r}?"

    import difflib  # lazy: difflib (5 ms) only for a name not found

    close = difflib.get_close_matches(name.casefold(), sorted(folded), n=1, cutoff=0.75)
    return f"; did you mean {folded[close[0]]!r}?" if close else ""


class UnmappedCall(ToolwireError):
    """An item the client must answer, which the format's spec refuses to map.

    Raised instead of returning fewer calls: a loop that silently skipped the item
    would take the reply for "the model is done" while the model waits for an answer.
    The error describes the first such item; ``reply`` (when raised by ``read``,
    ``extract`` or ``locate``) is the partial :class:`~toolwire.Reply` of the whole
    response — every call, server call and record, and in ``reply.refused`` every refused
    item with its reason — so a loop can answer what it can and report the rest. Raised
    by ``read_text`` (a Harmony message to a built-in tool), ``reply`` is the partial
    :class:`~toolwire.TextReply`, ``item_index`` 0 and ``location`` the message's
    place in the text (``text[START:END]``).
    """

    code = "unmapped_call"

    def __init__(
        self,
        format: str,
        item_index: int,
        item_type: str | None,
        reason: str,
        location: str = "",
        *,
        reply: Reply | TextReply | None = None,
    ) -> None:
        self.format = format
        self.item_index = item_index
        self.item_type = item_type
        self.reason = reason
        self.location = location
        self.reply = reply
        where = f" at {location}" if location else ""
        super().__init__(
            f"{format}: item {item_index}{where} of type {_provider_text(repr(item_type))} is not"
            f" mapped: {_provider_text(reason)}"
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "message": str(self),
            "format": self.format,
            "item_index": self.item_index,
            "item_type": self.item_type,
            "reason": self.reason,
            "location": self.location,
            "reply": None if self.reply is None else self.reply.to_dict(),
        }


class UnknownItemType(UnmappedCall):
    """An item whose type the spec does not list, in a format that fails closed."""

    code = "unknown_item_type"


class MalformedResponse(ToolwireError, ValueError):
    """The response is not of the shape its format promises (or is not JSON at all)."""

    code = "malformed_response"

    def __init__(
        self,
        format: str | None,
        reason: str,
        item_index: int | None = None,
        field: str | None = None,
        location: str = "",
        *,
        looks_like: str | None = None,
    ) -> None:
        self.format = format
        self.reason = reason
        self.item_index = item_index
        self.field = field
        self.location = location
        self.looks_like = looks_like
        parts = [format or "response"]
        if item_index is not None:
            parts.append(f"item {item_index}")
        if location:
            parts.append(f"at {location}")
        if field:
            parts.append(f"field {field!r}")
        super().__init__(f"{' '.join(parts)}: {reason}")

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "message": str(self),
            "format": self.format,
            "item_index": self.item_index,
            "field": self.field,
            "reason": self.reason,
            "looks_like": self.looks_like,
        }


class ProviderError(ToolwireError):
    """The body is the provider's error, not a reply: an HTTP error body logged as the
    reply, or a reply that says its generation failed (specs/README.md §1.12).

    The provider's own facts are fields — ``error_message``, ``error_type``,
    ``error_code`` (each a string, or None where the body has none) and
    ``provider_data`` (more fields the spec keeps, such as Groq's ``failed_generation``,
    the model's raw attempt) — so a caller can retry on a rate limit and log the rest.
    """

    code = "provider_error"

    def __init__(
        self,
        format: str,
        error_message: str | None,
        error_type: str | None = None,
        error_code: str | None = None,
        provider_data: dict[str, Any] | None = None,
    ) -> None:
        self.format = format
        self.error_message = error_message
        self.error_type = error_type
        self.error_code = error_code
        self.provider_data = provider_data or {}
        kind = ", ".join(f"{k} {_provider_text(v)}" for k, v in (("type", error_type),
                                                                ("code", error_code))
                         if v is not None)
        said = _provider_text(error_message) if error_message else "(no message)"
        super().__init__(
            f"{format}: the provider answered with an error"
            f"{f' ({kind})' if kind else ''}: {said}"
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "message": str(self),
            "format": self.format,
            "error_message": self.error_message,
            "error_type": self.error_type,
            "error_code": self.error_code,
            "provider_data": dict(self.provider_data),
        }


class NotDeclared(ToolwireError, LookupError):
    """The format's spec declares no part for what was asked: no ``structured_output``
    selector for :func:`toolwire.from_structured_output`, no ``choices`` for a
    ``choice=`` other than 0. ``part`` names the missing spec key."""

    code = "not_declared"

    def __init__(self, format: str, part: str, what: str) -> None:
        self.format = format
        self.part = part
        super().__init__(f"{format}: the spec declares no {part!r}, so {what}")

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": str(self), "format": self.format, "part": self.part}


class RegexBudgetExceeded(ToolwireError, ValueError):
    """A regular expression ran out of steps on the text it was given.

    Patterns come from a developer (a tool schema's ``pattern``, a response template's
    delimiters) and the text from a model, so no pattern runs unbounded: most run on a
    linear-time engine, and the steps of those that need backtracking (back-references,
    atomic groups) and of look-arounds count against a budget of ``steps`` steps, one per
    tool call's check and per reply read through a template (docs/guarantees.md).
    ``pattern`` is the pattern whose search found the budget spent.
    """

    code = "regex_budget"

    def __init__(self, pattern: str, steps: int) -> None:
        self.pattern = pattern
        self.steps = steps
        super().__init__(
            f"the regular expression {pattern!r} ran out of its budget of {steps:,} steps"
            " (back-references, atomic groups and look-arounds spend it)"
        )

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": str(self), "pattern": self.pattern,
                "steps": self.steps}


class SpecProblem(Record):
    """One thing wrong with a spec, located to the character.

    ``rule`` is a stable code (``unknown-key``, ``duplicate-key``, ``bad-expression``,
    …) listed in ``specs/README.md``; ``pointer`` is the JSON pointer of the offending
    value inside the spec; ``line`` and ``col`` are 1-based (0 when unknown). An
    immutable value.
    """

    __slots__ = ("col", "line", "message", "path", "pointer", "rule")
    path: str
    line: int
    col: int
    pointer: str
    message: str
    rule: str

    def __init__(
        self, path: str, line: int, col: int, pointer: str, message: str, rule: str
    ) -> None:
        setfield(self, "path", path)
        setfield(self, "line", line)
        setfield(self, "col", col)
        setfield(self, "pointer", pointer)
        setfield(self, "message", message)
        setfield(self, "rule", rule)

    def __str__(self) -> str:
        pointer = self.pointer or "/"
        return f"{self.path}:{self.line}:{self.col}: {pointer}: {self.message} [{self.rule}]"

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "pointer": self.pointer,
            "message": self.message,
            "rule": self.rule,
        }


class SpecError(ToolwireError, ValueError):
    """A spec failed to load; ``problems`` holds every problem found, sorted by place."""

    code = "spec_error"

    def __init__(self, problems: Iterable[SpecProblem]) -> None:
        self.problems = tuple(
            sorted(problems, key=lambda p: (p.path, p.line, p.col, p.pointer, p.rule))
        )
        super().__init__("\n".join(str(p) for p in self.problems) or "invalid spec")

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules broken, in the order of the problems (handy in tests)."""
        return tuple(p.rule for p in self.problems)

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "message": str(self),
            "problems": [p.to_dict() for p in self.problems],
        }


class InvalidTools(ToolwireError, ValueError):
    """A tool list that cannot be compiled: unreadable, a definition no spec entry reads, a
    tool without a name, two tools of one name, or a schema that is no valid schema. It is
    raised when the :class:`~toolwire.Tools` is built, never on the first call that needs a
    tool: a loop learns that its request is broken before the model has answered.

    ``tool`` is the tool's name where it has one, ``index`` its position among the
    definitions read (0-based, in request order), ``pointer`` where inside its schema the
    problem is (``""`` for the whole schema, ``None`` when the problem is not in a schema).
    """

    code = "invalid_tools"

    def __init__(
        self,
        format: str | None,
        reason: str,
        *,
        tool: str | None = None,
        index: int | None = None,
        pointer: str | None = None,
    ) -> None:
        self.format = format
        self.reason = reason
        self.tool = tool
        self.index = index
        self.pointer = pointer
        where = f"{format} tools" if format else "tools"
        if index is not None:
            where += f": tool #{index}" + (f" {tool!r}" if tool else "")
        elif tool:
            where += f": tool {tool!r}"
        if pointer is not None:
            where += f", schema at {pointer or '/'}"
        super().__init__(f"{where}: {reason}")

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_invalid_tools,
                (self.format, self.reason, self.tool, self.index, self.pointer))

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "message": str(self),
            "format": self.format,
            "tool": self.tool,
            "index": self.index,
            "pointer": self.pointer,
        }


def _rebuild_invalid_tools(
    format: str | None, reason: str, tool: str | None, index: int | None, pointer: str | None
) -> InvalidTools:
    return InvalidTools(format, reason, tool=tool, index=index, pointer=pointer)


class RenderError(ToolwireError, ValueError):
    """A reply or a result the target format cannot express, or a template that does not
    fill (a spec bug the loader could not see). ``format`` is the format rendered to."""

    code = "render_error"

    def __init__(self, format: str | None, reason: str) -> None:
        self.format = format
        self.reason = reason
        super().__init__(f"{format or 'render'}: {reason}")

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": str(self), "format": self.format,
                "reason": self.reason}


class IncompleteStream(ToolwireError):
    """The stream stopped (EOF, or a sentinel such as ``[DONE]``) before it completed."""

    code = "incomplete_stream"

    def __init__(
        self, format: str, reply: Reply | None, open_slots: int, last_event_type: Any,
        events: int,
    ) -> None:
        self.format = format
        self.reply = reply
        self.open_slots = open_slots
        self.last_event_type = last_event_type
        self.events = events
        last = (f"; last event {_provider_text(repr(last_event_type))}"
                if last_event_type is not None else "")
        self.summary = (f"{format}: the stream ended after {events} event(s) without its"
                        f" terminal signal ({open_slots} item(s) still open{last})")
        """What happened, without the advice (the command line gives its own)."""
        super().__init__(
            f"{self.summary}; use reply(allow_incomplete=True) to see the partial reply,"
            " whose unfinished calls are flagged incomplete"
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code, "message": str(self), "format": self.format,
            "open_slots": self.open_slots, "last_event_type": self.last_event_type,
            "events": self.events,
        }


class StreamError(ToolwireError):
    """The provider reported an error inside the stream (``event: error``, an error chunk)."""

    code = "stream_error"

    def __init__(
        self, format: str, error_code: Any, error_message: Any, reply: Reply | None,
        event_index: int,
    ) -> None:
        self.format = format
        self.error_code = error_code
        self.error_message = error_message
        self.reply = reply
        self.event_index = event_index
        said = error_message if isinstance(error_message, str) else str(error_message)
        super().__init__(
            f"{format}: the provider reported an error in event {event_index}:"
            f" {_provider_text(repr(error_code))}: {_provider_text(said)}"
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code, "message": str(self), "format": self.format,
            "error_code": self.error_code, "error_message": self.error_message,
            "event_index": self.event_index,
        }


class MalformedStream(ToolwireError, ValueError):
    """The events do not follow the format's stream (a spliced start, a delta for a closed
    block, an event after the end, a data line that is not JSON…)."""

    code = "malformed_stream"

    def __init__(self, format: str | None, reason: str, event_index: int | None = None,
                 rule: str | None = None, *, looks_like: str | None = None,
                 finished_reply: bool = False) -> None:
        self.format = format
        self.reason = reason
        self.event_index = event_index
        self.rule = rule
        self.looks_like = looks_like  # the format the refused event is (§9.14), if known
        self.finished_reply = finished_reply  # it is a finished reply: use read()
        where = f" event {event_index}" if event_index is not None else ""
        by = f" (rule {rule!r})" if rule else ""
        super().__init__(f"{format or 'stream'}{where}{by}: {reason}")

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code, "message": str(self), "format": self.format,
            "reason": self.reason, "event_index": self.event_index, "rule": self.rule,
            "looks_like": self.looks_like, "finished_reply": self.finished_reply,
        }


class UnsupportedStream(ToolwireError):
    """The stream uses a feature the format's spec refuses to accumulate."""

    code = "unsupported_stream"

    def __init__(self, format: str | None, reason: str, event_index: int | None = None) -> None:
        self.format = format
        self.reason = reason
        self.event_index = event_index
        where = f" event {event_index}" if event_index is not None else ""
        super().__init__(f"{format or 'stream'}{where}: {reason}")

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code, "message": str(self), "format": self.format,
            "reason": self.reason, "event_index": self.event_index,
        }


class NotJSONValue(ValueError):
    """A value no JSON text can hold, met while copying one: a list or object that holds
    itself, NaN or an infinity, an integer beyond the double range. JSON text holding such
    a number is refused (specs/README.md §1.4.1), so the same data given as a dict is
    refused too, rather than become a call that ``to_dict()`` cannot write back."""
