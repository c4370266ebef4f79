"""Loading the language-neutral conformance suite under ``specs/conformance``.

The cases are JSON so any implementation can run them; this module only finds them
and gives each test an id of the form ``<file>::<index>`` for pytest.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "specs" / "conformance"
SPECIAL = ("expression", "interpreter", "spec-validation", "text", "tools")


@dataclass(frozen=True)
class Case:
    path: Path
    data: dict[str, Any]

    @property
    def name(self) -> str:
        return self.path.relative_to(SUITE).as_posix()


def call_view(call: Any) -> dict[str, Any]:
    """A call as the suite compares it: ``to_dict()`` without the free-text message.

    ``arguments_error`` is for people and differs between languages; the suite pins
    ``arguments_error_code`` instead (specs/README.md §4).
    """
    data: dict[str, Any] = call.to_dict()
    data.pop("arguments_error", None)
    return data


def case_files(*, under: str | None = None) -> list[Path]:
    base = SUITE / under if under else SUITE
    files = sorted(base.rglob("*.json")) if base.is_dir() else []
    if under is None:
        files = [f for f in files if f.relative_to(SUITE).parts[0] not in SPECIAL]
    return files


def cases(*, under: str | None = None, stream: bool = False) -> list[Case]:
    """The cases (``stream=True``: only the stream cases, ``"kind": "stream"``, which the
    wire runners never see)."""
    found = [Case(p, json.loads(p.read_text(encoding="utf-8"))) for p in case_files(under=under)]
    return [c for c in found if (c.data.get("kind") == "stream") is stream]


def each_test(all_cases: list[Case]) -> Iterator[tuple[str, Case, dict[str, Any]]]:
    for case in all_cases:
        for index, test in enumerate(case.data.get("tests", [])):
            yield f"{case.name}::{index}", case, test


OPTIONAL_CALL_KEYS = ("raw_arguments", "item_index", "provider_data")
"""Keys of an expected call compared only where the case gives them (specs/README.md §4):
the cases about keep, raw arguments and item positions carry them; the others need not."""


def call_dicts(calls: Any, expected: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each call's :func:`call_view`, less the optional keys its expected call does not give."""
    got = []
    for index, call in enumerate(calls):
        data = call_view(call)
        wanted = expected[index] if index < len(expected) else {}
        for key in OPTIONAL_CALL_KEYS:
            if key not in wanted:
                data.pop(key, None)
        got.append(data)
    return got


def check_records(reply: Any, expect: dict[str, Any]) -> None:
    """The record keys of a case (specs/README.md §4), where the case gives them."""
    if "unknown" in expect:
        got = [{"item_index": u.item_index, "item_type": u.item_type} for u in reply.unknown]
        assert got == expect["unknown"]
    if "refused" in expect:
        got = [
            {"item_index": r.item_index, "item_type": r.item_type, "code": r.code}
            for r in reply.refused
        ]
        assert got == expect["refused"]
    if "call_records" in expect:
        assert [
            {k: v for k, v in r.to_dict().items() if k in want}
            for r, want in zip(reply.call_records, expect["call_records"], strict=True)
        ] == expect["call_records"]
    if "fates" in expect:
        assert list(reply.fates()) == expect["fates"]
    if "choice_count" in expect:
        assert reply.choice_count == expect["choice_count"]
