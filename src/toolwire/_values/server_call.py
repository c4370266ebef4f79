"""A tool call the provider ran itself: :class:`ServerToolCall`, reported, never answered."""

from __future__ import annotations

from collections.abc import Mapping

from .._speed import TYPE_CHECKING
from .json_values import copy_json, json_equal

if TYPE_CHECKING:
    from typing import Any, NoReturn

__all__ = ["ServerToolCall"]


class ServerToolCall:
    """A tool call the provider ran itself (web search, code execution, hosted MCP…).

    Kept apart from :class:`ToolCall` so a client loop never tries to answer it, yet
    reported so a trace shows what ran. ``input`` is what the tool was run on, as the
    spec's ``input`` selector reads it (a web search's query, the code executed, a
    hosted MCP tool's arguments; ``None`` where the spec declares none or the item
    carries none). ``raw`` is a copy of the provider's item.
    """

    __module__ = "toolwire"  # the published name: reprs, pickles and docs show it

    __slots__ = ("_input", "_raw", "id", "name", "status", "type")

    type: str
    id: str
    name: str | None
    status: str | None
    _raw: Any
    _input: Any

    def __init__(
        self, type: str, id: str = "", name: str | None = None, status: str | None = None,
        raw: Any = None, input: Any = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "type", type)
        setter(self, "id", id)
        setter(self, "name", name)
        setter(self, "status", status)
        setter(self, "_raw", copy_json(raw))
        setter(self, "_input", copy_json(input))

    @property
    def raw(self) -> Any:
        """The provider's item as sent: a fresh copy on every read."""
        return copy_json(self._raw)

    @property
    def input(self) -> Any:
        """What the tool ran on (a JSON value or ``None``): a fresh copy on every read."""
        return copy_json(self._input)

    def __setattr__(self, key: str, value: object) -> NoReturn:
        raise AttributeError(f"ServerToolCall is immutable; cannot set {key!r}")

    # Immutable, so a copy may be the value itself (as with ToolCall); pickling goes
    # through the constructor, since the default slot-state path sets attributes.
    def __copy__(self) -> ServerToolCall:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> ServerToolCall:
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.type, self.id, self.name, self.status, self._raw, self._input))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ServerToolCall):
            return NotImplemented
        mine = (self.type, self.id, self.name, self.status)
        if mine != (other.type, other.id, other.name, other.status):
            return False
        try:
            return bool(self._input == other._input)
        except RecursionError:  # an input nested deeper than the stack: compare by hand
            return json_equal(self._input, other._input)

    def __hash__(self) -> int:
        return hash((self.type, self.id, self.name, self.status))

    def __repr__(self) -> str:
        try:
            extra = "" if self._input is None else f", input={self._input!r}"
        except RecursionError:
            extra = ", input={...}"  # nested too deep to show; to_dict() still has it all
        return (
            f"ServerToolCall(type={self.type!r}, id={self.id!r}, name={self.name!r},"
            f" status={self.status!r}{extra})"
        )

    def to_dict(self, *, raw: bool = False) -> dict[str, Any]:
        """JSON-ready data: ``type``, ``id``, and ``name``, ``status``, ``input`` when not
        null; the provider's raw item only when asked for."""
        data: dict[str, Any] = {"type": self.type, "id": self.id}
        if self.name is not None:
            data["name"] = self.name
        if self.status is not None:
            data["status"] = self.status
        if self._input is not None:
            data["input"] = copy_json(self._input)
        if raw:
            data["raw"] = copy_json(self._raw)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ServerToolCall:
        """The inverse of :meth:`to_dict` (with or without ``raw``); unknown keys refused."""
        if not isinstance(data, Mapping):
            raise TypeError(f"ServerToolCall.from_dict takes a mapping, not {type(data).__name__}")
        unknown = set(data) - {"type", "id", "name", "status", "input", "raw"}
        if unknown:
            raise ValueError(f"ServerToolCall.from_dict: unknown keys {sorted(unknown)}")
        if not isinstance(data.get("type"), str):
            raise ValueError("ServerToolCall.from_dict: 'type' must be a str")
        return cls(
            data["type"], data.get("id", ""), data.get("name"), data.get("status"),
            data.get("raw"), data.get("input"),
        )
