"""The ``toolwire`` command: parse the command line, run the command, map failures to exits.

Each command's logic lives in a module of its own (:mod:`.extract`, :mod:`.specs`,
:mod:`.specs_check`, ...) and the argparse parser in :mod:`.parser`; this module reads
the command line and dispatches. Exit codes: 0 success; 1 the input or a spec is bad
(one line on stderr per problem, ``toolwire: <code>: <message>``); 2 the command line
itself is wrong (one line on stderr, ``toolwire: usage: <message>``). A reader of the output
that goes away (``| head``) ends any command quietly with 1.
"""

from __future__ import annotations

import os
import sys

from .._registry.registry import Registry
from .._speed import TYPE_CHECKING
from ..errors import SpecError, ToolwireError
from ._common import InputError, UsageError

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import Any, TextIO


__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    """The argparse parser of every command (:mod:`.parser`, loaded only for a command
    line that :func:`_plain_extract` does not read)."""
    from ._parser import build_parser  # lazy: argparse only for what _plain_extract leaves

    return build_parser()


def _plain_extract(argv: Sequence[str]) -> argparse.Namespace | None:
    """A plain ``extract`` command line, read without argparse; None for any other.

    Importing and building the argparse parser costs a short-lived process several
    milliseconds, more than reading a reply. This reads only the common shape —
    ``extract [FILE] [--format F | -f F] [--example E] [--strict | --lenient]``, each at
    most once, values not starting with ``-`` — into what argparse would give; anything
    else (help, ``--opt=value``, abbreviations, ``--text``, mistakes) goes to argparse.
    """
    if not argv or argv[0] != "extract":
        return None
    args: dict[str, Any] = {
        "command": "extract", "file": None, "format": None, "example": None, "text": None,
        "param": [], "jsonl": False, "strict": False, "lenient": False,
        "text_in_content": None, "stream": False, "follow": False, "allow_incomplete": False,
        "tools": None, "choice": None, "response_template": None,
    }
    seen: set[str] = set()
    rest = list(argv[1:])
    while rest:
        token = rest.pop(0)
        if token in ("--format", "-f", "--example"):
            key = "example" if token == "--example" else "format"
            if key in seen or not rest or rest[0].startswith("-"):
                return None
            args[key] = rest.pop(0)
        elif token in ("--strict", "--lenient"):
            key = "mode"
            if key in seen:
                return None
            args[token[2:]] = True
        elif token == "-" or not token.startswith("-"):
            key = "file"
            if key in seen:
                return None
            args[key] = token
        else:
            return None
        seen.add(key)
    return _Namespace(args)  # type: ignore[return-value]  # argparse's duck


class _Namespace:
    """The fields of a command line as attributes, as ``argparse.Namespace`` holds them
    (``types.SimpleNamespace`` would cost a cold start the ``types`` import)."""

    def __init__(self, fields: dict[str, Any]) -> None:
        self.__dict__.update(fields)


def _run(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``args``' command. Each command's module is imported here, when its command
    runs: a cold ``toolwire extract`` loads no other command's code."""
    command = args.command if args.command != "specs" else f"specs {args.specs_command}"
    if command in ("extract", "sniff"):
        from ._extract import run_extract, run_sniff  # lazy: each command loads only its own

        run = run_extract if command == "extract" else run_sniff
        return run(args, Registry.default(), out)
    if command == "explain":
        from ._explain import run as run_explain  # lazy: as above

        return run_explain(args, Registry.default(), out)
    if command == "specs check":
        from ._specs_check import run_check  # lazy: as above

        return run_check(args, out)
    if command == "specs test":
        from ._specs_test import run_test  # lazy: as above

        return run_test(args, out)
    if command == "specs export":
        from ._specs_export import run_export  # lazy: as above

        return run_export(args, Registry.default(), out)
    if command.startswith("specs "):
        from ._specs import (  # lazy: as above
            run_generated,
            run_list,
            run_new,
            run_schema,
            run_table,
        )

        run = {"new": run_new, "table": run_table, "list": run_list,
               "schema": run_schema, "generated": run_generated}[args.specs_command]
        return run(args, Registry.default(), out)
    if command == "batch":
        from ._batch import run as run_batch  # lazy: as above

        return run_batch(args, out)
    from ._conformance import run as run_conformance  # lazy: as above

    return run_conformance(args, out)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code."""
    out = out or sys.stdout
    try:
        args = _plain_extract(sys.argv[1:] if argv is None else argv) or _parser().parse_args(argv)
    except SystemExit:  # --help, --version, a usage error: printed, the reader maybe gone
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            _reader_gone()
        raise
    except BrokenPipeError:  # a help text longer than the buffer, its reader gone
        _reader_gone()
        return 1
    try:
        code = _run(args, out)
        out.flush()  # here, so that a reader gone is met below, not at exit
        return code
    except BrokenPipeError:
        _reader_gone()
        return 1
    except UsageError as exc:
        print(f"toolwire: usage: {exc}", file=sys.stderr)
        return 2
    except InputError as exc:
        print(f"toolwire: input: {exc}", file=sys.stderr)
        return 1
    except SpecError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    except ToolwireError as exc:
        print(f"toolwire: {exc.code}: {exc}", file=sys.stderr)
        return 1


def _reader_gone() -> None:
    """The reader of standard output went away (``toolwire specs list | head -2``): stop
    quietly, as command-line tools do, pointing stdout at the null device so that the
    interpreter's last flush finds nothing to complain about."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is no file (a test's buffer): nothing to silence
        pass
