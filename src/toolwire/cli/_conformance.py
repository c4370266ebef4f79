"""``toolwire conformance``: the conformance suite run through an implementation.

``--implementation CMD`` starts CMD once and talks the protocol of specs/README.md §10 with
it (one JSON request per line in, one answer per line out); without it, toolwire itself
answers, in this process. Prints each failing case with its differences, then per-kind
counts and ``N passed, N failed, N skipped (optional), N not implemented``. Exits 0 when
every case run passed, 1 when one failed or was not implemented, 2 for a wrong command line.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

from ._common import UsageError

__all__ = ["add_parser", "run"]

_STATUSES = ("passed", "failed", "skipped", "not_implemented")


def add_parser(commands: Any) -> None:
    """The ``conformance`` command."""
    from ..conformance import KINDS  # lazy: the harness only when the parser is built or it runs

    parser = commands.add_parser(
        "conformance", help="run the conformance suite through an implementation",
        description="Run every case of the conformance suite through an implementation that"
        " speaks the protocol of specs/README.md §10 (one JSON request per line on its stdin,"
        " one JSON answer per line on its stdout), comparing as the suite does.")
    parser.add_argument("--implementation", metavar="CMD",
                        help="the program to run, split into words as a shell would"
                        " (default: toolwire itself, in this process)")
    parser.add_argument("--kind", action="append", choices=KINDS, metavar="KIND",
                        help=f"run only cases of this kind (repeatable): {', '.join(KINDS)}")
    parser.add_argument("--optional", action="store_true",
                        help="run the optional cases too (then they must pass)")
    parser.add_argument("--suite", metavar="DIR",
                        help="a folder laid out as specs/conformance (default: the bundled suite)")
    parser.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                        help="how long to wait for one answer (default: 60)")
    parser.add_argument("--budget", type=float, default=3600.0, metavar="SECONDS",
                        help="how long the whole run may take; the cases left when it is"
                        " spent fail unrun (default: 3600)")
    parser.add_argument("--diff-reference", nargs="?", const="report",
                        choices=("report", "fail"), metavar="fail",
                        help="with --implementation: also hold every field of every answer"
                        " against toolwire's own answer to the same request and list where"
                        " they differ (messages and reasons aside); a difference fails the"
                        " run only with --diff-reference=fail")
    parser.add_argument("--record", metavar="FILE",
                        help="write every request and its answer to FILE, one JSON line each")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object (counts, failures) instead of lines")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also name each skipped and not-implemented case")


def _asker(args: Any, record: TextIO | None, deadline: float) -> tuple[Any, Any, Any]:
    """The function answering a request, what to close at the end, and the reference diff
    (or None)."""
    if args.implementation is None:
        # lazy: toolwire as the implementation only without --program
        from ..conformance._reference import answer

        def ask(requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return [answer(request) for request in requests]

        program = diff = None
    else:
        # lazy: the external program only with --implementation
        from ..conformance._program import Program, ProgramMissing

        try:
            program = Program(args.implementation, timeout=args.timeout, deadline=deadline)
            program.start()
        except (ValueError, ProgramMissing) as exc:
            raise UsageError(f"--implementation: {exc}") from None
        ask = program.ask
        diff = None
        if args.diff_reference:
            from ..conformance._diff import ReferenceDiff  # lazy: only when diffing

            ask = diff = ReferenceDiff(ask)
    if record is None:
        return ask, program, diff

    def recorded(requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        answers: list[dict[str, Any]] = ask(requests)
        for request, answer in zip(requests, answers, strict=True):
            record.write(json.dumps({"request": request, "answer": answer}) + "\n")
        return answers

    return recorded, program, diff


def _summary(results: list[Any]) -> dict[str, Any]:
    kinds: dict[str, Counter[str]] = {}
    for result in results:
        kinds.setdefault(result.kind, Counter())[result.status] += 1
    totals = Counter(r.status for r in results)
    return {
        "kinds": {k: {s: c[s] for s in _STATUSES} for k, c in sorted(kinds.items())},
        "totals": {s: totals[s] for s in _STATUSES},
        "failures": [{"case": r.case, "differences": r.differences}
                     for r in results if r.status == "failed"],
        "not_implemented": [{"case": r.case, "reason": "; ".join(r.differences)}
                            for r in results if r.status == "not_implemented"],
    }


def _printable(text: str) -> str:
    """``text`` with any lone surrogate (an answer may hold one) written as ``\\udXXX``."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _print(summary: dict[str, Any], results: list[Any], verbose: bool, out: TextIO) -> None:
    for result in results:
        if result.status == "failed" or (verbose and result.status != "passed"):
            out.write(f"{result.status.upper().replace('_', ' ')} {result.case}\n")
            for line in result.differences[:20]:
                out.write(f"    {_printable(line[:1000])}\n")
    for kind, c in summary["kinds"].items():
        extra = f", {c['not_implemented']} not implemented" if c["not_implemented"] else ""
        out.write(f"{kind:16} {c['passed']} passed, {c['failed']} failed,"
                  f" {c['skipped']} skipped{extra}\n")
    for case, lines in summary.get("reference_differences", {}).items():
        out.write(f"DIFFERS FROM THE REFERENCE {case}\n")
        for line in lines[:20]:
            out.write(f"    {_printable(line[:1000])}\n")
    if "reference_differences" in summary:
        out.write(f"{len(summary['reference_differences'])} case(s) answered otherwise than"
                  " the reference\n")
    t = summary["totals"]
    out.write(f"{t['passed']} passed, {t['failed']} failed, {t['skipped']} skipped (optional),"
              f" {t['not_implemented']} not implemented\n")


def run(args: Any, out: TextIO) -> int:
    """Run the suite through the implementation; print the results."""
    # lazy: the harness only when the command runs
    from ..conformance import KINDS, load_cases, run_suite

    root = None
    if args.suite is not None:
        root = Path(args.suite)
        if not root.is_dir():
            raise UsageError(f"{root} is not a folder")
    kinds = tuple(args.kind) if args.kind else KINDS
    cases = load_cases(root, kinds)
    if not cases:
        raise UsageError("no case files (*.json) to run")
    if args.diff_reference and args.implementation is None:
        raise UsageError("--diff-reference holds an --implementation against the reference")
    if args.timeout <= 0 or args.budget <= 0:
        raise UsageError("--timeout and --budget are positive numbers of seconds")
    started = time.perf_counter()
    deadline = time.monotonic() + args.budget
    record = open(args.record, "w", encoding="utf-8") if args.record else None  # noqa: SIM115
    try:
        ask, program, diff = _asker(args, record, deadline)
    except UsageError:
        if record is not None:
            record.close()
        raise
    try:
        results = list(run_suite(cases, ask, optional=args.optional, deadline=deadline))
    finally:
        if program is not None:
            program.close()
        if record is not None:
            record.close()
    summary = _summary(results)
    summary["seconds"] = round(time.perf_counter() - started, 2)
    if program is not None:
        summary["processes_started"] = program.started
    if diff is not None:
        summary["reference_differences"] = diff.differences
    if args.json:
        out.write(json.dumps(summary) + "\n")
    else:
        _print(summary, results, args.verbose, out)
    totals = summary["totals"]
    differ = args.diff_reference == "fail" and bool(summary.get("reference_differences"))
    return 1 if totals["failed"] or totals["not_implemented"] or differ else 0
