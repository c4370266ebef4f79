"""The parts of a compiled wire spec: its entries, sources and optional parts.

Each is an immutable value built by :func:`~.wirespec.compile_wire_spec` from a spec's
validated data, every expression compiled; the interpreter reads them, never the data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .._expression import Expression
from .._speed import TYPE_CHECKING
from .._speed.record import Record, setfield

if TYPE_CHECKING:
    from typing import Any, Literal

    Kind = Literal["refuse", "calls", "server_side", "ignore"]
    TypeOf = Callable[[dict[str, Any]], Any]

__all__ = [
    "CallEntry",
    "Entry",
    "ErrorPart",
    "FailedCall",
    "IgnoreEntry",
    "Nested",
    "Normalize",
    "RefuseEntry",
    "RenderPart",
    "ServerEntry",
    "Shape",
    "Source",
    "UnlistedKey",
    "render_expressions",
]


class Entry(Record):
    """One entry of one of the four lists: where it stands and when it applies."""

    __slots__ = ("index", "kind", "type", "when")
    kind: Kind
    index: int
    type: str
    when: Expression | None

    def __init__(self, kind: Kind, index: int, type: str, when: Expression | None) -> None:
        setfield(self, "kind", kind)
        setfield(self, "index", index)
        setfield(self, "type", type)
        setfield(self, "when", when)

    @property
    def pointer(self) -> str:
        """The entry's JSON pointer in its spec, e.g. ``/calls/0``."""
        return f"/{self.kind}/{self.index}"


class CallEntry(Entry):
    """An item type that is a tool call the client executes.

    ``keep`` pairs each ``provider_data`` key with the expression that reads it off the
    item: what the provider needs back with the call on the next turn.
    """

    __slots__ = ("arguments", "id", "keep", "name")
    name: Expression
    arguments: Expression
    id: Expression | None
    keep: tuple[tuple[str, Expression], ...]

    def __init__(
        self, kind: Kind, index: int, type: str, when: Expression | None,
        name: Expression, arguments: Expression, id: Expression | None,
        keep: tuple[tuple[str, Expression], ...] = (),
    ) -> None:
        super().__init__(kind, index, type, when)
        setfield(self, "name", name)
        setfield(self, "arguments", arguments)
        setfield(self, "id", id)
        setfield(self, "keep", keep)


class ServerEntry(Entry):
    """An item type that is a tool call the provider ran itself."""

    __slots__ = ("id", "input", "name", "status")
    id: Expression
    name: Expression
    status: Expression
    input: Expression | None

    def __init__(
        self, kind: Kind, index: int, type: str, when: Expression | None,
        id: Expression, name: Expression, status: Expression, input: Expression | None = None,
    ) -> None:
        super().__init__(kind, index, type, when)
        setfield(self, "id", id)
        setfield(self, "name", name)
        setfield(self, "status", status)
        setfield(self, "input", input)


class IgnoreEntry(Entry):
    """An item type that is not a call."""

    __slots__ = ()


class RefuseEntry(Entry):
    """A client-actionable item type toolwire does not map."""

    __slots__ = ("reason",)
    reason: str

    def __init__(
        self, kind: Kind, index: int, type: str, when: Expression | None, reason: str
    ) -> None:
        super().__init__(kind, index, type, when)
        setfield(self, "reason", reason)


class UnlistedKey(str):
    """The name of an item that carries none of its source's ``type_by_key`` keys.

    Shown where unknown types are reported; never the type of an entry (the interpreter
    matches plain ``str`` types only), so such an item is always unknown.
    """

    __slots__ = ()


class Nested(Record):
    """Items inside a parent item, walked right after it."""

    __slots__ = ("select", "when")
    when: Expression
    select: Expression

    def __init__(self, when: Expression, select: Expression) -> None:
        setfield(self, "when", when)
        setfield(self, "select", select)


class Source(Record):
    """One place in the response where items are found, and how they are typed:
    ``type_of`` types an item; ``typing`` says how, for code generated from the spec —
    ``("type_const", the type, None)``, ``("type_by_key", the keys, None)`` or
    ``("type_field", the field, its type_default)``."""

    __slots__ = ("nested", "select", "single", "type_of", "typing")
    select: Expression
    single: bool
    type_of: TypeOf
    nested: tuple[Nested, ...]
    typing: tuple[str, Any, Any]

    def __init__(
        self, select: Expression, single: bool, type_of: TypeOf, nested: tuple[Nested, ...],
        typing: tuple[str, Any, Any] = ("type_field", "type", None),
    ) -> None:
        setfield(self, "select", select)
        setfield(self, "single", single)
        setfield(self, "type_of", type_of)
        setfield(self, "nested", nested)
        setfield(self, "typing", typing)


