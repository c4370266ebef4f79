"""The errors toolwire raises, as data with a stable ``code``.

Every error a caller can meet derives from :class:`ToolwireError`; each class carries
a ``code`` that never changes between releases, and the facts of the failure as
attributes, so that callers and tests branch on data rather than on message text::

    ToolwireError                     code
    ├── UnknownFormat                 "unknown_format"     no spec of that name
    ├── UnmappedCall                  "unmapped_call"      the client must act, no mapping
    │   └── UnknownItemType           "unknown_item_type"  a type no list of the spec names
    ├── MalformedResponse             "malformed_response" the reply is not of the format's shape
    ├── ProviderError                 "provider_error"     the body is the provider's error
    ├── NotDeclared                   "not_declared"       the spec declares no such part
    ├── RegexBudgetExceeded           "regex_budget"       a pattern ran out of steps on text
    └── SpecError                     "spec_error"         a spec failed to load; see .problems

A :class:`SpecError` gathers every :class:`SpecProblem` of a load at once, each with
the file, line, column, JSON pointer and the ``rule`` it broke.
"""

from __future__ import annotations

# collections.abc without importing the collections package: a cold start (issue 9.15)
from _collections_abc import Iterable

from ._speed.record import Record, setfield

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from typing import Any

    from ._values.reply import Reply
    from ._values.text_reply import TextReply

__all__ = [
    "MalformedResponse",
    "NotDeclared",
    "ProviderError",
    "RegexBudgetExceeded",
    "SpecError",
    "SpecProblem",
    "ToolwireError",
    "UnknownFormat",
    "UnknownItemType",
    "UnmappedCall",
]


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

    def __init__(self, format: str | None, known: Iterable[str] = ()) -> None:
        self.format = format
        self.known = tuple(sorted(known))
        hint = f"; known formats: {', '.join(self.known)}" if self.known else ""
        if format is None:
            super().__init__(f"no format recognises this response's shape{hint}")
        else:
            super().__init__(f"unknown format {format!r}{hint}")

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": str(self), "format": self.format}


class UnmappedCall(ToolwireError):
    """An item the client must answer, which the format's spec refuses to map.

    Raised instead of returning fewer calls: a loop that silently skipped the item
    would take the reply for "the model is done" while the model waits for an answer.
    The error describes the first such item; ``reply`` (when raised by ``read``,
    ``extract`` or ``locate``) is the partial :class:`~toolwire.Reply` of the whole
    response — every call, server call and record, and in ``reply.refused`` every refused
    item with its reason — so a loop can answer what it can and report the rest. Raised
    by ``read_text`` (a Harmony message to a built-in tool), ``reply`` is the partial
    :class:`~toolwire.text.TextReply`, ``item_index`` 0 and ``location`` the message's
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
            f"{format}: item {item_index}{where} of type {item_type!r} is not mapped: {reason}"
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
        kind = ", ".join(f"{k} {v}" for k, v in (("type", error_type), ("code", error_code))
                         if v is not None)
        said = " ".join((error_message or "(no message)").split())  # one line
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
    linear-time engine, and the few that need backtracking (back-references, atomic
    groups) stop after ``steps`` steps (README "Guarantees"). ``pattern`` is the pattern.
    """

    code = "regex_budget"

    def __init__(self, pattern: str, steps: int) -> None:
        self.pattern = pattern
        self.steps = steps
        super().__init__(
            f"the regular expression {pattern!r} needed more than {steps:,} steps on this"
            " text (back-references, atomic groups and look-arounds can)"
        )

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": str(self), "pattern": self.pattern,
                "steps": self.steps}


class SpecProblem(Record):
    """One thing wrong with a spec, located to the character.

    ``rule`` is a stable code (``unknown-key``, ``duplicate-key``, ``bad-expression``,
    …) listed in ``specs/README.md``; ``pointer`` is the JSON pointer of the offending
    value inside the spec; ``line`` and ``col`` are 1-based (0 when unknown). An
    immutable value (:class:`toolwire._record.Record`, not a dataclass: see there why).
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
