"""The compiled form of a wire spec: what the interpreter runs.

A :class:`WireSpec` is built once from a spec's validated data, with every JMESPath
expression compiled and the four item lists folded into one lookup table from item
type to candidate entries. Nothing here parses YAML or validates: :mod:`spec_loader`
does that first, so a ``WireSpec`` is always well formed and the interpreter never
meets a spec error at run time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from .expression import Expression, compile_expression

__all__ = [
    "KINDS",
    "CallEntry",
    "Entry",
    "IgnoreEntry",
    "Nested",
    "RefuseEntry",
    "ServerEntry",
    "Source",
    "WireSpec",
    "compile_wire_spec",
]

Kind = Literal["refuse", "calls", "server_side", "ignore"]

KINDS: Final[tuple[Kind, ...]] = ("refuse", "calls", "server_side", "ignore")
"""The four lists, in the order an item is matched against them: refusals first, so a
spec whose ``when`` predicates overlap fails closed rather than open."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of one of the four lists: where it stands and when it applies."""

    kind: Kind
    index: int
    type: str
    when: Expression | None

    @property
    def pointer(self) -> str:
        """The entry's JSON pointer in its spec, e.g. ``/calls/0``."""
        return f"/{self.kind}/{self.index}"


@dataclass(frozen=True, slots=True)
class CallEntry(Entry):
    """An item type that is a tool call the client executes."""

    name: Expression
    arguments: Expression
    id: Expression | None


@dataclass(frozen=True, slots=True)
class ServerEntry(Entry):
    """An item type that is a tool call the provider ran itself."""

    id: Expression
    name: Expression
    status: Expression


@dataclass(frozen=True, slots=True)
class IgnoreEntry(Entry):
    """An item type that is not a call."""


@dataclass(frozen=True, slots=True)
class RefuseEntry(Entry):
    """A client-actionable item type toolwire does not map."""

    reason: str


TypeOf = Callable[[dict[str, Any]], Any]


@dataclass(frozen=True, slots=True)
class Nested:
    """Items inside a parent item, walked right after it."""

    when: Expression
    select: Expression


@dataclass(frozen=True, slots=True)
class Source:
    """One place in the response where items are found, and how they are typed."""

    select: Expression
    single: bool
    type_of: TypeOf
    nested: tuple[Nested, ...]


@dataclass(frozen=True, slots=True)
class WireSpec:
    """A loaded, compiled wire spec."""

    format: str
    title: str
    doc_ref: str
    sources: tuple[Source, ...]
    unknown_items: Literal["refuse", "report"]
    table: Mapping[str, tuple[Entry, ...]]
    entries: tuple[Entry, ...]
    sniff: Expression | None = None
    sniff_priority: int = 0
    truncated: Expression | None = None
    finish_reason: Expression | None = None
    path: str = ""
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def entries_of(self, kind: Kind) -> tuple[Entry, ...]:
        """The entries of one list, in spec order."""
        return tuple(e for e in self.entries if e.kind == kind)


def _type_of(source: Mapping[str, Any]) -> TypeOf:
    """How a source's items are typed: by a field, by the first key present, or fixed."""
    if "type_const" in source:
        constant = source["type_const"]
        return lambda item: constant
    if "type_by_key" in source:
        keys = tuple(source["type_by_key"])

        def by_key(item: dict[str, Any]) -> Any:
            for key in keys:
                if item.get(key) is not None:
                    return key
            # None of the listed keys: name the item by its first non-null key, so an
            # unknown part is reported (or refused) under a name a reader can look up.
            for key, value in item.items():
                if value is not None:
                    return key
            return None

        return by_key
    type_field = source["type_field"]
    default = source.get("type_default")
    if default is None:
        return lambda item: item.get(type_field)

    def with_default(item: dict[str, Any]) -> Any:
        value = item.get(type_field)
        return default if value is None else value

    return with_default


def _optional(data: Mapping[str, Any], key: str, fallback: str | None = None) -> Expression | None:
    source = data.get(key, fallback)
    return None if source is None else compile_expression(source)


def _entry(kind: Kind, index: int, data: Mapping[str, Any]) -> Entry:
    common: dict[str, Any] = {
        "kind": kind,
        "index": index,
        "type": data["type"],
        "when": _optional(data, "when"),
    }
    if kind == "calls":
        return CallEntry(
            **common,
            name=compile_expression(data["name"]),
            arguments=compile_expression(data["arguments"]),
            id=_optional(data, "id"),
        )
    if kind == "server_side":
        return ServerEntry(
            **common,
            id=compile_expression(data.get("id", "id")),
            name=compile_expression(data.get("name", "name")),
            status=compile_expression(data.get("status", "status")),
        )
    if kind == "refuse":
        return RefuseEntry(**common, reason=data["reason"])
    return IgnoreEntry(**common)


def compile_wire_spec(data: Mapping[str, Any], path: str = "") -> WireSpec:
    """Compile validated spec data (see :func:`toolwire.spec_loader.check_wire_data`)."""
    entries = tuple(
        _entry(kind, index, entry)
        for kind in KINDS
        for index, entry in enumerate(data.get(kind) or ())
    )
    table: dict[str, list[Entry]] = {}
    for entry in entries:
        table.setdefault(entry.type, []).append(entry)
    sources = tuple(
        Source(
            select=compile_expression(source["select"]),
            single=bool(source.get("single", False)),
            type_of=_type_of(source),
            nested=tuple(
                Nested(compile_expression(n["when"]), compile_expression(n["select"]))
                for n in source.get("nested") or ()
            ),
        )
        for source in data["items"]
    )
    sniff = data.get("sniff")
    return WireSpec(
        format=data["format"],
        title=data["title"],
        doc_ref=data["doc_ref"],
        sources=sources,
        unknown_items=data["unknown_items"],
        table={key: tuple(value) for key, value in table.items()},
        entries=entries,
        sniff=compile_expression(sniff["when"]) if sniff else None,
        sniff_priority=int(sniff["priority"]) if sniff else 0,
        truncated=_optional(data, "truncated"),
        finish_reason=_optional(data, "finish_reason"),
        path=path,
        data=data,
    )
