"""The canonical value toolwire hands over: :class:`ToolCall` (and :class:`ArgumentError`,
one way its arguments fail the offered tool's schema).

A call is immutable and compares by value. ``ToolCall.arguments`` returns a fresh copy on
every read, so no caller can change a call another caller holds: tool loops pass calls
between threads and keep them in traces, where shared mutable state would be a bug
nobody sees until it bites.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .._speed import TYPE_CHECKING, blank_of
from .._speed.record import Record, setfield
from .arguments import decode_arguments_coded
from .json_values import copy_json, json_equal

if TYPE_CHECKING:
    from typing import Any, NoReturn

__all__ = ["PLAIN", "ArgumentError", "ToolCall", "ToolCallBlank", "rare_of"]


class ArgumentError(Record):
    """One way a call's arguments fail the offered tool's schema.

    ``pointer`` is the JSON pointer of the failing value inside the arguments (``""``
    for the whole object), ``keyword`` the schema keyword that failed (``required``,
    ``type``, ``enum``…), ``message`` a sentence for the model to read.
    """

    __module__ = "toolwire.types"  # the published name: reprs, pickles and docs show it

    __slots__ = ("keyword", "message", "pointer")
    pointer: str
    keyword: str
    message: str

    def __init__(self, pointer: str, keyword: str, message: str) -> None:
        setfield(self, "pointer", pointer)
        setfield(self, "keyword", keyword)
        setfield(self, "message", message)

    def to_dict(self) -> dict[str, str]:
        return {"pointer": self.pointer, "keyword": self.keyword, "message": self.message}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ArgumentError:
        unknown = set(data) - {"pointer", "keyword", "message"}
        if unknown:
            raise ValueError(f"ArgumentError.from_dict: unknown keys {sorted(unknown)}")
        return cls(str(data["pointer"]), str(data["keyword"]), str(data["message"]))


class ToolCall:
    """One tool call the client must execute.

    ``name`` is never empty; ``id`` is the provider's id exactly as sent (``""`` when
    it sent none); ``synthetic`` marks a call toolwire made up (a forced tool answered
    through a response format); ``arguments_undecodable``, ``arguments_error`` and its
    stable ``arguments_error_code`` say that the raw arguments were not a JSON object,
    and why.

    Beyond those: ``provider_data`` holds what the provider needs back on the next turn
    (a Gemini thought signature, a Responses item id); ``unknown_tool``,
    ``arguments_invalid`` and ``arguments_errors`` are the verdict of a check against
    the tools the request offered; ``incomplete`` marks a streamed call whose end never
    arrived. ``raw_arguments`` (the arguments exactly as sent) and ``item_index`` (where
    the call's item stood in the reply) record provenance: they are kept and serialised,
    but two calls that say the same thing compare equal whatever their provenance.
    """

    __module__ = "toolwire"  # the published name: reprs, pickles and docs show it

    # A reply's calls are built by the thousand, so the fast constructors write the slots
    # on a ``ToolCallBlank`` (below) rather than through this class's refusing
    # ``__setattr__``, and there are few slots: the fields every call sets have a slot
    # each; the fields that are their default on nearly every call (the flags, the error,
    # the provider data, the verdicts) share one slot, ``_rare``: a tuple in ``_RARE``
    # order, the one shared constant ``PLAIN`` for a call whose arguments decoded. Read
    # through properties, they behave as the fields they were.
    __slots__ = ("_arguments", "_rare", "_raw_arguments", "id", "item_index", "name")

    name: str
    id: str
    item_index: int | None
    _arguments: dict[str, Any]
    _raw_arguments: Any
    _rare: tuple[Any, ...]

    def __init__(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        id: str = "",
        *,
        synthetic: bool = False,
        arguments_undecodable: bool = False,
        arguments_error: str | None = None,
        arguments_error_code: str | None = None,
        raw_arguments: Any = None,
        provider_data: Mapping[str, Any] | None = None,
        item_index: int | None = None,
        arguments_invalid: bool = False,
        arguments_errors: tuple[ArgumentError, ...] = (),
        unknown_tool: bool = False,
        incomplete: bool = False,
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
        if arguments_error_code is not None and not isinstance(arguments_error_code, str):
            raise TypeError("ToolCall arguments_error_code must be a str or None")
        if provider_data is not None and not isinstance(provider_data, Mapping):
            raise TypeError("ToolCall provider_data must be a mapping or None")
        if item_index is not None and (type(item_index) is not int or item_index < 0):
            raise TypeError("ToolCall item_index must be a non-negative int or None")
        if not all(isinstance(e, ArgumentError) for e in arguments_errors):
            raise TypeError("ToolCall arguments_errors must hold ArgumentError values")
        setter = object.__setattr__
        setter(self, "name", name)
        setter(self, "_arguments", copy_json(dict(arguments)))
        setter(self, "id", id)
        setter(self, "_raw_arguments", copy_json(raw_arguments))
        setter(self, "item_index", item_index)
        rare = (
            bool(synthetic), bool(arguments_undecodable), arguments_error, arguments_error_code,
            copy_json(dict(provider_data)) if provider_data else None, bool(arguments_invalid),
            tuple(arguments_errors), bool(unknown_tool), bool(incomplete),
        )
        setter(self, "_rare", PLAIN if rare == PLAIN else rare)

    # The fields kept in ``_rare`` (see ``__slots__``), in ``_RARE`` order.
    @property
    def synthetic(self) -> bool:
        """Whether toolwire made this call up (a forced tool answered as structured output)."""
        return self._rare[0]  # type: ignore[no-any-return]

    @property
    def arguments_undecodable(self) -> bool:
        """Whether the raw arguments were not a JSON object (see ``arguments_error``)."""
        return self._rare[1]  # type: ignore[no-any-return]

    @property
    def arguments_error(self) -> str | None:
        """Why the arguments did not decode, for people; None when they did."""
        return self._rare[2]  # type: ignore[no-any-return]

    @property
    def arguments_error_code(self) -> str | None:
        """The stable code of ``arguments_error`` (specs/README.md §1.4.1)."""
        return self._rare[3]  # type: ignore[no-any-return]

    @property
    def arguments_invalid(self) -> bool:
        """Whether the arguments fail the offered tool's schema (see ``arguments_errors``)."""
        return self._rare[5]  # type: ignore[no-any-return]

    @property
    def arguments_errors(self) -> tuple[ArgumentError, ...]:
        """How the arguments fail the offered tool's schema, one value per failure."""
        return self._rare[6]  # type: ignore[no-any-return]

    @property
    def unknown_tool(self) -> bool:
        """Whether the call names a tool the request did not offer."""
        return self._rare[7]  # type: ignore[no-any-return]

    @property
    def incomplete(self) -> bool:
        """Whether a streamed call's end never arrived."""
        return self._rare[8]  # type: ignore[no-any-return]

    @property
    def _provider_data(self) -> dict[str, Any] | None:
        return self._rare[4]  # type: ignore[no-any-return]

    @classmethod
    def from_raw(
        cls, name: str, raw_arguments: Any = None, id: str = "", *, synthetic: bool = False
    ) -> ToolCall:
        """Build a call from a provider's raw arguments, applying the decoding table."""
        arguments, undecodable, error, code = decode_arguments_coded(raw_arguments)
        return cls(
            name,
            arguments,
            id,
            synthetic=synthetic,
            arguments_undecodable=undecodable,
            arguments_error=error,
            arguments_error_code=code,
        )

    @classmethod
    def _trusted(
        cls,
        name: str,
        arguments: dict[str, Any],
        id: str,
        undecodable: bool,
        error: str | None,
        error_code: str | None = None,
        raw: Any = None,
        provider_data: dict[str, Any] | None = None,
        item_index: int | None = None,
    ) -> ToolCall:
        """The interpreter's constructor: values already checked, ``arguments`` owned.

        ``raw`` and ``provider_data`` are owned too (``raw`` may be the very object
        ``arguments`` is: neither is ever handed out uncopied).

        The slots are filled in on a :data:`ToolCallBlank`, which then becomes a
        ``ToolCall`` (:func:`toolwire._speed.blank_of` says why and what it buys).
        """
        if cls is not ToolCall:  # a subclass may lay its slots out otherwise
            return cls._trusted_slow(
                name, arguments, id, undecodable, error, error_code, raw, provider_data,
                item_index,
            )
        call = _new(ToolCallBlank)
        call.name = name
        call._arguments = arguments
        call.id = id
        call._raw_arguments = raw
        call.item_index = item_index
        call._rare = (
            PLAIN if not undecodable and provider_data is None
            else rare_of(undecodable, error, error_code, provider_data)
        )
        call.__class__ = ToolCall  # same layout: see toolwire._speed.blank_of
        return call  # type: ignore[no-any-return]  # it is a ToolCall now

    @classmethod
    def _trusted_slow(
        cls,
        name: str,
        arguments: dict[str, Any],
        id: str,
        undecodable: bool,
        error: str | None,
        error_code: str | None,
        raw: Any,
        provider_data: dict[str, Any] | None,
        item_index: int | None,
    ) -> ToolCall:
        """:meth:`_trusted` for a subclass: each slot set through its descriptor."""
        call = _new(cls)
        _SET_NAME(call, name)
        _SET_ARGUMENTS(call, arguments)
        _SET_ID(call, id)
        _SET_RAW(call, raw)
        _SET_ITEM_INDEX(call, item_index)
        _SET_RARE(call, (
            PLAIN if not undecodable and provider_data is None
            else rare_of(undecodable, error, error_code, provider_data)
        ))
        return call

    def replace(self, **changes: Any) -> ToolCall:
        """A copy with some fields changed (as ``dataclasses.replace``), checked as new."""
        data = self._fields_dict()
        unknown = set(changes) - set(data)
        if unknown:
            raise TypeError(f"ToolCall.replace: unknown fields {sorted(unknown)}")
        data.update(changes)
        return ToolCall(**data)

    def _fields_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "arguments": self._arguments,
            "id": self.id,
            "synthetic": self.synthetic,
            "arguments_undecodable": self.arguments_undecodable,
            "arguments_error": self.arguments_error,
            "arguments_error_code": self.arguments_error_code,
            "raw_arguments": self._raw_arguments,
            "provider_data": self._provider_data,
            "item_index": self.item_index,
            "arguments_invalid": self.arguments_invalid,
            "arguments_errors": self.arguments_errors,
            "unknown_tool": self.unknown_tool,
            "incomplete": self.incomplete,
        }

    @property
    def raw_arguments(self) -> Any:
        """The arguments exactly as the provider sent them (a str or a JSON value), or
        ``None`` where nobody recorded them: a fresh copy on every read."""
        return copy_json(self._raw_arguments)

    @property
    def provider_data(self) -> Mapping[str, Any]:
        """What the provider needs back with this call, read-only (empty when none)."""
        return MappingProxyType(copy_json(self._provider_data) if self._provider_data else {})

    @property
    def arguments(self) -> dict[str, Any]:
        """The arguments as a JSON object: a fresh copy on every read."""
        return copy_json(self._arguments)  # type: ignore[no-any-return]

    def __setattr__(self, key: str, value: object) -> NoReturn:
        raise AttributeError(f"ToolCall is immutable; cannot set {key!r}")

    def __delattr__(self, key: str) -> NoReturn:
        raise AttributeError(f"ToolCall is immutable; cannot delete {key!r}")

    def _key(self) -> tuple[object, ...]:
        # The arguments second: __eq__ compares them by hand when they nest too deep.
        # raw_arguments and item_index are provenance, left out (see the class docstring).
        return (self.name, self._arguments, self.id, self._rare)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToolCall):
            return NotImplemented
        mine, theirs = self._key(), other._key()
        try:
            return mine == theirs
        except RecursionError:  # arguments nested deeper than the stack: compare by hand
            return (mine[0] == theirs[0] and mine[2:] == theirs[2:]
                    and json_equal(mine[1], theirs[1]))

    def __hash__(self) -> int:
        # Not the arguments: hashing them recurses (a hostile reply nests them 100,000
        # deep) and fails on keys that do not sort; equal calls still hash equal.
        rare = self._rare
        return hash((self.name, self.id, rare[0], rare[1]))

    def __repr__(self) -> str:
        extra = ""
        if self.synthetic:
            extra += ", synthetic=True"
        if self.arguments_undecodable:
            extra += f", arguments_undecodable=True, arguments_error={self.arguments_error!r}"
        if self.unknown_tool:
            extra += ", unknown_tool=True"
        if self.arguments_invalid:
            extra += f", arguments_invalid=True, arguments_errors={self.arguments_errors!r}"
        if self.incomplete:
            extra += ", incomplete=True"
        try:
            arguments = repr(self._arguments)
        except RecursionError:
            arguments = "{...}"  # nested too deep to show; to_dict() still has it all
        return f"ToolCall(name={self.name!r}, arguments={arguments}, id={self.id!r}{extra})"

    def __copy__(self) -> ToolCall:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> ToolCall:
        return self

    # A pickle names the class by its published module and the fields by their public
    # names (not the slot layout), so a module move or a new field leaves stored pickles
    # loadable; on the way in nothing is re-validated or copied (the values were checked
    # and owned when this call was made).
    def __getstate__(self) -> dict[str, Any]:
        state = {"name": self.name, "arguments": self._arguments, "id": self.id,
                 "raw_arguments": self._raw_arguments, "item_index": self.item_index}
        if self._rare is not PLAIN:
            state.update(zip(_RARE_NAMES, self._rare, strict=True))
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        unknown = set(state) - _STATE_NAMES
        if unknown or "name" not in state:
            raise ValueError(f"a pickled ToolCall does not fit this toolwire's: unknown fields"
                             f" {sorted(unknown)}" + ("" if "name" in state else ", no name"))
        setter = object.__setattr__
        setter(self, "name", state["name"])
        setter(self, "_arguments", state.get("arguments", {}))
        setter(self, "id", state.get("id", ""))
        setter(self, "_raw_arguments", state.get("raw_arguments"))
        setter(self, "item_index", state.get("item_index"))
        rare = tuple(state.get(name, default) for name, default in zip(
            _RARE_NAMES, PLAIN, strict=True))
        setter(self, "_rare", PLAIN if rare == PLAIN else rare)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data; always carries ``synthetic`` and ``arguments_undecodable``,
        and every other field whenever it is set (not its default)."""
        data: dict[str, Any] = {
            "name": self.name,
            "arguments": copy_json(self._arguments),
            "id": self.id,
            "synthetic": self.synthetic,
            "arguments_undecodable": self.arguments_undecodable,
        }
        if self.arguments_error is not None:
            data["arguments_error"] = self.arguments_error
        if self.arguments_error_code is not None:
            data["arguments_error_code"] = self.arguments_error_code
        if self.unknown_tool:
            data["unknown_tool"] = True
        if self.arguments_invalid:
            data["arguments_invalid"] = True
        if self.arguments_errors:  # an unknown tool's one error names the offered tools
            data["arguments_errors"] = [e.to_dict() for e in self.arguments_errors]
        if self.incomplete:
            data["incomplete"] = True
        if self._provider_data:
            data["provider_data"] = copy_json(self._provider_data)
        if self._raw_arguments is not None:
            data["raw_arguments"] = copy_json(self._raw_arguments)
        if self.item_index is not None:
            data["item_index"] = self.item_index
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
        errors = data.get("arguments_errors") or ()
        if not isinstance(errors, (list, tuple)):
            raise TypeError("ToolCall.from_dict: 'arguments_errors' must be a list")
        return cls(
            data["name"],
            data.get("arguments") or {},
            data.get("id", ""),
            synthetic=data.get("synthetic", False),
            arguments_undecodable=data.get("arguments_undecodable", False),
            arguments_error=data.get("arguments_error"),
            arguments_error_code=data.get("arguments_error_code"),
            raw_arguments=data.get("raw_arguments"),
            provider_data=data.get("provider_data"),
            item_index=data.get("item_index"),
            arguments_invalid=data.get("arguments_invalid", False),
            arguments_errors=tuple(
                e if isinstance(e, ArgumentError) else ArgumentError.from_dict(e) for e in errors
            ),
            unknown_tool=data.get("unknown_tool", False),
            incomplete=data.get("incomplete", False),
        )


def rare_of(
    undecodable: bool, error: str | None, error_code: str | None,
    provider_data: dict[str, Any] | None,
) -> tuple[Any, ...]:
    """A ``ToolCall``'s ``_rare`` slot for the fields the extractors set (in ``_RARE``
    order); ``provider_data`` owned, ``None`` or non-empty."""
    if not undecodable and provider_data is None:
        return PLAIN
    return (False, undecodable, error, error_code, provider_data or None, False, (), False,
            False)


_new = object.__new__
_SET_NAME, _SET_ARGUMENTS, _SET_ID, _SET_RAW, _SET_ITEM_INDEX, _SET_RARE = (
    ToolCall.__dict__[slot].__set__
    for slot in ("name", "_arguments", "id", "_raw_arguments", "item_index", "_rare")
)

_RARE = (
    "synthetic", "arguments_undecodable", "arguments_error", "arguments_error_code",
    "provider_data", "arguments_invalid", "arguments_errors", "unknown_tool", "incomplete",
)
"""The fields a ToolCall keeps in its ``_rare`` slot, in order."""

PLAIN: tuple[Any, ...] = (False, False, None, None, None, False, (), False, False)
"""``_rare`` of a call whose arguments decoded: every rare field at its default."""

ToolCallBlank = blank_of(ToolCall)
"""A ``ToolCall``'s slots, writable: where the fast constructors (here and in the generated
extract code) build a call before it becomes a ``ToolCall``."""

_SLOT_NAMES = ToolCall.__slots__
_SLOT_SETTERS = tuple(ToolCall.__dict__[slot].__set__ for slot in _SLOT_NAMES)


_RARE_NAMES = (
    "synthetic", "arguments_undecodable", "arguments_error", "arguments_error_code",
    "provider_data", "arguments_invalid", "arguments_errors", "unknown_tool", "incomplete",
)
"""The fields ``_rare`` holds, in its order (``PLAIN`` holds each one's default)."""
_STATE_NAMES = frozenset(("name", "arguments", "id", "raw_arguments", "item_index",
                          *_RARE_NAMES))


def _restore_call(cls: type[ToolCall], values: tuple[Any, ...]) -> ToolCall:
    """A :class:`ToolCall` from a pickle written by toolwire 0.2.0 (every slot in order)."""
    if len(values) != len(_SLOT_SETTERS):
        raise ValueError(
            f"a pickled ToolCall holds {len(values)} fields, this toolwire's has"
            f" {len(_SLOT_SETTERS)}: pickle it with the same toolwire version"
        )
    call = _new(cls)
    for setter, value in zip(_SLOT_SETTERS, values, strict=True):
        setter(call, value)
    return call


_DICT_KEYS = frozenset(
    {
        "name", "arguments", "id", "synthetic", "arguments_undecodable", "arguments_error",
        "arguments_error_code", "raw_arguments", "provider_data", "item_index",
        "arguments_invalid", "arguments_errors", "unknown_tool", "incomplete",
    }
)
