"""Sniff predicates that both hold on one reply: an overlap only priorities (or names) decide.

``sniff_format`` tries the predicates by priority, then by format name, and answers with
the first that holds. Two predicates holding on one reply means the winner is decided by
that order alone: a new spec that ties ``openai`` on priority loses to it silently, by
name, and one with a higher priority takes every OpenAI reply. Both are found here by
running every predicate on a set of example replies (specs/README.md §2.1):

* ``tools/check_sniff.py`` runs it over the bundled conformance suite;
* ``toolwire specs check DIR`` runs it over the same replies, the bundled examples and the
  author's own cases, with the author's specs beside the bundled ones.

Loaded only by those two; reading a reply never imports it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any

    from .spec_source import SpecSource

__all__ = [
    "SPECIAL", "Overlap", "Response", "case_responses", "holding", "overlaps", "sniffs_as",
]

SPECIAL = frozenset({"expression", "interpreter", "spec-validation", "text", "tools"})
"""Folders of the suite whose cases are not replies of their folder's format."""


@dataclass(frozen=True)
class Response:
    """One reply of a case file: where it is, its case's format, and what it expects."""

    name: str
    folder: str
    data: Any
    expect: dict[str, Any]


@dataclass(frozen=True)
class Overlap:
    """Two formats whose predicates both hold on ``where``, a reply of ``expected``;
    ``winner`` is what it sniffs as."""

    first: str
    second: str
    where: str
    winner: str | None
    expected: str | None
    tie: bool

    @property
    def wrong(self) -> bool:
        """A tie (the name decides), or a priority handing the reply to another format."""
        return self.tie or self.winner != self.expected

    def message(self) -> str:
        both = f"the sniff predicates of {self.first} and {self.second} both hold on {self.where}"
        if self.tie:
            return f"{both} with the same priority, so the format name decides: it sniffs as" \
                   f" {self.winner}"
        return f"{both}, a reply of {self.expected}, and the priority gives it to {self.winner}"


def sniffs_as(registry: SpecSource, fmt: str) -> str | None:
    """The format a reply of ``fmt`` sniffs as: its own, or its base chain's, or none."""
    specs = registry.specs()
    spec = specs.get(fmt)
    seen: set[str] = set()
    while spec is not None and spec.sniff is None and spec.format not in seen:
        seen.add(spec.format)
        spec = specs.get(spec.extends) if spec.extends is not None else None
    return spec.format if spec is not None and spec.sniff is not None else None


def case_responses(files: Iterable[Path], root: Path) -> Iterator[Response]:
    """Every reply of the wire cases in ``files`` (stream cases and the special folders'
    skipped), named ``<path below root>::<index>``, of the format the case names (else of
    its folder's, as in the suite). A file that is not a case is skipped:
    telling the author about that is the case runner's duty, not this check's."""
    for path in files:
        try:
            case = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):  # nested too deep for the parser
            continue
        if not isinstance(case, dict) or case.get("kind") == "stream":
            continue
        rel = path.relative_to(root) if path.is_relative_to(root) else path
        if rel.parts and rel.parts[0] in SPECIAL:
            continue
        tests = case.get("tests")
        for index, test in enumerate(tests if isinstance(tests, list) else []):
            if isinstance(test, dict):
                fmt = case.get("format")
                yield Response(f"{rel.as_posix()}::{index}",
                               fmt if isinstance(fmt, str) else path.parent.name,
                               test.get("response"), test.get("expect") or {})


def holding(registry: SpecSource, data: Any) -> list[str]:
    """The formats whose sniff predicate yields JSON true on ``data``, by name."""
    if not isinstance(data, dict):
        return []
    found: list[str] = []
    for name, spec in sorted(registry.specs().items()):
        if spec.sniff is None:
            continue
        try:
            if spec.sniff.evaluate(data) is True:
                found.append(name)
        except ValueError:
            continue
    return found


def overlaps(
    registry: SpecSource, responses: Iterable[Response], *, involving: frozenset[str] | None = None
) -> list[Overlap]:
    """Each pair of formats holding together, once, with the first reply they both hold on
    wrongly (:attr:`Overlap.wrong`), else the first; only pairs with a format of
    ``involving`` when it is given."""
    specs = registry.specs()
    found: dict[tuple[str, str], Overlap] = {}
    for response in responses:
        held = holding(registry, response.data)
        for i, first in enumerate(held):
            for second in held[i + 1:]:
                if (first, second) in found and found[(first, second)].wrong:
                    continue
                if involving is not None and not {first, second} & involving:
                    continue
                tie = specs[first].sniff_priority == specs[second].sniff_priority
                expected = response.expect.get("sniff", sniffs_as(registry, response.folder))
                overlap = Overlap(first, second, response.name,
                                  registry.sniff_format(response.data), expected, tie)
                if (first, second) not in found or overlap.wrong:
                    found[(first, second)] = overlap
    return [found[pair] for pair in sorted(found)]
