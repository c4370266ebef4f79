"""``toolwire extract --choice N``: read alternative N of a reply that holds several.

The option is ``read(..., choice=N)`` (docs/reading.md, "Several choices") on the command line, and
what is wrong with it is the command line's fault, checked before anything is printed: a
format that declares no alternatives (Anthropic, Responses…), or an N the reply does not
hold, is a usage error (exit 2) saying what the format or the reply has.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .._wire.reading import choice_view
from ..errors import MalformedResponse
from ._common import UsageError

if TYPE_CHECKING:
    import argparse
    from typing import Any

    from .._registry.registry import Registry

__all__ = ["add_options", "checked_choice", "refuse_with"]

_NOT_WITH = (("text", "--text"), ("jsonl", "--jsonl"), ("text_in_content", "--text-in-content"),
             ("stream", "--stream"), ("follow", "--follow"))


def _index(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"N is a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"N counts from 0, not {value}")
    return value


def add_options(extract: argparse.ArgumentParser) -> None:
    """Add ``--choice`` to the extract command's parser."""
    extract.add_argument("--choice", type=_index, default=None, metavar="N",
                         help="read alternative N (from 0) of a reply with several (n > 1)")


def refuse_with(args: argparse.Namespace) -> None:
    """``--choice`` reads one reply's alternative: with text, lines or streams it is wrong."""
    for key, option in _NOT_WITH:
        if getattr(args, key, None) not in (None, False):
            raise UsageError(f"--choice does not go with {option}")


def checked_choice(registry: Registry, fmt: str | None, data: Any, choice: int) -> int:
    """``choice``, once the reply's format declares alternatives and this reply holds it."""

    name = fmt if fmt is not None else registry.sniff_format(data)
    if name is None or not isinstance(data, dict):
        return choice  # read() says what is wrong with the reply itself
    spec = registry.spec(name)
    if spec.choices is None:
        raise UsageError(f"--choice: format {name} has no alternatives to choose from"
                         " (its spec declares no choices)")
    try:
        choice_view(spec, data, choice)
    except MalformedResponse:
        _, count = choice_view(spec, data, 0)
        held = f"0 to {count - 1}" if count else "none"
        raise UsageError(f"--choice {choice}: this {name} reply holds {count} alternative"
                         f"{'' if count == 1 else 's'} ({held})") from None
    return choice
