"""``toolwire extract --text-in-content FMT``: lift the calls a model wrote into the reply's text.

A server run without a tool-call parser answers in its wire format with the model's
calls still in the assistant text. ``--text-in-content hermes`` reads the reply as
usual and then lifts the calls out of that text with the ``hermes`` text format
(``toolwire.read(..., text_format="hermes")``); ``--param NAME=VALUE`` goes to the text
format. Kept apart from :mod:`.main` so that the extract command's own code stays the
cli module's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse
    from typing import Any

    from .._registry.registry import Registry
    from .._values.reply import Reply

__all__ = ["add_options", "read_with_text", "wanted"]


def add_options(extract: argparse.ArgumentParser) -> None:
    """Add ``--text-in-content`` to the extract command's parser."""
    extract.add_argument(
        "--text-in-content",
        metavar="FMT",
        help="also lift the tool calls the model wrote into the reply's text, in text format FMT",
    )


def wanted(args: argparse.Namespace) -> bool:
    """Whether the command line asks for calls in the content."""
    return getattr(args, "text_in_content", None) is not None


def read_with_text(
    args: argparse.Namespace,
    registry: Registry,
    fmt: str | None,
    data: Any,
    strict: bool | None,
    params: dict[str, str],
) -> Reply:
    """The reply, with the calls written in its assistant text lifted out."""
    return registry.read(
        fmt, data, strict=strict, text_format=args.text_in_content, text_params=params
    )
