"""The checks of text, expression and spec-validation cases (see :mod:`.checks_wire`)."""

from __future__ import annotations

from typing import Any

from ._checks_wire import Check
from ._text_cases import text_differences
from ._wire_cases import differences

__all__ = ["check_expression", "check_spec_validation", "check_text"]


def _failed(answer: dict[str, Any]) -> list[str]:
    error = answer["error"]
    return [f"expected a result, got error {error.get('code')}: {error.get('message', '')}"]


def check_text(name: str, data: dict[str, Any]) -> Check:
    """Each test's text read in the case's text format, with the test's tools: the whole
    reading (or the refusal with its partial reply), compared as the Python suite compares
    its own (:func:`toolwire.conformance._text_cases.text_differences`)."""
    answers = yield [{"id": f"{name}::{index}", "op": "text", "format": data["format"],
                      "text": test["text"], "params": test.get("params", {}),
                      "tools": test.get("tools")}
                     for index, test in enumerate(data["tests"])]
    out: list[str] = []
    for index, (test, answer) in enumerate(zip(data["tests"], answers, strict=True)):
        out += [f"tests[{index}]: {d}" for d in text_differences(test, answer)]
    return out


def check_expression(name: str, data: dict[str, Any]) -> Check:
    """Each expression evaluated on its data: the value, or a run-time error."""
    answers = yield [{"id": f"{name}::{index}", "op": "expression",
                      "expression": test["expression"], "data": test["data"]}
                     for index, test in enumerate(data["tests"])]
    out: list[str] = []
    for index, (test, answer) in enumerate(zip(data["tests"], answers, strict=True)):
        expect = test["expect"]
        if "error" in expect:
            found = [] if "error" in answer else [
                f"{test['expression']}: expected a run-time error, got {answer['result']!r}"]
        elif "error" in answer:
            found = _failed(answer)
        else:
            found = differences(test["expression"], expect["value"], answer["result"])
        out += [f"tests[{index}]: {d}" for d in found]
    return out


def check_spec_validation(name: str, data: dict[str, Any]) -> Check:
    """The spec file loaded among its other files: its problems, located, in order."""
    (answer,) = yield [{"id": name, "op": "load", "file_name": data["file_name"],
                        "spec_text": data["spec_text"],
                        "other_files": data.get("other_files", {})}]
    if "error" in answer:
        return _failed(answer)
    got = []
    for problem in answer["result"]:
        seen = {k: problem.get(k) for k in ("rule", "line", "col", "pointer")}
        if problem.get("file", data["file_name"]) != data["file_name"]:
            seen["file"] = problem["file"]
        got.append(seen)
    return differences("problems", data["expect"]["problems"], got)
