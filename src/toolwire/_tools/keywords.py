"""The JSON Schema keywords that search a regular expression, on the bounded engine.

jsonschema searches patterns with Python's :mod:`re`, which backtracks: a developer's
``patternProperties`` key such as ``^([a-z]+_?)*$`` takes time exponential in the length of
a model's property name. Four keywords search patterns, and :func:`bounded_keywords` gives
each a function that searches them with :mod:`toolwire._boundedre` instead, the verdicts
otherwise jsonschema's:

* ``pattern`` on a string, ``patternProperties`` on each property name;
* ``additionalProperties``, whose "additional" properties are those that ``properties``
  does not name and no ``patternProperties`` key matches;
* ``unevaluatedProperties``, whose "evaluated" properties include those a
  ``patternProperties`` key matches, anywhere the schema applies in place (``allOf``,
  ``$ref``, ``if``/``then``/``else``…; :func:`_evaluated`).

A search that runs out of steps decides nothing: the value (for a property name, the
property) gets the error keyword ``regex_budget``, and the property counts as matched, so
no second error is made of an answer that never came.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .._boundedre import compile as compile_bounded
from ..errors import RegexBudgetExceeded

__all__ = ["bounded_keywords"]


def _search(pattern: str, text: str) -> bool:
    return compile_bounded(pattern).test(text)


def _error(message: str, **fields: Any) -> Any:
    from jsonschema import ValidationError  # lazy: jsonschema (66 ms) only where a schema needs it

    return ValidationError(message, **fields)


def _budget_error(pattern: str, exc: RegexBudgetExceeded, key: str | None = None) -> Any:
    error = _error(
        f"the value could not be checked against {pattern!r}: the call's searches ran out of"
        f" their budget of {exc.steps:,} steps",
        validator="regex_budget",
    )
    if key is not None:
        error.path.appendleft(key)
    return error


def _matched(patterns: Any, key: str, overruns: list[Any]) -> bool:
    """Whether a pattern of ``patterns`` (``patternProperties``' keys) matches ``key``;
    a search out of steps adds its error to ``overruns`` and counts as a match."""
    if not isinstance(patterns, Mapping):
        return False
    for pattern in patterns:
        try:
            if _search(pattern, key):
                return True
        except RegexBudgetExceeded as exc:
            overruns.append(_budget_error(pattern, exc, key))
            return True
    return False


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "string"):
        return
    try:
        found = _search(pattern, instance)
    except RegexBudgetExceeded as exc:
        yield _budget_error(pattern, exc)
        return
    if not found:
        yield _error(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: dict[str, Any], instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            try:
                found = _search(pattern, key)
            except RegexBudgetExceeded as exc:
                yield _budget_error(pattern, exc, key)
                continue
            if found:
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(
    validator: Any, extra: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    properties = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    overruns: list[Any] = []
    extras = [key for key in instance
              if key not in properties and not _matched(patterns, key, overruns)]
    yield from overruns
    if validator.is_type(extra, "object"):
        for key in extras:
            yield from validator.descend(instance[key], extra, path=key)
    elif extra is False and extras:
        names = ", ".join(repr(key) for key in sorted(extras))
        if patterns:
            verb = "does" if len(extras) == 1 else "do"
            regexes = ", ".join(repr(p) for p in sorted(patterns))
            yield _error(f"{names} {verb} not match any of the regexes: {regexes}")
        else:
            verb = "was" if len(extras) == 1 else "were"
            yield _error(f"Additional properties are not allowed ({names} {verb} unexpected)")


def _unevaluated_properties(
    validator: Any, unevaluated: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    overruns: list[Any] = []
    evaluated = _evaluated(validator, instance, schema, overruns)
    yield from overruns
    failing = [key for key in instance if key not in evaluated and any(
        True for _ in validator.descend(instance[key], unevaluated, path=key, schema_path=key))]
    if not failing:
        return
    verb = "was" if len(failing) == 1 else "were"
    if unevaluated is False:
        names = ", ".join(repr(key) for key in sorted(failing))
        yield _error(f"Unevaluated properties are not allowed ({names} {verb} unexpected)")
    else:
        names = ", ".join(repr(key) for key in failing)
        yield _error("Unevaluated properties are not valid under the given schema"
                     f" ({names} {verb} unevaluated and invalid)")


def _valid(validator: Any, instance: Any, schema: Any) -> bool:
    return next(iter(validator.descend(instance, schema)), None) is None


def _evaluated(validator: Any, instance: dict[str, Any], schema: Any,
               overruns: list[Any]) -> set[str]:
    """The properties of ``instance`` that ``schema`` evaluates (the keys its
    ``unevaluatedProperties`` leaves alone), as jsonschema collects them: through
    ``properties``, ``patternProperties`` (searched bounded), ``additionalProperties`` and
    ``unevaluatedProperties`` (keys whose value is valid against them), and, into the
    subschemas that apply in place and hold, ``$ref``, ``$dynamicRef``, ``$recursiveRef``,
    ``dependentSchemas``, ``allOf``, ``anyOf``, ``oneOf``, ``if``/``then``/``else``."""
    if not isinstance(schema, Mapping):
        return set()
    found: set[str] = set()
    for keyword in ("$ref", "$dynamicRef", "$recursiveRef"):
        if isinstance(schema.get(keyword), str) and keyword in validator.VALIDATORS:
            resolved = _resolve(validator, keyword, schema[keyword])
            inner = validator.evolve(schema=resolved.contents, _resolver=resolved.resolver)
            found |= _evaluated(inner, instance, resolved.contents, overruns)
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        found.update(key for key in instance if key in properties)
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        if keyword in schema:
            found.update(key for key, value in instance.items()
                         if _valid(validator, value, schema[keyword]))
    patterns = schema.get("patternProperties")
    if isinstance(patterns, Mapping):
        found.update(key for key in instance if _matched(patterns, key, overruns))
    dependent = schema.get("dependentSchemas")
    if isinstance(dependent, Mapping):
        for key, subschema in dependent.items():
            if key in instance:
                found |= _evaluated(validator, instance, subschema, overruns)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for subschema in schema.get(keyword, ()):
            if _valid(validator, instance, subschema):
                found |= _evaluated(validator, instance, subschema, overruns)
    if "if" in schema:
        if _valid(validator, instance, schema["if"]):
            found |= _evaluated(validator, instance, schema["if"], overruns)
            if "then" in schema:
                found |= _evaluated(validator, instance, schema["then"], overruns)
        elif "else" in schema:
            found |= _evaluated(validator, instance, schema["else"], overruns)
    return found


def _resolve(validator: Any, keyword: str, ref: str) -> Any:
    """What a reference of the schema being checked leads to, with the resolver to go on
    from there (every reference resolves: :func:`~.references.check_references`)."""
    resolver = validator._resolver  # jsonschema's own resolver of this validation
    if keyword == "$recursiveRef":
        from referencing.jsonschema import lookup_recursive_ref  # lazy: as above

        return lookup_recursive_ref(resolver)
    return resolver.lookup(ref)


_REPLACEMENTS = {
    "pattern": _pattern,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
    "unevaluatedProperties": _unevaluated_properties,
}


def bounded_keywords(known: Mapping[str, Any]) -> dict[str, Any]:
    """The bounded function of each keyword that searches patterns among ``known`` (a
    jsonschema draft's ``VALIDATORS``): a draft gains no keyword it did not have."""
    return {name: function for name, function in _REPLACEMENTS.items() if name in known}