class Normalize(Record):
    """The ``normalize`` part: how an SDK's objects and dumps become this spec's wire JSON.

    ``detect`` holds on a reply written with the SDK's own keys, which ``aliases`` then
    rename (never inside the values of ``verbatim`` keys). Whether an object is a whole
    reply is the spec's :class:`Shape`, as for any response.
    """

    __slots__ = ("aliases", "call_keys", "detect", "verbatim")
    detect: Expression | None
    aliases: Mapping[str, str]
    verbatim: frozenset[str]
    call_keys: tuple[str, ...]

    def __init__(
        self, detect: Expression | None, aliases: Mapping[str, str],
        verbatim: frozenset[str], call_keys: tuple[str, ...],
    ) -> None:
        setfield(self, "detect", detect)
        setfield(self, "aliases", aliases)
        setfield(self, "verbatim", verbatim)
        setfield(self, "call_keys", call_keys)


class Shape(Record):
    """What every reply of the format looks like (specs/README.md §1.11): ``when`` holds on
    each, and ``needs`` says in words what a body failing it lacks. ``parts`` says what a
    part of such a reply looks like (a choice, a message, a content block), each as a
    predicate and the words naming it, so that a part passed for the whole reply is named."""

    __slots__ = ("needs", "parts", "when")
    when: Expression
    needs: str
    parts: tuple[tuple[Expression, str], ...]

    def __init__(
        self, when: Expression, needs: str, parts: tuple[tuple[Expression, str], ...] = ()
    ) -> None:
        setfield(self, "when", when)
        setfield(self, "needs", needs)
        setfield(self, "parts", tuple(parts))


class ErrorPart(Record):
    """The provider's error body (specs/README.md §1.12): where ``when`` holds, the body is
    an error, its facts read by ``message``, ``type``, ``code`` and the ``keep`` fields."""

    __slots__ = ("code", "keep", "message", "type", "when")
    when: Expression
    message: Expression
    type: Expression | None
    code: Expression | None
    keep: tuple[tuple[str, Expression], ...]

    def __init__(
        self, when: Expression, message: Expression, type: Expression | None,
        code: Expression | None, keep: tuple[tuple[str, Expression], ...],
    ) -> None:
        setfield(self, "when", when)
        setfield(self, "message", message)
        setfield(self, "type", type)
        setfield(self, "code", code)
        setfield(self, "keep", keep)


class FailedCall(Record):
    """A reply's word for a call the model attempted that did not come out
    (specs/README.md §1.13): where ``when`` holds, a ``skipped`` record of ``type``."""

    __slots__ = ("reason", "type", "when")
    when: Expression
    type: str
    reason: Expression | None

    def __init__(self, when: Expression, type: str, reason: Expression | None) -> None:
        setfield(self, "when", when)
        setfield(self, "type", type)
        setfield(self, "reason", reason)


class RenderPart(Record):
    """The ``render`` part: templates as written (plain JSON data) and every expression
    they hold (the ``${response:…}`` placeholders), compiled by source."""

    __slots__ = ("expressions", "templates")
    templates: Mapping[str, Any]
    expressions: Mapping[str, Expression]

    def __init__(self, templates: Mapping[str, Any], expressions: Mapping[str, Expression]) -> None:
        setfield(self, "templates", templates)
        setfield(self, "expressions", expressions)


def render_expressions(part: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The expressions of a ``render`` part as (JSON pointer, source): every
    ``${response:…}`` placeholder (specs/README.md §6.1)."""
    found: list[tuple[str, str]] = []
    stack: list[tuple[str, Any]] = [(f"/render/{k}", v) for k, v in part.items()]
    while stack:
        pointer, value = stack.pop()
        if isinstance(value, str) and value.startswith("${response:") and value.endswith("}"):
            found.append((pointer, value[len("${response:"):-1].rstrip("?").strip()))
        elif isinstance(value, dict):
            stack.extend((f"{pointer}/{_escape(k)}", v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((f"{pointer}/{i}", v) for i, v in enumerate(value))
    return sorted(found)


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")
