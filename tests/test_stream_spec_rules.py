"""The stream part's loader rules (specs/README.md §2, §9.1): ``stream-slot-list`` with
``part_lists``, and ``stream-op`` with the eighth operation ``append``.

Kept in Python until the JS loader checks the stream part (it accepts any stream part today),
so the conformance suite's spec-validation cases stay ones both implementations pass; the case
``stream_part_lists_admit_a_list_of_parts`` is the accepted spec these start from.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolwire import SpecError
from toolwire.spec import load_wire_spec

ROOT = Path(__file__).resolve().parent.parent
ACCEPTED = json.loads((ROOT / "specs/conformance/spec-validation/"
                       "stream_part_lists_admit_a_list_of_parts.json").read_text())["spec_text"]
PART_LISTS = '  part_lists: ["message.parts"]\n'


def _problems(tmp_path: Path, text: str) -> list[tuple[str, int, int, str]]:
    path = tmp_path / "demo.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_wire_spec(path)
    except SpecError as exc:
        return [(p.rule, p.line, p.col, p.pointer) for p in exc.problems]
    return []


def test_the_accepted_spec_names_its_part_list() -> None:
    assert PART_LISTS in ACCEPTED


def test_a_slot_list_outside_the_sources_and_part_lists_is_refused(tmp_path: Path) -> None:
    text = ACCEPTED.replace(PART_LISTS, "")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "name: part," in row)
    col = text.splitlines()[line - 1].index('"message.parts"') + 1
    assert _problems(tmp_path, text) == [
        ("stream-slot-list", line, col, "/stream/rules/1/open/list")]


@pytest.mark.parametrize("other", ["set: {done: \"done\"}", "end: {}"])
def test_append_beside_another_operation_is_refused(tmp_path: Path, other: str) -> None:
    rule = f"    - {{name: both, append: {{message.text: \"piece\"}}, {other}}}\n"
    text = ACCEPTED.replace(PART_LISTS, rule + PART_LISTS)
    line = text.splitlines().index(rule.rstrip("\n")) + 1
    problems = _problems(tmp_path, text)
    assert problems == [("stream-op", line, 7, "/stream/rules/3")]
