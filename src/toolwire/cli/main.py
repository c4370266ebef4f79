"""The ``toolwire`` command: read tool calls from a reply file, sniff, and check specs.

Exit codes: 0 success; 1 the input or a spec is bad (one line on stderr per problem,
``toolwire: <code>: <message>``); 2 the command line itself is wrong.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, cast

from ..errors import SpecError, ToolwireError
from ..paths import bundled_specs_dir, bundled_specs_path
from ..registry import Registry, _spec_files

if TYPE_CHECKING:
    import argparse

__all__ = ["main"]


# os.path, not pathlib, on the path of `extract`: see toolwire.paths for why.
def _examples_dir() -> str:
    return os.path.join(bundled_specs_path(), "examples")


def _example_names() -> list[str]:
    folder = _examples_dir()
    if not os.path.isdir(folder):
        return []
    return sorted(name[: -len(".json")] for name in os.listdir(folder) if name.endswith(".json"))


def _read_text(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _read_input(source: str | None, example: str | None) -> str:
    if example is not None:
        path = os.path.join(_examples_dir(), f"{example}.json")
        if not os.path.isfile(path):
            names = ", ".join(_example_names())
            raise _UsageError(f"no bundled example {example!r}; examples: {names}")
        return _read_text(path)
    if source is None or source == "-":
        return sys.stdin.read()
    try:
        return _read_text(source)
    except (OSError, UnicodeDecodeError) as exc:
        raise _InputError(f"cannot read {source}: {exc}") from None


class _UsageError(Exception):
    """A command-line mistake found after parsing (exit 2)."""


class _InputError(Exception):
    """An input that cannot be read at all (exit 1)."""


def _emit(data: Any, out: TextIO) -> None:
    text = json.dumps(data, indent=2, ensure_ascii=False)
    try:
        text.encode(getattr(out, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        # A lone surrogate (JSON text may escape one, "\ud800") or a narrow console:
        # \u escapes keep the output valid JSON instead of a traceback halfway through.
        text = json.dumps(data, indent=2)
    out.write(text + "\n")


def _params(pairs: Sequence[str]) -> dict[str, str]:
    params: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise _UsageError(f"--param takes NAME=VALUE, not {pair!r}")
        params[key] = value
    return params


def _cmd_extract(args: argparse.Namespace, registry: Registry, out: TextIO) -> int:
    strict = True if args.strict else (False if args.lenient else None)
    if args.text is not None:
        if args.example is not None:
            raise _UsageError("--example and --text do not go together")
        if getattr(args, "text_in_content", None) is not None:
            raise _UsageError("--text and --text-in-content do not go together")
        text = _read_input(args.file, None)
        clean, calls = registry.extract_from_text(args.text, text, **_params(args.param))
        _emit({"format": args.text, "clean_text": clean, "calls": [c.to_dict() for c in calls]},
              out)
        return 0
    from . import text_in_content

    if args.param and not text_in_content.wanted(args):
        raise _UsageError("--param goes with --text or --text-in-content")
    fmt = args.format
    if args.example is not None and fmt is None and args.example in registry.formats():
        fmt = args.example
    data = _read_input(args.file, args.example)
    if text_in_content.wanted(args):
        reply = text_in_content.read_with_text(
            args, registry, fmt, data, strict, _params(args.param)
        )
    else:
        reply = registry.read(fmt, data, strict=strict)
    _emit(reply.to_dict(), out)
    return 0


def _cmd_sniff(args: argparse.Namespace, registry: Registry, out: TextIO) -> int:
    fmt = registry.sniff_format(_read_input(args.file, None))
    if fmt is None:
        print("toolwire: unknown_format: no format recognises this response's shape",
              file=sys.stderr)
        return 1
    out.write(f"{fmt}\n")
    return 0


def _cmd_specs_check(args: argparse.Namespace, out: TextIO) -> int:
    paths = args.paths or [str(bundled_specs_dir())]
    try:
        # A user's folder is checked on top of the bundled specs, which its specs may extend.
        Registry.from_paths(*paths, include_bundled=bool(args.paths))
    except SpecError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"toolwire: {len(exc.problems)} problem(s)", file=sys.stderr)
        return 1
    from pathlib import Path

    count = sum(len(_spec_files(Path(p))) for p in paths)
    out.write(f"ok: {count} spec(s) valid\n")
    return 0


def _cmd_specs_new(args: argparse.Namespace, registry: Registry, out: TextIO) -> int:
    import re
    from pathlib import Path

    from ..spec import FORMAT_PATTERN, render_skeleton

    if not re.match(FORMAT_PATTERN, args.name) or len(args.name) > 64:
        raise _UsageError(f"a format name matches {FORMAT_PATTERN}, not {args.name!r}")
    base = registry.spec(args.extends) if args.extends is not None else None
    folder = Path(args.out)
    path = folder / f"{args.name}.yaml"
    if path.exists() and not args.force:
        raise _InputError(f"{path} exists; pass --force to overwrite it")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(render_skeleton(args.name, base, folder), encoding="utf-8")
    except OSError as exc:
        raise _InputError(f"cannot write {path}: {exc}") from None
    out.write(f"{path}\n")
    return 0


def _cmd_specs_table(args: argparse.Namespace, registry: Registry, out: TextIO) -> int:
    from .audit import formats_markdown

    out.write(formats_markdown(Registry.bundled() if args.bundled else registry))
    return 0


def _cmd_specs_list(args: argparse.Namespace, registry: Registry, out: TextIO) -> int:
    rows: list[tuple[str, ...]] = [
        ("format", "kind", "title", "calls", "server", "ignore", "refuse", "origin")
    ]
    for name, spec in sorted(registry.specs().items()):
        counts = [len(spec.entries_of(k)) for k in ("calls", "server_side", "ignore", "refuse")]
        origin = "user (replaces bundled)" if name in registry.replaced else (
            "bundled" if spec.path.startswith(str(bundled_specs_dir())) else "user")
        rows.append((name, "wire", spec.title, *map(str, counts), origin))
    for name, text_spec in sorted(registry.text_specs().items()):
        origin = "user (replaces bundled)" if name in registry.replaced else "bundled"
        rows.append((name, "text", text_spec.title, "", "", "", "", origin))
    if args.json:
        _emit([dict(zip(rows[0], row, strict=True)) for row in rows[1:]], out)
        return 0
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        out.write("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        out.write("\n")
    return 0


def _parser() -> argparse.ArgumentParser:
    import argparse

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            self.print_usage(sys.stderr)
            self.exit(2, f"toolwire: usage: {message}\n")

    parser = _Parser(prog="toolwire", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    extract = commands.add_parser("extract", help="print the reply's tool calls as JSON")
    extract.add_argument("file", nargs="?", help="a JSON reply (default: standard input)")
    extract.add_argument("--format", "-f", help="the wire format (default: sniffed)")
    extract.add_argument("--example", help="use a bundled example reply instead of a file")
    extract.add_argument("--text", metavar="FMT", help="read tool calls written in model text")
    from .text_in_content import add_options as add_text_in_content

    add_text_in_content(extract)
    extract.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                         help="a text format's parameter (with --text), e.g. tag=tool_call")
    group = extract.add_mutually_exclusive_group()
    group.add_argument("--strict", action="store_true", help="refuse unknown item types")
    group.add_argument("--lenient", action="store_true", help="report unknown item types")

    sniff = commands.add_parser("sniff", help="print the format a reply looks like")
    sniff.add_argument("file", nargs="?", help="a JSON reply (default: standard input)")

    specs = commands.add_parser("specs", help="check, list, tabulate and start specs")
    spec_commands = specs.add_subparsers(dest="specs_command", required=True, parser_class=_Parser)
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
        "param": [], "strict": False, "lenient": False, "text_in_content": None,
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
    return cast("argparse.Namespace", SimpleNamespace(**args))


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code."""
    out = out or sys.stdout
    args = _plain_extract(sys.argv[1:] if argv is None else argv) or _parser().parse_args(argv)
    try:
        if args.command == "specs" and args.specs_command == "check":
            return _cmd_specs_check(args, out)
        if args.command == "batch":
            from .batch import run as run_batch

            return run_batch(args, out)
        registry = Registry.default()
        if args.command == "extract":
            return _cmd_extract(args, registry, out)
        if args.command == "sniff":
            return _cmd_sniff(args, registry, out)
        if args.specs_command == "new":
            return _cmd_specs_new(args, registry, out)
        if args.specs_command == "table":
            return _cmd_specs_table(args, registry, out)
        return _cmd_specs_list(args, registry, out)
    except _UsageError as exc:
        print(f"toolwire: usage: {exc}", file=sys.stderr)
        return 2
    except _InputError as exc:
        print(f"toolwire: input: {exc}", file=sys.stderr)
        return 1
    except SpecError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    except ToolwireError as exc:
        print(f"toolwire: {exc.code}: {exc}", file=sys.stderr)
        return 1
    except TypeError as exc:
        print(f"toolwire: usage: {exc}", file=sys.stderr)
        return 2

