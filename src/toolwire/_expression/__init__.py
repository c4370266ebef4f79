"""The expression engine: the portable JMESPath subset, compiled to closures at load.

Specs hold JMESPath source text; :func:`compile_expression` checks it against the
portable subset and compiles it once into a Python closure, so evaluating a selector on
a reply is a plain function call. ``jmespath`` itself is imported only to parse source
text (never on the path of reading a reply from the precompiled bundle).

Modules: :mod:`.compiler` (parse, portability check, :class:`Expression`),
:mod:`.closures` (AST → closures), :mod:`.functions` (the standard functions),
:mod:`.values` (JMESPath's notions of type, truth and equality).
"""

from __future__ import annotations

from .closures import NotJSONError, element_of, field_of, path_steps
from .compiler import EvaluationError, Expression, ExpressionError, compile_expression
from .values import is_true

__all__ = [
    "EvaluationError",
    "Expression",
    "ExpressionError",
    "NotJSONError",
    "compile_expression",
    "element_of",
    "field_of",
    "is_true",
    "path_steps",
]
