"""``toolwire extract --response-template FILE``: read model text with a Hugging Face template.

``FILE`` is a response template as JSON, a ``tokenizer_config.json`` holding one under
``response_template``, or a model folder (a Hub snapshot). It becomes, for this command,
a text format named after the file (its stem; a folder's name), and the command then
runs as ``--text NAME`` would: ``{"format", "clean_text", "calls"}`` out, ``--param
prefix=PROMPT`` for the prompt the reply continues. With ``--text-in-content NAME`` the
calls are lifted out of a wire reply's assistant text instead.

A bad template is bad input (exit 1, one line per problem naming the template's key); a
command line that does not fit is a usage error (exit 2, one line).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .._registry.registry import Registry
from ._common import UsageError

if TYPE_CHECKING:
    import argparse

    from .._registry.registry import Registry

__all__ = ["add_options", "with_template"]


def add_options(extract: argparse.ArgumentParser) -> None:
    """Add ``--response-template`` to the extract command's parser."""
    extract.add_argument(
        "--response-template", metavar="FILE",
        help="read the text with this Hugging Face response template (a JSON file, a"
             " tokenizer_config.json or a model folder); --param prefix=PROMPT gives the prompt",
    )


def with_template(args: argparse.Namespace, registry: Registry) -> Registry:
    """``registry`` with the template of ``--response-template`` as a text format, and
    ``args`` set to read with it; a :class:`UsageError` for options that do not fit."""

    source = Path(args.response_template)
    name = (source.resolve().name if source.is_dir() else source.stem) or "response_template"
    if getattr(args, "text", None) is not None:
        raise UsageError(f"--response-template reads the text as format {name!r} itself; it"
                         " does not go with --text")
    for option in ("stream", "follow", "jsonl"):
        if getattr(args, option, False):
            raise UsageError(f"--{option} does not go with --response-template")
    in_content = getattr(args, "text_in_content", None)
    if in_content is not None and in_content != name:
        raise UsageError(f"--text-in-content {in_content}: the response template's format is"
                         f" {name!r} (named after {source.name})")
    if not source.exists():
        raise UsageError(f"--response-template {source}: no such file or folder")
    loaded = Registry.from_response_template(source, name=name, base=registry)
    if in_content is None:
        args.text = name
    return loaded
