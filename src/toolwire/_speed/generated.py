"""Python written from a spec, compiled one way: visible, printable and switchable off.

The readers write Python per spec for speed (the generated extract, read and gate of
:mod:`toolwire._wire`, the written schema checks of :mod:`toolwire._tools`). The interpreter
stays the reference: generated code answers what it can and declines (``None``) the rest,
which the interpreter then answers. So that such code is never a black box, every function
is compiled by :func:`compile_function`:

* its source is registered with :mod:`linecache` under a filename unique to the spec, the
  kind and the compilation (``toolwire generated read: openai #3``), so tracebacks, pdb
  and :mod:`inspect` show its lines;
* the source stays on the function as ``toolwire_source`` (``toolwire specs generated``
  prints it);
* the ``TOOLWIRE_GENERATED`` environment variable, read once per :class:`SpecCode`, sets
  the mode: ``0`` (or ``off``) writes nothing, every reply is walked by the interpreter;
  ``debug`` writes code that re-raises the errors it would otherwise decline on, so a
  failure in generated code shows where it happened instead of passing silently to the
  slower path; anything else (the default ``1``) generates.

A spec's compiled things live in its :class:`SpecCode`, with the one rule of when to
compile: on the spec's second reply. Writing and compiling costs as much as walking tens of
replies, and a short-lived process (a CLI call, a serverless function) reads one.
"""

from __future__ import annotations

import os
import sys
from itertools import count

from . import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["MODES", "SpecCode", "compile_function", "mode_from_environment"]

MODES = ("on", "off", "debug")
"""What generation does: compile, nothing (the interpreter answers all), or compile code
that re-raises instead of declining."""

_SERIAL = count(1)


def mode_from_environment() -> str:
    """The mode ``TOOLWIRE_GENERATED`` asks for: ``0``/``off``/``false``/``no`` → ``off``,
    ``debug`` → ``debug``, anything else (unset included) → ``on``."""
    value = os.environ.get("TOOLWIRE_GENERATED", "").strip().lower()
    if value in ("0", "off", "false", "no"):
        return "off"
    return "debug" if value == "debug" else "on"


def compile_function(
    source: str, kind: str, label: str, namespace: dict[str, Any], name: str
) -> Callable[..., Any]:
    """Compile ``source`` (which defines ``name``) in ``namespace`` and return ``name``.

    ``kind`` says what the code is (``extract``, ``read``, ``gate``, ``schema check``) and
    ``label`` whose (a format name); both make the filename the code is registered under.
    """
    filename = f"toolwire generated {kind}: {label} #{next(_SERIAL)}"
    # linecache finds the lines through the code's globals (traceback, pdb and inspect pass
    # them): their loader hands out the source. So a process that never shows a traceback
    # never imports linecache (which imports re); one that already has it gets the entry now.
    namespace["__name__"] = filename
    namespace["__loader__"] = _Source(source)
    linecache = sys.modules.get("linecache")
    if linecache is not None:
        # No modification time: linecache.checkcache() keeps an entry without one.
        lines = source.splitlines(keepends=True)
        linecache.cache[filename] = (len(source), None, lines, filename)
    exec(compile(source, filename, "exec"), namespace)
    function: Callable[..., Any] = namespace[name]
    function.toolwire_source = source  # type: ignore[attr-defined]
    return function


class _Source:
    """The loader of one piece of generated code, as :mod:`linecache` asks it."""

    __slots__ = ("source",)

    def __init__(self, source: str) -> None:
        self.source = source

    def get_source(self, name: str) -> str:
        return self.source


class SpecCode:
    """What is compiled from one spec, kept with it and never part of its value.

    ``mode`` is one of :data:`MODES`; ``replies`` counts the replies the spec's ``extract``
    and ``read`` began, for the rule above (:meth:`begin`). ``extract`` and ``read`` hold the
    generated functions by ``strict`` (None: the spec's own ``unknown_items``), ``gate`` the
    written-out reply check, ``stream`` the compiled stream part.
    """

    __slots__ = ("extract", "gate", "mode", "read", "replies", "stream")

    def __init__(self, mode: str | None = None) -> None:
        if mode is not None and mode not in MODES:
            raise ValueError(f"generated code mode must be one of {MODES}, not {mode!r}")
        self.mode: str = mode_from_environment() if mode is None else mode
        self.replies = 0
        self.extract: dict[bool | None, Any] = {}
        self.read: dict[bool | None, Any] = {}
        self.gate: Any = None
        self.stream: Any = None

    @property
    def debug(self) -> bool:
        """Whether generated code re-raises instead of declining."""
        return self.mode == "debug"

    def begin(self) -> bool:
        """Count a reply the spec begins to read; whether generated code may be compiled
        for it (the spec's second reply and after, generation not off)."""
        self.replies += 1
        return self.replies > 1 and self.mode != "off"

    def warm(self) -> bool:
        """Whether code may be compiled for the reply being read now, without counting it
        (the gate, which runs inside a reply that ``extract`` or ``read`` counted)."""
        return self.replies > 1 and self.mode != "off"

    def __repr__(self) -> str:
        built = [k for k in ("extract", "read") if getattr(self, k)]
        built += [k for k in ("gate", "stream") if getattr(self, k) is not None]
        return f"SpecCode(mode={self.mode!r}, replies={self.replies}, built={built})"
