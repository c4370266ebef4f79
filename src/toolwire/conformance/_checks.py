"""Which check runs a case of each kind (:mod:`.checks_wire`, :mod:`.checks_stream`,
:mod:`.checks_other`)."""

from __future__ import annotations

from ._checks_other import check_expression, check_spec_validation, check_text
from ._checks_stream import check_stream
from ._checks_wire import Check, check_interpreter, check_tools, check_wire
from ._suite import Case

__all__ = ["Check", "check_case"]

_CHECKS = {
    "wire": check_wire, "interpreter": check_interpreter, "tools": check_tools,
    "stream": check_stream, "text": check_text, "expression": check_expression,
    "spec-validation": check_spec_validation,
}


def check_case(case: Case) -> Check:
    """The check of one case (valid against its kind's case schema)."""
    return _CHECKS[case.kind](case.name, case.data)
