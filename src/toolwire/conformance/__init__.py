"""The conformance suite run through any implementation: ``toolwire conformance``.

An implementation in another language answers requests — one JSON object per line on its
standard input, one answer per line on its standard output (specs/README.md §10, the shapes
in ``specs/schema/conformance-{request,answer}.v1.schema.json``) — and this package turns
every case of the suite into requests and compares the answers as the Python suite compares
toolwire's own (:mod:`toolwire.conformance._wire_cases`). Without a program, toolwire itself
answers (:mod:`.reference`).

Modules: :mod:`.suite` (the case files), :mod:`.checks` (per kind: the requests and the
comparison), :mod:`.program` (the external process), :mod:`.reference` (toolwire as an
implementation), :mod:`.runner` (the run).
"""

from __future__ import annotations

from ._runner import CaseResult, run_suite
from ._suite import KINDS, Case, load_cases

__all__ = ["KINDS", "Case", "CaseResult", "load_cases", "run_suite"]
