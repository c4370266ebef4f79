"""The ``toolwire`` command line as an argparse parser: every command and its options.

Kept apart from :mod:`.main`: importing argparse and building this parser cost a
short-lived process several milliseconds, more than reading a reply, so a plain
``toolwire extract`` (read by ``main._plain_extract``) never loads this module.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from .. import __version__
from ._batch import add_parser as add_batch_parser
from ._choice import add_options as add_choice
from ._common import suggestion
from ._conformance import add_parser as add_conformance
from ._explain import add_parser as add_explain
from ._response_template import add_options as add_response_template
from ._specs_test import add_parser as add_specs_test
from ._stream import add_arguments as add_stream
from ._text_in_content import add_options as add_text_in_content
from ._tools import add_options as add_tools

if TYPE_CHECKING:
    from typing import Any, NoReturn

__all__ = ["DESCRIPTION", "EPILOG", "build_parser"]

DESCRIPTION = "Read the tool calls out of LLM replies, and check, test and explain the specs."
EPILOG = ("Exit status: 0 success, 1 bad input or spec (one line per problem on stderr),"
          " 2 a wrong command line.")


class _Parser(argparse.ArgumentParser):
    """A usage mistake as one line on stderr and exit 2 (see :mod:`.main`), naming the
    option probably meant when the command line holds one this parser does not know."""

    _seen: list[str] | None = None

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self._seen = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"toolwire: usage: {message}{self._meant()} (see {self.prog} --help)\n")

    def _meant(self) -> str:
        """``"; did you mean '--version'?"`` for the first unknown option with a near miss
        among the options of this parser and of the subcommands the command line names."""
        tokens = self._seen or []
        known = set(self._option_string_actions)
        parser: argparse.ArgumentParser = self
        for token in tokens:
            for action in parser._actions:
                chosen = action.choices.get(token) if isinstance(action.choices, dict) else None
                if isinstance(chosen, argparse.ArgumentParser):
                    parser = chosen
                    known.update(parser._option_string_actions)
                    break
        for token in tokens:
            if token == "--":
                break
            name = token.split("=", 1)[0]
            if name.startswith("--") and name not in known:
                meant = suggestion(name, sorted(o for o in known if o.startswith("--")))
                if meant:
                    return meant
        return ""


def build_parser() -> argparse.ArgumentParser:
    """Every command, subcommand and option of ``toolwire``."""
    parser = _Parser(prog="toolwire", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"toolwire {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser,
                                     metavar="COMMAND")
    _add_extract(commands)
    _add_sniff(commands)
    _add_specs(commands)
    add_explain(commands)

    add_batch_parser(commands)

    add_conformance(commands)
    return parser


def _add_extract(commands: Any) -> None:
    """``toolwire extract``: a reply's calls as JSON, with every way of reading one."""
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

    add_text_in_content(extract)

    add_tools(extract)

    add_response_template(extract)

    add_stream(extract)

    add_choice(extract)
    group = extract.add_mutually_exclusive_group()
    group.add_argument("--strict", action="store_true", help="refuse unknown item types")
    group.add_argument("--lenient", action="store_true", help="report unknown item types")


def _add_sniff(commands: Any) -> None:
    """``toolwire sniff``: the format a reply looks like."""
    sniff = commands.add_parser("sniff", help="print the format a reply looks like",
                                description="Print the wire format a reply's shape matches.")
    sniff.add_argument("file", nargs="?", help="a JSON reply (default: standard input)")
    sniff.add_argument("--jsonl", action="store_true",
                       help="one reply per line; one format name per line (- for none)")


def _add_specs(commands: Any) -> None:
    """``toolwire specs`` and its subcommands: work on wire and text specs."""
    specs = commands.add_parser("specs", help="check, test, list, tabulate and start specs",
                                description="Work on wire and text specs.")
    spec_commands = specs.add_subparsers(dest="specs_command", required=True,
                                         parser_class=_Parser, metavar="SUBCOMMAND")
    _add_specs_check_list_new(spec_commands)
    _add_specs_table_schema_export(spec_commands)
    _add_specs_generated(spec_commands)
    add_specs_test(spec_commands)


def _add_specs_check_list_new(spec_commands: Any) -> None:
    """``specs check``, ``specs list`` and ``specs new``: validate, list and start specs."""
    check = spec_commands.add_parser("check", help="validate spec files or folders",
                                     description="Validate spec files or folders: every"
                                     " problem as path:line:col, its JSON pointer and rule.")
    check.add_argument("paths", nargs="*", help="files or folders (default: the bundled specs)")
    listing = spec_commands.add_parser("list", help="list the formats and their entry counts",
                                       description="List every format (wire and text), its"
                                       " title, entry counts and where it comes from.")
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    new = spec_commands.add_parser("new", help="write a commented spec skeleton that validates",
                                   description="Write NAME.yaml, a commented wire spec skeleton"
                                   " that validates, to start a format from.")
    new.add_argument("name", help="the new format's name (also its file name)")
    new.add_argument("--extends", metavar="BASE", help="start from this format (e.g. openai)")
    new.add_argument("--out", default=".", metavar="DIR", help="the folder to write NAME.yaml to")
    new.add_argument("--force", action="store_true", help="overwrite an existing file")


def _add_specs_table_schema_export(spec_commands: Any) -> None:
    """``specs table``, ``specs schema`` and ``specs export``: the specs written out."""
    table = spec_commands.add_parser("table", help="print every wire format as a Markdown table",
                                     description="Print the audit table of every wire format"
                                     " (what each reads, serves and refuses) in Markdown.")
    table.add_argument("--bundled", action="store_true",
                       help="the bundled specs only, ignoring TOOLWIRE_SPEC_PATH (docs/formats.md)")
    schema = spec_commands.add_parser("schema", help="print or write the meta-schemas",
                                      description="Print a meta-schema (wire specs, text specs"
                                      " or conformance cases), or write all three into DIR.")
    schema.add_argument("kind", nargs="?", default="wire", choices=["wire", "text", "case"],
                        help="which meta-schema to print (default: wire)")
    schema.add_argument("--out", metavar="DIR",
                        help="write all three meta-schemas into DIR instead of printing one")
    export = spec_commands.add_parser(
        "export", help="write every spec, merged, as one JSON file with the meta-schemas",
        description="Write DIR/specs.json (every spec merged with its base) and DIR/schema/."
        " Existing files, and links leading out of DIR, are refused without --force.")
    export.add_argument("dir", metavar="DIR", help="the folder to write specs.json and schema/ to")
    export.add_argument("--force", action="store_true", help="replace existing files")


def _add_specs_generated(spec_commands: Any) -> None:
    """``specs generated``: the Python a wire spec's readers generate."""
    generated = spec_commands.add_parser(
        "generated", help="print the Python a wire spec's readers generate",
        description="Print the source of FORMAT's generated extract function (or, with"
        " --read or --gate, its read function or its reply check): the code the readers"
        " compile on a spec's second reply, registered under the same name in tracebacks.")
    generated.add_argument("format", metavar="FORMAT", help="a wire format name")
    which = generated.add_mutually_exclusive_group()
    which.add_argument("--read", dest="kind", action="store_const", const="read",
                       help="the generated read function")
    which.add_argument("--gate", dest="kind", action="store_const", const="gate",
                       help="the written-out reply check (error, stream event, shape)")
    generated.add_argument("--strict", action=argparse.BooleanOptionalAction, default=None,
                           help="unknown item types refused (--strict) or reported"
                           " (--no-strict); default: the spec's own unknown_items")
    generated.set_defaults(kind="extract")
