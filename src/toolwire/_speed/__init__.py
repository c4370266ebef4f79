"""The speed tricks toolwire keeps, each in one place with what it buys.

Everywhere else the code uses the standard library plainly. A trick stays only while a
measurement says it pays (``docs/decisions/`` keeps the figures): a cold
``toolwire extract --example openai`` must stay within 2.5x ``python -c pass``
(``tools/bench.py``), and the reading path is timed per call.

* :data:`TYPE_CHECKING` — ``typing.TYPE_CHECKING`` without importing :mod:`typing`, which
  (with the ``re`` and ``contextlib`` it pulls in) adds about 0.9x ``python -c pass`` to a
  cold command. Only the modules a cold read loads use it; the others import ``typing``.
* :func:`allocate_lock` — ``threading.Lock`` without importing :mod:`threading` (about
  0.3x ``python -c pass`` cold): the registry's locks.
* :mod:`.cjson` — JSON through CPython's C scanner without the :mod:`json` package (which
  imports ``re``: about 0.6x ``python -c pass`` cold).
* :mod:`.record` — immutable value classes without :mod:`dataclasses` (which imports
  ``inspect``: about 1.4x ``python -c pass`` cold).
* :func:`blank_of` — a writable twin of an immutable class, so the reader fills a value in
  with plain attribute stores and then gives it its class: half the cost of setting each
  slot through the class's refusing ``__setattr__`` (a ``ToolCall``: 170 ns instead of
  340 ns, a tenth of ``extract`` per call). A twin of a :class:`~.record.Record` gets
  ``object``'s own ``__setattr__`` *and* ``__delattr__``, so its stores are plain slot
  stores: a ``Reply``'s fifteen take 0.2 µs instead of 1.2 µs.
"""

from __future__ import annotations

from _thread import allocate_lock

TYPE_CHECKING = False
"""``typing.TYPE_CHECKING``: false at run time, true for type checkers (they read it by name)."""

if TYPE_CHECKING:
    from typing import Any, TypeVar

    _T = TypeVar("_T")

__all__ = ["TYPE_CHECKING", "allocate_lock", "blank_of"]


def blank_of(cls: type[_T]) -> Any:
    """A class laid out exactly as ``cls`` (the same base, the same slots) whose instances
    accept attribute stores.

    Fill a blank in (``blank = object.__new__(Twin)``, then ``blank.name = …``) and finish
    it with ``blank.__class__ = cls``: CPython and PyPy allow ``__class__`` assignment
    between layout-identical classes, and the value is then a ``cls`` like any other. No
    blank may leave the module that fills it half-built.
    """
    base = cls.__base__
    assert base is not None
    namespace: dict[str, Any] = {"__slots__": cls.__dict__.get("__slots__", ())}
    if base is not object:  # a Record base refuses stores: the twin accepts them
        # Both, or CPython keeps the Python-level hook for the pair and every store
        # goes through it (70 ns a store instead of 5).
        namespace["__setattr__"] = object.__setattr__
        namespace["__delattr__"] = object.__delattr__
    return type(f"_{cls.__name__}Blank", (base,), namespace)
