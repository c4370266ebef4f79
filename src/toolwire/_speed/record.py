"""Immutable value classes at no import cost: what toolwire uses instead of ``dataclasses``.

A frozen dataclass is the natural shape for a reply's records and a compiled spec, but
``import dataclasses`` pulls in ``inspect`` (and ``ast``, ``dis``, ``tokenize``…), and
each decorated class compiles half a dozen generated methods: together more than a
short-lived process (``toolwire extract`` in a shell loop, a serverless function) spends
reading its reply. :class:`Record` gives the same behaviour from annotated slots —
value equality and hashing over the fields, a ``repr`` naming them, assignment refused,
copy and pickle — while each subclass keeps a typed ``__init__`` that sets its fields
with :func:`setfield`.
"""

from __future__ import annotations

from . import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, ClassVar, NoReturn


__all__ = ["Record", "setfield"]

setfield = object.__setattr__
"""Set a field from ``__init__`` (the class itself refuses assignment)."""


def _rebuild(cls: type[Record], values: tuple[Any, ...]) -> Record:
    """A record from a pickle written by toolwire 0.2.0 (the values in field order)."""
    record = object.__new__(cls)
    for name, value in zip(cls._fields, values, strict=True):
        setfield(record, name, value)
    return record


class Record:
    """Base of immutable values: the annotated names of the class and its bases, each a slot.

    ``_hidden`` names fields left out of equality, hashing and ``repr`` (a cache, or
    data kept for tools), like ``field(compare=False, repr=False)``.
    """

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _hidden: ClassVar[frozenset[str]] = frozenset()
    _shown: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Fields in the order their annotations are declared, bases first (as with
        # dataclasses); __slots__ holds the same names, in any order.
        cls._fields = tuple(
            name
            for klass in reversed(cls.__mro__)
            if issubclass(klass, Record) and klass is not Record
            # not inspect.get_annotations: importing inspect is the cost avoided here
            for name in klass.__dict__.get("__annotations__", {})  # noqa: RUF063
        )
        cls._shown = tuple(name for name in cls._fields if name not in cls._hidden)

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._shown)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown)
        return f"{type(self).__name__}({shown})"

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot assign to {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot delete {name!r}")

    # A pickle (object's own reduce, with this state) names the class by its published
    # module (``__module__`` on the public records) and the fields by name, never a
    # private function: a module move, or a field added later with its default in
    # ``_pickle_defaults``, leaves stored pickles loadable.
    _pickle_defaults: ClassVar[dict[str, Any]] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self._fields}

    def __setstate__(self, state: dict[str, Any]) -> None:
        missing = [name for name in self._fields
                   if name not in state and name not in self._pickle_defaults]
        unknown = sorted(set(state) - set(self._fields))
        if missing or unknown:
            raise ValueError(
                f"a pickled {type(self).__name__} does not fit this toolwire's: missing fields"
                f" {missing}, unknown fields {unknown}"
            )
        for name in self._fields:
            setfield(self, name, state[name] if name in state else self._pickle_defaults[name])
