"""The canonical values toolwire hands over: :class:`ToolCall` and :class:`ServerToolCall`.

Both are immutable and compare by value. ``ToolCall.arguments`` returns a fresh copy on
every read, so no caller can change a call another caller holds: tool loops pass calls
between threads and keep them in traces, where shared mutable state would be a bug
nobody sees until it bites.
"""

from __future__ import annotations

# collections.abc without importing the collections package: a cold start (issue 9.15)
from _collections_abc import Mapping

from .._speed.record import Record, setfield
from .arguments import decode_arguments_coded

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from typing import Any, NoReturn

__all__ = ["ArgumentError", "NotJSONValue", "ServerToolCall", "ToolCall", "copy_json", "id_text"]


class ArgumentError(Record):
    """One way a call's arguments fail the offered tool's schema.

    ``pointer`` is the JSON pointer of the failing value inside the arguments (``""``
    for the whole object), ``keyword`` the schema keyword that failed (``required``,
    ``type``, ``enum``…), ``message`` a sentence for the model to read.
    """

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


class NotJSONValue(ValueError):
    """A value no JSON text can hold, met while copying one: a list or object that holds
    itself, NaN or an infinity, an integer beyond the double range. JSON text holding such
    a number is refused (specs/README.md §1.4.1), so the same data given as a dict is
    refused too, rather than become a call that ``to_dict()`` cannot write back."""


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value (dicts and lists copied, scalars shared).

    Bytes become the text the APIs write for them, standard base64 (RFC 4648 §4): an SDK's
    Python-mode dump holds a Gemini thought signature as bytes, and a copy that kept them
    could not be written as JSON later (specs/README.md §5). Recursive for speed; falls
    back to an explicit stack for values nested deeper than the interpreter's recursion
    limit allows — and a cycle is such a value, which the explicit stack then finds.
    Raises :class:`NotJSONValue` for what JSON cannot hold.
    """
    try:
        return _copy_recursive(value)
    except RecursionError:
        return _copy_iterative(value)


_INF = float("inf")
MappingProxyType = type(type.__dict__)  # as types.py defines it, without importing types
_WORDS = frozenset({str, bool, type(None)})
"""The scalars every JSON text holds as they are: a number may not (:class:`NotJSONValue`)."""
_INT_BOUND = 2**1024 - 2**970
"""The smallest integer whose nearest double is infinite: JSON text's number range."""


def _number(value: Any) -> Any:
    """``value``, unless it is a number no JSON text can hold."""
    if isinstance(value, float):
        if value - value != 0.0:  # nan - nan and inf - inf are nan
            shown = "NaN" if value != value else ("-" if value < 0 else "") + "Infinity"
            raise NotJSONValue(f"{shown} is no JSON number")
    elif isinstance(value, int) and not -_INT_BOUND < value < _INT_BOUND:
        raise NotJSONValue(f"number out of range (an integer of {value.bit_length():,} bits)")
    return value


def id_text(value: Any) -> str:
    """A provider's id as a ``ToolCall`` keeps it: a string as sent, a number as the text
    ECMAScript's ``Number::toString`` gives its nearest double (``12``, ``12.0`` → ``"12"``,
    ``1e-7`` → ``"1e-7"``) — an integer its exact digits — anything else (null, a
    boolean, a non-finite number) ``""``.

    The number rule is the one every JSON platform can follow (specs/README.md §1.3).
    """
    if type(value) is str:
        return value
    if value is None or type(value) is bool:
        return ""
    if isinstance(value, int):
        return str(value)  # exact digits: beyond 2^53 only exact-integer platforms agree
    if isinstance(value, float):
        return _number_text(value)
    return ""


def _number_text(x: float) -> str:
    """ECMAScript ``Number::toString(x)``: the shortest round-trip digits, laid out by its rules."""
    if x != x or x in (_INF, -_INF):
        return ""
    if x == 0:
        return "0"
    if x < 0:
        return "-" + _number_text(-x)
    mantissa, _, exponent = repr(x).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    point = len(whole) + (int(exponent) if exponent else 0)
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    k, n = len(digits), point
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * -n + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    head = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{head}e{sign}{abs(e)}"


_BYTES = (bytes, bytearray, memoryview)


def _base64(value: Any) -> str:
    import base64

    return base64.b64encode(bytes(value)).decode("ascii")


def _copy_recursive(value: Any) -> Any:
    # Most arguments are flat objects: when every value is a string, a boolean or null
    # (checked in C, by exact type), a shallow copy is a deep one; numbers are looked at.
    if isinstance(value, dict):
        copied = dict(value)
        if not _WORDS.issuperset(map(type, copied.values())):
            for k, v in copied.items():
                if isinstance(v, (dict, list)):
                    copied[k] = _copy_recursive(v)  # a value replaced, not a key added
                elif isinstance(v, (float, int)):
                    _number(v)
                elif isinstance(v, _BYTES):
                    copied[k] = _base64(v)
        return copied
    if isinstance(value, list):
        if _WORDS.issuperset(map(type, value)):
            return list(value)
        return [_copy_recursive(v) if isinstance(v, (dict, list)) else
                _base64(v) if isinstance(v, _BYTES) else _number(v)
                for v in value]
    if isinstance(value, _BYTES):
        return _base64(value)
    return _number(value)


