"""Where a response template comes from: a dict, a JSON file, a tokenizer config, a model folder.

transformers saves a tokenizer's ``response_template`` as a key of
``tokenizer_config.json`` (beside ``chat_template.jinja`` in repositories that keep the
chat template in its own file). :func:`read_template_source` finds the template in
any of those and says how errors should name it; a legacy ``response_schema`` (JSON
Schema with ``x-regex`` directives, which transformers 5 no longer reads) is refused
by name rather than read as nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from ...errors import SpecError, SpecProblem

__all__ = ["read_template_source"]

_LEGACY_KEYS: Final = frozenset({"x-regex", "x-regex-iterator", "x-parser", "x-mapping",
                                 "x-mapping-regex", "x-regex-key-value", "properties"})


def read_template_source(source: str | Path | dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The template dict in ``source`` and how errors name it.

    ``source`` is a template dict, a tokenizer config dict holding ``response_template``,
    a JSON file holding either, or a model folder (a Hub snapshot) whose
    ``tokenizer_config.json`` holds it.
    """
    if isinstance(source, dict):
        return _unwrap(source, "<response template>"), "<response template>"
    if not isinstance(source, (str, Path)):
        raise TypeError(f"a response template is a dict or a path, not {type(source).__name__}")
    path = Path(source)
    shown = str(path)
    if path.is_dir():
        path = path / "tokenizer_config.json"
        shown = str(path)
    if path.name == "chat_template.jinja":  # the template lives beside it, in the config
        path = path.with_name("tokenizer_config.json")
        shown = str(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SpecError([SpecProblem(shown, 0, 0, "", f"cannot read: {reason}",
                                     "unreadable")]) from None
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise SpecError([SpecProblem(shown, 0, 0, "", f"not JSON: {exc}",
                                     "template-not-json")]) from None
    except RecursionError:
        raise SpecError([SpecProblem(shown, 0, 0, "", "not JSON this reader can take: nested"
                                     " too deep", "template-not-json")]) from None
    if not isinstance(data, dict):
        raise SpecError([SpecProblem(shown, 0, 0, "", "a response template must be a JSON"
                                     f" object, not {type(data).__name__}", "template-shape")])
    return _unwrap(data, shown), shown


def _unwrap(data: dict[str, Any], shown: str) -> dict[str, Any]:
    """The template itself: ``data``, or its ``response_template`` key (a tokenizer config)."""
    if "fields" in data or "start_anchor" in data or "start_anchor_pattern" in data:
        return data
    if "response_template" in data:
        inner = data["response_template"]
        if not isinstance(inner, dict):
            raise SpecError([SpecProblem(shown, 0, 0, "/response_template", "must be an"
                                         f" object, not {type(inner).__name__}",
                                         "template-shape")])
        return inner
    legacy = data.get("response_schema", data)
    if isinstance(legacy, dict) and _LEGACY_KEYS & set(legacy):
        raise SpecError([SpecProblem(
            shown, 0, 0, "/response_schema" if "response_schema" in data else "",
            "this is a legacy response_schema (JSON Schema with x-regex directives), which"
            " transformers 5 no longer reads; toolwire reads the response_template format",
            "template-legacy")])
    raise SpecError([SpecProblem(shown, 0, 0, "", "no response template here: expected"
                                 " 'fields' and 'start_anchor', or a 'response_template' key",
                                 "template-shape")])
