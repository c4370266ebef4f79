"""The canonical values toolwire hands over: :class:`ToolCall` and :class:`ServerToolCall`.

Both are immutable and compare by value. ``ToolCall.arguments`` returns a fresh copy on
every read, so no caller can change a call another caller holds: tool loops pass calls
between threads and keep them in traces, where shared mutable state would be a bug
nobody sees until it bites.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

from .arguments import decode_arguments

__all__ = ["ServerToolCall", "ToolCall", "copy_json", "id_text"]


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value (dicts and lists copied, scalars shared).

    Recursive for speed; falls back to an explicit stack for values nested deeper than
    the interpreter's recursion limit allows.
    """
    try:
        return _copy_recursive(value)
    except RecursionError:
        return _copy_iterative(value)


_SCALARS = frozenset({str, int, float, bool, type(None)})


def id_text(value: Any) -> str:
    """A provider's id as a ``ToolCall`` keeps it: a string as sent, a number as its
    decimal text (``12``, ``12.0`` → ``"12"``), anything else (null, a boolean) ``""``."""
    if type(value) is str:
        return value
    if value is None or type(value) is bool:
        return ""
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value)
    return ""


def _copy_recursive(value: Any) -> Any:
    # Most arguments are flat objects: when every value is a scalar (checked in C, by
    # exact type), a shallow copy is a deep one.
    if isinstance(value, dict):
        copied = dict(value)
        if not _SCALARS.issuperset(map(type, copied.values())):
            for k, v in copied.items():
                if isinstance(v, (dict, list)):
                    copied[k] = _copy_recursive(v)  # a value replaced, not a key added
        return copied
    if isinstance(value, list):
        if _SCALARS.issuperset(map(type, value)):
            return list(value)
        return [_copy_recursive(v) if isinstance(v, (dict, list)) else v for v in value]
    return value


def _copy_iterative(value: Any) -> Any:
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while stack:
        source, parent, key = stack.pop()
        if isinstance(source, dict):
            copied: Any = {}
            for k, v in source.items():
                copied[k] = None
                stack.append((v, copied, k))
        elif isinstance(source, list):
            copied = [None] * len(source)
            for i, v in enumerate(source):
                stack.append((v, copied, i))
        else:
            copied = source
        parent[key] = copied
    return root[0]


def _equal(left: Any, right: Any) -> bool:
    """``left == right`` for JSON values, with an explicit stack instead of recursion."""
    stack = [(left, right)]
    while stack:
        a, b = stack.pop()
        if isinstance(a, dict) and isinstance(b, dict):
            if a.keys() != b.keys():
                return False
            stack.extend((a[k], b[k]) for k in a)
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                return False
            stack.extend(zip(a, b, strict=True))
        elif isinstance(a, (dict, list)) or isinstance(b, (dict, list)) or a != b:
            return False
    return True


