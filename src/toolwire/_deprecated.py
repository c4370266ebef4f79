"""Old names that keep working for one release, each with a ``DeprecationWarning`` naming its
new home.

The public face is ``toolwire``'s ``__all__``, the exceptions in :mod:`toolwire.errors` and
the parts of a reply in :mod:`toolwire.types`; everything else is private. Names a user may
have written before that move — ``toolwire.MalformedResponse``, ``import toolwire.text`` —
are listed here once each with where they went, and still resolve, with a warning:

* a top-level name, through ``toolwire.__getattr__`` (:func:`moved_name`);
* a module path, through :class:`OldModules`, the last finder on ``sys.meta_path``: asked
  only for a ``toolwire`` module that no file provides, it answers with a stand-in module
  that forwards every attribute to the module's new home.
"""

from __future__ import annotations

import sys

from ._speed import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import FrameType, ModuleType
    from typing import Any

__all__ = ["MOVED_MODULES", "MOVED_NAMES", "OldModules", "moved_name"]

_ERRORS = "toolwire.errors"
_TYPES = "toolwire.types"

MOVED_NAMES: dict[str, tuple[str, str]] = {
    # old ``toolwire.NAME``: (the module that holds it now, what to write instead)
    "ArgumentError": (_TYPES, "toolwire.types.ArgumentError"),
    "CallRecord": (_TYPES, "toolwire.types.CallRecord"),
    "IncompleteStream": (_ERRORS, "toolwire.errors.IncompleteStream"),
    "InvalidTools": (_ERRORS, "toolwire.errors.InvalidTools"),
    "ItemRecord": (_TYPES, "toolwire.types.ItemRecord"),
    "MalformedResponse": (_ERRORS, "toolwire.errors.MalformedResponse"),
    "MalformedStream": (_ERRORS, "toolwire.errors.MalformedStream"),
    "NotDeclared": (_ERRORS, "toolwire.errors.NotDeclared"),
    "ProviderError": (_ERRORS, "toolwire.errors.ProviderError"),
    "RefusedItem": (_TYPES, "toolwire.types.RefusedItem"),
    "RegexBudgetExceeded": (_ERRORS, "toolwire.errors.RegexBudgetExceeded"),
    "RenderError": (_ERRORS, "toolwire.errors.RenderError"),
    "SkippedItem": (_TYPES, "toolwire.types.SkippedItem"),
    "SpecError": (_ERRORS, "toolwire.errors.SpecError"),
    "SpecProblem": (_ERRORS, "toolwire.errors.SpecProblem"),
    "StreamError": (_ERRORS, "toolwire.errors.StreamError"),
    "ToolDefinition": (_TYPES, "toolwire.types.ToolDefinition"),
    "ToolwireError": (_ERRORS, "toolwire.errors.ToolwireError"),
    "UnknownFormat": (_ERRORS, "toolwire.errors.UnknownFormat"),
    "UnknownItem": (_TYPES, "toolwire.types.UnknownItem"),
    "UnknownItemType": (_ERRORS, "toolwire.errors.UnknownItemType"),
    "UnmappedCall": (_ERRORS, "toolwire.errors.UnmappedCall"),
    "UnsupportedStream": (_ERRORS, "toolwire.errors.UnsupportedStream"),
    "decode_arguments": ("toolwire._values.arguments", "toolwire.ToolCall.from_raw(name, raw)"),
}
"""Top-level names that left ``toolwire``'s face."""

MOVED_MODULES: dict[str, tuple[str, str]] = {
    # old module path: (its new, private home, what to use instead)
    "toolwire.boundedre": ("toolwire._boundedre", "nothing: the bounded regex engine is internal"),
    "toolwire.jsonc": ("toolwire._speed.cjson", "the json module"),
    "toolwire.registry": ("toolwire._registry", "toolwire.Registry"),
    "toolwire.spec": ("toolwire._spec", "the toolwire specs command, or toolwire.Registry"),
    "toolwire.spec.conformance": ("toolwire.conformance._wire_cases",
                                  "the toolwire specs test command"),
    "toolwire.text": ("toolwire._text",
                      "toolwire.read_text, toolwire.extract_from_text and toolwire.TextReply"),
    "toolwire.tools": ("toolwire._tools", "toolwire.Tools and toolwire.errors.InvalidTools"),
    "toolwire.wire": ("toolwire._wire", "toolwire.read, toolwire.extract and toolwire.locate"),
    "toolwire.wire.stream": ("toolwire._stream",
                             "toolwire.Accumulator, toolwire.read_stream and toolwire.errors"),
}
"""Module paths the README or the changelog once documented."""


_OURS = (__file__, __file__.replace("_deprecated.py", "__init__.py"))


def _warn(old: str, instead: str) -> None:
    import warnings  # lazy: only an old name pays for the warnings module

    # Point at the caller's line, past toolwire's face and this module (stacklevel 1 is
    # this function; warnings itself skips the import machinery's frames).
    frame: FrameType | None = sys._getframe(1)
    level = 2
    while frame is not None and (frame.f_code.co_filename in _OURS
                                 or frame.f_code.co_filename.startswith("<frozen importlib")):
        if frame.f_code.co_filename in _OURS:
            level += 1
        frame = frame.f_back
    warnings.warn(f"{old} is deprecated and goes in the next release: use {instead}",
                  DeprecationWarning, stacklevel=level)


def moved_name(name: str) -> Any:
    """``toolwire.NAME`` for a name that moved (or an old module path), with its warning;
    ``AttributeError`` for any other name."""
    if f"toolwire.{name}" in MOVED_MODULES:
        return __import__(f"toolwire.{name}", fromlist=["__name__"])
    home = MOVED_NAMES.get(name)
    if home is None:
        raise AttributeError(f"module 'toolwire' has no attribute {name!r}")
    module, instead = home
    _warn(f"toolwire.{name}", instead)
    return getattr(__import__(module, fromlist=[name]), name)


class _Forward:
    """The loader of an old module path: a stand-in module that forwards to the new home."""

    def __init__(self, old: str) -> None:
        self.old = old

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        new, instead = MOVED_MODULES[self.old]
        _warn(self.old, instead)
        home = __import__(new, fromlist=["__name__"])
        stand_in = type(sys)(self.old, home.__doc__)
        old = self.old

        def __getattr__(name: str) -> Any:
            if f"{old}.{name}" in MOVED_MODULES:  # an old subpackage: its own stand-in
                return __import__(f"{old}.{name}", fromlist=["__name__"])
            return getattr(home, name)

        def __dir__() -> list[str]:
            return dir(home)

        stand_in.__getattr__ = __getattr__  # type: ignore[method-assign]
        stand_in.__dir__ = __dir__  # type: ignore[method-assign]
        stand_in.__path__ = []  # so that an old subpackage below it can be imported
        return stand_in

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the stand-in forwards every attribute."""


class OldModules:
    """The finder of the old module paths (see the module docstring)."""

    @classmethod
    def find_spec(
        cls, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in MOVED_MODULES:
            return None
        from importlib.machinery import ModuleSpec  # lazy: only an old path pays for it

        # _Forward is a loader by protocol: subclassing importlib.abc.Loader would load
        # importlib.abc into every process, old names or not.
        return ModuleSpec(fullname, _Forward(fullname))  # type: ignore[arg-type]
