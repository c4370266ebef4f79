"""Fuzz the spec loader: ``strict_yaml.load`` then ``spec_loader.check_wire_document``.

Input: a spec file's bytes. A spec from a user's folder is untrusted text; loading it must
end, quickly, in a compiled spec or a :class:`toolwire.errors.SpecError` whose every problem is
located (``line``/``col`` ≥ 0) under a documented rule. A spec the checker passes must
compile, and the compiled spec must then run on real replies raising nothing but toolwire
errors: the checker, not the interpreter, is where a bad spec is stopped.

    python tools/fuzz/fuzz_spec_loader.py CORPUS_DIR -max_total_time=600
"""

from __future__ import annotations

import contextlib
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import _common

RULES = frozenset(
    {
        "yaml-syntax", "yaml-duplicate-key", "yaml-anchor", "yaml-alias", "yaml-tag",
        "yaml-ambiguous-scalar", "yaml-key", "yaml-documents", "yaml-too-deep",
        "not-a-mapping", "unknown-key", "missing-key", "wrong-type", "bad-value",
        "unsupported-version", "format-name", "type-source", "when-required",
        "expression-syntax", "expression-not-portable", "unreadable", "extends-unknown",
        "extends-cycle", "extends-remove", "tools-kind", "tools-translation", "tools-schema",
        "stream-op", "stream-rule-name", "stream-events", "stream-slot-list",
        "predicate-not-boolean", "bare-literal-name",
    }
)
FORMAT_NAME = re.compile(r"[a-z][a-z0-9_]*")
NOWHERE = Path(tempfile.mkdtemp(prefix="toolwire-fuzz-"))  # no sibling specs to extend

RESPONSES: list[Any] = []


def sample_responses() -> list[Any]:
    """The first 40 responses of the suite: enough variety, and a run per input stays fast."""
    import json

    found: list[Any] = []
    suite = _common.ROOT / "specs" / "conformance"
    for path in sorted(suite.rglob("*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        found.extend(t["response"] for t in case.get("tests", []) if "response" in t)
    return found[:40]


def setup() -> None:
    global toolwire
    toolwire = _common.import_instrumented()
    RESPONSES.extend(sample_responses())


def _check_problems(problems: Any) -> None:
    assert problems, "a SpecError without problems"
    for problem in problems:
        assert problem.rule in RULES, f"undocumented rule {problem.rule!r}"
        assert problem.line >= 0 and problem.col >= 0, problem
        assert isinstance(problem.pointer, str) and isinstance(problem.message, str)
        str(problem)


def check(text: str) -> None:
    from toolwire._spec.document import check_wire_document
    from toolwire._spec.extends import compiled_data, resolve_file
    from toolwire._spec.strict_yaml import load
    from toolwire._spec.wirespec import compile_wire_spec
    from toolwire._wire import interpreter
    from toolwire.errors import SpecError

    try:
        doc = load(text, "fuzz.yaml")
    except SpecError as exc:
        _check_problems(exc.problems)
        return
    problems = check_wire_document(doc, expected_format=None)
    if problems:
        _check_problems(problems)
    # Then as the registry loads it: ``extends`` resolved against the bundled specs, the
    # file named after its format so the name rule holds where the format is well formed.
    fmt = doc.data.get("format") if isinstance(doc.data, dict) else None
    name = fmt if isinstance(fmt, str) and FORMAT_NAME.fullmatch(fmt) else "fuzz"
    try:
        resolved = resolve_file(NOWHERE / f"{name}.yaml", doc)
    except SpecError as exc:
        _check_problems(exc.problems)
        return
    assert not problems or "extends" in doc.data, "the checker refused what the loader took"
    spec = compile_wire_spec(compiled_data(resolved), "fuzz.yaml")
    for response in RESPONSES:
        for strict in (None, True):
            # read() walks the spec's tables; extract() runs the Python generated from the
            # spec (toolwire._wire.fastpath): a fuzzed spec must neither break nor steer it.
            read = _common.outcome(
                lambda r=response, s=strict: interpreter.read(spec, r, s),
                lambda reply: [c.to_dict() for c in reply.calls],
            )
            extracted = _common.outcome(
                lambda r=response, s=strict: interpreter.extract(spec, r, s),
                lambda calls: [c.to_dict() for c in calls],
            )
            # read() also evaluates truncated and finish_reason, which may fail alone.
            if read[0] == "ok" or extracted[0] == "error":
                assert extracted == read or read[0] == extracted[0] == "error", (
                    f"extract and read disagree:\n{extracted}\n{read}"
                )
        if spec.sniff is not None:
            with contextlib.suppress(ValueError):
                spec.sniff.evaluate(response)


def test_one_input(raw: bytes) -> None:
    check(raw.decode("utf-8", "replace"))


def main(argv: list[str]) -> None:
    import atheris

    setup()
    atheris.Setup(argv, test_one_input)
    atheris.Fuzz()


toolwire: Any = None

if __name__ == "__main__":
    main(sys.argv)