def _copy_iterative(value: Any) -> Any:
    """:func:`_copy_recursive` with a stack of its own; a container met again inside
    itself (on the path from the root) is a cycle, no JSON value."""
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    path: set[int] = set()  # the containers being copied, by id: the way from the root
    while stack:
        source, parent, key = stack.pop()
        if source is _LEFT:
            path.discard(parent)
            continue
        if isinstance(source, (dict, list)):
            if id(source) in path:
                raise NotJSONValue("a list or object holds itself (a cycle)")
            path.add(id(source))
            stack.append((_LEFT, id(source), None))  # popped once its contents are done
        if isinstance(source, dict):
            copied: Any = {}
            for k, v in source.items():
                copied[k] = None
                stack.append((v, copied, k))
        elif isinstance(source, list):
            copied = [None] * len(source)
            for i, v in enumerate(source):
                stack.append((v, copied, i))
        elif isinstance(source, _BYTES):
            copied = _base64(source)
        else:
            copied = _number(source)
        parent[key] = copied
    return root[0]


_LEFT = object()
"""The stack mark of a container whose contents are all copied."""


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

    # Speed (issue 9 item 14): a reply's calls are built by the thousand, so the fast
    # constructors write the slots on a ``_Blank`` (below) rather than through this
    # class's refusing ``__setattr__``, and there are few slots: the fields every call
    # sets have a slot each; the fields that are their default on nearly every call (the
    # flags, the error, the provider data, the verdicts) share one slot, ``_rare``: a
    # tuple in ``_RARE`` order, the one shared constant ``_PLAIN`` for a call whose
    # arguments decoded. Read through properties, they behave as the fields they were.
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
        setter(self, "_rare", _PLAIN if rare == _PLAIN else rare)

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

        The slots are filled in on a :class:`_Blank` and the value then becomes a
        ``ToolCall`` (see :class:`_Blank`): a third of the cost of setting each slot
        through its descriptor, which a ``ToolCall``'s refusing ``__setattr__`` forces.
        """
        if cls is not ToolCall:  # a subclass may lay its slots out otherwise
            return cls._trusted_slow(
                name, arguments, id, undecodable, error, error_code, raw, provider_data,
                item_index,
            )
        call = _new(_Blank)
        call.name = name
        call._arguments = arguments
        call.id = id
        call._raw_arguments = raw
        call.item_index = item_index
        call._rare = (
            _PLAIN if not undecodable and provider_data is None
            else rare_of(undecodable, error, error_code, provider_data)
        )
        call.__class__ = ToolCall  # type: ignore[assignment]  # same layout: see _Blank
        return call  # type: ignore[return-value]  # it is a ToolCall now

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
            _PLAIN if not undecodable and provider_data is None
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
            return mine[0] == theirs[0] and mine[2:] == theirs[2:] and _equal(mine[1], theirs[1])

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

    def __reduce__(self) -> tuple[object, ...]:
        # Every slot as it is, whatever slots the class gains: no re-validation and no
        # copy on the way in (the values were checked and owned when this call was made).
        return (_restore_call, (type(self), tuple(getter(self) for getter in _SLOT_GETTERS)))

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


class _Blank:
    """A :class:`ToolCall`'s slots, writable: where the fast constructors build a call.

    ``ToolCall`` refuses attribute writes, so building one through its own type costs a
    descriptor call per slot. A ``_Blank`` has the very same slots (same names, same
    order, same base), so its slots are written by plain (specialised) attribute stores,
    and the finished value becomes a ``ToolCall`` by ``__class__`` assignment, which
    CPython and PyPy allow between layout-identical classes. No ``_Blank`` ever leaves
    this module or the generated extract (:mod:`toolwire.wire.fastpath`) half-built.
    """

    __slots__ = ToolCall.__slots__

    name: str
    id: str
    item_index: int | None
    _arguments: dict[str, Any]
    _raw_arguments: Any
    _rare: tuple[Any, ...]


def rare_of(
    undecodable: bool, error: str | None, error_code: str | None,
    provider_data: dict[str, Any] | None,
) -> tuple[Any, ...]:
    """A ``ToolCall``'s ``_rare`` slot for the fields the extractors set (in ``_RARE``
    order); ``provider_data`` owned, ``None`` or non-empty."""
    if not undecodable and provider_data is None:
        return _PLAIN
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

_PLAIN: tuple[Any, ...] = (False, False, None, None, None, False, (), False, False)
"""``_rare`` of a call whose arguments decoded: every rare field at its default."""

_SLOT_NAMES = ToolCall.__slots__
_SLOT_GETTERS = tuple(ToolCall.__dict__[slot].__get__ for slot in _SLOT_NAMES)
_SLOT_SETTERS = tuple(ToolCall.__dict__[slot].__set__ for slot in _SLOT_NAMES)


def _restore_call(cls: type[ToolCall], values: tuple[Any, ...]) -> ToolCall:
    """A pickled :class:`ToolCall` back: each slot set as it was (see ``__reduce__``)."""
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


class ServerToolCall:
    """A tool call the provider ran itself (web search, code execution, hosted MCP…).

    Kept apart from :class:`ToolCall` so a client loop never tries to answer it, yet
    reported so a trace shows what ran. ``input`` is what the tool was run on, as the
    spec's ``input`` selector reads it (a web search's query, the code executed, a
    hosted MCP tool's arguments; ``None`` where the spec declares none or the item
    carries none). ``raw`` is a copy of the provider's item.
    """

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
            return _equal(self._input, other._input)

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
