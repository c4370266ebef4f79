"""The ``toolwire`` command: read tool calls from a reply file, sniff, and check specs.

Exit codes: 0 success; 1 the input or a spec is bad (one line on stderr per problem,
``toolwire: <code>: <message>``); 2 the command line itself is wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from .errors import SpecError, ToolwireError
from .paths import bundled_specs_dir
from .registry import Registry

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"toolwire: usage: {message}\n")


def _examples_dir() -> Path:
    return bundled_specs_dir() / "examples"


def _example_names() -> list[str]:
    folder = _examples_dir()
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


def _read_input(source: str | None, example: str | None) -> str:
    if example is not None:
        path = _examples_dir() / f"{example}.json"
        if not path.is_file():
            names = ", ".join(_example_names())
            raise _UsageError(f"no bundled example {example!r}; examples: {names}")
        return path.read_text(encoding="utf-8")
    if source is None or source == "-":
        return sys.stdin.read()
    try:
        return Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise _InputError(f"cannot read {source}: {exc}") from None


class _UsageError(Exception):
    """A command-line mistake found after parsing (exit 2)."""


class _InputError(Exception):
    """An input that cannot be read at all (exit 1)."""


def _emit(data: Any, out: TextIO) -> None:
    json.dump(data, out, indent=2, ensure_ascii=False)
    out.write("\n")


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
        text = _read_input(args.file, None)
        clean, calls = registry.extract_from_text(args.text, text, **_params(args.param))
        _emit({"format": args.text, "clean_text": clean, "calls": [c.to_dict() for c in calls]},
              out)
        return 0
    if args.param:
        raise _UsageError("--param goes with --text")
    fmt = args.format
    if args.example is not None and fmt is None and args.example in registry.formats():
        fmt = args.example
    reply = registry.read(fmt, _read_input(args.file, args.example), strict=strict)
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
        registry = Registry.from_paths(*paths, include_bundled=False)
    except SpecError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"toolwire: {len(exc.problems)} problem(s)", file=sys.stderr)
        return 1
    count = len(registry.formats()) + len(registry.text_formats())
    out.write(f"ok: {count} spec(s) valid\n")
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
    parser = _Parser(prog="toolwire", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    extract = commands.add_parser("extract", help="print the reply's tool calls as JSON")
    extract.add_argument("file", nargs="?", help="a JSON reply (default: standard input)")
    extract.add_argument("--format", "-f", help="the wire format (default: sniffed)")
    extract.add_argument("--example", help="use a bundled example reply instead of a file")
    extract.add_argument("--text", metavar="FMT", help="read tool calls written in model text")
    extract.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                         help="a text format's parameter (with --text), e.g. tag=tool_call")
    group = extract.add_mutually_exclusive_group()
    group.add_argument("--strict", action="store_true", help="refuse unknown item types")
    group.add_argument("--lenient", action="store_true", help="report unknown item types")

    sniff = commands.add_parser("sniff", help="print the format a reply looks like")
    sniff.add_argument("file", nargs="?", help="a JSON reply (default: standard input)")

    specs = commands.add_parser("specs", help="check and list specs")
    spec_commands = specs.add_subparsers(dest="specs_command", required=True, parser_class=_Parser)
    check = spec_commands.add_parser("check", help="validate spec files or folders")
    check.add_argument("paths", nargs="*", help="files or folders (default: the bundled specs)")
    listing = spec_commands.add_parser("list", help="list the formats and their entry counts")
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code."""
    out = out or sys.stdout
    args = _parser().parse_args(argv)
    try:
        if args.command == "specs" and args.specs_command == "check":
            return _cmd_specs_check(args, out)
        registry = Registry.default()
        if args.command == "extract":
            return _cmd_extract(args, registry, out)
        if args.command == "sniff":
            return _cmd_sniff(args, registry, out)
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


if __name__ == "__main__":
    raise SystemExit(main())
