"""Running the suite through an implementation: cases out as requests, answers compared.

:func:`run_suite` drives each case's check (:mod:`.checks`): it sends the requests the check
yields to ``ask`` (one request in, one answer out: the in-process reference or a
:class:`.program.Program`), holds each answer to the answer schema, and gives the outcomes
back. A case passes when its check finds no difference; an ``unsupported`` answer makes it
not implemented; an optional case is skipped unless asked for (specs/README.md §4.1).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .._paths import bundled_specs_dir
from ._checks import check_case
from ._program import ProgramError
from ._suite import Case, case_problems

__all__ = ["Ask", "CaseResult", "answer_problems", "run_suite"]

Ask = Callable[[list[dict[str, Any]]], list[dict[str, Any]]]
"""Requests in, their answers (parsed JSON) out, in order."""


@dataclass
class CaseResult:
    """How one case file fared: ``passed``, ``failed``, ``skipped`` or ``not_implemented``."""

    case: str
    kind: str
    status: str
    differences: list[str] = field(default_factory=list)


class _Unsupported(Exception):
    pass


class _Validators:
    """The answer schema's validators: the envelope, and each operation's result."""

    def __init__(self) -> None:
        import jsonschema  # lazy: jsonschema only when answers are checked

        path = bundled_specs_dir() / "schema" / "conformance-answer.v1.schema.json"
        schema = json.loads(path.read_text(encoding="utf-8"))
        self.envelope = jsonschema.Draft7Validator(schema)
        results = {key[len("result_"):]: {**schema, "oneOf": [{"$ref": f"#/definitions/{key}"}]}
                   for key in schema["definitions"] if key.startswith("result_")}
        for name, sub in results.items():
            sub.pop("required")
            sub.pop("properties")
            sub.pop("additionalProperties")
            sub.pop("type")
            results[name] = sub
        self.results = {name: jsonschema.Draft7Validator(sub) for name, sub in results.items()}


_VALIDATORS: list[_Validators] = []


def answer_problems(request: dict[str, Any], answer: Any) -> list[str]:
    """Where an answer breaks the answer schema (its envelope, then its operation's result)."""
    if not _VALIDATORS:
        _VALIDATORS.append(_Validators())
    validators = _VALIDATORS[0]
    found = [f"/{'/'.join(map(str, e.absolute_path))}: {e.message}"
             for e in validators.envelope.iter_errors(answer)]
    if not found and "result" in answer:
        validator = validators.results.get(request["op"])
        if validator is not None:
            found = [f"/result/{'/'.join(map(str, e.absolute_path))}: {e.message}"
                     for e in validator.iter_errors(answer["result"])]
    return found[:3]


_DERIVED = (":cut", ":split", ":bytes")
"""Id suffixes of the requests a stream check derives (:mod:`.checks_stream`): their answers
are compared with the whole stream's, whose answer is held to the schema, so the thousands
of them skip the schema (which would cost most of the run)."""


_STREAM_KEYS = frozenset({"format", "ready", "complete", "error", "reply", "incomplete_reply"})


def _shallow_problems(answer: dict[str, Any]) -> list[str]:
    """A derived stream answer's envelope and top-level keys only."""
    if set(answer) - {"id", "result", "error", "unsupported"} or len(answer) != 2:
        return ["the answer has other keys than id and one of result, error, unsupported"]
    result = answer.get("result")
    if "result" in answer and not (isinstance(result, dict) and set(result) == _STREAM_KEYS):
        return [f"a stream result has exactly the keys {', '.join(sorted(_STREAM_KEYS))}"]
    return []


def _outcomes(ask: Ask, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for request, answer in zip(requests, ask(requests), strict=True):
        if "unsupported" in answer:
            raise _Unsupported(f"{request['op']}: {answer['unsupported']}")
        derived = any(mark in request["id"].rpartition("::")[2] for mark in _DERIVED)
        problems = _shallow_problems(answer) if derived else answer_problems(request, answer)
        if problems:
            raise ProgramError(f"the answer to {request['id']} breaks the answer schema: "
                               + "; ".join(problems))
        out.append({k: v for k, v in answer.items() if k != "id"})
    return out


def _run_case(case: Case, ask: Ask) -> CaseResult:
    problems = case_problems(case)
    if problems:
        return CaseResult(case.name, case.kind, "failed", problems)
    check = check_case(case)
    try:
        requests = next(check)
        while True:
            requests = check.send(_outcomes(ask, requests))
    except StopIteration as done:
        found: list[str] = done.value
        return CaseResult(case.name, case.kind, "failed" if found else "passed", found)
    except _Unsupported as exc:
        return CaseResult(case.name, case.kind, "not_implemented", [str(exc)])
    except ProgramError as exc:
        return CaseResult(case.name, case.kind, "failed", [str(exc)])
    except (KeyError, TypeError, AttributeError, IndexError) as exc:  # an answer's inner shape
        return CaseResult(case.name, case.kind, "failed",
                          [f"an answer is not shaped as the answer schema says: {exc!r}"])


def run_suite(cases: list[Case], ask: Ask, *, optional: bool = False,
              deadline: float | None = None) -> Iterator[CaseResult]:
    """Each case's result, in order; optional cases skipped unless ``optional``. Past
    ``deadline`` (a :func:`time.monotonic` instant) a case fails without being run."""
    for case in cases:
        if isinstance(case.data, dict) and case.data.get("optional") and not optional:
            yield CaseResult(case.name, case.kind, "skipped", [str(case.data["optional"])])
            continue
        if deadline is not None and time.monotonic() >= deadline:
            yield CaseResult(case.name, case.kind, "failed",
                             ["not run: the run's time budget (--budget) was spent"])
            continue
        yield _run_case(case, ask)
