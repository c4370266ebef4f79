"""The jsonschema validators toolwire checks calls with: nothing retrieved, every regular
expression bounded, the providers' formats asserted.

Three things differ from a plain ``jsonschema.Draft202012Validator(schema)``:

* the registry is :func:`~.references.no_retrieval`: a ``$ref`` outside the schema is
  never fetched (and :func:`~.references.check_references` refuses it at build);
* every keyword that searches a pattern (``pattern``, ``patternProperties``, and
  ``additionalProperties`` and ``unevaluatedProperties``, which consult
  ``patternProperties``) runs it on the bounded regex engine (:mod:`.keywords`), so a
  developer's pattern on a model's text cannot hang a loop; a search that runs out of
  steps is its own error, keyword ``regex_budget``;
* ``format`` is asserted for the formats of :mod:`.formats`.

:func:`check_patterns` compiles every pattern of a schema when its tools are built, so a
pattern the bounded engines cannot run is refused then, naming where it is
(:func:`check_pattern_nesting` first refuses one nested too deeply to be read at all).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .._boundedre import MAX_NESTING, Unsupported, nesting
from .._boundedre import compile as compile_bounded
from .dialect import SchemaProblem
from .formats import FORMATS
from .keywords import bounded_keywords
from .references import no_retrieval, subschemas

__all__ = ["bounded_class", "check_pattern_nesting", "check_patterns", "make_validator"]

_CLASSES: dict[Any, Any] = {}
_FORMAT_CHECKER: Any = None


def _format_checker() -> Any:
    global _FORMAT_CHECKER
    if _FORMAT_CHECKER is None:
        from jsonschema import FormatChecker  # lazy: jsonschema (66 ms) only for a schema

        checker = FormatChecker(formats=())
        for name, check in FORMATS.items():
            checker.checks(name)(lambda value, check=check: not isinstance(value, str)
                                 or check(value))
        _FORMAT_CHECKER = checker
    return _FORMAT_CHECKER


def bounded_class(cls: Any) -> Any:
    """``cls`` (a jsonschema draft's validator) with bounded patterns."""
    found = _CLASSES.get(cls)
    if found is None:
        from jsonschema import validators  # lazy: as above

        found = validators.extend(  # type: ignore[no-untyped-call]
            cls, bounded_keywords(cls.VALIDATORS)
        )
        _CLASSES[cls] = found
    return found


def make_validator(cls: Any, schema: Any) -> Any:
    """A validator of ``schema`` for draft ``cls``: no retrieval, bounded, formats checked."""
    return bounded_class(cls)(schema, registry=no_retrieval(),
                              format_checker=_format_checker())


def _patterns(schema: Any) -> Iterator[tuple[str, str]]:
    """``(pointer, pattern)`` for every ``pattern`` and ``patternProperties`` key of
    ``schema``; the pointer names the keyword."""
    for pointer, node in subschemas(schema):
        if isinstance(node.get("pattern"), str):
            yield f"{pointer}/pattern", node["pattern"]
        if isinstance(node.get("patternProperties"), dict):
            for pattern in node["patternProperties"]:
                if isinstance(pattern, str):
                    yield f"{pointer}/patternProperties", pattern


def check_pattern_nesting(schema: Any) -> None:
    """Refuse a pattern whose groups nest deeper than :data:`~.._boundedre.MAX_NESTING`
    before anything hands it to :mod:`re` (the meta-schema's ``format: regex`` does, and
    :mod:`re` recurses once per level: RecursionError, not a verdict)."""
    for where, pattern in _patterns(schema):
        depth = nesting(pattern)
        if depth > MAX_NESTING:
            raise SchemaProblem(where, f"the pattern nests groups {depth} deep; at most"
                                f" {MAX_NESTING} can be run with a bound on their time")


def check_patterns(schema: Any) -> None:
    """Compile every ``pattern`` and ``patternProperties`` key of ``schema`` for the
    bounded engines; :class:`SchemaProblem` names one they do not run."""
    for where, pattern in _patterns(schema):
        try:
            compile_bounded(pattern)
        except (Unsupported, ValueError) as exc:
            raise SchemaProblem(where, f"the pattern {pattern!r} cannot be run with a"
                                f" bound on its time: {exc}") from None
