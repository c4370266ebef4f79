"""Loading a text spec: strict YAML, the meta-schema, the cross rules, then a :class:`TextSpec`.

Every problem of a file is gathered and raised at once as one :class:`SpecError`,
each located ``path:line:col`` with its JSON pointer and a stable rule code (the
meta-schema's in :mod:`.validate`, the others in :mod:`.rules`), so a spec author
fixes a file in one pass. Expressions are compiled and markers parsed here, once:
extraction never sees a spec that has not passed every check.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .._expression import Expression
from .._spec.document import read_document
from .._spec.strict_yaml import Document
from ..errors import SpecError
from .markers import Template
from .rules import check_rules
from .spec import ParamSpec, TextSpec
from .validate import schema_problems

__all__ = ["compile_text_spec", "load_text_spec"]


def compile_text_spec(document: Document) -> TextSpec:
    """Check ``document`` (from :func:`toolwire._spec.strict_yaml.load`) and compile it.

    Raises :class:`SpecError` with every problem found, located and coded.
    """
    if not isinstance(document.data, dict):
        kind = type(document.data).__name__ if document.data is not None else "empty"
        problem = document.problem("", f"a spec must be a mapping, not {kind}", "not-a-mapping")
        raise SpecError([problem])
    problems = list(schema_problems(document))
    templates: dict[str, Template] = {}
    compiled: dict[str, Expression] = {}
    problems.extend(check_rules(document, templates, compiled))
    if problems:
        raise SpecError(problems)
    data: dict[str, Any] = document.data
    return TextSpec(
        data=data,
        path=document.path,
        param_specs=_param_specs(data),
        templates=templates,
        expressions=compiled,
    )


def _param_specs(data: dict[str, Any]) -> dict[str, ParamSpec]:
    specs: dict[str, ParamSpec] = {}
    for name, param in data.get("params", {}).items():
        pattern = re.compile(param["pattern"]) if "pattern" in param else None
        specs[name] = ParamSpec(param["default"], param["description"], pattern)
    return specs


def load_text_spec(path: str | Path) -> TextSpec:
    """Read, check and compile the text spec file at ``path``."""
    return compile_text_spec(read_document(path))
