"""Loading the language-neutral conformance suite under ``specs/conformance``.

The cases are JSON so any implementation can run them; this module only finds them
and gives each test an id of the form ``<file>::<index>`` for pytest. Running and comparing
lives in :mod:`toolwire.conformance._wire_cases`, which ``toolwire specs test`` shares.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from toolwire.conformance import _checks_stream
from toolwire.conformance._wire_cases import call_dicts as call_dicts
from toolwire.conformance._wire_cases import call_view as call_view
from toolwire.conformance._wire_cases import record_differences

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


def check_records(reply: Any, expect: dict[str, Any]) -> None:
    """The record keys of a case (specs/README.md §4), where the case gives them."""
    assert record_differences(reply, expect) == []


@contextmanager
def split_sample(sampled: bool) -> Iterator[None]:
    """The protocol runs inside send a sample of the single byte-split requests (``True``) or
    every one (``False``); see :data:`toolwire.conformance._checks_stream.SAMPLE_SPLITS`. The
    default run samples, each sampled run has a full twin marked ``exhaustive``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_checks_stream, "SAMPLE_SPLITS", sampled)
        yield
