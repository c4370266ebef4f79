"""Check that sniffing stays right as formats grow: every conformance reply sniffs as its own.

Runs every response of the wire conformance suite (``specs/conformance/<format>/*.json``)
through ``sniff_format`` and fails (exit 1), naming each offender, when

* a response sniffs as another format than its own. Its own is the test's ``expect.sniff``
  when the test states one; otherwise the case's format (its folder's), or — for a spec
  without a ``sniff`` of its own, such as a dialect that ``extends: openai`` — the format its
  base chain sniffs as. A response only a spec without any sniff could read is expected to
  sniff as nothing.
* the sniff predicates of two specs both hold on one response of the suite: an overlap the
  priorities alone decide, which the next spec added could silently tip.

The finding lives in :mod:`toolwire._spec.sniff_overlap`, which ``toolwire specs check``
also runs on an author's specs.

Usage: ``PYTHONPATH=src python tools/check_sniff.py [--suite DIR] [SPEC_DIR ...]`` (spec
folders given are added to the bundled specs, as ``Registry.from_paths`` adds them).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from toolwire import Registry
from toolwire._spec.sniff_overlap import Response, case_responses, holding, sniffs_as

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "specs" / "conformance"


@dataclass
class Report:
    """What the check found."""

    wrong: list[str] = field(default_factory=list)
    overlaps: dict[tuple[str, str], str] = field(default_factory=dict)
    checked: int = 0

    @property
    def ok(self) -> bool:
        return not self.wrong and not self.overlaps

    def lines(self) -> list[str]:
        out = list(self.wrong)
        for (first, second), where in sorted(self.overlaps.items()):
            out.append(f"overlap: the sniff predicates of {first} and {second} both hold on"
                       f" {where}")
        return out


def responses(suite: Path = SUITE) -> Iterator[Response]:
    """Every response of the wire conformance cases under ``suite``."""
    return case_responses(sorted(suite.glob("*/*.json")), suite)


def check(registry: Registry, suite: Path = SUITE) -> Report:
    """Sniff every response of ``suite`` with ``registry``; gather the offenders."""
    report = Report()
    for response in responses(suite):
        report.checked += 1
        expected = (
            response.expect["sniff"]
            if "sniff" in response.expect
            else sniffs_as(registry, response.folder)
        )
        got = registry.sniff_format(response.data)
        if got != expected:
            report.wrong.append(
                f"{response.name}: sniffs as {got or 'nothing'}, expected {expected or 'nothing'}"
            )
        held = holding(registry, response.data)
        for i, first in enumerate(held):
            for second in held[i + 1 :]:
                report.overlaps.setdefault((first, second), response.name)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec_dirs", nargs="*", help="spec folders to add to the bundled ones")
    parser.add_argument("--suite", type=Path, default=SUITE, help="the conformance folder")
    args = parser.parse_args(argv)
    registry = Registry.from_paths(*args.spec_dirs)
    report = check(registry, args.suite)
    for line in report.lines():
        print(line)
    if not report.ok:
        print(f"check_sniff: {len(report.lines())} problem(s) in {report.checked} responses")
        return 1
    print(f"check_sniff: ok, {report.checked} responses sniff as their own format, no overlap")
    return 0


if __name__ == "__main__":
    sys.exit(main())
