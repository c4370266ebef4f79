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

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any

    from ..registry import Registry

__all__ = ["SPECIAL", "Overlap", "Response", "case_responses", "holding", "overlaps"]

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
    """Two formats whose predicates both hold on ``where``; ``winner`` is what sniffs."""

    first: str
    second: str
    where: str
    winner: str | None
    tie: bool

    def message(self) -> str:
        how = ("with the same priority, so the format name decides" if self.tie
               else "and only the priority decides")
        return (f"the sniff predicates of {self.first} and {self.second} both hold on"
                f" {self.where} {how}: it sniffs as {self.winner}")


def case_responses(files: Iterable[Path], root: Path) -> Iterator[Response]:
    """Every reply of the wire cases in ``files`` (stream cases and the special folders'
    skipped), named ``<path below root>::<index>``. A file that is not a case is skipped:
    telling the author about that is the case runner's duty, not this check's."""
    for path in files:
        try:
            case = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(case, dict) or case.get("kind") == "stream":
            continue
        rel = path.relative_to(root) if path.is_relative_to(root) else path
        if rel.parts and rel.parts[0] in SPECIAL:
            continue
        tests = case.get("tests")
        for index, test in enumerate(tests if isinstance(tests, list) else []):
            if isinstance(test, dict):
                yield Response(f"{rel.as_posix()}::{index}", path.parent.name,
                               test.get("response"), test.get("expect") or {})


def holding(registry: Registry, data: Any) -> list[str]:
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
    registry: Registry, responses: Iterable[Response], *, involving: frozenset[str] | None = None
) -> list[Overlap]:
    """Each pair of formats holding together, once, with the first reply they both hold on;
    only pairs with a format of ``involving`` when it is given."""
    specs = registry.specs()
    found: dict[tuple[str, str], Overlap] = {}
    for response in responses:
        held = holding(registry, response.data)
        for i, first in enumerate(held):
            for second in held[i + 1:]:
                if (first, second) in found:
                    continue
                if involving is not None and not {first, second} & involving:
                    continue
                tie = specs[first].sniff_priority == specs[second].sniff_priority
                found[(first, second)] = Overlap(first, second, response.name,
                                                 registry.sniff_format(response.data), tie)
    return [found[pair] for pair in sorted(found)]