class ToolCall:
    """One tool call the client must execute.

    ``name`` is never empty; ``id`` is the provider's id exactly as sent (``""`` when
    it sent none); ``synthetic`` marks a call toolwire made up (a forced tool answered
    through a response format); ``arguments_undecodable`` and ``arguments_error`` say
    that the raw arguments were not a JSON object, and why.
    """

    __slots__ = (
        "_arguments", "arguments_error", "arguments_undecodable", "id", "name", "synthetic",
    )

    name: str
    id: str
    synthetic: bool
    arguments_undecodable: bool
    arguments_error: str | None
    _arguments: dict[str, Any]

    def __init__(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        id: str = "",
        *,
        synthetic: bool = False,
        arguments_undecodable: bool = False,
        arguments_error: str | None = None,
    ) -> None:
        if not isinstance(name, str) or not name:
            raise ValueError(f"ToolCall name must be a non-empty str, not {name!r}")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, Mapping):
            raise TypeError(
                f"ToolCall arguments must be a JSON object (dict), not {type(arguments).__name__};"
                " use ToolCall.from_raw() to decode provider text"
            )
        if not isinstance(id, str):
            raise TypeError(f"ToolCall id must be a str, not {type(id).__name__}")
        if arguments_error is not None and not isinstance(arguments_error, str):
            raise TypeError("ToolCall arguments_error must be a str or None")
        setter = object.__setattr__
        setter(self, "name", name)
        setter(self, "_arguments", copy_json(dict(arguments)))
        setter(self, "id", id)
        setter(self, "synthetic", bool(synthetic))
        setter(self, "arguments_undecodable", bool(arguments_undecodable))
        setter(self, "arguments_error", arguments_error)

    @classmethod
    def from_raw(
        cls, name: str, raw_arguments: Any = None, id: str = "", *, synthetic: bool = False
    ) -> ToolCall:
        """Build a call from a provider's raw arguments, applying the decoding table."""
        arguments, undecodable, error = decode_arguments(raw_arguments)
        return cls(
            name,
            arguments,
            id,
            synthetic=synthetic,
            arguments_undecodable=undecodable,
            arguments_error=error,
        )

    @classmethod
    def _trusted(
        cls,
        name: str,
        arguments: dict[str, Any],
        id: str,
        undecodable: bool,
        error: str | None,
    ) -> ToolCall:
        """The interpreter's constructor: values already checked, ``arguments`` owned.

        Sets the slots through their descriptors (see ``_SET_*`` below), which skips
        ``__setattr__``'s refusal as ``object.__setattr__`` does, at half the cost.
        """
        call = _new(cls)
        _SET_NAME(call, name)
        _SET_ARGUMENTS(call, arguments)
        _SET_ID(call, id)
        _SET_SYNTHETIC(call, False)
        _SET_UNDECODABLE(call, undecodable)
        _SET_ERROR(call, error)
        return call

    @property
    def arguments(self) -> dict[str, Any]:
        """The arguments as a JSON object: a fresh copy on every read."""
        return copy_json(self._arguments)  # type: ignore[no-any-return]

    def __setattr__(self, key: str, value: object) -> NoReturn:
        raise AttributeError(f"ToolCall is immutable; cannot set {key!r}")

    def __delattr__(self, key: str) -> NoReturn:
        raise AttributeError(f"ToolCall is immutable; cannot delete {key!r}")

    def _key(self) -> tuple[object, ...]:
        return (
            self.name,
            self._arguments,
            self.id,
            self.synthetic,
            self.arguments_undecodable,
            self.arguments_error,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToolCall):
            return NotImplemented
        mine, theirs = self._key(), other._key()
        try:
            return mine == theirs
        except RecursionError:  # arguments nested deeper than the stack: compare by hand
            return mine[0] == theirs[0] and mine[2:] == theirs[2:] and _equal(mine[1], theirs[1])

    def __hash__(self) -> int:
        # Not the arguments: hashing them recurses (a hostile reply nests them 100,000
        # deep) and fails on keys that do not sort; equal calls still hash equal.
        return hash((self.name, self.id, self.synthetic, self.arguments_undecodable))

    def __repr__(self) -> str:
        extra = ""
        if self.synthetic:
            extra += ", synthetic=True"
        if self.arguments_undecodable:
            extra += f", arguments_undecodable=True, arguments_error={self.arguments_error!r}"
        try:
            arguments = repr(self._arguments)
        except RecursionError:
            arguments = "{...}"  # nested too deep to show; to_dict() still has it all
        return f"ToolCall(name={self.name!r}, arguments={arguments}, id={self.id!r}{extra})"

    def __copy__(self) -> ToolCall:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> ToolCall:
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (ToolCall.from_dict, (self.to_dict(),))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data; always carries ``synthetic`` and ``arguments_undecodable``."""
        data: dict[str, Any] = {
            "name": self.name,
            "arguments": copy_json(self._arguments),
            "id": self.id,
            "synthetic": self.synthetic,
            "arguments_undecodable": self.arguments_undecodable,
        }
        if self.arguments_error is not None:
            data["arguments_error"] = self.arguments_error
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ToolCall:
        """The inverse of :meth:`to_dict`; rejects unknown keys so typos do not pass."""
        if not isinstance(data, Mapping):
            raise TypeError(f"ToolCall.from_dict takes a mapping, not {type(data).__name__}")
        unknown = set(data) - _DICT_KEYS
        if unknown:
            raise ValueError(f"ToolCall.from_dict: unknown keys {sorted(unknown)}")
        if "name" not in data:
            raise ValueError("ToolCall.from_dict: 'name' is required")
        return cls(
            data["name"],
            data.get("arguments") or {},
            data.get("id", ""),
            synthetic=data.get("synthetic", False),
            arguments_undecodable=data.get("arguments_undecodable", False),
            arguments_error=data.get("arguments_error"),
        )


_new = object.__new__
_SET_NAME, _SET_ARGUMENTS, _SET_ID, _SET_SYNTHETIC, _SET_UNDECODABLE, _SET_ERROR = (
    ToolCall.__dict__[slot].__set__
    for slot in (
        "name", "_arguments", "id", "synthetic", "arguments_undecodable", "arguments_error"
    )
)

_DICT_KEYS = frozenset(
        {"name", "arguments", "id", "synthetic", "arguments_undecodable", "arguments_error"}
)


class ServerToolCall:
    """A tool call the provider ran itself (web search, code execution, hosted MCP…).

    Kept apart from :class:`ToolCall` so a client loop never tries to answer it, yet
    reported so a trace shows what ran. ``raw`` is a copy of the provider's item.
    """

    __slots__ = ("_raw", "id", "name", "status", "type")

    type: str
    id: str
    name: str | None
    status: str | None
    _raw: Any

    def __init__(
        self, type: str, id: str = "", name: str | None = None, status: str | None = None,
        raw: Any = None,
    ) -> None:
        setter = object.__setattr__
        setter(self, "type", type)
        setter(self, "id", id)
        setter(self, "name", name)
        setter(self, "status", status)
        setter(self, "_raw", copy_json(raw))

    @property
    def raw(self) -> Any:
        """The provider's item as sent: a fresh copy on every read."""
        return copy_json(self._raw)

    def __setattr__(self, key: str, value: object) -> NoReturn:
        raise AttributeError(f"ServerToolCall is immutable; cannot set {key!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ServerToolCall):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash((self.type, self.id, self.name, self.status))

    def __repr__(self) -> str:
        return (
            f"ServerToolCall(type={self.type!r}, id={self.id!r}, name={self.name!r},"
            f" status={self.status!r})"
        )

    def to_dict(self, *, raw: bool = False) -> dict[str, Any]:
        """JSON-ready data; the provider's raw item only when asked for."""
        data: dict[str, Any] = {"type": self.type, "id": self.id}
        if self.name is not None:
            data["name"] = self.name
        if self.status is not None:
            data["status"] = self.status
        if raw:
            data["raw"] = copy_json(self._raw)
        return data
