"""Format and example names on the command line, with "did you mean" for a near miss.

A name is looked up exactly (``OpenAI`` is not ``openai``: nothing is silently repaired),
but a miss is a usage error that names what was probably meant: the same name in another
case, a close spelling, or the same name among the *other* kind of format (``--format
hermes`` means ``--text hermes``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._common import UsageError, suggestion

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .._registry.registry import Registry

__all__ = ["text_format", "wire_format"]


def _other_kind(name: str, other: Iterable[str]) -> str | None:
    folded = {k.casefold(): k for k in other}
    return folded.get(name.casefold())


def wire_format(registry: Registry, name: str, option: str = "--format") -> str:
    """``name`` if it is a wire format of ``registry``; else a :class:`UsageError`."""
    known = registry.formats()
    if name in known:
        return name
    text = _other_kind(name, registry.text_formats())
    if text is not None:
        raise UsageError(
            f"{option} {name}: {text!r} is a text format (tool calls inside model text);"
            f" use --text {text}"
        )
    raise UsageError(
        f"{option} {name}: unknown wire format{suggestion(name, known)}"
        f" (wire formats: {', '.join(known)})"
    )


def text_format(registry: Registry, name: str, option: str = "--text") -> str:
    """``name`` if it is a text format of ``registry``; else a :class:`UsageError`."""
    known = registry.text_formats()
    # an alias names its text format (llama4_pythonic), unless it is a wire format's name too
    aliases = [a for a in registry.text_aliases() if a not in registry.formats()]
    if name in known or name in aliases:
        return name
    wire = _other_kind(name, registry.formats())
    if wire is not None:
        raise UsageError(
            f"{option} {name}: {wire!r} is a wire format (a provider's JSON reply);"
            f" use --format {wire}"
        )
    raise UsageError(
        f"{option} {name}: unknown text format{suggestion(name, (*known, *aliases))}"
        f" (text formats: {', '.join(known)})"
    )
