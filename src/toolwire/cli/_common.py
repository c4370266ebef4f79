"""What every ``toolwire`` command shares: its two kinds of failure, input and output.

A command raises :class:`UsageError` for a command-line mistake found after parsing
(exit 2) and :class:`InputError` for an input it cannot read at all (exit 1); ``main``
turns either into one line on stderr. Output is JSON written so that it always encodes.
"""

from __future__ import annotations

import os
import sys

from .._paths import bundled_specs_path
from .._speed import TYPE_CHECKING
from .._speed.cjson import dumps
from ..errors import near_miss

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any, TextIO

__all__ = [
    "InputError",
    "UsageError",
    "emit",
    "emit_line",
    "example_names",
    "example_path",
    "read_text",
]


class UsageError(Exception):
    """A command-line mistake found after parsing (exit 2)."""


class InputError(Exception):
    """An input that cannot be read at all (exit 1)."""


# os.path, not pathlib, on the path of `extract`: see toolwire._paths for why.
def _examples_dir() -> str:
    return os.path.join(bundled_specs_path(), "examples")


def example_names() -> list[str]:
    """The bundled example replies (``--example NAME``), sorted."""
    folder = _examples_dir()
    if not os.path.isdir(folder):
        return []
    return sorted(name[: -len(".json")] for name in os.listdir(folder) if name.endswith(".json"))


def example_path(name: str) -> str:
    """The file of bundled example ``name``; a :class:`UsageError` naming the close ones."""
    path = os.path.join(_examples_dir(), f"{name}.json")
    if os.path.isfile(path):
        return path
    names = example_names()
    raise UsageError(
        f"--example {name}: no such bundled reply{suggestion(name, names)}"
        f" (examples: {', '.join(names)})"
    )


def suggestion(name: str, known: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the known name closest to ``name``, else ``""`` (the
    API's :class:`~toolwire.errors.UnknownFormat` suggests the same)."""
    return near_miss(name, known)


def read_text(source: str | None) -> str:
    """The text of file ``source``, or of standard input for None or ``-``."""
    if source is None or source == "-":
        try:
            return sys.stdin.read()
        except UnicodeDecodeError as exc:
            raise InputError(f"standard input is not UTF-8: {exc}") from None
    try:
        with open(source, encoding="utf-8") as handle:
            return handle.read()
    except UnicodeDecodeError as exc:
        raise InputError(f"{source} is not UTF-8: {exc}") from None
    except OSError as exc:
        raise InputError(f"cannot read {source}: {exc.strerror or exc}") from None


def _dumps(data: Any, out: TextIO, indent: int | None) -> str:
    text = dumps(data, indent=indent, ensure_ascii=False)
    try:
        text.encode(getattr(out, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        # A lone surrogate (JSON text may escape one, "\ud800") or a narrow console:
        # \u escapes keep the output valid JSON instead of a traceback halfway through.
        text = dumps(data, indent=indent)
    return text


def emit(data: Any, out: TextIO) -> None:
    """``data`` as indented JSON, one document."""
    out.write(_dumps(data, out, 2) + "\n")


def emit_line(data: Any, out: TextIO) -> None:
    """``data`` as one line of JSON Lines."""
    out.write(_dumps(data, out, None) + "\n")
