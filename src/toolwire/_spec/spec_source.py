"""Specs by format name, as the readers ask for them: a :class:`SpecSource`, by default the
default registry.

The readers (tool checks, streams, rendering) sit below the registry, which runs them;
yet ``Tools(fmt, request)``, ``Accumulator(fmt)`` and ``reply.assistant_message()`` name a
format without naming a registry. So a reader takes any object with the registry's
lookups (:class:`SpecSource`) and, given none, calls :func:`default_source`: the registry
module installs ``Registry.default`` here when it loads, which is before any reader can
run (``toolwire/__init__`` imports it). The readers thus reach the default registry
without importing the layer above them.
"""

from __future__ import annotations

from .._speed import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any, Protocol

    from .wirespec import WireSpec

    class SpecSource(Protocol):
        """What a reader needs of a registry: wire specs by name, and sniffing."""

        def spec(self, fmt: str) -> WireSpec: ...

        def specs(self) -> Mapping[str, WireSpec]: ...

        def formats(self) -> tuple[str, ...]: ...

        def sniff_format(self, data: Any) -> str | None: ...


__all__ = ["default_source", "install_default"]

_default: Callable[[], SpecSource] | None = None


def install_default(make: Callable[[], SpecSource]) -> None:
    """Make ``make()`` the source of readers given none (the registry calls this once)."""
    global _default
    _default = make


def default_source() -> SpecSource:
    """The default registry (``Registry.default()``), for a reader given no registry."""
    if _default is None:  # only a module imported around toolwire/__init__ could see this
        raise RuntimeError("toolwire's registry is not loaded: import toolwire first")
    return _default()
