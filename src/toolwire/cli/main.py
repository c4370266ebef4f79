"""The ``toolwire`` command: parse the command line, run the command, map failures to exits.

Each command's logic lives in a module of its own (:mod:`.extract`, :mod:`.specs`,
:mod:`.specs_check`, ...); this module only wires the parser and dispatches. Exit codes:
0 success; 1 the input or a spec is bad (one line on stderr per problem,
``toolwire: <code>: <message>``); 2 the command line itself is wrong (one line on stderr,
``toolwire: usage: <message>``).
"""

from __future__ import annotations

import sys

from ..errors import SpecError, ToolwireError
from .common import InputError, UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence
    from typing import Any, NoReturn, TextIO

    from ..registry import Registry

__all__ = ["main"]

DESCRIPTION = "Read the tool calls out of LLM replies, and check, test and explain the specs."
EPILOG = ("Exit status: 0 success, 1 bad input or spec (one line per problem on stderr),"
          " 2 a wrong command line.")


def _parser() -> argparse.ArgumentParser:
    import argparse

    from .. import __version__

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            self.exit(2, f"toolwire: usage: {message} (see {self.prog} --help)\n")

    parser = _Parser(prog="toolwire", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"toolwire {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser,
                                     metavar="COMMAND")

    extract = commands.add_parser("extract", help="print the reply's tool calls as JSON",
                                  description="Print a reply (its calls, server calls, loose"
                                  " ends) as JSON, or the tool calls inside model text.")
    extract.add_argument("file", nargs="?", help="a JSON reply (default: standard input)")
    extract.add_argument("--format", "-f", help="the wire format (default: sniffed)")
    extract.add_argument("--example", help="read a bundled example reply instead of a file")
    extract.add_argument("--text", metavar="FMT", help="read tool calls written in model text")
    extract.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                         help="a text format's parameter (with --text), e.g. tag=tool_call")
    extract.add_argument("--jsonl", action="store_true",
                         help="the input is JSON Lines: one reply per line, one JSON line out")
    from .text_in_content import add_options as add_text_in_content

    add_text_in_content(extract)
    from .tools import add_options as add_tools

    add_tools(extract)
    from .response_template import add_options as add_response_template

    add_response_template(extract)
    from .stream import add_arguments as add_stream

    add_stream(extract)
    from .choice import add_options as add_choice

    add_choice(extract)
    group = extract.add_mutually_exclusive_group()
    group.add_argument("--strict", action="store_true", help="refuse unknown item types")
    group.add_argument("--lenient", action="store_true", help="report unknown item types")

    sniff = commands.add_parser("sniff", help="print the format a reply looks like",
                                description="Print the wire format a reply's shape matches.")
    sniff.add_argument("file", nargs="?", help="a JSON reply (default: standard input)")
    sniff.add_argument("--jsonl", action="store_true",
                       help="one reply per line; one format name per line (- for none)")

    specs = commands.add_parser("specs", help="check, test, list, tabulate and start specs",
                                description="Work on wire and text specs.")
    spec_commands = specs.add_subparsers(dest="specs_command", required=True,
                                         parser_class=_Parser, metavar="SUBCOMMAND")
    check = spec_commands.add_parser("check", help="validate spec files or folders")
    check.add_argument("paths", nargs="*", help="files or folders (default: the bundled specs)")
    listing = spec_commands.add_parser("list", help="list the formats and their entry counts")
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    new = spec_commands.add_parser("new", help="write a commented spec skeleton that validates")
    new.add_argument("name", help="the new format's name (also its file name)")
    new.add_argument("--extends", metavar="BASE", help="start from this format (e.g. openai)")
    new.add_argument("--out", default=".", metavar="DIR", help="the folder to write NAME.yaml to")
    new.add_argument("--force", action="store_true", help="overwrite an existing file")
    table = spec_commands.add_parser("table", help="print every wire format as a Markdown table")
    table.add_argument("--bundled", action="store_true",
                       help="the bundled specs only, ignoring TOOLWIRE_SPEC_PATH (docs/formats.md)")
    schema = spec_commands.add_parser("schema", help="print or write the meta-schemas")
    schema.add_argument("kind", nargs="?", default="wire", choices=["wire", "text", "case"],
                        help="which meta-schema to print (default: wire)")
    schema.add_argument("--out", metavar="DIR",
                        help="write all three meta-schemas into DIR instead of printing one")
    export = spec_commands.add_parser(
        "export", help="write every spec, merged, as one JSON file with the meta-schemas")
    export.add_argument("dir", metavar="DIR", help="the folder to write specs.json and schema/ to")
    from .specs_test import add_parser as add_specs_test

    add_specs_test(spec_commands)
    from .explain import add_parser as add_explain

    add_explain(commands)
    from .batch import add_parser as add_batch_parser

    add_batch_parser(commands)
    return parser


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
        "text_in_content": None, "stream": False, "follow": False,
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


def _command(args: argparse.Namespace) -> Callable[[argparse.Namespace, Registry, TextIO], int]:
    """The function running ``args``' command, imported on demand."""
    if args.command == "extract":
        from .extract import run_extract

        return run_extract
    if args.command == "sniff":
        from .extract import run_sniff

        return run_sniff
    if args.command == "explain":
        from .explain import run

        return run
    from . import specs

    if args.specs_command == "export":
        from .specs_export import run_export

        return run_export
    return {"new": specs.run_new, "table": specs.run_table, "list": specs.run_list,
            "schema": specs.run_schema}[
        args.specs_command]


def _run(args: argparse.Namespace, out: TextIO) -> int:
    if args.command == "specs" and args.specs_command == "check":
        from .specs_check import run_check

        return run_check(args, out)
    if args.command == "specs" and args.specs_command == "test":
        from .specs_test import run_test

        return run_test(args, out)
    if args.command == "batch":
        from .batch import run as run_batch

        return run_batch(args, out)
    from ..registry import Registry

    return _command(args)(args, Registry.default(), out)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code."""
    out = out or sys.stdout
    args = _plain_extract(sys.argv[1:] if argv is None else argv) or _parser().parse_args(argv)
    try:
        return _run(args, out)
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
