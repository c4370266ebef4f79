"""What a reply gives back in its assistant turn, held as plain JSON data: :class:`Turn`.

A provider wants its own turn back in the history: Anthropic's thinking blocks with their
signatures, Responses' reasoning items, Gemini's thought parts, Cohere's tool plan. The
format's ``render`` part (specs/README.md §6) writes that turn; this value is everything it
needs from the reply beyond the calls and the text, so a reply renders the same turn after
``pickle``, ``copy`` or a JSON round trip as before (specs/README.md §7):

* ``items`` — the reply's top-level items in order: each as the provider sent it, or, for a
  call item, the index of its call in ``Reply.calls`` (an ``int``: an item is always a JSON
  object, so the two never mix up). A call item that yielded no call is left out: nothing
  could answer it.
* ``response`` — the value of each ``${response:<expression>}`` placeholder of the
  format's ``assistant`` template on the reply, by the expression's text (null values left
  out: a null placeholder is absent).

A turn owns its JSON: reading copies the response's items and values in (:func:`owned`),
so a caller that changes the response it read afterwards — a text block's text, a thinking
block's signature — changes nothing the reply renders; and every read of ``items`` and
``response`` gives a fresh copy, as :attr:`ServerToolCall.raw
<toolwire.ServerToolCall.raw>` does.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._speed import TYPE_CHECKING
from .json_values import copy_checked, copy_json, json_equal

if TYPE_CHECKING:
    from typing import Any, NoReturn

__all__ = ["Turn", "owned"]


def owned(items: Any) -> tuple[Any, ...]:
    """The items a turn keeps, read and checked: each object a deep copy
    (:func:`~.json_values.copy_checked`), each call's index as it is."""
    return tuple([e if type(e) is int else copy_checked(e) for e in items])


class Turn:
    """The parts of a reply's assistant turn that are neither its calls nor its text."""

    __module__ = "toolwire.types"  # the published name: reprs, pickles and docs show it

    __slots__ = ("_items", "_response")

    _items: tuple[Any, ...]
    _response: dict[str, Any]

    def __init__(self, items: Any = (), response: Mapping[str, Any] | None = None) -> None:
        found: list[Any] = []
        for entry in items:
            if type(entry) is int:
                if entry < 0:
                    raise ValueError(f"Turn: a call's index is 0 or more, not {entry}")
                found.append(entry)
            elif isinstance(entry, dict):
                found.append(copy_json(entry))
            else:
                raise TypeError(
                    "Turn: each item is a JSON object (the item as sent) or an int (the"
                    f" index of its call), not {type(entry).__name__}"
                )
        if response is not None and not isinstance(response, Mapping):
            raise TypeError(f"Turn: response is a mapping, not {type(response).__name__}")
        values = {}
        for key, value in (response or {}).items():
            if not isinstance(key, str):
                raise TypeError(f"Turn: a response key is an expression's text, not {key!r}")
            if value is not None:
                values[key] = copy_json(value)
        setter = object.__setattr__
        setter(self, "_items", tuple(found))
        setter(self, "_response", values)

    @classmethod
    def read(cls, items: tuple[Any, ...], response: dict[str, Any]) -> Turn:
        """The reader's constructor: the response's objects, checked by the walk, copied
        in (the caller may change the response after reading it)."""
        turn = object.__new__(cls)
        setter = object.__setattr__
        setter(turn, "_items", owned(items))
        setter(turn, "_response", copy_checked(response))
        return turn

    @property
    def items(self) -> tuple[Any, ...]:
        """The top-level items in order (an ``int``: the index of a call in
        ``Reply.calls``): fresh copies on every read."""
        return tuple(e if type(e) is int else copy_json(e) for e in self._items)

    @property
    def response(self) -> dict[str, Any]:
        """Each ``${response:…}`` expression's value on the reply: a fresh copy."""
        return copy_json(self._response)  # type: ignore[no-any-return]

    def item(self, index: int) -> Any:
        """``items[index]`` without copying the others: a call's index, or a copy."""
        entry = self._items[index]
        return entry if type(entry) is int else copy_json(entry)

    def value(self, expression: str) -> Any:
        """The value of ``${response:<expression>}``: a copy, or ``None`` (absent)."""
        return copy_json(self._response.get(expression))

    def __len__(self) -> int:
        return len(self._items)

    def __setattr__(self, key: str, value: object) -> NoReturn:
        raise AttributeError(f"Turn is immutable; cannot set {key!r}")

    def __delattr__(self, key: str) -> NoReturn:
        raise AttributeError(f"Turn is immutable; cannot delete {key!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Turn):
            return NotImplemented
        return json_equal(list(self._items), list(other._items)) and json_equal(
            self._response, other._response)

    def __hash__(self) -> int:
        # Not the items: dicts do not hash, and a hostile reply nests them deep.
        return hash((len(self._items), tuple(sorted(self._response))))

    def __repr__(self) -> str:
        shown = ", ".join(
            str(e) if type(e) is int else f"<{e.get('type', 'item')}>" for e in self._items)
        extra = f", response={sorted(self._response)}" if self._response else ""
        return f"Turn(items=[{shown}]{extra})"

    # Immutable but holding mutable JSON: a shallow copy may be the value itself; pickle
    # and deepcopy go through the constructor's arguments, so a deep copy owns its items.
    def __copy__(self) -> Turn:
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self).read, (self._items, self._response))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: ``{"items": [...], "response": {...}}`` (specs/README.md §7)."""
        return {"items": list(self.items), "response": self.response}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Turn:
        """The inverse of :meth:`to_dict`; unknown keys are refused."""
        if not isinstance(data, Mapping):
            raise TypeError(f"Turn.from_dict takes a mapping, not {type(data).__name__}")
        unknown = set(data) - {"items", "response"}
        if unknown:
            raise ValueError(f"Turn.from_dict: unknown keys {sorted(unknown)}")
        items = data.get("items", [])
        if not isinstance(items, list):
            raise ValueError(f"Turn.from_dict: 'items' must be a list, not {type(items).__name__}")
        response = data.get("response", {})
        if not isinstance(response, Mapping):
            raise ValueError("Turn.from_dict: 'response' must be an object")
        try:
            return cls(items, response)
        except TypeError as exc:
            raise ValueError(str(exc)) from None


def _restore(cls: type[Turn], items: tuple[Any, ...], response: dict[str, Any]) -> Turn:
    """A turn from a pickle written by toolwire 0.2.0."""
    return cls.read(items, response)
