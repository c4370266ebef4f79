"""Tool calls written inside model text, read by declarative text specs.

Open-weight models served without a tool-call parser write their calls into the
reply: ``<tool_call>{…}</tool_call>`` (Hermes), ``[TOOL_CALLS]…`` (Mistral),
DeepSeek's tool-calls-begin token with its fullwidth bars, and so on. Where vLLM and SGLang keep one
hand-written parser class per model family, toolwire describes each format as a YAML
file under ``specs/text/`` (markers, how blocks nest, a payload grammar, JMESPath
selectors) and runs them all with one linear-time scanner.

Modules, one duty each: :mod:`.compile` loads and checks a spec (with :mod:`.validate`
for the meta-schema and :mod:`.rules` for the rest), :mod:`.spec` holds it,
:mod:`.build` makes a :class:`~.scanner.Scanner` for given parameters, :mod:`.scanner`
scans a reply (reasoning regions, sections) and :mod:`.blocks` reads its blocks (with
:mod:`.occurrences`), ``grammar_*`` read one block each (:mod:`.pyliteral` reads Python
literals without evaluating them, :mod:`.partial_json` the JSON a reply was cut inside), and
:mod:`.reply` holds the :class:`TextReply` and the account of its call regions.
"""

from __future__ import annotations

from .._values.text_reply import TextRegion, TextReply
from .compile import compile_text_spec, load_text_spec
from .extract import (
    bundled_text_specs,
    extract_from_text,
    extract_hermes_from_text,
    extract_text,
    read_text,
    read_text_spec,
)
from .spec import TextSpec

__all__ = [
    "TextRegion",
    "TextReply",
    "TextSpec",
    "bundled_text_specs",
    "compile_text_spec",
    "extract_from_text",
    "extract_hermes_from_text",
    "extract_text",
    "load_text_spec",
    "read_text",
    "read_text_spec",
]
